//===- TraceTest.cpp - What the tracer records, without a GPU -------------===//

#include "TraceTestUtil.h"

#include "gtest/gtest.h"

#include <climits>
#include <memory>
#include <unistd.h>

namespace cublas_trace {
namespace {

using test::Call;
using test::TableOracle;
using test::VectorSink;

class TraceTest : public ::testing::Test {
protected:
  TraceTest() : Trace(Memory, Sink) {
    Memory.add(DeviceA, sizeof(DeviceA), MemKind::Device);
    Memory.add(DeviceB, sizeof(DeviceB), MemKind::Device);
    Memory.add(Pinned, sizeof(Pinned), MemKind::PinnedHost);
    Memory.add(Managed, sizeof(Managed), MemKind::Managed);
    Site.Object = "/samples/gemm";
    Site.Address = 0x1234;
  }

  /// Runs the call as the interposer does: before, then after with Status.
  void run(const Call &C, std::int64_t Status = 0) {
    Trace.beforeCall(C.F, C.data(), Site);
    Trace.afterCall(C.F, C.data(), Status, Site);
  }

  /// The records whose event is `Event`.
  std::vector<std::string> events(const std::string &Event) const {
    std::vector<std::string> Out;
    for (const std::string &L : Sink.Lines)
      if (L.find("\"event\":\"" + Event + "\"") != std::string::npos)
        Out.push_back(L);
    return Out;
  }

  /// A resource "created" by Function (a Create row of the model): the
  /// out-parameter holds Value when the tracer looks after the call.
  const void *create(const char *Function, std::uintptr_t Value,
                     std::int64_t Status = 0) {
    OutSlots.push_back(
        std::make_unique<const void *>(reinterpret_cast<const void *>(Value)));
    Call C(Function);
    int Out = C.F.findParam(cublas_tidy::ParamRole::ResourceOut);
    C.ptr(C.F.params()[Out].Name, OutSlots.back().get());
    run(C, Status);
    return *OutSlots.back();
  }

  static bool contains(const std::string &Line, const std::string &Text) {
    return Line.find(Text) != std::string::npos;
  }

