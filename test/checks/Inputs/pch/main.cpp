#include <cublas_v2.h>
#include <vendor.h>
#include "project.h"

void shutdown(cublasHandle_t h) { cublasDestroy(h); }
