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

// The creates of context.cpp, called here: g_handle is destroyed by
// shutdownContext in each step; g_scratch by nothing, in a loop or twice;
// g_once only once.
void serve(int Requests) {
  for (int R = 0; R < Requests; ++R) {
    openContext();
    shutdownContext();
  }
  for (int R = 0; R < Requests; ++R)
    openScratch();
  for (int R = 0; R < Requests; ++R)
    openOnce();
}

void warmUp() {
  openWorkspace();
  flushContext();
  openWorkspace();
}

// initContext in a loop, shutdownContext (another file) once, after it:
// every step but the last leaks.
void trainThenShutdown(int Steps) {
  for (int S = 0; S < Steps; ++S)
    initContext();
  shutdownContext();
}
