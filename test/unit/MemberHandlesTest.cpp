//===- MemberHandlesTest.cpp - Handles kept in class members --------------===//

#include "facts/MemberHandles.h"
#include "TestAST.h"

#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cublas_tidy;

namespace {

const char Prelude[] = R"(
#include <cublas_v2.h>
float *x;
)";

struct Analysis {
  std::unique_ptr<ASTUnit> AST;
  ResourceTable Table = ResourceTable::fromApiModel();
  std::vector<const Decl *> Callables;

  explicit Analysis(const std::string &Code) {
    AST = test::buildAST(std::string(Prelude) + Code);
    EXPECT_TRUE(AST);
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred()) << Code;
    if (AST)
      Callables = test::definedFunctions(*AST);
  }
  /// "<Class>::<field>" of every leaked member.
  std::vector<std::string> leaks() {
    std::vector<std::string> Out;
    for (const LeakedMember &L : leakedMembers(Callables, Table))
      Out.push_back(L.Class->getName().str() + "::" + L.Field->getName().str());
    return Out;
  }
  /// "<Copied>/<Owner>::<field> copy|assign" of every shared copy.
  std::vector<std::string> copies() {
    std::vector<std::string> Out;
    for (const SharedHandleCopy &C : sharedHandleCopies(Callables, Table))
      Out.push_back(C.Copied->getName().str() + "/" +
                    C.Owner->getName().str() + "::" +
                    C.Field->getName().str() +
                    (C.Assignment ? " assign" : " copy"));
    return Out;
  }
};

using Strings = std::vector<std::string>;

// A handle created in a constructor, or in a member function it calls, and
// never destroyed: each object made leaks one.
TEST(MemberHandles, CreatedInTheConstructorNeverDestroyed) {
  Analysis A(R"(
    struct Gemm {
      cublasHandle_t h;
      Gemm() { cublasCreate(&h); }
      void run() { cublasSscal(h, 4, x, x, 1); }
    };
    class Lazy {
      cublasHandle_t handle_;
      void init() { cublasCreate(&handle_); }
    public:
      Lazy() { init(); }
    };
    void f() { Gemm g; g.run(); Lazy *l = new Lazy; }
  )");
  std::vector<LeakedMember> L = leakedMembers(A.Callables, A.Table);
  ASSERT_EQ(L.size(), 2u);
  EXPECT_EQ(L[0].Field->getName(), "h");
  EXPECT_EQ(L[0].KindId, A.Table.lookup("cublasCreate_v2")->KindId);
  ASSERT_TRUE(L[0].Create && L[0].Object);
  EXPECT_TRUE(isa<CXXConstructExpr>(L[0].Object));
  EXPECT_EQ(A.leaks(), (Strings{"Gemm::h", "Lazy::handle_"}));
}

// Destroyed anywhere, handed out by a getter, or only ever in a static
// object (a singleton): not a leak. `Leaky`, beside them, is one.
TEST(MemberHandles, ReleasedElsewhereOrNeverMade) {
  Analysis A(R"(
    struct Leaky {
      cublasHandle_t h;
      Leaky() { cublasCreate(&h); }
    };
    struct Destroyed {
      cublasHandle_t h;
      Destroyed() { cublasCreate(&h); }
      void close() { cublasDestroy(h); }
    };
    struct Getter {
      cublasHandle_t h;
      Getter() { cublasCreate(&h); }
      cublasHandle_t get() { return h; }
    };
    void done(Getter &g) { cublasDestroy(g.get()); }
    struct Single {
      cublasHandle_t h;
      Single() { cublasCreate(&h); }
    };
    struct NoObject {
      cublasHandle_t h;
      NoObject() { cublasCreate(&h); }
    };
    Single &instance() { static Single s; return s; }
    void f() { Destroyed d; Getter g; Leaky l; }
  )");
  EXPECT_EQ(A.leaks(), Strings{"Leaky::h"});
}

