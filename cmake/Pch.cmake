# Precompiled Clang/LLVM headers. Every translation unit of lib/, checks/,
# tools/cublas-tidy and the unit tests includes a large part of Clang's AST
# and matcher headers, and parsing them is most of what a compile of such a
# unit costs: CublasTidyCore, the driver and the unit tests precompile them
# once each. lib/ keeps its layers: the PCH holds only Clang and LLVM
# headers, never clang-tidy's or the project's. -DCUBLAS_TIDY_PCH=OFF
# compiles without it.
option(CUBLAS_TIDY_PCH "Precompile the Clang/LLVM headers" ON)

set(CUBLAS_TIDY_PCH_HEADERS
  <clang/AST/ASTContext.h>
  <clang/AST/Decl.h>
  <clang/AST/DeclCXX.h>
  <clang/AST/Expr.h>
  <clang/AST/ExprCXX.h>
  <clang/AST/RecursiveASTVisitor.h>
  <clang/AST/StmtCXX.h>
  <clang/ASTMatchers/ASTMatchFinder.h>
  <clang/ASTMatchers/ASTMatchers.h>
  <clang/Analysis/CFG.h>
  <clang/Basic/SourceManager.h>
  <clang/Lex/Lexer.h>
  <llvm/ADT/ArrayRef.h>
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/DenseSet.h>
  <llvm/ADT/STLExtras.h>
  <llvm/ADT/SmallPtrSet.h>
  <llvm/ADT/SmallVector.h>
  <llvm/ADT/StringRef.h>
  <llvm/Support/raw_ostream.h>
  <map> <memory> <optional> <set> <string> <vector>)

# The PCH of CublasTidyCore; without its timestamp, so that ccache can
# reuse the compiles that include it.
if(CUBLAS_TIDY_PCH)
  target_precompile_headers(CublasTidyCore PRIVATE ${CUBLAS_TIDY_PCH_HEADERS})
  target_compile_options(CublasTidyCore PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
endif()

# The same headers precompiled for an executable of many units (the driver,
# the unit tests): its own PCH, since an executable's units are compiled as
# position-independent executables (-fPIE) and the library's PCH is -fPIC,
# which clang refuses to mix.
function(cublas_tidy_precompile_headers Target)
  if(CUBLAS_TIDY_PCH)
    target_precompile_headers(${Target} PRIVATE ${CUBLAS_TIDY_PCH_HEADERS})
    target_compile_options(${Target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
  endif()
endfunction()
