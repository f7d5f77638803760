#include "devices.h"

cublasHandle_t g_handles[8];
std::vector<cublasHandle_t> g_pool;
cublasHandle_t g_any[8];

void init_devices(int n) {
  g_pool.resize(n);
  for (int d = 0; d < n; ++d) {
    cudaSetDevice(d);
    cublasCreate(&g_handles[d]);
    cublasCreate(&g_pool[d]);
  }
  for (int d = 0; d < n; ++d)
    cublasCreate(&g_any[d]);
}
