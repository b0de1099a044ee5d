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

AF_CPU_RT void SetError(AfLaunchArgs* a, int32_t status, const std::string& msg);

AF_CPU_RT void ResetOutputs(AfLaunchArgs* a);

struct BlockResult {
  uint64_t mte2 = 0;
  uint64_t mte3 = 0;
  uint64_t repeats = 0;
  uint64_t ub_peak = 0;
  std::vector<ApiStat> api;
};

// Validates the arguments and registers the GM buffers; returns an error message or "".
AF_CPU_RT std::string PrepareLaunch(const AfLaunchArgs* a, const char* default_name,
                                    LaunchState* st);

// Runs `body` once per block (the block's identity is in thread-local state).
AF_CPU_RT int RunBlocks(AfLaunchArgs* a, const char* default_name,
                        const std::function<void()>& body);

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
