# Precompiled Clang/LLVM headers. Every translation unit of lib/, checks/,
# tools/cublas-tidy and the unit tests includes a large part of Clang's AST
# and matcher headers, and parsing them is most of what a compile of such a
# unit costs: a target of many units precompiles them once (its own PCH:
# an executable's units are compiled -fPIE, a library's -fPIC, and clang
# refuses to mix them). lib/ keeps its layers: the PCH holds only Clang and LLVM
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

# The PCH is for the compiles whose code is not what ships: the unit tests,
# every target of the sanitizer build, and the plugin built against an
# older LLVM (a build of compatibility, whose code bench/run does not
# count). The Release library and driver of LLVM 22, whose instructions
# bench/run counts, are compiled without it: with it their code came out
# 0.2% slower on the realistic TU (callgrind, 3,622 M against 3,614 M
# instructions), a difference of code generation that a cache of headers
# should not make. Without its timestamp, so that ccache can reuse the
# compiles that include it. HEADERS adds a target's own (the unit tests':
# gtest and Clang's tooling).
function(cublas_tidy_precompile_headers Target)
  cmake_parse_arguments(ARG "PRODUCT" "" "HEADERS" ${ARGN})
  if(NOT CUBLAS_TIDY_PCH OR
     (ARG_PRODUCT AND NOT CUBLAS_TIDY_SANITIZE AND NOT CUBLAS_TIDY_PLUGIN_ONLY))
    return()
  endif()
  target_precompile_headers(${Target} PRIVATE
    ${CUBLAS_TIDY_PCH_HEADERS} ${ARG_HEADERS})
  target_compile_options(${Target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
endfunction()

cublas_tidy_precompile_headers(CublasTidyCore PRODUCT)
