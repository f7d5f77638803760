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
  EXPECT_TRUE(T.addPair("myPoolOpen", "myPoolClose"));
  EXPECT_FALSE(T.addPair("cublasCreate_v2", "myDestroy")); // already known
  EXPECT_FALSE(T.addPair("myPoolOpen", "cusparseDestroy"));
  EXPECT_FALSE(T.addPair("a", "a"));
  EXPECT_FALSE(T.addPair("", "b"));
  const ResourceTable::Entry *E = T.lookup("myPoolClose");
  ASSERT_TRUE(E);
  EXPECT_EQ(T.kind(E->KindId).Noun, "resource");
  EXPECT_EQ(T.kind(E->KindId).Create, "myPoolOpen");
  // A pair the model already holds, as configurations written before it
  // knew cuSOLVER and cuSPARSE name it, is accepted and stays the model's.
  EXPECT_TRUE(T.addPair("cusolverDnCreate", "cusolverDnDestroy"));
  const ResourceTable::Entry *S = T.lookup("cusolverDnDestroy");
  ASSERT_TRUE(S);
  EXPECT_EQ(T.kind(S->KindId).Noun, "handle");
  EXPECT_FALSE(T.addPair("cusolverDnCreate", "cusparseDestroy"));
}

TEST(ResourceTable, NeighbourPairsFromTheModel) {
  ResourceTable T = ResourceTable::fromApiModel();
  const ResourceTable::Entry *H = T.lookup("cusparseCreate");
  ASSERT_TRUE(H);
  EXPECT_TRUE(H->IsCreate);
  EXPECT_EQ(T.kind(H->KindId).Noun, "handle");
  EXPECT_EQ(T.kind(H->KindId).Destroy, "cusparseDestroy");
  // Every sparse-matrix format is one kind of descriptor, destroyed by one
  // function.
  const ResourceTable::Entry *Csr = T.lookup("cusparseCreateCsr");
  const ResourceTable::Entry *Coo = T.lookup("cusparseCreateConstCoo");
  ASSERT_TRUE(Csr && Coo);
  EXPECT_EQ(Csr->KindId, Coo->KindId);
  EXPECT_EQ(T.kind(Csr->KindId).Noun, "descriptor");
  EXPECT_EQ(T.kind(Csr->KindId).Destroy, "cusparseDestroySpMat");
  const ResourceTable::Entry *Sv = T.lookup("cusparseSpSV_destroyDescr");
  ASSERT_TRUE(Sv);
  EXPECT_FALSE(Sv->IsCreate);
  EXPECT_EQ(T.kind(Sv->KindId).Create.substr(0, 14), "cusparseSpSV_c");
  EXPECT_EQ(T.lookup("cusparseSpMV"), nullptr);
  EXPECT_EQ(T.lookup("cusparseCreateIdentityPermutation"), nullptr);
}

} // namespace
