//===- Trace.cpp - What the runtime tracer records ------------------------===//

#include "Trace.h"
#include "Footprint.h"
#include "model/LtAttributes.h"

#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <unistd.h>

namespace cublas_trace {

using cublas_tidy::ApiFamily;
using cublas_tidy::Operand;
using cublas_tidy::ParamRole;
using cublas_tidy::ResourceKind;
using cublas_tidy::ScalarSpace;

MemoryOracle::~MemoryOracle() = default;
ReportSink::~ReportSink() = default;

const char *toString(MemKind Kind) {
  switch (Kind) {
  case MemKind::Unknown:
    return "unknown";
  case MemKind::Unregistered:
    return "host (unregistered)";
  case MemKind::PinnedHost:
    return "host (pinned)";
  case MemKind::Device:
    return "device";
  case MemKind::Managed:
    return "managed";
  }
  return "?";
}

const char *statusName(std::int64_t Status) {
  switch (Status) {
  case 0:
    return "CUBLAS_STATUS_SUCCESS";
  case 1:
    return "CUBLAS_STATUS_NOT_INITIALIZED";
  case 3:
    return "CUBLAS_STATUS_ALLOC_FAILED";
  case 7:
    return "CUBLAS_STATUS_INVALID_VALUE";
  case 8:
    return "CUBLAS_STATUS_ARCH_MISMATCH";
  case 11:
    return "CUBLAS_STATUS_MAPPING_ERROR";
  case 13:
    return "CUBLAS_STATUS_EXECUTION_FAILED";
  case 14:
    return "CUBLAS_STATUS_INTERNAL_ERROR";
  case 15:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  case 16:
    return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

std::string jsonString(const std::string &S) {
  std::string Out = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"':
      Out += "\\\"";
      break;
    case '\\':
      Out += "\\\\";
      break;
    case '\n':
      Out += "\\n";
      break;
    case '\t':
      Out += "\\t";
      break;
    default:
      if (C < 0x20) {
        char Buf[8];
        std::snprintf(Buf, sizeof(Buf), "\\u%04x", C);
        Out += Buf;
      } else {
        Out += static_cast<char>(C);
      }
    }
  }
  return Out + "\"";
}

std::string hexAddress(std::uint64_t A) {
  char Buf[24];
  std::snprintf(Buf, sizeof(Buf), "0x%" PRIx64, A);
  return Buf;
}

std::string jsonSite(const CallSite &Site) {
  return "{\"object\":" + jsonString(Site.Object) +
         ",\"address\":" + jsonString(hexAddress(Site.Address)) +
         ",\"symbol\":" + jsonString(Site.Symbol) + "}";
}

namespace {

std::string mainProgramPath() {
  char Buf[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N <= 0)
    return {};
  Buf[N] = '\0';
  return Buf;
}

std::string pointerText(const void *P) {
  return jsonString(hexAddress(reinterpret_cast<std::uintptr_t>(P)));
}

/// The cublasHandle_t a classic-API call works on, or null.
/// The handle or descriptor F is given (its Resource argument), or null.
const void *resourceArg(const FunctionInfo &F, const Arg *Args) {
  int I = F.findParam(ParamRole::Resource);
  return I < 0 ? nullptr : Args[I].Ptr;
}

const void *classicHandle(const FunctionInfo &F, const Arg *Args) {
  return F.Family == ApiFamily::Classic ? resourceArg(F, Args) : nullptr;
}

/// The handle whose pointer mode places F's scalars: a cuBLAS or a cuSPARSE
/// handle (each has a mode of its own, host after its create).
const void *modeHandle(const FunctionInfo &F, const Arg *Args) {
  return F.Family == ApiFamily::Sparse ? resourceArg(F, Args)
                                       : classicHandle(F, Args);
}

} // namespace

CallSite resolveCallSite(const void *ReturnAddress) {
  CallSite Site;
  Dl_info Info;
  if (!ReturnAddress || !dladdr(ReturnAddress, &Info) || !Info.dli_fbase)
    return Site;
  // The return address follows the call; one byte back is inside it.
  std::uintptr_t A = reinterpret_cast<std::uintptr_t>(ReturnAddress) - 1;
  const auto *Header = static_cast<const ElfW(Ehdr) *>(Info.dli_fbase);
  bool FixedPosition = std::memcmp(Header->e_ident, ELFMAG, SELFMAG) == 0 &&
                       Header->e_type == ET_EXEC;
  Site.Address =
      FixedPosition ? A : A - reinterpret_cast<std::uintptr_t>(Info.dli_fbase);
  // glibc names the main program by argv[0]; the runner wants its path.
  std::string Object = Info.dli_fname ? Info.dli_fname : "";
  if (Object.empty() || Object == program_invocation_name)
    Object = mainProgramPath();
  Site.Object = Object;
  if (Info.dli_sname)
    Site.Symbol = Info.dli_sname;
  return Site;
}

void Tracer::record(const std::string &Line) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Out.write(Line);
}

