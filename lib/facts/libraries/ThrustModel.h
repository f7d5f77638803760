//===- ThrustModel.h - thrust's device pointers as a library model --------===//
//
// thrust's vectors are rows of model/Containers.h; what is thrust's own is
// the `thrust::device_ptr` their `data()` and `&v[i]` give, and the
// conversions back to a raw pointer that cuBLAS takes:
// `thrust::raw_pointer_cast(p)` and `p.get()`, through copies and `p + k`,
// and `thrust::device_malloc`. This model answers for those, asking the
// generic analyses back for the vector's storage.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_LIBRARIES_THRUSTMODEL_H
#define CUBLAS_TIDY_LIB_FACTS_LIBRARIES_THRUSTMODEL_H

#include "facts/LibraryModel.h"

namespace cublas_tidy {

const LibraryModel &thrustModel();

} // namespace cublas_tidy

#endif
