// The project's tests of a cuBLAS status, defined in status.cpp.
#include <cublas_v2.h>

// True when the status is success; reports it otherwise.
bool cublasOk(cublasStatus_t Status);
// Non-zero when the status is an error.
int cublasFailed(cublasStatus_t Status);
// Reports the status; true whatever it is.
bool cublasLogged(cublasStatus_t Status);
