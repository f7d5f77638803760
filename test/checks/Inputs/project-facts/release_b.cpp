#include "project.h"

void release(cublasHandle_t H) { (void)H; }
