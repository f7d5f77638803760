// RUN: %check_clang_tidy %s cublas-integer-overflow %t -config='{CheckOptions: {cublas-integer-overflow.ReportUnproven: true}}'
// RUN: %check_clang_tidy -check-suffix=DEFAULT %s cublas-integer-overflow %t
#include <cublas_v2.h>
#include <cublasLt.h>

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

// --- Rule 1: 32-bit products widened afterwards -----------------------------

// The attention shape: strides T * HS and T * T in int, widened to the long
// long strides only after they have wrapped.
void attention(cublasHandle_t h, int B, int NH, int T, int HS, const float *q,
               const float *k, float *att) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, HS, &one, k, HS,
                            T * HS, q, HS, T * HS, &zero, att, T, T * T,
                            B * NH);
  // CHECK-MESSAGES: :[[@LINE-2]]:29: warning: 'T * HS' is computed in 'int' and wraps once it exceeds 2147483647, before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched (and 1 more time in this call); widen an operand first: 'static_cast<long long>(T) * HS' [cublas-integer-overflow]
  // CHECK-MESSAGES: :[[@LINE-3]]:67: warning: 'T * T' is computed in 'int' and wraps once it exceeds 2147483647, before it is widened to the 'long long' parameter 'strideC' of cublasSgemmStridedBatched; widen an operand first: 'static_cast<long long>(T) * T' [cublas-integer-overflow]
  // CHECK-FIXES: {{^}}                            static_cast<long long>(T) * HS, q, HS, static_cast<long long>(T) * HS, &zero, att, T, static_cast<long long>(T) * T,{{$}}
}

// Constants that do not fit: the product is known.
void constantStride(cublasHandle_t h, const float *a, const float *b,
                    float *c) {
  const int m = 46341, k = 46341, n = 1;
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m,
                            m * k, b, k, k * n, &zero, c, m, m * n, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'm * k' is 2147488281, which does not fit 'int': it wraps to -2147479015 before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched [cublas-integer-overflow]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:29: warning: 'm * k' is 2147488281, which does not fit 'int': it wraps to -2147479015 before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched [cublas-integer-overflow]
}

// The int64_t sizes of the _64 API take what an int product already lost.
void api64(cublasHandle_t h, int rows, int cols, const float *x, float *y) {
  const float one = 1.f;
  cublasSaxpy_64(h, rows * cols, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:21: warning: 'rows * cols' is computed in 'int' and wraps once it exceeds 2147483647, before it is widened to the 'int64_t' parameter 'n' of cublasSaxpy_64; widen an operand first: 'static_cast<int64_t>(rows) * cols' [cublas-integer-overflow]
}

// Unsigned products wrap too (modulo 2^32).
void unsignedStride(cublasHandle_t h, unsigned m, unsigned k, const float *a,
                    const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'm * k' is computed in 'unsigned int' and wraps once it exceeds 4294967295, before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched; widen an operand first: 'static_cast<long long>(m) * k' [cublas-integer-overflow]
}

// --- Rule 1, correct code ---------------------------------------------------

void constantsThatFit(cublasHandle_t h, const float *a, const float *b,
                      float *c) {
  const int m = 64, n = 64, k = 16;
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m,
                            m * k, b, k, k * n, &zero, c, m, m * n, 4);
}

void widenedFirst(cublasHandle_t h, int m, int n, int k, int batch,
                  const float *a, const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  int64_t mm = m;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m,
                            (long long)m * k, b, k, int64_t(k) * n, &zero, c,
                            m, mm * n, batch);
}

// A constant factor alone does not make a product likely to wrap.
void constantFactor(cublasHandle_t h, int m, int n, const float *a,
                    const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, 8, &one, a, m,
                            8 * m, b, 8, 8 * n, &zero, c, m, 0, 2);
}

// Bounded before the call: a guard that leaves, an assert, a loop bound,
// std::min.
void guarded(cublasHandle_t h, int m, int n, int k, const float *a,
             const float *b, float *c) {
  if (m > 4096 || k > 4096)
    throw std::invalid_argument("too big");
  assert(n <= 1024);
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m,
                            m * k, b, k, k * n, &zero, c, m, 0, 2);
}