void Tracer::emit(const std::string &Event, const FunctionInfo &F, unsigned I,
                  const CallSite &Site, const std::string &Fields) {
  std::string Line = "{\"event\":" + jsonString(Event) +
                     ",\"call\":" + std::to_string(Calls) +
                     ",\"function\":" + jsonString(F.Name);
  if (I < F.NumParams)
    Line += std::string(",\"param\":") + jsonString(F.params()[I].Name) +
            ",\"role\":" +
            jsonString(cublas_tidy::toString(F.params()[I].Role).str());
  Line += Fields + ",\"site\":" + jsonSite(Site) + "}";
  Out.write(Line);
}

void Tracer::checkMemory(const FunctionInfo &F, unsigned I, const Arg *Args,
                         bool NeedsDevice, const char *Why,
                         const CallSite &Site) {
  const void *P = Args[I].Ptr;
  if (Args[I].K != Arg::Pointer || !P)
    return;
  MemKind Kind = Memory.kind(P);
  bool Wrong =
      NeedsDevice ? Kind == MemKind::Unregistered : Kind == MemKind::Device;
  if (!Wrong)
    return;
  emit(NeedsDevice ? "host-pointer" : "device-pointer", F, I, Site,
       ",\"pointer\":" + pointerText(P) +
           ",\"memory\":" + jsonString(toString(Kind)) + ",\"needs\":" +
           jsonString(NeedsDevice ? "device memory" : "host memory") +
           ",\"why\":" + jsonString(Why));
}

void Tracer::checkFootprint(const FunctionInfo &F, unsigned I, const Arg *Args,
                            const CallSite &Site) {
  if (Args[I].K != Arg::Pointer || !Args[I].Ptr)
    return;
  if (std::optional<Footprint> FP = operandFootprint(F, Args, I))
    checkExtent(F, I, Args, FP->Bytes, FP->Formula, Site, FP->BytesBefore);
}

void Tracer::checkWorkspace(const FunctionInfo &F, unsigned I, const Arg *Args,
                            const CallSite &Site) {
  int Size = F.findParam(ParamRole::WorkspaceSize);
  if (Size < 0 || Args[Size].K != Arg::Integer || Args[Size].Int <= 0 ||
      Args[I].K != Arg::Pointer || !Args[I].Ptr)
    return;
  checkExtent(F, I, Args, static_cast<std::uint64_t>(Args[Size].Int),
              F.params()[Size].Name, Site);
}

void Tracer::checkExtent(const FunctionInfo &F, unsigned I, const Arg *Args,
                         std::uint64_t Needed, const std::string &Formula,
                         const CallSite &Site, std::uint64_t Before) {
  const void *P = Args[I].Ptr;
  std::uintptr_t Base = 0;
  std::size_t Size = 0;
  if (!Memory.allocation(P, Base, Size))
    return;
  std::uintptr_t Begin = reinterpret_cast<std::uintptr_t>(P);
  if (Begin < Base || Begin - Base > Size)
    return; // the oracle does not describe this pointer
  std::uint64_t Available = Base + Size - Begin;
  if (Needed <= Available && Before <= Begin - Base)
    return;
  emit("out-of-bounds", F, I, Site,
       ",\"operand\":" +
           jsonString(cublas_tidy::toString(F.params()[I].Op).str()) +
           ",\"pointer\":" + pointerText(P) +
           ",\"allocation_base\":" + jsonString(hexAddress(Base)) +
           ",\"allocation_size\":" + std::to_string(Size) +
           ",\"needed_bytes\":" + std::to_string(Needed) +
           ",\"available_bytes\":" + std::to_string(Available) +
           ",\"bytes_before_pointer\":" + std::to_string(Before) +
           ",\"available_before\":" + std::to_string(Begin - Base) +
           ",\"footprint\":" + jsonString(Formula));
}

