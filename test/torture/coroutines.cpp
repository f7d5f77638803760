// A coroutine whose body calls cuBLAS: the CFG may be unavailable; the
// checks must finish. The dropped status of cublasDestroy is found.
// EXPECT: cublas-unchecked-status @ 22
#include <coroutine>
#include <cublas_v2.h>

struct Task {
  struct promise_type {
    Task get_return_object() { return {}; }
    std::suspend_never initial_suspend() { return {}; }
    std::suspend_never final_suspend() noexcept { return {}; }
    void return_value(int) {}
    void unhandled_exception() {}
  };
};

Task work(cublasHandle_t h) {
  cublasHandle_t local;
  if (cublasCreate(&local) != CUBLAS_STATUS_SUCCESS)
    co_return 1;
  co_await std::suspend_never{};
  cublasDestroy(local);
  co_return cublasSetStream(h, nullptr) == CUBLAS_STATUS_SUCCESS ? 0 : 1;
}
