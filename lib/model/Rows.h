//===- Rows.h - The row of a table that has a name ------------------------===//
//
// The model is tables of rows (allocators, containers and their methods,
// runtime calls, data and compute types, ...), each row with its name.
// rowNamed is the one lookup by name they share. Header-only, as the
// model's library uses no LLVMSupport symbol.
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_MODEL_ROWS_H
#define CUBLAS_TIDY_LIB_MODEL_ROWS_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>

namespace cublas_tidy {

/// The first row of `Table` whose `Key` (its `Name` by default) is `Name`,
/// or null.
template <typename RowT, std::size_t N>
const RowT *rowNamed(const RowT (&Table)[N], llvm::StringRef Name,
                     const char *RowT::*Key = &RowT::Name) {
  // Most names asked about are no row's: a row is measured only when its
  // first letter matches.
  if (Name.empty())
    return nullptr;
  // Compared a character at a time: a row's name is not measured first
  // (most rows that share the first letter differ a few letters in).
  for (const RowT &R : Table) {
    const char *Row = R.*Key;
    if (!Row || Row[0] != Name[0])
      continue;
    std::size_t I = 1;
    while (I < Name.size() && Row[I] == Name[I])
      ++I;
    if (I == Name.size() && Row[I] == '\0')
      return &R;
  }
  return nullptr;
}

} // namespace cublas_tidy

#endif // CUBLAS_TIDY_LIB_MODEL_ROWS_H
