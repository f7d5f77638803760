#include "project.h"

// One of two definitions of release (two programs of one build): the
// other keeps the handle.
void release(cublasHandle_t H) { checkStatus(cublasDestroy(H)); }
