// goto spaghetti, recursion between helpers, lambdas, switch fall-through,
// exceptions, and handles in arrays and structs. The goto loop leaks the
// handle when it jumps back to `start` without a destroy, and drops a status.
// EXPECT: cublas-handle-leak @ 23
// EXPECT: cublas-unchecked-status @ 27
#include <cublas_v2.h>
#include <stdexcept>

struct Pair {
  cublasHandle_t a, b;
};

static int ping(cublasHandle_t h, int n);
static int pong(cublasHandle_t h, int n) { return n ? ping(h, n - 1) : (int)cublasDestroy(h); }
static int ping(cublasHandle_t h, int n) { return n ? pong(h, n - 1) : (int)cublasSetStream(h, nullptr); }

int spaghetti(int n) {
  cublasHandle_t h = nullptr;
  int i = 0;
start:
  if (i++ > n)
    goto done;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    goto fail;
  switch (i % 3) {
  case 0:
    cublasDestroy(h);
    [[fallthrough]];
  case 1:
    goto start;
  default:
    break;
  }
  if (ping(h, i) < 0)
    goto fail;
  goto start;
done:
  return 0;
fail:
  return 1;
}

int lambdas(Pair &p, cublasHandle_t arr[2]) {
  auto make = [](cublasHandle_t *out) { return cublasCreate(out); };
  if (make(&p.a) != CUBLAS_STATUS_SUCCESS || make(&arr[1]) != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error("create");
  auto destroy_all = [&]() {
    for (int i = 0; i < 2; ++i)
      if (cublasDestroy(arr[i]) != CUBLAS_STATUS_SUCCESS)
        return 1;
    return cublasDestroy(p.a) == CUBLAS_STATUS_SUCCESS ? 0 : 1;
  };
  try {
    return destroy_all();
  } catch (...) {
    return -1;
  }
}
