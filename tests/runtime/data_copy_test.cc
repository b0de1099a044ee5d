// DataCopy (DataBlock granular, strided) and DataCopyPad (byte rows with GM byte strides, UB block
// strides, 32-byte row padding, left/right padding and the dummy fill) in both directions.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "kernel_operator.h"
#include "runtime_test_util.h"

namespace {

using namespace AscendC;  // NOLINT(google-build-using-namespace): kernel-style test code
using af::rt_test::GmOf;
using af::rt_test::RunKernel;

template <typename T>
std::vector<T> Iota(size_t n, T start = T(1)) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<T>(static_cast<int>(start) + static_cast<int>(i));
  return v;
}

// Snapshot of `bytes` UB bytes behind `t`, read with GetValue.
std::vector<uint8_t> UbBytes(const LocalTensor<uint8_t>& t, uint32_t bytes) {
  std::vector<uint8_t> v(bytes);
  for (uint32_t i = 0; i < bytes; ++i)
    v[i] = t.GetValue(i);
  return v;
}

TEST(DataCopyTest, ContiguousRoundTripAndCounters) {
  auto in = Iota<float>(256);
  std::vector<float> out(256, 0.0f);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, 1024);
        GlobalTensor<float> gi;
        GlobalTensor<float> go;
        gi.SetGlobalBuffer(in.data(), 256);
        go.SetGlobalBuffer(out.data(), 256);
        auto t = q.AllocTensor<float>();
        DataCopy(t, gi, 256);
        q.EnQue(t);
        auto u = q.DeQue<float>();
        DataCopy(go[64], u, 128);  // 512 bytes to GM offset 64
        q.FreeTensor(u);
      },
      {GmOf(in), GmOf(out)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (int i = 0; i < 256; ++i)
    EXPECT_EQ(out[i], (i >= 64 && i < 192) ? in[i - 64] : 0.0f) << i;
  EXPECT_EQ(r.mte2, 1024u);
  EXPECT_EQ(r.mte3, 512u);
  EXPECT_EQ(r.api.at("DataCopy").first, 2u);
}

// DataCopyParams: blockLen/srcStride/dstStride are DataBlocks on both sides.
TEST(DataCopyTest, StridedBlocks) {
  auto in = Iota<int32_t>(8 * 12);  // 12 DataBlocks of 8 int32
  std::vector<int32_t> out(8 * 12, -1);
  std::vector<int32_t> ub(8 * 12, 0);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 8 * 12 * 4);
        auto t = b.Get<int32_t>();
        Duplicate(t, 0, 8 * 12);
        GlobalTensor<int32_t> gi;
        GlobalTensor<int32_t> go;
        gi.SetGlobalBuffer(in.data());
        go.SetGlobalBuffer(out.data());
        // 3 rows of 2 blocks; GM rows 1 block apart (gap), UB rows 2 blocks apart.
        DataCopy(t, gi, DataCopyParams(3, 2, 1, 2));
        for (uint32_t i = 0; i < ub.size(); ++i)
          ub[i] = t.GetValue(i);
        // Back out: UB rows 2 blocks apart, GM rows packed (no gap).
        DataCopy(go, t, DataCopyParams(3, 2, 2, 0));
      },
      {GmOf(in), GmOf(out)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (int row = 0; row < 3; ++row) {
    for (int k = 0; k < 16; ++k) {
      const int32_t want = in[row * 24 + k];  // GM row pitch: 3 blocks = 24 elements
      EXPECT_EQ(ub[row * 32 + k], want);      // UB row pitch: 4 blocks = 32 elements
      EXPECT_EQ(out[row * 16 + k], want);
    }
    for (int k = 16; k < 32; ++k)
      EXPECT_EQ(ub[row * 32 + k], 0);  // the UB gap is untouched
  }
  EXPECT_EQ(out[48], -1);
  EXPECT_EQ(r.mte2, 3u * 64);
  EXPECT_EQ(r.mte3, 3u * 64);
}

