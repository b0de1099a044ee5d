// The tiling stage (ATT): for a schedule and bound symbols, the parameters and cost-model nodes of
// every tiling case, the solve of each with the chosen solver (af_tiling/elementwise.h, the same
// code the generated tiling functions run), and the runtime selection among cases and templates.
// Also the symbolic UB occupancy of a case, for reports.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "af_tiling/elementwise.h"
#include "autofuse/att/traffic.h"
#include "autofuse/hw/profile.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/sym/expr.h"

namespace af::att {

// The size symbols of the kernel in tiling-data order (the hint graph's size vars that the
// schedule's dims use, then any other free symbol of the dims, sorted).
std::vector<std::string> KernelSymbols(const schedule::ScheduleResult& s);

// The API call sites of a case as the cost model prices them (af_tiling::PerfNode): loads and
// stores with their block masks, one vector node per API call (by dtype), row-wise calls for
// brc_inline operands and broadcasts, workspace traffic for r_core, and when each runs (R-varying
// in `sweeps` sweeps, before the R loop, after a reduction). `origin` (optional) receives, per
// node, the index of the graph node it prices (-1 for kernel-wide nodes).
std::vector<af_tiling::PerfNode> PerfNodesFor(const schedule::ScheduleResult& s, int case_index,
                                              std::vector<int>* origin = nullptr);

// The parameters of a case for concrete dim sizes; `nodes` (from PerfNodesFor) must outlive them.
af_tiling::CaseParams CaseParamsFor(const schedule::ScheduleResult& s, int case_index,
                                    const std::vector<std::int64_t>& dim_values,
                                    const std::vector<af_tiling::PerfNode>& nodes);

// Every case's parameters for concrete dims, owning the nodes they point at (move-only).
struct CaseSet {
  std::vector<std::vector<af_tiling::PerfNode>> nodes;
  std::vector<af_tiling::CaseParams> params;
  CaseSet() = default;
  CaseSet(const CaseSet&) = delete;
  CaseSet& operator=(const CaseSet&) = delete;
  CaseSet(CaseSet&&) = default;
  CaseSet& operator=(CaseSet&&) = default;
};
CaseSet BuildCases(const schedule::ScheduleResult& s, const std::vector<std::int64_t>& dim_values);

// The solver options from AutoFuse-style flags and the profile: --autofuse_att_algorithm
// (AxesReorder | HighPerf | Exhaustive), --att_ub_threshold and --att_corenum_threshold (AutoFuse's
// percent, 0..100), --att_enable_multicore_ub_tradeoff (true|false), --att_accuracy_level (0|1)
// (pipeline/flag_table.h has them all); the cost tables follow the
// profile's generation. Throws af::InputError on a bad value.
af_tiling::SolverOptions SolverOptionsFrom(const std::map<std::string, std::string>& flags,
                                           const hw::Profile& profile);
// "AxesReorder", "HighPerf", "Exhaustive".
std::string AlgorithmName(int algorithm);

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
  // The median time of af_tiling::SelectCase over the kernel's case parameters: the call the
  // generated tiling function makes once it has filled them (docs/cli.md, "solve_ns").
  std::int64_t solve_ns = 0;
  std::int64_t compulsory_bytes = 0;  // CompulsoryBytes: every addressed input byte read once
  Traffic traffic;                    // the chosen case's traffic figure and its reasons
};

// Solves every case (or only `forced_case` when >= 0, only the cases of `forced_template` when
// >= 0) with the solver `options` choose. Throws af::InputError when no case fits.
TilingDecision Solve(const schedule::ScheduleResult& s, const sym::Bindings& b,
                     const hw::Profile& profile, int forced_case = -1, int forced_template = -1,
                     const af_tiling::SolverOptions& options = af_tiling::SolverOptions{});

// Symbolic UB bytes of a case as a function of its tile variable and the size symbols.
sym::Expr UbBytesExpr(const schedule::ScheduleResult& s, int case_index);

// The case's cost per pipe as readable symbolic formulas over its tiling variables, the size
// symbols and block_dim: "MTE2 = <tiles per block> x (Σ executions x call cost) + head", one
// line each for MTE2, MTE3, VEC, SCALAR and the op head, for the busiest core at a full tile
// (tails and r_core's phases are priced as docs/tiling.md describes). `perf_version` picks the
// cost tables (1: A2/A3, 2: 950).
std::vector<std::string> PipeFormulas(const schedule::ScheduleResult& s, int case_index,
                                      int perf_version);

}  // namespace af::att
