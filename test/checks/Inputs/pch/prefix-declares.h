#include <cublas_v2.h>
inline void prefix_release(cublasHandle_t h) { cublasDestroy(h); }
