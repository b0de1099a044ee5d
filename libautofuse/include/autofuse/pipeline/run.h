// Running one built kernel on the CPU AscendC runtime: inputs (given .npy files, given arrays or
// seeded random ones), the generated tiling function (checked against the in-process solver),
// the launch, and the comparison with expectations (given .npy files or the reference
// interpreter), with the runtime's traffic counters beside the cost model's prediction.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/data/host_array.h"
#include "autofuse/pipeline/compile_kernel.h"
#include "autofuse/pipeline/options.h"

namespace af::pipeline {

struct OutputCheck {
  std::string name;
  bool ok = false;
  double max_abs = 0;
  double max_rel = 0;
  double atol = 0;
  double rtol = 0;
  std::string message;
  // The second check of a float output against the per-step reference (pipeline/reference.h),
  // when the precision passes change the graph; `ok` includes it.
  bool per_step_checked = false;
  bool per_step_ok = true;
  double per_step_max_abs = 0;
};

struct RunResult {
  bool ok = false;
  std::vector<OutputCheck> outputs;
  std::vector<data::HostArray> actual;
  std::vector<data::HostArray> expected;  // the normalized reference's (or the given) outputs
  // The per-step reference's outputs with ties settled (empty: given expectations, or a graph
  // the precision passes leave as it is), and how many comparison elements were settled.
  std::vector<data::HostArray> per_step;
  std::int64_t settled_ties = 0;
  std::uint32_t block_dim = 0;
  int tiling_key = -1;          // -1 for a multi-group kernel: see group_keys
  std::vector<int> group_keys;  // a multi-group kernel: each group's tiling case
  std::uint64_t mte2_bytes = 0;
  std::uint64_t mte3_bytes = 0;
  std::uint64_t vec_repeats = 0;
  std::uint64_t ub_peak_bytes = 0;
  // What the ATT model predicted for the chosen tiling (totals over all cores).
  std::int64_t model_mte2_bytes = 0;
  std::int64_t model_mte3_bytes = 0;
  std::int64_t model_vec_repeats = 0;
  // A cube + vector kernel: the cube pipes' work the runtime counted (LoadData fractals, Mmad
  // steps, Fixpipe fractals) and the cube tiling's model of it (af_tiling/cube.h).
  bool cube = false;
  std::uint64_t cube_mte1_fractals = 0;
  std::uint64_t cube_steps = 0;
  std::uint64_t cube_fix_fractals = 0;
  std::uint64_t model_cube_mte1_fractals = 0;
  std::uint64_t model_cube_steps = 0;
  std::uint64_t model_cube_fix_fractals = 0;
};

// The run's tiling case as text: "case 2 (name)", or for a multi-group kernel
// "2 groups: case 0 (name) | case 1 (name)".
std::string ChosenCases(const Kernel& k, const RunResult& res);

struct RunOptions {
  std::string inputs_dir;  // in0.npy ... by Data index; empty: random inputs from `seed`
  std::string expect_dir;  // out0.npy ... by Output index; empty: the reference interpreter
  std::uint64_t seed = 0;
  std::optional<double> atol;
  std::optional<double> rtol;
  std::vector<data::HostArray> inputs;  // used when given (tests)
};

// Runs one built kernel: the generated tiling function (checked against the in-process solver),
// the kernel on the CPU runtime, then the comparison.
RunResult Run(const Kernel& k, const Options& options, const RunOptions& run);

}  // namespace af::pipeline
