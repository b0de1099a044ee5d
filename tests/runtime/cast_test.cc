// Cast through the kernel API: every documented A2/A3 pair, the rounding modes against libm
// references and the documentation's worked examples, saturation, and the pair/mode checks.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "runtime_test_util.h"

namespace {

using af::rt_test::RunResult;
using AscendC::RoundMode;

template <typename D, typename S>
std::vector<D> RunCast(const std::vector<S>& in, RoundMode mode, RunResult* result = nullptr) {
  std::vector<S> g = in;
  std::vector<D> out(in.size());
  const auto n = static_cast<uint32_t>(in.size());
  RunResult r = af::rt_test::RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> bs;
        AscendC::TBuf<AscendC::TPosition::VECCALC> bd;
        pipe.InitBuffer(bs, af::rt_test::Align32(n * sizeof(S)));
        pipe.InitBuffer(bd, af::rt_test::Align32(n * sizeof(D)));
        auto ls = bs.Get<S>();
        auto ld = bd.Get<D>();
        af::rt_test::Load(ls, g.data(), n);
        AscendC::Cast(ld, ls, mode, n);
        af::rt_test::Store(out.data(), ld, n);
      },
      {af::rt_test::GmOf(g), af::rt_test::GmOf(out)});
  if (result != nullptr) {
    *result = r;
  } else {
    EXPECT_EQ(r.status, AF_STATUS_OK) << r.error;
  }
  return out;
}

const RoundMode kRound[] = {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                            RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC};

double LibmRound(double x, RoundMode m) {
  switch (m) {
    case RoundMode::CAST_FLOOR:
      return std::floor(x);
    case RoundMode::CAST_CEIL:
      return std::ceil(x);
    case RoundMode::CAST_ROUND:
      return std::round(x);
    case RoundMode::CAST_TRUNC:
      return std::trunc(x);
    default:
      return std::nearbyint(x);  // default environment: to nearest, ties to even
  }
}