// An accessor that returns the member: followed to its calls. Kept in the
// class when every result goes to cuBLAS calls (directly, or through a
// local variable); a destroy, a function of the project, a store, or a
// reference returned make it unclear.
TEST(MemberHandles, AccessorsAreFollowedToTheirCalls) {
  Analysis A(R"(
    void keep(cublasHandle_t);
    cublasHandle_t saved;
    struct Direct {
      cublasHandle_t h;
      Direct() { cublasCreate(&h); }
      cublasHandle_t get() const { return h; }
    };
    struct Local {
      cublasHandle_t h;
      Local() { cublasCreate(&h); }
      cublasHandle_t get() const { return h; }
    };
    struct Kept {
      cublasHandle_t h;
      Kept() { cublasCreate(&h); }
      cublasHandle_t get() const { return h; }
    };
    struct Stored {
      cublasHandle_t h;
      Stored() { cublasCreate(&h); }
      cublasHandle_t get() const { return h; }
    };
    struct LocalDestroyed {
      cublasHandle_t h;
      LocalDestroyed() { cublasCreate(&h); }
      cublasHandle_t get() const { return h; }
    };
    struct Ref {
      cublasHandle_t h;
      Ref() { cublasCreate(&h); }
      cublasHandle_t &get() { return h; }
    };
    void f() {
      Direct d; cublasSscal(d.get(), 4, x, x, 1);
      Local l; cublasHandle_t lh = l.get(); cublasSetStream(lh, nullptr);
      Kept k; keep(k.get());
      Stored s; saved = s.get();
      LocalDestroyed ld; cublasHandle_t ldh = ld.get(); cublasDestroy(ldh);
      Ref r; cublasSetStream(r.get(), nullptr);
    }
  )");
  EXPECT_EQ(A.leaks(), (Strings{"Direct::h", "Local::h"}));
  for (const LeakedMember &L : leakedMembers(A.Callables, A.Table)) {
    ASSERT_NE(L.Accessor, nullptr);
    EXPECT_EQ(L.Accessor->getName(), "get");
  }
}

// A class that destroys its handle in its destructor, copied by the copy
// the compiler writes: both objects destroy it. Also through a class that
// holds one by value.
TEST(MemberHandles, CompilerCopiesShareTheHandle) {
  Analysis A(R"(
    struct Owner {
      cublasHandle_t h;
      Owner() { cublasCreate(&h); }
      ~Owner() { if (h) cublasDestroy(h); }
    };
    struct Holder { Owner o; int n; };
    void f() {
      Owner a;
      Owner b = a;
      Owner c;
      c = a;
      Holder p;
      Holder q(p);
    })");
  EXPECT_EQ(A.copies(), (Strings{"Owner/Owner::h copy",
                                 "Owner/Owner::h assign",
                                 "Holder/Owner::h copy"}));
  std::vector<SharedHandleCopy> C = sharedHandleCopies(A.Callables, A.Table);
  ASSERT_EQ(C.size(), 3u);
  ASSERT_TRUE(C[0].Destroy && C[0].Copy);
  EXPECT_EQ(C[0].KindId, A.Table.lookup("cublasDestroy_v2")->KindId);
}

// Silent for a copy the class writes or deletes, a destroy that depends on
// more than the handle (an ownership flag), a handle the class borrows, and
// a copy the compiler elides. `Shared`, beside them, is reported.
TEST(MemberHandles, CopiesThatDoNotShare) {
  Analysis A(R"(
    struct Shared {
      cublasHandle_t h;
      Shared() { cublasCreate(&h); }
      ~Shared() { cublasDestroy(h); }
    };
    struct Written {
      cublasHandle_t h;
      Written() { cublasCreate(&h); }
      Written(const Written &o) { cublasCreate(&h); }
      ~Written() { cublasDestroy(h); }
    };
    struct Flagged {
      cublasHandle_t h; bool owns = true;
      Flagged() { cublasCreate(&h); }
      ~Flagged() { if (owns) cublasDestroy(h); }
    };
    struct Borrowed {
      cublasHandle_t h;
      explicit Borrowed(cublasHandle_t g) : h(g) {}
      ~Borrowed() { cublasDestroy(h); }
    };
    struct Elided {
      cublasHandle_t h;
      Elided() { cublasCreate(&h); }
      ~Elided() { cublasDestroy(h); }
    };
    Elided make() { Elided e; return e; }
    void f(cublasHandle_t g) {
      Written w; Written w2 = w;
      Flagged fl; Flagged fl2 = fl;
      Borrowed b(g); Borrowed b2 = b;
      Elided e = make();
      Shared s; Shared s2(s);
    })");
  EXPECT_EQ(A.copies(), Strings{"Shared/Shared::h copy"});
}

} // namespace
