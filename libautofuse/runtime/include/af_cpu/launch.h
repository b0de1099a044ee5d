// Launching a kernel on the CPU: registers the GM buffers of an AfLaunchArgs, runs block_dim blocks
// on worker threads (all concurrently up to max_threads, so SyncAll works), turns violations into
// status/error, and sums the counters. AF_DEFINE_LAUNCH(kernel) exports the C entry points.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <string>
#include <system_error>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/kernel_conventions.h"
#include "af_cpu/launch_abi.h"
#include "af_cpu/sync.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

inline constexpr uint32_t kDefaultMaxThreads = 256;
inline constexpr uint64_t kMaxUbBytes = uint64_t{16} << 20;

inline void SetError(AfLaunchArgs* a, int32_t status, const std::string& msg) {
  a->status = status;
  const size_t n = std::min(msg.size(), sizeof(a->error) - 1);
  std::memcpy(a->error, msg.data(), n);
  a->error[n] = '\0';
}

inline void ResetOutputs(AfLaunchArgs* a) {
  a->status = AF_STATUS_OK;
  a->failed_block = -1;
  a->error[0] = '\0';
  a->mte2_bytes = 0;
  a->mte3_bytes = 0;
  a->vec_repeats = 0;
  a->ub_peak_bytes = 0;
  a->api_counts_len = 0;
}

struct BlockResult {
  uint64_t mte2 = 0;
  uint64_t mte3 = 0;
  uint64_t repeats = 0;
  uint64_t ub_peak = 0;
  std::vector<ApiStat> api;
};

// Validates the arguments and registers the GM buffers; returns an error message or "".
inline std::string PrepareLaunch(const AfLaunchArgs* a, const char* default_name, LaunchState* st) {
  if (a->abi_version != AF_LAUNCH_ABI_VERSION) {
    return "abi_version " + std::to_string(a->abi_version) + " differs from the runtime's " +
           std::to_string(AF_LAUNCH_ABI_VERSION);
  }
  if (a->block_dim == 0) return "block_dim must be at least 1";
  if (a->ub_bytes == 0 || a->ub_bytes % kBlockBytes != 0 || a->ub_bytes > kMaxUbBytes) {
    return "ub_bytes " + std::to_string(a->ub_bytes) +
           " must be a positive multiple of 32 (<= 16 MiB)";
  }
  if (a->num_gm > 0 && (a->gm_ptrs == nullptr || a->gm_sizes == nullptr)) {
    return "gm_ptrs/gm_sizes are NULL but num_gm is " + std::to_string(a->num_gm);
  }
  st->kernel_name = a->kernel_name != nullptr ? a->kernel_name : default_name;
  st->block_dim = a->block_dim;
  st->ub_bytes = a->ub_bytes;
  const uint32_t cap = a->max_threads != 0 ? a->max_threads : kDefaultMaxThreads;
  st->resident = std::min(a->block_dim, cap);
  auto add = [st](const uint8_t* p, uint64_t size, const std::string& name) -> bool {
    if (p == nullptr) return size == 0;
    if (size > 0) st->gm.push_back(GmRegion{reinterpret_cast<uintptr_t>(p), size, name});
    return true;
  };
  for (uint32_t i = 0; i < a->num_gm; ++i) {
    if (!add(a->gm_ptrs[i], a->gm_sizes[i], "gm[" + std::to_string(i) + "]")) {
      return "gm_ptrs[" + std::to_string(i) + "] is NULL but its size is not 0";
    }
  }
  if (!add(a->workspace, a->workspace_size, "workspace")) return "workspace is NULL but sized";
  if (!add(a->tiling, a->tiling_size, "tiling")) return "tiling is NULL but sized";
  st->tiling = a->tiling;
  st->tiling_size = a->tiling_size;
  // The tiling key travels in the tiling data's header (AfTilingHeader), where our tiling
  // function writes it; CANN's launcher sets g_tilingKey from the host's SetTilingKey instead.
  if (a->tiling != nullptr && a->tiling_size >= sizeof(AfTilingHeader)) {
    AfTilingHeader h{};
    std::memcpy(&h, a->tiling, sizeof h);
    st->tiling_key = h.tiling_key;
  }
  return "";
}

