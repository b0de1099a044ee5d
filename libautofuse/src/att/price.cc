// A hint graph's modeled time (see price.h).
#include "autofuse/att/price.h"

#include "autofuse/att/tiling.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/support/error.h"

namespace af::att {

KernelPrice PriceKernel(const ir::Graph& hint, const sym::Bindings& b, const hw::Profile& profile,
                        const af_tiling::SolverOptions& options) {
  KernelPrice p;
  try {
    const schedule::ScheduleResult s = schedule::Schedule(hint, profile);
    for (const auto& sym : KernelSymbols(s))
      if (!b.contains(sym)) p.unbound.push_back(sym);
    if (!p.unbound.empty()) return p;
    p.cycles = Solve(s, b, profile, -1, -1, options).solution.cost;
  } catch (const schedule::ScheduleError& e) {
    p.schedule_code = e.code();
    p.error = e.what();
  } catch (const InputError& e) {  // no case fits the bound sizes
    p.error = e.what();
  }
  return p;
}

}  // namespace af::att
