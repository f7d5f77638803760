#include "devices.h"

// Device 0 current, the handle of device 1.
void scale_on_zero(int n, float *x) {
  const float two = 2.f;
  cudaSetDevice(0);
  cublasSscal(g_handles[1], n, &two, x, 1);
}

// Every device in turn, always the handle of device 0.
void scale_everywhere(int devices, int n, float **x) {
  const float two = 2.f;
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasSscal(g_pool[0], n, &two, x[d], 1);
  }
}

// Right: each device's own handle.
void scale_each(int devices, int n, float **x) {
  const float two = 2.f;
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cublasSscal(g_handles[d], n, &two, x[d], 1);
    cublasSscal(g_pool[d], n, &two, x[d], 1);
  }
  cudaSetDevice(1);
  cublasSscal(g_handles[1], n, &two, x[1], 1);
}

// Not one per device where they are created: not judged.
void scale_any(int n, float *x) {
  const float two = 2.f;
  cudaSetDevice(0);
  cublasSscal(g_any[1], n, &two, x, 1);
}
