#include "lib.h"

#include <cstdio>
#include <exception>

// A server loop: a failed step is logged, and the next one runs.
int serve(float *x, int n, int steps) {
  int failed = 0;
  for (int s = 0; s < steps; ++s) {
    try {
      scaleOrThrow(x, n);
      relay(x, n);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "step %d: %s\n", s, e.what());
      ++failed;
    }
  }
  return failed;
}

int main() {
  float *x = nullptr;
  scaleUncaught(x, 16);
  return serve(x, 16, 100);
}