// GM -> UB with byte strides in GM, block strides in UB, left/right padding and dummy fill.
TEST(DataCopyPadTest, GmToUbPaddingAndStrides) {
  auto in = Iota<half>(64);
  std::vector<half> ub(3 * 32);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 3 * 64);
        auto t = b.Get<half>();
        GlobalTensor<half> g;
        g.SetGlobalBuffer(in.data(), 64);
        // 3 rows of 7 halves (14 bytes), 3 halves (6 bytes) skipped in GM between rows; UB rows:
        // 2 left + 7 data + 3 right = 12 halves = 24 bytes -> 32 with 4 dummies, then 1 block gap.
        DataCopyPad(t, g, DataCopyExtParams(3, 14, 6, 1, 0),
                    DataCopyPadExtParams<half>(true, 2, 3, half(-9.0f)));
        for (uint32_t i = 0; i < ub.size(); ++i)
          ub[i] = t.GetValue(i);
      },
      {GmOf(in)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (int row = 0; row < 3; ++row) {
    const half* u = ub.data() + row * 32;  // 64-byte pitch
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ(static_cast<float>(u[k]), -9.0f);
    for (int k = 0; k < 7; ++k)
      EXPECT_EQ(static_cast<float>(u[2 + k]), static_cast<float>(in[row * 10 + k]));
    for (int k = 9; k < 16; ++k)
      EXPECT_EQ(static_cast<float>(u[k]), -9.0f) << k;  // right pad + dummy
    for (int k = 16; k < 32; ++k)
      EXPECT_EQ(u[k].ToBits(), 0xFFFF);  // gap keeps the UB poison
  }
  EXPECT_EQ(r.mte2, 3u * 14);  // payload only, padding excluded
}

TEST(DataCopyPadTest, DummyRepeatsFirstElementWithoutPaddingAndIsRandomOtherwise) {
  auto in = Iota<uint8_t>(200);
  std::vector<uint8_t> a;
  std::vector<uint8_t> b;
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        auto t = buf.Get<uint8_t>();
        GlobalTensor<uint8_t> g;
        g.SetGlobalBuffer(in.data(), 200);
        // 2 rows of 47 bytes, GM rows 1 byte apart, UB rows 1 block apart beyond 64 bytes.
        DataCopyPad(t, g, DataCopyExtParams(2, 47, 1, 1, 0),
                    DataCopyPadExtParams<uint8_t>(false, 0, 0, 0));
        a = UbBytes(t, 192);
        DataCopyPad(t, g, DataCopyExtParams(1, 40, 0, 0, 0),
                    DataCopyPadExtParams<uint8_t>(false, 4, 0, 0));
        b = UbBytes(t, 64);
      },
      {GmOf(in)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (int row = 0; row < 2; ++row) {
    const uint8_t* u = a.data() + row * 96;
    const uint8_t* src = in.data() + row * 48;
    for (int k = 0; k < 47; ++k)
      EXPECT_EQ(u[k], src[k]);
    for (int k = 47; k < 64; ++k)
      EXPECT_EQ(u[k], src[0]) << "dummy byte " << k;
  }
  for (int k = 0; k < 4; ++k)
    EXPECT_EQ(b[k], 0xFF);  // isPad=false: "random" (the poison)
  for (int k = 0; k < 40; ++k)
    EXPECT_EQ(b[4 + k], in[k]);
  for (int k = 44; k < 64; ++k)
    EXPECT_EQ(b[k], 0xFF);
}

