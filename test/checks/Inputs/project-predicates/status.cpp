#include "status.h"

#include <cstdio>

bool cublasOk(cublasStatus_t Status) {
  if (Status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cuBLAS: %s\n", cublasGetStatusString(Status));
    return false;
  }
  return true;
}

int cublasFailed(cublasStatus_t Status) {
  return Status != CUBLAS_STATUS_SUCCESS;
}

bool cublasLogged(cublasStatus_t Status) {
  std::fprintf(stderr, "cuBLAS: %s\n", cublasGetStatusString(Status));
  return true;
}
