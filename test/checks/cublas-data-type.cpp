// RUN: %check_clang_tidy %s cublas-data-type %t -- -- -std=c++17

// The element types of the Ex routines: a pointer whose type contradicts
// the cudaDataType_t given for it, alpha and beta of another type than the
// compute type's scale type, and type combinations cublasGemmEx does not
// support. And the set-ups a naive rule would flag.

#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <vector>

// --- Reported -------------------------------------------------------------

void half_declared_float(cublasHandle_t h, const __half *A, const __half *B,
                         float *C, int m, int n, int k) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_32F, m,
               B, CUDA_R_16F, k, &beta, C, CUDA_R_32F, m, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:62: warning: 'A' points to '__half' (2 bytes) but Atype is CUDA_R_32F (4-byte floats): cuBLAS reads the data as floats, twice the bytes it holds, and computes garbage [cublas-data-type]
}

void float_declared_half(cublasHandle_t h, const float *A, const float *B,
                         float *C, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &beta, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:62: warning: 'A' points to 'float' (4 bytes) but Atype is CUDA_R_16F (2-byte __half values): cuBLAS reads the data as __half values and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-3]]:16: warning: 'B' points to 'float' (4 bytes) but Btype is CUDA_R_16F (2-byte __half values): cuBLAS reads the data as __half values and computes garbage [cublas-data-type]
}

void bf16_declared_half(cublasHandle_t h, const __nv_bfloat16 *A,
                        const __nv_bfloat16 *B, __nv_bfloat16 *C, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16BF, n,
               B, CUDA_R_16BF, n, &beta, C, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-2]]:42: warning: 'C' points to '__nv_bfloat16' (2 bytes) but Ctype is CUDA_R_16F (2-byte __half values): cuBLAS reads the data as __half values and computes garbage [cublas-data-type]
}

void half_scalars_with_32f(cublasHandle_t h, const __half *A, const __half *B,
                           __half *C, int n) {
  const __half alpha = __float2half(1.0f), beta = __float2half(0.0f);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &beta, C, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:54: warning: '&alpha' (alpha) points to '__half' (2 bytes) but CUBLAS_COMPUTE_32F reads alpha and beta as CUDA_R_32F (4-byte floats): cuBLAS scales by a garbage value, read past the end of 'alpha' [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-3]]:34: warning: '&beta' (beta) points to '__half' (2 bytes) but CUBLAS_COMPUTE_32F reads alpha and beta as CUDA_R_32F (4-byte floats): cuBLAS scales by a garbage value, read past the end of 'beta' [cublas-data-type]
}

void float_scalars_with_16f(cublasHandle_t h, const __half *A, const __half *B,
                            __half *C, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &beta, C, CUDA_R_16F, n, CUBLAS_COMPUTE_16F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:54: warning: '&alpha' (alpha) points to 'float' (4 bytes) but CUBLAS_COMPUTE_16F reads alpha and beta as CUDA_R_16F (2-byte __half values): cuBLAS scales by a garbage value [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-3]]:34: warning: '&beta' (beta) points to 'float' (4 bytes) but CUBLAS_COMPUTE_16F reads alpha and beta as CUDA_R_16F (2-byte __half values): cuBLAS scales by a garbage value [cublas-data-type]
}

void int8_with_16f_compute(cublasHandle_t h, const int8_t *A, const int8_t *B,
                           int32_t *C, int n) {
  const int32_t alpha = 1, beta = 0;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_8I, n,
               B, CUDA_R_8I, n, &beta, C, CUDA_R_32I, n, CUBLAS_COMPUTE_16F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:54: warning: '&alpha' (alpha) points to 'int32_t' (4 bytes) but CUBLAS_COMPUTE_16F reads alpha and beta as CUDA_R_16F (2-byte __half values): cuBLAS scales by a garbage value [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-4]]:65: warning: A/B CUDA_R_8I/CUDA_R_8I, C CUDA_R_32I with CUBLAS_COMPUTE_16F is not a combination cublasGemmEx supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-4]]:33: warning: '&beta' (beta) points to 'int32_t' (4 bytes) but CUBLAS_COMPUTE_16F reads alpha and beta as CUDA_R_16F (2-byte __half values): cuBLAS scales by a garbage value [cublas-data-type]
}

