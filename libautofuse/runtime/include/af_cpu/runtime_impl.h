// The CPU runtime's out-of-line functions: the launcher (block threads, argument checks, counter
// sums), the block state and its violation messages, SyncAll, buffer carving and the declared
// kernel types. None depends on a kernel's types, yet together they are about half of what a
// kernel compile instantiates and generates (std::thread, std::function, maps, string streams).
//
// Two ways to build them (af_cpu/config.h, AF_CPU_RT):
//   - header only (default; CANN-style builds, the exported reproducers, the device check):
//     kernel_operator.h includes this file and every function is inline;
//   - prebuilt (-DAF_CPU_PREBUILT_RUNTIME): kernel_operator.h leaves this file out and the kernel
//     links an object built once from it (-DAF_CPU_RUNTIME_OBJECT as well). The toolchain's kernel
//     cache builds that object beside its precompiled kernel_operator.h (AF_KERNEL_PCH=1,
//     docs/toolchain.md), so each kernel compile generates only its own code.
// The declarations, with what each function is for, stay in the headers named in each section.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/cube.h"
#include "af_cpu/kernel_conventions.h"
#include "af_cpu/launch.h"
#include "af_cpu/launch_abi.h"
#include "af_cpu/pipe.h"
#include "af_cpu/sync.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

// ---- af_cpu/context.h: block state, violations, GM bounds

AF_CPU_RT ApiStat& BlockCounters::Api(const char* name) {
  for (ApiStat& a : api) {
    if (a.name == name) return a;  // string literals are usually merged: pointer hit
  }
  for (ApiStat& a : api) {
    if (std::strcmp(a.name, name) == 0) return a;
  }
  api.push_back(ApiStat{name, 0, 0});
  return api.back();
}

AF_CPU_RT void LaunchState::RecordError(const std::string& msg, int block) {
  {
    std::lock_guard<std::mutex> lk(err_mu);
    if (first_error.empty()) {
      first_error = msg;
      failed_block = block;
    }
  }
  abort_flag = true;
  std::lock_guard<std::mutex> lk(mu);
  aborted = true;
  cv.notify_all();
}

AF_CPU_RT std::string BlockPrefix(const BlockCtx& c) {
  std::ostringstream os;
  os << "kernel '" << c.launch->kernel_name << "' ";
  if (c.launch->aiv_ratio != 0) {
    const uint32_t n = c.aic ? c.launch->block_dim : c.launch->block_dim * c.launch->aiv_ratio;
    os << (c.aic ? "AIC " : "AIV ") << c.block_idx << "/" << n;
  } else {
    os << "block " << c.block_idx << "/" << c.launch->block_dim;
  }
  return os.str();
}

[[noreturn]] AF_CPU_RT void Fail(const char* api, const std::string& what) {
  std::string msg;
  if (g_block != nullptr) msg = BlockPrefix(*g_block) + ": ";
  msg += api;
  msg += ": ";
  msg += what;
  throw Violation(msg);
}

AF_CPU_RT BlockCtx& Ctx(const char* api) {
  if (g_block == nullptr) {
    throw Violation(std::string(api) + ": AscendC API called outside af_cpu::Launch");
  }
  return *g_block;
}

AF_CPU_RT void CheckGm(const char* api, const char* operand, const void* p, uint64_t bytes,
                       bool write) {
  if (bytes == 0) return;
  const BlockCtx& c = Ctx(api);
  const auto a = reinterpret_cast<uintptr_t>(p);
  for (const GmRegion& r : c.launch->gm) {
    if (a >= r.begin && a - r.begin <= r.size && bytes <= r.size - (a - r.begin)) return;
  }
  std::ostringstream os;
  os << "GM " << (write ? "write" : "read") << " of " << bytes << " bytes (" << operand << ") ";
  // Describe the access relative to the nearest buffer (within 1 MiB), else as a stray address.
  constexpr uint64_t kNear = uint64_t{1} << 20;
  const GmRegion* best = nullptr;
  for (const GmRegion& r : c.launch->gm) {
    if (a >= r.begin && a - r.begin <= r.size + kNear &&
        (best == nullptr || r.begin > best->begin)) {
      best = &r;
    }
  }
  const GmRegion* after = nullptr;
  for (const GmRegion& r : c.launch->gm) {
    if (a < r.begin && r.begin - a <= kNear && (after == nullptr || r.begin < after->begin)) {
      after = &r;
    }
  }
  if (best != nullptr) {
    os << "at offset " << (a - best->begin) << " of " << best->name << " (" << best->size
       << " bytes) runs out of bounds: bytes [" << (a - best->begin) << ", "
       << (a - best->begin + bytes) << ")";
  } else if (after != nullptr) {
    os << "starts " << (after->begin - a) << " bytes before " << after->name << " (" << after->size
       << " bytes)";
  } else {
    os << "at address " << p << " is outside every registered GM buffer";
  }
  Fail(api, os.str());
}

