// Stand-in for the header PyTorch's CMake generates in a CUDA build of
// libtorch. Debian's libtorch-dev is a CPU build and lacks it, but its
// c10/cuda and ATen/cuda headers (which extensions include) need it; the
// real file defines this one macro.
#pragma once
#define C10_CUDA_BUILD_SHARED_LIBS
