// RUN: %check_clang_tidy %s cublas-unchecked-status %t
// RUN: %check_clang_tidy -check-suffix=ALL %s cublas-unchecked-status %t.all \
// RUN:   -config="{CheckOptions: {cublas-unchecked-status.CheckTeardown: true}}"

// The status of a destroy at the program's teardown has nobody to tell: a
// destructor cannot report it, nor can a deleter or a method the destructor
// runs that returns nothing and only releases, and at the end of `main` the
// process is about to exit. Destroys there are silent unless CheckTeardown is
// set; a destroy the program goes on after (in a loop, in a function of its
// own, in one that works or returns a status, with more cuBLAS work behind
// it) is reported, and so is anything but a destroy.

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    if ((x) != 0)                                                              \
      std::abort();                                                            \
  } while (0)

// --- Destructors --------------------------------------------------------------

struct Blas {
  cublasHandle_t h{};
  Blas() { CK(cublasCreate(&h)); }
  ~Blas() {
    cublasDestroy(h);
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded; a failure here goes unnoticed [cublas-unchecked-status]
  }
};

struct Neighbours {
  cusolverDnHandle_t solver{};
  cusparseHandle_t sparse{};
  cusparseSpMatDescr_t mat{};
  std::vector<cublasLtHandle_t> lts;
  ~Neighbours() {
    if (solver)
      cusolverDnDestroy(solver);
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:7: warning: the cusolverStatus_t returned by 'cusolverDnDestroy' is discarded
    cusparseDestroySpMat(mat);
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:5: warning: the cusparseStatus_t returned by 'cusparseDestroySpMat' is discarded
    cusparseDestroy(sparse);
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:5: warning: the cusparseStatus_t returned by 'cusparseDestroy' is discarded
    for (cublasLtHandle_t lt : lts)
      cublasLtDestroy(lt);
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:7: warning: the cublasStatus_t returned by 'cublasLtDestroy' is discarded
  }
};

// Not a destroy: a destructor that resets the stream still lets a failure go.
struct Streamed {
  cublasHandle_t h{};
  ~Streamed() {
    cublasSetStream(h, nullptr);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
    // CHECK-MESSAGES-ALL: :[[@LINE-2]]:5: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
    cublasStatus_t st = cublasDestroy(h);
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:25: warning: the cublasStatus_t returned by 'cublasDestroy' is stored in 'st' but never read
  }
};

// --- Deleters and methods the destructor runs ----------------------------------

// Nothing but destroys, no result to tell a failure through, and run by the
// destructor.
struct Context {
  cublasHandle_t blas = nullptr;
  cusolverDnHandle_t solver = nullptr;
  ~Context() { TearDown(); }
  void TearDown() {
    if (solver != nullptr) {
      cusolverDnDestroy(solver);
      // CHECK-MESSAGES-ALL: :[[@LINE-1]]:7: warning: the cusolverStatus_t returned by 'cusolverDnDestroy' is discarded
      solver = nullptr;
    }
    if (blas != nullptr) {
      cublasDestroy(blas);
      // CHECK-MESSAGES-ALL: :[[@LINE-1]]:7: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
      blas = nullptr;
    }
  }
};

auto make_deleter() {
  return [](cusparseSpMatDescr_t d) { cusparseDestroySpMat(d); };
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:39: warning: the cusparseStatus_t returned by 'cusparseDestroySpMat' is discarded
}

// A cleanup callback that captures the handle is called where the program
// goes on.
void with_cleanup(cublasHandle_t h) {
  auto cleanup = [h] { cublasDestroy(h); };
  // CHECK-MESSAGES: :[[@LINE-1]]:24: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:24: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  cleanup();
}

// Only releases too, but no destructor runs it: a function of its own,
// which the program may go on after.
struct Session {
  cublasHandle_t blas = nullptr;
  void close() {
    cublasDestroy(blas);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
    // CHECK-MESSAGES-ALL: :[[@LINE-2]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  }
};

void shutdown(cublasHandle_t h, float *d) {
  cudaFree(d);
  cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
}

// --- Functions the program goes on after ----------------------------------------

// A result to tell a failure through, dropped.
cublasStatus_t close_handle(cublasHandle_t h) {
  cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  return CUBLAS_STATUS_SUCCESS;
}

// Work, then a destroy: the caller goes on.
void scale_once(float *d, int n) {
  cublasHandle_t h;
  CK(cublasCreate(&h));
  const float two = 2.0f;
  CK(cublasSscal(h, n, &two, d, 1));
  cublasDestroy(h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
}

// A destroy and a create: the handle is made again.
void reset(cublasHandle_t *h) {
  cublasDestroy(*h);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  CK(cublasCreate(h));
}

// --- The end of main --------------------------------------------------------------

static void print_sum(cublasHandle_t h, const float *d) {
  cublasHandle_t other;
  CK(cublasCreate(&other));
  float sum = 0;
  CK(cublasSasum(h, 64, d, 1, &sum));
  std::printf("%f\n", sum);
}

int main(int argc, char **) {
  cublasHandle_t h, spare;
  CK(cublasCreate(&h));
  CK(cublasCreate(&spare));
  float *d = nullptr;
  CK(cudaMalloc(&d, 64 * sizeof(float)));
  for (int i = 0; i < argc; ++i) {
    cublasHandle_t per;
    CK(cublasCreate(&per));
    cublasDestroy(per);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
    // CHECK-MESSAGES-ALL: :[[@LINE-2]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  }
  // cuBLAS work follows: the program goes on.
  cublasDestroy(spare);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  cublasHandle_t other;
  CK(cublasCreate(&other));
  float sum = 0;
  CK(cublasSasum(h, 64, d, 1, &sum));
  if (sum < 0) {
    std::printf("negative sum\n");
    cublasStatus_t st = cublasDestroy(h); // an error path that returns
    // CHECK-MESSAGES-ALL: :[[@LINE-1]]:25: warning: the cublasStatus_t returned by 'cublasDestroy' is stored in 'st' but never read
    cudaFree(d);
    return 1;
  }
  if (sum > 1e6f) {
    cublasDestroy(h); // then the work goes on
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
    // CHECK-MESSAGES-ALL: :[[@LINE-2]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
    CK(cublasCreate(&h));
  }
  cublasSetStream(h, nullptr); // not a destroy
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasSetStream' is discarded
  cublasDestroy(other);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  // CHECK-MESSAGES-ALL: :[[@LINE-2]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  print_sum(h, d); // cuBLAS work in a function of the file follows
  cudaFree(d);
  cublasDestroy(h);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:3: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  cublasHandle_t workers[4] = {};
  for (int i = 0; i < 4; ++i) // a loop that only destroys
    cublasDestroy(workers[i]);
  // CHECK-MESSAGES-ALL: :[[@LINE-1]]:5: warning: the cublasStatus_t returned by 'cublasDestroy' is discarded
  cudaDeviceReset();
  std::printf("done\n");
  return 0;
}
