//===- ResourceTable.cpp --------------------------------------------------===//

#include "facts/ResourceTable.h"

#include "ast/AstUtils.h"
#include "model/CublasApi.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;

namespace cublas_tidy {

//===----------------------------------------------------------------------===//
// ResourceTable
//===----------------------------------------------------------------------===//

static std::string userName(llvm::StringRef Real) {
  // cublas_v2.h maps cublasCreate to cublasCreate_v2: users write the former.
  Real.consume_back("_v2");
  return Real.str();
}

ResourceTable ResourceTable::fromApiModel() {
  ResourceTable T;
  llvm::DenseMap<unsigned, unsigned> IdOf; // ResourceKind -> Kinds index
  auto KindFor = [&](ResourceKind K) {
    auto [It, New] = IdOf.try_emplace(static_cast<unsigned>(K), 0);
    if (New) {
      It->second = T.Kinds.size();
      T.Kinds.push_back({isHandleKind(K) ? "handle" : "descriptor", "", ""});
    }
    return It->second;
  };
  for (const FunctionInfo &F : allFunctions()) {
    if (F.Creates != ResourceKind::None) {
      unsigned Id = KindFor(F.Creates);
      T.Kinds[Id].Create = userName(F.Name);
      T.add(F.Name, {Id, true, F.findParam(ParamRole::ResourceOut)});
    }
    if (F.Destroys != ResourceKind::None) {
      unsigned Id = KindFor(F.Destroys);
      T.Kinds[Id].Destroy = userName(F.Name);
      T.add(F.Name, {Id, false, F.findParam(ParamRole::ResourceDestroyed)});
    }
  }
  return T;
}

bool ResourceTable::addPair(llvm::StringRef Create, llvm::StringRef Destroy) {
  if (Create.empty() || Destroy.empty() || Create == Destroy)
    return false;
  // A pair the model already has (cusolverDnCreate:cusolverDnDestroy, which
  // a configuration written before the model knew cuSOLVER names) is kept.
  const Entry *C = lookup(Create), *D = lookup(Destroy);
  if (C && D && C->IsCreate && !D->IsCreate && C->KindId == D->KindId)
    return true;
  if (Functions.count(Create) || Functions.count(Destroy))
    return false;
  unsigned Id = Kinds.size();
  Kinds.push_back({"resource", Create.str(), Destroy.str()});
  add(Create, {Id, true, -1});
  add(Destroy, {Id, false, -1});
  return true;
}

void ResourceTable::add(llvm::StringRef Name, Entry E) {
  Functions[Name] = E;
  if (!Name.empty())
    FirstChars.set(static_cast<unsigned char>(Name.front()));
  Lengths.set(std::min<size_t>(Name.size(), Lengths.size() - 1));
}

const ResourceTable::Entry *
ResourceTable::lookup(llvm::StringRef FunctionName) const {
  if (FunctionName.empty() ||
      !FirstChars.test(static_cast<unsigned char>(FunctionName.front())) ||
      !Lengths.test(std::min<size_t>(FunctionName.size(), Lengths.size() - 1)))
    return nullptr;
  auto It = Functions.find(FunctionName);
  return It == Functions.end() ? nullptr : &It->second;
}

const ResourceTable::Entry *
ResourceTable::lookup(const clang::CallExpr *Call) const {
  const clang::FunctionDecl *F = Call ? Call->getDirectCallee() : nullptr;
  return F && F->getIdentifier() ? lookup(F->getName()) : nullptr;
}

bool ResourceTable::destroys(const clang::CallExpr *Call,
                             const clang::VarDecl *Var) const {
  const Entry *E = lookup(Call);
  if (!E || E->IsCreate)
    return false;
  return llvm::any_of(Call->arguments(), [&](const clang::Expr *Arg) {
    return referencedVar(Arg) == Var;
  });
}

std::vector<std::string> ResourceTable::createNames() const {
  std::vector<std::string> Names;
  for (const auto &E : Functions)
    if (E.getValue().IsCreate)
      Names.push_back(E.getKey().str());
  llvm::sort(Names);
  return Names;
}

std::vector<std::string> ResourceTable::destroyNames() const {
  std::vector<std::string> Names;
  for (const auto &E : Functions)
    if (!E.getValue().IsCreate)
      Names.push_back(E.getKey().str());
  llvm::sort(Names);
  return Names;
}

} // namespace cublas_tidy
