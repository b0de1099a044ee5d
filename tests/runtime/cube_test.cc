// The cube side of the CPU runtime (af_cpu/cube.h): a tiled matrix product through GM -> L1
// (Nd2Nz) -> L0A/L0B (LoadData) -> L0C (Mmad, accumulating over K chunks) -> GM (Fixpipe), in the
// shape of asc-devkit's matmul_basic_api sample, for fp16/bf16/fp32 operands with tails in M, N and
// K; the MTE2/MTE1/cube/FIX counters exactly; and each violation (capacity, position, alignment,
// quantisation mode, unmodelled options).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "kernel_operator.h"
#include "runtime_test_util.h"

namespace {

using namespace AscendC;  // NOLINT(google-build-using-namespace): kernel-style test code
using af::rt_test::GmOf;
using af::rt_test::RunKernel;

uint32_t Up16(uint32_t v) {
  return (v + 15) / 16 * 16;
}

struct Shape {
  uint32_t m, k, n, base_k;
  bool relu = false;
  bool b_transposed = false;  // B given as (N, K): its Nz blocks already are L0B fractals
};

// One block computes C (m x n) = A (m x k) * B (k x n), K in chunks of base_k (a multiple of 16).
template <typename T, typename O>
void GemmKernel(T* a, T* b, O* c, const Shape& s) {
  constexpr uint32_t c0 = 32 / sizeof(T);
  const uint32_t mp = Up16(s.m);
  const uint32_t np = Up16(s.n);
  const uint32_t kp = Up16(s.base_k);
  TPipe pipe;
  TQue<TPosition::A1, 1> qa1;
  TQue<TPosition::B1, 1> qb1;
  TQue<TPosition::A2, 1> qa2;
  TQue<TPosition::B2, 1> qb2;
  TQue<TPosition::CO1, 1> qc;
  pipe.InitBuffer(qa1, 1, mp * kp * uint32_t{sizeof(T)});
  pipe.InitBuffer(qb1, 1, kp * np * uint32_t{sizeof(T)});
  pipe.InitBuffer(qa2, 1, mp * kp * uint32_t{sizeof(T)});
  pipe.InitBuffer(qb2, 1, kp * np * uint32_t{sizeof(T)});
  pipe.InitBuffer(qc, 1, mp * np * uint32_t{sizeof(float)});
  GlobalTensor<T> ga;
  GlobalTensor<T> gb;
  GlobalTensor<O> gc;
  ga.SetGlobalBuffer(a, uint64_t{s.m} * s.k);
  gb.SetGlobalBuffer(b, uint64_t{s.k} * s.n);
  gc.SetGlobalBuffer(c, uint64_t{s.m} * s.n);
  LocalTensor<float> lc = qc.AllocTensor<float>();
  for (uint32_t k0 = 0; k0 < s.k; k0 += s.base_k) {
    const uint32_t kc = std::min(s.base_k, s.k - k0);
    const uint32_t kcb = (kc + c0 - 1) / c0;  // C0 blocks of this chunk
    LocalTensor<T> a1 = qa1.AllocTensor<T>();
    LocalTensor<T> b1 = qb1.AllocTensor<T>();
    DataCopy(a1, ga[k0], Nd2NzParams(1, s.m, kc, 0, s.k, mp, 1, 0));
    if (s.b_transposed) {
      DataCopy(b1, gb[k0], Nd2NzParams(1, s.n, kc, 0, s.k, np, 1, 0));
    } else {
      DataCopy(b1, gb[uint64_t{k0} * s.n], Nd2NzParams(1, kc, s.n, 0, s.n, Up16(kc), 1, 0));
    }
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    LocalTensor<T> a2 = qa2.AllocTensor<T>();
    LocalTensor<T> b2 = qb2.AllocTensor<T>();
    for (uint32_t i = 0; i < mp / 16; ++i) {
      LoadData(a2[i * kcb * 16 * c0], a1[i * 16 * c0],
               LoadData2DParams(0, kcb, mp / 16, 0, 0, false, 0));
    }
    if (s.b_transposed) {
      LoadData(b2, b1, LoadData2DParams(0, kcb * (np / 16), 1, 0, 0, false, 0));
    } else {
      for (uint32_t i = 0; i < Up16(kc) / 16; ++i) {
        LoadData(b2[i * np * 16], b1[i * 256],
                 LoadData2DParams(0, np / 16, Up16(kc) / 16, 0, 0, true, 0));
      }
    }
    qa1.FreeTensor(a1);
    qb1.FreeTensor(b1);
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(lc, a2, b2, MmadParams(s.m, s.n, kc, 0, false, k0 == 0));
    qa2.FreeTensor(a2);
    qb2.FreeTensor(b2);
  }
  SetFlag<HardEvent::M_FIX>(EVENT_ID0);
  WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
  const QuantMode_t q = std::is_same_v<O, half>         ? QuantMode_t::F322F16
                        : std::is_same_v<O, bfloat16_t> ? QuantMode_t::F322BF16
                                                        : QuantMode_t::NoQuant;
  Fixpipe(gc, lc, FixpipeParamsV220(s.n, s.m, mp, s.n, s.relu, q, 0, 1, 0, 0, 0));
  qc.FreeTensor(lc);
}

template <typename T, typename O>
void CheckGemm(const Shape& s) {
  std::mt19937 rng(s.m * 131 + s.k * 7 + s.n);
  std::uniform_real_distribution<float> u(-1.0F, 1.0F);
  std::vector<T> a(uint64_t{s.m} * s.k);
  std::vector<T> b(uint64_t{s.k} * s.n);
  for (T& v : a)
    v = static_cast<T>(u(rng));
  for (T& v : b)
    v = static_cast<T>(u(rng));
  std::vector<O> c(uint64_t{s.m} * s.n, static_cast<O>(0.0F));
  const auto r = RunKernel([&] { GemmKernel<T, O>(a.data(), b.data(), c.data(), s); },
                           {GmOf(a), GmOf(b), GmOf(c)});
  ASSERT_EQ(r.status, AF_STATUS_OK) << r.error;
  const double tol = std::is_same_v<O, float> ? 1e-5 : std::is_same_v<O, half> ? 2e-3 : 1.6e-2;
  for (uint32_t i = 0; i < s.m; ++i) {
    for (uint32_t j = 0; j < s.n; ++j) {
      double want = 0.0;
      for (uint32_t k = 0; k < s.k; ++k) {
        const T bv = s.b_transposed ? b[uint64_t{j} * s.k + k] : b[uint64_t{k} * s.n + j];
        want += static_cast<double>(static_cast<float>(a[uint64_t{i} * s.k + k])) *
                static_cast<double>(static_cast<float>(bv));
      }
      if (s.relu) want = std::max(want, 0.0);
      const double got = static_cast<float>(c[uint64_t{i} * s.n + j]);
      ASSERT_NEAR(got, want, tol * (1.0 + std::fabs(want)) * std::sqrt(double(s.k)))
          << "C[" << i << "][" << j << "]";
    }
  }
  // Counters: the model of this loop, fractal for fractal.
  constexpr uint32_t c0 = 32 / sizeof(T);
  uint64_t loads = 0;
  uint64_t steps = 0;
  for (uint32_t k0 = 0; k0 < s.k; k0 += s.base_k) {
    const uint32_t kc = std::min(s.base_k, s.k - k0);
    const uint64_t kcb = (kc + c0 - 1) / c0;
    loads += Up16(s.m) / 16 * kcb + (s.b_transposed ? kcb : Up16(kc) / 16) * (Up16(s.n) / 16);
    steps += uint64_t{Up16(s.m) / 16} * (Up16(s.n) / 16) * kcb;
  }
  EXPECT_EQ(r.mte2, (uint64_t{s.m} * s.k + uint64_t{s.k} * s.n) * uint32_t{sizeof(T)});
  EXPECT_EQ(r.mte3, 0U);
  EXPECT_EQ(r.repeats, 0U);  // no vector work
  EXPECT_EQ(r.api.at("LoadData").second, loads);
  EXPECT_EQ(r.api.at("Mmad").second, steps);
  EXPECT_EQ(r.api.at("Fixpipe").second, uint64_t{Up16(s.m) / 16} * (Up16(s.n) / 16));
}

TEST(CubeTest, HalfOneTileLikeTheSample) {
  CheckGemm<half, half>({32, 64, 48, 64});
}
TEST(CubeTest, HalfTailsInEveryDimAndKChunks) {
  CheckGemm<half, float>({37, 83, 29, 32});
}
TEST(CubeTest, Bf16WithReluToBf16) {
  CheckGemm<bfloat16_t, bfloat16_t>({17, 40, 33, 16, true});
}
TEST(CubeTest, FloatWithTransposedB) {
  CheckGemm<float, float>({20, 30, 18, 16, false, true});
}
TEST(CubeTest, SizeOneAndPrimeShapes) {
  CheckGemm<half, float>({1, 1, 1, 16});
  CheckGemm<half, float>({7, 13, 11, 16});
}

// A kernel breaking one rule, expected to fail with `what` in the message.
void ExpectViolation(const std::function<void()>& body, const std::string& what) {
  std::vector<float> g(4096, 0.0F);
  const auto r = RunKernel(body, {GmOf(g)});
  ASSERT_EQ(r.status, AF_STATUS_VIOLATION) << "no violation; expected: " << what;
  EXPECT_NE(r.error.find(what), std::string::npos) << r.error;
}

TEST(CubeTest, CapacityOfEachMemory) {
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::A2> l0a;
        pipe.InitBuffer(l0a, 64 * 1024 + 1);
      },
      "L0A over capacity");
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::A1> x;
        TBuf<TPosition::B1> y;
        pipe.InitBuffer(x, 256 * 1024);
        pipe.InitBuffer(y, 256 * 1024 + 32);  // A1 and B1 share the 512 KB L1
      },
      "L1 over capacity");
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::CO1> c;
        pipe.InitBuffer(c, af_cpu::kL0CBytes + 1);
      },
      "L0C over capacity");
  // Within capacity, and released with the pipe: a second pipe gets the memory again.
  std::vector<float> g(16);
  const auto r = RunKernel(
      [] {
        for (int i = 0; i < 2; ++i) {
          TPipe pipe;
          TBuf<TPosition::B2> l0b;
          pipe.InitBuffer(l0b, 64 * 1024);
        }
      },
      {GmOf(g)});
  EXPECT_EQ(r.status, AF_STATUS_OK) << r.error;
}

