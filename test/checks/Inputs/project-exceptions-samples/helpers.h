// The samples' checking helper: it throws on a failed status.
#pragma once
#include <cublasLt.h>

#include <stdexcept>

inline void checkCublasStatus(cublasStatus_t status) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::logic_error("cuBLAS API failed");
}
