// Launching: hand-computed counters, SyncAll across concurrently running blocks, a double-buffered
// AscendC-style pipeline, the Launch() entry point with its argument checks, and UB poisoning.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "kernel_operator.h"
#include "runtime_test_util.h"

// A kernel with the generated-code signature, launched through af_cpu::Launch.
struct AfTestTiling {
  uint32_t n;
  float scale;
};

extern "C" __global__ __aicore__ void af_test_scale_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,
                                                           GM_ADDR tiling) {
  (void)workspace;
  AfTestTiling t;
  std::memcpy(&t, tiling, sizeof(t));
  AscendC::GlobalTensor<float> gx;
  AscendC::GlobalTensor<float> gy;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + AscendC::GetBlockIdx() * t.n, t.n);
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + AscendC::GetBlockIdx() * t.n, t.n);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b;
  pipe.InitBuffer(b, t.n * sizeof(float));
  auto l = b.Get<float>();
  AscendC::DataCopy(l, gx, t.n);
  AscendC::Muls(l, l, t.scale, static_cast<int32_t>(t.n));
  AscendC::DataCopy(gy, l, t.n);
}

namespace {

using namespace AscendC;  // NOLINT(google-build-using-namespace): kernel-style test code
using af::rt_test::GmOf;
using af::rt_test::RunKernel;

TEST(LaunchTest, CountersMatchHandComputedValues) {
  std::vector<float> x(512);
  std::iota(x.begin(), x.end(), 0.0f);
  std::vector<half> y(256);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TQue<TPosition::VECIN, 1> qi;
        TQue<TPosition::VECOUT, 1> qo;
        TBuf<TPosition::VECCALC> tmp;
        pipe.InitBuffer(qi, 1, 256 * sizeof(float));  // 1024 bytes
        pipe.InitBuffer(qo, 1, 100 * sizeof(half));   // 200 -> 224 bytes
        pipe.InitBuffer(tmp, 256 * sizeof(half));     // 512 bytes
        GlobalTensor<float> gx;
        GlobalTensor<half> gy;
        gx.SetGlobalBuffer(x.data() + GetBlockIdx() * 256, 256);
        gy.SetGlobalBuffer(y.data() + GetBlockIdx() * 100, 100);
        auto in = qi.AllocTensor<float>();
        DataCopy(in, gx, 256);  // MTE2: 1024 bytes
        qi.EnQue(in);
        auto t = qi.DeQue<float>();
        Muls(t, t, 0.01f, 256);  // 1024 bytes: 4 repeats
        Exp(t, t, 256);          // 4 repeats
        auto h = tmp.Get<half>();
        Cast(h, t, RoundMode::CAST_RINT, 256);  // wider type float: 4 repeats
        auto o = qo.AllocTensor<half>();
        Adds(o, h, half(1.0f), 100);  // 200 bytes: 1 repeat
        qo.EnQue(o);
        qi.FreeTensor(t);
        auto out = qo.DeQue<half>();
        DataCopyPad(gy, out, DataCopyExtParams(1, 100 * sizeof(half), 0, 0, 0));  // MTE3: 200
        qo.FreeTensor(out);
      },
      {GmOf(x), GmOf(y)}, 2);
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  EXPECT_EQ(r.mte2, 2u * 1024);
  EXPECT_EQ(r.mte3, 2u * 200);
  EXPECT_EQ(r.repeats, 2u * 13);
  EXPECT_EQ(r.block_mte2, (std::vector<uint64_t>{1024, 1024}));
  EXPECT_EQ(r.block_mte3, (std::vector<uint64_t>{200, 200}));
  EXPECT_EQ(r.block_repeats, (std::vector<uint64_t>{13, 13}));
  EXPECT_EQ(r.ub_peak, 1024u + 224 + 512);
  EXPECT_EQ(r.api.at("DataCopy"), std::make_pair(uint64_t{2}, uint64_t{0}));
  EXPECT_EQ(r.api.at("Muls"), std::make_pair(uint64_t{2}, uint64_t{8}));
  EXPECT_EQ(r.api.at("Cast"), std::make_pair(uint64_t{2}, uint64_t{8}));
  EXPECT_EQ(r.api.at("Adds"), std::make_pair(uint64_t{2}, uint64_t{2}));
  EXPECT_EQ(r.api.at("TQue::AllocTensor").first, 4u);
  EXPECT_EQ(r.api.at("TPipe::InitBuffer").first, 6u);
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 100; ++i) {
      const float want = static_cast<float>(
          half(static_cast<float>(half(std::exp(x[b * 256 + i] * 0.01f))) + 1.0f));
      ASSERT_EQ(static_cast<float>(y[b * 100 + i]), want) << b << " " << i;
    }
  }
}

