// Element-wise vector APIs against scalar references for float, half, bfloat16_t and int32_t over
// counts that are 1, primes and not multiples of the repeat size; repeat counting per call.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "kernel_operator.h"
#include "runtime_test_util.h"

namespace {

using af::rt_test::Counts;
using af::rt_test::RandomVec;
using af::rt_test::RunOp;
using af::rt_test::RunResult;
using af::rt_test::SameValue;
using AscendC::LocalTensor;

uint64_t Repeats(uint64_t n, uint64_t elem) {
  return (n * elem + 255) / 256;
}

// Reference: compute in float for floating types and round once; wrap for integers.
template <typename T, typename FF, typename FI>
T Ref(T a, T b, FF ff, FI fi) {
  if constexpr (af_cpu::kIsFloatLike<T>) {
    return T(ff(static_cast<float>(a), static_cast<float>(b)));
  } else {
    return fi(a, b);
  }
}

template <typename T, typename Api, typename FF, typename FI>
void CheckBinary(const char* name, Api api, FF ff, FI fi, float lo = -100, float hi = 100) {
  for (uint32_t n : Counts()) {
    const auto a = RandomVec<T>(n, lo, hi, n);
    auto b = RandomVec<T>(n, lo, hi, n + 1000);
    RunResult r;
    const auto out = RunOp<T, T>(
        a, b, n,
        [&](const LocalTensor<T>& o, const LocalTensor<T>& x, const LocalTensor<T>& y) {
          api(o, x, y, static_cast<int32_t>(n));
        },
        &r);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_TRUE(SameValue(out[i], Ref<T>(a[i], b[i], ff, fi)))
          << name << " n=" << n << " i=" << i << " a=" << static_cast<double>(a[i])
          << " b=" << static_cast<double>(b[i]) << " got " << static_cast<double>(out[i]);
    }
    EXPECT_EQ(r.api[name].first, 1u) << name;
    EXPECT_EQ(r.api[name].second, Repeats(n, sizeof(T))) << name << " n=" << n;
    EXPECT_EQ(r.repeats, Repeats(n, sizeof(T)));
  }
}

template <typename T, typename Api, typename FF>
void CheckUnary(const char* name, Api api, FF ff, float lo, float hi) {
  for (uint32_t n : Counts()) {
    const auto a = RandomVec<T>(n, lo, hi, 7 * n);
    RunResult r;
    const auto out = RunOp<T, T>(
        a, {}, n,
        [&](const LocalTensor<T>& o, const LocalTensor<T>& x, const LocalTensor<T>&) {
          api(o, x, static_cast<int32_t>(n));
        },
        &r);
    for (uint32_t i = 0; i < n; ++i) {
      const T want = T(ff(static_cast<float>(a[i])));
      ASSERT_TRUE(SameValue(out[i], want))
          << name << " n=" << n << " i=" << i << " a=" << static_cast<double>(a[i]) << " got "
          << static_cast<double>(out[i]) << " want " << static_cast<double>(want);
    }
    EXPECT_EQ(r.api[name].second, Repeats(n, sizeof(T))) << name;
  }
}

template <typename T>
void AllBinaryFloat() {
  CheckBinary<T>(
      "Add", [](auto&&... p) { AscendC::Add(p...); }, [](float x, float y) { return x + y; },
      [](T x, T) { return x; });
  CheckBinary<T>(
      "Sub", [](auto&&... p) { AscendC::Sub(p...); }, [](float x, float y) { return x - y; },
      [](T x, T) { return x; });
  CheckBinary<T>(
      "Mul", [](auto&&... p) { AscendC::Mul(p...); }, [](float x, float y) { return x * y; },
      [](T x, T) { return x; });
  CheckBinary<T>(
      "Div", [](auto&&... p) { AscendC::Div(p...); }, [](float x, float y) { return x / y; },
      [](T x, T) { return x; });
  CheckBinary<T>(
      "Max", [](auto&&... p) { AscendC::Max(p...); },
      [](float x, float y) { return x >= y ? x : y; }, [](T x, T) { return x; });
  CheckBinary<T>(
      "Min", [](auto&&... p) { AscendC::Min(p...); },
      [](float x, float y) { return x <= y ? x : y; }, [](T x, T) { return x; });
}

TEST(VectorTest, BinaryFloat) {
  AllBinaryFloat<float>();
}
TEST(VectorTest, BinaryHalf) {
  AllBinaryFloat<half>();
}
TEST(VectorTest, BinaryBf16) {
  AllBinaryFloat<bfloat16_t>();
}

