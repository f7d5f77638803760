// A library of GEMM steps whose failures throw; its callers are in other
// files.
#include <cublas_v2.h>

void scaleOrThrow(float *x, int n);    // lib.cpp: caught in app.cpp
void scaleDeep(float *x, int n);       // lib.cpp: caught two files up
void scaleUncaught(float *x, int n);   // lib.cpp: only main calls it
void scaleUnused(float *x, int n);     // lib.cpp: nothing calls it
void relay(float *x, int n);           // mid.cpp: calls scaleDeep
