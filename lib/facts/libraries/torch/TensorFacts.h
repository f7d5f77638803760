//===- TensorFacts.h - Where a torch::Tensor's storage is, what it holds --===//
//
// In a PyTorch C++/CUDA extension the operands of a cuBLAS call are the
// storage of tensors: `a.data_ptr<float>()`. Whether that storage is on the
// CPU or the GPU, and what dtype it holds, are in the source where the
// tensor is made: `torch::empty({m, n}, a.options())` has the device and
// dtype of `a`; `torch::zeros({n})` is a CPU tensor (the options name no
// device); `x.cuda()`, `x.to(torch::kHalf)`, `x.contiguous()` say what they
// do. This reads that, through local tensors defined once, by the table of
// model/TorchApi.h.
//
// Unknown, and so silent, wherever the source does not say: a parameter
// (unless a TORCH_CHECK before the use says it is a CUDA tensor), a tensor
// assigned again or passed by non-const reference, a function result that
// is not modelled, a dtype left to the default (Python can change it).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORFACTS_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TENSORFACTS_H

#include "facts/libraries/torch/TorchExprs.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace cublas_tidy {

enum class TensorDevice : std::uint8_t { Unknown, CPU, CUDA };

struct TensorFact {
  TensorDevice Device = TensorDevice::Unknown;
  /// A CPU tensor in page-locked memory (pinned_memory(true)).
  bool Pinned = false;
  /// What made the device known: the factory call, `.cuda()`, `.to(...)`,
  /// or the TORCH_CHECK that tests it.
  const clang::Expr *DeviceFrom = nullptr;
  /// The CPU because the options name no device (`torch::zeros({n})`).
  bool DefaultDevice = false;
  /// The dtype as its ScalarType enumerator ("Half", "Float"); empty when
  /// unknown.
  llvm::StringRef DType;
  const clang::Expr *DTypeFrom = nullptr;
  /// The tensor variable the expression names, when it does.
  const clang::VarDecl *Var = nullptr;
};

/// What is known of the tensor `E` (an expression of tensor type).
TensorFact tensorFact(const clang::Expr *E, const clang::ASTContext &Ctx);

/// When `E` is a pointer to a tensor's storage (`t.data_ptr<float>()`,
/// `t.data_ptr()`, `t.data<T>()`, `t.mutable_data_ptr<T>()`, through
/// casts), the call; null otherwise.
const clang::CXXMemberCallExpr *dataPointerCall(const clang::Expr *E);

/// The tensor whose storage a dataPointerCall() gives.
const clang::Expr *dataPointerTensor(const clang::CXXMemberCallExpr *Call);

/// The call of PyTorch's handle getter (at::cuda::getCurrentCUDABlasHandle,
/// getCurrentCUDABlasLtHandle) whose result `E` is: that call, or a local
/// initialised with it and never changed. Null otherwise. PyTorch owns the
/// handle and keeps using it after the extension returns.
const clang::CallExpr *torchOwnedHandle(const clang::Expr *E);

} // namespace cublas_tidy

#endif
