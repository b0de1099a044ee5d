// The per-kernel stages of a multi-group kernel (see compile_kernel.h, schedule/groups.h).
#include <algorithm>
#include <chrono>

#include "autofuse/codegen/superkernel.h"
#include "autofuse/hw/profile.h"
#include "autofuse/pipeline/compile_kernel.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

void Dump(const Options& o, const std::string& stage, const std::string& text) {
  if (o.dump) o.dump(stage, text);
}

bool AllBound(const std::vector<std::string>& symbols, const sym::Bindings& b) {
  return std::ranges::all_of(symbols, [&b](const std::string& s) { return b.contains(s); });
}

}  // namespace

void CompileGroups(Kernel& k, const schedule::GroupPartition& partition, const Options& options,
                   const KernelStageSettings& settings, KernelStageTimes* times) {
  const hw::Profile& profile = *settings.profile;
  k.workspace = partition.workspace;
  k.schedule.decisions = partition.decisions;
  // ---- schedule and tiling, group by group
  auto t0 = Clock::now();
  std::vector<schedule::ScheduleResult> scheds = schedule::ScheduleGroups(
      partition, profile, settings.schedule, schedule::StageDump(options.dump));
  times->schedule += Ms(t0, Clock::now());
  // --force_tiling_case per group (gG_N items; a plain N forces every group)
  const std::vector<int> forced = ForcedGroupCases(options, scheds.size());
  for (std::size_t q = 0; q < scheds.size(); ++q) {
    KernelGroup g;
    g.group = partition.groups[q];
    g.schedule = std::move(scheds[q]);
    const std::string label = "group " + std::to_string(q) + "\n";
    t0 = Clock::now();
    // A cube group has no vector schedule: its tiling is the cube's and the CV template
    // (att/cube.h).
    const auto* cube = g.group.cube ? &*g.group.cube : nullptr;
    Dump(options, "schedule",
         label + (cube != nullptr ? std::string("cube group: no vector schedule\n")
                                  : schedule::DumpSchedule(g.schedule)));
    const int forced_q = forced.empty() ? -1 : forced[q];
    if (AllBound(cube != nullptr ? att::CubeSymbols(*cube) : att::KernelSymbols(g.schedule),
                 options.bindings)) {
      try {
        if (cube != nullptr) {
          g.cube = att::SolveCubeGroup(*cube, options.bindings, profile, forced_q);
        } else {
          g.tiling = att::Solve(g.schedule, options.bindings, profile, forced_q,
                                settings.forced_template, settings.tiling.solver);
        }
      } catch (const InputError& e) {
        times->tiling += Ms(t0, Clock::now());
        if (settings.no_tiling == NoTiling::kAbort) throw;
        k.error_code = "NO_TILING";
        k.error = "group " + std::to_string(q) + ": " + e.what();
        return;
      }
      Dump(options, "tiling",
           label + (cube != nullptr ? att::DumpCubeDecision(*g.cube)
                                    : DumpTiling(g.schedule, *g.tiling)));
    }
    times->tiling += Ms(t0, Clock::now());
    k.groups.push_back(std::move(g));
  }
  if (settings.pgo.enabled) {
    Dump(options, "pgo",
         "multi-group kernel: no PGO search (each group takes the solver's choice)");
  }

  // ---- codegen: one kernel running the groups in order, a SyncAll before each group that
  // reads a workspace tensor
  t0 = Clock::now();
  std::vector<codegen::GroupMember> members;
  for (const auto& g : k.groups)
    members.push_back({&g.group, &g.schedule});
  k.code = codegen::GenerateGroups(k.hint, partition, members, settings.tiling);
  times->codegen += Ms(t0, Clock::now());
  for (const auto& f : k.code.files)
    Dump(options, "codegen", "// ---- " + f.name + "\n" + f.text);

  // ---- compile: as any kernel
  if (options.build) {
    t0 = Clock::now();
    std::vector<toolchain::SourceFile> src;
    for (const auto& f : k.code.files)
      src.push_back({f.name, f.text});
    k.library =
        toolchain::CompileKernel(src, k.code.main_file, KernelCompileOptions(k.code, options));
    times->compile += Ms(t0, Clock::now());
    Dump(options, "compile", k.code.kernel_name + ": built");
  }
}

bool GroupSkipped(const Kernel& k, std::size_t q) {
  return std::ranges::any_of(k.groups, [q](const KernelGroup& g) {
    return g.cube && g.group.cube && g.cube->chosen == att::kCubeFixpip &&
           static_cast<std::size_t>(g.group.cube->epilogue_group) == q;
  });
}

std::optional<double> GroupCycles(const Kernel& k) {
  double sum = 0;
  for (std::size_t q = 0; q < k.groups.size(); ++q) {
    const auto& g = k.groups[q];
    if (!g.Bound()) return std::nullopt;
    if (GroupSkipped(k, q)) continue;
    sum += g.cube ? g.cube->tiling.cycles : g.tiling->solution.cost;
  }
  return sum;
}

}  // namespace af::pipeline
