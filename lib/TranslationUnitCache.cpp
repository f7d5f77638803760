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
  for (TranslationUnitCacheBase **Link = &Caches; *Link; Link = &(*Link)->Next)
    if (*Link == this) {
      *Link = Next;
      return;
    }
}

void resetTranslationUnitCaches() {
  for (TranslationUnitCacheBase *C = Caches; C; C = C->Next)
    C->reset();
}

} // namespace cublas_tidy