TEST(CubeTest, PositionsAlignmentAndModes) {
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::A1> l1;
        TBuf<TPosition::B2> l0b;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(l1, 4096);
        pipe.InitBuffer(l0b, 4096);
        pipe.InitBuffer(l0c, 4096);
        Mmad(l0c.Get<float>(), l1.Get<half>(), l0b.Get<half>(),
             MmadParams(16, 16, 16, 0, false, true));
      },
      "fm is in L1; this API takes it in L0A");
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::A1> l1;
        TBuf<TPosition::A2> l0a;
        pipe.InitBuffer(l1, 4096);
        pipe.InitBuffer(l0a, 4096);
        LoadData(l0a.Get<half>()[16], l1.Get<half>(), LoadData2DParams(0, 1, 1, 0, 0, false, 0));
      },
      "not 512-byte aligned");
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::A1> l1;
        TBuf<TPosition::B2> l0b;
        pipe.InitBuffer(l1, 4096);
        pipe.InitBuffer(l0b, 4096);
        LoadData(l0b.Get<float>(), l1.Get<float>(), LoadData2DParams(0, 1, 1, 0, 0, true, 0));
      },
      "ifTranspose transposes 16 x 16 fractals of 16-bit elements only");
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::A1> l1;
        TBuf<TPosition::A2> l0a;
        pipe.InitBuffer(l1, 1024);
        pipe.InitBuffer(l0a, 1024);
        LoadData(l0a.Get<half>(), l1.Get<half>(), LoadData2DParams(1, 2, 1, 0, 0, false, 0));
      },
      "src accesses");
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(l0c, 1024);
        std::vector<half> out(256);
        GlobalTensor<half> g;
        g.SetGlobalBuffer(out.data(), 256);
        Fixpipe(g, l0c.Get<float>(), FixpipeParamsV220(16, 16, 16, 16, false));
      },
      "quantPre 0 does not match");
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> ub;
        pipe.InitBuffer(ub, 1024);
        std::vector<half> in(256);
        GlobalTensor<half> g;
        g.SetGlobalBuffer(in.data(), 256);
        DataCopy(ub.Get<half>(), g, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
      },
      "dst is in the Unified Buffer; this API takes it in L1");
}

TEST(CubeTest, FixpipeWritesOnlyRegisteredGm) {
  ExpectViolation(
      [] {
        TPipe pipe;
        TBuf<TPosition::CO1> l0c;
        pipe.InitBuffer(l0c, 16 * 16 * 4);
        std::vector<float> host(256);  // not registered as a GM buffer
        GlobalTensor<float> g;
        g.SetGlobalBuffer(host.data(), 256);
        Fixpipe(g, l0c.Get<float>(), FixpipeParamsV220(16, 16, 16, 16, false));
      },
      "GM write");
}

}  // namespace
