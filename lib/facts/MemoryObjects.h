//===- MemoryObjects.h - The known allocators and containers in a program -===//
//
// The tables of lib/model/Allocators.h and Containers.h matched against a
// program: which call is an allocator's, which type is a container's and
// where that container keeps its elements, what a container method called
// does. Every analysis that needs to know an allocation function, a
// container or a container's method asks here (PointerProvenance,
// Allocations, ValueFacts, Definitions, ...).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_MEMORYOBJECTS_H
#define CUBLAS_TIDY_LIB_FACTS_MEMORYOBJECTS_H

#include "model/Allocators.h"
#include "model/Containers.h"
#include "model/CublasApi.h"

#include "clang/AST/ExprCXX.h"

#include <optional>

namespace cublas_tidy {

/// The allocator `FD` is (a function of the global namespace or of std
/// named in the table), or null.
const memory_api::Allocator *allocatorOf(const clang::FunctionDecl *FD);

/// The allocator `Call` calls directly, or null.
const memory_api::Allocator *calledAllocator(const clang::CallExpr *Call);

/// True when argument `Arg` of `Call` is an out-parameter that an
/// allocator writes (the pointer, or cudaMallocPitch's pitch).
bool isAllocatorOutArgument(const clang::CallExpr *Call, unsigned Arg);

/// True when `F` sizes its own buffer, as cuSPARSE's SpGEMM steps do
/// (cusparseSpGEMM_workEstimation, cusparseSpGEMM_compute): called with a
/// null buffer it writes the size it needs through its one size argument,
/// then called again with a buffer of that size. A step with several
/// buffers (cusparseSpGEMMreuse_nnz) is not one: which size goes with
/// which buffer is not modelled.
bool sizesOwnBuffer(const FunctionInfo &F);

/// True when `C`, a call of `F`, asks the size: `F` sizes its own buffer
/// and the buffer given is a null pointer constant.
bool asksOwnSize(const clang::CallExpr *C, const FunctionInfo &F);

/// True when argument `Arg` of `Call` is where a library call writes a
/// value and nothing else: an allocator's pointer, or the size a cuSOLVER
/// or cuSPARSE _bufferSize query writes (`&lwork`). The variable it names
/// is defined there, not escaped.
bool isOutArgument(const clang::CallExpr *Call, unsigned Arg);

/// True when argument `Arg` of `Call` is the address of a value the
/// library only reads there: the size given to a cuSPARSE SpGEMM step with
/// its buffer (the same step writes it when the buffer is null, an out
/// argument then). The variable it names is read, not escaped.
bool isReadThroughArgument(const clang::CallExpr *Call, unsigned Arg);

/// A container type of the table, with what its arguments say.
struct ContainerType {
  const memory_api::Container *Row = nullptr;
  /// The first template argument: the element type (null when none).
  clang::QualType Element;
  /// The memory of the buffer: the row's Space under the row's allocator;
  /// nullopt under another allocator, or for an Inline container.
  std::optional<memory_api::MemorySpace> Space;
};

/// The container `T` is (through references and, when `ThroughPointer`,
/// one pointer), or nullopt.
std::optional<ContainerType> containerType(clang::QualType T,
                                           bool ThroughPointer = false);

/// True for the containers whose element count ValueFacts follows
/// (std::vector, the thrust vectors), with their element type in `Elem`.
bool isSizedContainer(clang::QualType T, clang::QualType *Elem = nullptr);

/// The row of the container method `MD` (by its name: the class is not
/// asked), or null.
const memory_api::ContainerMethod *
containerMethodOf(const clang::CXXMethodDecl *MD);

/// The row of the container method `Call` calls, or null.
const memory_api::ContainerMethod *
calledContainerMethod(const clang::CXXMemberCallExpr *Call);

/// True when `Call` calls a container method of kind `Kind`.
bool callsContainerMethod(const clang::CXXMemberCallExpr *Call,
                          memory_api::MethodKind Kind);

} // namespace cublas_tidy

#endif
