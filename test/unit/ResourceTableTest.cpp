//===- ResourceTableTest.cpp - The functions that create and destroy ------===//

#include "facts/ResourceTable.h"

#include "gtest/gtest.h"

using namespace cublas_tidy;

namespace {

TEST(ResourceTable, HoldsTheApiModelPairs) {
  ResourceTable T = ResourceTable::fromApiModel();
  const ResourceTable::Entry *C = T.lookup("cublasCreate_v2");
  const ResourceTable::Entry *D = T.lookup("cublasDestroy_v2");
  ASSERT_TRUE(C && D);
  EXPECT_TRUE(C->IsCreate);
  EXPECT_FALSE(D->IsCreate);
  EXPECT_EQ(C->KindId, D->KindId);
  EXPECT_EQ(T.kind(C->KindId).Noun, "handle");
  EXPECT_EQ(T.kind(C->KindId).Destroy, "cublasDestroy");
  const ResourceTable::Entry *L = T.lookup("cublasLtMatrixLayoutCreate");
  ASSERT_TRUE(L);
  EXPECT_EQ(T.kind(L->KindId).Noun, "descriptor");
  EXPECT_NE(L->KindId, C->KindId);
  EXPECT_EQ(T.lookup("cublasSgemm_v2"), nullptr);
  EXPECT_GE(T.createNames().size(), 7u);
}

TEST(ResourceTable, UserPairs) {
  ResourceTable T = ResourceTable::fromApiModel();
  EXPECT_TRUE(T.addPair("cusparseCreate", "cusparseDestroy"));
  EXPECT_FALSE(T.addPair("cublasCreate_v2", "myDestroy")); // already known
  EXPECT_FALSE(T.addPair("a", "a"));
  EXPECT_FALSE(T.addPair("", "b"));
  const ResourceTable::Entry *E = T.lookup("cusparseDestroy");
  ASSERT_TRUE(E);
  EXPECT_EQ(T.kind(E->KindId).Noun, "resource");
  EXPECT_EQ(T.kind(E->KindId).Create, "cusparseCreate");
}

} // namespace
