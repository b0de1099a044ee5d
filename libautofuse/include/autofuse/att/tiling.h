// The tiling stage (first version): for a schedule and bound symbols, the parameters of every
// tiling case, the UB-first solve of each (af_tiling/elementwise.h, the same code the generated
// tiling functions run), and the choice of the cheapest case. Also the symbolic UB occupancy of a
// case, for reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "af_tiling/elementwise.h"
#include "autofuse/hw/profile.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/sym/expr.h"

namespace af::att {

// The size symbols of the kernel in tiling-data order (the hint graph's size vars that the
// schedule's dims use, then any other free symbol of the dims, sorted).
std::vector<std::string> KernelSymbols(const schedule::ScheduleResult& s);

// Per-element cost model inputs of a schedule (constants of the kernel).
double IoBytesPerElem(const schedule::ScheduleResult& s);
// GM bytes per element moved by the nodes of one op type ("Load": MTE2, "Store": MTE3);
// broadcast operands (a repeat of 1) count as free.
double MovedBytesPerElem(const schedule::ScheduleResult& s, const std::string& op);
double VecOpsPerElem(const schedule::ScheduleResult& s);

af_tiling::CaseParams CaseParamsFor(const schedule::ScheduleResult& s, int case_index,
                                    const std::vector<std::int64_t>& dim_values);
// Evaluates the dims under the bindings (throws af::InputError naming unbound symbols).
std::vector<std::int64_t> DimValues(const schedule::ScheduleResult& s, const sym::Bindings& b);

struct CaseReport {
  std::string name;
  bool feasible = false;
  af_tiling::CaseSolution solution;
};

struct TilingDecision {
  int chosen = -1;  // case index
  af_tiling::CaseSolution solution;
  std::vector<CaseReport> cases;
  std::int64_t solve_ns = 0;
};

// Solves every case (or only `forced_case` when >= 0, only the cases of `forced_template` when
// >= 0). Throws af::InputError when no case fits.
TilingDecision Solve(const schedule::ScheduleResult& s, const sym::Bindings& b,
                     const hw::Profile& profile, int forced_case = -1, int forced_template = -1);

// Per-pipe estimate of one core's share under a solution (the first model's terms: GM bytes at
// 32 B/cycle for MTE2 loads and MTE3 stores, vector work at 256 B/repeat; SCALAR not modelled).
struct PipeEstimate {
  double mte2 = 0;
  double mte3 = 0;
  double vec = 0;
  double scalar = 0;
};
PipeEstimate EstimatePipes(const schedule::ScheduleResult& s, const af_tiling::CaseParams& p,
                           const af_tiling::CaseSolution& sol);

// Symbolic UB bytes of a case as a function of its tile variable and the size symbols.
sym::Expr UbBytesExpr(const schedule::ScheduleResult& s, int case_index);

}  // namespace af::att
