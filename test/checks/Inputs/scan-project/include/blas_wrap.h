// A project header that brings cuBLAS in: units that include only this
// header still reach cuBLAS.
#pragma once
#include <cublas_v2.h>

using BlasHandle = cublasHandle_t;
#define blas_axpy cublasSaxpy
