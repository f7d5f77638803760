// RUN: %check_clang_tidy %s cublas-integer-overflow %t
// At its defaults the check reports a value that can outgrow its type only
// on evidence: constants that do not fit, the values the callers pass, a
// value read from outside the program that nothing bounds, and a 64-bit
// product the code computed and then narrowed. Products of plain
// parameters and single narrowed sizes are left to ReportUnproven.
#include <cublas_v2.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

// ---- Silent: sizes the program never lets reach 2^31 ----------------------

// The attention shape: T <= 1024 and HS = 64 in practice, and nothing in the
// unit says otherwise.
void attention(cublasHandle_t h, int B, int NH, int T, int HS, const float *q,
               const float *k, float *att) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, HS, &one, k, HS,
                            T * HS, q, HS, T * HS, &zero, att, T, T * T,
                            B * NH);
}

// Constants fixed two calls up that fit: B = 8, T = 1024.
static void attentionAt(cublasHandle_t h, int B, int T, int HS, const float *q,
                        const float *k, float *att) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, HS, &one, k, HS,
                            T * HS, q, HS, T * HS, &zero, att, T, T * T, B);
}
static void forwardAt(cublasHandle_t h, int B, int T, const float *q,
                      const float *k, float *att) {
  attentionAt(h, B, T, 64, q, k, att);
}
void runFixedShapes(cublasHandle_t h, const float *q, const float *k,
                    float *att) {
  const int B = 8, T = 1024;
  forwardAt(h, B, T, q, k, att);
}

// A single 64-bit size narrowed to int: 2^31 elements in one dimension is
// not a matrix anyone multiplies.
void singleSizes(cublasHandle_t h, int64_t m, int64_t n, int64_t k,
                 const float *a, const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c,
              m);
}

// A 64-bit product as one dimension of a matrix (the rows of a layer's input
// flattened over its leading dimensions) or as a batch count: 2^31 rows is
// not a GEMM anyone runs; as the count of a vector routine it is (below).
void flattenedRows(cublasHandle_t h, const int64_t *dims, int rank, int width,
                   int out, const float *w, const float *x, float *y) {
  int64_t rows = 1;
  for (int i = 0; i < rank - 1; ++i)
    rows = rows * dims[i];
  const float one = 1.f, zero = 0.f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, out, rows, width, &one, w, out, x,
              width, &zero, y, out);
}
void batchOfGroups(cublasHandle_t h, size_t batch, size_t groups,
                   const float *const *a, const float *const *b,
                   float *const *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &one, a, 16, b,
                     16, &zero, c, 16, batch * groups);
}

// A size read from the command line and bounded before it is used.
static void boundedInput(cublasHandle_t h, int n, const float *a,
                         const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n,
                            n * n, b, n, n * n, &zero, c, n, n * n, 4);
}

// A literal parsed is a constant of the program, not input.
void parsedLiteral(cublasHandle_t h, const float *a, const float *b, float *c) {
  int m = atoi("512"), k = atoi("256");
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
}

// ---- Reported: evidence --------------------------------------------------

// Constants that the callers pass, two calls up, and that wrap.
static void strided(cublasHandle_t h, int m, int k, const float *a,
                    const float *b, float *c) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, 1, k, &one, a, m,
                            m * k, b, k, k, &zero, c, m, m, 2);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'm * k' is 4294967296 with the values 'runLarge' passes, which does not fit 'int': it wraps to 0 before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE+5]]:3: note: 'strided' is called here with those values
  // CHECK-NOTES: :[[@LINE+7]]:3: note: 'middle' is called here with those values
}
static void middle(cublasHandle_t h, int m, int k, const float *a,
                   const float *b, float *c) {
  strided(h, m, k, a, b, c);
}
void runLarge(cublasHandle_t h, const float *a, const float *b, float *c) {
  middle(h, 65536, 65536, a, b, c);
}

// Read as input, with nothing that bounds it.
void fromInput(cublasHandle_t h, const float *a, const float *b, float *c) {
  int n = 0;
  if (scanf("%d", &n) != 1 || n <= 0)
    return;
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n,
                            n * n, b, n, n * n, &zero, c, n, 0, 3);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'n * n' is computed in 'int' with a value read from input that nothing bounds ('scanf("%d", &n)'), and wraps once it exceeds 2147483647, before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched (and 1 more time in this call); widen an operand first: 'static_cast<long long>(n) * n' [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-2]]:29: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-3]]:30: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-4]]:42: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-5]]:43: note: FIX-IT applied suggested code changes
  // CHECK-FIXES: {{^}}                            static_cast<long long>(n) * n, b, n, static_cast<long long>(n) * n, &zero, c, n, 0, 3);{{$}}
  // CHECK-NOTES: :[[@LINE-11]]:7: note: 'n' is read from input here
}

