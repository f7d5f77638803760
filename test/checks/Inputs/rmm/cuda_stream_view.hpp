// A stand-in for RMM's public API (RAPIDS Memory Manager), written from its
// documentation for the tests: only the declarations the cases use, with
// the same names, namespaces and signatures. No registry here ships RMM.
#pragma once
#include <cstddef>
namespace rmm {
class cuda_stream_view {
public:
  constexpr cuda_stream_view() = default;
};
} // namespace rmm