// ---- af_cpu/kernel_conventions.h: declared kernel types

AF_CPU_RT KernelTypes& DeclaredKernelTypes() {
  static KernelTypes types;
  return types;
}

AF_CPU_RT bool DeclareKernelType(KernelMetaType type) {
  KernelTypes& t = DeclaredKernelTypes();
  const std::lock_guard<std::mutex> lk(t.mu);
  t.default_type = type;
  return true;
}

AF_CPU_RT bool DeclareKernelType(uint64_t key, KernelMetaType type) {
  KernelTypes& t = DeclaredKernelTypes();
  const std::lock_guard<std::mutex> lk(t.mu);
  t.per_key[key] = type;
  return true;
}

AF_CPU_RT KernelMetaType KernelTypeOf(uint64_t key) {
  KernelTypes& t = DeclaredKernelTypes();
  const std::lock_guard<std::mutex> lk(t.mu);
  const auto it = t.per_key.find(key);
  return it != t.per_key.end() ? it->second : t.default_type;
}

AF_CPU_RT void CheckHardSyncAllowed(const char* api) {
  const BlockCtx& c = Ctx(api);
  const KernelMetaType type = KernelTypeOf(c.launch->tiling_key);
  if (!HasHardSync(type)) {
    Fail(api, std::string("hard SyncAll() in a kernel whose type is ") +
                  (type == KERNEL_TYPE_MAX ? "not declared" : "not a mixed type") +
                  ": declare KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIV_1_0) (an AIV-only kernel "
                  "has no hardware all-core sync and can hang on the device)");
  }
}

// ---- af_cpu/pipe.h: UB carving and queue bookkeeping

AF_CPU_RT uint64_t CarveUb(const char* api, AscendC::TPosition pos, uint32_t num, uint32_t len,
                           uint64_t* slot_len) {
  BlockCtx& c = Enter(api);
  if (!IsUbPosition(pos)) {
    Fail(api, std::string("buffer position ") + AscendC::PositionName(pos) +
                  " is not modelled: the CPU runtime only has the Unified Buffer");
  }
  if (c.aic) {
    Fail(api,
         "an AIC core has no Unified Buffer: vector buffers belong in the AIV part of a "
         "cube + vector kernel (if ASCEND_IS_AIV)");
  }
  if (num == 0) Fail(api, "num must be at least 1");
  if (c.buffers + num > kMaxBuffers) {
    std::ostringstream os;
    os << "more than " << kMaxBuffers << " buffers in one kernel (" << c.buffers
       << " already allocated, " << num << " requested)";
    Fail(api, os.str());
  }
  *slot_len = AlignUp(len, kBlockBytes);
  const uint64_t need = *slot_len * num;
  const uint64_t at = c.ub_cursor;
  if (need > c.ub_size || at > c.ub_size - need) {
    std::ostringstream os;
    os << "UB over capacity: num=" << num << " x len=" << len << " (" << need
       << " bytes, 32-byte aligned) at UB offset " << at << " ends at byte " << at + need
       << " but the UB has " << c.ub_size << " bytes";
    Fail(api, os.str());
  }
  c.ub_cursor = at + need;
  if (c.ub_cursor > c.ub_peak) c.ub_peak = c.ub_cursor;
  c.buffers += num;
  return at;
}

AF_CPU_RT void QueueCore::Init(uint8_t* ub, uint64_t base, uint32_t num, uint64_t slot_len,
                               AscendC::TPosition pos) {
  ub_ = ub;
  pos_ = pos;
  slots_.clear();
  fifo_.clear();
  next_ = 0;
  for (uint32_t i = 0; i < num; ++i)
    slots_.push_back(Slot{base + i * slot_len, slot_len, State::kFree});
}

// ---- af_cpu/cube.h: cube memories

AF_CPU_RT CubeArena& Arena(BlockCtx& c, CubeMem m) {
  CubeArena& a = c.cube[static_cast<int>(m)];
  if (a.bytes.empty()) {
    a.bytes.assign(CubeMemBytes(m) + 1024, kUbPoison);
    const auto raw = reinterpret_cast<uintptr_t>(a.bytes.data());
    a.base = a.bytes.data() + (AlignUp(raw, 1024) - raw);
  }
  return a;
}

