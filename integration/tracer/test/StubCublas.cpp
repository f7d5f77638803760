//===- StubCublas.cpp - A cuBLAS without a GPU, for the tracer test -------===//
//
// A handful of entry points with the real signatures. They compute nothing;
// they return the statuses the real library documents for their arguments
// (CUBLAS_STATUS_INVALID_VALUE for an lda below its minimum, say), so that
// the tracer's records can be checked against known answers. Handles and
// descriptors are never freed, so that a destroyed one is never handed out
// again.
//
//===----------------------------------------------------------------------===//

#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <dlfcn.h>
#include <mutex>
#include <set>

namespace {

std::mutex Mutex;
std::set<const void *> LiveObjects;

template <class T> cublasStatus_t create(T *Out) {
  if (!Out)
    return CUBLAS_STATUS_INVALID_VALUE;
  *Out = reinterpret_cast<T>(new char[64]);
  std::lock_guard<std::mutex> Lock(Mutex);
  LiveObjects.insert(*Out);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t destroy(const void *P) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return LiveObjects.erase(P) ? CUBLAS_STATUS_SUCCESS
                              : CUBLAS_STATUS_NOT_INITIALIZED;
}

bool live(const void *P) {
  std::lock_guard<std::mutex> Lock(Mutex);
  return LiveObjects.count(P) != 0;
}

} // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *Handle) {
  return create(Handle);
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t Handle) {
  return destroy(Handle);
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t Handle,
                                       cublasPointerMode_t) {
  return live(Handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasSetVector(int, int ElemSize, const void *, int Incx,
                               void *, int Incy) {
  return ElemSize <= 0 || Incx <= 0 || Incy <= 0 ? CUBLAS_STATUS_INVALID_VALUE
                                                 : CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t Handle, int, const float *,
                              const float *, int, float *, int) {
  return live(Handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

cublasStatus_t cublasSscal_v2(cublasHandle_t Handle, int, const float *,
                              float *, int) {
  return live(Handle) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}

// Calls an entry point of its own through the process's symbol table, as
// libcublas calls libcublasLt: the tracer must forward such calls without
// recording them (here: a host x that would otherwise be reported).
cublasStatus_t cublasSnrm2_v2(cublasHandle_t Handle, int N, const float *, int,
                              float *Result) {
  using Axpy = cublasStatus_t (*)(cublasHandle_t, int, const float *,
                                  const float *, int, float *, int);
  static float HostX[4], HostY[4];
  static const float One = 1.0f;
  auto Inner = reinterpret_cast<Axpy>(dlsym(RTLD_DEFAULT, "cublasSaxpy_v2"));
  if (!Inner || Inner(Handle, 4, &One, HostX, 1, HostY, 1) != 0)
    return CUBLAS_STATUS_INTERNAL_ERROR;
  *Result = static_cast<float>(N);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t Handle, cublasOperation_t TransA,
                              cublasOperation_t TransB, int M, int N, int K,
                              const float *, const float *, int Lda,
                              const float *, int Ldb, const float *, float *,
                              int Ldc) {
  if (!live(Handle))
    return CUBLAS_STATUS_NOT_INITIALIZED;
  auto Rows = [](cublasOperation_t Op, int R, int C) {
    return Op == CUBLAS_OP_N ? R : C;
  };
  if (M < 0 || N < 0 || K < 0 || Lda < std::max(1, Rows(TransA, M, K)) ||
      Ldb < std::max(1, Rows(TransB, K, N)) || Ldc < std::max(1, M))
    return CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *Layout,
                                          cudaDataType, uint64_t, uint64_t,
                                          int64_t) {
  return create(Layout);
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t Layout) {
  return destroy(Layout);
}

} // extern "C"