// Runs `body` once per block (the block's identity is in thread-local state).
inline int RunBlocks(AfLaunchArgs* a, const char* default_name, const std::function<void()>& body) {
  if (a == nullptr) return AF_STATUS_BAD_ARGS;
  ResetOutputs(a);
  try {
    LaunchState st;
    const std::string bad = PrepareLaunch(a, default_name, &st);
    if (!bad.empty()) {
      SetError(a, AF_STATUS_BAD_ARGS, bad);
      return a->status;
    }
    std::vector<BlockResult> results(a->block_dim);
    std::atomic<uint32_t> next{0};
    auto worker = [&]() {
      try {
        std::vector<uint8_t> arena(st.ub_bytes + 64);
        const auto raw = reinterpret_cast<uintptr_t>(arena.data());
        uint8_t* ub = arena.data() + (AlignUp(raw, 64) - raw);
        for (;;) {
          const uint32_t b = next.fetch_add(1);
          if (b >= st.block_dim || st.abort_flag.load()) break;
          BlockCtx ctx;
          ctx.launch = &st;
          ctx.block_idx = b;
          ctx.ub = ub;
          ctx.ub_size = st.ub_bytes;
          std::memset(ub, kUbPoison, st.ub_bytes);
          g_block = &ctx;
          try {
            body();
          } catch (const Violation& v) {
            st.RecordError(v.what(), static_cast<int>(b));
          } catch (const AbortSignal&) {
          } catch (const std::exception& e) {
            st.RecordError(BlockPrefix(ctx) + ": unexpected exception: " + e.what(),
                           static_cast<int>(b));
          } catch (...) {
            st.RecordError(BlockPrefix(ctx) + ": unexpected non-standard exception",
                           static_cast<int>(b));
          }
          BlockFinished(ctx);
          g_block = nullptr;
          BlockResult& r = results[b];
          r.mte2 = ctx.counters.mte2_bytes;
          r.mte3 = ctx.counters.mte3_bytes;
          r.repeats = ctx.counters.vec_repeats;
          r.ub_peak = ctx.ub_peak;
          r.api = std::move(ctx.counters.api);
        }
      } catch (const std::exception& e) {
        g_block = nullptr;
        st.RecordError(std::string("runtime failure in a worker: ") + e.what(), -1);
      }
    };

    if (st.resident == 1) {
      worker();
    } else {
      std::vector<std::thread> threads;
      threads.reserve(st.resident);
      try {
        for (uint32_t i = 0; i < st.resident; ++i)
          threads.emplace_back(worker);
      } catch (const std::system_error& e) {
        st.RecordError(std::string("could not start worker threads: ") + e.what(), -1);
      }
      for (std::thread& t : threads)
        t.join();
    }

    std::map<std::string, std::pair<uint64_t, uint64_t>> api;
    for (uint32_t b = 0; b < a->block_dim; ++b) {
      const BlockResult& r = results[b];
      a->mte2_bytes += r.mte2;
      a->mte3_bytes += r.mte3;
      a->vec_repeats += r.repeats;
      a->ub_peak_bytes = std::max(a->ub_peak_bytes, r.ub_peak);
      if (a->block_mte2_bytes != nullptr) a->block_mte2_bytes[b] = r.mte2;
      if (a->block_mte3_bytes != nullptr) a->block_mte3_bytes[b] = r.mte3;
      if (a->block_vec_repeats != nullptr) a->block_vec_repeats[b] = r.repeats;
      if (a->block_ub_peak_bytes != nullptr) a->block_ub_peak_bytes[b] = r.ub_peak;
      for (const ApiStat& s : r.api) {
        auto& e = api[s.name];
        e.first += s.calls;
        e.second += s.repeats;
      }
    }
    a->api_counts_len = static_cast<uint32_t>(api.size());
    if (a->api_counts != nullptr) {
      uint32_t i = 0;
      for (const auto& [name, stat] : api) {
        if (i >= a->api_counts_cap) break;
        AfApiCount& out = a->api_counts[i++];
        const size_t n = std::min(name.size(), sizeof(out.name) - 1);
        std::memcpy(out.name, name.data(), n);
        out.name[n] = '\0';
        out.calls = stat.first;
        out.repeats = stat.second;
      }
    }
    if (!st.first_error.empty()) {
      // Violations always name their block; block -1 marks a failure of the runtime itself.
      SetError(a, st.failed_block >= 0 ? AF_STATUS_VIOLATION : AF_STATUS_INTERNAL, st.first_error);
      a->failed_block = st.failed_block;
    }
  } catch (const std::exception& e) {
    SetError(a, AF_STATUS_INTERNAL, std::string("runtime failure: ") + e.what());
  }
  return a->status;
}