// Phase 1 writes per-block partial sums to a workspace; after SyncAll every block reads all of
// them.
TEST(LaunchTest, SyncAllExchangesPartialsBetweenBlocks) {
  constexpr uint32_t kBlocks = 8;
  constexpr uint32_t kPer = 64;
  std::vector<float> x(kBlocks * kPer);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<float>(i % 17);
  const float total = std::accumulate(x.begin(), x.end(), 0.0f);
  for (int iteration = 0; iteration < 20; ++iteration) {
    std::vector<float> ws(kBlocks * 2, -1.0f);
    std::vector<float> out(kBlocks * 2, 0.0f);
    const auto r = RunKernel(
        [&] {
          KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0);
          TPipe pipe;
          TBuf<TPosition::VECCALC> b;
          TBuf<TPosition::VECCALC> w;
          pipe.InitBuffer(b, kPer * sizeof(float));
          pipe.InitBuffer(w, 32);
          const int64_t me = GetBlockIdx();
          GlobalTensor<float> gx;
          GlobalTensor<float> gws;
          GlobalTensor<float> go;
          gx.SetGlobalBuffer(x.data() + me * kPer, kPer);
          gws.SetGlobalBuffer(ws.data(), kBlocks * 2);
          go.SetGlobalBuffer(out.data(), kBlocks * 2);
          auto t = b.Get<float>();
          auto s = w.Get<float>();
          DataCopy(t, gx, kPer);
          ReduceSum(s, t, s, kPer);
          gws.SetValue(me, s.GetValue(0));
          SyncAll();
          float sum = 0;
          for (int64_t k = 0; k < GetBlockNum(); ++k)
            sum += gws.GetValue(k);
          go.SetValue(me, sum);
          // A second phase reuses the barrier: each block publishes its neighbour's value.
          gws.SetValue(kBlocks + me, gws.GetValue((me + 1) % kBlocks));
          SyncAll();
          go.SetValue(kBlocks + me, gws.GetValue(kBlocks + (me + 1) % kBlocks));
        },
        {GmOf(x), GmOf(ws), GmOf(out)}, kBlocks);
    ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
    for (uint32_t b = 0; b < kBlocks; ++b) {
      ASSERT_EQ(out[b], total) << "iteration " << iteration << " block " << b;
      ASSERT_EQ(out[kBlocks + b], ws[(b + 2) % kBlocks]) << b;
    }
    EXPECT_EQ(r.api.at("SyncAll").first, 2u * kBlocks);
  }
}

// The canonical AscendC vector kernel: tiles streamed through double-buffered queues.
TEST(LaunchTest, DoubleBufferedPipeline) {
  constexpr uint32_t kBlocks = 4;
  constexpr uint32_t kTile = 128;
  constexpr uint32_t kTiles = 10;
  const uint32_t total = kBlocks * kTile * kTiles;
  std::vector<half> x(total);
  std::vector<half> y(total);
  std::vector<half> z(total);
  for (uint32_t i = 0; i < total; ++i) {
    x[i] = half(static_cast<float>(i % 100) * 0.5f);
    y[i] = half(static_cast<float>(i % 7));
  }
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TQue<TPosition::VECIN, 2> qx;
        TQue<TPosition::VECIN, 2> qy;
        TQue<TPosition::VECOUT, 2> qz;
        pipe.InitBuffer(qx, 2, kTile * sizeof(half));
        pipe.InitBuffer(qy, 2, kTile * sizeof(half));
        pipe.InitBuffer(qz, 2, kTile * sizeof(half));
        const uint64_t base = GetBlockIdx() * kTile * kTiles;
        GlobalTensor<half> gx;
        GlobalTensor<half> gy;
        GlobalTensor<half> gz;
        gx.SetGlobalBuffer(x.data() + base, kTile * kTiles);
        gy.SetGlobalBuffer(y.data() + base, kTile * kTiles);
        gz.SetGlobalBuffer(z.data() + base, kTile * kTiles);
        for (uint32_t i = 0; i < kTiles; ++i) {
          auto lx = qx.AllocTensor<half>();
          auto ly = qy.AllocTensor<half>();
          DataCopy(lx, gx[i * kTile], kTile);
          DataCopy(ly, gy[i * kTile], kTile);
          qx.EnQue(lx);
          qy.EnQue(ly);
          auto ax = qx.DeQue<half>();
          auto ay = qy.DeQue<half>();
          auto lz = qz.AllocTensor<half>();
          Add(lz, ax, ay, kTile);
          qz.EnQue<half>(lz);
          qx.FreeTensor(ax);
          qy.FreeTensor(ay);
          auto oz = qz.DeQue<half>();
          DataCopy(gz[i * kTile], oz, kTile);
          qz.FreeTensor(oz);
        }
      },
      {GmOf(x), GmOf(y), GmOf(z)}, kBlocks);
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (uint32_t i = 0; i < total; ++i) {
    ASSERT_EQ(static_cast<float>(z[i]),
              static_cast<float>(half(static_cast<float>(x[i]) + static_cast<float>(y[i]))));
  }
  EXPECT_EQ(r.mte2, 2u * total * sizeof(half));
  EXPECT_EQ(r.mte3, uint64_t{total} * sizeof(half));
  EXPECT_EQ(r.repeats, uint64_t{kBlocks} * kTiles);  // one 256-byte repeat per tile
}

