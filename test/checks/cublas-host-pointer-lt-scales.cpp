// RUN: %check_clang_tidy %s cublas-host-pointer %t -- -- -std=c++17

// The matmul descriptor attributes whose value is a device pointer that
// cublasLtMatmul reads on the GPU: the FP8 scales, the amax of D, the
// bias. A host pointer there is an illegal address (seen on an H200 for
// the A scale from malloc). And the set-ups a naive rule would flag.

#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cstdlib>

// --- Reported -------------------------------------------------------------

// The scale kept where the host computed it.
void host_scale(cublasLtMatmulDesc_t op) {
  float *scale = static_cast<float *>(malloc(sizeof(float)));
  *scale = 0.5f;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                 &scale, sizeof(scale));
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: 'scale' points to host memory from 'malloc', but CUBLASLT_MATMUL_DESC_A_SCALE_POINTER of the matmul descriptor must point to device memory: cublasLtMatmul dereferences it on the GPU [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-5]]:39: note: allocated by 'malloc' here
}

// The address of a local float as the amax of D.
void stack_amax(cublasLtMatmulDesc_t op) {
  float amax = 0.0f;
  float *amax_ptr = &amax;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_AMAX_D_POINTER,
                                 &amax_ptr, sizeof(amax_ptr));
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: 'amax_ptr' points to a variable on the host stack, but CUBLASLT_MATMUL_DESC_AMAX_D_POINTER of the matmul descriptor must point to device memory: cublasLtMatmul dereferences it on the GPU [cublas-host-pointer]
  // CHECK-NOTES: :[[@LINE-5]]:9: note: 'amax' declared here
}

// --- Not reported ----------------------------------------------------------

// Device scales, as the FP8 sample keeps them.
void device_scales(cublasLtMatmulDesc_t op) {
  float *a_scale, *d_scale;
  cudaMalloc(&a_scale, sizeof(float));
  cudaMalloc(&d_scale, sizeof(float));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                 &a_scale, sizeof(a_scale));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER,
                                 &d_scale, sizeof(d_scale));
}

// A host value of an attribute that is not a pointer: the transpose.
void host_transpose(cublasLtMatmulDesc_t op) {
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
}

// Managed memory is device-accessible; a scale given by the caller is not
// known.
void managed_or_unknown(cublasLtMatmulDesc_t op, float *given) {
  float *managed;
  cudaMallocManaged(&managed, sizeof(float));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                 &managed, sizeof(managed));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                 &given, sizeof(given));
}

// The attribute chosen at run time: not known.
void attribute_unknown(cublasLtMatmulDesc_t op,
                       cublasLtMatmulDescAttributes_t which) {
  float *scale = static_cast<float *>(malloc(sizeof(float)));
  cublasLtMatmulDescSetAttribute(op, which, &scale, sizeof(scale));
}
