// The kCommon cube + vector kernel shape on the CPU runtime, with the tiling of af_tiling/cube.h,
// launched as KERNEL_TYPE_MIX_AIC_1_2 (block_dim AIC cores, twice as many AIV cores): phase 1,
// each AIC computes its cube tiles (base M/N/K from SolveCube) and writes them to a GM workspace
// in fp32 through the fixpipe; SyncAll<false>() (AIC and AIV together); phase 2, each AIV runs
// the vector epilogue (bias add, ReLU, cast to fp16) over its rows of the workspace. This is the
// kernel the CV codegen is to emit (docs/schedule.md, "CV templates"); here it is written by hand
// to check the runtime and the tiling together: results against a double reference, the cube
// counters exactly against the tiling's model, the vector counters against their own count, and the
// solver's choices within the memories.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "af_tiling/cube.h"
#include "kernel_operator.h"
#include "runtime_test_util.h"

namespace {

using namespace AscendC;  // NOLINT(google-build-using-namespace): kernel-style test code
using af::rt_test::GmOf;
using af::rt_test::RunKernel;
using af_tiling::CubeProblem;
using af_tiling::CubeTiling;

// Declares the process's default kernel type for one scope (the kernel .so's
// KERNEL_TASK_TYPE_DEFAULT), restoring the previous one after.
class ScopedKernelType {
 public:
  explicit ScopedKernelType(KernelMetaType t) {
    af_cpu::KernelTypes& d = af_cpu::DeclaredKernelTypes();
    const std::lock_guard<std::mutex> lk(d.mu);
    old_ = d.default_type;
    d.default_type = t;
  }
  ~ScopedKernelType() {
    af_cpu::KernelTypes& d = af_cpu::DeclaredKernelTypes();
    const std::lock_guard<std::mutex> lk(d.mu);
    d.default_type = old_;
  }
  ScopedKernelType(const ScopedKernelType&) = delete;
  ScopedKernelType& operator=(const ScopedKernelType&) = delete;

