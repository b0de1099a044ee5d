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

// Drops the cases whose template synchronises all cores (r_core): inside a launch shared by the
// groups, the cores past such a case's block_dim would never reach its SyncAll.
void DropCoreSyncCases(schedule::ScheduleResult& s, int group) {
  if (std::ranges::none_of(s.cases, codegen::CaseSyncsAllCores)) return;
  std::vector<int> new_index(s.cases.size(), -1);
  std::vector<schedule::ImplCase> kept;
  std::string dropped;
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    if (codegen::CaseSyncsAllCores(s.cases[c])) {
      dropped += (dropped.empty() ? "" : ", ") + s.cases[c].name;
      continue;
    }
    new_index[c] = static_cast<int>(kept.size());
    kept.push_back(std::move(s.cases[c]));
  }
  s.cases = std::move(kept);
  for (auto& t : s.templates) {
    std::vector<int> cases;
    for (const int c : t.cases)
      if (new_index[static_cast<std::size_t>(c)] >= 0)
        cases.push_back(new_index[static_cast<std::size_t>(c)]);
    t.cases = std::move(cases);
  }
  s.decisions.push_back({"groups", "GROUP_NO_CORE_SYNC",
                         "group " + std::to_string(group) + " does not offer " + dropped +
                             ": a template that synchronises all cores cannot run inside a kernel "
                             "whose launch the groups share"});
  if (s.cases.empty()) {
    throw schedule::ScheduleError("GROUP_NO_CORE_SYNC",
                                  "group " + std::to_string(group) +
                                      " has only cases that synchronise all cores");
  }
}

bool AllBound(const std::vector<std::string>& symbols, const sym::Bindings& b) {
  return std::ranges::all_of(symbols, [&b](const std::string& s) { return b.contains(s); });
}

}  // namespace

void CompileGroups(Kernel& k, schedule::GroupPartition partition, const Options& options,
                   const KernelStageSettings& settings, KernelStageTimes* times) {
  const hw::Profile& profile = *settings.profile;
  k.workspace = partition.workspace;
  k.schedule.decisions = partition.decisions;
  // ---- schedule and tiling, group by group
  for (std::size_t q = 0; q < partition.groups.size(); ++q) {
    KernelGroup g;
    g.group = std::move(partition.groups[q]);
    auto t0 = Clock::now();
    g.schedule = schedule::Schedule(g.group.graph, profile, settings.schedule,
                                    schedule::StageDump(options.dump));
    DropCoreSyncCases(g.schedule, static_cast<int>(q));
    times->schedule += Ms(t0, Clock::now());
    Dump(options, "schedule",
         "group " + std::to_string(q) + "\n" + schedule::DumpSchedule(g.schedule));
    t0 = Clock::now();
    if (AllBound(att::KernelSymbols(g.schedule), options.bindings)) {
      try {
        g.tiling = att::Solve(g.schedule, options.bindings, profile, settings.forced_case,
                              settings.forced_template, settings.tiling.solver);
      } catch (const InputError& e) {
        times->tiling += Ms(t0, Clock::now());
        if (settings.no_tiling == NoTiling::kAbort) throw;
        k.error_code = "NO_TILING";
        k.error = "group " + std::to_string(q) + ": " + e.what();
        return;
      }
      Dump(options, "tiling", "group " + std::to_string(q) + "\n" + DumpTiling(g.schedule, *g.tiling));
    }
    times->tiling += Ms(t0, Clock::now());
    k.groups.push_back(std::move(g));
  }
  if (settings.pgo.enabled) {
    Dump(options, "pgo", "multi-group kernel: no PGO search (each group takes the solver's choice)");
  }

  // ---- codegen: one kernel running the groups in order, a SyncAll before each group that
  // reads a workspace tensor
  auto t0 = Clock::now();
  codegen::SuperKernelSpec spec;
  spec.num_buffers = partition.num_params;
  spec.name_prefix = "autofused_groups_";
  for (const auto& w : k.workspace)
    spec.workspace_tensor_bytes.push_back(w.elements * sym::Expr(ir::DTypeBytes(w.dtype)));
  for (const auto& g : k.groups)
    spec.members.push_back({&g.group.graph, &g.schedule, g.group.params, g.group.reads_workspace});
  k.code = codegen::GenerateSuper(spec, settings.tiling);
  for (std::size_t i = 0; i < k.hint.nodes.size(); ++i) {
    const ir::Node& n = k.hint.nodes[i];
    if (n.type != "Data" && n.type != "Output") continue;
    auto& list = n.type == "Data" ? k.code.input_nodes : k.code.output_nodes;
    const auto at = static_cast<std::size_t>(n.IntAttr("index").value_or(0));
    if (list.size() <= at) list.resize(at + 1, -1);
    list[at] = static_cast<int>(i);
  }
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

std::optional<double> GroupCycles(const Kernel& k) {
  double sum = 0;
  for (const auto& g : k.groups) {
    if (!g.tiling) return std::nullopt;
    sum += g.tiling->solution.cost;
  }
  return sum;
}

}  // namespace af::pipeline
