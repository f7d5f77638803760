// The project's functions, declared for every file; each is defined in one.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

// status_utils.cpp
cublasStatus_t checkStatus(cublasStatus_t Status);
cublasStatus_t scaleWrapper(cublasHandle_t H, int N, float *X);
cublasStatus_t scaleCopy(cublasHandle_t H, int N, const float *X);

// handles.cpp
void useOnly(cublasHandle_t H, float *X, int N);
void shutdown(cublasHandle_t H);
void stash(cublasHandle_t H);
void ping(cublasHandle_t H, int N);
int prepareOnce(float *X);
int prepareOnDevice(int Device, float *X);
void release(cublasHandle_t H); // defined twice: release_a.cpp, release_b.cpp

// main.cpp
void pong(cublasHandle_t H, int N);
