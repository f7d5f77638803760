// RUN: %check_clang_tidy -check-suffix=ANY %s cublas-data-type %t.any -- -- -std=c++17
// RUN: %check_clang_tidy -check-suffix=HOPPER %s cublas-data-type %t.hopper \
// RUN:   -config="{CheckOptions: {cublas-data-type.CudaArchitectures: 'sm_90,sm_100'}}" -- -- -std=c++17
// RUN: %check_clang_tidy -check-suffix=BLACKWELL %s cublas-data-type %t.blackwell \
// RUN:   -config="{CheckOptions: {cublas-data-type.CudaArchitectures: 'sm_100;sm_120'}}" -- -- -std=c++17

// FP8 matmuls in cuBLASLt: on Ada and Hopper (sm_89, sm_90) A must be
// transposed and B not, the "TN" layout; data-center Blackwell (sm_100)
// and later accept the others. The architectures come from the option
// CudaArchitectures; when it is not set, the message names the ones that
// refuse. And the set-ups a naive rule would flag.

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>

// --- Reported (unless every target is Blackwell) --------------------------

// The FP8 sample with the transposes forgotten: NN, the descriptor's
// default.
void fp8_nn(cublasLtHandle_t lt, const __nv_fp8_e4m3 *A,
            const __nv_fp8_e4m3 *B, __nv_bfloat16 *C, int n, void *ws,
            size_t ws_size, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, a, &beta, C, c, C, c, nullptr, ws,
                 ws_size, stream);
  // CHECK-NOTES-ANY: :[[@LINE-2]]:3: warning: FP8 A and B (CUDA_R_8F_E4M3, CUDA_R_8F_E4M3) with transa CUBLAS_OP_N and transb CUBLAS_OP_N: on Ada and Hopper GPUs (sm_89, sm_90) cublasLtMatmul runs FP8 only with A transposed and B not (transa CUBLAS_OP_T, transb CUBLAS_OP_N) and returns CUBLAS_STATUS_NOT_SUPPORTED; Blackwell (sm_100 and later) accepts the other layouts [cublas-data-type]
  // CHECK-NOTES-ANY: :[[@LINE-8]]:3: note: the matmul descriptor is created here
  // CHECK-NOTES-HOPPER: :[[@LINE-4]]:3: warning: FP8 A and B (CUDA_R_8F_E4M3, CUDA_R_8F_E4M3) with transa CUBLAS_OP_N and transb CUBLAS_OP_N: on sm_90 cublasLtMatmul runs FP8 only with A transposed and B not (transa CUBLAS_OP_T, transb CUBLAS_OP_N) and returns CUBLAS_STATUS_NOT_SUPPORTED; Blackwell (sm_100 and later) accepts the other layouts [cublas-data-type]
  // CHECK-NOTES-HOPPER: :[[@LINE-10]]:3: note: the matmul descriptor is created here
}

// Both transposed, set as attributes; one operand FP8 (E5M2) is enough.
void fp8_tt(cublasLtHandle_t lt, const __nv_fp8_e5m2 *A,
            const __nv_fp8_e4m3 *B, float *C, int n, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E5M2, n, n, n);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                 nullptr, 0, stream);
  // CHECK-NOTES-ANY: :[[@LINE-2]]:3: warning: FP8 A and B (CUDA_R_8F_E5M2, CUDA_R_8F_E4M3) with transa CUBLAS_OP_T and transb CUBLAS_OP_T: on Ada and Hopper GPUs (sm_89, sm_90) cublasLtMatmul runs FP8 only with A transposed and B not (transa CUBLAS_OP_T, transb CUBLAS_OP_N) and returns CUBLAS_STATUS_NOT_SUPPORTED; Blackwell (sm_100 and later) accepts the other layouts [cublas-data-type]
  // CHECK-NOTES-ANY: :[[@LINE-14]]:3: note: the matmul descriptor is created here
  // CHECK-NOTES-HOPPER: :[[@LINE-4]]:3: warning: FP8 A and B (CUDA_R_8F_E5M2, CUDA_R_8F_E4M3) with transa CUBLAS_OP_T and transb CUBLAS_OP_T: on sm_90 cublasLtMatmul runs FP8 only with A transposed and B not (transa CUBLAS_OP_T, transb CUBLAS_OP_N) and returns CUBLAS_STATUS_NOT_SUPPORTED; Blackwell (sm_100 and later) accepts the other layouts [cublas-data-type]
  // CHECK-NOTES-HOPPER: :[[@LINE-16]]:3: note: the matmul descriptor is created here
}

