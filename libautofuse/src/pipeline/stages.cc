// The pipeline's stages by name (see stages.h).
#include "autofuse/pipeline/stages.h"

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "autofuse/att/tiling.h"
#include "autofuse/codegen/codegen.h"
#include "autofuse/frontend/fusion.h"
#include "autofuse/frontend/lower.h"
#include "autofuse/hw/profile.h"
#include "autofuse/ir/axis_algebra.h"
#include "autofuse/ir/proto_io.h"
#include "autofuse/ir/text.h"
#include "autofuse/ir/validate.h"
#include "autofuse/pipeline/compile_kernel.h"
#include "autofuse/pipeline/options.h"
#include "autofuse/pipeline/pipeline.h"
#include "autofuse/pipeline/superkernel.h"
#include "autofuse/schedule/groups.h"
#include "autofuse/schedule/schedule.h"
#include "autofuse/support/error.h"

namespace af::pipeline {
namespace {

// The golden tests' profile: the default --soc.
constexpr const char* kSoc = "ascend910b";

std::vector<std::string> Words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;)
    w.push_back(x);
  return w;
}

std::string Join(const StageRun& run, std::size_t from) {
  std::string s;
  for (std::size_t i = from; i < run.size(); ++i)
    s += (s.empty() ? "" : " ") + run[i];
  return s;
}

std::vector<std::int64_t> AxisIds(const ir::Graph& g, const StageRun& run) {
  std::vector<std::int64_t> ids;
  for (std::size_t i = 1; i < run.size(); ++i) {
    const ir::Axis* a = g.FindAxisByName(run[i]);
    if (a == nullptr) throw std::invalid_argument("stage " + run[0] + ": unknown axis " + run[i]);
    ids.push_back(a->id);
  }
  if (ids.empty()) throw std::invalid_argument("stage " + run[0] + " needs an axis name");
  return ids;
}

// "--bind s0=4,s1=7 --flags --x=1;--y=2" (the flags run to the end of the line).
Options TileOptions(const StageRun& run) {
  Options o;
  o.soc = kSoc;
  for (std::size_t i = 1; i < run.size(); ++i) {
    if (run[i] == "--bind" && i + 1 < run.size()) {
      ParseBindings(run[++i], &o.bindings);
    } else if (run[i] == "--flags" && i + 1 < run.size()) {
      ParseFlags(Join(run, i + 1), &o.flags);
      break;
    } else {
      throw std::invalid_argument("stage tile: unknown argument '" + run[i] +
                                  "' (tile --bind s0=N,... [--flags ...])");
    }
  }
  return o;
}

// `<stage> [--soc NAME]` (default kSoc): schedule and codegen.
std::string SocArg(const StageRun& run) {
  std::string soc = kSoc;
  for (std::size_t i = 1; i < run.size(); ++i) {
    if (run[i] == "--soc" && i + 1 < run.size()) {
      soc = run[++i];
    } else {
      throw std::invalid_argument("stage " + run[0] + ": unknown argument '" + run[i] + "' (" +
                                  run[0] + " [--soc NAME])");
    }
  }
  return soc;
}

std::string ScheduleText(const ir::Graph& g, const StageRun& run) {
  const std::string soc = SocArg(run);
  std::string out;
  try {
    const auto s = schedule::Schedule(g, hw::GetProfile(soc));
    for (const auto& x : s.decisions)
      out += "decision " + x.code + ": " + x.message + "\n";
    out += schedule::DumpSchedule(s);
  } catch (const schedule::ScheduleError& e) {
    out += "schedule error " + e.code() + ": " + e.what() + "\n";
  }
  return out;
}

std::string TileText(const ir::Graph& g, const StageRun& run) {
  const Options o = TileOptions(run);
  const hw::Profile& profile = hw::GetProfile(o.soc);
  try {
    const auto s = schedule::Schedule(g, profile);
    const KernelStageSettings settings = KernelStageSettingsFrom(o, NoTiling::kRefuse);
    const auto d = att::Solve(s, o.bindings, profile, settings.forced_case,
                              settings.forced_template, settings.tiling.solver);
    return DumpTiling(s, d);
  } catch (const schedule::ScheduleError& e) {
    return "schedule error " + e.code() + ": " + e.what() + "\n";
  } catch (const InputError& e) {
    return std::string("no tiling: ") + e.what() + "\n";
  }
}

