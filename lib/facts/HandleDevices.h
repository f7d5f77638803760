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

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace cublas_tidy {

/// A call on a handle while a device it does not belong to is current.
struct WrongDeviceCall {
  /// The cuBLAS call on the handle, or the call of a helper of the file
  /// that gives the handle to cuBLAS (`Inner`) and selects no device.
  const clang::CallExpr *Call = nullptr;
  const clang::CallExpr *Inner = nullptr;
  const clang::VarDecl *Handle = nullptr; // the local handle, or array
  /// For an array of handles created one per device (`cudaSetDevice(d);
  /// cublasCreate(&h[d])`): the element the call uses (`h[0]`), whose
  /// device is its constant index (CreatedOn).
  const clang::Expr *Element = nullptr;
  const clang::CallExpr *Create = nullptr; // its cublasCreate
  /// The cudaSetDevice that made the call's device current.
  const clang::CallExpr *Select = nullptr;
  /// The devices, when both are constants.
  std::optional<std::int64_t> CreatedOn, CalledOn;
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

/// The calls of `Callable` on a handle it creates while another device is
/// current.
std::vector<WrongDeviceCall> wrongDeviceCalls(const clang::Decl *Callable);

} // namespace cublas_tidy

#endif
