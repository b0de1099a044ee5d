// Compare/Compares (bit-packed masks), Select in its three modes, and the reductions
// (ReduceSum/Max/Min with indices, WholeReduce* with contiguous and bit masks).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "runtime_test_util.h"

namespace {

using af::rt_test::RandomVec;
using af::rt_test::RunOp;
using af::rt_test::RunResult;
using AscendC::CMPMODE;
using AscendC::LocalTensor;
using AscendC::SELMODE;

bool RefCmp(CMPMODE m, float a, float b) {
  switch (m) {
    case CMPMODE::LT:
      return a < b;
    case CMPMODE::GT:
      return a > b;
    case CMPMODE::EQ:
      return a == b;
    case CMPMODE::LE:
      return a <= b;
    case CMPMODE::GE:
      return a >= b;
    case CMPMODE::NE:
      return a != b;
  }
  return false;
}

template <typename T>
void CheckCompare() {
  const CMPMODE modes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ,
                           CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};
  const uint32_t per = 256 / sizeof(T);
  for (uint32_t n : {per, 3 * per}) {
    auto a = RandomVec<T>(n, -4, 4, n);
    auto b = RandomVec<T>(n, -4, 4, n + 1);
    for (uint32_t i = 0; i < n; i += 5)
      b[i] = a[i];  // some equal pairs
    for (CMPMODE m : modes) {
      RunResult r;
      const auto bits = RunOp<uint8_t, T>(
          a, b, n / 8, [&](auto& o, auto& x, auto& y) { AscendC::Compare(o, x, y, m, n); }, &r);
      const auto sbits = RunOp<uint8_t, T>(
          a, {}, n / 8, [&](auto& o, auto& x, auto&) { AscendC::Compares(o, x, T(0.5f), m, n); });
      for (uint32_t i = 0; i < n; ++i) {
        const bool bit = ((bits[i / 8] >> (i % 8)) & 1) != 0;
        const bool sbit = ((sbits[i / 8] >> (i % 8)) & 1) != 0;
        ASSERT_EQ(bit, RefCmp(m, static_cast<float>(a[i]), static_cast<float>(b[i]))) << i;
        ASSERT_EQ(sbit, RefCmp(m, static_cast<float>(a[i]), static_cast<float>(T(0.5f)))) << i;
      }
      EXPECT_EQ(r.api["Compare"].second, n * sizeof(T) / 256);
    }
  }
}

TEST(CompareTest, FloatAndHalfAllModes) {
  CheckCompare<float>();
  CheckCompare<half>();
}

TEST(CompareTest, DocumentedBitOrderExample) {
  // src0 = [2 3 5 7 11 13 17 19 ...], src1 = [2 4 6 8 10 12 14 16 ...]; GT gives 0b11110000.
  std::vector<float> a(64);
  std::vector<float> b(64);
  const float p[] = {2, 3, 5, 7, 11, 13, 17, 19};
  const float q[] = {2, 4, 6, 8, 10, 12, 14, 16};
  for (int i = 0; i < 64; ++i) {
    a[i] = p[i % 8];
    b[i] = q[i % 8];
  }
  const auto gt = RunOp<uint8_t, float>(
      a, b, 8, [](auto& o, auto& x, auto& y) { AscendC::Compare(o, x, y, CMPMODE::GT, 64); });
  EXPECT_EQ(gt[0], 240);
  const auto ge = RunOp<uint8_t, float>(
      a, b, 8, [](auto& o, auto& x, auto& y) { AscendC::Compare(o, x, y, CMPMODE::GE, 64); });
  EXPECT_EQ(ge[0], 241);
}

TEST(CompareTest, CountMustFillWholeRepeats) {
  const auto r = af::rt_test::RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 2048);
        auto x = buf.Get<float>();
        auto m = buf.GetWithOffset<uint8_t>(32, 1024);
        AscendC::Compare(m, x, x[128], CMPMODE::LT, 100);
      },
      {});
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("Compare: count 100 x 4 bytes = 400 bytes is not a multiple of 256"),
            std::string::npos)
      << r.error;
}

