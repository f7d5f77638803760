//===- HandleDevices.h - The device a handle belongs to, and the current one -//
//
// A cuBLAS handle belongs to the device that is current at its cublasCreate
// (cudaSetDevice selects it for the thread). A call on the handle while
// another device is current fails or runs on the wrong GPU. Two shapes,
// followed along the CFG of one function, for a handle the function
// creates in a local variable:
//
// - the device at the create and the device at the call are both known
//   constants, and they differ (`cudaSetDevice(0); cublasCreate(&h);
//   cudaSetDevice(1); cublasSscal(h, ...)`);
// - a stream created while another known device was current is given to
//   the handle (cublasSetStream): its calls would be queued there;
// - the handle is created once, before a loop over the devices whose
//   iteration makes its own device current (`cudaSetDevice(d)`, `d` the
//   loop's variable) before the call: every iteration but one calls on a
//   device the handle does not belong to.
//
// The call may be a helper's of the same file that gives its handle
// parameter to cuBLAS and selects no device itself.
//
// Which device is current is lost where a function of the user's runs (it
// may select any device), where paths that selected different devices
// meet, and where the device variable changes. A local array (or vector)
// of handles created one per device, each while the device of its index is
// current, is followed too: an element of constant index used while
// another known device is current, or in a loop over the devices. A handle
// stored elsewhere (a member, a global) is not followed.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_HANDLEDEVICES_H
#define CUBLAS_TIDY_LIB_FACTS_HANDLEDEVICES_H

#include "facts/SummaryStore.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cublas_tidy {

/// Where another file of the project creates a global array of handles one
/// per device, as its summary says.
struct CreatedElsewhere {
  std::string File; // absolute
  unsigned Line = 0;
  std::string Function; // the qualified name of the function that does
};

/// A call on a handle while a device it does not belong to is current.
struct WrongDeviceCall {
  /// The cuBLAS call on the handle, or the call of a helper of the file
  /// that gives the handle to cuBLAS (`Inner`) and selects no device.
  const clang::CallExpr *Call = nullptr;
  const clang::CallExpr *Inner = nullptr;
  /// The local handle, or the array (a local, a member or a global).
  const clang::ValueDecl *Handle = nullptr;
  /// For an array of handles created one per device (`cudaSetDevice(d);
  /// cublasCreate(&h[d])`): the element the call uses (`h[0]`), whose
  /// device is its constant index (CreatedOn).
  const clang::Expr *Element = nullptr;
  const clang::CallExpr *Create = nullptr; // its cublasCreate
  /// For a global array created in another file (Create null): where.
  const CreatedElsewhere *Elsewhere = nullptr;
  /// The cudaSetDevice that made the call's device current.
  const clang::CallExpr *Select = nullptr;
  /// The devices, when both are constants.
  std::optional<std::int64_t> CreatedOn, CalledOn;
  /// The handle was created in `main` before any device was selected:
  /// on device 0, where every host thread starts.
  bool CreatedAtStart = false;
  /// The loop's device variable, for a handle created before a loop over
  /// the devices.
  const clang::VarDecl *LoopDevice = nullptr;
  /// For cublasSetStream: the stream (and the argument that names it), its
  /// create and its device.
  const clang::VarDecl *Stream = nullptr;
  const clang::Expr *StreamArg = nullptr;
  const clang::CallExpr *StreamCreate = nullptr;
  std::optional<std::int64_t> StreamOn;
};

/// The arrays of handles that members or globals hold, created one per
/// device across a translation unit (`cudaSetDevice(d);
/// cublasCreate(&handles_[d])` in a constructor or an init()): each
/// element belongs to the device of its index. An array is one when every
/// create of an element in the unit is made while the device of its index
/// is current, and every other use of it in the unit reads an element or
/// asks the container's size (no element assigned, no array handed to
/// code that could change it).
///
/// A global array of external linkage that the unit does not create into
/// but reads element by element is one too when the project's summaries
/// say a function of another file creates it so (its create is then null,
/// and Elsewhere says where).
struct UnitHandleArrays {
  /// Each such array and one of its creates.
  llvm::SmallDenseMap<const clang::ValueDecl *, const clang::CallExpr *, 2>
      PerDevice;
  llvm::SmallDenseMap<const clang::ValueDecl *, CreatedElsewhere, 2> Elsewhere;
};
UnitHandleArrays
perDeviceHandleArrays(llvm::ArrayRef<const clang::Decl *> Unit);

/// Whether `Callable` creates a handle into an element of a member or a
/// global (`cublasCreate(&handles_[d])`).
bool createsStoredElements(const clang::Decl *Callable);

/// The global arrays of external linkage among `Arrays` (of `FD`'s unit)
/// whose create `FD` holds, for its summary (FunctionSummary's
/// PerDeviceGlobals).
std::vector<FunctionSummary::PerDeviceGlobal>
perDeviceGlobalsOf(const clang::FunctionDecl *FD,
                   const UnitHandleArrays &Arrays);

/// The calls of `Callable` on a handle it creates while another device is
/// current, and on an element of an array of `Unit` (a member's or a
/// global's) while another device than its index's is current.
std::vector<WrongDeviceCall>
wrongDeviceCalls(const clang::Decl *Callable,
                 const UnitHandleArrays *Unit = nullptr);

} // namespace cublas_tidy

#endif