  alignas(16) float DeviceA[64 * 64] = {};
  alignas(16) float DeviceB[64 * 64] = {};
  alignas(16) float Pinned[16] = {};
  alignas(16) float Managed[16] = {};
  float HostVector[64] = {};
  float HostScalar = 2.0f;
  std::vector<std::unique_ptr<const void *>> OutSlots;
  TableOracle Memory;
  VectorSink Sink;
  Tracer Trace;
  CallSite Site;
};

TEST_F(TraceTest, FailedStatusIsRecordedWithItsName) {
  Call C("cublasSgemm_v2");
  run(C, 7);
  auto Lines = events("status");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_TRUE(contains(Lines[0], "\"function\":\"cublasSgemm_v2\""));
  EXPECT_TRUE(contains(Lines[0], "\"status\":7"));
  EXPECT_TRUE(contains(Lines[0], "\"name\":\"CUBLAS_STATUS_INVALID_VALUE\""));
  EXPECT_TRUE(contains(Lines[0], "\"object\":\"/samples/gemm\""));
  EXPECT_TRUE(contains(Lines[0], "\"address\":\"0x1234\""));
}

TEST_F(TraceTest, SuccessAndNonStatusResultsAreNotFailures) {
  run(Call("cublasSgemm_v2"), 0);
  run(Call("cublasGetCudartVersion"), 13000); // returns a size_t
  EXPECT_TRUE(events("status").empty());
  EXPECT_STREQ(statusName(13), "CUBLAS_STATUS_EXECUTION_FAILED");
  EXPECT_STREQ(statusName(99), "CUBLAS_STATUS_UNKNOWN");
}

TEST_F(TraceTest, HostVectorWhereCublasNeedsDeviceMemory) {
  Call C("cublasSaxpy_v2");
  C.set("n", 64)
      .ptr("alpha", &HostScalar)
      .ptr("x", HostVector)
      .set("incx", 1)
      .ptr("y", DeviceA)
      .set("incy", 1);
  run(C);
  auto Lines = events("host-pointer");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_TRUE(contains(Lines[0], "\"param\":\"x\""));
  EXPECT_TRUE(contains(Lines[0], "\"role\":\"DeviceVector\""));
  EXPECT_TRUE(contains(Lines[0], "\"memory\":\"host (unregistered)\""));
  EXPECT_TRUE(events("device-pointer").empty()); // alpha: host mode, host
}

TEST_F(TraceTest, PinnedAndManagedMemoryAreDeviceAccessible) {
  Call C("cublasSaxpy_v2");
  C.set("n", 16)
      .ptr("alpha", &HostScalar)
      .ptr("x", Pinned)
      .set("incx", 1)
      .ptr("y", Managed)
      .set("incy", 1);
  run(C);
  EXPECT_TRUE(Sink.Lines.empty());
}

TEST_F(TraceTest, ScalarsFollowThePointerModeOfTheirHandle) {
  const void *H = create("cublasCreate_v2", 0x1000);
  const void *Other = create("cublasCreate_v2", 0x2000);
  auto Scal = [&](const void *Handle, const float *Alpha) {
    Call C("cublasSscal_v2");
    C.ptr("handle", Handle)
        .set("n", 16)
        .ptr("alpha", Alpha)
        .ptr("x", DeviceA)
        .set("incx", 1);
    run(C);
  };
  Scal(H, &HostScalar); // host mode, host scalar: fine
  Scal(H, DeviceB);     // host mode, device scalar: read on the host
  ASSERT_EQ(events("device-pointer").size(), 1u);
  EXPECT_TRUE(
      contains(events("device-pointer")[0], "CUBLAS_POINTER_MODE_HOST"));

  Call Mode("cublasSetPointerMode_v2");
  Mode.ptr("handle", H).set("mode", 1);
  run(Mode);
  Scal(H, DeviceB);     // device mode, device scalar: fine
  Scal(H, &HostScalar); // device mode, host scalar: read on the device
  ASSERT_EQ(events("host-pointer").size(), 1u);
  EXPECT_TRUE(contains(events("host-pointer")[0], "\"param\":\"alpha\""));
  EXPECT_TRUE(
      contains(events("host-pointer")[0], "CUBLAS_POINTER_MODE_DEVICE"));

  Scal(Other, &HostScalar); // the other handle is still in host mode
  EXPECT_EQ(events("host-pointer").size(), 1u);

  // A failed mode change changes nothing.
  Call Back("cublasSetPointerMode_v2");
  Back.ptr("handle", H).set("mode", 0);
  run(Back, 7);
  Scal(H, &HostScalar);
  EXPECT_EQ(events("host-pointer").size(), 2u);
}

TEST_F(TraceTest, HostArrayOfDevicePointersForBatchedGemm) {
  const float *Host[2] = {DeviceA, DeviceB};
  Call C("cublasSgemmBatched");
  C.set("transa", 0)
      .set("transb", 0)
      .set("m", 8)
      .set("n", 8)
      .set("k", 8)
      .ptr("Aarray", Host)
      .set("lda", 8)
      .ptr("Barray", DeviceA)
      .set("ldb", 8)
      .ptr("Carray", DeviceB)
      .set("ldc", 8)
      .set("batchCount", 2);
  run(C);
  auto Lines = events("host-pointer");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_TRUE(contains(Lines[0], "\"param\":\"Aarray\""));
  EXPECT_TRUE(contains(Lines[0], "\"role\":\"DevicePointerArray\""));
}

TEST_F(TraceTest, DeviceMemoryOnTheHostSideOfSetVector) {
  Call C("cublasSetVector");
  C.set("n", 16)
      .set("elemSize", 4)
      .ptr("x", DeviceB)
      .set("incx", 1)
      .ptr("devicePtr", DeviceA)
      .set("incy", 1);
  run(C);
  auto Lines = events("device-pointer");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_TRUE(contains(Lines[0], "\"param\":\"x\""));
  EXPECT_TRUE(events("host-pointer").empty());
}

TEST_F(TraceTest, FootprintBeyondTheAllocation) {
  // A is 64 x 64 with lda 96: 96*63+64 floats, in a 64*64 float buffer.
  Call C("cublasSgemm_v2");
  C.set("transa", 0)
      .set("transb", 0)
      .set("m", 64)
      .set("n", 64)
      .set("k", 64)
      .ptr("alpha", &HostScalar)
      .ptr("A", DeviceA)
      .set("lda", 96)
      .ptr("B", DeviceB)
      .set("ldb", 64)
      .ptr("beta", &HostScalar)
      .ptr("C", DeviceB)
      .set("ldc", 64);
  run(C);
  auto Lines = events("out-of-bounds");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_TRUE(contains(Lines[0], "\"param\":\"A\""));
  EXPECT_TRUE(contains(Lines[0], "\"operand\":\"A\""));
  EXPECT_TRUE(contains(Lines[0], "\"needed_bytes\":24448"));
  EXPECT_TRUE(contains(Lines[0], "\"available_bytes\":16384"));
  EXPECT_TRUE(contains(Lines[0], "lda*(cols-1)+rows = 96*(64-1)+64"));
}

TEST_F(TraceTest, FootprintFromAnOffsetIntoTheAllocation) {
  Call C("cublasSaxpy_v2");
  C.set("n", 64)
      .ptr("alpha", &HostScalar)
      .ptr("x", DeviceA + 64 * 63 + 1)
      .set("incx", 1)
      .ptr("y", DeviceB)
      .set("incy", 1);
  run(C);
  auto Lines = events("out-of-bounds");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_TRUE(contains(Lines[0], "\"param\":\"x\""));
  EXPECT_TRUE(contains(Lines[0], "\"available_bytes\":252"));
}

TEST_F(TraceTest, NoFootprintForCallsCublasRejects) {
  // lda below m: cuBLAS returns CUBLAS_STATUS_INVALID_VALUE and reads nothing.
  Call C("cublasSgemm_v2");
  C.set("transa", 0)
      .set("transb", 0)
      .set("m", 128)
      .set("n", 64)
      .set("k", 64)
      .ptr("A", DeviceA)
      .set("lda", 64)
      .ptr("B", DeviceB)
      .set("ldb", 64)
      .ptr("C", DeviceB)
      .set("ldc", 128);
  Trace.beforeCall(C.F, C.data(), Site);
  for (const std::string &L : events("out-of-bounds"))
    EXPECT_FALSE(contains(L, "\"param\":\"A\"")) << L;
}

TEST_F(TraceTest, LeaksAtExitByCategory) {
  create("cublasCreate_v2", 0x100);
  const void *Second = create("cublasCreate_v2", 0x200);
  create("cublasCreate_v2", 0x300);
  create("cublasCreate_v2", 0x400, 3); // failed: nothing was created
  create("cublasLtMatrixLayoutCreate", 0x500);
  Call Destroy("cublasDestroy_v2");
  Destroy.ptr("handle", Second);
  run(Destroy);
  Trace.finish();
  Trace.finish(); // once only
  auto Lines = events("exit");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_TRUE(contains(Lines[0], "\"leaked_handles\":2"));
  EXPECT_TRUE(contains(Lines[0], "\"leaked_descriptors\":1"));
  EXPECT_TRUE(contains(Lines[0], "\"kind\":\"cublasLtMatrixLayout_t\""));
  EXPECT_TRUE(contains(Lines[0], "\"created_by\":\"cublasCreate_v2\""));
  EXPECT_FALSE(contains(Lines[0], "\"value\":\"0x200\""));
  EXPECT_FALSE(contains(Lines[0], "\"value\":\"0x400\""));
}

TEST_F(TraceTest, UseAndDestroyAfterDestroy) {
  const void *H = create("cublasCreate_v2", 0x100);
  Call Destroy("cublasDestroy_v2");
  Destroy.ptr("handle", H);
  run(Destroy);

  Call Use("cublasSscal_v2");
  Use.ptr("handle", H).set("n", 0);
  run(Use);
  run(Destroy);
  auto Lines = events("use-after-destroy");
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_TRUE(contains(Lines[0], "\"function\":\"cublasSscal_v2\""));
  EXPECT_TRUE(contains(Lines[0], "\"destroy_again\":false"));
  EXPECT_TRUE(contains(Lines[0], "\"destroyed_by\":\"cublasDestroy_v2\""));
  EXPECT_TRUE(contains(Lines[1], "\"function\":\"cublasDestroy_v2\""));
  EXPECT_TRUE(contains(Lines[1], "\"destroy_again\":true"));

  // The allocator may hand the same address to the next create.
  create("cublasCreate_v2", 0x100);
  run(Use);
  EXPECT_EQ(events("use-after-destroy").size(), 2u);
}

TEST_F(TraceTest, UnknownHandlesAreNotUsesAfterDestroy) {
  Call Use("cublasSscal_v2");
  Use.ptr("handle", reinterpret_cast<const void *>(0x9000)).set("n", 0);
  run(Use);
  EXPECT_TRUE(Sink.Lines.empty());
}

TEST(TraceJson, StringsAreEscaped) {
  EXPECT_EQ(jsonString("a\"b\\c\nd\x01"), "\"a\\\"b\\\\c\\nd\\u0001\"");
  EXPECT_EQ(hexAddress(0xbeef), "0xbeef");
}

void anchor() {}

TEST(TraceCallSite, NamesThisProgramAndAnOffsetIntoIt) {
  char Self[PATH_MAX];
  ssize_t N = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  ASSERT_GT(N, 0);
  Self[N] = '\0';
  // As if anchor() had called a cuBLAS function: the return address lies
  // in this program, which glibc's dladdr names by argv[0].
  CallSite Site = resolveCallSite(reinterpret_cast<const char *>(&anchor) + 1);
  EXPECT_EQ(Site.Object, Self);
  EXPECT_NE(Site.Address, 0u);
  EXPECT_EQ(resolveCallSite(nullptr).Object, "");
}

} // namespace
} // namespace cublas_trace
