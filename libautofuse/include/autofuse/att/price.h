// A hint graph's modeled time, as the compiler would tile it: schedule, then solve every case at
// bound sizes (no forced case) and take the chosen tiling's modeled cycles (summed over the
// groups of a multi-group kernel). The one pricing path
// for the fusion decider's gain check and `afc estimate`, so both price a kernel exactly as the
// per-kernel driver (pipeline/compile_kernel.h) compiles it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "af_tiling/elementwise.h"
#include "autofuse/hw/profile.h"
#include "autofuse/ir/graph.h"
#include "autofuse/sym/expr.h"

namespace af::att {

struct KernelPrice {
  std::optional<double> cycles;  // the chosen tiling's modeled cycles, when priced
  // A multi-group kernel (schedule/groups.h): `cycles` sums the groups' chosen tilings; each
  // barrier (a SyncAll before a group that reads the workspace) costs hw::kSyncAllAssumptionUs
  // more, which callers that turn cycles into time add.
  int groups = 1;
  int barriers = 0;
  std::vector<std::string> unbound;  // size symbols the bindings lack (then no cycles)
  std::string schedule_code;         // the schedule's refusal code, when it refused the graph
  std::string error;                 // why there is no price (schedule refusal or no tiling)
  bool Priced() const { return cycles.has_value(); }
};

// Never throws for a graph the schedule refuses or no case fits (see KernelPrice); other errors
// (a malformed flag in `options`' source) are the caller's.
KernelPrice PriceKernel(const ir::Graph& hint, const sym::Bindings& b, const hw::Profile& profile,
                        const af_tiling::SolverOptions& options);

}  // namespace af::att
