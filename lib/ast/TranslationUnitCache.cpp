//===- TranslationUnitCache.cpp -------------------------------------------===//

#include "ast/TranslationUnitCache.h"

namespace cublas_tidy {

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

} // namespace cublas_tidy