// UB -> GM: UB rows start on 32-byte boundaries plus srcStride blocks; GM rows dstStride bytes
// apart.
TEST(DataCopyPadTest, UbToGmStrides) {
  std::vector<float> out(64, -1.0f);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 1024);
        auto t = buf.Get<float>();
        for (uint32_t i = 0; i < 256; ++i)
          t.SetValue(i, static_cast<float>(i));
        GlobalTensor<float> g;
        g.SetGlobalBuffer(out.data(), 64);
        // 3 rows of 5 floats (20 bytes -> 32-byte UB rows) + 1 block gap => UB pitch 16 floats;
        // GM rows 8 bytes apart => GM pitch 7 floats.
        DataCopyPad(g, t, DataCopyExtParams(3, 20, 1, 8, 0));
        // Old-style parameters, same semantics.
        DataCopyPad(g[40], t, DataCopyParams(2, 8, 0, 4));
      },
      {GmOf(out)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (int row = 0; row < 3; ++row) {
    for (int k = 0; k < 5; ++k)
      EXPECT_EQ(out[row * 7 + k], row * 16 + k);
    if (row < 2) {
      EXPECT_EQ(out[row * 7 + 5], -1.0f);
      EXPECT_EQ(out[row * 7 + 6], -1.0f);
    }
  }
  EXPECT_EQ(out[40], 0.0f);
  EXPECT_EQ(out[41], 1.0f);
  EXPECT_EQ(out[42], -1.0f);
  EXPECT_EQ(out[43], 8.0f);
  EXPECT_EQ(r.mte3, 3u * 20 + 2 * 8);
}

TEST(DataCopyPadTest, OldStylePaddingParams) {
  auto in = Iota<int16_t>(32);
  std::vector<int16_t> ub(16);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 64);
        auto t = buf.Get<int16_t>();
        GlobalTensor<int16_t> g;
        g.SetGlobalBuffer(in.data());
        DataCopyPad(t, g, DataCopyParams(1, 10, 0, 0), DataCopyPadParams(true, 1, 2, 0));
        for (uint32_t i = 0; i < 16; ++i)
          ub[i] = t.GetValue(i);
      },
      {GmOf(in)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  EXPECT_EQ(ub[0], 0);
  for (int k = 0; k < 5; ++k)
    EXPECT_EQ(ub[1 + k], in[k]);
  for (int k = 6; k < 16; ++k)
    EXPECT_EQ(ub[k], 0);  // right padding and dummy: paddingValue 0
}

TEST(DataCopyPadTest, PaddingLimitsAreChecked) {
  auto in = Iota<float>(64);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        auto t = buf.Get<float>();
        GlobalTensor<float> g;
        g.SetGlobalBuffer(in.data());
        DataCopyPad(t, g, DataCopyExtParams(1, 16, 0, 0, 0),
                    DataCopyPadExtParams<float>(true, 9, 0, 0.0f));  // 36 bytes > 32
      },
      {GmOf(in)});
  EXPECT_EQ(r.status, AF_STATUS_VIOLATION);
  EXPECT_NE(r.error.find("DataCopyPad: leftPadding 9 / rightPadding 0 elements exceed 32 bytes"),
            std::string::npos)
      << r.error;
  const auto r2 = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 256);
        auto t = buf.Get<float>();
        GlobalTensor<float> g;
        g.SetGlobalBuffer(in.data());
        DataCopyPad(t, g, DataCopyExtParams(1, 10, 0, 0, 0), DataCopyPadExtParams<float>());
      },
      {GmOf(in)});
  EXPECT_NE(r2.error.find("blockLen 10 bytes is not a multiple of sizeof(T) = 4"),
            std::string::npos)
      << r2.error;
}

TEST(DataCopyTest, AtomicAddAccumulatesAcrossBlocks) {
  std::vector<float> out(8, 1.0f);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 32);
        auto t = buf.Get<float>();
        Duplicate(t, static_cast<float>(GetBlockIdx() + 1), 8);
        GlobalTensor<float> g;
        g.SetGlobalBuffer(out.data(), 8);
        SetAtomicAdd<float>();
        DataCopy(g, t, 8);
        SetAtomicNone();
      },
      {GmOf(out)}, 4);
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (float v : out)
    EXPECT_EQ(v, 1.0f + 1 + 2 + 3 + 4);
}

}  // namespace