std::string CodegenText(const ir::Graph& g, const StageRun& run) {
  const std::string soc = SocArg(run);
  try {
    const hw::Profile& profile = hw::GetProfile(soc);
    Options o;
    o.soc = soc;
    codegen::GeneratedKernel code;
    if (const auto part = schedule::PartitionGroups(g); !part.groups.empty()) {
      // A multi-group kernel: its groups' schedules, one kernel (docs/schedule.md).
      const auto scheds = schedule::ScheduleGroups(part, profile);
      std::vector<codegen::GroupMember> members;
      for (std::size_t q = 0; q < scheds.size(); ++q)
        members.push_back({&part.groups[q], &scheds[q]});
      code = codegen::GenerateGroups(g, part, members, TilingOptionsFrom(o, profile));
    } else {
      code = codegen::Generate(g, schedule::Schedule(g, profile), TilingOptionsFrom(o, profile));
    }
    std::string out;
    for (const auto& f : code.files)
      out += "// ---- " + f.name + "\n" + f.text;
    return out;
  } catch (const schedule::ScheduleError& e) {
    return "schedule error " + e.code() + ": " + e.what() + "\n";
  } catch (const codegen::CodegenError& e) {
    return "codegen error " + e.code() + ": " + e.what() + "\n";
  }
}

// Applies one graph-changing stage; false when the stage prints a result instead of the graph.
bool ApplyHintStage(ir::Graph& g, const StageRun& r, std::string& out) {
  const std::string& stage = r.at(0);
  if (stage == "dump") return true;
  if (stage == "tile_split") {
    ir::TileSplit(g, AxisIds(g, r).at(0));
  } else if (stage == "block_split") {
    ir::BlockSplit(g, AxisIds(g, r).at(0));
  } else if (stage == "merge") {
    std::string why;
    if (!ir::MergeAxes(g, AxisIds(g, r), &why)) out += "merge refused: " + why + "\n";
  } else if (stage == "reorder") {
    ir::ReorderAxes(g, AxisIds(g, r));
  } else if (stage == "proto") {
    g = ir::ParseAscGraphText(ir::WriteAscGraphText(g), "golden").graph;
  } else if (stage == "normalize") {
    std::vector<schedule::Decision> d;
    g = schedule::Normalize(g, {}, &d);
    for (const auto& x : d)
      out += "decision " + x.code + ": " + x.message + "\n";
  } else if (stage == "passes") {
    std::vector<schedule::Decision> d;
    g = schedule::Normalize(g, {}, &d, [&out](const std::string& name, const std::string& text) {
      out += "// ---- " + name + "\n" + text;
    });
    return false;
  } else if (stage == "validate") {
    const auto d = ir::Validate(g);
    out += d.empty() ? "ok\n" : ir::FormatDiagnostics(d);
    return false;
  } else if (stage == "schedule") {
    out += ScheduleText(g, r);
    return false;
  } else if (stage == "groups") {
    const schedule::GroupPartition p = schedule::PartitionGroups(g);
    out += p.groups.empty() ? "one group\n" : schedule::DumpGroups(p);
    return false;
  } else if (stage == "tile") {
    out += TileText(g, r);
    return false;
  } else if (stage == "codegen") {
    out += CodegenText(g, r);
    return false;
  } else {
    throw std::invalid_argument("unknown stage '" + stage + "'");
  }
  return true;
}

