// fp16 / bf16 conversions: every 16-bit pattern against NumPy (fp16) and against a float32
// bit-manipulation reference (bf16), plus rounding ties, overflow and subnormals.
#include "autofuse/data/half.h"

#include <gtest/gtest.h>

#include <bit>
#include <cfloat>
#include <cmath>
#include <random>

#include "autofuse/data/npy.h"
#include "fixtures.h"
#include "numpy_runner.h"

namespace af::data {
namespace {

using ir::DType;

// Reference bf16 rounding of a float32, by bit manipulation (RNE; NaN stays NaN).
std::uint16_t RefBf16(float f) {
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  if (std::isnan(f)) return static_cast<std::uint16_t>((u >> 16) | 0x40);
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

bool IsHalfNan(std::uint16_t h) {
  return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0;
}

TEST(Half, EveryPatternWidensLikeNumpy) {
  const auto dir = test::TempDir("half_widen");
  ASSERT_EQ(test::RunNumpy(dir, R"(
bits = np.arange(65536, dtype=np.uint32).astype(np.uint16)
h = bits.view(np.float16)
np.save('h.npy', h)
np.save('f64.npy', h.astype(np.float64))
np.save('f32.npy', h.astype(np.float32))
)"),
            "");
  const HostArray h = ReadNpy((dir / "h.npy").string());
  const HostArray f64 = ReadNpy((dir / "f64.npy").string());
  const HostArray f32 = ReadNpy((dir / "f32.npy").string());
  ASSERT_EQ(h.dtype, DType::kFloat16);
  ASSERT_EQ(h.numel(), 65536);
  int checked = 0;
  for (std::int64_t i = 0; i < 65536; ++i) {
    const auto bits = static_cast<std::uint16_t>(i);
    ASSERT_EQ(h.Get<std::uint16_t>(i), bits);
    const double mine = HalfBitsToDouble(bits);
    const double np64 = f64.Get<double>(i);
    if (IsHalfNan(bits)) {
      EXPECT_TRUE(std::isnan(mine)) << i;
      EXPECT_EQ(std::signbit(mine), (bits & 0x8000) != 0) << i;
    } else {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(mine), std::bit_cast<std::uint64_t>(np64)) << i;
      ASSERT_EQ(static_cast<float>(mine), f32.Get<float>(i)) << i;
      // Narrowing an exact half value gives the pattern back.
      ASSERT_EQ(DoubleToHalfBits(mine), bits) << i;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 65536);
}

TEST(Half, NarrowingMatchesNumpyOnTiesSubnormalsAndRandomValues) {
  const auto dir = test::TempDir("half_narrow");
  ASSERT_EQ(test::RunNumpy(dir, R"(
h = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
fin = np.sort(h[np.isfinite(h)].astype(np.float64))
fin = np.unique(fin)
mid = (fin[:-1] + fin[1:]) / 2          # exact ties in float64
up = np.nextafter(mid, np.inf)
down = np.nextafter(mid, -np.inf)
rng = np.random.default_rng(7)
mag = np.exp2(rng.uniform(-30, 17, 200000))
sign = np.where(rng.random(200000) < 0.5, -1.0, 1.0)
rnd = mag * sign
special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 65504.0, 65519.99, 65520.0, 1e6,
                    2.0**-25, 2.0**-25 * (1 + 2.0**-40), 2.0**-24 * 1.5, 2.0**-26, 1e-300,
                    5e-324, -2.0**-25, 2.0**-14 - 2.0**-25])
x = np.concatenate([fin, mid, up, down, rnd, special])
np.save('x.npy', x)
np.save('y.npy', x.astype(np.float16))
x32 = x.astype(np.float32)
np.save('x32.npy', x32)
np.save('y32.npy', x32.astype(np.float16))
)"),
            "");
  for (const auto& [xs, ys] : {std::pair{"x.npy", "y.npy"}, std::pair{"x32.npy", "y32.npy"}}) {
    const HostArray x = ReadNpy((dir / xs).string());
    const HostArray y = ReadNpy((dir / ys).string());
    ASSERT_EQ(x.numel(), y.numel());
    ASSERT_GT(x.numel(), 300000);
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < x.numel(); ++i) {
      const std::uint16_t want = y.Get<std::uint16_t>(i);
      const std::uint16_t got = DoubleToHalfBits(x.GetAsDouble(i));
      const bool ok = IsHalfNan(want) ? IsHalfNan(got) : got == want;
      if (!ok && ++bad < 10) {
        ADD_FAILURE() << xs << "[" << i << "] = " << x.GetAsDouble(i) << ": numpy " << want
                      << ", ours " << got;
      }
    }
    EXPECT_EQ(bad, 0) << xs;
  }
}

