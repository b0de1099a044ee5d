// What the fusion decider and `afc estimate` assume about a device beyond the tiling's cost
// model: the clock that turns modeled cycles into time, the overhead of one kernel launch, and
// the global memory (HBM) a graph's live tensors must fit in. Each figure carries its source, or
// says it is an assumption where no public source gives it (docs/cost-model.md lists them).
#pragma once

#include <cstdint>
#include <string>

#include "autofuse/hw/profile.h"

namespace af::frontend {

struct DeviceFacts {
  double clock_ghz = 0;  // vector core clock
  std::string clock_source;
  double launch_us = 0;  // per-kernel launch overhead on top of the modeled cycles
  std::string launch_source;
  std::int64_t hbm_bytes = 0;  // global memory of one device (one die)
  std::string hbm_source;
};

// The facts for a profile (ascend910b, ascend910_93, ascend950); throws af::InputError for a
// profile without an entry.
const DeviceFacts& GetDeviceFacts(const hw::Profile& profile);

}  // namespace af::frontend
