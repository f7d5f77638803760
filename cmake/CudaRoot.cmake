# The CUDA toolkit whose headers the tests use and the runtime tracer is
# built against; optional.
if(DEFINED ENV{CUDA_PATH})
  set(_cuda_default "$ENV{CUDA_PATH}")
else()
  set(_cuda_default "/usr/local/cuda")
endif()
set(CUBLAS_TIDY_CUDA_ROOT "${_cuda_default}" CACHE PATH
  "CUDA toolkit whose headers the tests use (the minimal set under test/ when absent)")
if(EXISTS "${CUBLAS_TIDY_CUDA_ROOT}/include/cublas_v2.h")
  message(STATUS "Tests use the CUDA headers in ${CUBLAS_TIDY_CUDA_ROOT}/include")
  set(CUBLAS_TIDY_HAVE_CUDA_HEADERS ON)
else()
  message(STATUS "No CUDA headers at ${CUBLAS_TIDY_CUDA_ROOT}: tests use test/fallback-include")
  set(CUBLAS_TIDY_CUDA_ROOT "")
  set(CUBLAS_TIDY_HAVE_CUDA_HEADERS OFF)
endif()

