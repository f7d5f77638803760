//===- Plugin.cpp - Entry of libCublasTidy.so -----------------------------===//
//
// `clang-tidy --load=libCublasTidy.so` dlopens this module; the registration
// object in CublasTidyModule.cpp adds the cublas-* checks to the loading
// clang-tidy's registry. Referencing the anchor keeps that object file in the
// link.
//
//===----------------------------------------------------------------------===//

namespace clang::tidy::cublas {
extern volatile int CublasTidyModuleAnchorSource;
[[maybe_unused]] static int CublasTidyModuleAnchorDestination =
    CublasTidyModuleAnchorSource;
} // namespace clang::tidy::cublas