void loopBound(cublasHandle_t h, int n, const float *a, const float *b,
               float *c) {
  const float one = 1.f, zero = 0.f;
  for (int tile = 1; tile <= 8; ++tile)
    cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, tile, n, tile,
                              &one, a, tile, tile * tile, b, tile, 0, &zero,
                              c, tile, 0, n);
}

void clamped(cublasHandle_t h, int requested, int k, const float *a,
             const float *b, float *c) {
  const int m = std::min(requested, 512);
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
}

// A lower bound is not a bound.
void lowerBoundOnly(cublasHandle_t h, int m, int k, const float *a,
                    const float *b, float *c) {
  if (m <= 0 || k < 1)
    return;
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'm * k' is computed in 'int' and wraps once it exceeds 2147483647, before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched; widen an operand first: 'static_cast<long long>(m) * k' [cublas-integer-overflow]
}

// Small types: two 16-bit values never overflow an int product.
void smallTypes(cublasHandle_t h, short m, short k, const float *a,
                const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
}

// --- Rule 2: 64-bit values narrowed to int ---------------------------------

// A count derived from a product, narrowed to the int n of the 32-bit API.
void narrowedProduct(cublasHandle_t h, size_t rows, size_t cols,
                     const float *x, float *y) {
  const float one = 1.f;
  cublasSaxpy(h, rows * cols, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'rows * cols' ('size_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy with nothing that bounds it: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:18: warning: 'rows * cols' ('size_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy with nothing that bounds it: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
}

void narrowedConstant(cublasHandle_t h, const float *x, float *y) {
  const size_t n = 3000000000ull;
  const float one = 1.f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'n' ('size_t') is 3000000000, which does not fit the 'int' parameter 'n' of cublasSaxpy: it becomes -1294967296; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:18: warning: 'n' ('size_t') is 3000000000, which does not fit the 'int' parameter 'n' of cublasSaxpy: it becomes -1294967296; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
}

// --- Rule 2, correct code ---------------------------------------------------

// A single 64-bit size, once per variable however many arguments it
// reaches (NarrowedValues=products leaves it alone:
// cublas-integer-overflow-options.cpp).
void singleSize(cublasHandle_t h, size_t n, const float *x, float *y) {
  const float one = 1.f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'n' ('size_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy with nothing that bounds it: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
  cublasSscal(h, n, &one, y, 1);
}

// Several at one call: one finding for the call, a product first.
void sizes(cublasHandle_t h, size_t M, size_t N, size_t K, const float *a,
           const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b, N, a, K, &zero, c,
              N);
  // CHECK-MESSAGES: :[[@LINE-2]]:44: warning: 3 64-bit values are narrowed to the 'int' parameters of cublasSgemm with nothing that bounds them: 'N' as 'm', 'M' as 'n', 'K' as 'k'; a value above 2147483647 wraps; cublasSgemm_64 takes them as they are [cublas-integer-overflow]
}

void batchOfProducts(cublasHandle_t h, size_t m, size_t n, size_t k,
                     size_t batch, size_t groups, const float *const *a,
                     const float *const *b, float *const *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k,
                     &zero, c, m, batch * groups);
  // CHECK-MESSAGES: :[[@LINE-1]]:35: warning: 4 64-bit values are narrowed to the 'int' parameters of cublasSgemmBatched with nothing that bounds them: 'batch * groups' as 'batchCount', 'm' as 'm', 'n' as 'n', 'k' as 'k'; a value above 2147483647 wraps; cublasSgemmBatched_64 takes them as they are [cublas-integer-overflow]
}

// A plain cast says nothing about the value: still narrowed.
void plainCast(cublasHandle_t h, int64_t n, const float *x, float *y) {
  const float one = 1.f;
  cublasSaxpy(h, static_cast<int>(n), &one, x, 1, y, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:18: warning: 'n' ('int64_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy with nothing that bounds it: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
}

// Checked against INT_MAX first, or handled apart: silent.
void checked(cublasHandle_t h, size_t n, const float *x, float *y) {
  if (n > static_cast<size_t>(INT32_MAX))
    throw std::length_error("n does not fit the 32-bit API");
  const float one = 1.f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
}

void split(cublasHandle_t h, int64_t n, const float *x, float *y) {
  const float one = 1.f;
  if (n > INT32_MAX)
    cublasSaxpy_64(h, n, &one, x, 1, y, 1);
  else
    cublasSaxpy(h, n, &one, x, 1, y, 1);
}

void clampedCount(cublasHandle_t h, int64_t total, const float *x, float *y) {
  const float one = 1.f;
  const int n = std::min<int64_t>(total, 1 << 20);
  cublasSaxpy(h, n, &one, x, 1, y, 1);
}

void narrowedBounded(cublasHandle_t h, size_t rows, size_t cols,
                     const float *x, float *y) {
  if (rows * cols > static_cast<size_t>(INT32_MAX))
    throw std::length_error("use the _64 API");
  const float one = 1.f;
  cublasSaxpy(h, rows * cols, &one, x, 1, y, 1);
}

void narrowedConstantsThatFit(cublasHandle_t h, const float *x, float *y) {
  const size_t rows = 1024, cols = 1024;
  const float one = 1.f;
  cublasSaxpy(h, rows * cols, &one, x, 1, y, 1);
  cublasSaxpy(h, sizeof(float) * 4, &one, x, 1, y, 1);
}

// The _64 API takes 64-bit values as they are.
void api64Narrowing(cublasHandle_t h, size_t rows, size_t cols,
                    const float *x, float *y) {
  const float one = 1.f;
  cublasSaxpy_64(h, rows * cols, &one, x, 1, y, 1);
}

// Values that are int already.
void intsAlready(cublasHandle_t h, int n, const float *x, float *y) {
  const float one = 1.f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
  cublasSaxpy(h, n * 2, &one, x, 1, y, 1);
}

// A vector's element count is narrowed like any other size.
void vectorSize(cublasHandle_t h, const std::vector<float> &host, float *d) {
  cublasSetVector(host.size(), sizeof(float), host.data(), 1, d, 1);
  // CHECK-MESSAGES: :[[@LINE-1]]:19: warning: 'host.size()' ('size_type') is narrowed to the 'int' parameter 'n' of cublasSetVector with nothing that bounds it: a value above 2147483647 wraps; cublasSetVector_64 takes it as it is [cublas-integer-overflow]
}

// The size of a local vector made with a constant count is that count.
void constantVector(cublasHandle_t h, float *d) {
  const int m = 16, n = 16;
  std::vector<float> c(m * n);
  cublasSetVector(c.size(), sizeof(float), c.data(), 1, d, 1);
}

// ... also when it is later handed on by reference (a callee could resize
// it, not past 32 bits from a count that fitted).
void fill(std::vector<float> &v);
void constantVectorPassedOn(cublasHandle_t h, float *d) {
  std::vector<float> c(1024);
  fill(c);
  cublasSetVector(c.size(), sizeof(float), c.data(), 1, d, 1);
}

// --- Values the program gives a function ------------------------------------

// Every call site in this file passes sizes whose products fit: silent.
static void smallBatches(cublasHandle_t h, int m, int k, size_t count,
                         const float *a, const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
  cublasSscal(h, count, &one, c, 1);
}

void callsSmall(cublasHandle_t h, const float *a, const float *b, float *c) {
  smallBatches(h, 64, 128, 4096, a, b, c);
  smallBatches(h, 256, 256, 1 << 20, a, b, c);
}

// One call site passes a size that makes the product wrap: reported.
static void someLarge(cublasHandle_t h, int m, int k, const float *a,
                      const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
  // CHECK-MESSAGES: :[[@LINE-1]]:29: warning: 'm * k' is 4294967296 with the values 'callsLarge' passes, which does not fit 'int': it wraps to 0 before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched [cublas-integer-overflow]
  // CHECK-MESSAGES-DEFAULT: :[[@LINE-2]]:29: warning: 'm * k' is 4294967296 with the values 'callsLarge' passes, which does not fit 'int': it wraps to 0 before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched [cublas-integer-overflow]
}

void callsLarge(cublasHandle_t h, const float *a, const float *b, float *c) {
  someLarge(h, 64, 128, a, b, c);
  someLarge(h, 65536, 65536, a, b, c);
}

// A 64-bit value that holds an int the code widened: narrowed back, it is
// what it was.
void widenedInts(cublasHandle_t h, int n, const float *x, float *y) {
  const float one = 1.f;
  std::vector<float> host(n);
  cublasSetVector(host.size(), sizeof(float), host.data(), 1, y, 1);
  const size_t count = n;
  cublasSaxpy(h, count, &one, x, 1, y, 1);
  const int64_t copy = static_cast<int64_t>(n);
  cublasSscal(h, copy, &one, y, 1);
}
