#pragma once
#include <cublas_v2.h>
inline void vendor_release(cublasHandle_t h) { cublasDestroy(h); }
