//===- TraceTestUtil.h - Calls and memory for the tracer's tests ----------===//

#ifndef CUBLAS_TIDY_INTEGRATION_TRACER_TEST_TRACETESTUTIL_H
#define CUBLAS_TIDY_INTEGRATION_TRACER_TEST_TRACETESTUTIL_H

#include "Trace.h"

#include <cstring>
#include <initializer_list>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cublas_trace {
namespace test {

inline const FunctionInfo &function(const char *Name) {
  for (const FunctionInfo &F : cublas_tidy::allFunctions())
    if (std::strcmp(F.Name, Name) == 0)
      return F;
  throw std::runtime_error(std::string("no row for ") + Name);
}

/// The arguments of one call, set by parameter name as the model spells it.
struct Call {
  explicit Call(const char *Name) : F(function(Name)), Args(F.NumParams) {}
  Call &set(const char *Param, std::int64_t Value) {
    Arg &A = at(Param);
    A.K = Arg::Integer;
    A.Int = Value;
    return *this;
  }
  Call &ptr(const char *Param, const void *Value) {
    Arg &A = at(Param);
    A.K = Arg::Pointer;
    A.Ptr = Value;
    return *this;
  }
  /// Integer arguments written "m=64 n=32 transa=1".
  Call &ints(const std::string &Spec) {
    std::istringstream In(Spec);
    std::string Item;
    while (In >> Item) {
      std::size_t Eq = Item.find('=');
      if (Eq == std::string::npos)
        throw std::runtime_error("expected name=value, got " + Item);
      set(Item.substr(0, Eq).c_str(), std::stoll(Item.substr(Eq + 1)));
    }
    return *this;
  }
  Call &
  ptrs(std::initializer_list<std::pair<const char *, const void *>> Values) {
    for (const auto &[Param, Value] : Values)
      ptr(Param, Value);
    return *this;
  }
  Arg &at(const char *Param) {
    for (unsigned I = 0; I < F.NumParams; ++I)
      if (std::strcmp(F.params()[I].Name, Param) == 0)
        return Args[I];
    throw std::runtime_error(std::string(F.Name) + " has no parameter " +
                             Param);
  }
  const Arg *data() const { return Args.data(); }

  const FunctionInfo &F;
  std::vector<Arg> Args;
};

/// Memory facts from a table of allocations; everything else is plain host
/// memory.
class TableOracle : public MemoryOracle {
public:
  void add(const void *Base, std::size_t Size, MemKind Kind) {
    Allocations.push_back({reinterpret_cast<std::uintptr_t>(Base), Size, Kind});
  }
  MemKind kind(const void *P) override {
    const Allocation *A = find(P);
    return A ? A->Kind : MemKind::Unregistered;
  }
  bool allocation(const void *P, std::uintptr_t &Base,
                  std::size_t &Size) override {
    const Allocation *A = find(P);
    if (!A || A->Kind == MemKind::Unregistered)
      return false;
    Base = A->Base;
    Size = A->Size;
    return true;
  }

private:
  struct Allocation {
    std::uintptr_t Base;
    std::size_t Size;
    MemKind Kind;
  };
  const Allocation *find(const void *P) const {
    auto Addr = reinterpret_cast<std::uintptr_t>(P);
    for (const Allocation &A : Allocations)
      if (Addr >= A.Base && Addr < A.Base + A.Size)
        return &A;
    return nullptr;
  }
  std::vector<Allocation> Allocations;
};

class VectorSink : public ReportSink {
public:
  void write(const std::string &Line) override { Lines.push_back(Line); }
  std::vector<std::string> Lines;
};

} // namespace test
} // namespace cublas_trace

#endif
