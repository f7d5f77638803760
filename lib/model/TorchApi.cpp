//===- TorchApi.cpp -------------------------------------------------------===//

#include "model/TorchApi.h"
#include "model/Rows.h"

namespace cublas_tidy::torch_api {

namespace {

struct Entry {
  const char *Name;
  TensorResult Result;
};

// Free functions of `at` and `torch` whose result the facts model.
const Entry FreeFunctions[] = {
    {"empty", TensorResult::Factory},    {"zeros", TensorResult::Factory},
    {"ones", TensorResult::Factory},     {"full", TensorResult::Factory},
    {"rand", TensorResult::Factory},     {"randn", TensorResult::Factory},
    {"randint", TensorResult::Factory},  {"randperm", TensorResult::Factory},
    {"arange", TensorResult::Factory},   {"eye", TensorResult::Factory},
    {"linspace", TensorResult::Factory}, {"logspace", TensorResult::Factory},
    {"empty_strided", TensorResult::Factory},
    {"empty_like", TensorResult::Like},  {"zeros_like", TensorResult::Like},
    {"ones_like", TensorResult::Like},   {"full_like", TensorResult::Like},
    {"rand_like", TensorResult::Like},   {"randn_like", TensorResult::Like},
    {"randint_like", TensorResult::Like},
};

// Methods of at::Tensor. Besides these, every in-place method (a name
// ending in '_') returns the tensor itself, set_ excepted: it replaces the
// storage.
const Entry Methods[] = {
    {"cuda", TensorResult::ToCuda},
    {"cpu", TensorResult::ToCpu},
    {"to", TensorResult::To},
    {"type_as", TensorResult::TypeAs},
    // Views and copies: the device and the dtype stay.
    {"contiguous", TensorResult::SameAsSelf},
    {"t", TensorResult::SameAsSelf},
    {"transpose", TensorResult::SameAsSelf},
    {"permute", TensorResult::SameAsSelf},
    {"view", TensorResult::SameAsSelf},
    {"view_as", TensorResult::SameAsSelf},
    {"reshape", TensorResult::SameAsSelf},
    {"reshape_as", TensorResult::SameAsSelf},
    {"narrow", TensorResult::SameAsSelf},
    {"slice", TensorResult::SameAsSelf},
    {"select", TensorResult::SameAsSelf},
    {"index", TensorResult::SameAsSelf},
    {"index_select", TensorResult::SameAsSelf},
    {"clone", TensorResult::SameAsSelf},
    {"detach", TensorResult::SameAsSelf},
    {"expand", TensorResult::SameAsSelf},
    {"expand_as", TensorResult::SameAsSelf},
    {"squeeze", TensorResult::SameAsSelf},
    {"unsqueeze", TensorResult::SameAsSelf},
    {"flatten", TensorResult::SameAsSelf},
    {"as_strided", TensorResult::SameAsSelf},
};

struct Cast {
  const char *Method;
  const char *ScalarType;
};
const Cast Casts[] = {
    {"half", "Half"},   {"float", "Float"}, {"double", "Double"},
    {"bfloat16", "BFloat16"}, {"int", "Int"}, {"long", "Long"},
    {"short", "Short"}, {"char", "Char"},   {"byte", "Byte"},
    {"bool", "Bool"},
};

struct Element {
  const char *ScalarType;
  const char *CppType;
};
// The C++ types as model/ComputeTypes.h names them. Char and Byte (one-byte
// integers) are left out, as there: code holds raw bytes in them. Long
// (int64_t, `long` here) has no cudaDataType_t.
const Element Elements[] = {
    {"Half", "c10::Half"},
    {"BFloat16", "c10::BFloat16"},
    {"Float", "float"},
    {"Double", "double"},
    {"ComplexFloat", "c10::complex<float>"},
    {"ComplexDouble", "c10::complex<double>"},
    {"Short", "short"},
    {"Int", "int"},
    {"Float8_e4m3fn", "c10::Float8_e4m3fn"},
    {"Float8_e5m2", "c10::Float8_e5m2"},
};

} // namespace

TensorResult freeFunction(llvm::StringRef Name) {
  const Entry *E = rowNamed(FreeFunctions, Name);
  return E ? E->Result : TensorResult::Unknown;
}

TensorResult method(llvm::StringRef Name) {
  if (const Entry *E = rowNamed(Methods, Name))
    return E->Result;
  if (rowNamed(Casts, Name, &Cast::Method))
    return TensorResult::Cast;
  if (Name.size() > 1 && Name.ends_with("_") && Name != "set_")
    return TensorResult::SameAsSelf;
  return TensorResult::Unknown;
}

llvm::StringRef castType(llvm::StringRef Method) {
  const Cast *C = rowNamed(Casts, Method, &Cast::Method);
  return C ? C->ScalarType : "";
}

bool isDataPointerMethod(llvm::StringRef Name) {
  return Name == "data_ptr" || Name == "data" || Name == "mutable_data_ptr" ||
         Name == "const_data_ptr";
}

llvm::StringRef elementTypeOf(llvm::StringRef ScalarType) {
  const Element *E = rowNamed(Elements, ScalarType, &Element::ScalarType);
  return E ? E->CppType : "";
}

llvm::StringRef deviceOfString(llvm::StringRef Text) {
  llvm::StringRef Type = Text.split(':').first.trim();
  if (Type == "cuda")
    return "CUDA";
  if (Type == "cpu")
    return "CPU";
  return "";
}

bool isOwnedHandleGetter(llvm::StringRef Name) {
  return Name == "getCurrentCUDABlasHandle" ||
         Name == "getCurrentCUDABlasLtHandle";
}

namespace {

const char *const ShapeChangingInPlace[] = {
    "set_",      "resize_",   "resize_as_", "as_strided_", "t_",
    "transpose_", "swapdims_", "swapaxes_", "squeeze_",    "unsqueeze_",
    "permute_",
};

} // namespace

bool changesShapeInPlace(llvm::StringRef Method) {
  for (const char *Name : ShapeChangingInPlace)
    if (Method == Name)
      return true;
  return false;
}

ShapeResult shape(llvm::StringRef Method) {
  if (Method == "contiguous")
    return ShapeResult::Contiguous;
  if (Method == "t" || Method == "transpose" || Method == "permute")
    return ShapeResult::Transposed;
  if (Method == "narrow" || Method == "slice")
    return ShapeResult::Narrowed;
  if (Method == "select")
    return ShapeResult::Selected;
  if (Method == "expand")
    return ShapeResult::Expanded;
  if (Method == "as_strided")
    return ShapeResult::Strided;
  if (Method == "index")
    return ShapeResult::Indexed;
  if (Method == "clone" || Method == "detach" || Method == "cuda" ||
      Method == "cpu" || Method == "to" || Method == "type_as" ||
      rowNamed(Casts, Method, &Cast::Method))
    return ShapeResult::Same;
  if (Method.size() > 1 && Method.ends_with("_") &&
      !changesShapeInPlace(Method))
    return ShapeResult::Same;
  return ShapeResult::Unknown;
}

} // namespace cublas_tidy::torch_api