template <typename T>
void CheckSelect() {
  for (uint32_t n : af::rt_test::Counts()) {
    auto a = RandomVec<T>(n, -10, 10, n);
    auto b = RandomVec<T>(n, -10, 10, n + 3);
    std::vector<uint8_t> mask((n + 7) / 8 + 32);
    for (size_t i = 0; i < mask.size(); ++i)
      mask[i] = static_cast<uint8_t>(i * 37 + 11);
    std::vector<T> tt(n);
    std::vector<T> ts(n);
    std::vector<T> spr(n);
    const auto r = af::rt_test::RunKernel(
        [&] {
          AscendC::TPipe pipe;
          AscendC::TBuf<AscendC::TPosition::VECCALC> bm;
          AscendC::TBuf<AscendC::TPosition::VECCALC> ba;
          AscendC::TBuf<AscendC::TPosition::VECCALC> bb;
          AscendC::TBuf<AscendC::TPosition::VECCALC> bo;
          pipe.InitBuffer(bm, af::rt_test::Align32(mask.size()));
          pipe.InitBuffer(ba, af::rt_test::Align32(n * sizeof(T)));
          pipe.InitBuffer(bb, af::rt_test::Align32(n * sizeof(T)));
          pipe.InitBuffer(bo, af::rt_test::Align32(n * sizeof(T)));
          auto lm = bm.Get<uint8_t>();
          auto la = ba.Get<T>();
          auto lb = bb.Get<T>();
          auto lo = bo.Get<T>();
          af::rt_test::Load(lm, mask.data(), static_cast<uint32_t>(mask.size()));
          af::rt_test::Load(la, a.data(), n);
          af::rt_test::Load(lb, b.data(), n);
          AscendC::Select(lo, lm, la, lb, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
          af::rt_test::Store(tt.data(), lo, n);
          AscendC::Select(lo, lm, la, T(7), SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
          af::rt_test::Store(ts.data(), lo, n);
          AscendC::Select(lo, lm, la, lb, SELMODE::VSEL_CMPMASK_SPR, n);
          af::rt_test::Store(spr.data(), lo, n);
        },
        {af::rt_test::GmOf(mask), af::rt_test::GmOf(a), af::rt_test::GmOf(b), af::rt_test::GmOf(tt),
         af::rt_test::GmOf(ts), af::rt_test::GmOf(spr)});
    ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
    const uint32_t per = 256 / sizeof(T);
    for (uint32_t i = 0; i < n; ++i) {
      const bool bit = ((mask[i / 8] >> (i % 8)) & 1) != 0;
      const uint32_t j = i % per;
      const bool bit0 = ((mask[j / 8] >> (j % 8)) & 1) != 0;
      ASSERT_TRUE(af::rt_test::SameValue(tt[i], bit ? a[i] : b[i])) << i;
      ASSERT_TRUE(af::rt_test::SameValue(ts[i], bit ? a[i] : T(7))) << i;
      ASSERT_TRUE(af::rt_test::SameValue(spr[i], bit0 ? a[i] : b[i])) << i;
    }
  }
}

TEST(SelectTest, AllModes) {
  CheckSelect<float>();
  CheckSelect<half>();
}

TEST(SelectTest, CompareThenSelectIsAWhere) {
  const uint32_t n = 128;
  auto a = RandomVec<float>(n, -5, 5, 3);
  auto b = RandomVec<float>(n, -5, 5, 4);
  std::vector<float> out(n);
  const auto r = af::rt_test::RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TQue<AscendC::TPosition::VECIN, 1> qa;
        AscendC::TQue<AscendC::TPosition::VECIN, 1> qb;
        AscendC::TBuf<AscendC::TPosition::VECCALC> bm;
        AscendC::TQue<AscendC::TPosition::VECOUT, 1> qo;
        pipe.InitBuffer(qa, 1, n * 4);
        pipe.InitBuffer(qb, 1, n * 4);
        pipe.InitBuffer(bm, n / 8);
        pipe.InitBuffer(qo, 1, n * 4);
        auto la = qa.AllocTensor<float>();
        auto lb = qb.AllocTensor<float>();
        af::rt_test::Load(la, a.data(), n);
        af::rt_test::Load(lb, b.data(), n);
        auto m = bm.Get<uint8_t>();
        AscendC::Compare(m, la, lb, CMPMODE::GT, n);
        auto lo = qo.AllocTensor<float>();
        AscendC::Select(lo, m, la, lb, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);  // max(a, b)
        af::rt_test::Store(out.data(), lo, n);
        qa.FreeTensor(la);
        qb.FreeTensor(lb);
        qo.FreeTensor(lo);
      },
      {af::rt_test::GmOf(a), af::rt_test::GmOf(b), af::rt_test::GmOf(out)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (uint32_t i = 0; i < n; ++i)
    EXPECT_EQ(out[i], std::max(a[i], b[i]));
}

// Reference pairwise sum inside each 256-byte repeat, repeats added in order (in T precision).
template <typename T>
T RefReduceSum(const std::vector<T>& v) {
  const size_t per = 256 / sizeof(T);
  T acc = T(0);
  for (size_t base = 0; base < v.size(); base += per) {
    std::vector<float> w(per, 0.0f);
    for (size_t i = 0; i < per && base + i < v.size(); ++i)
      w[i] = static_cast<float>(v[base + i]);
    for (size_t width = per; width > 1; width /= 2) {
      for (size_t i = 0; i < width / 2; ++i)
        w[i] = w[2 * i] + w[2 * i + 1];
    }
    const T part = T(w[0]);
    acc = base == 0 ? part : T(static_cast<float>(acc) + static_cast<float>(part));
  }
  return acc;
}

template <typename T>
void CheckReduce() {
  for (uint32_t n : af::rt_test::Counts()) {
    const auto a = RandomVec<T>(n, -50, 50, 9 * n);
    RunResult r;
    const auto sum = RunOp<T, T>(
        a, {}, 1,
        [&](auto& o, auto& x, auto& w) { AscendC::ReduceSum(o, x, w, static_cast<int32_t>(n)); },
        &r);
    EXPECT_TRUE(af::rt_test::SameValue(sum[0], RefReduceSum(a))) << n;
    EXPECT_EQ(r.api["ReduceSum"].second, (n * sizeof(T) + 255) / 256);
    // Max/Min with the first index of the extremum, stored as raw integer bits.
    const auto mx = RunOp<T, T>(a, {}, 2, [&](auto& o, auto& x, auto& w) {
      AscendC::ReduceMax(o, x, w, static_cast<int32_t>(n), true);
    });
    const auto mn = RunOp<T, T>(a, {}, 2, [&](auto& o, auto& x, auto& w) {
      AscendC::ReduceMin(o, x, w, static_cast<int32_t>(n), true);
    });
    size_t imax = 0;
    size_t imin = 0;
    for (size_t i = 1; i < n; ++i) {
      if (static_cast<float>(a[i]) > static_cast<float>(a[imax])) imax = i;
      if (static_cast<float>(a[i]) < static_cast<float>(a[imin])) imin = i;
    }
    EXPECT_TRUE(af::rt_test::SameValue(mx[0], a[imax]));
    EXPECT_TRUE(af::rt_test::SameValue(mn[0], a[imin]));
    using Idx = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    Idx gi = 0;
    std::memcpy(&gi, &mx[1], sizeof(Idx));
    EXPECT_EQ(gi, imax);
    std::memcpy(&gi, &mn[1], sizeof(Idx));
    EXPECT_EQ(gi, imin);
  }
}

TEST(ReduceTest, ReduceFloat) {
  CheckReduce<float>();
}
TEST(ReduceTest, ReduceHalf) {
  CheckReduce<half>();
}

TEST(ReduceTest, TiesTakeTheSmallestIndex) {
  const std::vector<float> a = {1, 5, 3, 5, 5, -2, -2};
  const auto mx = RunOp<float, float>(
      a, {}, 2, [](auto& o, auto& x, auto& w) { AscendC::ReduceMax(o, x, w, 7, true); });
  uint32_t idx = 0;
  std::memcpy(&idx, &mx[1], 4);
  EXPECT_EQ(mx[0], 5.0f);
  EXPECT_EQ(idx, 1u);
  const auto mn = RunOp<float, float>(
      a, {}, 2, [](auto& o, auto& x, auto& w) { AscendC::ReduceMin(o, x, w, 7, true); });
  std::memcpy(&idx, &mn[1], 4);
  EXPECT_EQ(idx, 5u);
}

TEST(ReduceTest, WholeReducePerRepeat) {
  // 3 repeats of 64 floats; contiguous mask 40; results packed (dstRepStride 1).
  auto a = RandomVec<float>(192, -10, 10, 5);
  for (int r = 0; r < 3; ++r)
    a[r * 64 + 10 + r] = a[r * 64 + 30] = 50.0f;  // ties: first index wins
  const auto sums = RunOp<float, float>(
      a, {}, 3, [](auto& o, auto& x, auto&) { AscendC::WholeReduceSum(o, x, 40, 3, 1, 1, 8); });
  const auto maxs = RunOp<float, float>(
      a, {}, 6, [](auto& o, auto& x, auto&) { AscendC::WholeReduceMax(o, x, 40, 3, 1, 1, 8); });
  const uint64_t bits[2] = {0xF0F0F0F0F0F0F0F0ull, 0};
  const auto mins = RunOp<float, float>(a, {}, 3, [&](auto& o, auto& x, auto&) {
    AscendC::WholeReduceMin(o, x, bits, 3, 1, 1, 8, AscendC::ReduceOrder::ORDER_ONLY_VALUE);
  });
  const auto rr = RunOp<float, float>(a, {}, 6, [](auto& o, auto& x, auto&) {
    AscendC::ReduceRepeat<AscendC::ReduceType::MAX, float>(o, x, 40, 3, 1, 1, 8);
  });
  EXPECT_EQ(rr, maxs);  // the newer name of WholeReduceMax
  for (int r = 0; r < 3; ++r) {
    std::vector<float> w(64, 0.0f);
    float best = a[r * 64];
    uint32_t bi = 0;
    float mbest = 1e9f;
    for (int i = 0; i < 64; ++i) {
      if (i < 40) {
        w[i] = a[r * 64 + i];
        if (a[r * 64 + i] > best) {
          best = a[r * 64 + i];
          bi = static_cast<uint32_t>(i);
        }
      }
      if (((bits[0] >> i) & 1) != 0) mbest = std::min(mbest, a[r * 64 + i]);
    }
    for (size_t width = 64; width > 1; width /= 2) {
      for (size_t i = 0; i < width / 2; ++i)
        w[i] = w[2 * i] + w[2 * i + 1];
    }
    EXPECT_EQ(sums[r], w[0]) << r;
    EXPECT_EQ(maxs[2 * r], best) << r;
    uint32_t idx = 0;
    std::memcpy(&idx, &maxs[2 * r + 1], 4);
    EXPECT_EQ(idx, bi) << r;
    EXPECT_EQ(mins[r], mbest) << r;
  }
}

}  // namespace

// ---- Pattern reductions (ReduceSum/Max/Min/Prod/Mean/Any/All with Pattern::Reduce::AR/RA).
namespace pattern_test {

using AscendC::Pattern::Reduce::AR;
using AscendC::Pattern::Reduce::RA;

// A [rows, cols] float block with rows padded to 8 elements.
std::vector<float> Block(uint32_t rows, uint32_t cols, uint32_t seed) {
  const uint32_t pitch = (cols + 7) / 8 * 8;
  auto v = RandomVec<float>(rows * pitch, -3, 3, seed);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = cols; c < pitch; ++c)
      v[r * pitch + c] = 1e30f;  // padding must be ignored
  }
  return v;
}

