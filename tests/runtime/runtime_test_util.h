// Helpers for the CPU runtime tests: run a lambda as a kernel over registered GM buffers, and run a
// single vector API over host vectors (loaded and stored with DataCopyPad).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernel_operator.h"

namespace af::rt_test {

struct Gm {
  void* ptr;
  uint64_t bytes;
};

template <typename T>
Gm GmOf(std::vector<T>& v) {
  return Gm{v.data(), v.size() * sizeof(T)};
}

struct RunResult {
  int status = -1;
  int failed_block = -1;
  std::string error;
  uint64_t mte2 = 0;
  uint64_t mte3 = 0;
  uint64_t repeats = 0;
  uint64_t ub_peak = 0;
  std::vector<uint64_t> block_mte2;
  std::vector<uint64_t> block_mte3;
  std::vector<uint64_t> block_repeats;
  std::map<std::string, std::pair<uint64_t, uint64_t>> api;  // name -> (calls, repeats)
};

inline constexpr uint64_t kUb = 192 * 1024;

// Runs `body` once per block with `gm` registered as the kernel's GM buffers.
inline RunResult RunKernel(const std::function<void()>& body, std::vector<Gm> gm,
                           uint32_t block_dim = 1, uint64_t ub = kUb, uint32_t max_threads = 0) {
  std::vector<uint8_t*> ptrs;
  std::vector<uint64_t> sizes;
  for (const Gm& g : gm) {
    ptrs.push_back(static_cast<uint8_t*>(g.ptr));
    sizes.push_back(g.bytes);
  }
  RunResult r;
  r.block_mte2.assign(block_dim, 0);
  r.block_mte3.assign(block_dim, 0);
  r.block_repeats.assign(block_dim, 0);
  std::vector<AfApiCount> counts(64);
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = block_dim;
  a.ub_bytes = ub;
  a.num_gm = static_cast<uint32_t>(gm.size());
  a.max_threads = max_threads;
  a.gm_ptrs = ptrs.data();
  a.gm_sizes = sizes.data();
  a.kernel_name = "test_kernel";
  a.block_mte2_bytes = r.block_mte2.data();
  a.block_mte3_bytes = r.block_mte3.data();
  a.block_vec_repeats = r.block_repeats.data();
  a.api_counts = counts.data();
  a.api_counts_cap = static_cast<uint32_t>(counts.size());
  r.status = af_cpu::RunBlocks(&a, "test_kernel", body);
  r.failed_block = a.failed_block;
  r.error = a.error;
  r.mte2 = a.mte2_bytes;
  r.mte3 = a.mte3_bytes;
  r.repeats = a.vec_repeats;
  r.ub_peak = a.ub_peak_bytes;
  for (uint32_t i = 0; i < a.api_counts_len && i < counts.size(); ++i) {
    r.api[counts[i].name] = {counts[i].calls, counts[i].repeats};
  }
  return r;
}

inline uint32_t Align32(uint64_t bytes) {
  return static_cast<uint32_t>((bytes + 31) / 32 * 32);
}

// Loads GM vector `g` (n elements) into `dst` with one DataCopyPad row.
template <typename T>
void Load(const AscendC::LocalTensor<T>& dst, T* g, uint32_t n) {
  AscendC::GlobalTensor<T> gt;
  gt.SetGlobalBuffer(g, n);
  AscendC::DataCopyPad(dst, gt, AscendC::DataCopyExtParams(1, n * sizeof(T), 0, 0, 0),
                       AscendC::DataCopyPadExtParams<T>(false, 0, 0, T(0)));
}

template <typename T>
void Store(T* g, const AscendC::LocalTensor<T>& src, uint32_t n) {
  AscendC::GlobalTensor<T> gt;
  gt.SetGlobalBuffer(g, n);
  AscendC::DataCopyPad(gt, src, AscendC::DataCopyExtParams(1, n * sizeof(T), 0, 0, 0));
}

// Runs op(dst, src0, src1, n) inside a kernel; returns dst.
template <typename D, typename S, typename Op>
std::vector<D> RunOp(const std::vector<S>& a, const std::vector<S>& b, uint32_t n_out, Op op,
                     RunResult* result = nullptr) {
  std::vector<S> ga = a;
  std::vector<S> gb = b.empty() ? std::vector<S>(1) : b;
  std::vector<D> out(n_out);
  const auto na = static_cast<uint32_t>(a.size());
  const auto nb = static_cast<uint32_t>(b.size());
  RunResult r = RunKernel(
      [&] {
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> ba;
        AscendC::TBuf<AscendC::TPosition::VECCALC> bb;
        AscendC::TBuf<AscendC::TPosition::VECCALC> bo;
        pipe.InitBuffer(ba, Align32(na * sizeof(S)));
        pipe.InitBuffer(bb, Align32((nb == 0 ? 1 : nb) * sizeof(S)));
        pipe.InitBuffer(bo, Align32(n_out * sizeof(D)));
        auto la = ba.Get<S>();
        auto lb = bb.Get<S>();
        auto lo = bo.Get<D>();
        Load(la, ga.data(), na);
        if (nb > 0) Load(lb, gb.data(), nb);
        op(lo, la, lb);
        Store(out.data(), lo, n_out);
      },
      {GmOf(ga), GmOf(gb), GmOf(out)});
  EXPECT_EQ(r.status, AF_STATUS_OK) << r.error;
  if (result != nullptr) *result = r;
  return out;
}

// Bitwise equality that treats every NaN as equal to every NaN.
template <typename T>
bool SameValue(T x, T y) {
  if constexpr (af_cpu::kIsFloatLike<T>) {
    const float fx = static_cast<float>(x);
    const float fy = static_cast<float>(y);
    if (std::isnan(fx) || std::isnan(fy)) return std::isnan(fx) && std::isnan(fy);
    return std::memcmp(&x, &y, sizeof(T)) == 0 || (fx == 0.0f && fy == 0.0f && fx == fy);
  } else {
    return x == y;
  }
}

template <typename T>
std::vector<T> RandomVec(uint32_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (af_cpu::kIsFloatLike<T>) {
      x = T(d(rng));
    } else {
      x = static_cast<T>(static_cast<int64_t>(d(rng)));
    }
  }
  return v;
}

// Element counts the vector tests sweep: 1, primes, around the repeat size and beyond.
inline const std::vector<uint32_t>& Counts() {
  static const std::vector<uint32_t> kCounts = {1, 2, 7, 13, 63, 64, 65, 127, 128, 131, 257, 1021};
  return kCounts;
}

}  // namespace af::rt_test