void Tracer::checkDestroyed(const FunctionInfo &F, unsigned I, const Arg &A,
                            const CallSite &Site) {
  if (A.K != Arg::Pointer || !A.Ptr || Live.count(A.Ptr))
    return;
  auto It = Destroyed.find(A.Ptr);
  if (It == Destroyed.end())
    return;
  bool Again = F.params()[I].Role == ParamRole::ResourceDestroyed;
  emit("use-after-destroy", F, I, Site,
       ",\"value\":" + pointerText(A.Ptr) +
           ",\"destroy_again\":" + (Again ? "true" : "false") +
           ",\"destroyed_by\":" + jsonString(It->second.By->Name) +
           ",\"destroyed_at\":" + jsonSite(It->second.Site));
}

namespace {

/// The argument of `F` named `Name`, or null.
const Arg *argNamed(const FunctionInfo &F, const Arg *Args, const char *Name) {
  int I = F.findParamNamed(Name);
  return I < 0 ? nullptr : &Args[I];
}

} // namespace

void Tracer::checkLtScalar(const FunctionInfo &F, unsigned I, const Arg *Args,
                           const CallSite &Site) {
  if (std::strcmp(F.Name, "cublasLtMatmul") != 0)
    return;
  const Arg *Desc = argNamed(F, Args, "computeDesc");
  if (!Desc || Desc->K != Arg::Pointer)
    return;
  auto It = LtPointerModes.find(Desc->Ptr);
  std::int64_t Mode = It == LtPointerModes.end() ? 0 : It->second;
  ScalarSpace Space = ltScalarSpace(Mode, F.params()[I].Op);
  if (Space == ScalarSpace::Unknown)
    return;
  const std::string Why = "the matmul descriptor is in " +
                          cublas_tidy::ltPointerModeName(Mode).str();
  checkMemory(F, I, Args, Space == ScalarSpace::Device, Why.c_str(), Site);
}

void Tracer::beforeCall(const FunctionInfo &F, const Arg *Args,
                        const CallSite &Site) {
  std::lock_guard<std::mutex> Lock(Mutex);
  ++Calls;
  const void *Handle = classicHandle(F, Args);
  const void *ModeHandle = modeHandle(F, Args);
  bool DeviceMode = false;
  if (ModeHandle) {
    auto It = PointerModes.find(ModeHandle);
    DeviceMode = It != PointerModes.end() && It->second == 1;
  }
  if (Handle) {
    // Work (a routine, not a helper such as cublasSetStream) on a handle
    // whose workspace a stream change reset to the default pool.
    auto Ws = Workspaces.find(Handle);
    if (Ws != Workspaces.end() && Ws->second.Reset && F.Routine &&
        F.Routine[0] != '\0')
      emit("default-workspace", F, F.NumParams, Site,
           ",\"reset_at\":" + jsonSite(Ws->second.ResetAt));
  }
  for (unsigned I = 0; I < F.NumParams; ++I) {
    const ParamInfo &P = F.params()[I];
    switch (P.Role) {
    case ParamRole::Resource:
    case ParamRole::ResourceDestroyed:
      checkDestroyed(F, I, Args[I], Site);
      break;
    case ParamRole::DeviceMatrix:
    case ParamRole::DeviceVector:
      checkMemory(F, I, Args, true, "cuBLAS reads it on the device", Site);
      checkFootprint(F, I, Args, Site);
      break;
    case ParamRole::DevicePointerArray:
      checkMemory(F, I, Args, true,
                  "the array of pointers is read on the device", Site);
      break;
    case ParamRole::DeviceWorkspace:
      checkMemory(F, I, Args, true, "the workspace is used on the device",
                  Site);
      checkWorkspace(F, I, Args, Site);
      break;
    case ParamRole::Scalar:
    case ParamRole::ScalarResult: {
      if (!ModeHandle) {
        checkLtScalar(F, I, Args, Site);
        break;
      }
      const std::string Why =
          "the handle is in " +
          cublas_tidy::pointerModeName(F.Family, DeviceMode).str();
      checkMemory(F, I, Args, DeviceMode, Why.c_str(), Site);
      break;
    }
    case ParamRole::HostMatrix:
    case ParamRole::HostVector:
    case ParamRole::HostArray:
    case ParamRole::HostScalar:
      checkMemory(F, I, Args, false, "cuBLAS reads it on the host", Site);
      break;
    default:
      break;
    }
  }
}

