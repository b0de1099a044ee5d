// The tiling search of --autofuse_enable_pgo. AutoFuse's PGO measures candidate tilings on the
// device and keeps the best in a file its tiling function reads. Without a device we search the
// same space against the cost model (the CPU runtime's traffic counters equal the model's totals
// exactly, tests/unit/pipeline, so running the candidates there could not rank them differently):
//   core_select: the solver's case at every core budget within `step_max` of its block_dim, each
//                with the solver's tile and with the tile the solver picks for that budget;
//   pruning:     from every case's own solver point, the `topn` best points are kept and their
//                neighbours (tile ±1 step, x2, /2; core budget ±1, x2, /2) priced, for up to
//                `step_max` rounds or until the kept set stops changing.
// The best point goes into the kernel's result file (af_tiling/pgo.h has its format), which the
// generated tiling function reads at run time; ApplyPgo makes the compiler's in-process decision
// the same as the function's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "af_tiling/pgo.h"
#include "autofuse/att/tiling.h"

namespace af::att {

struct PgoOptions {
  bool enabled = false;  // --autofuse_enable_pgo
  bool pruning = false;  // --autofuse_pgo_algo=pruning (else core_select)
  int step_max = 16;     // --autofuse_pgo_step_max
  int topn = 5;          // --autofuse_pgo_topn
};

// From the flags; throws af::InputError on a bad value (the flag table checks ranges first).
PgoOptions PgoOptionsFrom(const std::map<std::string, std::string>& flags);

// "core_select" or "pruning".
std::string PgoAlgoName(const PgoOptions& o);

struct PgoPoint {
  int case_index = -1;
  std::int64_t tile = 0;
  std::int64_t use = 0;  // the core budget; block_dim follows from it
  std::uint32_t block_dim = 0;
  double cycles = 0;
};

struct PgoResult {
  PgoPoint solver;            // the solver's choice, priced the same way
  std::vector<PgoPoint> top;  // the best points found, best first (at most topn; top[0] wins)
  int evaluated = 0;          // points priced
  // solver.cycles / top[0].cycles (>= 1: the solver's own point is always a candidate).
  double gain() const;
};

// Searches the cases of `set` (BuildCases) for `cores` and `ub_bytes`, starting from the
// solver's choice `chosen` (its solution `best`). Empty `top` when nothing is feasible.
PgoResult SearchTiling(const CaseSet& set, std::uint32_t cores, std::int64_t ub_bytes,
                       const af_tiling::SolverOptions& solver, int chosen,
                       const af_tiling::CaseSolution& best, const PgoOptions& o);

// The kernel's result file: <dir>/<kernel name>.pgo.txt. `dir` is $AF_PGO_DIR when set, else
// <kernel cache folder>/pgo.
std::filesystem::path PgoFile(const std::filesystem::path& cache_dir,
                              const std::string& kernel_name);

// The entry for `r` at these sizes, cores, UB size and cost table.
af_tiling::PgoEntry PgoEntryFor(const PgoResult& r, int perf_version,
                                const std::vector<std::int64_t>& syms, std::uint32_t cores,
                                std::int64_t ub_bytes);

// Writes `e` into `file`, replacing an entry with the same key (cost table, sizes, cores, UB) and
// keeping the others; the file is replaced atomically, its folder created. A line of an existing
// file that is not a comment or a whole entry throws af::InputError naming the file and line
// (the file is then left as it was).
void WritePgoEntry(const std::filesystem::path& file, const af_tiling::PgoEntry& e);

// What the generated tiling function does after its own choice, in process: when `file` holds a
// feasible entry for these sizes, `d` takes it (chosen case and its solution with the model's
// totals, compulsory bytes and traffic). Returns whether it did.
bool ApplyPgo(const std::filesystem::path& file, const schedule::ScheduleResult& s,
              const sym::Bindings& b, const hw::Profile& profile,
              const af_tiling::SolverOptions& solver, TilingDecision* d);

}  // namespace af::att
