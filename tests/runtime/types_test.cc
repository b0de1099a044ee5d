// half / bfloat16_t against independent references: all 65536 bit patterns decode exactly, every
// midpoint and neighbour rounds as IEEE round-to-nearest-even says, and the directed RoundModes of
// the exact rounding core agree with a bracket-based reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "kernel_operator.h"

namespace {

using af_cpu::Rounding;

// Reference decode of binary16, written from the IEEE definition.
double RefHalf(uint16_t b) {
  const int sign = (b >> 15) != 0 ? -1 : 1;
  const int e = (b >> 10) & 0x1F;
  const int m = b & 0x3FF;
  if (e == 31) {
    return m == 0 ? sign * std::numeric_limits<double>::infinity()
                  : std::numeric_limits<double>::quiet_NaN();
  }
  if (e == 0) return sign * std::ldexp(m, -24);
  return sign * std::ldexp(1024 + m, e - 25);
}

double RefBf16(uint16_t b) {
  const uint32_t u = static_cast<uint32_t>(b) << 16;
  float f = 0;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

float Next(float x, float toward) {
  return std::nextafter(x, toward);
}

TEST(HalfTest, DecodesAllPatternsExactly) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    const double want = RefHalf(bits);
    const float got = static_cast<float>(half::FromBits(bits));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << std::hex << b;
    } else {
      ASSERT_EQ(static_cast<double>(got), want) << std::hex << b;
    }
    // Round trip float -> half keeps the pattern (NaNs stay NaN).
    const half back(got);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(static_cast<float>(back))) << std::hex << b;
    } else {
      ASSERT_EQ(back.ToBits(), bits) << std::hex << b;
    }
  }
}

// For every pair of neighbouring finite halves h < h+1: the midpoint rounds to the even one,
// anything just below/above the midpoint to the nearer one; negative values mirror.
TEST(HalfTest, RoundsToNearestEvenAtEveryMidpoint) {
  for (uint32_t h = 0; h < 0x7C00; ++h) {
    const double lo = RefHalf(static_cast<uint16_t>(h));
    const double hi = h == 0x7BFF ? 65536.0 : RefHalf(static_cast<uint16_t>(h + 1));
    const auto mid = static_cast<float>((lo + hi) / 2);  // exact in float
    ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2);
    const uint16_t even = (h & 1u) == 0 ? static_cast<uint16_t>(h) : static_cast<uint16_t>(h + 1);
    for (int s = 0; s < 2; ++s) {
      const float sign = s == 0 ? 1.0f : -1.0f;
      const uint16_t sbit = s == 0 ? 0 : 0x8000;
      EXPECT_EQ(half(sign * mid).ToBits(), even | sbit) << std::hex << h;
      EXPECT_EQ(half(sign * Next(mid, 0.0f)).ToBits(), h | sbit) << std::hex << h;
      EXPECT_EQ(half(sign * Next(mid, 1e9f)).ToBits(), (h + 1) | sbit) << std::hex << h;
      EXPECT_EQ(half(sign * static_cast<float>(lo)).ToBits(), h | sbit) << std::hex << h;
      // The exact core (used by Cast) agrees with the fast path.
      EXPECT_EQ(af_cpu::RoundDoubleToFormat(sign * static_cast<double>(mid), af_cpu::kHalfFormat,
                                            Rounding::kRint),
                static_cast<uint32_t>(even | sbit));
    }
  }
  EXPECT_EQ(half(65519.996f).ToBits(), 0x7BFF);
  EXPECT_EQ(half(1e6f).ToBits(), 0x7C00);
  EXPECT_EQ(half(-1e6f).ToBits(), 0xFC00);
  EXPECT_TRUE(std::isnan(static_cast<float>(half(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(half(1e-9f).ToBits(), 0x0000);    // below half the smallest subnormal
  EXPECT_EQ(half(-1e-9f).ToBits(), 0x8000);   // keeps the sign of zero
  EXPECT_EQ(half(6.0e-8f).ToBits(), 0x0001);  // nearest to the smallest subnormal 2^-24
}

// Directed rounding against the bracket [lo, hi] of two neighbouring halves.
TEST(HalfTest, DirectedModesMatchBracketReference) {
  for (uint32_t h = 0; h < 0x7BFF; ++h) {
    const double lo = RefHalf(static_cast<uint16_t>(h));
    const double hi = RefHalf(static_cast<uint16_t>(h + 1));
    const double points[] = {lo + (hi - lo) / 4, (lo + hi) / 2, lo + 3 * (hi - lo) / 4};
    for (int k = 0; k < 3; ++k) {
      for (int s = 0; s < 2; ++s) {
        const bool neg = s == 1;
        const double x = neg ? -points[k] : points[k];
        const uint32_t sbit = neg ? 0x8000 : 0;
        const uint32_t down = h | sbit;      // smaller magnitude
        const uint32_t up = (h + 1) | sbit;  // larger magnitude
        auto r = [&](Rounding m) { return af_cpu::RoundDoubleToFormat(x, af_cpu::kHalfFormat, m); };
        EXPECT_EQ(r(Rounding::kTrunc), down);
        EXPECT_EQ(r(Rounding::kFloor), neg ? up : down);
        EXPECT_EQ(r(Rounding::kCeil), neg ? down : up);
        EXPECT_EQ(r(Rounding::kRound), k == 0 ? down : up);
        EXPECT_EQ(r(Rounding::kRint), k == 0 ? down : (k == 2 ? up : ((h & 1u) == 0 ? down : up)));
        EXPECT_EQ(r(Rounding::kOdd), (h & 1u) != 0 ? down : up);
      }
    }
  }
  // Overflow: nearest modes go to inf, truncation and odd saturate at 65504.
  EXPECT_EQ(af_cpu::RoundDoubleToFormat(70000.0, af_cpu::kHalfFormat, Rounding::kRint), 0x7C00u);
  EXPECT_EQ(af_cpu::RoundDoubleToFormat(70000.0, af_cpu::kHalfFormat, Rounding::kTrunc), 0x7BFFu);
  EXPECT_EQ(af_cpu::RoundDoubleToFormat(-70000.0, af_cpu::kHalfFormat, Rounding::kFloor), 0xFC00u);
  EXPECT_EQ(af_cpu::RoundDoubleToFormat(-70000.0, af_cpu::kHalfFormat, Rounding::kCeil), 0xFBFFu);
}

TEST(Bf16Test, DecodesAllPatternsAndRoundsToNearestEven) {
  for (uint32_t b = 0; b < 65536; ++b) {
    const auto bits = static_cast<uint16_t>(b);
    const double want = RefBf16(bits);
    const float got = static_cast<float>(bfloat16_t::FromBits(bits));
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << std::hex << b;
      EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16_t(got))));
      continue;
    }
    ASSERT_EQ(static_cast<double>(got), want) << std::hex << b;
    ASSERT_EQ(bfloat16_t(got).ToBits(), bits) << std::hex << b;
    const uint32_t mag = b & 0x7FFFu;
    if (mag >= 0x7F80u) continue;  // inf
    // Midpoint to the next pattern away from zero: low 16 bits 0x8000.
    const uint32_t u = (b << 16) | 0x8000u;
    float mid = 0;
    std::memcpy(&mid, &u, sizeof(mid));
    const uint16_t even = (b & 1u) == 0 ? bits : static_cast<uint16_t>(b + 1);
    EXPECT_EQ(bfloat16_t(mid).ToBits(), even) << std::hex << b;
    EXPECT_EQ(bfloat16_t(Next(mid, 0.0f)).ToBits(), bits) << std::hex << b;
    EXPECT_EQ(bfloat16_t(mid).ToBits(),
              af_cpu::RoundDoubleToFormat(mid, af_cpu::kBf16Format, Rounding::kRint))
        << std::hex << b;
  }
}

