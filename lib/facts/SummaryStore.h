//===- SummaryStore.h - The project's summaries, as a file ----------------===//
//
// A project keeps its cuBLAS code behind functions defined in other files:
// a status checker in utils.cpp, a GEMM wrapper in math.cu, a shutdown() in
// engine.cpp that destroys the handle init() created. Within one unit such a
// function has no body, and the analyses know nothing of it. A summary says,
// for one function with external linkage, what the analyses found in the
// unit that defines it:
//
//   - statuses: it inspects a status (a checker), or returns the status of a
//     cuBLAS call it never looked at (a wrapper), naming the call;
//   - handles: for each parameter of a cuBLAS handle or descriptor type,
//     whether it destroys it on every path or keeps it (never destroys it,
//     never lets it escape). Anything else reads as an escape: unknown;
//   - buffers: each pointer parameter that the function, never changing
//     it, passes as a memory operand of a cuBLAS call (which call, which
//     argument, on which line): the memory it must point to is that
//     argument's; the elements the call spans through it, in terms of the
//     function's parameters (a polynomial of them); the cudaDataType_t the
//     function declares for it;
//   - handles made per call: a local handle created and destroyed around
//     cuBLAS work on every call, in a function that selects no device;
//   - the globals it destroys: handle variables of external linkage, by
//     their mangled names, that a destroy in its body names; those it
//     leaves destroyed on every way out; and those it creates on every
//     call, with no guard, that its own unit never destroys.
//
// A file's summary says what its code does with the exceptions of the
// project's functions it calls: which of them a `try` block or a Python
// binding there can catch, and through which of its functions (of external
// linkage) they go on to their callers. Chained over the files, it answers
// "can a caller catch what leaves this function" (facts/Exceptions.h).
//
// Summaries are keyed by the function's mangled name, the name the linker
// joins calls and definitions by. A store holds the summaries of a project.
// Two different definitions under one key (an ODR violation, or two
// programs in one build) make the key ambiguous: it answers nothing.
//
// Summaries are made in the defining unit with the store it was analysed
// with: a function that gives its handle or its buffer to a function of a
// third file says what that one does, once that one's summary is known.
// The project run (tools/cublas-tidy, runAll) analyses again the units
// whose questions the new summaries answer otherwise, a bounded number of
// rounds. Every summary starts unknown and a fact is said only from a
// body or a summary that says it, so functions that call each other
// across files stay unknown rather than prove each other.
//
// The store is written as JSON, stamped with the format and the tool's
// version; each summary holds a hash of the file it summarises, so that a
// store read from disk does not answer for a file changed since. It is
// found beside the compile database, as clangd finds the database. Each
// part of a function's summary is read and written by the fact that makes
// it (facts/SummaryParts.h), and listed once (SummaryParts.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef CUBLAS_TIDY_LIB_FACTS_SUMMARYSTORE_H
#define CUBLAS_TIDY_LIB_FACTS_SUMMARYSTORE_H

#include "facts/ParamPolynomial.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cublas_tidy {

/// What a true (non-zero) result of a status checker says of the status
/// it is given (`ok(s)`: success; `failed(s)`: failure), when its body
/// tells (facts/StatusFunctions.h).
enum class StatusPredicate { Unknown, TrueIsSuccess, TrueIsFailure };

struct FunctionSummary {
  enum class StatusRole { Unknown, Checker, Wrapper };
  enum class HandleEffect { Keeps, Destroys };

  std::string Key;  // the mangled name
  std::string Name; // the qualified name, for messages
  std::string File; // where it is defined (absolute)
  unsigned Line = 0;
  /// A hash of File's contents when the summary was made: a store read by
  /// the plugin or clangd does not answer for a file changed since.
  std::string FileHash;

  StatusRole Status = StatusRole::Unknown;
  /// For a wrapper of one cuBLAS call: its name as written ("cublasSgemm"),
  /// and the line of the call in File.
  std::string Wrapped;
  unsigned WrappedLine = 0;
  /// The file of that call when it is not File: the function returns the
  /// status of a wrapper of a third file.
  std::string WrappedFile;
  /// For a checker: what a true result says of the status it is given.
  StatusPredicate Predicate = StatusPredicate::Unknown;