// Pointers and scalars agree with their types, but cublasGemmEx has no
// kernel for the combination.
void half_to_float_with_16f(cublasHandle_t h, const __half *A, const __half *B,
                            float *C, int n) {
  const __half alpha = __float2half(1.0f), beta = __float2half(0.0f);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &beta, C, CUDA_R_32F, n, CUBLAS_COMPUTE_16F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:65: warning: A/B CUDA_R_16F/CUDA_R_16F, C CUDA_R_32F with CUBLAS_COMPUTE_16F is not a combination cublasGemmEx supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
}

void strided_half_with_32i(cublasHandle_t h, const __half *A, const __half *B,
                           int32_t *C, int n, int batch) {
  const int32_t alpha = 1, beta = 0;
  cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A,
                             CUDA_R_16F, n, 1ll * n * n, B, CUDA_R_16F, n,
                             1ll * n * n, &beta, C, CUDA_R_32I, n, 1ll * n * n,
                             batch, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:30: warning: A/B CUDA_R_16F/CUDA_R_16F, C CUDA_R_32I with CUBLAS_COMPUTE_32I is not a combination cublasGemmStridedBatchedEx supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
}

// Batched: arrays of pointers.
void batched(cublasHandle_t h, const __half *const *A, const __half *const *B,
             float *const *C, int n, int batch) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha,
                      (const void *const *)A, CUDA_R_16F, n,
                      (const void *const *)B, CUDA_R_16F, n, &beta,
                      (void *const *)C, CUDA_R_16F, n, batch,
                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-2]]:23: warning: '(void *const *)C' (Carray) points to 'float' (4 bytes) but Ctype is CUDA_R_16F (2-byte __half values): cuBLAS reads the data as __half values and computes garbage [cublas-data-type]
}

// The type held in a variable.
void type_in_variable(cublasHandle_t h, const __half *A, const __half *B,
                      __half *C, int n) {
  cudaDataType_t type = CUDA_R_16BF;
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, type, n, B,
               type, n, &beta, C, type, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:62: warning: 'A' points to '__half' (2 bytes) but Atype is CUDA_R_16BF (2-byte __nv_bfloat16 values): cuBLAS reads the data as __nv_bfloat16 values and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-4]]:74: warning: 'B' points to '__half' (2 bytes) but Btype is CUDA_R_16BF (2-byte __nv_bfloat16 values): cuBLAS reads the data as __nv_bfloat16 values and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-4]]:32: warning: 'C' points to '__half' (2 bytes) but Ctype is CUDA_R_16BF (2-byte __nv_bfloat16 values): cuBLAS reads the data as __nv_bfloat16 values and computes garbage [cublas-data-type]
}

// Axpy with its own alpha type.
void axpy_ex(cublasHandle_t h, const float *x, float *y, int n) {
  const double alpha = 2.0;
  cublasAxpyEx(h, n, &alpha, CUDA_R_32F, x, CUDA_R_32F, 1, y, CUDA_R_32F, 1,
               CUDA_R_32F);
  // CHECK-NOTES: :[[@LINE-2]]:22: warning: '&alpha' (alpha) points to 'double' (8 bytes) but alphaType is CUDA_R_32F (4-byte floats): cuBLAS reads the data as floats and computes garbage [cublas-data-type]
}

