#pragma once
#include <cublas_v2.h>

// A chain of functions across four files: app.cpp calls top.cpp, which
// calls mid.cpp, which calls raw.cpp, the only file that calls cuBLAS.

extern cublasHandle_t g_blas; // app.cpp

// raw.cpp
bool ok(cublasStatus_t s);
void destroyHandle(cublasHandle_t h);
cublasStatus_t scaleRaw(cublasHandle_t h, int n, float *x);
void gemmRaw(cublasHandle_t h, int transA, int m, int n, int k, const float *A,
             const float *B, float *C);
void scratch(float *x);
void destroyGlobal();

// mid.cpp
void shutdown(cublasHandle_t h);
cublasStatus_t scale(cublasHandle_t h, int n, float *x);
void gemm(cublasHandle_t h, int transA, int m, int n, int k, const float *A,
          const float *B, float *C);
void step(float *x);
void teardown();

// top.cpp
void layer(cublasHandle_t h, int rows, const float *W, const float *X,
           float *Y);