TEST(VectorTest, BinaryInt32WrapsAround) {
  auto u = [](int32_t v) { return static_cast<uint32_t>(v); };
  auto s = [](uint32_t v) { return static_cast<int32_t>(v); };
  CheckBinary<int32_t>(
      "Add", [](auto&&... p) { AscendC::Add(p...); }, [](float x, float) { return x; },
      [&](int32_t x, int32_t y) { return s(u(x) + u(y)); }, -2e9f, 2e9f);
  CheckBinary<int32_t>(
      "Sub", [](auto&&... p) { AscendC::Sub(p...); }, [](float x, float) { return x; },
      [&](int32_t x, int32_t y) { return s(u(x) - u(y)); }, -2e9f, 2e9f);
  CheckBinary<int32_t>(
      "Mul", [](auto&&... p) { AscendC::Mul(p...); }, [](float x, float) { return x; },
      [&](int32_t x, int32_t y) { return s(u(x) * u(y)); }, -1e5f, 1e5f);
  CheckBinary<int32_t>(
      "Max", [](auto&&... p) { AscendC::Max(p...); }, [](float x, float) { return x; },
      [](int32_t x, int32_t y) { return x > y ? x : y; });
  CheckBinary<int32_t>(
      "Min", [](auto&&... p) { AscendC::Min(p...); }, [](float x, float) { return x; },
      [](int32_t x, int32_t y) { return x < y ? x : y; });
  CheckBinary<int32_t>(
      "Div", [](auto&&... p) { AscendC::Div(p...); }, [](float x, float) { return x; },
      [](int32_t x, int32_t y) { return y == 0 ? 0 : x / y; }, 1, 1000);
}

TEST(VectorTest, BitwiseIntegers) {
  CheckBinary<int16_t>(
      "And", [](auto&&... p) { AscendC::And(p...); }, [](float x, float) { return x; },
      [](int16_t x, int16_t y) { return static_cast<int16_t>(x & y); }, -30000, 30000);
  CheckBinary<uint16_t>(
      "Or", [](auto&&... p) { AscendC::Or(p...); }, [](float x, float) { return x; },
      [](uint16_t x, uint16_t y) { return static_cast<uint16_t>(x | y); }, 0, 60000);
  for (uint32_t n : Counts()) {
    const auto a = RandomVec<int32_t>(n, -1e9f, 1e9f, n);
    const auto out = RunOp<int32_t, int32_t>(
        a, {}, n, [&](auto& o, auto& x, auto&) { AscendC::Not(o, x, static_cast<int32_t>(n)); });
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_EQ(out[i], ~a[i]);
  }
}

template <typename T>
void AllUnaryFloat() {
  CheckUnary<T>(
      "Abs", [](auto&&... p) { AscendC::Abs(p...); }, [](float x) { return std::fabs(x); }, -50,
      50);
  CheckUnary<T>(
      "Exp", [](auto&&... p) { AscendC::Exp(p...); }, [](float x) { return std::exp(x); }, -10, 10);
  CheckUnary<T>(
      "Ln", [](auto&&... p) { AscendC::Ln(p...); }, [](float x) { return std::log(x); }, 0.001f,
      100);
  CheckUnary<T>(
      "Sqrt", [](auto&&... p) { AscendC::Sqrt(p...); }, [](float x) { return std::sqrt(x); }, 0,
      100);
  CheckUnary<T>(
      "Rsqrt", [](auto&&... p) { AscendC::Rsqrt(p...); },
      [](float x) { return 1.0f / std::sqrt(x); }, 0.01f, 100);
  CheckUnary<T>(
      "Reciprocal", [](auto&&... p) { AscendC::Reciprocal(p...); },
      [](float x) { return 1.0f / x; }, 0.5f, 100);
  CheckUnary<T>(
      "Relu", [](auto&&... p) { AscendC::Relu(p...); }, [](float x) { return x < 0 ? 0.0f : x; },
      -50, 50);
}

TEST(VectorTest, UnaryFloat) {
  AllUnaryFloat<float>();
}
TEST(VectorTest, UnaryHalf) {
  AllUnaryFloat<half>();
}
TEST(VectorTest, UnaryBf16) {
  AllUnaryFloat<bfloat16_t>();
}

TEST(VectorTest, UnaryInt32) {
  for (uint32_t n : Counts()) {
    auto a = RandomVec<int32_t>(n, -1e6f, 1e6f, n);
    const auto abs = RunOp<int32_t, int32_t>(
        a, {}, n, [&](auto& o, auto& x, auto&) { AscendC::Abs(o, x, static_cast<int32_t>(n)); });
    const auto relu = RunOp<int32_t, int32_t>(
        a, {}, n, [&](auto& o, auto& x, auto&) { AscendC::Relu(o, x, static_cast<int32_t>(n)); });
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(abs[i], a[i] < 0 ? -a[i] : a[i]);
      ASSERT_EQ(relu[i], a[i] < 0 ? 0 : a[i]);
    }
  }
}