// Both inputs E5M2: no row of the FP8 table has them (in TN too).
void fp8_both_e5m2(cublasLtHandle_t lt, const __nv_fp8_e5m2 *A,
                   __nv_bfloat16 *C, int n, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E5M2, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, C, c, nullptr,
                 nullptr, 0, stream);
  // CHECK-NOTES-ANY: :[[@LINE-2]]:3: warning: A/B CUDA_R_8F_E5M2/CUDA_R_8F_E5M2, C CUDA_R_16BF, D CUDA_R_16BF with CUBLAS_COMPUTE_32F and scale type CUDA_R_32F is not a combination cublasLtMatmul supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
  // CHECK-NOTES-ANY: :[[@LINE-11]]:3: note: the matmul descriptor is created here
  // CHECK-NOTES-HOPPER: :[[@LINE-4]]:3: warning: A/B CUDA_R_8F_E5M2/CUDA_R_8F_E5M2, C CUDA_R_16BF, D CUDA_R_16BF with CUBLAS_COMPUTE_32F and scale type CUDA_R_32F is not a combination cublasLtMatmul supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
  // CHECK-NOTES-HOPPER: :[[@LINE-13]]:3: note: the matmul descriptor is created here
  // CHECK-NOTES-BLACKWELL: :[[@LINE-6]]:3: warning: A/B CUDA_R_8F_E5M2/CUDA_R_8F_E5M2, C CUDA_R_16BF, D CUDA_R_16BF with CUBLAS_COMPUTE_32F and scale type CUDA_R_32F is not a combination cublasLtMatmul supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
  // CHECK-NOTES-BLACKWELL: :[[@LINE-15]]:3: note: the matmul descriptor is created here
}

// E4M3 inputs with an E5M2 output: E5M2 D needs an E5M2 input.
void fp8_e5m2_out(cublasLtHandle_t lt, const __nv_fp8_e4m3 *A,
                  const __half *C, __nv_fp8_e5m2 *D, int n,
                  cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, c, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16F, n, n, n);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_8F_E5M2, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, D, d, nullptr,
                 nullptr, 0, stream);
  // CHECK-NOTES-ANY: :[[@LINE-2]]:3: warning: A/B CUDA_R_8F_E4M3/CUDA_R_8F_E4M3, C CUDA_R_16F, D CUDA_R_8F_E5M2 with CUBLAS_COMPUTE_32F and scale type CUDA_R_32F is not a combination cublasLtMatmul supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
  // CHECK-NOTES-ANY: :[[@LINE-12]]:3: note: the matmul descriptor is created here
  // CHECK-NOTES-HOPPER: :[[@LINE-4]]:3: warning: A/B CUDA_R_8F_E4M3/CUDA_R_8F_E4M3, C CUDA_R_16F, D CUDA_R_8F_E5M2 with CUBLAS_COMPUTE_32F and scale type CUDA_R_32F is not a combination cublasLtMatmul supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
  // CHECK-NOTES-HOPPER: :[[@LINE-14]]:3: note: the matmul descriptor is created here
  // CHECK-NOTES-BLACKWELL: :[[@LINE-6]]:3: warning: A/B CUDA_R_8F_E4M3/CUDA_R_8F_E4M3, C CUDA_R_16F, D CUDA_R_8F_E5M2 with CUBLAS_COMPUTE_32F and scale type CUDA_R_32F is not a combination cublasLtMatmul supports: it returns CUBLAS_STATUS_NOT_SUPPORTED [cublas-data-type]
  // CHECK-NOTES-BLACKWELL: :[[@LINE-16]]:3: note: the matmul descriptor is created here
}

// --- Not reported ----------------------------------------------------------