inline uint8_t* KernelArg(const AfLaunchArgs* a, size_t i, size_t n) {
  if (i + 2 < n) return a->gm_ptrs[i];
  if (i + 2 == n) return a->workspace;
  return a->tiling;
}

template <typename... P, size_t... I>
inline void CallKernel(void (*kernel)(P...), const AfLaunchArgs* a, std::index_sequence<I...>) {
  kernel(KernelArg(a, I, sizeof...(P))...);
}

// Launches `kernel(gm_0, ..., gm_{num_gm-1}, workspace, tiling)` over the blocks of `a`.
template <typename... P>
inline int Launch(void (*kernel)(P...), AfLaunchArgs* a, const char* name = "kernel") {
  static_assert(sizeof...(P) >= 2,
                "a kernel takes (GM_ADDR..., GM_ADDR workspace, GM_ADDR tiling)");
  static_assert((std::is_same_v<P, uint8_t*> && ...), "kernel parameters must all be GM_ADDR");
  if (a == nullptr) return AF_STATUS_BAD_ARGS;
  if (a->num_gm + 2 != sizeof...(P)) {
    ResetOutputs(a);
    SetError(a, AF_STATUS_BAD_ARGS,
             std::string("kernel '") + name + "' takes " + std::to_string(sizeof...(P) - 2) +
                 " GM arguments before workspace and tiling but num_gm is " +
                 std::to_string(a->num_gm));
    return a->status;
  }
  return RunBlocks(a, name,
                   [kernel, a] { CallKernel(kernel, a, std::index_sequence_for<P...>{}); });
}

// inductor_npu_ext's AutofuseLaunch on the CPU: one launch of `kernel` with the wrapper's GM
// buffers, workspace and tiling data (sizes computed by the generated entry from the tiling data).
// The UB given to each block is the tiling's own UB total (rounded up to a DataBlock). A failure
// is printed to stderr, as the wrapper has no error text to read.
template <typename... P>
inline int64_t LaunchNpuExt(void (*kernel)(P...), const char* name, uint32_t block_dim,
                            uint8_t* const* gm, const uint64_t* gm_sizes, uint32_t num_gm,
                            uint8_t* workspace, uint64_t workspace_size, uint8_t* tiling,
                            uint64_t tiling_size, uint64_t ub_bytes) {
  AfLaunchArgs a{};
  a.abi_version = AF_LAUNCH_ABI_VERSION;
  a.block_dim = block_dim;
  a.ub_bytes = AlignUp(std::max<uint64_t>(ub_bytes, kBlockBytes), kBlockBytes);
  a.num_gm = num_gm;
  a.gm_ptrs = const_cast<uint8_t**>(gm);
  a.gm_sizes = gm_sizes;
  a.workspace = workspace;
  a.workspace_size = workspace != nullptr ? workspace_size : 0;
  a.tiling = tiling;
  a.tiling_size = tiling_size;
  a.kernel_name = name;
  const int rc = Launch(kernel, &a, name);
  if (rc != AF_STATUS_OK) std::fprintf(stderr, "[autofuse] AutofuseLaunch: %s\n", a.error);
  return rc;
}

}  // namespace af_cpu

AF_CPU_HIDDEN_END

// Defines the exported entry points of a kernel .so for `kernel`.
#define AF_DEFINE_LAUNCH(kernel)                           \
  extern "C" AF_EXPORT uint32_t af_abi_version(void) {     \
    return AF_LAUNCH_ABI_VERSION;                          \
  }                                                        \
  extern "C" AF_EXPORT int af_launch(AfLaunchArgs* args) { \
    return af_cpu::Launch(kernel, args, #kernel);          \
  }