void fromStream(cublasHandle_t h, const float *x, float *y) {
  int rows, cols;
  std::cin >> rows >> cols;
  const float one = 1.f;
  cublasSaxpy_64(h, rows * cols, &one, x, 1, y, 1);
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: 'rows * cols' is computed in 'int' with a value read from input that nothing bounds ('std::cin >> rows'), and wraps once it exceeds 2147483647, before it is widened to the 'int64_t' parameter 'n' of cublasSaxpy_64; widen an operand first: 'static_cast<int64_t>(rows) * cols' [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-2]]:21: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-3]]:25: note: FIX-IT applied suggested code changes
  // CHECK-FIXES: {{^}}  cublasSaxpy_64(h, static_cast<int64_t>(rows) * cols, &one, x, 1, y, 1);{{$}}
  // CHECK-NOTES: :[[@LINE-7]]:3: note: 'rows' is read from input here
}

void fromEnvironment(cublasHandle_t h, int m, const float *a, const float *b,
                     float *c) {
  const char *text = getenv("BATCH_ROWS");
  int rows = text ? atoi(getenv("BATCH_ROWS")) : 1024;
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, rows, 1, m, &one, a,
                            rows, rows * m, b, m, m, &zero, c, rows, rows, 2);
  // CHECK-NOTES: :[[@LINE-1]]:35: warning: 'rows * m' is computed in 'int' with a value read from the environment that nothing bounds ('atoi(getenv("BATCH_ROWS"))'), and wraps once it exceeds 2147483647, before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched; widen an operand first: 'static_cast<long long>(rows) * m' [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-2]]:35: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-3]]:39: note: FIX-IT applied suggested code changes
  // CHECK-FIXES: {{^}}                            rows, static_cast<long long>(rows) * m, b, m, m, &zero, c, rows, rows, 2);{{$}}
  // CHECK-NOTES: :[[@LINE-8]]:21: note: 'rows' is read from the environment here
}

// A 64-bit product the code computed, narrowed to the int of the 32-bit API.
void productNarrowed(cublasHandle_t h, size_t rows, size_t cols,
                     const float *x, float *y) {
  const float one = 1.f;
  cublasSaxpy(h, rows * cols, &one, x, 1, y, 1);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'rows * cols' ('size_t') is narrowed to the 'int' parameter 'n' of cublasSaxpy with nothing that bounds it: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
}

// The strides of a function whose sizes main reads from the command line;
// the same product written twice in one call is one finding.
static void stridedFromArgs(cublasHandle_t h, int T, int HS, const float *q,
                            const float *k, float *att) {
  const float one = 1.f, zero = 0.f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, T, T, HS, &one, k, HS,
                            T * HS, q, HS, T * HS, &zero, att, T, 0, 4);
  // CHECK-NOTES: :[[@LINE-1]]:29: warning: 'T * HS' is computed in 'int' with a value read from the command line that nothing bounds ('atoi(argv[1])'), and wraps once it exceeds 2147483647, before it is widened to the 'long long' parameter 'strideA' of cublasSgemmStridedBatched (and 1 more time in this call); widen an operand first: 'static_cast<long long>(T) * HS' [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-2]]:29: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-3]]:30: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-4]]:44: note: FIX-IT applied suggested code changes
  // CHECK-NOTES: :[[@LINE-5]]:45: note: FIX-IT applied suggested code changes
  // CHECK-FIXES: {{^}}                            static_cast<long long>(T) * HS, q, HS, static_cast<long long>(T) * HS, &zero, att, T, 0, 4);{{$}}
  // CHECK-NOTES: :[[@LINE+13]]:3: note: 'stridedFromArgs' is called here
  // CHECK-NOTES: :[[@LINE+10]]:11: note: 'T' is read from the command line here
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 1;
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
    return 1;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  int T = atoi(argv[1]);
  int HS = 64;
  stridedFromArgs(h, T, HS, a, b, c);
  int n = atoi(argv[2]);
  if (n > 4096)
    return 1;
  boundedInput(h, n, a, b, c);
  size_t count = strtoull(argv[3], nullptr, 10);
  const float one = 1.f;
  cublasSaxpy(h, count, &one, a, 1, c, 1);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: 'count' ('size_t') takes a value read from the command line that nothing bounds ('strtoull(argv[3], nullptr, 10)'), and is narrowed to the 'int' parameter 'n' of cublasSaxpy: a value above 2147483647 wraps; cublasSaxpy_64 takes it as it is [cublas-integer-overflow]
  // CHECK-NOTES: :[[@LINE-4]]:18: note: 'count' is read from the command line here
  cublasDestroy(h);
  return 0;
}