// cuBLASLt: the types come from the layouts and the matmul descriptor.
void lt_half_layout_float(cublasLtHandle_t lt, const __half *A,
                          const __half *B, float *C, int m, int n, int k,
                          void *ws, size_t ws_size, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, m, k, m);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16F, k, n, k);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, m, n, m);
  const __half alpha = __float2half(1.0f);
  const float beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES: :[[@LINE-2]]:26: warning: '&alpha' (alpha) points to '__half' (2 bytes) but the scale type of 'op' is CUDA_R_32F (4-byte floats): cuBLAS scales by a garbage value, read past the end of 'alpha' [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: the matmul descriptor is created here
  // CHECK-NOTES: :[[@LINE-4]]:34: warning: 'A' points to '__half' (2 bytes) but its layout 'a' is CUDA_R_32F (4-byte floats): cuBLAS reads the data as floats, twice the bytes it holds, and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: the layout is created here
  cublasLtMatrixLayoutDestroy(a);
  cublasLtMatrixLayoutDestroy(b);
  cublasLtMatrixLayoutDestroy(c);
  cublasLtMatmulDescDestroy(op);
}

// The type set by an attribute after the create.
void lt_type_attribute(cublasLtHandle_t lt, const __nv_bfloat16 *A,
                       const __nv_bfloat16 *B, float *C, int n, void *ws,
                       size_t ws_size, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16BF, n, n, n);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16BF, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, n, n, n);
  cudaDataType_t half_type = CUDA_R_16F;
  cublasLtMatrixLayoutSetAttribute(a, CUBLASLT_MATRIX_LAYOUT_TYPE, &half_type,
                                   sizeof(half_type));
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES: :[[@LINE-2]]:34: warning: 'A' points to '__nv_bfloat16' (2 bytes) but its layout 'a' is CUDA_R_16F (2-byte __half values): cuBLAS reads the data as __half values and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: the layout is created here
}

// A combination the cublasLtMatmul table does not list: half inputs,
// float output, half compute.
void lt_unsupported(cublasLtHandle_t lt, const __half *A, float *C, int n,
                    void *ws, size_t ws_size, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_16F, CUDA_R_16F);
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, n, n, n);
  const __half alpha = __float2half(1.0f), beta = __float2half(0.0f);
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES: :[[@LINE-2]]:3: warning: A/B CUDA_R_16F/CUDA_R_16F, C CUDA_R_32F, D CUDA_R_32F with CUBLAS_COMPUTE_16F and scale type CUDA_R_16F is not a combination cublasLtMatmul supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: the matmul descriptor is created here
}

// --- Not reported ---------------------------------------------------------

// cuBLASLt's own rows: int8 in and out with a float scale (not a row of
// cublasGemmEx's table).
void lt_int8_out(cublasLtHandle_t lt, const int8_t *A, int8_t *C, int n,
                 void *ws, size_t ws_size, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32I, CUDA_R_32F);
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8I, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_8I, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
}

// cuBLASLt set up right: bf16 in, float out, float scalars; and layouts
// that come from elsewhere.
void lt_matching(cublasLtHandle_t lt, const __nv_bfloat16 *A,
                 const __nv_bfloat16 *B, float *C, int n, void *ws,
                 size_t ws_size, cudaStream_t stream,
                 cublasLtMatrixLayout_t given, cublasLtMatmulDesc_t given_op) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16BF, n, n, n);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_16BF, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  const __half halpha = __float2half(1.0f);
  cublasLtMatmul(lt, given_op, &halpha, A, given, B, given, &beta, C, given,
                 C, given, nullptr, ws, ws_size, stream);
}

// A layout created in a loop and typed per iteration: not one create.
void lt_layouts_in_a_loop(cublasLtHandle_t lt, cublasLtMatmulDesc_t op,
                          const __half *A, float *C, int n, void *ws,
                          size_t ws_size, cudaStream_t stream, bool f32) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, n, n, n);
  if (f32)
    cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, n, n, n);
  else
    cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, n, n, n);
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
}

