//===- TranslationUnitCache.h - Results shared by the checks of one TU ----===//
//
// Several checks need the same per-function results (the CFG, the calls of a
// body, the pointer provenance, the handle analysis). A TranslationUnitCache
// keeps them for the translation unit being analysed. Declare one
// `thread_local` (a thread analyses one translation unit at a time).
//
// Values are keyed by the addresses of declarations, which a later
// translation unit may reuse, ASTContext included: a cache learns when the
// ASTContext its values were made for is destroyed (it registers with the
// context) and forgets them before it serves another context, even one at
// the same address: nothing needs to reset a cache between translation
// units. The context may be destroyed on another thread (clangd evicts ASTs
// from any worker): its destruction only marks the registration, which the
// cache reads on its own thread.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_AST_TRANSLATIONUNITCACHE_H
#define CUBLAS_TIDY_LIB_AST_TRANSLATIONUNITCACHE_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <atomic>
#include <memory>

namespace cublas_tidy {

/// What every cache shares: the ASTContext its values are for, forgotten
/// with it.
class TranslationUnitCacheBase {
protected:
  ~TranslationUnitCacheBase() = default;

  /// True when the values are for `Ctx`: it is the context they were
  /// made for, and that context has not been destroyed.
  bool owns(const clang::ASTContext &Ctx) const {
    return &Ctx == Owner && Current &&
           !Current->Destroyed.load(std::memory_order_acquire);
  }
  /// The values are for `Ctx` from now on: forgets the others.
  void own(const clang::ASTContext &Ctx);
  virtual void clear() = 0;

private:
  /// Shared by a cache and the context it registered with; the context
  /// marks it when it is destroyed.
  struct Registration {
    std::atomic<bool> Destroyed{false};
  };
  static void contextDestroyed(void *Holder);

  const clang::ASTContext *Owner = nullptr;
  std::shared_ptr<Registration> Current;
};

template <typename KeyT, typename ValueT>
class TranslationUnitCache final : public TranslationUnitCacheBase {
public:
  /// The value for `Key` in `Ctx`'s translation unit, made by `Make` the
  /// first time (a null result is remembered too).
  ValueT *get(const clang::ASTContext &Ctx, const KeyT &Key,
              llvm::function_ref<std::unique_ptr<ValueT>()> Make) {
    if (!owns(Ctx))
      own(Ctx);
    if (auto It = Values.find(Key); It != Values.end())
      return It->second.get();
    // Make may ask this cache for other keys (a function's facts that read
    // the facts of the functions it calls): the slot is found after it.
    std::unique_ptr<ValueT> Made = Make();
    std::unique_ptr<ValueT> &Slot = Values[Key];
    if (!Slot)
      Slot = std::move(Made);
    return Slot.get();
  }

private:
  void clear() override { Values.clear(); }

  llvm::DenseMap<KeyT, std::unique_ptr<ValueT>> Values;
};

} // namespace cublas_tidy

#endif
