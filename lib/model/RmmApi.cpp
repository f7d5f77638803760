//===- RmmApi.cpp ---------------------------------------------------------===//

#include "model/RmmApi.h"

namespace cublas_tidy::rmm_api {

namespace {

const BufferClass Buffers[] = {
    {"rmm::device_uvector", Counts::Elements, 0},
    {"rmm::device_buffer", Counts::Bytes, 0},
    {"rmm::device_scalar", Counts::One, -1},
};

const char *const Keeping[] = {
    "data",          "begin",           "end",
    "cbegin",        "cend",            "element_ptr",
    "size",          "ssize",           "capacity",
    "is_empty",      "stream",          "memory_resource",
    "element",       "front_element",   "back_element",
    "value",         "set_element_async", "set_element_to_zero_async",
    "set_value_async", "set_value_to_zero_async",
};

} // namespace

const BufferClass *lookupBuffer(llvm::StringRef QualifiedName) {
  for (const BufferClass &B : Buffers)
    if (QualifiedName == B.Name)
      return &B;
  return nullptr;
}

PointerMethod pointerMethod(llvm::StringRef Method) {
  if (Method == "data" || Method == "begin")
    return PointerMethod::Start;
  if (Method == "element_ptr")
    return PointerMethod::Element;
  return PointerMethod::None;
}

bool keepsStorage(llvm::StringRef Method) {
  for (const char *K : Keeping)
    if (Method == K)
      return true;
  return false;
}

} // namespace cublas_tidy::rmm_api