  struct HandleParam {
    unsigned Index;
    HandleEffect Effect;
    bool operator==(const HandleParam &O) const {
      return Index == O.Index && Effect == O.Effect;
    }
  };
  /// The handle parameters it destroys or keeps, by index; any other
  /// parameter may escape.
  std::vector<HandleParam> Handles;

  struct BufferParam {
    unsigned Index;      // the parameter
    std::string Callee;  // the cuBLAS function, as declared (cublasSgemm_v2)
    std::string Spelled; // as written there (cublasSgemm)
    unsigned Arg;        // the argument of Callee it is given as
    unsigned Line;       // of the call, in File

    /// The memory the call spans through it (model/OperandGeometry.h),
    /// when every size is a parameter or a constant.
    struct Span {
      std::string Operand;      // "A", "x"
      unsigned ElementBytes = 0;
      std::string Plural;       // "floats", "4-byte elements"
      ParamPolynomial Elements; // of every batch
      /// The arguments that decide how it is laid out, for messages:
      /// {"lda", its value}, {"strideA", ...}.
      std::vector<std::pair<std::string, ParamPolynomial>> Layout;
      /// The parameters the call needs at least 1 to touch memory.
      std::vector<unsigned> Positive;
      bool operator==(const Span &O) const {
        return Operand == O.Operand && ElementBytes == O.ElementBytes &&
               Plural == O.Plural && Elements == O.Elements &&
               Layout == O.Layout && Positive == O.Positive;
      }
    };
    std::optional<Span> Spans;
    /// The cudaDataType_t the function gives the call for it, when a
    /// constant ("CUDA_R_16F"); empty otherwise.
    std::string DataType;

    /// Where the span depends on flags the function only compares with
    /// constants (`lda = (TransA == NoTrans) ? K : M`): the flags, and the
    /// span of each combination of their values (Spans is then empty).
    struct Flag {
      unsigned Param;
      std::vector<int64_t> Values; // the constants it is compared with
      int64_t Other = 0;           // stands for every other value
      bool operator==(const Flag &O) const {
        return Param == O.Param && Values == O.Values && Other == O.Other;
      }
    };
    struct Case {
      std::vector<int64_t> Values; // one per flag, in the order of Flags
      Span S;
      bool operator==(const Case &O) const {
        return Values == O.Values && S == O.S;
      }
    };
    std::vector<Flag> Flags;
    std::vector<Case> Cases;
    /// The file of the call, when the function gives the pointer on to a
    /// function of a third file that calls cuBLAS; empty: File.
    std::string CallFile;
    /// The function of that file that makes the call ("gemmRaw"); empty
    /// when the function itself makes it.
    std::string Through;

    /// The file of the call, given the file of the summary that holds it.
    llvm::StringRef callFile(llvm::StringRef SummaryFile) const {
      return CallFile.empty() ? SummaryFile : llvm::StringRef(CallFile);
    }

    bool operator==(const BufferParam &O) const {
      return Index == O.Index && Callee == O.Callee && Spelled == O.Spelled &&
             Arg == O.Arg && Line == O.Line && Spans == O.Spans &&
             DataType == O.DataType && Flags == O.Flags && Cases == O.Cases &&
             CallFile == O.CallFile && Through == O.Through;
    }
  };
  /// The pointer parameters it gives to cuBLAS as memory operands.
  std::vector<BufferParam> Buffers;

  struct PerCallHandle {
    bool Lt;            // a cuBLASLt handle, else a cuBLAS one
    std::string Create; // the create, as written (cublasCreate)
    unsigned Line;      // of the create, in File
    /// Where the create is when a function of a third file makes it, on
    /// every call of this one: that file and that function; empty: here.
    std::string CreateFile;
    std::string Through;
    bool operator==(const PerCallHandle &O) const {
      return Lt == O.Lt && Create == O.Create && Line == O.Line &&
             CreateFile == O.CreateFile && Through == O.Through;
    }
  };
  /// The handles it creates and destroys on every call (and it selects no
  /// device): what repeats when a caller calls it repeatedly
  /// (facts/RepeatedHandles.h).
  std::vector<PerCallHandle> PerCall;