AF_CPU_RT uint64_t CarveCube(const char* api, AscendC::TPosition pos, uint32_t num, uint32_t len,
                             uint64_t* slot_len, uint8_t** base) {
  BlockCtx& c = Enter(api);
  CubeMem m = CubeMem::kL1;
  if (!CubeMemOf(pos, &m)) Fail(api, "position is not a cube memory");
  if (c.launch->aiv_ratio != 0 && !c.aic) {
    Fail(api, std::string("an AIV core has no ") + CubeMemName(m) +
                  ": cube buffers belong in the AIC part of a cube + vector kernel "
                  "(if ASCEND_IS_AIC)");
  }
  if (num == 0) Fail(api, "num must be at least 1");
  if (c.buffers + num > kMaxBuffers) {
    Fail(api, "more than " + std::to_string(kMaxBuffers) + " buffers in one kernel");
  }
  CubeArena& a = Arena(c, m);
  *slot_len = AlignUp(len, CubeMemAlign(m));
  const uint64_t need = *slot_len * num;
  const uint64_t at = AlignUp(a.cursor, CubeMemAlign(m));
  const uint64_t size = CubeMemBytes(m);
  if (need > size || at > size - need) {
    std::ostringstream os;
    os << CubeMemName(m) << " over capacity: num=" << num << " x len=" << len << " (" << need
       << " bytes, " << CubeMemAlign(m) << "-byte aligned) at " << CubeMemName(m) << " offset "
       << at << " ends at byte " << at + need << " but the " << CubeMemName(m) << " has " << size
       << " bytes";
    Fail(api, os.str());
  }
  a.cursor = at + need;
  if (a.cursor > a.peak) a.peak = a.cursor;
  c.buffers += num;
  *base = a.base;
  return at;
}

// ---- af_cpu/sync.h: SyncAll

AF_CPU_RT void Barrier(const char* api, bool aiv_only) {
  BlockCtx& c = Enter(api);
  LaunchState& st = *c.launch;
  const bool mixed = st.aiv_ratio != 0;
  if (mixed && aiv_only && c.aic) {
    Fail(api,
         "SyncAll<true> (AIV cores only) called on an AIC core: a cube + vector kernel "
         "synchronises both kinds with SyncAll<false>()");
  }
  // Barrier 1 gathers the AIVs of a mixed launch; every other barrier takes all blocks.
  const int which = mixed && aiv_only ? 1 : 0;
  const uint32_t parties = which == 1 ? st.block_dim * st.aiv_ratio : st.logical_blocks;
  if (st.resident < st.logical_blocks) {
    std::ostringstream os;
    os << "SyncAll needs all " << st.logical_blocks << " blocks resident at once but only "
       << st.resident << " run concurrently (block_dim exceeds the concurrently runnable blocks)";
    Fail(api, os.str());
  }
  std::unique_lock<std::mutex> lk(st.mu);
  if (st.aborted) throw AbortSignal{};
  if (st.exited[which] > 0) {
    lk.unlock();
    std::ostringstream os;
    os << "SyncAll #" << c.sync_calls + 1 << " waits for " << st.exited[which]
       << " block(s) that already finished (every block must call SyncAll equally often)";
    Fail(api, os.str());
  }
  ++c.sync_calls;
  const uint64_t gen = st.generation[which];
  if (++st.arrived[which] == parties) {
    st.arrived[which] = 0;
    ++st.generation[which];
    st.cv.notify_all();
    return;
  }
  st.cv.wait(lk, [&] { return st.generation[which] != gen || st.aborted; });
  if (st.generation[which] == gen) throw AbortSignal{};
}

AF_CPU_RT void BlockFinished(BlockCtx& c) {
  LaunchState& st = *c.launch;
  uint32_t waiting = 0;
  {
    std::lock_guard<std::mutex> lk(st.mu);
    ++st.exited[0];
    if (!c.aic) ++st.exited[1];
    if (st.aborted) return;
    waiting = st.arrived[0] + (c.aic ? 0 : st.arrived[1]);
    if (waiting == 0) return;
  }
  std::ostringstream os;
  os << BlockPrefix(c) << ": SyncAll: the block finished after " << c.sync_calls
     << " SyncAll call(s) while " << waiting
     << " block(s) wait in the next one (every block must call SyncAll equally often)";
  st.RecordError(os.str(), static_cast<int>(c.core));
}

// ---- af_cpu/launch.h: the launcher

