// RUN: %check_clang_tidy %s cublas-matrix-extents %t
// Batched routines read batchCount device pointers from each pointer array:
// an array allocated, or filled, with fewer is read past its end.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <vector>

static const float One = 1.0f, Zero = 0.0f;

void fewerAllocated(cublasHandle_t h, const float *const *dBs, float *const *dCs) {
  float **dAs;
  cudaMalloc(&dAs, 4 * sizeof(float *));
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &One, dAs, 64,
                     dBs, 64, &Zero, dCs, 64, 8);
  // CHECK-NOTES: :[[@LINE-2]]:69: warning: 'cublasSgemmBatched' reads batchCount = 8 device pointers from A, but 'dAs' holds 4 pointers (cudaMalloc of 32 bytes): the last ones are read past its end [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
  cudaFree(dAs);
}

// Three arrays carved from one allocation sized as floats: the third
// starts past its end and holds none of its pointers.
void carvedPastTheEnd(cublasHandle_t h, float *const *dAs, float *const *dBs) {
  const int batch = 16;
  float **ptrs;
  cudaMalloc(&ptrs, 3 * batch * sizeof(float));
  float **dCs = ptrs + 2 * batch;
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 32, 32, 32, &One, dAs, 32,
                     dBs, 32, &Zero, dCs, 32, batch);
  // CHECK-NOTES: :[[@LINE-1]]:38: warning: 'cublasSgemmBatched' reads batchCount = 16 device pointers from C, but 'dCs' holds no pointers (cudaMalloc of 192 bytes, from byte 256): every one is read past its end [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated here
  cudaFree(ptrs);
}

// Pointers sized as floats: half the bytes the pointers need.
void floatSized(cublasHandle_t h, int n, int batch, float *const *dAs,
                float *const *dBs) {
  float **dCs;
  cudaMalloc(&dCs, batch * sizeof(float));
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &One, dAs, n, dBs,
                     n, &Zero, dCs, n, batch);
  // CHECK-NOTES: :[[@LINE-1]]:32: warning: 'cublasSgemmBatched' reads batchCount = batch device pointers from C, but 'dCs' holds 4*batch bytes (cudaMalloc of batch * sizeof(float) bytes): the last ones are read past its end [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: allocated here
  cudaFree(dCs);
}

void factorize(cublasHandle_t h, int n, int batch, int *pivots, int *info) {
  float **dAs;
  cudaMalloc(&dAs, (batch - 1) * sizeof(float *));
  cublasSgetrfBatched(h, n, dAs, n, pivots, info, batch);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'cublasSgetrfBatched' reads batchSize = batch device pointers from A, but 'dAs' holds batch - 1 pointers (cudaMalloc of (batch - 1) * sizeof(float *) bytes): the last ones are read past its end [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: allocated here
  cudaFree(dAs);
}

// Filled by a copy of fewer pointers than the batch: the rest is garbage.
void fewerCopied(cublasHandle_t h, int n, int batch, float *const *dBs,
                 float *const *dCs) {
  std::vector<float *> Host(batch);
  float **dAs;
  cudaMalloc(&dAs, batch * sizeof(float *));
  cudaMemcpy(dAs, Host.data(), batch * sizeof(float), cudaMemcpyHostToDevice);
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &One, dAs, n, dBs,
                     n, &Zero, dCs, n, batch);
  // CHECK-NOTES: :[[@LINE-2]]:66: warning: 'cublasSgemmBatched' reads batchCount = batch device pointers from A, but only 4*batch bytes are copied into 'dAs': the others are not pointers this code wrote [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: only 4*batch bytes are copied into it here
  cudaFree(dAs);
}

void gemmBatchedEx(cublasHandle_t h, int n, const void *const *dBs,
                   void *const *dCs) {
  const void **dAs;
  cudaMalloc(&dAs, 2 * sizeof(void *));
  cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &One, dAs,
                      CUDA_R_32F, n, dBs, CUDA_R_32F, n, &Zero, dCs,
                      CUDA_R_32F, n, 3, CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-4]]:67: warning: 'cublasGemmBatchedEx' reads batchCount = 3 device pointers from A, but 'dAs' holds 2 pointers (cudaMalloc of 16 bytes): the last ones are read past its end [cublas-matrix-extents]
  // CHECK-NOTES: :[[@LINE-6]]:3: note: allocated here
  cudaFree(dAs);
}

// ---- Correct code ----

void exactly(cublasHandle_t h, int n, int batch, float *const *dBs,
             float *const *dCs) {
  std::vector<float *> Host(batch);
  float **dAs;
  cudaMalloc(&dAs, batch * sizeof(float *));
  cudaMemcpy(dAs, Host.data(), batch * sizeof(float *),
             cudaMemcpyHostToDevice);
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &One, dAs, n, dBs,
                     n, &Zero, dCs, n, batch);
  // A prefix of the batch, from the same array.
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &One, dAs, n, dBs,
                     n, &Zero, dCs, n, batch - 1);
  cudaFree(dAs);
}

void more(cublasHandle_t h, float *const *dBs, float *const *dCs) {
  float **dAs;
  cudaMalloc(&dAs, 16 * sizeof(float *));
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &One, dAs, 8, dBs,
                     8, &Zero, dCs, 8, 16);
  cudaFree(dAs);
}

// Filled twice, or by a kernel: what it holds is not one copy's count.
void fill(float **dAs, int n);
void filledElsewhere(cublasHandle_t h, int n, int batch, float *const *dBs,
                     float *const *dCs) {
  std::vector<float *> Host(batch);
  float **dAs;
  cudaMalloc(&dAs, batch * sizeof(float *));
  cudaMemcpy(dAs, Host.data(), sizeof(float *), cudaMemcpyHostToDevice);
  fill(dAs, batch);
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &One, dAs, n, dBs,
                     n, &Zero, dCs, n, batch);
  float **dEs;
  cudaMalloc(&dEs, batch * sizeof(float *));
  cudaMemcpy(dEs, Host.data(), sizeof(float *), cudaMemcpyHostToDevice);
  cudaMemcpy(dEs + 1, Host.data() + 1, (batch - 1) * sizeof(float *),
             cudaMemcpyHostToDevice);
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &One, dEs, n, dBs,
                     n, &Zero, dCs, n, batch);
  cudaFree(dAs);
  cudaFree(dEs);
}

// Unknown sizes: a parameter array.
void unknown(cublasHandle_t h, int n, int batch, float *const *dAs,
             float *const *dBs, float *const *dCs) {
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &One, dAs, n, dBs,
                     n, &Zero, dCs, n, batch);
}

