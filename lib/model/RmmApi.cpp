//===- RmmApi.cpp ---------------------------------------------------------===//

#include "model/RmmApi.h"
#include "model/Rows.h"

namespace cublas_tidy::rmm_api {

namespace {

const BufferClass Buffers[] = {
    {"rmm::device_uvector", Counts::Elements, 0},
    {"rmm::device_buffer", Counts::Bytes, 0},
    {"rmm::device_scalar", Counts::One, -1},
};

const BufferMethod Methods[] = {
    {"data", MethodKind::Start},
    {"begin", MethodKind::Start},
    {"element_ptr", MethodKind::Element},
    {"size", MethodKind::Size},
    {"end", MethodKind::Other},
    {"cbegin", MethodKind::Other},
    {"cend", MethodKind::Other},
    {"ssize", MethodKind::Other},
    {"capacity", MethodKind::Other},
    {"is_empty", MethodKind::Other},
    {"stream", MethodKind::Other},
    {"memory_resource", MethodKind::Other},
    {"element", MethodKind::Other},
    {"front_element", MethodKind::Other},
    {"back_element", MethodKind::Other},
    {"value", MethodKind::Other},
    {"set_element_async", MethodKind::Other},
    {"set_element_to_zero_async", MethodKind::Other},
    {"set_value_async", MethodKind::Other},
    {"set_value_to_zero_async", MethodKind::Other},
};

} // namespace

const BufferClass *lookupBuffer(llvm::StringRef QualifiedName) {
  return rowNamed(Buffers, QualifiedName);
}

const BufferMethod *lookupMethod(llvm::StringRef Method) {
  return rowNamed(Methods, Method);
}

PointerMethod pointerMethod(llvm::StringRef Method) {
  const BufferMethod *M = lookupMethod(Method);
  if (M && M->Kind == MethodKind::Start)
    return PointerMethod::Start;
  if (M && M->Kind == MethodKind::Element)
    return PointerMethod::Element;
  return PointerMethod::None;
}

bool keepsStorage(llvm::StringRef Method) {
  return lookupMethod(Method) != nullptr;
}

bool givesSize(llvm::StringRef Method) {
  const BufferMethod *M = lookupMethod(Method);
  return M && M->Kind == MethodKind::Size;
}

} // namespace cublas_tidy::rmm_api
