#pragma once
#include <cublas_v2.h>
inline void project_release(cublasHandle_t h) { cublasDestroy(h); }
