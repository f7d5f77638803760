#include "project.h"

// Calls the functions of status_utils.cpp and defines nothing another file
// calls: analysed after it, with its summaries, once.
void callerOnly(cublasHandle_t H, float *X) {
  checkStatus(scaleWrapper(H, 4, X));
  scaleWrapper(H, 4, X);
}