 private:
  KernelMetaType old_ = KERNEL_TYPE_MAX;
};

uint32_t Up16(int64_t v) {
  return static_cast<uint32_t>((v + 15) / 16 * 16);
}

struct CvArgs {
  half* x1;
  half* x2;
  half* bias;
  half* y;
  float* ws;
  uint32_t m, n, k;
  CubeTiling t;
};

// Phase 1: tiles block_idx, block_idx + block_num, ... of the M x N grid.
void CubePhase(const CvArgs& a) {
  const auto bm = static_cast<uint32_t>(a.t.base_m);
  const auto bn = static_cast<uint32_t>(a.t.base_n);
  const auto bk = static_cast<uint32_t>(a.t.base_k);
  TPipe pipe;
  TQue<TPosition::A1, 1> qa1;
  TQue<TPosition::B1, 1> qb1;
  TQue<TPosition::A2, 1> qa2;
  TQue<TPosition::B2, 1> qb2;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa1, 1, bm * bk * uint32_t{sizeof(half)});
  pipe.InitBuffer(qb1, 1, bk * bn * uint32_t{sizeof(half)});
  pipe.InitBuffer(qa2, 1, bm * bk * uint32_t{sizeof(half)});
  pipe.InitBuffer(qb2, 1, bk * bn * uint32_t{sizeof(half)});
  pipe.InitBuffer(qc, 1, bm * bn * uint32_t{sizeof(float)});
  GlobalTensor<half> g1;
  GlobalTensor<half> g2;
  GlobalTensor<float> gw;
  g1.SetGlobalBuffer(a.x1, uint64_t{a.m} * a.k);
  g2.SetGlobalBuffer(a.x2, uint64_t{a.k} * a.n);
  gw.SetGlobalBuffer(a.ws, uint64_t{a.m} * a.n);
  const uint32_t tiles_n = (a.n + bn - 1) / bn;
  for (int64_t tile = GetBlockIdx(); tile < a.t.tiles; tile += GetBlockNum()) {
    const uint32_t m0 = static_cast<uint32_t>(tile / tiles_n) * bm;
    const uint32_t n0 = static_cast<uint32_t>(tile % tiles_n) * bn;
    const uint32_t tm = std::min(bm, a.m - m0);
    const uint32_t tn = std::min(bn, a.n - n0);
    LocalTensor<float> lc = qc.AllocTensor<float>();
    for (uint32_t k0 = 0; k0 < a.k; k0 += bk) {
      const uint32_t kc = std::min(bk, a.k - k0);
      const uint32_t kb = Up16(kc) / 16;
      LocalTensor<half> a1 = qa1.AllocTensor<half>();
      LocalTensor<half> b1 = qb1.AllocTensor<half>();
      DataCopy(a1, g1[uint64_t{m0} * a.k + k0], Nd2NzParams(1, tm, kc, 0, a.k, Up16(tm), 1, 0));
      DataCopy(b1, g2[uint64_t{k0} * a.n + n0], Nd2NzParams(1, kc, tn, 0, a.n, Up16(kc), 1, 0));
      SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
      WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
      LocalTensor<half> a2 = qa2.AllocTensor<half>();
      LocalTensor<half> b2 = qb2.AllocTensor<half>();
      for (uint32_t i = 0; i < Up16(tm) / 16; ++i) {
        LoadData(a2[i * kb * 256], a1[i * 256],
                 LoadData2DParams(0, kb, Up16(tm) / 16, 0, 0, false, 0));
      }
      for (uint32_t i = 0; i < kb; ++i) {
        LoadData(b2[i * Up16(tn) * 16], b1[i * 256],
                 LoadData2DParams(0, Up16(tn) / 16, kb, 0, 0, true, 0));
      }
      qa1.FreeTensor(a1);
      qb1.FreeTensor(b1);
      SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
      WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
      Mmad(lc, a2, b2, MmadParams(tm, tn, kc, 0, false, k0 == 0));
      qa2.FreeTensor(a2);
      qb2.FreeTensor(b2);
    }
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    Fixpipe(gw[uint64_t{m0} * a.n + n0], lc,
            FixpipeParamsV220(tn, tm, Up16(tm), a.n, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0));
    qc.FreeTensor(lc);
  }
}

// Phase 2: rows aiv_idx, aiv_idx + aiv_num, ... of the workspace: + bias, ReLU, -> fp16.
void VectorPhase(const CvArgs& a) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> brow;
  TBuf<TPosition::VECCALC> bbias;
  TBuf<TPosition::VECCALC> bh;
  const uint32_t row_bytes = af::rt_test::Align32(uint64_t{a.n} * sizeof(float));
  pipe.InitBuffer(brow, row_bytes);
  pipe.InitBuffer(bbias, row_bytes);
  pipe.InitBuffer(bh, af::rt_test::Align32(a.n * sizeof(half)));
  LocalTensor<float> row = brow.Get<float>();
  LocalTensor<float> bias = bbias.Get<float>();
  LocalTensor<half> h = bh.Get<half>();
  af::rt_test::Load(h, a.bias, a.n);
  Cast(bias, h, RoundMode::CAST_NONE, a.n);
  const auto aivs = static_cast<uint32_t>(GetBlockNum() * GetTaskRatio());
  for (auto r = static_cast<uint32_t>(GetBlockIdx()); r < a.m; r += aivs) {
    af::rt_test::Load(row, a.ws + uint64_t{r} * a.n, a.n);
    Add(row, row, bias, static_cast<int32_t>(a.n));
    Relu(row, row, static_cast<int32_t>(a.n));
    Cast(h, row, RoundMode::CAST_RINT, a.n);
    af::rt_test::Store(a.y + uint64_t{r} * a.n, h, a.n);
  }
}

