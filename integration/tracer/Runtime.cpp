//===- Runtime.cpp - The tracer inside the traced process -----------------===//
//
// Process-wide state of libcublas-trace.so: the report file, the CUDA
// memory oracle, the real functions, the call depth, and the records written
// at start, at exit and on a fatal signal.
//
// Environment:
//   CUBLAS_TRACE_REPORT      where to write the JSON lines (default: stderr)
//   CUBLAS_TRACE_CUDART      the libcudart to ask cudaPointerGetAttributes
//                            (default: the one in the process, else
//                            libcudart.so.13, libcudart.so)
//   CUBLAS_TRACE_CUDA_DRIVER the library to ask cuMemGetAddressRange_v2
//                            (default: the one in the process, else
//                            libcuda.so.1)
//
//===----------------------------------------------------------------------===//

#include "Interpose.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

namespace cublas_trace {
namespace {

constexpr unsigned NumFunctions =
    static_cast<unsigned>(FunctionId::NumFunctions);

/// Writes each record with one write(2), so that what was written before a
/// crash stays in the file.
class FdSink : public ReportSink {
public:
  explicit FdSink(int Fd) : Fd(Fd) {}
  void write(const std::string &Line) override { writeAll(Fd, Line + "\n"); }
  static void writeAll(int Fd, const std::string &Text) {
    const char *P = Text.data();
    std::size_t Left = Text.size();
    while (Left > 0) {
      ssize_t N = ::write(Fd, P, Left);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return;
      P += N;
      Left -= static_cast<std::size_t>(N);
    }
  }
  int Fd;
};

/// Finds `Symbol` in the library named by the environment variable `Env`,
/// else in the process, else in the first of `Fallbacks` that loads.
/// Returns the symbol and names where it came from in `From`.
void *findSymbol(const char *Symbol, const char *Env,
                 std::initializer_list<const char *> Fallbacks,
                 std::string &From) {
  if (const char *Path = std::getenv(Env); Path && *Path) {
    From = Path;
    void *Lib = dlopen(Path, RTLD_NOW | RTLD_LOCAL);
    return Lib ? dlsym(Lib, Symbol) : nullptr;
  }
  if (void *S = dlsym(RTLD_DEFAULT, Symbol)) {
    From = "the process";
    return S;
  }
  for (const char *Name : Fallbacks)
    if (void *Lib = dlopen(Name, RTLD_NOW | RTLD_LOCAL)) {
      From = Name;
      return dlsym(Lib, Symbol);
    }
  From = "not found";
  return nullptr;
}

/// cudaPointerGetAttributes and cuMemGetAddressRange_v2, found at first use.
class CudaOracle : public MemoryOracle {
public:
  MemKind kind(const void *P) override {
    resolve();
    if (!PointerAttributes)
      return MemKind::Unknown;
    // struct cudaPointerAttributes begins with `enum cudaMemoryType type`;
    // the buffer is larger than the struct of any CUDA release so far.
    alignas(8) unsigned char Attributes[256] = {};
    if (PointerAttributes(Attributes, P) != 0) {
      if (GetLastError)
        GetLastError(); // do not leave the error for the program to find
      return MemKind::Unknown;
    }
    int Type;
    std::memcpy(&Type, Attributes, sizeof(Type));
    switch (Type) {
    case 0:
      return MemKind::Unregistered;
    case 1:
      return MemKind::PinnedHost;
    case 2:
      return MemKind::Device;
    case 3:
      return MemKind::Managed;
    }
    return MemKind::Unknown;
  }

  bool allocation(const void *P, std::uintptr_t &Base,
                  std::size_t &Size) override {
    resolve();
    if (!AddressRange)
      return false;
    unsigned long long B = 0;
    std::size_t S = 0;
    if (AddressRange(&B, &S, reinterpret_cast<std::uintptr_t>(P)) != 0)
      return false;
    Base = static_cast<std::uintptr_t>(B);
    Size = S;
    return true;
  }

  /// Called once by the first query; records where the functions came from.
  void resolve() {
    std::call_once(Once, [this] {
      std::string CudartFrom, DriverFrom;
      PointerAttributes = reinterpret_cast<int (*)(void *, const void *)>(
          findSymbol("cudaPointerGetAttributes", "CUBLAS_TRACE_CUDART",
                     {"libcudart.so.13", "libcudart.so"}, CudartFrom));
      GetLastError = reinterpret_cast<int (*)()>(
          findSymbol("cudaGetLastError", "CUBLAS_TRACE_CUDART",
                     {"libcudart.so.13", "libcudart.so"}, CudartFrom));
      AddressRange = reinterpret_cast<int (*)(
          unsigned long long *, std::size_t *, unsigned long long)>(
          findSymbol("cuMemGetAddressRange_v2", "CUBLAS_TRACE_CUDA_DRIVER",
                     {"libcuda.so.1"}, DriverFrom));
      Resolved = "{\"event\":\"oracle\",\"cudaPointerGetAttributes\":" +
                 jsonString(PointerAttributes ? CudartFrom : "not found") +
                 ",\"cuMemGetAddressRange\":" +
                 jsonString(AddressRange ? DriverFrom : "not found") + "}";
    });
  }