  /// The globals of external linkage it destroys (globalKey), sorted.
  std::vector<std::string> DestroyedGlobals;

  /// The globals of external linkage it leaves destroyed on every way out
  /// (`void teardown() { cublasDestroy(g_blas); }`), each with the kind of
  /// its resource (ResourceTable's KindId), sorted: a caller's use of one
  /// after the call is a use after destroy.
  std::vector<std::pair<std::string, unsigned>> ReleasedGlobals;

  struct CreatedGlobal {
    std::string Key;  // globalKey
    std::string Name; // as declared: "g_handle"
    std::string Noun; // "handle", "descriptor"
    unsigned Line;    // of the create, in File
    bool operator==(const CreatedGlobal &O) const {
      return Key == O.Key && Name == O.Name && Noun == O.Noun && Line == O.Line;
    }
  };
  /// The globals of external linkage it creates on every call, unguarded
  /// (facts/RepeatedHandles.h, RecreatedStatic::UnguardedGlobal), that
  /// nothing in its unit destroys or copies, when it selects no device: a
  /// caller that calls it again leaks the previous one unless a function
  /// of the project destroys it.
  std::vector<CreatedGlobal> CreatedGlobals;

  struct PerDeviceGlobal {
    std::string Key;  // globalKey
    std::string Name; // as declared: "g_handles"
    unsigned Line;    // of a create, in File
    bool operator==(const PerDeviceGlobal &O) const {
      return Key == O.Key && Name == O.Name && Line == O.Line;
    }
  };
  /// The global arrays of handles, of external linkage, whose elements it
  /// creates one per device, each while the device of its index is current,
  /// in a unit where every create of an element is so and every other use
  /// reads one (facts/HandleDevices.h): element i belongs to device i.
  std::vector<PerDeviceGlobal> PerDeviceGlobals;

  /// For a member function (or destructor) of a class with handle members:
  /// those it does something with other than passing them to cuBLAS or
  /// creating into them ("ns::Gemm::handle_"), sorted; empty: none of them.
  /// Nothing for other functions.
  std::optional<std::vector<std::string>> TouchedMembers;

  /// The effect on parameter `Index`, when known.
  std::optional<HandleEffect> handleEffect(unsigned Index) const;
  /// True when it says something an analysis can use: one of its parts
  /// (facts/SummaryParts.h) has something.
  bool informative() const;
  bool operator==(const FunctionSummary &O) const;

  /// As JSON: where and what it is, and each part that has something
  /// (facts/SummaryParts.h).
  llvm::json::Value toJson() const;
  static std::optional<FunctionSummary> fromJson(const llvm::json::Value &V);
};

/// What one file does with the exceptions of the project's functions it
/// calls (facts/Exceptions.h makes it).
struct FileSummary {
  std::string File;     // absolute
  std::string FileHash; // as FunctionSummary::FileHash

  /// Where an exception out of one function can go from the calls (and
  /// registrations) of this file.
  struct ExceptionRoute {
    std::string Callee; // the function's key
    /// The functions of this file, of external linkage, that it leaves
    /// uncaught (their keys, sorted): their callers decide.
    std::vector<std::string> Through;
    /// Where this file can catch it: the line of the call inside a `try`
    /// block, or of the registration for Python to call (0: nowhere); the
    /// function called or registered there, for messages.
    unsigned CaughtLine = 0;
    std::string CaughtCallee;
    bool Binding = false; // caught by a Python binding, not a `try`
    bool operator==(const ExceptionRoute &O) const {
      return Callee == O.Callee && Through == O.Through &&
             CaughtLine == O.CaughtLine && CaughtCallee == O.CaughtCallee &&
             Binding == O.Binding;
    }
  };
  /// By Callee, sorted.
  std::vector<ExceptionRoute> Exceptions;

  /// The route of `Callee`'s exceptions; null when there is none.
  const ExceptionRoute *routeOf(llvm::StringRef Callee) const;
  bool informative() const { return !Exceptions.empty(); }
  bool operator==(const FileSummary &O) const {
    return File == O.File && FileHash == O.FileHash &&
           Exceptions == O.Exceptions;
  }
  llvm::json::Value toJson() const;
  static std::optional<FileSummary> fromJson(const llvm::json::Value &V);
};

