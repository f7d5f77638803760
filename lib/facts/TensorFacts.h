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

#ifndef CUBLAS_TIDY_LIB_FACTS_TENSORFACTS_H
#define CUBLAS_TIDY_LIB_FACTS_TENSORFACTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
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

/// True for at::Tensor, at::TensorBase and their aliases (torch::Tensor).
bool isTensorType(clang::QualType T);

/// False when no tensor type can exist in `Ctx`'s translation unit (neither
/// `Tensor` nor `TensorBase` was ever spelled in it): a test of the
/// identifier table, cheap enough to ask before following values to
/// tensors.
bool unitMayHoldTensors(const clang::ASTContext &Ctx);

/// What is known of the tensor `E` (an expression of tensor type).
TensorFact tensorFact(const clang::Expr *E, const clang::ASTContext &Ctx);

/// When `E` is a pointer to a tensor's storage (`t.data_ptr<float>()`,
/// `t.data_ptr()`, `t.data<T>()`, `t.mutable_data_ptr<T>()`, through
/// casts), the call; null otherwise.
const clang::CXXMemberCallExpr *dataPointerCall(const clang::Expr *E);

/// The tensor whose storage a dataPointerCall() gives.
const clang::Expr *dataPointerTensor(const clang::CXXMemberCallExpr *Call);

/// The storage a tensor was made with: the factory call and the sizes
/// written in it (`torch::empty({m, n}, ...)`: m and n).
struct TensorAllocation {
  const clang::CallExpr *Factory = nullptr;
  const clang::Expr *SizeList = nullptr; // {m, n}
  llvm::SmallVector<const clang::Expr *, 4> Sizes;
  const clang::VarDecl *Var = nullptr; // the tensor variable, when named
};

/// The allocation of tensor `E` when a factory that takes the sizes as a
/// braced list made it (empty, zeros, ones, full, rand, randn), through
/// locals defined once and `.contiguous()` (the same storage); nullopt
/// otherwise (views, slices and anything else).
std::optional<TensorAllocation> tensorAllocation(const clang::Expr *E);

/// The size of one dimension of a tensor, as the source fixes it: either
/// written where the tensor was made (`m` of `torch::empty({m, n})`), or
/// by name, `Tensor.size(Dim)` of a tensor variable (a parameter or a local
/// defined once) whose sizes nothing changes.
struct TensorSize {
  const clang::Expr *Written = nullptr;
  const clang::VarDecl *Tensor = nullptr;
  int Dim = 0;
};

/// The size `E` reads when it is `t.size(d)` or `t.sizes()[d]` with a
/// constant `d`, followed to the tensor it is a size of: through locals
/// defined once, copies and conversions (`contiguous`, `clone`, `to`,
/// `cuda`, casts keep the sizes), transposes (`x.t().size(1)` is
/// `x.size(0)`), `*_like` factories, and to the sizes written in a factory.
/// nullopt otherwise.
std::optional<TensorSize> tensorSizeRead(const clang::Expr *E);

/// The size of dimension `Dim` of the tensor `T`, as tensorSizeRead()
/// follows it; nullopt when unknown.
std::optional<TensorSize> tensorSize(const clang::Expr *T, int Dim);

/// How the elements of a tensor lie in its storage, where the source says
/// so. RowMajor: contiguous, as a factory, `.contiguous()` or a
/// `TORCH_CHECK(x.is_contiguous())` before the use makes it (a copy, `.to`,
/// `.cuda()` or a cast of such a tensor too: PyTorch keeps the strides of a
/// dense tensor). Transposed: `x.t()` or `x.transpose(0, 1)` of a RowMajor
/// 2-D `x`, a view whose storage is `x`'s.
enum class TensorOrder : std::uint8_t { Unknown, RowMajor, Transposed };

struct TensorLayout {
  TensorOrder Order = TensorOrder::Unknown;
  /// The row-major tensor whose sizes the storage has (for Transposed, the
  /// tensor transposed): the expression, and its variable when it has one.
  const clang::Expr *Storage = nullptr;
  const clang::VarDecl *StorageVar = nullptr;
  /// What makes the order known: the factory or `.contiguous()` call, or
  /// the condition of the TORCH_CHECK.
  const clang::Expr *Why = nullptr;
  /// The `.t()` / `.transpose()` call of a Transposed view.
  const clang::Expr *View = nullptr;
  /// The number of dimensions of Storage, when the source fixes it (the
  /// sizes written in its factory, a TORCH_CHECK(x.dim() == N)).
  std::optional<unsigned> Dims;
};

/// The layout of the tensor `E`; Order is Unknown where the source does not
/// say it.
TensorLayout tensorLayout(const clang::Expr *E);

/// The call of PyTorch's handle getter (at::cuda::getCurrentCUDABlasHandle,
/// getCurrentCUDABlasLtHandle) whose result `E` is: that call, or a local
/// initialised with it and never changed. Null otherwise. PyTorch owns the
/// handle and keeps using it after the extension returns.
const clang::CallExpr *torchOwnedHandle(const clang::Expr *E);

} // namespace cublas_tidy

#endif
