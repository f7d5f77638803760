//===- TranslationUnitCache.h - Results shared by the checks of one TU ----===//
//
// Several checks need the same per-function results (the CFG, the pointer
// provenance, the handle analysis). A TranslationUnitCache keeps them for the
// translation unit being analysed. Declare one `thread_local` (a thread
// analyses one translation unit at a time) and call reset() when a
// translation unit starts (the checks do in onStartOfTranslationUnit()):
// a new ASTContext may reuse the old one's address.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_TRANSLATIONUNITCACHE_H
#define CUBLAS_TIDY_LIB_TRANSLATIONUNITCACHE_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace cublas_tidy {

template <typename KeyT, typename ValueT> class TranslationUnitCache {
public:
  /// The value for `Key` in `Ctx`'s translation unit, made by `Make` the
  /// first time (a null result is remembered too).
  ValueT *get(const clang::ASTContext &Ctx, const KeyT &Key,
              llvm::function_ref<std::unique_ptr<ValueT>()> Make) {
    if (&Ctx != Owner) {
      Values.clear();
      Owner = &Ctx;
    }
    auto [It, New] = Values.try_emplace(Key);
    if (New)
      It->second = Make();
    return It->second.get();
  }

  void reset() {
    Values.clear();
    Owner = nullptr;
  }

private:
  const clang::ASTContext *Owner = nullptr;
  llvm::DenseMap<KeyT, std::unique_ptr<ValueT>> Values;
};

} // namespace cublas_tidy

#endif