void Tracer::afterCall(const FunctionInfo &F, const Arg *Args,
                       std::int64_t Result, const CallSite &Site) {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (F.ReturnsStatus && Result != 0) {
    emit("status", F, F.NumParams, Site,
         ",\"status\":" + std::to_string(Result) +
             ",\"name\":" + jsonString(statusName(Result)));
    return;
  }
  if (F.Creates != ResourceKind::None) {
    int I = F.findParam(ParamRole::ResourceOut);
    if (I >= 0 && Args[I].K == Arg::Pointer && Args[I].Ptr) {
      const void *Created = *static_cast<const void *const *>(Args[I].Ptr);
      if (Created) {
        if (isHandleKind(F.Creates))
          ++CreatedHandles;
        Live[Created] = Resource{&F, Site};
        Destroyed.erase(Created);
      }
    }
  }
  if (F.Destroys != ResourceKind::None) {
    int I = F.findParam(ParamRole::ResourceDestroyed);
    if (I >= 0 && Args[I].K == Arg::Pointer && Args[I].Ptr) {
      Live.erase(Args[I].Ptr);
      PointerModes.erase(Args[I].Ptr);
      LtPointerModes.erase(Args[I].Ptr);
      Workspaces.erase(Args[I].Ptr);
      Destroyed[Args[I].Ptr] = Resource{&F, Site};
    }
  }
  // cublasSetWorkspace gives the handle a workspace of the user's (a null
  // one is the default pool again); cublasSetStream resets it to the
  // default pool (cuBLAS guide, cublasSetStream).
  if (const void *Handle = classicHandle(F, Args)) {
    if (std::strcmp(F.Name, "cublasSetWorkspace_v2") == 0) {
      const Arg *Ws = argNamed(F, Args, "workspace");
      if (Ws && Ws->K == Arg::Pointer && Ws->Ptr)
        Workspaces[Handle] = UserWorkspace();
      else
        Workspaces.erase(Handle);
    } else if (std::strcmp(F.Name, "cublasSetStream_v2") == 0) {
      auto Ws = Workspaces.find(Handle);
      if (Ws != Workspaces.end() && !Ws->second.Reset) {
        Ws->second.Reset = true;
        Ws->second.ResetAt = Site;
      }
    }
  }
  int Mode = F.findParam(ParamRole::PointerMode);
  if (Mode >= 0 && Args[Mode].K == Arg::Integer)
    if (const void *Handle = modeHandle(F, Args))
      PointerModes[Handle] = Args[Mode].Int;
  // cuBLASLt: CUBLASLT_MATMUL_DESC_POINTER_MODE set on a descriptor, an
  // int32 in the caller's buffer.
  if (std::strcmp(F.Name, "cublasLtMatmulDescSetAttribute") == 0) {
    const Arg *Desc = argNamed(F, Args, "matmulDesc");
    const Arg *Attr = argNamed(F, Args, "attr");
    const Arg *Buf = argNamed(F, Args, "buf");
    const Arg *Size = argNamed(F, Args, "sizeInBytes");
    if (Desc && Attr && Buf && Size && Desc->K == Arg::Pointer &&
        Attr->K == Arg::Integer &&
        Attr->Int == cublas_tidy::lt_api::DescPointerMode &&
        Buf->K == Arg::Pointer &&
        Buf->Ptr && Size->K == Arg::Integer &&
        Size->Int >= static_cast<std::int64_t>(sizeof(std::int32_t))) {
      std::int32_t Value;
      std::memcpy(&Value, Buf->Ptr, sizeof(Value));
      LtPointerModes[Desc->Ptr] = Value;
    }
  }
}

void Tracer::finish() {
  std::lock_guard<std::mutex> Lock(Mutex);
  if (Finished)
    return;
  Finished = true;
  unsigned Handles = 0, Descriptors = 0;
  std::string Leaks;
  for (const auto &[Value, R] : Live) {
    bool IsHandle = isHandleKind(R.By->Creates);
    ++(IsHandle ? Handles : Descriptors);
    if (!Leaks.empty())
      Leaks += ",";
    Leaks +=
        "{\"kind\":" + jsonString(cublas_tidy::toString(R.By->Creates).str()) +
        ",\"category\":" + jsonString(IsHandle ? "handle" : "descriptor") +
        ",\"value\":" + pointerText(Value) +
        ",\"created_by\":" + jsonString(R.By->Name) +
        ",\"site\":" + jsonSite(R.Site) + "}";
  }
  Out.write("{\"event\":\"exit\",\"calls\":" + std::to_string(Calls) +
            ",\"created_handles\":" + std::to_string(CreatedHandles) +
            ",\"leaked_handles\":" + std::to_string(Handles) +
            ",\"leaked_descriptors\":" + std::to_string(Descriptors) +
            ",\"leaks\":[" + Leaks + "]}");
}

} // namespace cublas_trace