TEST(PatternReduceTest, ArReducesEachRowIgnoringPadding) {
  const uint32_t rows = 5;
  const uint32_t cols = 13;
  const uint32_t pitch = 16;
  const auto src = Block(rows, cols, 7);
  const uint32_t shape[2] = {rows, cols};
  const auto sum = RunOp<float, float>(src, {}, 8, [&](auto& o, auto& x, auto&) {
    AscendC::ReduceSum<float, AR>(o, x, shape, true);
  });
  const auto mx = RunOp<float, float>(src, {}, 8, [&](auto& o, auto& x, auto&) {
    AscendC::ReduceMax<float, AR>(o, x, shape, true);
  });
  const auto mean = RunOp<float, float>(src, {}, 8, [&](auto& o, auto& x, auto&) {
    AscendC::ReduceMean<float, AR>(o, x, shape, true);
  });
  for (uint32_t r = 0; r < rows; ++r) {
    double s = 0;
    float m = -1e38f;
    for (uint32_t c = 0; c < cols; ++c) {
      s += src[r * pitch + c];
      m = std::max(m, src[r * pitch + c]);
    }
    EXPECT_NEAR(sum[r], s, 1e-4) << r;
    EXPECT_EQ(mx[r], m) << r;
    EXPECT_NEAR(mean[r], s / cols, 1e-5) << r;
  }
}

