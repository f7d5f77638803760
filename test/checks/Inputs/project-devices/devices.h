#pragma once
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <vector>

// One handle per GPU, element d created while device d is current.
extern cublasHandle_t g_handles[8];
extern std::vector<cublasHandle_t> g_pool;
// Created on whatever device is current: not one per device.
extern cublasHandle_t g_any[8];

void init_devices(int n);
