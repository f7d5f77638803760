//===- TranslationUnitCache.cpp -------------------------------------------===//

#include "TranslationUnitCache.h"

namespace cublas_tidy {

namespace {
/// The caches constructed on this thread, most recent first. A plain
/// pointer: it is never destroyed, so caches may leave the list in their
/// destructors at thread exit.
thread_local TranslationUnitCacheBase *Caches = nullptr;
} // namespace

TranslationUnitCacheBase::TranslationUnitCacheBase() : Next(Caches) {
  Caches = this;
}

TranslationUnitCacheBase::~TranslationUnitCacheBase() {
  if (Current)
    Current->Cache = nullptr; // the context frees the watch
  for (TranslationUnitCacheBase **Link = &Caches; *Link; Link = &(*Link)->Next)
    if (*Link == this) {
      *Link = Next;
      return;
    }
}

void TranslationUnitCacheBase::own(const clang::ASTContext &Ctx) {
  clear();
  if (Current)
    Current->Cache = nullptr;
  Current = new Watch{this};
  Ctx.AddDeallocation(&contextDestroyed, Current);
  Owner = &Ctx;
}

void TranslationUnitCacheBase::contextDestroyed(void *W) {
  auto *Watched = static_cast<Watch *>(W);
  if (TranslationUnitCacheBase *Cache = Watched->Cache) {
    Cache->clear();
    Cache->Owner = nullptr;
    Cache->Current = nullptr;
  }
  delete Watched;
}

void resetTranslationUnitCaches() {
  for (TranslationUnitCacheBase *C = Caches; C; C = C->Next)
    C->reset();
}

} // namespace cublas_tidy
