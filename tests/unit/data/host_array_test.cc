// HostArray: storage, value conversions (rounding, truncation, saturation, wrap), Convert and
// the seeded random fill.
#include "autofuse/data/host_array.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace af::data {
namespace {

using ir::DType;

TEST(HostArray, ZerosShapeAndStorage) {
  const HostArray a = Zeros(DType::kFloat16, {2, 3});
  EXPECT_EQ(a.numel(), 6);
  EXPECT_EQ(a.bytes.size(), 12u);
  EXPECT_EQ(Zeros(DType::kInt64, {}).numel(), 1);
  EXPECT_EQ(Zeros(DType::kBool, {4, 0}).bytes.size(), 0u);
  EXPECT_EQ(ShapeToString({}), "()");
  EXPECT_EQ(ShapeToString({5}), "(5,)");
  EXPECT_EQ(ShapeToString({2, 3}), "(2, 3)");
  EXPECT_THROW(Zeros(DType::kFloat32, {-1}), std::invalid_argument);
  EXPECT_THROW(ShapeNumel({INT64_MAX, 2}), std::invalid_argument);
  EXPECT_THROW(Zeros(DType::kUndefined, {1}), std::invalid_argument);
}

TEST(HostArray, TypedAccessChecksSizeAndIndex) {
  HostArray a = Zeros(DType::kInt32, {3});
  a.Set<std::int32_t>(2, -7);
  EXPECT_EQ(a.Get<std::int32_t>(2), -7);
  EXPECT_EQ(a.GetAsInt(2), -7);
  EXPECT_THROW(a.Get<std::int64_t>(0), std::invalid_argument);
  EXPECT_THROW(a.Get<std::int32_t>(3), std::out_of_range);
  EXPECT_THROW(a.Get<std::int32_t>(-1), std::out_of_range);
  EXPECT_THROW(a.SetFromDouble(3, 1.0), std::out_of_range);
}

TEST(HostArray, FloatStorageRoundsToNearestEven) {
  HostArray h = Zeros(DType::kFloat16, {1});
  h.SetFromDouble(0, 1.0 + std::ldexp(1.0, -11));  // tie -> 1.0
  EXPECT_EQ(h.Get<std::uint16_t>(0), 0x3C00);
  h.SetFromDouble(0, 0.1);
  EXPECT_EQ(h.Get<std::uint16_t>(0), 0x2E66);
  EXPECT_EQ(h.GetAsDouble(0), 0.0999755859375);
  HostArray b = Zeros(DType::kBFloat16, {1});
  b.SetFromDouble(0, 3.14159);
  EXPECT_EQ(b.Get<std::uint16_t>(0), 0x4049);
  HostArray f = Zeros(DType::kFloat32, {1});
  f.SetFromDouble(0, 0.1);
  EXPECT_EQ(f.Get<float>(0), 0.1f);
  f.SetFromDouble(0, 1e300);
  EXPECT_EQ(f.Get<float>(0), HUGE_VALF);
}

TEST(HostArray, IntegersTruncateSaturateAndWrap) {
  HostArray i8 = Zeros(DType::kInt8, {1});
  i8.SetFromDouble(0, -2.7);
  EXPECT_EQ(i8.GetAsInt(0), -2);
  i8.SetFromDouble(0, 2.7);
  EXPECT_EQ(i8.GetAsInt(0), 2);
  i8.SetFromDouble(0, 1000.0);
  EXPECT_EQ(i8.GetAsInt(0), 127);
  i8.SetFromDouble(0, -1000.0);
  EXPECT_EQ(i8.GetAsInt(0), -128);
  i8.SetFromDouble(0, std::nan(""));
  EXPECT_EQ(i8.GetAsInt(0), 0);
  i8.SetFromInt(0, 200);  // wraps like a C cast
  EXPECT_EQ(i8.GetAsInt(0), -56);
  HostArray u8 = Zeros(DType::kUInt8, {1});
  u8.SetFromDouble(0, -3.0);
  EXPECT_EQ(u8.GetAsInt(0), 0);
  u8.SetFromInt(0, -1);
  EXPECT_EQ(u8.GetAsInt(0), 255);
  HostArray i64 = Zeros(DType::kInt64, {1});
  i64.SetFromDouble(0, 1e30);
  EXPECT_EQ(i64.GetAsInt(0), INT64_MAX);
  i64.SetFromDouble(0, -1e30);
  EXPECT_EQ(i64.GetAsInt(0), INT64_MIN);
  HostArray u64 = Zeros(DType::kUInt64, {1});
  u64.SetFromDouble(0, 1.8e19);
  EXPECT_EQ(u64.Get<std::uint64_t>(0), 18000000000000000000ull);
  EXPECT_EQ(u64.GetAsDouble(0), 1.8e19);
  u64.SetFromDouble(0, 1e20);
  EXPECT_EQ(u64.Get<std::uint64_t>(0), UINT64_MAX);
}

TEST(HostArray, BoolIsNonzero) {
  HostArray b = Zeros(DType::kBool, {4});
  b.SetFromDouble(0, 0.5);
  b.SetFromDouble(1, -0.0);
  b.SetFromDouble(2, std::nan(""));
  b.SetFromInt(3, 256);
  EXPECT_EQ(b.bytes, (std::vector<std::uint8_t>{1, 0, 1, 1}));
}

TEST(HostArray, ConvertBetweenDtypes) {
  const HostArray f = FromDoubles(DType::kFloat32, {2, 2}, {1.5, -2.25, 300.7, -0.4});
  const HostArray bf = Convert(f, DType::kBFloat16);
  EXPECT_EQ(ToDoubles(bf), (std::vector<double>{1.5, -2.25, 300.0, -0.400390625}));
  EXPECT_EQ(ToDoubles(Convert(bf, DType::kFloat32)), ToDoubles(bf));  // exact widening
  EXPECT_EQ(ToDoubles(Convert(f, DType::kInt8)), (std::vector<double>{1, -2, 127, 0}));
  EXPECT_EQ(ToDoubles(Convert(f, DType::kUInt8)), (std::vector<double>{1, 0, 255, 0}));
  EXPECT_EQ(ToDoubles(Convert(f, DType::kBool)), (std::vector<double>{1, 1, 1, 1}));
  const HostArray i32 = FromDoubles(DType::kInt32, {3}, {200, -129, 70000});
  EXPECT_EQ(ToDoubles(Convert(i32, DType::kInt8)), (std::vector<double>{-56, 127, 112}));
  EXPECT_EQ(Convert(i32, DType::kFloat16).shape, i32.shape);
  HostArray big = Zeros(DType::kInt64, {1});
  big.SetFromInt(0, (std::int64_t{1} << 53) + 1);
  EXPECT_EQ(Convert(big, DType::kInt64), big);  // integers do not pass through double
}

TEST(HostArray, RandomArrayIsSeededAndInRange) {
  const HostArray a = RandomArray(DType::kFloat32, {1000}, 42, -2.0, 3.0);
  EXPECT_EQ(a, RandomArray(DType::kFloat32, {1000}, 42, -2.0, 3.0));
  EXPECT_NE(a, RandomArray(DType::kFloat32, {1000}, 43, -2.0, 3.0));
  for (double v : ToDoubles(a)) {
    EXPECT_GE(v, -2.0);
    EXPECT_LE(v, 3.0);
  }
  const HostArray h = RandomArray(DType::kFloat16, {100}, 1);
  for (double v : ToDoubles(h))
    EXPECT_EQ(v, HostArray(FromDoubles(DType::kFloat16, {}, {v})).GetAsDouble(0));
  std::set<double> ints;
  for (double v : ToDoubles(RandomArray(DType::kInt32, {2000}, 5, -3, 3)))
    ints.insert(v);
  EXPECT_EQ(ints, (std::set<double>{-3, -2, -1, 0, 1, 2, 3}));
  std::set<double> u8;
  for (double v : ToDoubles(RandomArray(DType::kUInt8, {5000}, 5, -50, 1000)))
    u8.insert(v);
  EXPECT_EQ(*u8.begin(), 0);
  EXPECT_EQ(*u8.rbegin(), 255);
  std::set<double> bools;
  for (double v : ToDoubles(RandomArray(DType::kBool, {100}, 9)))
    bools.insert(v);
  EXPECT_EQ(bools, (std::set<double>{0, 1}));
  EXPECT_THROW(RandomArray(DType::kInt32, {1}, 0, 0.2, 0.8), std::invalid_argument);
  EXPECT_EQ(RandomArray(DType::kInt64, {10}, 3, -1e30, 1e30).numel(), 10);
}

}  // namespace
}  // namespace af::data
