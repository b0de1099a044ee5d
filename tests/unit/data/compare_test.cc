// CompareArrays: tolerances, NaN/inf handling, mismatch reporting, shape/dtype mismatches.
#include "autofuse/data/compare.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace af::data {
namespace {

using ir::DType;
using ::testing::HasSubstr;

TEST(Compare, IdenticalArraysMatchIncludingNanAndInf) {
  const HostArray a = FromDoubles(DType::kFloat32, {2, 2}, {1, std::nan(""), HUGE_VAL, -0.0});
  const CompareResult r = CompareArrays(a, a);
  EXPECT_TRUE(r.ok) << r.message;
  EXPECT_EQ(r.mismatches, 0);
  EXPECT_EQ(r.first_mismatch_index, -1);
  EXPECT_EQ(r.max_abs, 0);
  EXPECT_TRUE(r.message.empty());
}

TEST(Compare, ReportsErrorsAndTheFirstMismatch) {
  const HostArray e = FromDoubles(DType::kFloat32, {4}, {1, 2, 4, 8});
  const HostArray a = FromDoubles(DType::kFloat32, {4}, {1.000001, 2.5, 4, 9});
  const CompareResult r = CompareArrays(e, a);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.mismatches, 2);
  EXPECT_EQ(r.first_mismatch_index, 1);
  EXPECT_DOUBLE_EQ(r.max_abs, 1.0);
  EXPECT_DOUBLE_EQ(r.max_rel, 0.25);
  EXPECT_THAT(r.message, HasSubstr("2 of 4 elements differ"));
  EXPECT_THAT(r.message, HasSubstr("first at flat index 1: expected 2, got 2.5"));
  // With generous tolerances everything matches.
  EXPECT_TRUE(CompareArrays(e, a, 1.0, 0.0).ok);
  EXPECT_TRUE(CompareArrays(e, a, 0.0, 0.25).ok);
}

TEST(Compare, NanInfAndSignedInfinities) {
  const HostArray e = FromDoubles(DType::kFloat64, {3}, {std::nan(""), HUGE_VAL, 1});
  EXPECT_FALSE(CompareArrays(e, FromDoubles(DType::kFloat64, {3}, {0, HUGE_VAL, 1})).ok);
  EXPECT_FALSE(
      CompareArrays(e, FromDoubles(DType::kFloat64, {3}, {std::nan(""), -HUGE_VAL, 1})).ok);
  EXPECT_FALSE(
      CompareArrays(e, FromDoubles(DType::kFloat64, {3}, {std::nan(""), HUGE_VAL, std::nan("")}))
          .ok);
  EXPECT_TRUE(CompareArrays(e, FromDoubles(DType::kFloat64, {3}, {std::nan(""), HUGE_VAL, 1})).ok);
}

TEST(Compare, ShapeAndDtypeMismatches) {
  const HostArray a = Zeros(DType::kFloat32, {2, 3});
  const CompareResult s = CompareArrays(a, Zeros(DType::kFloat32, {3, 2}));
  EXPECT_FALSE(s.ok);
  EXPECT_EQ(s.message, "shape mismatch: expected (2, 3), got (3, 2)");
  const CompareResult d = CompareArrays(a, Zeros(DType::kFloat16, {2, 3}));
  EXPECT_FALSE(d.ok);
  EXPECT_EQ(d.message, "dtype mismatch: expected fp32, got fp16");
}

TEST(Compare, IntegersAreExact) {
  HostArray e = Zeros(DType::kInt64, {2});
  HostArray a = e;
  e.SetFromInt(0, (std::int64_t{1} << 60) + 1);
  a.SetFromInt(0, std::int64_t{1} << 60);  // equal as doubles, different as integers
  const CompareResult r = CompareArrays(e, a, 1e9, 1.0);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.first_mismatch_index, 0);
  EXPECT_TRUE(CompareArrays(e, e).ok);
}

// Integers truncated from floats that agree within a tolerance (afc run's rule for an integer
// output cast from fp16/bf16): the tolerances apply when asked for, and only then.
TEST(Compare, IntegersWithinToleranceWhenAsked) {
  HostArray e = Zeros(DType::kInt16, {3});
  HostArray a = e;
  e.SetFromInt(0, 12);
  a.SetFromInt(0, 11);  // 11.99 truncated vs 12.0
  e.SetFromInt(1, 3000);
  a.SetFromInt(1, 2998);  // one fp16 ulp at 3000 is 2: within 1 + 1e-3 * 3000
  EXPECT_FALSE(CompareArrays(e, a, 1.0, 1e-3).ok);
  EXPECT_TRUE(CompareArrays(e, a, 1.0, 1e-3, true).ok);
  a.SetFromInt(2, 2);  // off by 2 at 0: beyond 1 + 1e-3 * 0
  const CompareResult r = CompareArrays(e, a, 1.0, 1e-3, true);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.mismatches, 1);
  EXPECT_EQ(r.first_mismatch_index, 2);
}

TEST(Compare, DefaultTolerancesPerDtype) {
  EXPECT_EQ(DefaultTolerance(DType::kFloat32).rtol, 1e-5);
  EXPECT_EQ(DefaultTolerance(DType::kFloat32).atol, 1e-6);
  EXPECT_EQ(DefaultTolerance(DType::kFloat32, true).rtol, 1e-4);
  EXPECT_EQ(DefaultTolerance(DType::kFloat16).rtol, 1e-3);
  EXPECT_EQ(DefaultTolerance(DType::kBFloat16).rtol, 1.6e-2);
  EXPECT_EQ(DefaultTolerance(DType::kInt32).rtol, 0);
  EXPECT_EQ(DefaultTolerance(DType::kBool).atol, 0);
  // One fp16 ulp near 1 (2^-10 ~ 9.8e-4) passes, two do not.
  const HostArray e = FromDoubles(DType::kFloat16, {1}, {1.0});
  EXPECT_TRUE(CompareArrays(e, FromDoubles(DType::kFloat16, {1}, {1.0 + std::ldexp(1.0, -10)})).ok);
  EXPECT_FALSE(CompareArrays(e, FromDoubles(DType::kFloat16, {1}, {1.0 + std::ldexp(1.0, -8)})).ok);
  // A bf16 ulp near 1 (2^-7) passes.
  const HostArray b = FromDoubles(DType::kBFloat16, {1}, {1.0});
  EXPECT_TRUE(CompareArrays(b, FromDoubles(DType::kBFloat16, {1}, {1.0 + std::ldexp(1.0, -7)})).ok);
}

}  // namespace
}  // namespace af::data
