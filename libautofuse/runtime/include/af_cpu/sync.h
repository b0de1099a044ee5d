// Block identity and synchronisation: GetBlockIdx/GetBlockNum, PipeBarrier and SetFlag/WaitFlag
// (program order already serialises pipes on the CPU; flags are checked for a matching SetFlag),
// and SyncAll, a real barrier across all blocks of the launch; Trap(), which stops the kernel.
#pragma once

#include <cstdint>
#include <mutex>
#include <sstream>
#include <string>

#include "af_cpu/config.h"
#include "af_cpu/context.h"
#include "af_cpu/kernel_conventions.h"
#include "af_cpu/pipe.h"
#include "af_cpu/tensor.h"

AF_CPU_HIDDEN_BEGIN

namespace af_cpu {

// Waits until every block of the launch reached the same SyncAll (with aiv_only on a mixed
// launch: every AIV block; an AIC block calling it is a violation).
AF_CPU_RT void Barrier(const char* api, bool aiv_only = false);

// Called by the launcher when a block returns: blocks still waiting in SyncAll would hang.
AF_CPU_RT void BlockFinished(BlockCtx& c);

}  // namespace af_cpu

namespace AscendC {

__aicore__ inline int64_t GetBlockIdx() {
  return af_cpu::Ctx("GetBlockIdx").block_idx;
}
__aicore__ inline int64_t GetBlockNum() {
  return af_cpu::Ctx("GetBlockNum").launch->block_dim;
}
// The AIV's index inside its AI Core (0 or 1 under KERNEL_TYPE_MIX_AIC_1_2), 0 elsewhere.
__aicore__ inline int64_t GetSubBlockIdx() {
  return af_cpu::Ctx("GetSubBlockIdx").sub_block;
}
// AIV cores per AI Core on an AIV of a mixed launch (2 under KERNEL_TYPE_MIX_AIC_1_2), else 1:
// an AIV's GetBlockIdx runs over [0, GetBlockNum() * GetTaskRatio()).
__aicore__ inline int64_t GetTaskRatio() {
  const af_cpu::BlockCtx& c = af_cpu::Ctx("GetTaskRatio");
  return c.launch->aiv_ratio != 0 && !c.aic ? c.launch->aiv_ratio : 1;
}
// The older spelling of GetTaskRatio.
__aicore__ inline int64_t GetTaskRation() {
  return GetTaskRatio();
}

template <pipe_t pipe>
__aicore__ inline void PipeBarrier() {
  af_cpu::Enter("PipeBarrier");
}

template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID) {
  af_cpu::BlockCtx& c = af_cpu::Enter("SetFlag");
  ++c.flags[{static_cast<int>(event), eventID}];
}

template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID) {
  af_cpu::BlockCtx& c = af_cpu::Enter("WaitFlag");
  int64_t& pending = c.flags[{static_cast<int>(event), eventID}];
  if (pending <= 0) {
    af_cpu::Fail("WaitFlag", "event " + std::to_string(static_cast<int>(event)) + " id " +
                                 std::to_string(eventID) +
                                 " has no pending SetFlag (the pipe would wait forever)");
  }
  --pending;
}

// isAIVOnly = false: the cube + vector kernel's all-core sync (AIC and AIV cores together).
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
  af_cpu::CheckHardSyncAllowed("SyncAll");
  af_cpu::Barrier("SyncAll", isAIVOnly);
}

// Software SyncAll over a GM workspace; modelled as the same barrier across all blocks.
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace,
                               const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0) {
  af_cpu::BlockCtx& c = af_cpu::Ctx("SyncAll");
  af_cpu::CheckGm("SyncAll", "gmWorkspace", gmWorkspace.AfHostPtr(), sizeof(int32_t), true);
  ubWorkspace.AfCheckRange("SyncAll", "ubWorkspace", 0, sizeof(int32_t));
  if (usedCores != 0 && static_cast<uint32_t>(usedCores) != c.launch->block_dim) {
    af_cpu::Fail("SyncAll", "usedCores " + std::to_string(usedCores) +
                                " differs from block_dim (partial SyncAll is not modelled)");
  }
  if (!isAIVOnly) {
    af_cpu::Fail("SyncAll", "the soft SyncAll has no cube + vector form (isAIVOnly = false)");
  }
  af_cpu::Barrier("SyncAll", true);
}

// Trap(): the kernel stops here (on the device the core raises an exception). Generated kernels
// call it when a Gather index is out of range.
[[noreturn]] __aicore__ inline void Trap() {
  af_cpu::Fail("Trap", "the kernel called Trap(): a Gather index is outside the gathered dim");
}

}  // namespace AscendC

AF_CPU_HIDDEN_END