// Rows of the FP8 table: an E4M3 output from a bf16 C, a float C and D,
// mixed inputs with an E5M2 output.
void fp8_rows(cublasLtHandle_t lt, const __nv_fp8_e4m3 *A,
              const __nv_fp8_e5m2 *B, const __nv_bfloat16 *C,
              __nv_fp8_e4m3 *D, float *F, __nv_fp8_e5m2 *E, int n,
              cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, b, c, d, f, e;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E5M2, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, n, n, n);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&f, CUDA_R_32F, n, n, n);
  cublasLtMatrixLayoutCreate(&e, CUDA_R_8F_E5M2, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, D, d, nullptr,
                 nullptr, 0, stream);
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, F, f, F, f, nullptr,
                 nullptr, 0, stream);
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, E, e, nullptr,
                 nullptr, 0, stream);
}


// TN, as the FP8 sample sets it.
void fp8_tn(cublasLtHandle_t lt, const __nv_fp8_e4m3 *A,
            const __nv_fp8_e4m3 *B, __nv_bfloat16 *C, int m, int n, int k,
            cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T, nt = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &nt,
                                 sizeof(nt));
  cublasLtMatrixLayout_t a, b, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, k, m, k);
  cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E4M3, k, n, k);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, m, n, m);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, b, &beta, C, c, C, c, nullptr,
                 nullptr, 0, stream);
}

// D given as C too, with a bf16 C layout for an E4M3 D: the FP8 idiom for
// "no C" (beta 0; the row of the table needs a 16-bit C type). C is not
// read, so its pointer is not judged against its layout.
void fp8_c_is_d(cublasLtHandle_t lt, const __nv_fp8_e4m3 *A,
                __nv_fp8_e4m3 *res, int n, const float *alpha,
                const float *beta, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, c, d;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, n, n, n);
  cublasLtMatrixLayoutCreate(&d, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatmul(lt, op, alpha, A, a, A, a, beta, res, c, res, d, nullptr,
                 nullptr, 0, stream);
}

// The same with D's layout not known here (made by a helper): C still
// means "no C".
cublasLtMatrixLayout_t make_layout(int n);
void fp8_c_is_d_unknown(cublasLtHandle_t lt, const __nv_fp8_e4m3 *A,
                        __nv_fp8_e4m3 *res, int n, const float *alpha,
                        const float *beta, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t t = CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &t,
                                 sizeof(t));
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, n, n, n);
  cublasLtMatrixLayout_t d = make_layout(n);
  cublasLtMatmul(lt, op, alpha, A, a, A, a, beta, res, c, res, d, nullptr,
                 nullptr, 0, stream);
}

// The transposes chosen at run time (an engine that asks which GPU it
// runs on): unknown, silent.
void fp8_runtime_layout(cublasLtHandle_t lt, const __nv_fp8_e4m3 *A,
                        const __nv_fp8_e4m3 *B, __nv_bfloat16 *C, int n,
                        bool blackwell, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasOperation_t ta = blackwell ? CUBLAS_OP_N : CUBLAS_OP_T;
  cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta,
                                 sizeof(ta));
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, B, a, &beta, C, c, C, c, nullptr,
                 nullptr, 0, stream);
}

// Half inputs in NN: the TN rule is FP8's alone.
void half_nn(cublasLtHandle_t lt, const __half *A, __half *C, int n,
             cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a;
  cublasLtMatrixLayoutCreate(&a, CUDA_R_16F, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, a, C, a, nullptr,
                 nullptr, 0, stream);
}

// The layout's type unknown (a parameter): nothing known to be FP8.
void type_unknown(cublasLtHandle_t lt, const void *A, __nv_bfloat16 *C,
                  int n, cudaDataType_t type, cudaStream_t stream) {
  cublasLtMatmulDesc_t op;
  cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  cublasLtMatrixLayout_t a, c;
  cublasLtMatrixLayoutCreate(&a, type, n, n, n);
  cublasLtMatrixLayoutCreate(&c, CUDA_R_16BF, n, n, n);
  const float alpha = 1.0f, beta = 0.0f;
  cublasLtMatmul(lt, op, &alpha, A, a, A, a, &beta, C, c, C, c, nullptr,
                 nullptr, 0, stream);
}