std::string FuseText(const model::Graph& g, const StageRun& run) {
  std::map<std::string, std::string> flags;
  ParseFlags(Join(run, 1), &flags);
  const auto r = frontend::DecideFusion(g, frontend::FusionOptionsFromFlags(flags, kSoc));
  std::string out;
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    out += "kernel " + std::to_string(i) + ":";
    for (int id : r.kernels[i].nodes)
      out += " " + g.node(id).name;
    out += "\n";
  }
  for (const auto& f : r.fallbacks)
    out += "fallback " + g.node(f.node).name + " [" + f.code + "] (" + f.stage + ")\n";
  for (const auto& d : r.records) {
    out += "decision round " + std::to_string(d.round) + " " + d.kind + " {";
    for (const auto& n : d.first)
      out += " " + n;
    out += " } + {";
    for (const auto& n : d.second)
      out += " " + n;
    out += " } " + std::string(d.accepted ? "accepted" : "rejected") + " [" + d.code + "] " +
           d.message + "\n";
  }
  return out;
}

// The super kernels of the front end's kernels (no host build): one line per decision, then every
// generated source after a "// ---- <file>" line.
std::string SuperKernelText(const model::Graph& g, const StageRun& run) {
  Options o;
  o.soc = kSoc;
  o.build = false;
  ParseFlags(Join(run, 1), &o.flags);
  Input in;
  in.model = g;
  const CompileResult r = Compile(std::move(in), o);
  SuperPlan plan = PlanSuperKernels(r, o);
  BuildSuperKernels(plan, r, o);
  std::string out;
  for (const auto& d : plan.decisions)
    out += "superkernel [" + d.code + "]: " + d.message + "\n";
  for (const auto& seg : plan.segments) {
    if (!seg.kernel.error.empty()) {
      out +=
          "superkernel not generated [" + seg.kernel.error_code + "]: " + seg.kernel.error + "\n";
      continue;
    }
    for (const auto& f : seg.kernel.code.files)
      out += "// ---- " + f.name + "\n" + f.text;
  }
  return out;
}

}  // namespace

std::vector<StageRun> RunLines(const std::string& text) {
  std::vector<StageRun> runs;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto p = line.find("# RUN:");
    if (p != std::string::npos) runs.push_back(Words(line.substr(p + 6)));
  }
  return runs;
}

bool IsHintStage(const std::string& name) {
  static const std::set<std::string> names = {
      "dump",      "tile_split", "block_split", "merge", "reorder", "proto", "validate",
      "normalize", "passes",     "schedule",    "tile",  "codegen", "groups"};
  return names.contains(name);
}

bool IsModelStage(const std::string& name) {
  return name == "lower" || name == "check" || name == "fuse" || name == "superkernel";
}

std::string RunHintStages(ir::Graph g, const std::vector<StageRun>& runs) {
  std::string out;
  bool dump = true;
  for (const auto& r : runs) {
    if (r.empty()) throw std::invalid_argument("empty RUN line");
    dump = ApplyHintStage(g, r, out) && dump;
  }
  if (dump) out += ir::DumpText(g);
  return out;
}

std::string RunModelStage(const model::Graph& g, const StageRun& run) {
  const std::string& stage = run.at(0);
  if (stage == "lower") {
    std::vector<int> ids;
    for (const auto& n : g.nodes)
      if (n.kind == model::NodeKind::kOp) ids.push_back(n.id);
    try {
      // "lower matmul": with the matmul pass (mm, bmm, addmm lowered to the cube ops)
      frontend::LowerOptions lo;
      lo.matmul = run.size() > 1 && run[1] == "matmul";
      const auto k = frontend::LowerGroup(g, ids, lo);
      std::string out = ir::DumpText(k.graph);
      for (const auto& d : ir::Validate(k.graph))
        out += "validate: " + d.message + "\n";
      return out;
    } catch (const frontend::LowerError& e) {
      return "lower refused [" + e.code() + "]: " + e.what() + "\n";
    }
  }
  if (stage == "check") {
    std::string out;
    for (const auto& n : g.nodes) {
      if (n.kind != model::NodeKind::kOp) continue;
      const auto s = frontend::CheckOp(g, n);
      out += n.name + ": " + (s.ok() ? "ok" : s.code + " " + s.message) + "\n";
    }
    return out;
  }
  if (stage == "fuse") return FuseText(g, run);
  if (stage == "superkernel") return SuperKernelText(g, run);
  throw std::invalid_argument("unknown stage '" + stage + "'");
}

}  // namespace af::pipeline