  std::once_flag Once;
  std::string Resolved;
  int (*PointerAttributes)(void *, const void *) = nullptr;
  int (*GetLastError)() = nullptr;
  int (*AddressRange)(unsigned long long *, std::size_t *,
                      unsigned long long) = nullptr;
};

struct Runtime {
  Runtime()
      : Sink(openReport()), Trace(Oracle, Sink),
        Report(std::getenv("CUBLAS_TRACE_REPORT")
                   ? std::getenv("CUBLAS_TRACE_REPORT")
                   : "") {
    Trace.record("{\"event\":\"start\",\"pid\":" + std::to_string(getpid()) +
                 ",\"functions\":" + std::to_string(NumFunctions) +
                 ",\"report\":" + jsonString(Report) + "}");
  }
  static int openReport() {
    const char *Path = std::getenv("CUBLAS_TRACE_REPORT");
    if (!Path || !*Path)
      return STDERR_FILENO;
    int Fd =
        open(Path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (Fd < 0) {
      std::fprintf(stderr, "cublas-trace: cannot open %s: %s\n", Path,
                   std::strerror(errno));
      return STDERR_FILENO;
    }
    return Fd;
  }

  CudaOracle Oracle;
  FdSink Sink;
  Tracer Trace;
  std::string Report;
  std::atomic<bool> OracleRecorded{false};
};

Runtime &runtime() {
  static Runtime *R = new Runtime(); // never destroyed: used until the end
  return *R;
}

std::atomic<void *> RealFunctions[NumFunctions];
thread_local int Depth = 0;

const FunctionInfo &info(FunctionId Id) {
  return cublas_tidy::allFunctions()[static_cast<unsigned>(Id)];
}

// Fatal signals: one record, written with write(2) only, then the default
// action. The lines are made before any signal can arrive.
struct FatalSignal {
  int Number;
  const char *Name;
};
constexpr FatalSignal FatalSignals[] = {{SIGSEGV, "SIGSEGV"},
                                        {SIGBUS, "SIGBUS"},
                                        {SIGABRT, "SIGABRT"},
                                        {SIGFPE, "SIGFPE"},
                                        {SIGILL, "SIGILL"}};
constexpr unsigned NumFatalSignals =
    sizeof(FatalSignals) / sizeof(FatalSignals[0]);
char SignalLines[NumFatalSignals][96];
int ReportFd = STDERR_FILENO;

void onFatalSignal(int Sig) {
  for (unsigned I = 0; I < NumFatalSignals; ++I)
    if (FatalSignals[I].Number == Sig) {
      ssize_t Ignored =
          ::write(ReportFd, SignalLines[I], std::strlen(SignalLines[I]));
      (void)Ignored;
    }
  std::signal(Sig, SIG_DFL);
  std::raise(Sig);
}

__attribute__((constructor)) void startTracer() {
  Runtime &R = runtime();
  ReportFd = R.Sink.Fd;
  for (unsigned I = 0; I < NumFatalSignals; ++I) {
    std::snprintf(SignalLines[I], sizeof(SignalLines[I]),
                  "{\"event\":\"signal\",\"signal\":%d,\"name\":\"%s\"}\n",
                  FatalSignals[I].Number, FatalSignals[I].Name);
    struct sigaction Action = {};
    Action.sa_handler = onFatalSignal;
    sigemptyset(&Action.sa_mask);
    Action.sa_flags = SA_RESETHAND;
    sigaction(FatalSignals[I].Number, &Action, nullptr);
  }
}

__attribute__((destructor)) void finishTracer() { runtime().Trace.finish(); }

} // namespace

void *realFunction(FunctionId Id) {
  unsigned I = static_cast<unsigned>(Id);
  void *F = RealFunctions[I].load(std::memory_order_acquire);
  if (!F) {
    F = dlsym(RTLD_NEXT, info(Id).Name);
    RealFunctions[I].store(F, std::memory_order_release);
  }
  return F;
}

void missingFunction(FunctionId Id) {
  std::string Line =
      std::string("{\"event\":\"missing-function\",\"function\":") +
      jsonString(info(Id).Name) + "}";
  runtime().Trace.record(Line);
  std::fprintf(stderr,
               "cublas-trace: %s is not defined by any library after the "
               "tracer; cannot forward the call\n",
               info(Id).Name);
  std::abort();
}

bool enterCall() { return Depth++ == 0; }
void leaveCall() { --Depth; }

void beforeCall(FunctionId Id, const Arg *Args, const void *ReturnAddress,
                CallSite &Site) {
  Runtime &R = runtime();
  R.Oracle.resolve();
  if (!R.OracleRecorded.exchange(true))
    R.Trace.record(R.Oracle.Resolved);
  Site = resolveCallSite(ReturnAddress);
  R.Trace.beforeCall(info(Id), Args, Site);
}

void afterCall(FunctionId Id, const Arg *Args, std::int64_t Result,
               const CallSite &Site) {
  runtime().Trace.afterCall(info(Id), Args, Result, Site);
}

} // namespace cublas_trace
