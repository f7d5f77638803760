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

void TranslationUnitCacheBase::own(const clang::ASTContext &Ctx) {
  clear();
  Current = std::make_shared<Registration>();
  Ctx.AddDeallocation(&contextDestroyed,
                      new std::shared_ptr<Registration>(Current));
  Owner = &Ctx;
}

void TranslationUnitCacheBase::contextDestroyed(void *Holder) {
  auto *Held = static_cast<std::shared_ptr<Registration> *>(Holder);
  (*Held)->Destroyed.store(true, std::memory_order_release);
  delete Held;
}

void resetTranslationUnitCaches() {
  for (TranslationUnitCacheBase *C = Caches; C; C = C->Next)
    C->reset();
}

} // namespace cublas_tidy
