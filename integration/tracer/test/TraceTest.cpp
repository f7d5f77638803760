//===- TraceTest.cpp - What the tracer records, without a GPU -------------===//

#include "Interpose.h"
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

  /// Expects exactly one record of kind Event, holding every one of Fields.
  void expectOne(const std::string &Event,
                 std::initializer_list<const char *> Fields) {
    std::vector<std::string> Lines = events(Event);
    ASSERT_EQ(Lines.size(), 1u) << Event;
    for (const char *Field : Fields)
      EXPECT_TRUE(contains(Lines[0], Field)) << Lines[0];
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

TEST(FunctionIds, AreTheRowsOfTheModelInlineHelpersIncluded) {
  // Interposers find their row by FunctionId: one enumerator per row, the
  // inline helpers (which have no interposer) included.
  auto All = cublas_tidy::allFunctions();
  ASSERT_EQ(static_cast<std::size_t>(FunctionId::NumFunctions), All.size());
  auto Row = [&](FunctionId Id) {
    return std::string(All[static_cast<unsigned>(Id)].Name);
  };
  EXPECT_EQ(Row(FunctionId::cublasLtMatmulPreferenceInit),
            "cublasLtMatmulPreferenceInit");
  EXPECT_TRUE(
      All[static_cast<unsigned>(FunctionId::cublasLtMatmulPreferenceInit)]
          .Inline);
  // Rows after them keep their place.
  EXPECT_EQ(Row(FunctionId::cublasXtCreate), "cublasXtCreate");
  EXPECT_FALSE(All[static_cast<unsigned>(FunctionId::cublasXtCreate)].Inline);
}

TEST_F(TraceTest, FailedStatusIsRecordedWithItsName) {
  Call C("cublasSgemm_v2");
  run(C, 7);
  expectOne("status",
            {"\"function\":\"cublasSgemm_v2\"", "\"status\":7",
             "\"name\":\"CUBLAS_STATUS_INVALID_VALUE\"",
             "\"object\":\"/samples/gemm\"", "\"address\":\"0x1234\""});
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
  C.ints("n=64 incx=1 incy=1")
      .ptrs({{"alpha", &HostScalar}, {"x", HostVector}, {"y", DeviceA}});
  run(C);
  expectOne("host-pointer", {"\"param\":\"x\"", "\"role\":\"DeviceVector\"",
                             "\"memory\":\"host (unregistered)\""});
  EXPECT_TRUE(events("device-pointer").empty()); // alpha: host mode, host
}

TEST_F(TraceTest, HostArrayGivenToASparseDescriptor) {
  // cuSPARSE's rows of the model: the arrays a CSR descriptor wraps are
  // device memory, judged at the create that stores them.
  Call C("cusparseCreateCsr");
  C.ints("rows=64 cols=64 nnz=64")
      .ptrs({{"csrRowOffsets", HostVector},
             {"csrColInd", DeviceA},
             {"csrValues", DeviceB}});
  run(C);
  expectOne("host-pointer", {"\"param\":\"csrRowOffsets\"",
                             "\"role\":\"DeviceVector\"",
                             "\"memory\":\"host (unregistered)\""});
}

TEST_F(TraceTest, PinnedAndManagedMemoryAreDeviceAccessible) {
  Call C("cublasSaxpy_v2");
  C.ints("n=16 incx=1 incy=1")
      .ptrs({{"alpha", &HostScalar}, {"x", Pinned}, {"y", Managed}});
  run(C);
  EXPECT_TRUE(Sink.Lines.empty());
}

TEST_F(TraceTest, ScalarsFollowThePointerModeOfTheirHandle) {
  const void *H = create("cublasCreate_v2", 0x1000);
  const void *Other = create("cublasCreate_v2", 0x2000);
  auto Scal = [&](const void *Handle, const float *Alpha) {
    Call C("cublasSscal_v2");
    C.ints("n=16 incx=1")
        .ptrs({{"handle", Handle}, {"alpha", Alpha}, {"x", DeviceA}});
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

TEST_F(TraceTest, SparseScalarsFollowTheSparseHandlesMode) {
  // cuSPARSE's handle has its own pointer mode, host after cusparseCreate;
  // a cuBLAS handle's mode does not count for it.
  const void *S = create("cusparseCreate", 0x3000);
  const void *B = create("cublasCreate_v2", 0x4000);
  Call BlasMode("cublasSetPointerMode_v2");
  BlasMode.ptr("handle", B).set("mode", 1);
  run(BlasMode);
  auto Spmv = [&](const float *Alpha) {
    Call C("cusparseSpMV");
    C.ptrs({{"handle", S}, {"alpha", Alpha}, {"beta", &HostScalar}});
    run(C);
  };
  Spmv(&HostScalar); // host mode, host scalar: fine
  EXPECT_TRUE(events("device-pointer").empty());
  EXPECT_TRUE(events("host-pointer").empty());
  Spmv(DeviceB); // host mode, device scalar: read on the host
  ASSERT_EQ(events("device-pointer").size(), 1u);
  EXPECT_TRUE(contains(events("device-pointer")[0], "\"param\":\"alpha\""));
  EXPECT_TRUE(
      contains(events("device-pointer")[0], "CUSPARSE_POINTER_MODE_HOST"));

  Call Mode("cusparseSetPointerMode");
  Mode.ptr("handle", S).set("mode", 1);
  run(Mode);
  Spmv(DeviceB); // device mode: alpha is right, the host beta is not
  ASSERT_EQ(events("host-pointer").size(), 1u);
  EXPECT_TRUE(contains(events("host-pointer")[0], "\"param\":\"beta\""));
  EXPECT_TRUE(
      contains(events("host-pointer")[0], "CUSPARSE_POINTER_MODE_DEVICE"));
}

TEST_F(TraceTest, LtScalarsFollowThePointerModeOfTheirDescriptor) {
  const void *Op = create("cublasLtMatmulDescCreate", 0x3000);
  auto Matmul = [&](const void *Alpha, const void *Beta) {
    Call C("cublasLtMatmul");
    C.ptrs({{"lightHandle", reinterpret_cast<const void *>(0x4000)},
            {"computeDesc", Op},
            {"alpha", Alpha},
            {"A", DeviceA},
            {"B", DeviceA},
            {"beta", Beta},
            {"C", DeviceB},
            {"D", DeviceB}});
    run(C);
  };
  Matmul(&HostScalar, &HostScalar); // default host mode: fine
  Matmul(DeviceB, &HostScalar);     // host mode, device alpha
  expectOne("device-pointer",
            {"\"param\":\"alpha\"", "CUBLASLT_POINTER_MODE_HOST"});

  // CUBLASLT_MATMUL_DESC_POINTER_MODE is attribute 2; the mode is read from
  // the buffer the call is given.
  auto SetMode = [&](const std::int32_t &Mode) {
    Call Set("cublasLtMatmulDescSetAttribute");
    Set.ptr("matmulDesc", Op).set("attr", 2).ptr("buf", &Mode).set(
        "sizeInBytes", sizeof(Mode));
    run(Set);
  };
  const std::int32_t Device = 1; // CUBLASLT_POINTER_MODE_DEVICE
  SetMode(Device);
  Matmul(DeviceA, DeviceB);         // device mode, device scalars: fine
  Matmul(&HostScalar, DeviceB);     // device mode, host alpha
  expectOne("host-pointer",
            {"\"param\":\"alpha\"", "CUBLASLT_POINTER_MODE_DEVICE"});

  // Alpha a device vector, beta on the host.
  const std::int32_t AlphaVector = 4;
  SetMode(AlphaVector);
  Matmul(DeviceA, &HostScalar); // fine
  EXPECT_EQ(events("host-pointer").size(), 1u);
  EXPECT_EQ(events("device-pointer").size(), 1u);
}

TEST_F(TraceTest, WorkspaceSizeBeyondTheAllocation) {
  const void *H = create("cublasCreate_v2", 0x1000);
  auto SetWorkspace = [&](const void *Workspace, std::int64_t Bytes) {
    Call C("cublasSetWorkspace_v2");
    C.ptrs({{"handle", H}, {"workspace", Workspace}})
        .set("workspaceSizeInBytes", Bytes);
    run(C);
  };
  SetWorkspace(DeviceA, sizeof(DeviceA));     // exactly its size: fine
  SetWorkspace(DeviceA + 16, 64);             // inside: fine
  SetWorkspace(nullptr, 0);                   // no workspace: fine
  EXPECT_TRUE(events("out-of-bounds").empty());
  SetWorkspace(DeviceA, 2 * sizeof(DeviceA)); // twice its size
  expectOne("out-of-bounds",
            {"\"param\":\"workspace\"", "\"needed_bytes\":32768",
             "\"available_bytes\":16384"});
}

TEST_F(TraceTest, HostArrayOfDevicePointersForBatchedGemm) {
  const float *Host[2] = {DeviceA, DeviceB};
  Call C("cublasSgemmBatched");
  C.ints("transa=0 transb=0 m=8 n=8 k=8 lda=8 ldb=8 ldc=8 batchCount=2")
      .ptrs({{"Aarray", Host}, {"Barray", DeviceA}, {"Carray", DeviceB}});
  run(C);
  expectOne("host-pointer",
            {"\"param\":\"Aarray\"", "\"role\":\"DevicePointerArray\""});
}

TEST_F(TraceTest, DeviceMemoryOnTheHostSideOfSetVector) {
  Call C("cublasSetVector");
  C.ints("n=16 elemSize=4 incx=1 incy=1")
      .ptrs({{"x", DeviceB}, {"devicePtr", DeviceA}});
  run(C);
  expectOne("device-pointer", {"\"param\":\"x\""});
  EXPECT_TRUE(events("host-pointer").empty());
}

TEST_F(TraceTest, FootprintBeyondTheAllocation) {
  // A is 64 x 64 with lda 96: 96*63+64 floats, in a 64*64 float buffer.
  Call C("cublasSgemm_v2");
  C.ints("transa=0 transb=0 m=64 n=64 k=64 lda=96 ldb=64 ldc=64")
      .ptrs({{"alpha", &HostScalar},
             {"A", DeviceA},
             {"B", DeviceB},
             {"beta", &HostScalar},
             {"C", DeviceB}});
  run(C);
  expectOne("out-of-bounds",
            {"\"param\":\"A\"", "\"operand\":\"A\"", "\"needed_bytes\":24448",
             "\"available_bytes\":16384", "lda*(cols-1)+rows = 96*(64-1)+64"});
}

TEST_F(TraceTest, FootprintFromAnOffsetIntoTheAllocation) {
  Call C("cublasSaxpy_v2");
  C.ints("n=64 incx=1 incy=1")
      .ptrs({{"alpha", &HostScalar},
             {"x", DeviceA + 64 * 63 + 1},
             {"y", DeviceB}});
  run(C);
  expectOne("out-of-bounds", {"\"param\":\"x\"", "\"available_bytes\":252"});
}

TEST_F(TraceTest, NoFootprintForCallsCublasRejects) {
  // lda below m: cuBLAS returns CUBLAS_STATUS_INVALID_VALUE and reads nothing.
  Call C("cublasSgemm_v2");
  C.ints("transa=0 transb=0 m=128 n=64 k=64 lda=64 ldb=64 ldc=128")
      .ptrs({{"A", DeviceA}, {"B", DeviceB}, {"C", DeviceB}});
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
  expectOne("exit", {"\"created_handles\":3", "\"leaked_handles\":2",
                     "\"leaked_descriptors\":1",
                     "\"kind\":\"cublasLtMatrixLayout_t\"",
                     "\"created_by\":\"cublasCreate_v2\""});
  const std::string Exit = events("exit")[0];
  EXPECT_FALSE(contains(Exit, "\"value\":\"0x200\"")) << "destroyed";
  EXPECT_FALSE(contains(Exit, "\"value\":\"0x400\"")) << "never created";
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

TEST_F(TraceTest, StreamChangeResetsTheUserWorkspace) {
  const void *H = create("cublasCreate_v2", 0x100);
  const void *Ws = reinterpret_cast<const void *>(0x7000);
  Call SetWs("cublasSetWorkspace_v2");
  SetWs.ptr("handle", H).ptr("workspace", Ws).set("workspaceSizeInBytes", 0);
  Call SetStream("cublasSetStream_v2");
  SetStream.ptr("handle", H);
  Call Use("cublasSscal_v2");
  Use.ptr("handle", H).set("n", 0);

  // The PyTorch order: stream, then workspace.
  run(SetStream);
  run(SetWs);
  run(Use);
  EXPECT_TRUE(events("default-workspace").empty());

  // Workspace, then stream: the next routine runs with the default pool.
  run(SetStream);
  run(Use);
  auto Lines = events("default-workspace");
  ASSERT_EQ(Lines.size(), 1u);
  EXPECT_TRUE(contains(Lines[0], "\"function\":\"cublasSscal_v2\""));
  EXPECT_TRUE(contains(Lines[0], "\"reset_at\""));

  // Set again after the stream: nothing more.
  run(SetWs);
  run(Use);
  EXPECT_EQ(events("default-workspace").size(), 1u);

  // A handle that never had a workspace of the user's.
  const void *Other = create("cublasCreate_v2", 0x200);
  Call OtherStream("cublasSetStream_v2");
  OtherStream.ptr("handle", Other);
  Call OtherUse("cublasSscal_v2");
  OtherUse.ptr("handle", Other).set("n", 0);
  run(OtherStream);
  run(OtherUse);
  EXPECT_EQ(events("default-workspace").size(), 1u);
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
