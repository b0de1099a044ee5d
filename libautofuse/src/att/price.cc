// A hint graph's modeled time (see price.h).
#include "autofuse/att/price.h"

#include <set>

#include "autofuse/att/cube.h"
#include "autofuse/att/tiling.h"
#include "autofuse/schedule/groups.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/support/error.h"

namespace af::att {

KernelPrice PriceKernel(const ir::Graph& hint, const sym::Bindings& b, const hw::Profile& profile,
                        const af_tiling::SolverOptions& options) {
  KernelPrice p;
  try {
    const schedule::GroupPartition part = schedule::PartitionGroups(hint);
    std::vector<schedule::ScheduleResult> scheds;
    if (part.groups.empty()) {
      scheds.push_back(schedule::Schedule(hint, profile));
    } else {
      scheds = schedule::ScheduleGroups(part, profile);
      p.groups = static_cast<int>(part.groups.size());
      for (const auto& g : part.groups)
        p.barriers += g.reads_workspace ? 1 : 0;
    }
    std::set<std::string> unbound;
    for (std::size_t q = 0; q < scheds.size(); ++q) {
      const auto& syms = !part.groups.empty() && part.groups[q].cube
                             ? CubeSymbols(*part.groups[q].cube)
                             : KernelSymbols(scheds[q]);
      for (const auto& sym : syms)
        if (!b.contains(sym)) unbound.insert(sym);
    }
    p.unbound.assign(unbound.begin(), unbound.end());
    if (!p.unbound.empty()) return p;
    // A cube + vector kernel: the cube group's cycles; under kFixpip its epilogue does not run
    // (and its barrier neither).
    double cycles = 0;
    int skipped = -1;
    for (std::size_t q = 0; q < scheds.size(); ++q) {
      if (!part.groups.empty() && part.groups[q].cube) {
        const CubeDecision d = SolveCubeGroup(*part.groups[q].cube, b, profile);
        cycles += d.tiling.cycles;
        if (d.chosen == kCubeFixpip) skipped = part.groups[q].cube->epilogue_group;
        continue;
      }
      if (static_cast<int>(q) == skipped) {
        p.barriers -= 1;
        continue;
      }
      cycles += Solve(scheds[q], b, profile, -1, -1, options).solution.cost;
    }
    p.cycles = cycles;
  } catch (const schedule::ScheduleError& e) {
    p.schedule_code = e.code();
    p.error = e.what();
  } catch (const InputError& e) {  // no case fits the bound sizes
    p.error = e.what();
  }
  return p;
}

}  // namespace af::att
