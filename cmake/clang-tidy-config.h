/* Debian's libclang-22-dev ships ClangTidyForceLinker.h without the
   clang-tidy-config.h it includes. These values match the modules Debian
   builds (all of them, the static analyzer and custom checks included). */
#ifndef CLANG_TIDY_CONFIG_H
#define CLANG_TIDY_CONFIG_H
#define CLANG_TIDY_ENABLE_STATIC_ANALYZER 1
#define CLANG_TIDY_ENABLE_QUERY_BASED_CUSTOM_CHECKS 1
#endif
