//===- TranslationUnitCache.h - Results shared by the checks of one TU ----===//
//
// Several checks need the same per-function results (the CFG, the calls of a
// body, the pointer provenance, the handle analysis). A TranslationUnitCache
// keeps them for the translation unit being analysed. Declare one
// `thread_local` (a thread analyses one translation unit at a time).
//
// Values are keyed by the addresses of declarations, which a later
// translation unit may reuse, ASTContext included: a cache forgets its
// values when the ASTContext they were made for is destroyed (it registers
// with the context), and resetTranslationUnitCaches() forgets those of every
// cache of the thread (the checks call it when a translation unit starts).
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

/// What every cache shares: the ASTContext its values are for, forgotten
/// with it, and the list through which resetTranslationUnitCaches() finds
/// every cache of a thread (caches enrol when they are constructed).
class TranslationUnitCacheBase {
public:
  /// Forgets every value.
  void reset() {
    clear();
    Owner = nullptr;
  }

protected:
  TranslationUnitCacheBase();
  ~TranslationUnitCacheBase();

  /// The values are for `Ctx` from now on: forgets the others, and will
  /// forget these when `Ctx` is destroyed.
  void own(const clang::ASTContext &Ctx);
  const clang::ASTContext *owner() const { return Owner; }
  virtual void clear() = 0;

private:
  friend void resetTranslationUnitCaches();
  /// What an ASTContext's destruction reaches: the cache, unless the cache
  /// has moved on to another context or been destroyed since.
  struct Watch {
    TranslationUnitCacheBase *Cache;
  };
  static void contextDestroyed(void *W);

  TranslationUnitCacheBase *Next = nullptr;
  const clang::ASTContext *Owner = nullptr;
  Watch *Current = nullptr;
};

template <typename KeyT, typename ValueT>
class TranslationUnitCache final : public TranslationUnitCacheBase {
public:
  /// The value for `Key` in `Ctx`'s translation unit, made by `Make` the
  /// first time (a null result is remembered too).
  ValueT *get(const clang::ASTContext &Ctx, const KeyT &Key,
              llvm::function_ref<std::unique_ptr<ValueT>()> Make) {
    if (&Ctx != owner())
      own(Ctx);
    auto [It, New] = Values.try_emplace(Key);
    if (New)
      It->second = Make();
    return It->second.get();
  }

private:
  void clear() override { Values.clear(); }

  llvm::DenseMap<KeyT, std::unique_ptr<ValueT>> Values;
};

} // namespace cublas_tidy

#endif