TEST(PatternReduceTest, RaReducesColumns) {
  const uint32_t rows = 7;
  const uint32_t cols = 24;  // a whole number of blocks: the padded row
  const auto src = RandomVec<float>(rows * cols, 0.5, 1.5, 3);
  const uint32_t shape[2] = {rows, cols};
  const auto prod = RunOp<float, float>(src, {}, cols, [&](auto& o, auto& x, auto&) {
    AscendC::ReduceProd<float, RA>(o, x, shape, true);
  });
  const auto mn = RunOp<float, float>(src, {}, cols, [&](auto& o, auto& x, auto&) {
    AscendC::ReduceMin<float, RA>(o, x, shape, true);
  });
  for (uint32_t c = 0; c < cols; ++c) {
    double p = 1;
    float m = 1e38f;
    for (uint32_t r = 0; r < rows; ++r) {
      p *= src[r * cols + c];
      m = std::min(m, src[r * cols + c]);
    }
    EXPECT_NEAR(prod[c], p, 1e-4 * std::fabs(p)) << c;
    EXPECT_EQ(mn[c], m) << c;
  }
}

TEST(PatternReduceTest, AnyAllTreatNonZeroAsTrue) {
  std::vector<float> src(2 * 8, 0.0f);
  src[3] = 2.0f;                    // row 0: one true
  for (uint32_t c = 0; c < 8; ++c)  // row 1: all true
    src[8 + c] = -1.0f;
  const uint32_t shape[2] = {2, 8};
  const auto any = RunOp<float, float>(src, {}, 8, [&](auto& o, auto& x, auto&) {
    AscendC::ReduceAny<float, AR>(o, x, shape, true);
  });
  const auto all = RunOp<float, float>(src, {}, 8, [&](auto& o, auto& x, auto&) {
    AscendC::ReduceAll<float, AR>(o, x, shape, true);
  });
  EXPECT_EQ(any[0], 1.0f);
  EXPECT_EQ(any[1], 1.0f);
  EXPECT_EQ(all[0], 0.0f);
  EXPECT_EQ(all[1], 1.0f);
}