template <typename T>
void AllScalar() {
  const T s = T(3);
  CheckUnary<T>(
      "Adds", [s](auto& o, auto& x, int32_t n) { AscendC::Adds(o, x, s, n); },
      [](float x) { return x + 3.0f; }, -100, 100);
  CheckUnary<T>(
      "Subs", [s](auto& o, auto& x, int32_t n) { AscendC::Subs(o, x, s, n); },
      [](float x) { return x - 3.0f; }, -100, 100);
  CheckUnary<T>(
      "Muls", [s](auto& o, auto& x, int32_t n) { AscendC::Muls(o, x, s, n); },
      [](float x) { return x * 3.0f; }, -100, 100);
  CheckUnary<T>(
      "Divs", [s](auto& o, auto& x, int32_t n) { AscendC::Divs(o, x, s, n); },
      [](float x) { return x / 3.0f; }, -100, 100);
  CheckUnary<T>(
      "Maxs", [s](auto& o, auto& x, int32_t n) { AscendC::Maxs(o, x, s, n); },
      [](float x) { return x >= 3.0f ? x : 3.0f; }, -100, 100);
  CheckUnary<T>(
      "Mins", [s](auto& o, auto& x, int32_t n) { AscendC::Mins(o, x, s, n); },
      [](float x) { return x <= 3.0f ? x : 3.0f; }, -100, 100);
  CheckUnary<T>(
      "LeakyRelu", [](auto& o, auto& x, int32_t n) { AscendC::LeakyRelu(o, x, T(0.25f), n); },
      [](float x) { return x >= 0 ? x : x * 0.25f; }, -100, 100);
}

TEST(VectorTest, ScalarFloat) {
  AllScalar<float>();
}
TEST(VectorTest, ScalarHalf) {
  AllScalar<half>();
}
TEST(VectorTest, ScalarBf16) {
  AllScalar<bfloat16_t>();
}

TEST(VectorTest, ScalarInt32) {
  for (uint32_t n : Counts()) {
    const auto a = RandomVec<int32_t>(n, -1e6f, 1e6f, n);
    const auto out = RunOp<int32_t, int32_t>(a, {}, n, [&](auto& o, auto& x, auto&) {
      AscendC::Adds(o, x, 7, static_cast<int32_t>(n));
    });
    const auto mx = RunOp<int32_t, int32_t>(a, {}, n, [&](auto& o, auto& x, auto&) {
      AscendC::Maxs(o, x, 0, static_cast<int32_t>(n));
    });
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], a[i] + 7);
      ASSERT_EQ(mx[i], a[i] > 0 ? a[i] : 0);
    }
  }
}

template <typename T>
void CheckDuplicate() {
  for (uint32_t n : Counts()) {
    RunResult r;
    const auto out = RunOp<T, T>(
        std::vector<T>(1, T(0)), {}, n,
        [&](auto& o, auto&, auto&) { AscendC::Duplicate(o, T(5), static_cast<int32_t>(n)); }, &r);
    for (uint32_t i = 0; i < n; ++i)
      ASSERT_TRUE(SameValue(out[i], T(5)));
    EXPECT_EQ(r.api["Duplicate"].second, Repeats(n, sizeof(T)));
  }
}

TEST(VectorTest, Duplicate) {
  CheckDuplicate<float>();
  CheckDuplicate<half>();
  CheckDuplicate<bfloat16_t>();
  CheckDuplicate<int32_t>();
  CheckDuplicate<int16_t>();
}

TEST(VectorTest, AxpyMixedPrecision) {
  for (uint32_t n : Counts()) {
    const auto x = RandomVec<half>(n, -10, 10, n);
    std::vector<float> acc = RandomVec<float>(n, -10, 10, n + 1);
    std::vector<float> out(n);
    std::vector<half> gx = x;
    af::rt_test::RunResult r = af::rt_test::RunKernel(
        [&] {
          AscendC::TPipe pipe;
          AscendC::TBuf<AscendC::TPosition::VECCALC> bx;
          AscendC::TBuf<AscendC::TPosition::VECCALC> by;
          pipe.InitBuffer(bx, af::rt_test::Align32(n * sizeof(half)));
          pipe.InitBuffer(by, af::rt_test::Align32(n * sizeof(float)));
          auto lx = bx.Get<half>();
          auto ly = by.Get<float>();
          af::rt_test::Load(lx, gx.data(), n);
          af::rt_test::Load(ly, acc.data(), n);
          AscendC::Axpy(ly, lx, half(0.5f), static_cast<int32_t>(n));
          af::rt_test::Store(out.data(), ly, n);
        },
        {af::rt_test::GmOf(gx), af::rt_test::GmOf(acc), af::rt_test::GmOf(out)});
    ASSERT_EQ(r.status, 0) << r.error;
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[i], static_cast<float>(x[i]) * 0.5f + acc[i]);
    }
  }
}