template <typename D>
D Saturate(double v) {
  if (std::isnan(v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
  if (v >= static_cast<double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
  return static_cast<D>(v);
}

std::vector<float> Samples() {
  std::vector<float> v = {0.5f,
                          1.5f,
                          2.5f,
                          -0.5f,
                          -1.5f,
                          -2.5f,
                          0.49f,
                          -0.51f,
                          3.0f,
                          -7.75f,
                          1e10f,
                          -1e10f,
                          3e9f,
                          70000.0f,
                          -70000.0f,
                          127.5f,
                          128.5f,
                          255.5f,
                          -128.6f,
                          std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN()};
  const auto r = af::rt_test::RandomVec<float>(300, -300, 300, 11);
  v.insert(v.end(), r.begin(), r.end());
  return v;
}

TEST(CastTest, FloatToIntegersFollowLibmAndSaturate) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  const auto in = Samples();
  for (RoundMode m : kRound) {
    const auto i32 = RunCast<int32_t, float>(in, m);
    const auto i16 = RunCast<int16_t, float>(in, m);
    const auto i64 = RunCast<int64_t, float>(in, m);
    for (size_t i = 0; i < in.size(); ++i) {
      const double want = LibmRound(in[i], m);
      EXPECT_EQ(i32[i], Saturate<int32_t>(want)) << in[i] << " mode " << static_cast<int>(m);
      EXPECT_EQ(i16[i], Saturate<int16_t>(want)) << in[i];
      EXPECT_EQ(i64[i], Saturate<int64_t>(want)) << in[i];
    }
  }
}

TEST(CastTest, HalfAndBf16ToIntegers) {
  std::vector<half> h;
  for (float f : Samples())
    h.push_back(half(f));
  std::vector<bfloat16_t> b;
  for (float f : Samples())
    b.push_back(bfloat16_t(f));
  for (RoundMode m : kRound) {
    const auto i8 = RunCast<int8_t, half>(h, m);
    const auto u8 = RunCast<uint8_t, half>(h, m);
    const auto i16 = RunCast<int16_t, half>(h, m);
    const auto i32 = RunCast<int32_t, half>(h, m);
    const auto b32 = RunCast<int32_t, bfloat16_t>(b, m);
    for (size_t i = 0; i < h.size(); ++i) {
      const double want = LibmRound(static_cast<float>(h[i]), m);
      EXPECT_EQ(i8[i], Saturate<int8_t>(want)) << static_cast<float>(h[i]);
      EXPECT_EQ(u8[i], Saturate<uint8_t>(want)) << static_cast<float>(h[i]);
      EXPECT_EQ(i16[i], Saturate<int16_t>(want));
      EXPECT_EQ(i32[i], Saturate<int32_t>(want));
      EXPECT_EQ(b32[i], Saturate<int32_t>(LibmRound(static_cast<float>(b[i]), m)));
    }
  }
  // CAST_NONE on a lossy conversion behaves as CAST_RINT.
  const auto none = RunCast<int8_t, half>(h, RoundMode::CAST_NONE);
  const auto rint = RunCast<int8_t, half>(h, RoundMode::CAST_RINT);
  EXPECT_EQ(none, rint);
}

// The worked examples of the AscendC precision-conversion documentation.
TEST(CastTest, DocumentedExamples) {
  auto f2i = [](float x, RoundMode m) { return RunCast<int32_t, float>({x}, m)[0]; };
  const float x = 4194304.5f;  // 2^22 + 0.5
  EXPECT_EQ(f2i(x, RoundMode::CAST_RINT), 4194304);
  EXPECT_EQ(f2i(x, RoundMode::CAST_FLOOR), 4194304);
  EXPECT_EQ(f2i(x, RoundMode::CAST_CEIL), 4194305);
  EXPECT_EQ(f2i(x, RoundMode::CAST_ROUND), 4194305);
  EXPECT_EQ(f2i(x, RoundMode::CAST_TRUNC), 4194304);

  auto h2i = [](float v, RoundMode m) { return RunCast<int32_t, half>({half(v)}, m)[0]; };
  EXPECT_EQ(h2i(-1.5f, RoundMode::CAST_RINT), -2);
  EXPECT_EQ(h2i(-1.5f, RoundMode::CAST_FLOOR), -2);
  EXPECT_EQ(h2i(-1.5f, RoundMode::CAST_CEIL), -1);
  EXPECT_EQ(h2i(-1.5f, RoundMode::CAST_ROUND), -2);
  EXPECT_EQ(h2i(-1.5f, RoundMode::CAST_TRUNC), -1);
  EXPECT_EQ((RunCast<int8_t, half>({half(127.5f)}, RoundMode::CAST_RINT)[0]), 127);  // saturates

  auto i2f = [](int32_t v, RoundMode m) { return RunCast<float, int32_t>({v}, m)[0]; };
  const int32_t big = (1 << 25) + 3;
  EXPECT_EQ(i2f(big, RoundMode::CAST_RINT), 33554436.0f);
  EXPECT_EQ(i2f(big, RoundMode::CAST_FLOOR), 33554432.0f);
  EXPECT_EQ(i2f(big, RoundMode::CAST_CEIL), 33554436.0f);
  EXPECT_EQ(i2f(big, RoundMode::CAST_ROUND), 33554436.0f);
  EXPECT_EQ(i2f(big, RoundMode::CAST_TRUNC), 33554432.0f);

  auto i2h = [](int16_t v, RoundMode m) {
    return static_cast<float>(RunCast<half, int16_t>({v}, m)[0]);
  };
  EXPECT_EQ(i2h(4098, RoundMode::CAST_RINT), 4096.0f);
  EXPECT_EQ(i2h(4098, RoundMode::CAST_CEIL), 4100.0f);
  EXPECT_EQ(i2h(4098, RoundMode::CAST_ROUND), 4100.0f);
  EXPECT_EQ(i2h(4098, RoundMode::CAST_TRUNC), 4096.0f);

  auto f2h = [](float v, RoundMode m) {
    return static_cast<double>(RunCast<half, float>({v}, m)[0]);
  };
  const float h0 = 0.5f + std::ldexp(1.0f, -12);
  EXPECT_EQ(f2h(h0, RoundMode::CAST_RINT), 0.5);
  EXPECT_EQ(f2h(h0, RoundMode::CAST_FLOOR), 0.5);
  EXPECT_EQ(f2h(h0, RoundMode::CAST_CEIL), 0.5 + std::ldexp(1.0, -11));
  EXPECT_EQ(f2h(h0, RoundMode::CAST_ROUND), 0.5 + std::ldexp(1.0, -11));
  EXPECT_EQ(f2h(h0, RoundMode::CAST_TRUNC), 0.5);
  EXPECT_EQ(f2h(h0, RoundMode::CAST_ODD), 0.5 + std::ldexp(1.0, -11));

  auto f2b = [](float v, RoundMode m) {
    return static_cast<double>(RunCast<bfloat16_t, float>({v}, m)[0]);
  };
  const float b0 = 0.5f + std::ldexp(1.0f, -9) + std::ldexp(1.0f, -11);
  EXPECT_EQ(f2b(b0, RoundMode::CAST_RINT), 0.5 + std::ldexp(1.0, -8));
  EXPECT_EQ(f2b(b0, RoundMode::CAST_FLOOR), 0.5);
  EXPECT_EQ(f2b(b0, RoundMode::CAST_TRUNC), 0.5);

  auto f2f = [](float v, RoundMode m) { return RunCast<float, float>({v}, m)[0]; };
  EXPECT_EQ(f2f(0.5f, RoundMode::CAST_RINT), 0.0f);
  EXPECT_EQ(f2f(0.5f, RoundMode::CAST_CEIL), 1.0f);
  EXPECT_EQ(f2f(0.5f, RoundMode::CAST_ROUND), 1.0f);
  EXPECT_EQ(f2f(-2.5f, RoundMode::CAST_RINT), -2.0f);
}

TEST(CastTest, ExactAndSaturatingIntegerPairs) {
  const std::vector<int32_t> a = {0, 1, -1, 40000, -40000, 2147483647, -2147483647 - 1, 32767};
  const auto i16 = RunCast<int16_t, int32_t>(a, RoundMode::CAST_NONE);
  const auto i64 = RunCast<int64_t, int32_t>(a, RoundMode::CAST_NONE);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(i16[i], Saturate<int16_t>(a[i]));
    EXPECT_EQ(i64[i], a[i]);
  }
  const std::vector<int64_t> w = {int64_t{1} << 40, -(int64_t{1} << 40), 5, -5};
  const auto n32 = RunCast<int32_t, int64_t>(w, RoundMode::CAST_NONE);
  EXPECT_EQ(n32, (std::vector<int32_t>{2147483647, -2147483647 - 1, 5, -5}));
  const std::vector<int8_t> s8 = {-128, -1, 0, 127};
  const auto h8 = RunCast<half, int8_t>(s8, RoundMode::CAST_NONE);
  for (size_t i = 0; i < s8.size(); ++i)
    EXPECT_EQ(static_cast<float>(h8[i]), s8[i]);
  const std::vector<uint8_t> u8 = {0, 200, 255};
  const auto hu = RunCast<half, uint8_t>(u8, RoundMode::CAST_NONE);
  for (size_t i = 0; i < u8.size(); ++i)
    EXPECT_EQ(static_cast<float>(hu[i]), u8[i]);
  const std::vector<int16_t> s16 = {-32768, 12345, 32767};
  const auto f16 = RunCast<float, int16_t>(s16, RoundMode::CAST_NONE);
  for (size_t i = 0; i < s16.size(); ++i)
    EXPECT_EQ(f16[i], s16[i]);
  const std::vector<int64_t> big = {(int64_t{1} << 35) + (1 << 12) + (1 << 11)};
  EXPECT_EQ((RunCast<float, int64_t>(big, RoundMode::CAST_FLOOR)[0]),
            std::ldexp(1.0f, 35) + 4096.0f);
}

TEST(CastTest, WideningIsExact) {
  std::vector<half> h;
  std::vector<bfloat16_t> b;
  for (uint32_t i = 0; i < 65536; i += 7) {
    h.push_back(half::FromBits(static_cast<uint16_t>(i)));
    b.push_back(bfloat16_t::FromBits(static_cast<uint16_t>(i)));
  }
  const auto fh = RunCast<float, half>(h, RoundMode::CAST_NONE);
  const auto fb = RunCast<float, bfloat16_t>(b, RoundMode::CAST_NONE);
  for (size_t i = 0; i < h.size(); ++i) {
    EXPECT_TRUE(af::rt_test::SameValue(fh[i], static_cast<float>(h[i])));
    EXPECT_TRUE(af::rt_test::SameValue(fb[i], static_cast<float>(b[i])));
  }
}

TEST(CastTest, RejectsUndocumentedPairsAndModes) {
  RunResult r;
  RunCast<bfloat16_t, half>({half(1.0f)}, RoundMode::CAST_RINT, &r);
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("Cast: no documented conversion from half to bfloat16_t"),
            std::string::npos)
      << r.error;
  RunCast<int32_t, float>({1.0f}, RoundMode::CAST_NONE, &r);
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("CAST_NONE is not a documented mode for float -> int32_t"),
            std::string::npos)
      << r.error;
  RunCast<half, float>({1.0f}, RoundMode::CAST_HYBRID, &r);
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
}

TEST(CastTest, InPlaceNarrowingOnlyAndRepeatsUseTheWiderType) {
  std::vector<float> g = {1.25f, 2.5f, -3.0f, 4.0f};
  std::vector<half> out(4);
  RunResult r = af::rt_test::RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64);
        auto f = buf.Get<float>();
        af::rt_test::Load(f, g.data(), 4);
        auto h = f.ReinterpretCast<half>();
        AscendC::Cast(h, f, RoundMode::CAST_RINT, 4);  // float -> half in place: allowed
        af::rt_test::Store(out.data(), h, 4);
      },
      {af::rt_test::GmOf(g), af::rt_test::GmOf(out)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  EXPECT_EQ(static_cast<float>(out[1]), 2.5f);
  EXPECT_EQ(r.api["Cast"].second, 1u);
  r = af::rt_test::RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64);
        auto f = buf.Get<float>();
        auto h = f.ReinterpretCast<half>();
        AscendC::Cast(f, h, RoundMode::CAST_NONE, 4);  // half -> float in place: forbidden
      },
      {});
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("Cast: dst UB bytes [0, 16) and src UB bytes [0, 8) overlap"),
            std::string::npos)
      << r.error;
}

}  // namespace