TEST(Half, KnownValues) {
  EXPECT_EQ(DoubleToHalfBits(1.0), 0x3C00);
  EXPECT_EQ(DoubleToHalfBits(-2.0), 0xC000);
  EXPECT_EQ(DoubleToHalfBits(65504.0), 0x7BFF);
  EXPECT_EQ(DoubleToHalfBits(65520.0), 0x7C00);  // tie at the top rounds to infinity
  EXPECT_EQ(DoubleToHalfBits(65519.0), 0x7BFF);
  EXPECT_EQ(DoubleToHalfBits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(DoubleToHalfBits(std::ldexp(1.0, -25)), 0x0000);  // tie to even (zero)
  EXPECT_EQ(DoubleToHalfBits(std::ldexp(3.0, -25)), 0x0002);  // 1.5 ulp -> 2
  EXPECT_EQ(DoubleToHalfBits(-0.0), 0x8000);
  EXPECT_EQ(DoubleToHalfBits(1.0 + std::ldexp(1.0, -11)), 0x3C00);  // tie, even
  EXPECT_EQ(DoubleToHalfBits(1.0 + std::ldexp(3.0, -11)), 0x3C02);  // tie, even up
  EXPECT_TRUE(IsHalfNan(DoubleToHalfBits(std::nan(""))));
  EXPECT_EQ(HalfBitsToDouble(0x7C00), HUGE_VAL);
  EXPECT_EQ(HalfBitsToDouble(0x0001), std::ldexp(1.0, -24));
}

TEST(Bf16, EveryPatternWidensExactly) {
  for (std::uint32_t b = 0; b < 65536; ++b) {
    const float ref = std::bit_cast<float>(b << 16);
    const double mine = Bf16BitsToDouble(static_cast<std::uint16_t>(b));
    if (std::isnan(ref)) {
      ASSERT_TRUE(std::isnan(mine)) << b;
      continue;
    }
    ASSERT_EQ(mine, static_cast<double>(ref)) << b;
    ASSERT_EQ(DoubleToBf16Bits(mine), b) << b;
  }
}

TEST(Bf16, NarrowingMatchesTheFloat32BitReference) {
  std::int64_t n = 0;
  const auto check = [&](std::uint32_t u) {
    const float f = std::bit_cast<float>(u);
    const std::uint16_t want = RefBf16(f);
    const std::uint16_t got = DoubleToBf16Bits(static_cast<double>(f));
    if (std::isnan(f)) {
      ASSERT_TRUE(std::isnan(Bf16BitsToDouble(got))) << std::hex << u;
    } else {
      ASSERT_EQ(got, want) << std::hex << "float bits 0x" << u;
    }
    ++n;
  };
  // Every bf16 value with the low half at the interesting rounding points.
  for (std::uint32_t b = 0; b < 65536; ++b) {
    for (std::uint32_t low : {0x0000u, 0x0001u, 0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu}) {
      check((b << 16) | low);
    }
  }
  std::mt19937 gen(12345);
  for (int i = 0; i < 1000000; ++i)
    check(static_cast<std::uint32_t>(gen()));
  EXPECT_EQ(n, 65536 * 6 + 1000000);
}

TEST(Bf16, DoubleTiesRoundFromTheDoubleNotFromAFloat) {
  // 1 + 2^-8 is a tie in bf16 (rounds to even 1.0); 1 + 2^-8 + 2^-40 is above the tie, but a
  // detour through float32 would round it to the tie first and then to 1.0.
  EXPECT_EQ(DoubleToBf16Bits(1.0 + std::ldexp(1.0, -8)), 0x3F80);
  EXPECT_EQ(DoubleToBf16Bits(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3F81);
  EXPECT_EQ(DoubleToHalfBits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3C01);
}

TEST(RoundToFloatDType, Float32IncludingBeyondRange) {
  EXPECT_EQ(RoundToFloatDType(0.1, DType::kFloat32), static_cast<double>(0.1f));
  const double fmax = static_cast<double>(FLT_MAX);
  EXPECT_EQ(RoundToFloatDType(fmax + std::ldexp(1.0, 102), DType::kFloat32), fmax);
  EXPECT_EQ(RoundToFloatDType(fmax + std::ldexp(1.0, 103), DType::kFloat32), HUGE_VAL);
  EXPECT_EQ(RoundToFloatDType(-1e300, DType::kFloat32), -HUGE_VAL);
  EXPECT_TRUE(std::isnan(RoundToFloatDType(std::nan(""), DType::kFloat32)));
  EXPECT_EQ(RoundToFloatDType(0.1, DType::kFloat64), 0.1);
  EXPECT_EQ(RoundToFloatDType(1.0 / 3.0, DType::kFloat16), HalfBitsToDouble(0x3555));
  EXPECT_EQ(RoundToFloatDType(1.0 / 3.0, DType::kBFloat16), Bf16BitsToDouble(0x3EAB));
}

}  // namespace
}  // namespace af::data
