//===- RuntimeCallsTest.cpp - The runtime calls the facts read ------------===//

#include "model/Allocators.h"
#include "model/RuntimeCalls.h"

#include "gtest/gtest.h"

using namespace cublas_tidy;
using runtime_api::RuntimeKind;

namespace {

TEST(RuntimeCalls, EveryRowIsConsistent) {
  for (const runtime_api::RuntimeCall &R : runtime_api::runtimeCalls()) {
    SCOPED_TRACE(R.Name);
    EXPECT_EQ(runtime_api::lookupRuntimeCall(R.Name), &R);
    EXPECT_TRUE(runtime_api::isRuntimeCall(R.Name, R.Kind));
    // Every call acts on one argument; only a copy has a source.
    EXPECT_GE(R.TargetArg, 0);
    EXPECT_EQ(R.SourceArg >= 0, R.Kind == RuntimeKind::Copy);
    if (R.Kind == RuntimeKind::Copy)
      EXPECT_GE(R.BytesArg, 0);
    EXPECT_NE(R.TargetArg, R.SourceArg);
    EXPECT_NE(R.TargetArg, R.BytesArg);
    // The allocators are a table of their own.
    EXPECT_EQ(memory_api::lookupAllocator(R.Name), nullptr);
  }
}

TEST(RuntimeCalls, WhatEachDoes) {
  const runtime_api::RuntimeCall *Copy =
      runtime_api::lookupRuntimeCall("cudaMemcpyAsync");
  ASSERT_NE(Copy, nullptr);
  EXPECT_EQ(Copy->Kind, RuntimeKind::Copy);
  EXPECT_EQ(Copy->TargetArg, 0); // destination
  EXPECT_EQ(Copy->SourceArg, 1);
  EXPECT_EQ(Copy->BytesArg, 2);
  EXPECT_TRUE(runtime_api::isRuntimeCall("cudaFree", RuntimeKind::Free));
  EXPECT_TRUE(
      runtime_api::isRuntimeCall("cudaHostRegister", RuntimeKind::Register));
  EXPECT_TRUE(
      runtime_api::isRuntimeCall("cudaSetDevice", RuntimeKind::SelectDevice));
  EXPECT_FALSE(runtime_api::isRuntimeCall("cudaFree", RuntimeKind::Copy));
  // Names are exact: no per-thread-stream variant, no allocator.
  EXPECT_EQ(runtime_api::lookupRuntimeCall("cudaMemcpyAsync_ptsz"), nullptr);
  EXPECT_EQ(runtime_api::lookupRuntimeCall("cudaMalloc"), nullptr);
}

TEST(RuntimeCalls, PointerModeValues) {
  // cublasPointerMode_t as cublas_api.h declares it.
  EXPECT_EQ(runtime_api::PointerModeHost, 0);
  EXPECT_EQ(runtime_api::PointerModeDevice, 1);
}

} // namespace
