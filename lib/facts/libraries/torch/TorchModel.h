//===- TorchModel.h - PyTorch's tensors as a library model ----------------===//
//
// The facts of TensorFacts.h and TensorShapes.h (where a tensor's storage
// is, its dtype, its sizes and layout) answered to the generic analyses
// through the LibraryModel interface: `t.data_ptr<float>()` points to host
// or device memory, holds the tensor's storage as big as its factory made
// it, and is a matrix of the tensor's layout (TensorMatrices.h);
// `t.size(0)` is a value, `t.numel()` a count of elements, `t.data_ptr()`
// holds the dtype's elements. Its objects are "tensors". The sizes as
// values (TensorSizes.h) come with it.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TORCHMODEL_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_TORCH_TORCHMODEL_H

#include "facts/LibraryModel.h"
#include "facts/libraries/torch/TensorSizes.h"

namespace cublas_tidy {

/// The model.
const LibraryModel &torchModel();
} // namespace cublas_tidy

#endif