TEST(HalfTest, ArithmeticGoesThroughFloat) {
  const half a(1.5f);
  const half b(2.25f);
  const half c = a * b;
  EXPECT_EQ(static_cast<float>(c), 3.375f);
  half d = 1;
  d += 0.5f;
  EXPECT_EQ(static_cast<float>(d), 1.5f);
  EXPECT_TRUE(a < b);
  const bfloat16_t e = 3;
  EXPECT_EQ(static_cast<float>(e), 3.0f);
  EXPECT_EQ(static_cast<float>(AscendC::ToBfloat16(1.0f)), 1.0f);
}

// The integer path of the rounding core agrees with the double path for every int16 value.
TEST(RoundingCoreTest, IntegerAndDoublePathsAgree) {
  const Rounding modes[] = {Rounding::kRint,  Rounding::kFloor, Rounding::kCeil,
                            Rounding::kRound, Rounding::kTrunc, Rounding::kOdd};
  for (int32_t v = -32768; v <= 32767; ++v) {
    for (Rounding m : modes) {
      ASSERT_EQ(af_cpu::RoundIntToFormat(v, af_cpu::kHalfFormat, m),
                af_cpu::RoundDoubleToFormat(v, af_cpu::kHalfFormat, m))
          << v;
    }
  }
  // int64 -> float example from the documentation: 2^35 + 2^12 + 2^11.
  const int64_t x = (int64_t{1} << 35) + (1 << 12) + (1 << 11);
  auto f = [&](Rounding m) {
    return static_cast<double>(
        af_cpu::BitsFloat(af_cpu::RoundIntToFormat(x, af_cpu::kFloatFormat, m)));
  };
  EXPECT_EQ(f(Rounding::kRint), std::ldexp(1.0, 35) + 8192);
  EXPECT_EQ(f(Rounding::kFloor), std::ldexp(1.0, 35) + 4096);
  EXPECT_EQ(f(Rounding::kCeil), std::ldexp(1.0, 35) + 8192);
  EXPECT_EQ(f(Rounding::kTrunc), std::ldexp(1.0, 35) + 4096);
}

}  // namespace