void CheckCv(uint32_t m, uint32_t n, uint32_t k, uint32_t cores) {
  CubeProblem p;
  p.m = m;
  p.n = n;
  p.k = k;
  af_tiling::CubeHw hw;
  hw.cube_cores = cores;
  const CubeTiling t = af_tiling::SolveCube(p, hw);
  ASSERT_TRUE(t.feasible);
  ASSERT_TRUE(af_tiling::CubeFits(p, hw, t.base_m, t.base_n, t.base_k));
  std::mt19937 rng(m * 7 + n * 3 + k);
  std::uniform_real_distribution<float> u(-1.0F, 1.0F);
  std::vector<half> x1(uint64_t{m} * k);
  std::vector<half> x2(uint64_t{k} * n);
  std::vector<half> bias(n);
  for (half& v : x1)
    v = half(u(rng));
  for (half& v : x2)
    v = half(u(rng));
  for (half& v : bias)
    v = half(u(rng));
  std::vector<half> y(uint64_t{m} * n, half(0.0F));
  std::vector<float> ws(uint64_t{m} * n, 0.0F);
  CvArgs a{x1.data(), x2.data(), bias.data(), y.data(), ws.data(), m, n, k, t};
  const ScopedKernelType mixed(KERNEL_TYPE_MIX_AIC_1_2);  // cube + vector, hard SyncAll
  const auto r = RunKernel(
      [&] {
        if ASCEND_IS_AIC {
          CubePhase(a);
        }
        SyncAll<false>();
        if ASCEND_IS_AIV {
          VectorPhase(a);
        }
      },
      {GmOf(x1), GmOf(x2), GmOf(bias), GmOf(y), GmOf(ws)}, t.block_dim);
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      double want = static_cast<float>(bias[j]);
      for (uint32_t q = 0; q < k; ++q) {
        want += static_cast<double>(static_cast<float>(x1[uint64_t{i} * k + q])) *
                static_cast<float>(x2[uint64_t{q} * n + j]);
      }
      want = std::max(want, 0.0);
      ASSERT_NEAR(static_cast<float>(y[uint64_t{i} * n + j]), want, 2e-3 * (1.0 + std::fabs(want)))
          << "y[" << i << "][" << j << "] with base " << t.base_m << "x" << t.base_n << "x"
          << t.base_k;
    }
  }
  // Cube counters: exactly the tiling's model.
  EXPECT_EQ(r.api.at("LoadData").second, t.total.mte1_fractals);
  EXPECT_EQ(r.api.at("Mmad").second, t.total.cube_steps);
  EXPECT_EQ(r.api.at("Fixpipe").second, t.total.fix_fractals);
  EXPECT_EQ(r.api.at("Fixpipe").first, static_cast<uint64_t>(t.tiles));
  // MTE2: the cube's GM -> L1 bytes plus the epilogue's bias (once per AIV) and workspace rows.
  const uint64_t aivs = uint64_t{t.block_dim} * 2;
  const uint64_t vec_mte2 = aivs * n * 2 + uint64_t{m} * n * 4;
  EXPECT_EQ(r.mte2, t.total.mte2_bytes + vec_mte2);
  EXPECT_EQ(r.mte3, uint64_t{m} * n * 2);
  // Vector repeats: bias cast per AIV; Add, ReLU (fp32) and Cast (fp32 wide) per row.
  const uint64_t rep = (uint64_t{n} * 4 + 255) / 256;
  EXPECT_EQ(r.repeats, aivs * rep + uint64_t{m} * 3 * rep);
}

