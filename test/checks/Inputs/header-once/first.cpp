#include "gemm_util.h"
void first(cublasHandle_t h, float *x) { scaleAll(h, x, 4); }
