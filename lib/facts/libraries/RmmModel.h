//===- RmmModel.h - RMM's device buffers as a library model ---------------===//
//
// `rmm::device_uvector<T>`, `rmm::device_buffer` and `rmm::device_scalar<T>`
// (model/RmmApi.h) own device memory: `v.data()`, `v.begin()` and
// `v.element_ptr(i)` point into it, and for a local constructed with its
// size (`rmm::device_uvector<float> v(n, stream)`) and used only through
// methods that keep its storage, the buffer holds that many elements
// (`v.size()` is that value too). A buffer constructed with an explicit
// memory resource may be managed or host memory: its memory is unknown.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_RMMMODEL_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_RMMMODEL_H

#include "facts/LibraryModel.h"

namespace cublas_tidy {

const LibraryModel &rmmModel();

} // namespace cublas_tidy

#endif