void matching(cublasHandle_t h, const __half *A, const __half *B, __half *C,
              float *C32, const __nv_bfloat16 *Ab, const __nv_bfloat16 *Bb,
              const int8_t *Ai, const int8_t *Bi, int32_t *Ci, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  // fp16 in, fp16 out, fp32 compute.
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &beta, C, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // fp16 in, fp32 out; the fast modes.
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &beta, C32, CUDA_R_32F, n,
               CUBLAS_COMPUTE_32F_PEDANTIC, CUBLAS_GEMM_DEFAULT);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, C32, CUDA_R_32F,
               n, C32, CUDA_R_32F, n, &beta, C32, CUDA_R_32F, n,
               CUBLAS_COMPUTE_32F_FAST_16F, CUBLAS_GEMM_DEFAULT);
  // bf16 in, fp32 out.
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, Ab, CUDA_R_16BF,
               n, Bb, CUDA_R_16BF, n, &beta, C32, CUDA_R_32F, n,
               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  // int8 in, int32 out, int32 scalars.
  const int32_t ialpha = 1, ibeta = 0;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &ialpha, Ai, CUDA_R_8I, n,
               Bi, CUDA_R_8I, n, &ibeta, Ci, CUDA_R_32I, n, CUBLAS_COMPUTE_32I,
               CUBLAS_GEMM_DEFAULT);
  // fp16 everywhere with half scalars.
  const __half halpha = __float2half(1.0f), hbeta = __float2half(0.0f);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &halpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &hbeta, C, CUDA_R_16F, n, CUBLAS_COMPUTE_16F,
               CUBLAS_GEMM_DEFAULT);
  // The old C++ form: a cudaDataType_t as the compute type.
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &beta, C32, CUDA_R_32F, n, CUDA_R_32F,
               CUBLAS_GEMM_DEFAULT);
}

// Scalars typed by a parameter of their own (csType), not by the execution
// type.
void rot_ex(cublasHandle_t h, float *x, float *y, int n) {
  const double c = 0.6, s = 0.8;
  cublasRotEx(h, n, x, CUDA_R_32F, 1, y, CUDA_R_32F, 1, &c, &s, CUDA_R_64F,
              CUDA_R_32F);
}

// void pointers, raw bytes and unknown types: nothing to compare.
struct Opaque;
void unknown(cublasHandle_t h, const void *A, const unsigned char *B,
             const char *Bytes, Opaque *C, const void *alpha, int n,
             cudaDataType_t t, cublasComputeType_t compute) {
  const float beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &beta, C, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, Bytes, t, n,
               Bytes, t, n, &beta, C, t, n, compute, CUBLAS_GEMM_DEFAULT);
}

// Half and bfloat16 values held as their 16 bits in unsigned shorts, as
// code without a half type keeps them (a `typedef uint16_t fp16_t`): read
// as 16-bit floats they are what they hold. Read as floats, they are not.
typedef uint16_t fp16_bits;
void half_bits(cublasHandle_t h, const fp16_bits *A, const uint16_t *B,
               unsigned short *C, int n) {
  const float one = 1.0f, zero = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_16F, n,
               B, CUDA_R_16F, n, &zero, C, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_16BF, n,
               B, CUDA_R_16BF, n, &zero, C, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_32F, n,
               B, CUDA_R_16F, n, &zero, C, CUDA_R_16F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:60: warning: 'A' points to 'fp16_bits' (2 bytes) but Atype is CUDA_R_32F (4-byte floats): cuBLAS reads the data as floats, twice the bytes it holds, and computes garbage [cublas-data-type]
}

// Interleaved complex data in a real array; complex scalars.
void complex_interleaved(cublasHandle_t h, const float *A, const float *B,
                         float *C, int n) {
  const cuComplex alpha = {1.0f, 0.0f}, beta = {0.0f, 0.0f};
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_C_32F, n,
               B, CUDA_C_32F, n, &beta, C, CUDA_C_32F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
}