TEST(LaunchTest, LaunchEntryPointAndArgumentChecks) {
  std::vector<float> x(3 * 64, 2.0f);
  std::vector<float> y(3 * 64, 0.0f);
  std::vector<uint8_t> ws(64);
  AfTestTiling tiling{64, 1.5f};
  uint8_t* ptrs[] = {reinterpret_cast<uint8_t*>(x.data()), reinterpret_cast<uint8_t*>(y.data())};
  const uint64_t sizes[] = {x.size() * 4, y.size() * 4};
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = 3;
  a.ub_bytes = 192 * 1024;
  a.num_gm = 2;
  a.gm_ptrs = ptrs;
  a.gm_sizes = sizes;
  a.workspace = ws.data();
  a.workspace_size = ws.size();
  a.tiling = reinterpret_cast<uint8_t*>(&tiling);
  a.tiling_size = sizeof(tiling);
  ASSERT_EQ(af_cpu::Launch(af_test_scale_kernel, &a, "scale_kernel"), AF_STATUS_OK) << a.error;
  for (float v : y)
    EXPECT_EQ(v, 3.0f);
  EXPECT_EQ(a.mte2_bytes, 3u * 256);
  EXPECT_EQ(a.failed_block, -1);

  AfLaunchArgs bad = a;
  bad.num_gm = 3;
  EXPECT_EQ(af_cpu::Launch(af_test_scale_kernel, &bad, "scale_kernel"), AF_STATUS_BAD_ARGS);
  EXPECT_NE(std::string(bad.error).find(
                "takes 2 GM arguments before workspace and tiling but num_gm is 3"),
            std::string::npos)
      << bad.error;
  bad = a;
  bad.abi_version = 99;
  EXPECT_EQ(af_cpu::Launch(af_test_scale_kernel, &bad), AF_STATUS_BAD_ARGS);
  bad = a;
  bad.ub_bytes = 1000;
  EXPECT_EQ(af_cpu::Launch(af_test_scale_kernel, &bad), AF_STATUS_BAD_ARGS);
  bad = a;
  bad.block_dim = 0;
  EXPECT_EQ(af_cpu::Launch(af_test_scale_kernel, &bad), AF_STATUS_BAD_ARGS);
  bad = a;
  bad.tiling = nullptr;
  EXPECT_EQ(af_cpu::Launch(af_test_scale_kernel, &bad), AF_STATUS_BAD_ARGS);
  EXPECT_EQ(af_cpu::Launch(af_test_scale_kernel, nullptr), AF_STATUS_BAD_ARGS);

  // A tiling that makes the kernel read past its input is reported with the kernel's name.
  tiling.n = 72;
  ASSERT_EQ(af_cpu::Launch(af_test_scale_kernel, &a, "scale_kernel"), AF_STATUS_VIOLATION);
  EXPECT_NE(
      std::string(a.error).find("kernel 'scale_kernel' block 2/3: DataCopy: GM read of 288 bytes"),
      std::string::npos)
      << a.error;
}

TEST(LaunchTest, FewerThreadsThanBlocksAndUbPoison) {
  std::vector<uint32_t> seen(16, 0);
  const auto r = RunKernel(
      [&] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> b;
        pipe.InitBuffer(b, 32);
        auto t = b.Get<uint32_t>();
        seen[GetBlockIdx()] = t.GetValue(0);  // every block starts with poisoned UB
        Duplicate(t, 7u, 8);
        EXPECT_EQ(GetBlockNum(), 16);
      },
      {}, 16, af::rt_test::kUb, 1);
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (uint32_t v : seen)
    EXPECT_EQ(v, 0xFFFFFFFFu);
}

TEST(LaunchTest, ApiCountCapacityIsReported) {
  std::vector<AfApiCount> counts(1);
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = 1;
  a.ub_bytes = 1024;
  a.api_counts = counts.data();
  a.api_counts_cap = 1;
  const int st = af_cpu::RunBlocks(&a, "k", [] {
    (void)GetBlockIdx();
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    PipeBarrier<PIPE_V>();
  });
  ASSERT_EQ(st, AF_STATUS_OK) << a.error;
  EXPECT_EQ(a.api_counts_len, 2u);  // PipeBarrier and TPipe::InitBuffer
  EXPECT_STREQ(counts[0].name, "PipeBarrier");
  EXPECT_EQ(counts[0].calls, 1u);
}

}  // namespace
