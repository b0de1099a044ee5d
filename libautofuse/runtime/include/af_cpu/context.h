// Per-launch and per-block state of the CPU runtime: the registered GM buffers, the block's UB
// arena, the counters, and the violation mechanism (a rule broken by the kernel throws inside the
// block; the launcher turns it into status/error).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "af_cpu/config.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

// A hardware rule broken by the kernel. The message names kernel, block, API and offsets.
class Violation : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Unwinds a block whose launch was aborted by a violation in another block.
struct AbortSignal {};

inline constexpr uint64_t kBlockBytes = 32;    // one DataBlock
inline constexpr uint64_t kRepeatBytes = 256;  // one vector repeat
inline constexpr uint32_t kMaxBuffers = 64;    // InitBuffer limit per kernel
inline constexpr uint8_t kUbPoison = 0xFF;     // UB contents a block starts with (NaN / -1)

inline uint64_t AlignUp(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}
inline uint64_t CeilDiv(uint64_t v, uint64_t d) {
  return (v + d - 1) / d;
}

// One GM buffer the runner registered (an input/output, the workspace or the tiling data).
struct GmRegion {
  uintptr_t begin;
  uint64_t size;
  std::string name;
};

struct ApiStat {
  const char* name;
  uint64_t calls;
  uint64_t repeats;
};

struct BlockCounters {
  uint64_t mte2_bytes = 0;   // GM -> UB payload bytes (padding excluded)
  uint64_t mte3_bytes = 0;   // UB -> GM payload bytes
  uint64_t vec_repeats = 0;  // sum over vector API calls of ceil(bytes / 256)
  // The cube side (af_cpu/cube.h); carried out of a launch by the per-API counts.
  uint64_t mte1_bytes = 0;     // L1 -> L0A/L0B bytes (LoadData, 512 per fractal)
  uint64_t cube_fractals = 0;  // Mmad fractal steps: ceil(m/16) * ceil(n/16) * ceil(k/C0)
  uint64_t fix_bytes = 0;      // L0C -> GM payload bytes (Fixpipe)
  std::vector<ApiStat> api;

  // The counters of API `name`, added on its first call.
  ApiStat& Api(const char* name);
};

// Shared by all blocks of one launch.
struct LaunchState {
  std::string kernel_name;
  uint32_t block_dim = 1;
  uint32_t resident = 1;  // blocks that run concurrently (worker threads)
  // A cube + vector launch (KERNEL_TYPE_MIX_AIC_1_1 / _1_2): AIV cores per AI Core (1 or 2);
  // 0 for every other type, whose blocks all run as AI Vector cores. A mixed launch of block_dim
  // n runs n AIC blocks and n * aiv_ratio AIV blocks (CANN's MIX_AIC_1_2 block layout).
  uint32_t aiv_ratio = 0;
  uint32_t logical_blocks = 1;  // block_dim, or block_dim * (1 + aiv_ratio) when mixed
  uint64_t ub_bytes = 0;
  std::vector<GmRegion> gm;
  const uint8_t* tiling = nullptr;  // the launch's tiling data (GET_TILING_DATA reads it)
  uint64_t tiling_size = 0;
  uint64_t tiling_key = 0;  // TILING_KEY_VAR: from the tiling data's AfTilingHeader

  // SyncAll barriers: [0] all cores of the launch, [1] the AIV cores only (SyncAll<true> of a
  // mixed launch; for other launches every block is an AIV and [0] serves both).
  std::mutex mu;
  std::condition_variable cv;
  uint32_t arrived[2] = {0, 0};
  uint32_t exited[2] = {0, 0};
  uint64_t generation[2] = {0, 0};
  bool aborted = false;

  std::mutex atomic_mu;  // serialises atomic UB -> GM copies

  std::mutex err_mu;
  std::string first_error;
  int failed_block = -1;
  std::atomic<bool> abort_flag{false};

  // Keeps the launch's first error and wakes the blocks waiting in SyncAll so that they stop.
  void RecordError(const std::string& msg, int block);
};

enum class AtomicMode : uint8_t { kNone, kAdd, kMax, kMin };

// One cube memory of a block (L1, L0A, L0B, L0C: af_cpu/cube.h), allocated on first use.
struct CubeArena {
  std::vector<uint8_t> bytes;
  uint8_t* base = nullptr;  // 1024-byte aligned start inside `bytes`
  uint64_t cursor = 0;      // next free byte for InitBuffer
  uint64_t peak = 0;
};

// The state of the block running on this thread.
struct BlockCtx {
  LaunchState* launch = nullptr;
  uint32_t block_idx = 0;  // GetBlockIdx: per core kind ([0, n) AIC, [0, n * ratio) AIV)
  bool aic = false;        // an AI Cube core of a mixed launch
  uint32_t core = 0;       // the AI Core it belongs to (per-block counters are per AI Core)
  uint32_t sub_block = 0;  // GetSubBlockIdx: the AIV's index inside its AI Core
  uint8_t* ub = nullptr;
  uint64_t ub_size = 0;
  uint64_t ub_cursor = 0;  // next free UB byte for InitBuffer
  uint64_t ub_peak = 0;
  uint32_t buffers = 0;  // buffers handed out by InitBuffer
  uint32_t sync_calls = 0;
  AtomicMode atomic = AtomicMode::kNone;
  void* pipe = nullptr;                          // the live AscendC::TPipe, for GetTPipePtr
  std::map<std::pair<int, int>, int64_t> flags;  // (HardEvent, event id) -> pending SetFlag count
  BlockCounters counters;
  CubeArena cube[4];  // indexed by af_cpu::CubeMem
};

inline thread_local BlockCtx* g_block = nullptr;

// ASCEND_IS_AIV / ASCEND_IS_AIC: the kind of core running the block (outside a launch, and in
// every launch that is not a mixed cube + vector one, an AI Vector core).
__aicore__ inline bool CoreIsAiv() {
  return g_block == nullptr || !g_block->aic;
}

// "kernel '<name>' block i/n", the start of every violation message of the block.
AF_CPU_RT std::string BlockPrefix(const BlockCtx& c);

// Throws the violation for the current block: "<kernel> block i/n: <api>: <what>".
[[noreturn]] AF_CPU_RT void Fail(const char* api, const std::string& what);

// The running block's state; a violation when called outside a launch.
AF_CPU_RT BlockCtx& Ctx(const char* api);

// Enters an API call: counts it and returns the block state.
inline BlockCtx& Enter(const char* api) {
  BlockCtx& c = Ctx(api);
  ++c.counters.Api(api).calls;
  return c;
}

// Counts the repeats of one vector instruction sequence over `bytes` bytes.
inline void AddRepeats(BlockCtx& c, const char* api, uint64_t bytes) {
  const uint64_t r = CeilDiv(bytes, kRepeatBytes);
  c.counters.vec_repeats += r;
  c.counters.Api(api).repeats += r;
}

// Checks that [p, p + bytes) lies inside one registered GM buffer.
AF_CPU_RT void CheckGm(const char* api, const char* operand, const void* p, uint64_t bytes,
                       bool write);

}  // namespace af_cpu

AF_CPU_HIDDEN_END
