// afc compile / run on model graphs (see graph_cmds.h).
#include "graph_cmds.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "autofuse/importers/debug_dir.h"
#include "autofuse/pipeline/estimate.h"
#include "autofuse/pipeline/graph_driver.h"
#include "autofuse/support/error.h"

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