/// The summaries of a project.
class SummaryStore {
public:
  /// Adds a summary. A summary of another definition under the same key
  /// makes the key ambiguous.
  void add(FunctionSummary S);
  /// The summary under `Key`; null when there is none or it is ambiguous.
  const FunctionSummary *find(llvm::StringRef Key) const;
  /// The summaries that say they destroy the global `GlobalKey`.
  std::vector<const FunctionSummary *>
  destroyersOf(llvm::StringRef GlobalKey) const;
  /// The summaries that say they create the global array `GlobalKey` one
  /// handle per device (FunctionSummary::PerDeviceGlobals).
  std::vector<const FunctionSummary *>
  perDeviceCreatorsOf(llvm::StringRef GlobalKey) const;
  /// Adds a file's summary (one of the same file replaces it).
  void add(FileSummary S);
  /// The summaries of the files that route the exceptions of the function
  /// of key `Callee`, by file.
  std::vector<const FileSummary *> routesOf(llvm::StringRef Callee) const;
  /// The summaries it answers with (ambiguous keys left out).
  size_t size() const { return ByKey.size() - ambiguous(); }
  /// The keys defined more than once.
  size_t ambiguous() const {
    return llvm::count_if(ByKey, [](const auto &E) { return !E.second; });
  }
  /// A digest of what the store says about `Keys` (order does not matter):
  /// a result computed with the store depends on nothing else of it. A key
  /// `global:G` stands for the functions that destroy the global G, a key
  /// `perdevice:G` for those that create the global array G per device; a key
  /// `catch:F` for the routes of the exceptions of the function F. What
  /// the file `OwnFile` says (the asking unit's main file, whose own
  /// summaries it never reads) is left out of both.
  std::string digest(llvm::ArrayRef<std::string> Keys,
                     llvm::StringRef OwnFile = {}) const;

  /// The store as a JSON document, stamped with `Tool` (the tool's version
  /// and build): a store from another tool is not read.
  std::string toText(llvm::StringRef Tool) const;
  /// Reads a store written by toText() with the same `Tool`.
  static llvm::Expected<SummaryStore> fromText(llvm::StringRef Text,
                                               llvm::StringRef Tool);
  static llvm::Expected<SummaryStore> readFile(llvm::StringRef Path,
                                               llvm::StringRef Tool);

  /// Read from text: it may be older than the files it summarises, and a
  /// summary whose file changed since is not used (projectSummary).
  bool mayBeStale() const { return Read; }

private:
  bool Read = false;
  /// nullopt: ambiguous.
  llvm::StringMap<std::optional<FunctionSummary>> ByKey;
  llvm::StringMap<FileSummary> Files;
  /// For each function, the files that route its exceptions.
  llvm::StringMap<std::vector<std::string>> RoutesBy;
};

/// The identity of the summaries this build makes: the format and the
/// project's version. Front ends add their own build's identity.
llvm::StringRef summaryFormat();

/// The hash of a file's contents that FunctionSummary::FileHash holds.
std::string contentsHash(llvm::StringRef Contents);

/// Whether the file at `Path` still has the contents hashed `Hash`
/// (contentsHash): read once per process and modification time.
bool fileHasHash(llvm::StringRef Path, llvm::StringRef Hash);

/// The store read from `Path`, shared by the threads of the process and
/// read again when the file changes. Null when it cannot be used; then
/// `Problem` says why, once per path and problem.
std::shared_ptr<const SummaryStore> sharedStore(llvm::StringRef Path,
                                                std::string &Problem);

/// The name of a store beside a compile database.
constexpr llvm::StringLiteral DefaultStoreName = "cublas-tidy-facts.json";

/// The store beside the compile database that serves `File`, found as
/// clangd finds the database: in each directory above the file, and in its
/// `build` subdirectory. Empty when there is none.
std::string findStoreFor(llvm::StringRef File);

} // namespace cublas_tidy

#endif
