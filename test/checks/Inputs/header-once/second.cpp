#include "./gemm_util.h"
void second(cublasHandle_t h, float *x) { scaleAll(h, x, 8); }
