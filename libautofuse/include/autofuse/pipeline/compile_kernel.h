// The per-kernel stages, in one function every path runs: schedule -> tiling -> codegen ->
// compile, each followed by the dump hook. `pipeline::Compile` calls it for every kernel of every
// input (hint graphs, the front end's fused kernels, Inductor's and AutoFuse's own groups), so
// what `afc`, the viewer and the reports show is what runs.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "autofuse/att/cube.h"
#include "autofuse/att/pgo.h"
#include "autofuse/att/tiling.h"
#include "autofuse/codegen/codegen.h"
#include "autofuse/ir/graph.h"
#include "autofuse/pipeline/options.h"
#include "autofuse/schedule/groups.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/toolchain/compile.h"

namespace af::pipeline {

// One group of a multi-group kernel (schedule/groups.h): its own hint graph, schedule and tiling.
struct KernelGroup {
  schedule::GroupGraph group;
  schedule::ScheduleResult schedule;          // empty for the cube group
  std::optional<att::TilingDecision> tiling;  // when every size is bound (a vector group)
  std::optional<att::CubeDecision> cube;      // the cube group's, when every size is bound
  bool Bound() const { return tiling.has_value() || cube.has_value(); }
};

struct Kernel {
  ir::Graph hint;
  std::string origin;  // file (and embedding op) it came from
  schedule::ScheduleResult schedule;
  std::optional<att::TilingDecision> tiling;  // when every kernel symbol is bound
  // --autofuse_enable_pgo: the result file the tiling function reads, and the search for the
  // bound sizes (when every size is bound; `tiling` then holds the searched point).
  std::filesystem::path pgo_file;
  std::optional<att::PgoResult> pgo;
  codegen::GeneratedKernel code;
  std::shared_ptr<toolchain::KernelLibrary> library;  // when built
  std::vector<std::string> replaced;  // files --replace_kernel took instead of codegen's
  std::string error_code;             // when a stage refused the kernel
  std::string error;
  // The index of an earlier kernel of the same input whose hint graph is this one's, names aside
  // (SameKernel): this kernel was not scheduled, generated or built again; schedule, tiling, code,
  // library and error are that kernel's. -1 for a kernel of its own.
  int same_as = -1;
  // A multi-group kernel (its reductions remove different axes): the groups, which run one after
  // another in one launch with a SyncAll before a group that reads the GM workspace, and the
  // workspace tensors between them. Then `schedule` holds only the partition's decisions and
  // `tiling` is empty: each group has its own.
  std::vector<KernelGroup> groups;
  std::vector<schedule::WorkspaceTensor> workspace;
  bool MultiGroup() const { return !groups.empty(); }
};

// Whether two hint graphs are the same kernel: equal in everything but the graph's name (ops,
// dtypes, views, symbolic sizes, attributes; the lowered node names are positional already).
bool SameKernel(const ir::Graph& a, const ir::Graph& b);

// What a kernel without a tiling for the bound sizes does. A kernel the user wrote (an AscGraph
// input) stops the whole input with the solver's af::InputError (exit 2 in afc); a kernel someone
// else decided (the front end, Inductor, AutoFuse) is refused with NO_TILING and falls back, like
// a kernel the schedule refuses.
enum class NoTiling { kAbort, kRefuse };

// Milliseconds spent per per-kernel stage, summed over the kernels compiled.
struct KernelStageTimes {
  double schedule = 0;
  double tiling = 0;
  double codegen = 0;
  double compile = 0;
};

// Everything the per-kernel stages read from the options, resolved once per input (a malformed
// flag stops the input before any kernel is compiled).
struct KernelStageSettings {
  const hw::Profile* profile = nullptr;
  codegen::TilingOptions tiling;
  schedule::ScheduleOptions schedule;  // --autofuse_enhance_precision_blacklist
  int forced_case = -1;                // --force_tiling_case
  int forced_template = -1;            // --force_schedule_result
  att::PgoOptions pgo;                 // --autofuse_enable_pgo and its options
  NoTiling no_tiling = NoTiling::kRefuse;
};
KernelStageSettings KernelStageSettingsFrom(const Options& options, NoTiling no_tiling);

// The host-compile options of one generated kernel: options.compile with the profile's
// __NPU_ARCH__ and the bisheng core arch of the kernel's type (mixed or AIV-only).
toolchain::CompileOptions KernelCompileOptions(const codegen::GeneratedKernel& code,
                                               const Options& options);

// Runs the stages on k.hint, filling k. A stage that refuses the kernel (schedule, codegen, the
// solver under NoTiling::kRefuse) sets k.error_code / k.error and stops.
void CompileKernel(Kernel& k, const Options& options, const KernelStageSettings& settings,
                   KernelStageTimes* times);

// The stages for a multi-group kernel (called by CompileKernel when the partition has groups):
// each group is scheduled (schedule::ScheduleGroups) and solved; codegen emits one kernel of the
// groups (codegen::GenerateGroups), built as any kernel.
void CompileGroups(Kernel& k, const schedule::GroupPartition& partition, const Options& options,
                   const KernelStageSettings& settings, KernelStageTimes* times);

// The sum of the groups' chosen tilings' modeled cycles (the SyncAll barriers are not in it: see
// docs/schedule.md "Groups"); a cube + vector kernel adds its cube group's cycles and leaves out
// the epilogue kFixpip skips. nullopt when a group has no tiling.
std::optional<double> GroupCycles(const Kernel& k);

// Whether group q of the kernel does not run: the epilogue of a cube group whose tiling chose
// kFixpip.
bool GroupSkipped(const Kernel& k, std::size_t q);

// The tiling decision as text (the "tiling" dump and the golden tests' `tile` stage): the chosen
// case, then every case with its feasibility, tile, block_dim, UB bytes and per-pipe cycles.
std::string DumpTiling(const schedule::ScheduleResult& s, const att::TilingDecision& d);

}  // namespace af::pipeline
