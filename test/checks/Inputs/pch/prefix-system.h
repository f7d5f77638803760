/* The PCH's own header: comments and #include lines, which declare
   nothing; every declaration is in a system header. */
#include <cublas_v2.h> // the CUDA toolkit's
#include \
  <vendor.h>
