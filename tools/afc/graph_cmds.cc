// afc compile / run on model graphs (see graph_cmds.h).
#include "graph_cmds.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "autofuse/inputs/grouping_summary.h"
#include "autofuse/inputs/registry.h"
#include "autofuse/model/scope_markers.h"
#include "autofuse/pipeline/estimate.h"
#include "autofuse/pipeline/run_case.h"
#include "autofuse/pipeline/superkernel.h"
#include "autofuse/support/error.h"
#include "report.pb.h"

namespace af::cli {
namespace {

using nlohmann::json;

void PrintFusion(const pipeline::CompileResult& r) {
  const pipeline::FrontEnd& fe = *r.front_end;
  for (std::size_t i = 0; i < fe.fusion.kernels.size(); ++i) {
    const auto& k = r.kernels[i];
    std::cout << "kernel " << (k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name)
              << ":";
    for (int id : fe.fusion.kernels[i].nodes)
      std::cout << " " << fe.graph.node(id).name;
    if (!k.error.empty()) std::cout << "  [not compiled: " << k.error_code << "]";
    std::cout << "\n";
  }
  std::set<std::string> listed;
  for (const auto& f : fe.fusion.fallbacks) {
    std::cout << f.Text(fe.graph) << "\n";
    listed.insert(fe.graph.node(f.node).name);
  }
  // ops the importer refused that the front end did not see (no output type)
  for (const auto& f : r.fallbacks) {
    if (listed.contains(f.name)) continue;
    const model::Node* n = fe.graph.FindNode(f.name);
    std::cout << "Fallback " << (n != nullptr ? n->op.ToString() + " " : "") << f.name
              << " reason: " << f.reason << "\n";
  }
}

int Refused(const pipeline::CompileResult& r) {
  int code = 0;
  for (const auto& k : r.kernels) {
    if (k.error.empty()) continue;
    std::cerr << "afc: " << k.origin << ": kernel '" << k.hint.name << "' not compiled ["
              << k.error_code << "]: " << k.error << "\n";
    code = 2;
  }
  return code;
}

// --superkernel: the decisions, the second run's log, the super run's returned values.
void PrintSuperRun(const pipeline::CaseRun& res, unsigned long long seed) {
  const pipeline::SuperPlan& plan = *res.super_plan;
  if (res.random_inputs) {
    std::cout << "inputs: drawn at random (seed " << seed
              << "), no expected arrays: the super kernels are checked against the separate "
                 "kernels\n";
  }
  for (const auto& d : plan.decisions)
    std::cout << "superkernel [" << d.code << "]: " << d.message << "\n";
  int built = 0;
  int members = 0;
  for (const auto& seg : plan.segments) {
    if (!seg.kernel.library) {
      std::cout << "superkernel not built [" << seg.kernel.error_code << "]: " << seg.kernel.error
                << "; its kernels ran apart\n";
      continue;
    }
    ++built;
    members += static_cast<int>(seg.kernels.size());
  }
  for (const auto& line : res.super_log)
    std::cout << "  super run: " << line << "\n";
  int kernels = 0;
  for (const auto& u : plan.order)
    kernels += u.kernel >= 0 ? 1 : 0;
  std::cout << "superkernel: " << built << " super kernel(s), " << kernels - members + built
            << " kernel launches instead of " << kernels << "; " << res.super_values_checked
            << " kernel-written values compared, " << res.super_values_differ << " differ\n";
  for (const auto& c : res.super_outputs)
    if (!c.ok) std::cout << "  super run " << c.name << ": " << c.message << "\n";
}

// The super-kernel scopes the input marks (model/scope_markers.h), as one line for the output;
// empty when it marks none. Marked scopes turn super kernels on without --superkernel.
std::string MarkedScopesLine(const pipeline::Input& in) {
  if (!in.model) return "";
  std::string names;
  for (const auto& s : model::SuperKernelScopes(*in.model))
    names += (names.empty() ? "'" : ", '") + s + "'";
  if (names.empty()) return "";
  return "superkernel: the input marks super-kernel scopes " + names +
         " (torchair.scope.super_kernel): only kernels of one scope join\n";
}

// The input as a model graph when it marks super-kernel scopes; nullopt otherwise, also for an
// input only the estimate route reads (an Inductor IR file, output_code.py), whose errors that
// route reports.
std::optional<pipeline::Input> ImportIfMarked(const std::string& path) {
  try {
    pipeline::Input in = inputs::Import(path);
    if (!MarkedScopesLine(in).empty()) return in;
  } catch (const InputError&) {
  }
  return std::nullopt;
}

int RunEstimateSuper(const EstimateOptions& opts, pipeline::Options o, pipeline::Input in) {
  if (!in.model) {
    throw InputError({opts.common.input, 0, 0},
                     "--superkernel needs a model graph: the kernels' order and data flow come "
                     "from it");
  }
  for (const auto& [k, v] : pipeline::BindCaseInputs(*in.model, opts.common.input))
    o.bindings.emplace(k, v);
  in.path = opts.common.input;
  o.build = false;
  const std::string marked = MarkedScopesLine(in);
  const pipeline::CompileResult r = pipeline::Compile(std::move(in), o);
  const pipeline::SuperEstimate e = pipeline::EstimateSuper(r, o);
  if (!opts.trace.empty()) {
    std::ofstream f(opts.trace, std::ios::binary | std::ios::trunc);
    f << pipeline::SuperTraceJson(e);
    if (!f) throw InputError({opts.trace, 0, 0}, "--trace: cannot write the file");
  }
  if (opts.common.json) {
    std::cout << pipeline::SuperEstimateJson(e);
    return 0;
  }
  std::cout << marked;
  for (const auto& d : e.decisions)
    std::printf("superkernel [%s]: %s\n", d.code.c_str(), d.message.c_str());
  for (std::size_t s = 0; s < e.segments.size(); ++s) {
    const auto& g = e.segments[s];
    std::printf(
        "super kernel %zu (%zu kernels, %d SyncAll, %d independent): separate %.2f us, super "
        "%.2f us (launches removed %.2f us, barriers %.2f us, early start %.2f us)\n",
        s, g.members.size(), g.syncs, g.independent, g.separate_us, g.super_us,
        g.launches_removed_us, g.barriers_us, g.early_start_us);
  }
  std::printf(
      "total: separate %.2f us (%d launches), super kernels %.2f us (%d launches), saving %.2f us "
      "(clock %.2f GHz, %.2f us per launch, %.2f us per SyncAll)\n",
      e.separate_us, e.separate_launches, e.super_us, e.super_launches, e.separate_us - e.super_us,
      e.clock_ghz, e.launch_us, e.sync_us);
  if (!opts.trace.empty()) std::printf("trace: %s\n", opts.trace.c_str());
  return 0;
}

}  // namespace

json ReportGroupings(const std::string& dir) {
  std::ifstream in(std::filesystem::path(dir) / "report.json");
  if (!in) return json::array();
  const json rep = json::parse(in, nullptr, false);
  if (rep.is_discarded() || !rep.contains("framework_groupings")) return json::array();
  return rep["framework_groupings"];
}

nlohmann::json KernelCountsJson(const pipeline::KernelCounts& c) {
  return {{"groups", c.groups},
          {"distinct", c.distinct},
          {"reused", c.reused},
          {"built", c.built},
          {"cached", c.cached}};
}

std::string KernelCountsLine(const pipeline::KernelCounts& c) {
  return "kernels: " + std::to_string(c.groups) + " groups, " + std::to_string(c.distinct) +
         " distinct (" + std::to_string(c.reused) + " reused), " + std::to_string(c.built) +
         " built, " + std::to_string(c.cached) + " from the cache\n";
}

int PrintCompiledGraph(const CompileOptions& opts, const pipeline::CompileResult& r) {
  if (opts.common.json) {
    json j;
    if (opts.timings) {
      json t;
      for (const auto& s : r.timings)
        t[s.stage] = s.ms;
      j["timings_ms"] = t;
    }
    json ks = json::array();
    for (const auto& k : r.kernels)
      ks.push_back({{"name", k.code.kernel_name},
                    {"graph", k.hint.name},
                    {"cases", k.schedule.cases.size()},
                    {"error_code", k.error_code}});
    j["kernels"] = ks;
    j["kernel_counts"] = KernelCountsJson(r.counts);
    j["fallbacks"] = r.front_end->fusion.fallbacks.size();
    j["framework_groupings"] = inputs::GroupingSummary(ReportGroupings(opts.out));
    j["out"] = opts.out;
    j["report"] = opts.out + "/report.json";
    j["fusion"] = opts.out + "/fusion.json";
    std::cout << j.dump(2) << "\n";
  } else {
    PrintFusion(r);
    if (opts.timings) {
      for (const auto& s : r.timings)
        std::printf("  %-9s %8.2f ms\n", s.stage.c_str(), s.ms);
    }
    std::cout << KernelCountsLine(r.counts);
    inputs::PrintGroupingSummary(ReportGroupings(opts.out), "");
    std::cout << "report: " << opts.out << "/report.json, fusion: " << opts.out << "/fusion.json\n";
  }
  return Refused(r);
}

int RunRunGraph(const RunCmdOptions& opts, const pipeline::Options& o, const pipeline::Input& in) {
  std::optional<double> atol;
  std::optional<double> rtol;
  if (opts.atol >= 0) atol = opts.atol;
  if (opts.rtol >= 0) rtol = opts.rtol;
  const std::string marked = MarkedScopesLine(in);
  const auto res = pipeline::RunCase(in, o, atol, rtol, {opts.inputs, opts.expect},
                                     {opts.superkernel || !marked.empty(), opts.seed});
  PrintFusion(res.compiled);
  std::cout << marked;
  for (const auto& line : res.log)
    std::cout << "  " << line << "\n";
  if (res.super_plan) PrintSuperRun(res, opts.seed);
  std::string summary;
  for (const auto& c : res.outputs) {
    char buf[320];
    std::snprintf(buf, sizeof buf, "%s%s max_abs=%.3g max_rel=%.3g (atol=%.3g rtol=%.3g)",
                  summary.empty() ? "" : "; ", c.name.c_str(), c.max_abs, c.max_rel, c.atol,
                  c.rtol);
    summary += buf;
    if (!c.ok) std::cout << "  " << c.name << ": " << c.message << "\n";
  }
  if (res.super_plan) {
    summary += (summary.empty() ? "" : "; ") + std::string("super kernels ") +
               (res.super_values_differ == 0 ? "= " : "!= ") + "separate kernels on " +
               std::to_string(res.super_values_checked) + " values";
  }
  std::cout << (res.ok ? "PASS " : "FAIL ") << summary << "\n";
  return res.ok ? 0 : 1;
}

int RunEstimate(const EstimateOptions& opts) {
  pipeline::Options o;
  o.soc = opts.common.soc;
  (void)hw::GetProfile(o.soc);
  ReadFlags(opts.common, &o.flags);  // as compile/run
  pipeline::ParseBindings(opts.common.bind, &o.bindings);
  if (opts.superkernel) return RunEstimateSuper(opts, o, inputs::Import(opts.common.input));
  if (std::optional<pipeline::Input> in = ImportIfMarked(opts.common.input))
    return RunEstimateSuper(opts, o, std::move(*in));
  if (!opts.trace.empty()) throw InputError({}, "--trace goes with --superkernel");
  const pipeline::GraphEstimate e = inputs::Estimate(opts.common.input, o);
  if (opts.common.json) {
    std::cout << pipeline::EstimateJson(e);
    return 0;
  }
  for (const auto& k : e.kernels) {
    std::printf("%s: fused %.2f us, unfused %.2f us, gain %.2fx", k.name.c_str(), k.fused_us,
                k.unfused_us, k.gain);
    if (k.dynamic_us > k.fused_us) {
      std::printf(" (static; dynamic %.2f us with the tiling function)", k.dynamic_us);
    }
    if (k.traffic_ratio > 0) std::printf(", traffic %.2fx compulsory", k.traffic_ratio);
    std::printf("\n");
  }
  for (const auto& s : e.skipped)
    std::printf("skipped %s: %s\n", s.name.c_str(), s.reason.c_str());
  std::printf(
      "total: fused %.2f us, unfused %.2f us, gain %.2fx (clock %.2f GHz, %.2f us per "
      "launch)\n",
      e.fused_us, e.unfused_us, e.gain, e.clock_ghz, e.launch_us);
  if (!e.cube_outside.empty() || e.graph_launches != static_cast<int>(e.kernels.size())) {
    std::printf(
        "graph: %d launches (%zu fused kernels + %zu cube ops outside them, %.2f us), "
        "modeled %.2f us\n",
        e.graph_launches, e.kernels.size(), e.cube_outside.size(), e.cube_outside_us, e.graph_us);
  }
  return 0;
}

}  // namespace af::cli
