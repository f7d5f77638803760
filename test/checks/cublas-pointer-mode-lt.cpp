// RUN: %check_clang_tidy %s cublas-host-pointer,cublas-device-pointer %t -- -- -std=c++17

// cuBLASLt keeps the pointer mode in the matmul descriptor: host alpha and
// beta by default, device ones after CUBLASLT_MATMUL_DESC_POINTER_MODE is
// set to a device mode. A, B, C, D are device memory always.

#include <cublasLt.h>
#include <cuda_runtime.h>

// --- Reported -------------------------------------------------------------

void device_scalars_in_host_mode(cublasLtHandle_t lt, cublasLtMatrixLayout_t l,
                                 const float *A, float *C, void *ws,
                                 size_t ws_size, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  float *d_alpha = nullptr;
  cudaMalloc(&d_alpha, 2 * sizeof(float));
  const float beta = 0.0f;
  cublasLtMatmul(lt, op, d_alpha, A, l, A, l, &beta, C, l, C, l, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES: :[[@LINE-2]]:26: warning: 'd_alpha' points to device memory from 'cudaMalloc', but 'alpha' of 'cublasLtMatmul' is read from host memory: the pointer mode of 'op' is CUBLASLT_POINTER_MODE_HOST [cublas-device-pointer]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: allocated by 'cudaMalloc' here
  // CHECK-NOTES: :[[@LINE-8]]:3: note: 'op' is created here in the default CUBLASLT_POINTER_MODE_HOST
  cublasLtMatmulDescDestroy(op);
}

void host_scalars_in_device_mode(cublasLtHandle_t lt, cublasLtMatrixLayout_t l,
                                 const float *A, float *C, void *ws,
                                 size_t ws_size, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtPointerMode_t mode = CUBLASLT_POINTER_MODE_DEVICE;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode,
                                 sizeof(mode));
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, l, A, l, &beta, C, l, C, l, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES: :[[@LINE-2]]:26: warning: '&alpha' points to a variable on the host stack, but 'alpha' of 'cublasLtMatmul' is read from device memory: the pointer mode of 'op' is CUBLASLT_POINTER_MODE_DEVICE [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-4]]:15: note: 'alpha' declared here
  // CHECK-NOTES: :[[@LINE-7]]:3: note: pointer mode of 'op' set to CUBLASLT_POINTER_MODE_DEVICE here
  // CHECK-NOTES: :[[@LINE-5]]:46: warning: '&beta' points to a variable on the host stack, but 'beta' of 'cublasLtMatmul' is read from device memory: the pointer mode of 'op' is CUBLASLT_POINTER_MODE_DEVICE [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-7]]:29: note: 'beta' declared here
  // CHECK-NOTES: :[[@LINE-10]]:3: note: pointer mode of 'op' set to CUBLASLT_POINTER_MODE_DEVICE here
}

// --- Not reported ---------------------------------------------------------

void right(cublasLtHandle_t lt, cublasLtMatrixLayout_t l, const float *A,
           float *C, void *ws, size_t ws_size, cudaStream_t stream,
           cublasLtMatmulDesc_t given) {
  cublasLtMatmulDesc_t host_op, device_op;
  cublasLtMatmulDescCreate(&host_op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatmulDescCreate(&device_op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  const cublasLtPointerMode_t device = CUBLASLT_POINTER_MODE_DEVICE;
  cublasLtMatmulDescSetAttribute(device_op, CUBLASLT_MATMUL_DESC_POINTER_MODE,
                                 &device, sizeof(device));
  const float alpha = 1.0f, beta = 0.0f;
  float *d_scalars = nullptr;
  cudaMalloc(&d_scalars, 2 * sizeof(float));
  cublasLtMatmul(lt, host_op, &alpha, A, l, A, l, &beta, C, l, C, l, nullptr,
                 ws, ws_size, stream);
  cublasLtMatmul(lt, device_op, d_scalars, A, l, A, l, d_scalars + 1, C, l, C,
                 l, nullptr, ws, ws_size, stream);
  // A descriptor from elsewhere: its mode is unknown.
  cublasLtMatmul(lt, given, &alpha, A, l, A, l, &beta, C, l, C, l, nullptr, ws,
                 ws_size, stream);
  cublasLtMatmul(lt, given, d_scalars, A, l, A, l, d_scalars + 1, C, l, C, l,
                 nullptr, ws, ws_size, stream);
}

// The mode held in a variable written twice: unknown.
void mode_changes(cublasLtHandle_t lt, cublasLtMatrixLayout_t l,
                  const float *A, float *C, void *ws, size_t ws_size,
                  cudaStream_t stream, bool on_device) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtPointerMode_t mode = CUBLASLT_POINTER_MODE_HOST;
  if (on_device)
    mode = CUBLASLT_POINTER_MODE_DEVICE;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode,
                                 sizeof(mode));
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, l, A, l, &beta, C, l, C, l, nullptr, ws,
                 ws_size, stream);
}