// A MIX_AIC_1_2 launch of block_dim n runs n AICs and 2n AIVs, each kind with its own block ids;
// each kind keeps to its own memories and barriers.
TEST(CubeCvTest, MixedLaunchRunsAicAndAivCores) {
  const ScopedKernelType mixed(KERNEL_TYPE_MIX_AIC_1_2);
  std::vector<int32_t> seen(9, -1);  // per AIV: its sub-block; then per AIC: 7
  const auto r = RunKernel(
      [&] {
        if ASCEND_IS_AIV {
          EXPECT_EQ(GetTaskRatio(), 2);
          seen.at(static_cast<std::size_t>(GetBlockIdx())) = static_cast<int32_t>(GetSubBlockIdx());
        }
        if ASCEND_IS_AIC {
          EXPECT_EQ(GetTaskRatio(), 1);
          seen.at(static_cast<std::size_t>(6 + GetBlockIdx())) = 7;
        }
        EXPECT_EQ(GetBlockNum(), 3);
        SyncAll<false>();
      },
      {}, 3);
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  EXPECT_EQ(seen, (std::vector<int32_t>{0, 1, 0, 1, 0, 1, 7, 7, 7}));
  for (int which = 0; which < 3; ++which) {
    const auto bad = RunKernel(
        [&] {
          TPipe pipe;
          if (which == 0 && ASCEND_IS_AIC) {
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 256);
          }
          if (which == 1 && ASCEND_IS_AIV) {
            TQue<TPosition::A1, 1> q;
            pipe.InitBuffer(q, 1, 512);
          }
          if (which == 2) SyncAll();  // AIV-only on the AIC too
        },
        {}, 2);
    EXPECT_EQ(bad.status, AF_STATUS_VIOLATION) << which;
    const char* want[] = {"AIC core has no Unified Buffer", "AIV core has no L1",
                          "SyncAll<true> (AIV cores only) called on an AIC core"};
    EXPECT_NE(bad.error.find(want[which]), std::string::npos) << bad.error;
  }
}

TEST(CubeCvTest, CommonTemplateOneCore) {
  CheckCv(24, 40, 56, 1);
}
TEST(CubeCvTest, CommonTemplateTailsOverCores) {
  CheckCv(97, 131, 70, 4);
}
TEST(CubeCvTest, CommonTemplateKPastOneChunk) {
  CheckCv(33, 17, 1031, 3);  // K > the largest base_k: several K chunks per tile
}

TEST(CubeTilingTest, BaseTilesFitEveryMemoryAndUseTheCores) {
  for (const af_tiling::CubeHw& hw : {af_tiling::CubeHw{}, af_tiling::CubeHw950()}) {
    for (uint32_t in : {2U, 4U}) {
      for (const auto& [m, n, k] : {std::tuple{1, 1, 1}, std::tuple{4096, 4096, 4096},
                                    std::tuple{197, 768, 3072}, std::tuple{8, 50000, 64}}) {
        CubeProblem p;
        p.m = m;
        p.n = n;
        p.k = k;
        p.in_bytes = in;
        const CubeTiling t = af_tiling::SolveCube(p, hw);
        ASSERT_TRUE(t.feasible);
        EXPECT_TRUE(af_tiling::CubeFits(p, hw, t.base_m, t.base_n, t.base_k));
        EXPECT_EQ(t.base_m % 16, 0);
        EXPECT_EQ(t.base_n % 16, 0);
        EXPECT_EQ(t.base_k % 16, 0);
        EXPECT_LE(t.block_dim, hw.cube_cores);
        EXPECT_EQ(t.block_dim, std::min<int64_t>(t.tiles, hw.cube_cores));
        // Every input byte is read at least once; A is re-read once per N tile and B per M tile.
        const auto tiles_m = static_cast<uint64_t>((m + t.base_m - 1) / t.base_m);
        const auto tiles_n = static_cast<uint64_t>((n + t.base_n - 1) / t.base_n);
        EXPECT_EQ(t.total.mte2_bytes, (uint64_t(m) * k * tiles_n + uint64_t(k) * n * tiles_m) * in);
      }
    }
  }
  // A large product fills the cores with big tiles; a tiny one stays on one core.
  CubeProblem big;
  big.m = big.n = big.k = 4096;
  const CubeTiling tb = af_tiling::SolveCube(big, af_tiling::CubeHw{});
  EXPECT_EQ(tb.block_dim, 24U);
  EXPECT_GE(tb.base_m * tb.base_n, 128 * 128);
  CubeProblem tiny;
  tiny.m = tiny.n = tiny.k = 16;
  EXPECT_EQ(af_tiling::SolveCube(tiny, af_tiling::CubeHw{}).block_dim, 1U);
  CubeProblem empty;
  EXPECT_FALSE(af_tiling::SolveCube(empty, af_tiling::CubeHw{}).feasible);
}

}  // namespace
