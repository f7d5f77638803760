#include "lib.h"

// Lets the exceptions of scaleDeep through to its own callers.
static void twice(float *x, int n) {
  scaleDeep(x, n);
  scaleDeep(x + n, n);
}

void relay(float *x, int n) { twice(x, n); }
