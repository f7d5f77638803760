//===- DescriptorData.h - What a cuSPARSE descriptor's data pointers are --===//
//
// A cuSPARSE descriptor keeps the data pointers its create is given
// (`cusparseCreateDnVec(&x, n, values, type)`) and reads them only in a
// routine that computes with it. Code that makes its descriptors once, to
// size a buffer, often gives the create a placeholder and the real arrays
// before each product (`cusparseDnVecSetValues(x, d_x)`): the placeholder
// is never read.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_DESCRIPTORDATA_H
#define CUBLAS_TIDY_LIB_FACTS_DESCRIPTORDATA_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

namespace cublas_tidy {

/// The variable or member a descriptor argument names: `x`, `&x`,
/// `s->x` and `&s->x` name `x` (a member of any object: every `s->x` is
/// the same member); null for anything else.
const clang::ValueDecl *descriptorNamed(const clang::Expr *E);

/// Whether the translation unit replaces the data pointers that `Create`,
/// a call of a create that keeps them (model: storesDescriptorData), stores
/// in its descriptor: a call of a function that sets a descriptor's data
/// (cusparseDnVecSetValues, cusparseCsrSetPointers, ...) on the same
/// variable or member, anywhere in the unit's own code. Then what the
/// create was given may be a placeholder no routine reads.
bool descriptorDataReplaced(const clang::CallExpr *Create,
                            clang::ASTContext &Ctx);

} // namespace cublas_tidy

#endif
