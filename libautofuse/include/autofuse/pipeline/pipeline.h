// The pipeline, stage by stage: import -> (front end) -> schedule -> tiling -> codegen -> compile,
// with a dump hook after every stage, and running a compiled kernel on the CPU runtime against
// the reference interpreter or given expectations. `afc` and the viewer call this; nothing else
// strings the stages together.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "autofuse/att/tiling.h"
#include "autofuse/codegen/codegen.h"
#include "autofuse/data/host_array.h"
#include "autofuse/hw/profile.h"
#include "autofuse/ir/graph.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/sym/expr.h"
#include "autofuse/toolchain/compile.h"

namespace af::report {
class CompileReport;
}

namespace af::pipeline {

// Called after each stage with the stage name and a readable dump of its result.
using DumpHook = std::function<void(const std::string& stage, const std::string& text)>;

struct Options {
  std::string soc = "ascend910b";
  sym::Bindings bindings;
  std::map<std::string, std::string> flags;  // AutoFuse-style --key=value flags
  bool build = true;                         // compile the generated sources
  toolchain::CompileOptions compile;
  DumpHook dump;
};

// The tiling solver and cache the flags ask for (--autofuse_att_algorithm, --att_*,
// --autofuse_enable_tiling_cache), for the in-process solver and the generated tiling function.
codegen::TilingOptions TilingOptionsFrom(const Options& o, const hw::Profile& profile);

// Parses "--key=value;--k2=v2" (also "key=value", spaces around '=' allowed) into `flags`.
// Throws af::InputError on a malformed entry.
void ParseFlags(const std::string& text, std::map<std::string, std::string>* flags);
// Parses "s0=128,s1=64" into bindings; throws af::InputError.
void ParseBindings(const std::string& text, sym::Bindings* b);

struct StageTiming {
  std::string stage;
  double ms = 0;
};

struct Kernel {
  ir::Graph hint;
  std::string origin;  // file (and embedding op) it came from
  schedule::ScheduleResult schedule;
  std::optional<att::TilingDecision> tiling;  // when every kernel symbol is bound
  codegen::GeneratedKernel code;
  std::shared_ptr<toolchain::KernelLibrary> library;  // when built
  std::string error_code;                             // when a stage refused the kernel
  std::string error;
};

// A group of the input that did not become a hint graph (Inductor fallbacks), with the reason.
struct Fallback {
  std::string name;
  std::string origin;
  std::string reason;
};

struct CompileResult {
  std::string input;
  std::vector<Kernel> kernels;
  std::vector<Fallback> fallbacks;
  std::vector<StageTiming> timings;
  // The kernels are a framework's own groups (Inductor): one our schedule refuses falls back
  // like an unlowered group instead of failing the whole input.
  bool framework_groups = false;
};

CompileResult Compile(const std::string& input_path, const Options& options);

// Writes the generated sources of every kernel under dir/<kernel>/ and report.json into dir.
// Refuses to write into an existing non-empty directory unless `overwrite`.
void WriteOutputs(const CompileResult& r, const Options& options, const std::string& dir,
                  bool overwrite);
void FillReport(const CompileResult& r, const Options& options, report::CompileReport* out);
std::string ReportJson(const CompileResult& r, const Options& options);
// A filled CompileReport as report.json text (indented, proto field names).
std::string ReportToJson(const report::CompileReport& rep);

struct OutputCheck {
  std::string name;
  bool ok = false;
  double max_abs = 0;
  double max_rel = 0;
  double atol = 0;
  double rtol = 0;
  std::string message;
};

struct RunResult {
  bool ok = false;
  std::vector<OutputCheck> outputs;
  std::vector<data::HostArray> actual;
  std::vector<data::HostArray> expected;
  std::uint32_t block_dim = 0;
  int tiling_key = -1;
  std::uint64_t mte2_bytes = 0;
  std::uint64_t mte3_bytes = 0;
  std::uint64_t vec_repeats = 0;
  std::uint64_t ub_peak_bytes = 0;
  // What the ATT model predicted for the chosen tiling (totals over all cores).
  std::int64_t model_mte2_bytes = 0;
  std::int64_t model_mte3_bytes = 0;
  std::int64_t model_vec_repeats = 0;
};

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