template <typename T>
void CheckAdvanced() {
  CheckUnary<T>(
      "Sigmoid", [](auto&&... p) { AscendC::Sigmoid(p...); },
      [](float x) { return 1.0f / (1.0f + std::exp(-x)); }, -20, 20);
  CheckUnary<T>(
      "Tanh", [](auto&&... p) { AscendC::Tanh(p...); }, [](float x) { return std::tanh(x); }, -5,
      5);
  CheckUnary<T>(
      "Erf", [](auto&&... p) { AscendC::Erf(p...); }, [](float x) { return std::erf(x); }, -3, 3);
  CheckUnary<T>(
      "Sign", [](auto&&... p) { AscendC::Sign(p...); },
      [](float x) { return x > 0 ? 1.0f : (x < 0 ? -1.0f : 0.0f); }, -3, 3);
  for (uint32_t n : Counts()) {
    const auto base = RandomVec<T>(n, 0.1f, 4, n);
    const auto ex = RandomVec<T>(n, -3, 3, n + 5);
    const auto tt =
        RunOp<T, T>(base, ex, n, [&](auto& o, auto& x, auto& y) { AscendC::Power(o, x, y, n); });
    const auto ts = RunOp<T, T>(base, {}, n,
                                [&](auto& o, auto& x, auto&) { AscendC::Power(o, x, T(2.5f), n); });
    const auto st =
        RunOp<T, T>(ex, {}, n, [&](auto& o, auto& y, auto&) { AscendC::Power(o, T(2), y, n); });
    for (uint32_t i = 0; i < n; ++i) {
      const float b = static_cast<float>(base[i]);
      const float e = static_cast<float>(ex[i]);
      ASSERT_TRUE(SameValue(tt[i], T(std::pow(b, e))));
      ASSERT_TRUE(SameValue(ts[i], T(std::pow(b, static_cast<float>(T(2.5f))))));
      ASSERT_TRUE(SameValue(st[i], T(std::pow(2.0f, e))));
    }
  }
}

TEST(VectorTest, AdvancedFloat) {
  CheckAdvanced<float>();
}
TEST(VectorTest, AdvancedHalf) {
  CheckAdvanced<half>();
}

TEST(VectorTest, AdvancedEdgeCases) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {-inf, -2.0f, -0.0f, 0.0f, nan, 2.0f, inf, -100.0f};
  const auto sign =
      RunOp<float, float>(in, {}, 8, [](auto& o, auto& x, auto&) { AscendC::Sign(o, x, 8); });
  const std::vector<float> want = {-1, -1, 0, 0, 0, 1, 1, -1};
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(sign[i], want[i]) << i;
  // Sigmoid saturates without NaN at large magnitudes; Power with an int32 exponent.
  const auto sig =
      RunOp<float, float>(in, {}, 8, [](auto& o, auto& x, auto&) { AscendC::Sigmoid(o, x, 8); });
  EXPECT_EQ(sig[0], 0.0f);
  EXPECT_EQ(sig[6], 1.0f);
  const std::vector<int32_t> b = {2, 3, -2, 0, 1, -1, 5};
  const std::vector<int32_t> e = {10, 3, 3, 0, -4, -3, 0};
  const auto p = RunOp<int32_t, int32_t>(
      b, e, 7, [](auto& o, auto& x, auto& y) { AscendC::Power(o, x, y, 7); });
  const std::vector<int32_t> pw = {1024, 27, -8, 1, 1, -1, 1};
  for (size_t i = 0; i < pw.size(); ++i)
    EXPECT_EQ(p[i], pw[i]) << i;
}

TEST(VectorTest, InPlaceOperandsAreAllowed) {
  std::vector<float> a = {1, 2, 3, 4, 5};
  std::vector<float> out(5);
  const auto r = af::rt_test::RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 32);
        auto t = buf.Get<float>();
        af::rt_test::Load(t, a.data(), 5);
        AscendC::Mul(t, t, t, 5);
        AscendC::Adds(t, t, 1.0f, 5);
        af::rt_test::Store(out.data(), t, 5);
      },
      {af::rt_test::GmOf(a), af::rt_test::GmOf(out)});
  ASSERT_EQ(r.status, 0) << r.error;
  EXPECT_EQ(out, (std::vector<float>{2, 5, 10, 17, 26}));
}

}  // namespace
