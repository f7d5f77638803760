#include "context.h"

static void initContext() { cublasCreate(&g_handle); }
static void initScratch() { cublasCreate(&g_scratch); }

// Each step creates the context's handle and shutdownContext, in the other
// file, destroys it: nothing leaks.
void train(int Steps) {
  for (int S = 0; S < Steps; ++S) {
    initContext();
    shutdownContext();
  }
}

// Nothing in the project destroys g_scratch: each step leaks one.
void evaluate(int Steps) {
  for (int S = 0; S < Steps; ++S) {
    initScratch();
    flushContext();
  }
}