AF_CPU_RT void SetError(AfLaunchArgs* a, int32_t status, const std::string& msg) {
  a->status = status;
  const size_t n = std::min(msg.size(), sizeof(a->error) - 1);
  std::memcpy(a->error, msg.data(), n);
  a->error[n] = '\0';
}

AF_CPU_RT void ResetOutputs(AfLaunchArgs* a) {
  a->status = AF_STATUS_OK;
  a->failed_block = -1;
  a->error[0] = '\0';
  a->mte2_bytes = 0;
  a->mte3_bytes = 0;
  a->vec_repeats = 0;
  a->ub_peak_bytes = 0;
  a->api_counts_len = 0;
}

AF_CPU_RT std::string PrepareLaunch(const AfLaunchArgs* a, const char* default_name,
                                    LaunchState* st) {
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
  // A cube + vector type runs n AIC and n * ratio AIV blocks: the type the kernel declared for
  // this tiling key.
  const KernelMetaType type = KernelTypeOf(st->tiling_key);
  st->aiv_ratio = type == KERNEL_TYPE_MIX_AIC_1_2 ? 2 : type == KERNEL_TYPE_MIX_AIC_1_1 ? 1 : 0;
  st->logical_blocks = st->block_dim * (1 + st->aiv_ratio);
  st->resident = std::min(st->logical_blocks, cap);
  return "";
}

AF_CPU_RT int RunBlocks(AfLaunchArgs* a, const char* default_name,
                        const std::function<void()>& body) {
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
    std::mutex results_mu;
    std::atomic<uint32_t> next{0};
    auto worker = [&]() {
      try {
        std::vector<uint8_t> arena(st.ub_bytes + 64);
        const auto raw = reinterpret_cast<uintptr_t>(arena.data());
        uint8_t* ub = arena.data() + (AlignUp(raw, 64) - raw);
        for (;;) {
          const uint32_t l = next.fetch_add(1);
          if (l >= st.logical_blocks || st.abort_flag.load()) break;
          BlockCtx ctx;
          ctx.launch = &st;
          // A mixed launch: logical blocks [0, n * ratio) are the AIVs, then the n AICs.
          const uint32_t n_aiv = st.aiv_ratio != 0 ? st.block_dim * st.aiv_ratio : st.block_dim;
          ctx.aic = l >= n_aiv;
          ctx.block_idx = ctx.aic ? l - n_aiv : l;
          ctx.core = ctx.aic ? ctx.block_idx : (st.aiv_ratio != 0 ? l / st.aiv_ratio : l);
          ctx.sub_block = !ctx.aic && st.aiv_ratio != 0 ? l % st.aiv_ratio : 0;
          const uint32_t b = ctx.core;
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
          // Per AI Core: its AIC's and AIVs' counters together (one worker at a time).
          const std::lock_guard<std::mutex> lk(results_mu);
          BlockResult& r = results[b];
          r.mte2 += ctx.counters.mte2_bytes;
          r.mte3 += ctx.counters.mte3_bytes;
          r.repeats += ctx.counters.vec_repeats;
          r.ub_peak = std::max(r.ub_peak, ctx.ub_peak);
          for (const ApiStat& s : ctx.counters.api)
            r.api.push_back(s);
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

}  // namespace af_cpu

namespace AscendC {

// ---- af_cpu/pipe.h: TPipe

AF_CPU_RT TPipe::TPipe() {
  af_cpu::BlockCtx& c = af_cpu::Ctx("TPipe");
  start_ = c.ub_cursor;
  for (int m = 0; m < 4; ++m)
    cube_start_[m] = c.cube[m].cursor;
  buffers_start_ = c.buffers;
  c.pipe = this;
}

AF_CPU_RT void TPipe::Reset() {
  af_cpu::BlockCtx& c = af_cpu::Enter("TPipe::Reset");
  c.ub_cursor = start_;
  c.buffers = buffers_start_;
  for (int m = 0; m < 4; ++m)
    c.cube[m].cursor = cube_start_[m];
}

AF_CPU_RT void TPipe::Release() {
  af_cpu::BlockCtx* c = af_cpu::g_block;
  if (c == nullptr || !alive_) return;
  alive_ = false;
  if (c->ub_cursor > start_) c->ub_cursor = start_;
  if (c->buffers > buffers_start_) c->buffers = buffers_start_;
  for (int m = 0; m < 4; ++m) {
    if (c->cube[m].cursor > cube_start_[m]) c->cube[m].cursor = cube_start_[m];
  }
  if (c->pipe == this) c->pipe = nullptr;
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
