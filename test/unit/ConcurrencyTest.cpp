//===- ConcurrencyTest.cpp - Code that several host threads run at once ---===//

#include "facts/Concurrency.h"
#include "TestAST.h"

#include "clang/AST/ExprCXX.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace cublas_tidy;

namespace {

const char *Code = R"(
  #include <future>
  #include <mutex>
  #include <thread>
  #include <vector>
  std::mutex m;
  int shared;
  void work(int i) { shared = i; }
  void onlyOnce() {}
  void many() {
    std::vector<std::thread> ts;
    for (int i = 0; i < 4; ++i)
      ts.emplace_back(work, i);
    for (auto &t : ts) t.join();
    std::thread once(onlyOnce);
    once.join();
  }
  void twice() {
    std::thread a([] { shared = 1; });
    std::thread b([] { shared = 1; });
    auto f = std::async(std::launch::deferred, work, 1);
    a.join(); b.join();
  }
  void regions() {
  #pragma omp parallel
    {
      work(0);
  #pragma omp critical
      work(1);
    }
  }
  void locks() {
    {
      std::lock_guard<std::mutex> g(m);
      work(2);
    }
    m.lock();
    m.unlock();
    work(3);
  }
)";

TEST(Concurrency, StartsThatRunCodeOnSeveralThreads) {
  auto AST = test::buildAST(Code, "input.cpp", {"-fopenmp"});
  ASSERT_TRUE(AST);
  ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
  std::vector<ConcurrentCode> C = concurrentCode(test::definedFunctions(*AST));
  unsigned Threads = 0, Regions = 0;
  for (const ConcurrentCode &X : C) {
    if (X.How == ConcurrentCode::ParallelRegion) {
      ++Regions;
      EXPECT_TRUE(X.Region);
      continue;
    }
    ++Threads;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(X.Entry);
    ASSERT_TRUE(FD);
    // onlyOnce is started once, outside a loop; the two lambdas are
    // different callables started once each; the deferred async runs on
    // the waiting thread.
    EXPECT_EQ(FD->getName(), "work");
  }
  EXPECT_EQ(Threads, 1u);
  EXPECT_EQ(Regions, 1u);
}

TEST(Concurrency, LocksHeldAndRegionStatements) {
  auto AST = test::buildAST(Code, "input.cpp", {"-fopenmp"});
  ASSERT_TRUE(AST);
  const FunctionDecl *Locks = test::functionNamed(*AST, "locks");
  std::vector<const CallExpr *> Works = test::callsTo(*AST, Locks, "work");
  ASSERT_EQ(Works.size(), 2u);
  EXPECT_TRUE(lockHeldAt(Works[0], Locks));
  EXPECT_FALSE(lockHeldAt(Works[1], Locks)); // unlocked again

  std::vector<ConcurrentCode> C = concurrentCode(test::definedFunctions(*AST));
  const OMPExecutableDirective *Region = nullptr;
  for (const ConcurrentCode &X : C)
    if (X.Region)
      Region = X.Region;
  ASSERT_TRUE(Region);
  std::vector<BodyStmt> Stmts = regionStmts(Region);
  std::vector<int> Calls;
  for (size_t I = 0; I < Stmts.size(); ++I)
    if (const auto *Call = dyn_cast<CallExpr>(Stmts[I].S);
        Call && Call->getDirectCallee() &&
        Call->getDirectCallee()->getName() == "work")
      Calls.push_back(int(I));
  ASSERT_EQ(Calls.size(), 2u);
  EXPECT_FALSE(lockHeldIn(Stmts, Calls[0]));
  EXPECT_TRUE(lockHeldIn(Stmts, Calls[1])); // omp critical
}

} // namespace
