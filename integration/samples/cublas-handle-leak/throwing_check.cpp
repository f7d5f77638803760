// INTEGRATION-CHECK: cublas-handle-leak
// EXPECT-DIAG: cublas-handle-leak @ 27
// EXPECT-DIAG: cublas-handle-leak @ 30 (note)
// EXPECT-DIAG: cublas-handle-leak @ 41 (note)
// PREDICT: leaked-descriptors == 10
// PREDICT: leaked-handles == 0
//
// A checking function that throws, called between a layout's create and
// its destroy. Half of 20 calls set the layout's order with a wrong size:
// cuBLASLt rejects the set, check_status throws, and the layout is never
// destroyed. main catches each exception and goes on (the finding's note
// points at its try): 10 layouts are alive at exit.
#include "sample.h"

#include <cublasLt.h>
#include <stdexcept>

static void check_status(cublasStatus_t s, const char *what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(what);
}

// A column-major n x n layout; `wrong` gives the order attribute a size
// cuBLASLt rejects.
static void describe(int n, bool wrong) {
  cublasLtMatrixLayout_t layout;
  check_status(cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, n, n, n),
               "create layout");
  const int32_t order = CUBLASLT_ORDER_COL;
  check_status(cublasLtMatrixLayoutSetAttribute(
                   layout, CUBLASLT_MATRIX_LAYOUT_ORDER, &order,
                   wrong ? sizeof(order) - 1 : sizeof(order)),
               "set order");
  check_status(cublasLtMatrixLayoutDestroy(layout), "destroy layout");
}

int main() {
  int rejected = 0;
  for (int i = 0; i < 20; ++i) {
    try {
      describe(64, i % 2 == 1);
    } catch (const std::exception &) {
      ++rejected;
    }
  }
  std::printf("%d of 20 layouts rejected\n", rejected);
  return rejected == 10 ? 0 : 1;
}
