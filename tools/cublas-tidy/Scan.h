//===- Scan.h - Which translation units can reach cuBLAS ------------------===//
//
// In a large codebase a few units touch cuBLAS. Before parsing a unit, the
// driver asks clang's dependency scanner (the machinery behind
// clang-scan-deps: it preprocesses sources reduced to their directives) for
// every file the unit includes. A unit none of whose files mentions
// `cublas` declares no cuBLAS function, type or enumerator: no cublas-*
// check can report anything in it, so it need not be parsed.
//
// The same file list, with each file's contents hashed, keys the results
// cache (Cache.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_TOOLS_SCAN_H
#define CUBLAS_TIDY_TOOLS_SCAN_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/ADT/StringMap.h"

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace clang::dependencies {
class DependencyScanningService;
}

namespace cublas_tidy {

/// What a run learns of a file's contents, once per run whatever the number
/// of units that include it. Thread-safe.
class FileContents {
public:
  struct Facts {
    bool Readable = false;
    bool MentionsCublas = false; // the text holds "cublas"
    std::string Hash;            // of the contents, hex
  };
  Facts facts(llvm::StringRef Path);

private:
  std::mutex Lock;
  llvm::StringMap<Facts> Known;
};

struct UnitScan {
  bool Scanned = false; // false: the scan failed; Error says why
  std::string Error;
  /// Every file the unit reads, the main file included (absolute paths).
  std::vector<std::string> Files;
  /// The first file, in include order, that mentions cublas (or cannot be
  /// read: never skip on what is unknown); empty if none.
  std::string Mention;
  bool MentionUnreadable = false;
};

/// Scans units with one shared service (its cache of minimised files serves
/// every unit); one Scanner per thread.
class ScanService {
public:
  ScanService();
  ~ScanService();
  clang::dependencies::DependencyScanningService &service() { return *Service; }

private:
  std::unique_ptr<clang::dependencies::DependencyScanningService> Service;
};

class Scanner {
public:
  explicit Scanner(ScanService &S);
  ~Scanner();
  /// The files of the unit that `Commands` compile (each command's files,
  /// joined), and the first that mentions cublas.
  UnitScan scan(llvm::ArrayRef<clang::tooling::CompileCommand> Commands,
                FileContents &Contents);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace cublas_tidy

#endif
