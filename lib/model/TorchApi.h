//===- TorchApi.h - The pieces of the ATen API the facts read -------------===//
//
// PyTorch C++/CUDA extensions call cuBLAS on the storage of tensors
// (`a.data_ptr<float>()`), so where that storage is (CPU or CUDA) and what
// it holds (its dtype) are facts the checks need. This is the small model
// of the ATen / `torch::` API that lib/facts/libraries/torch/ reads to learn
// them: which functions make a tensor and from which options, which methods
// keep a tensor's device and dtype, which change them, and which C++ type
// holds each dtype. As data, like the cuBLAS model; nothing here knows of clang.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_TORCHAPI_H
#define CUBLAS_TIDY_LIB_MODEL_TORCHAPI_H

#include "llvm/ADT/StringRef.h"

namespace cublas_tidy::torch_api {

/// How a function or method of the ATen API decides the device and dtype of
/// the tensor it returns.
enum class TensorResult {
  Unknown,    // not modelled: nothing is known of the result
  Factory,    // at::empty, torch::zeros, ...: from its TensorOptions
              // argument, the CPU when that names no device
  Like,       // at::empty_like(t, [options]): t's, unless the options say
  SameAsSelf, // t.contiguous(), t.t(), t.view(...), t.zero_(), ...
  ToCuda,     // t.cuda(): a CUDA tensor, t's dtype
  ToCpu,      // t.cpu(): a CPU tensor, t's dtype
  To,         // t.to(device | dtype | options | other tensor, ...)
  Cast,       // t.half(), t.float(), ...: t's device, the dtype of castType()
  TypeAs,     // t.type_as(other): t's device, other's dtype
};

/// A free function of namespace `at` or `torch` that returns a tensor.
TensorResult freeFunction(llvm::StringRef Name);

/// A method of at::Tensor that returns a tensor.
TensorResult method(llvm::StringRef Name);

/// The dtype (ScalarType enumerator) a cast method gives: "half" -> "Half".
llvm::StringRef castType(llvm::StringRef Method);

/// Methods that give a raw pointer to a tensor's storage:
/// data_ptr<T>(), data_ptr(), data<T>(), mutable_data_ptr, const_data_ptr.
bool isDataPointerMethod(llvm::StringRef Name);

/// The C++ element type that holds a dtype, spelled as ComputeTypes.h names
/// types (c10::Half for Half); empty for the dtypes whose elements cuBLAS
/// cannot be told apart from raw bytes or that it has no type for.
llvm::StringRef elementTypeOf(llvm::StringRef ScalarType);

/// A device string's type: "cuda:0" -> "CUDA", "cpu" -> "CPU"; empty when
/// not one of those.
llvm::StringRef deviceOfString(llvm::StringRef Text);

/// PyTorch's getters of the handles it owns and keeps using (namespace
/// at::cuda): getCurrentCUDABlasHandle, getCurrentCUDABlasLtHandle.
bool isOwnedHandleGetter(llvm::StringRef Name);

/// How a method of at::Tensor relates the sizes and the layout of the
/// tensor it returns to those of the tensor it is called on.
enum class ShapeResult {
  Unknown,    // views and reshapes: sizes and strides of their own
  Same,       // the same sizes and the same element order (clone, to,
              // cuda, casts, detach: PyTorch preserves the strides of a
              // dense tensor; in-place value updates such as zero_)
  Contiguous, // the same sizes, row-major (contiguous())
  Transposed, // the view with its dimensions reordered (t(), transpose(i,
              // j), permute(dims)): the same storage, the strides reordered
  Narrowed,   // narrow(dim, start, length), slice(dim, start, end): one
              // dimension shorter, the same strides
  Selected,   // select(dim, index): one dimension fewer, the others' strides
  Expanded,   // expand(sizes): dimensions of size 1 repeated with stride 0
  Strided,    // as_strided(sizes, strides): the sizes and strides given
  Indexed,    // index({...}) with basic indices: a Slice of a dimension
              // narrows it, an integer selects from it (None, Ellipsis,
              // steps and tensors of indices are not followed)
};
ShapeResult shape(llvm::StringRef Method);

/// In-place methods that change a tensor's sizes, strides or storage
/// (resize_, set_, t_, transpose_, squeeze_, as_strided_, ...).
bool changesShapeInPlace(llvm::StringRef Method);

} // namespace cublas_tidy::torch_api

#endif