// Runs one pattern reduction on a 64-byte source and a 64-byte destination.
RunResult RunSmall(const uint32_t shape[2], bool pad) {
  return af::rt_test::RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> src;
        AscendC::TBuf<AscendC::TPosition::VECCALC> dst;
        pipe.InitBuffer(src, 64);
        pipe.InitBuffer(dst, 64);
        auto x = src.Get<float>();
        auto o = dst.Get<float>();
        AscendC::ReduceSum<float, AR>(o, x, shape, pad);
      },
      {});
}

TEST(PatternReduceTest, BlockPastTheSourceIsAViolation) {
  const uint32_t shape[2] = {3, 5};  // 3 padded rows of 8 floats: 96 bytes, the source has 64
  const RunResult r = RunSmall(shape, true);
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("ReduceSum: src accesses UB bytes [0, 96)"), std::string::npos) << r.error;
}

TEST(PatternReduceTest, UnpaddedInnerDimMustBeWholeBlocks) {
  const uint32_t shape[2] = {1, 5};
  const RunResult r = RunSmall(shape, false);
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("srcInnerPad"), std::string::npos) << r.error;
}

}  // namespace pattern_test

// ---- Gather (the unaligned template's RemovePad).
namespace gather_test {

RunResult RunGather(const std::vector<uint32_t>& offsets, uint32_t count, std::vector<float>* out) {
  std::vector<float> src(16);
  for (uint32_t i = 0; i < 16; ++i)
    src[i] = static_cast<float>(i) + 0.5f;
  return af::rt_test::RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> bs;
        AscendC::TBuf<AscendC::TPosition::VECCALC> bo;
        AscendC::TBuf<AscendC::TPosition::VECCALC> bd;
        pipe.InitBuffer(bs, 64);
        pipe.InitBuffer(bo, 64);
        pipe.InitBuffer(bd, 64);
        auto s = bs.Get<float>();
        auto o = bo.Get<uint32_t>();
        auto d = bd.Get<float>();
        for (uint32_t i = 0; i < 16; ++i)
          s.SetValue(i, src[i]);
        for (uint32_t i = 0; i < offsets.size(); ++i)
          o.SetValue(i, offsets[i]);
        AscendC::Gather(d, s, o, 0u, count);
        for (uint32_t i = 0; i < count; ++i)
          out->push_back(d.GetValue(i));
      },
      {});
}

TEST(GatherTest, DropsRowPadding) {
  // Two padded rows of 8 floats holding 3 valid elements each -> 6 compact elements.
  const std::vector<uint32_t> off = {0, 4, 8, 32, 36, 40};
  std::vector<float> out;
  const RunResult r = RunGather(off, 6, &out);
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  EXPECT_EQ(out, (std::vector<float>{0.5f, 1.5f, 2.5f, 8.5f, 9.5f, 10.5f}));
}

TEST(GatherTest, OffsetsOutsideTheSourceAreViolations) {
  std::vector<float> out;
  const RunResult r = RunGather({0, 64}, 2, &out);
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("Gather: srcOffset[1] = byte 64 is outside src"), std::string::npos)
      << r.error;
  const RunResult m = RunGather({2}, 1, &out);
  EXPECT_EQ(m.status, AF_STATUS_VIOLATION);
  EXPECT_NE(m.error.find("not element-aligned"), std::string::npos) << m.error;
}

}  // namespace gather_test
