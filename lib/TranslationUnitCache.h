//===- TranslationUnitCache.h - Results shared by the checks of one TU ----===//
//
// Several checks need the same per-function results (the CFG, the calls of a
// body, the pointer provenance, the handle analysis). A TranslationUnitCache
// keeps them for the translation unit being analysed. Declare one
// `thread_local` (a thread analyses one translation unit at a time). Every
// cache of a thread is forgotten by resetTranslationUnitCaches(), which each
// check calls when a translation unit starts (onStartOfTranslationUnit()):
// a new ASTContext may reuse the old one's address, and with it the
// addresses of its declarations.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_TRANSLATIONUNITCACHE_H
#define CUBLAS_TIDY_LIB_TRANSLATIONUNITCACHE_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace cublas_tidy {

/// Forgets the values of every TranslationUnitCache of this thread.
void resetTranslationUnitCaches();

/// The link that lets resetTranslationUnitCaches() find every cache of a
/// thread; caches enrol when they are constructed.
class TranslationUnitCacheBase {
public:
  virtual void reset() = 0;

protected:
  TranslationUnitCacheBase();
  ~TranslationUnitCacheBase();

private:
  friend void resetTranslationUnitCaches();
  TranslationUnitCacheBase *Next = nullptr;
};

template <typename KeyT, typename ValueT>
class TranslationUnitCache final : public TranslationUnitCacheBase {
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

  void reset() override {
    Values.clear();
    Owner = nullptr;
  }

private:
  const clang::ASTContext *Owner = nullptr;
  llvm::DenseMap<KeyT, std::unique_ptr<ValueT>> Values;
};

} // namespace cublas_tidy

#endif
