// afc diff: two CompileReports compared kernel by kernel (tools/report_diff, the comparison the
// viewer's Compare Runs shows) and, for front-end runs, the fusion decisions whose outcome
// changed. Exit 0 when they are the same, 1 when they differ, 2 on bad input.
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "autofuse/support/error.h"
#include "commands.h"
#include "report.pb.h"
#include "report_diff.h"

namespace af::cli {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::uintmax_t kMaxReportBytes = 512ull << 20;

// A report.json, or a folder `afc compile --out` wrote.
report::CompileReport LoadReport(const std::string& path) {
  std::error_code ec;
  std::string file = path;
  if (fs::is_directory(path, ec)) {
    file = (fs::path(path) / "report.json").string();
    if (!fs::is_regular_file(file, ec))
      throw InputError({path}, "is a folder without a report.json (afc compile --out writes one)");
  }
  if (!fs::exists(file, ec)) throw InputError({file}, "no such file");
  if (!fs::is_regular_file(file, ec)) throw InputError({file}, "is not a regular file");
  if (fs::file_size(file, ec) > kMaxReportBytes)
    throw InputError({file}, "is too large for a report");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError({file}, "cannot be read");
  std::ostringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  // Syntax first, for the line of the error; then the CompileReport schema.
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    const std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
    std::string why = e.what();  // "[json.exception...] parse error at line L, column C: why"
    if (const auto colon = why.find(": "); colon != std::string::npos) why = why.substr(colon + 2);
    throw InputError(LocateOffset(file, text, std::min(at, text.size())), "is not JSON: " + why);
  }
  if (!j.is_object() ||
      !(j.contains("tool_version") || j.contains("input") || j.contains("kernels")))
    throw InputError({file, 1}, "is not a CompileReport (no tool_version, input or kernels)");
  report::CompileReport rep;
  google::protobuf::util::JsonParseOptions opts;
  opts.ignore_unknown_fields = true;  // reports from newer versions still compare
  const auto st = google::protobuf::util::JsonStringToMessage(text, &rep, opts);
  if (!st.ok()) throw InputError({file, 1}, "is not a CompileReport: " + st.ToString());
  return rep;
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string CaseText(const reportdiff::KernelSide& s) {
  if (!s.refused.empty()) return "refused " + s.refused;
  if (s.case_name.empty()) return "no cases";
  std::string t = s.case_name;
  if (!s.template_name.empty()) t += " (" + s.template_name + ")";
  if (!s.tiled) t += ", unbound";
  return t;
}

json SideJson(const reportdiff::KernelSide& s) {
  if (!s.present) return nullptr;
  json j = {{"name", s.name},
            {"refused", s.refused},
            {"case", s.case_name},
            {"template", s.template_name},
            {"tiled", s.tiled}};
  if (s.tiled) {
    j["block_dim"] = s.block_dim;
    j["ub_bytes"] = s.ub_bytes;
    j["cycles"] = s.cycles;
    json pipes = json::object();
    for (std::size_t p = 0; p < 4; ++p)
      pipes[reportdiff::kPipeNames[p]] = s.pipes[p];
    j["pipes"] = pipes;
  }
  return j;
}

std::string Groups(const std::vector<std::string>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    s += (i == 0 ? "" : ", ") + v[i];
  return s + "]";
}

void PrintText(const reportdiff::ReportDiff& d, const std::string& a, const std::string& b) {
  std::cout << "A: " << a << "\nB: " << b << "\n";
  for (const auto& k : d.kernels) {
    const auto changes = k.Changes();
    if (changes.empty()) continue;
    std::cout << "kernel " << k.graph << ": ";
    if (!k.a.present || !k.b.present) {
      const auto& s = k.a.present ? k.a : k.b;
      std::cout << changes.front() << " (" << s.name << ", " << CaseText(s) << ")\n";
      continue;
    }
    std::cout << CaseText(k.a);
    if (CaseText(k.b) != CaseText(k.a)) std::cout << " -> " << CaseText(k.b);
    if (k.a.tiled && k.b.tiled) {
      auto pair = [](const char* what, const std::string& x, const std::string& y) {
        std::cout << ", " << what << " " << x;
        if (x != y) std::cout << " -> " << y;
      };
      pair("block_dim", std::to_string(k.a.block_dim), std::to_string(k.b.block_dim));
      pair("UB", std::to_string(k.a.ub_bytes) + " B", std::to_string(k.b.ub_bytes) + " B");
      pair("cycles", Num(k.a.cycles), Num(k.b.cycles));
      for (std::size_t p = 0; p < 4; ++p) {
        if (k.a.pipes[p] != k.b.pipes[p])
          pair(reportdiff::kPipeNames[p], Num(k.a.pipes[p]), Num(k.b.pipes[p]));
      }
    }
    std::cout << "\n";
  }
  for (const auto& dd : d.decisions) {
    std::cout << "decision " << dd.kind << " " << Groups(dd.first) << " + " << Groups(dd.second)
              << ": " << (dd.a.empty() ? "(not considered)" : dd.a) << " -> "
              << (dd.b.empty() ? "(not considered)" : dd.b) << "\n";
  }
  std::cout << d.kernels.size() << " kernel(s) compared, " << d.changedKernels() << " changed, "
            << d.decisions.size()
            << " fusion decision(s) changed: " << (d.identical() ? "identical" : "different")
            << "\n";
}

}  // namespace

int RunDiff(const DiffOptions& opts) {
  const report::CompileReport a = LoadReport(opts.a);
  const report::CompileReport b = LoadReport(opts.b);
  const reportdiff::ReportDiff d = reportdiff::Diff(a, b);
  if (!opts.json) {
    PrintText(d, opts.a, opts.b);
    return d.identical() ? 0 : 1;
  }
  json ks = json::array();
  for (const auto& k : d.kernels)
    ks.push_back(
        {{"graph", k.graph}, {"changes", k.Changes()}, {"a", SideJson(k.a)}, {"b", SideJson(k.b)}});
  json ds = json::array();
  for (const auto& dd : d.decisions)
    ds.push_back(
        {{"kind", dd.kind}, {"first", dd.first}, {"second", dd.second}, {"a", dd.a}, {"b", dd.b}});
  const json out = {{"a", opts.a},
                    {"b", opts.b},
                    {"identical", d.identical()},
                    {"changed_kernels", d.changedKernels()},
                    {"kernels", ks},
                    {"decisions", ds}};
  std::cout << out.dump(2) << "\n";
  return d.identical() ? 0 : 1;
}

}  // namespace af::cli