// A pointer cast to another element type: the source says what it holds.
void reinterpreted(cublasHandle_t h, const float *A, __half *C, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha,
               reinterpret_cast<const __half *>(A), CUDA_R_16F, n,
               reinterpret_cast<const __half *>(A), CUDA_R_16F, n, &beta, C,
               CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// Data in a container.
void from_vector(cublasHandle_t h, std::vector<__half *> &bufs, float *C,
                 int n) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, bufs[0],
               CUDA_R_16F, n, bufs[1], CUDA_R_16F, n, &beta, C, CUDA_R_32F, n,
               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

// A template: judged in its instantiations, not its pattern.
template <typename T>
void generic(cublasHandle_t h, const T *A, T *C, cudaDataType_t type, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, type, n, A,
               type, n, &beta, C, type, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
}
template void generic<__half>(cublasHandle_t, const __half *, __half *,
                              cudaDataType_t, int);

// A wrapper of this file that says the type of the pointers it is given:
// its callers' pointers are judged against it. A pointer of that type, an
// untyped one, and a wrapper whose caller says the type: nothing.
cublasStatus_t gemm_half(cublasHandle_t h, int n, const void *A,
                         const void *B, void *C) {
  const float alpha = 1.0f, beta = 0.0f;
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A,
                      CUDA_R_16F, n, B, CUDA_R_16F, n, &beta, C, CUDA_R_32F, n,
                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
cublasStatus_t gemm_any(cublasHandle_t h, int n, cudaDataType_t type,
                        const void *A, void *C) {
  const float alpha = 1.0f, beta = 0.0f;
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, type, n,
                      A, type, n, &beta, C, type, n, CUBLAS_COMPUTE_32F,
                      CUBLAS_GEMM_DEFAULT);
}
void call_wrappers(cublasHandle_t h, float *F, __half *H, void *V, int n) {
  gemm_half(h, n, H, V, F);
  gemm_half(h, n, F, H, F);
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: 'F' (A) points to 'float' (4 bytes) but 'gemm_half' gives it to 'cublasGemmEx' with Atype CUDA_R_16F (2-byte __half values): cuBLAS reads the data as __half values and computes garbage [cublas-data-type]
  // CHECK-NOTES: :[[@LINE-15]]:3: note: 'gemm_half' gives its parameter to 'cublasGemmEx' here
  gemm_any(h, n, CUDA_R_32F, F, F);
}

// A typed view of untyped scratch memory: the cast says how the code reads
// the bytes here, not what they were made to hold (a scratch buffer sized
// for floats, carved into `T *` pieces and read as floats on purpose).
template <typename T>
void carve_scratch(cublasHandle_t h, void *buffer, int n, int batch) {
  const float alpha = 1.0f, beta = 0.0f;
  T *d_A = (T *)buffer;
  T *d_B = d_A + n * n * batch;
  T *d_C = d_B + n * n * batch;
  cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &alpha,
                             d_B, CUDA_R_32F, n, n * n, d_A, CUDA_R_32F, n,
                             n * n, &beta, d_C, CUDA_R_32F, n, n * n, batch,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}
template void carve_scratch<__half>(cublasHandle_t, void *, int, int);

void byte_workspace(cublasHandle_t h, char *ws, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  auto *A = reinterpret_cast<__half *>(ws);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_32F, n,
               A, CUDA_R_32F, n, &beta, A, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
}

// A typed buffer cast to another type is still the typed buffer's data:
// reported (the view's type is what the call is judged against).
void typed_view(cublasHandle_t h, float *C32, __half *buf, int n) {
  const float alpha = 1.0f, beta = 0.0f;
  const __half *A = buf;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, CUDA_R_32F, n,
               A, CUDA_R_16F, n, &beta, C32, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT);
  // CHECK-NOTES: :[[@LINE-3]]:62: warning: 'A' points to '__half' (2 bytes) but Atype is CUDA_R_32F (4-byte floats): cuBLAS reads the data as floats, twice the bytes it holds, and computes garbage [cublas-data-type]
}
