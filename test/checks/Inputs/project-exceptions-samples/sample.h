// One routine of the sample library, called by each sample's main.
#pragma once
#include <cublasLt.h>

void LtSgemm(cublasLtHandle_t ltHandle, int m, int n, int k, const float *A,
             const float *B, float *C, void *workspace, size_t workspaceSize);
