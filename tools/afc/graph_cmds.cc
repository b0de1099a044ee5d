// afc compile / run on model graphs (see graph_cmds.h).
#include "graph_cmds.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "autofuse/importers/debug_dir.h"
#include "autofuse/pipeline/estimate.h"
#include "autofuse/pipeline/graph_driver.h"
#include "autofuse/support/error.h"
#include "report.pb.h"

namespace af::cli {
namespace {

using nlohmann::json;

void PrintFusion(const pipeline::GraphCompileResult& r) {
  for (std::size_t i = 0; i < r.fusion.kernels.size(); ++i) {
    const auto& k = r.compiled.kernels[i];
    std::cout << "kernel " << (k.code.kernel_name.empty() ? k.hint.name : k.code.kernel_name)
              << ":";
    for (int id : r.fusion.kernels[i].nodes)
      std::cout << " " << r.graph.node(id).name;
    if (!k.error.empty()) std::cout << "  [not compiled: " << k.error_code << "]";
    std::cout << "\n";
  }
  for (const auto& f : r.fusion.fallbacks)
    std::cout << f.Text(r.graph) << "\n";
}

int Refused(const pipeline::GraphCompileResult& r) {
  int code = 0;
  for (const auto& k : r.compiled.kernels) {
    if (k.error.empty()) continue;
    std::cerr << "afc: " << k.origin << ": kernel '" << k.hint.name << "' not compiled ["
              << k.error_code << "]: " << k.error << "\n";
    code = 2;
  }
  return code;
}

}  // namespace

json GroupingSummary(const json& groupings) {
  json out = json::array();
  for (const auto& g : groupings) {
    json d = json::array();
    for (const auto& x : g.value("diffs", json::array()))
      d.push_back({{"kind", x.value("kind", "")},
                   {"inductor", x.value("inductor_groups", json::array())},
                   {"ours", x.value("our_groups", json::array())},
                   {"codes", x.value("codes", json::array())}});
    out.push_back({{"model", g.value("model", "")},
                   {"inductor_kernels", g.value("inductor_kernels", 0)},
                   {"our_kernels", g.value("our_kernels", 0)},
                   {"identical", g.value("identical", 0)},
                   {"split", g.value("split", 0)},
                   {"merged", g.value("merged", 0)},
                   {"inductor_only_nodes", g.value("inductor_only_nodes", 0)},
                   {"ours_only_nodes", g.value("ours_only_nodes", 0)},
                   {"diffs", d}});
  }
  return out;
}

void PrintGroupingSummary(const json& groupings, const std::string& indent) {
  auto join = [](const json& a, const char* sep) {
    std::string s;
    for (const auto& x : a)
      s += (s.empty() ? "" : sep) + x.get<std::string>();
    return s;
  };
  for (const auto& g : groupings) {
    std::cout << indent << "Inductor vs autofuse grouping ("
              << std::filesystem::path(g.value("model", "")).filename().string() << "): Inductor "
              << g.value("inductor_kernels", 0) << " kernel(s), ours " << g.value("our_kernels", 0)
              << "; " << g.value("identical", 0) << " identical, " << g.value("split", 0)
              << " split by us, " << g.value("merged", 0) << " merged by us; "
              << g.value("inductor_only_nodes", 0) << " node(s) only Inductor fuses, "
              << g.value("ours_only_nodes", 0) << " only we fuse\n";
    for (const auto& x : g.value("diffs", json::array())) {
      std::cout << indent << "  " << x.value("kind", "") << ": "
                << join(x.value("inductor_groups", json::array()), " + ") << " -> "
                << join(x.value("our_groups", json::array()), " + ");
      if (const auto codes = x.value("codes", json::array()); !codes.empty())
        std::cout << " [" << join(codes, ", ") << "]";
      std::cout << ": " << join(x.value("nodes", json::array()), " ") << "\n";
    }
    for (const auto& n : g.value("notes", json::array()))
      if (n.get<std::string>().rfind("not compared", 0) == 0)
        std::cout << indent << "  " << n.get<std::string>() << "\n";
  }
}

json ReportGroupings(const std::string& dir) {
  std::ifstream in(std::filesystem::path(dir) / "report.json");
  if (!in) return json::array();
  const json rep = json::parse(in, nullptr, false);
  if (rep.is_discarded() || !rep.contains("framework_groupings")) return json::array();
  return rep["framework_groupings"];
}

json FolderGroupings(const std::string& model_dir) {
  report::CompileReport rep;
  try {
    if (!pipeline::CompareWithInductor(model_dir, pipeline::Options{},
                                       rep.add_framework_groupings()))
      return json::array();
  } catch (const InputError& e) {
    return json::array(
        {{{"model", model_dir}, {"notes", {std::string("not compared: ") + e.what()}}}});
  }
  const json j = json::parse(pipeline::ReportToJson(rep), nullptr, false);
  return j.is_discarded() ? json::array() : j.value("framework_groupings", json::array());
}

int RunCompileGraph(const CompileOptions& opts, const pipeline::Options& o) {
  const auto r = pipeline::CompileModelGraph(opts.common.input, o);
  pipeline::WriteGraphOutputs(r, o, opts.out, opts.force);
  if (opts.common.json) {
    json j;
    if (opts.timings) {
      json t;
      for (const auto& s : r.compiled.timings)
        t[s.stage] = s.ms;
      j["timings_ms"] = t;
    }
    json ks = json::array();
    for (const auto& k : r.compiled.kernels)
      ks.push_back({{"name", k.code.kernel_name},
                    {"graph", k.hint.name},
                    {"cases", k.schedule.cases.size()},
                    {"error_code", k.error_code}});
    j["kernels"] = ks;
    j["fallbacks"] = r.fusion.fallbacks.size();
    j["framework_groupings"] = GroupingSummary(ReportGroupings(opts.out));
    j["out"] = opts.out;
    j["report"] = opts.out + "/report.json";
    j["fusion"] = opts.out + "/fusion.json";
    std::cout << j.dump(2) << "\n";
  } else {
    PrintFusion(r);
    if (opts.timings) {
      for (const auto& s : r.compiled.timings)
        std::printf("  %-9s %8.2f ms\n", s.stage.c_str(), s.ms);
    }
    PrintGroupingSummary(ReportGroupings(opts.out), "");
    std::cout << "report: " << opts.out << "/report.json, fusion: " << opts.out << "/fusion.json\n";
  }
  return Refused(r);
}

int RunRunGraph(const RunCmdOptions& opts, const pipeline::Options& o) {
  std::optional<double> atol;
  std::optional<double> rtol;
  if (opts.atol >= 0) atol = opts.atol;
  if (opts.rtol >= 0) rtol = opts.rtol;
  const auto res = pipeline::RunCase(opts.common.input, o, atol, rtol);
  PrintFusion(res.compiled);
  for (const auto& line : res.log)
    std::cout << "  " << line << "\n";
  std::string summary;
  for (const auto& c : res.outputs) {
    char buf[320];
    std::snprintf(buf, sizeof buf, "%s%s max_abs=%.3g max_rel=%.3g (atol=%.3g rtol=%.3g)",
                  summary.empty() ? "" : "; ", c.name.c_str(), c.max_abs, c.max_rel, c.atol,
                  c.rtol);
    summary += buf;
    if (!c.ok) std::cout << "  " << c.name << ": " << c.message << "\n";
  }
  std::cout << (res.ok ? "PASS " : "FAIL ") << summary << "\n";
  return res.ok ? 0 : 1;
}

int RunEstimate(const EstimateOptions& opts) {
  pipeline::Options o;
  o.soc = opts.common.soc;
  (void)hw::GetProfile(o.soc);
  // As compile/run: the environment's AutoFuse flags first, --flags wins.
  for (const char* env : {"AUTOFUSE_FLAGS", "AUTOFUSE_DFX_FLAGS"})
    if (const char* v = std::getenv(env); v != nullptr) pipeline::ParseFlags(v, &o.flags);
  pipeline::ParseFlags(opts.common.flags, &o.flags);
  pipeline::ParseBindings(opts.common.bind, &o.bindings);
  o.build = false;  // the model needs schedules and tilings, not binaries
  pipeline::GraphEstimate e;
  if (pipeline::IsModelGraphInput(opts.common.input)) {
    for (const auto& [k, v] : pipeline::BindCaseInputs(opts.common.input))
      o.bindings.emplace(k, v);
    const auto r = pipeline::CompileModelGraph(opts.common.input, o);
    e = pipeline::Estimate(r, o);
  } else {
    std::error_code ec;
    importers::inductor::DumpFileKind kind{};
    if (std::filesystem::is_regular_file(opts.common.input, ec) &&
        !importers::inductor::ClassifyDumpFile(opts.common.input, &kind)) {
      throw InputError({opts.common.input},
                       "afc estimate takes an FX graph, a PyTorch case directory or an Inductor "
                       "dump (torch_compile_debug folder, ir_post_fusion.txt); an AscGraph is "
                       "one kernel already, with no unfused form to compare (afc tile gives its "
                       "modeled cycles)");
    }
    e = pipeline::EstimateInductor(opts.common.input, o);
  }
  if (opts.common.json) {
    std::cout << pipeline::EstimateJson(e);
    return 0;
  }
  for (const auto& k : e.kernels)
    std::printf("%s: fused %.2f us, unfused %.2f us, gain %.2fx\n", k.name.c_str(), k.fused_us,
                k.unfused_us, k.gain);
  for (const auto& s : e.skipped)
    std::printf("skipped %s: %s\n", s.name.c_str(), s.reason.c_str());
  std::printf(
      "total: fused %.2f us, unfused %.2f us, gain %.2fx (clock %.2f GHz, %.2f us per "
      "launch)\n",
      e.fused_us, e.unfused_us, e.gain, e.clock_ghz, e.launch_us);
  return 0;
}

}  // namespace af::cli
