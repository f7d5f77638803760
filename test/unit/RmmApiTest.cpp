//===- RmmApiTest.cpp - RMM's buffer classes and their methods, as rows ---===//

#include "model/RmmApi.h"
#include "model/Rows.h"

#include "gtest/gtest.h"

using namespace cublas_tidy;
using namespace cublas_tidy::rmm_api;

namespace {

TEST(RmmApi, BufferClassesByQualifiedName) {
  const BufferClass *U = lookupBuffer("rmm::device_uvector");
  ASSERT_NE(U, nullptr);
  EXPECT_EQ(U->Size, Counts::Elements);
  EXPECT_EQ(U->SizeArg, 0);
  const BufferClass *B = lookupBuffer("rmm::device_buffer");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Size, Counts::Bytes);
  const BufferClass *S = lookupBuffer("rmm::device_scalar");
  ASSERT_NE(S, nullptr);
  EXPECT_EQ(S->SizeArg, -1); // its constructors take no size
  EXPECT_EQ(lookupBuffer("device_uvector"), nullptr); // qualified only
  EXPECT_EQ(lookupBuffer("thrust::device_vector"), nullptr);
}

TEST(RmmApi, MethodsAreOneTable) {
  EXPECT_EQ(pointerMethod("data"), PointerMethod::Start);
  EXPECT_EQ(pointerMethod("begin"), PointerMethod::Start);
  EXPECT_EQ(pointerMethod("element_ptr"), PointerMethod::Element);
  // end() points past the last element: no pointer an operand starts at.
  EXPECT_EQ(pointerMethod("end"), PointerMethod::None);
  EXPECT_EQ(pointerMethod("size"), PointerMethod::None);

  EXPECT_TRUE(givesSize("size"));
  EXPECT_FALSE(givesSize("ssize")); // signed: not read as a size today
  EXPECT_FALSE(givesSize("capacity"));
  EXPECT_FALSE(givesSize("data"));

  // Every row keeps the storage; what may move or resize it is no row.
  for (const char *M : {"data", "element_ptr", "size", "stream",
                        "set_element_async", "front_element"})
    EXPECT_TRUE(keepsStorage(M)) << M;
  for (const char *M :
       {"resize", "reserve", "release", "shrink_to_fit", "set_stream", ""})
    EXPECT_FALSE(keepsStorage(M)) << M;
  const BufferMethod *Size = lookupMethod("size");
  ASSERT_NE(Size, nullptr);
  EXPECT_EQ(Size->Kind, MethodKind::Size);
}

struct Pair {
  const char *Name;
  const char *Other;
};
const Pair Pairs[] = {{"a", "x"}, {"b", "y"}, {"a", "z"}};

TEST(Rows, TheFirstRowWithTheName) {
  EXPECT_EQ(rowNamed(Pairs, "a"), &Pairs[0]); // the first of two
  EXPECT_EQ(rowNamed(Pairs, "b"), &Pairs[1]);
  EXPECT_EQ(rowNamed(Pairs, "c"), nullptr);
  EXPECT_EQ(rowNamed(Pairs, ""), nullptr);
  // By another key.
  EXPECT_EQ(rowNamed(Pairs, "z", &Pair::Other), &Pairs[2]);
  EXPECT_EQ(rowNamed(Pairs, "a", &Pair::Other), nullptr);
}

} // namespace
