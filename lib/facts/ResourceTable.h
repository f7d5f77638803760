//===- ResourceTable.h - The functions that create and destroy resources --===//
//
// Which calls create or destroy a handle or descriptor, and of which kind:
// the pairs of the API model (cuBLAS and its neighbours), plus the pairs a
// user adds. Read by the handle analyses (HandleStates.h,
// RepeatedHandles.h, MemberHandles.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_RESOURCETABLE_H
#define CUBLAS_TIDY_LIB_FACTS_RESOURCETABLE_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <bitset>
#include <string>
#include <vector>

namespace cublas_tidy {

/// The functions that create and destroy resources: the pairs of the API
/// model (cuBLAS, cuBLASLt, cuBLASXt, cuSOLVER, cuSPARSE), plus pairs the
/// user adds (myPoolOpen:myPoolClose).
class ResourceTable {
public:
  struct Kind {
    std::string Noun;    // "handle", "descriptor", "resource"
    std::string Create;  // name as written by users, e.g. "cublasCreate"
    std::string Destroy; // e.g. "cublasDestroy"
  };
  struct Entry {
    unsigned KindId;
    bool IsCreate;
    int ParamIndex; // the resource argument; -1: the first one that fits
  };

  /// The cuBLAS, cuBLASLt and cuBLASXt pairs of the API model.
  static ResourceTable fromApiModel();

  /// Adds a pair of functions by name; returns false when either name is
  /// already known as another resource function. A pair the table already
  /// holds, create and destroy of one kind, is accepted as it is.
  bool addPair(llvm::StringRef Create, llvm::StringRef Destroy);

  const Entry *lookup(llvm::StringRef FunctionName) const;
  /// The entry of the function `Call` names, or null.
  const Entry *lookup(const clang::CallExpr *Call) const;
  /// Whether `Call` destroys the resource held in `Var`.
  bool destroys(const clang::CallExpr *Call, const clang::VarDecl *Var) const;
  const Kind &kind(unsigned Id) const { return Kinds[Id]; }
  unsigned kindCount() const { return Kinds.size(); }
  /// Names of every create function (real symbols), for pre-filtering.
  std::vector<std::string> createNames() const;
  std::vector<std::string> destroyNames() const;

private:
  void add(llvm::StringRef Name, Entry E);

  std::vector<Kind> Kinds;
  llvm::StringMap<Entry> Functions;
  /// The first characters and the lengths of the names in Functions: most
  /// names asked about are told apart by these, without hashing them.
  std::bitset<256> FirstChars;
  std::bitset<64> Lengths; // longer names share the last bit
};

} // namespace cublas_tidy

#endif
