// RUN: %check_clang_tidy %s cublas-handle-use-after-destroy %t

#include <cublas_v2.h>
#include <cublasLt.h>

void log_status(cublasStatus_t);
static void release(cublasHandle_t h) { cublasDestroy(h); }

void used_after_destroy(const float *x, float *y, int n) {
  cublasHandle_t h;
  cublasCreate(&h);
  const float a = 1.0f;
  cublasSaxpy(h, n, &a, x, 1, y, 1);
  cublasDestroy(h);
  cublasSaxpy(h, n, &a, x, 1, y, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'h' was destroyed here
}

void destroyed_twice(cublasLtMatmulDesc_t desc) {
  // A parameter: where it came from is unknown, but after this destroy it is gone.
  cublasLtMatmulDescDestroy(desc);
  log_status(cublasLtMatmulDescDestroy(desc));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: descriptor 'desc' is destroyed again after it was destroyed
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'desc' was destroyed here
}

void destroyed_on_every_branch(bool b) {
  cublasHandle_t h;
  cublasCreate(&h);
  if (b)
    cublasDestroy(h);
  else
    release(h);
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' is used after it was destroyed
  // CHECK-NOTES: :[[@LINE-5]]:5: note: 'h' was destroyed here
}

void initialised_after_destroy() {
  // cublasLtMatmulPreferenceInit is an inline helper of the header: it
  // re-initialises the descriptor it is given, here one already released.
  cublasLtMatmulPreference_t pref;
  if (cublasLtMatmulPreferenceCreate(&pref) != CUBLAS_STATUS_SUCCESS)
    return;
  cublasLtMatmulPreferenceDestroy(pref);
  log_status(cublasLtMatmulPreferenceInit(pref));
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: descriptor 'pref' is used after it was destroyed [cublas-handle-use-after-destroy]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: 'pref' was destroyed here
}

void destroyed_on_some_paths(bool b) {
  // Fine when !b; when b, the use follows the destroy: every way on from the
  // destroy reaches it (cublas-handle-use-after-destroy-paths.cpp).
  cublasHandle_t h;
  cublasCreate(&h);
  if (b)
    cublasDestroy(h);
  cublasSetStream(h, nullptr);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: handle 'h' is used after it was destroyed
  // CHECK-NOTES: :[[@LINE-3]]:5: note: 'h' was destroyed here, and every way on from here uses it
}

//===--- Not flagged --------------------------------------------------------===//

void recreated(int n) {
  cublasHandle_t h;
  cublasCreate(&h);
  for (int i = 0; i < n; ++i) {
    cublasDestroy(h);
    cublasCreate(&h);
    cublasSetStream(h, nullptr);
  }
  cublasDestroy(h);
}

void reset_to_null() {
  cublasHandle_t h;
  cublasCreate(&h);
  cublasDestroy(h);
  h = nullptr;
  if (h)
    cublasSetStream(h, nullptr);
}

void destroy_in_a_loop_guarded(cublasHandle_t *hs, int n) {
  for (int i = 0; i < n; ++i) {
    cublasHandle_t h = hs[i];
    cublasDestroy(h);
  }
}
