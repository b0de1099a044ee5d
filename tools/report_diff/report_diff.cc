#include "report_diff.h"

#include <algorithm>
#include <map>
#include <utility>

#include "report.pb.h"

namespace af::reportdiff {
namespace {

// Graph names made unique within a report: the second kernel of graph g is "g #2".
std::vector<std::string> Keys(const report::CompileReport& r) {
  std::vector<std::string> keys;
  std::map<std::string, int> seen;
  for (const auto& k : r.kernels()) {
    std::string g = GraphName(k);
    if (g.empty()) g = k.name();
    const int n = ++seen[g];
    keys.push_back(n == 1 ? g : g + " #" + std::to_string(n));
  }
  return keys;
}

std::string Join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v)
    s += (s.empty() ? "" : ",") + x;
  return s;
}

// Outcome of every pair of groups, keyed by kind and the two groups (rounds are not compared:
// the same pair may come up in another round).
using Outcomes = std::map<std::string, DecisionDiff>;

Outcomes OutcomesOf(const report::CompileReport& r, bool side_a) {
  Outcomes out;
  for (const auto& d : r.fusion_decisions()) {
    std::vector<std::string> first(d.first().begin(), d.first().end());
    std::vector<std::string> second(d.second().begin(), d.second().end());
    const std::string key = d.kind() + "|" + Join(first) + "|" + Join(second);
    DecisionDiff& dd = out[key];
    dd.kind = d.kind();
    dd.first = std::move(first);
    dd.second = std::move(second);
    const std::string text =
        d.accepted() ? std::string("FUSED") : "refused " + d.code() + " (" + d.stage() + ")";
    std::string& slot = side_a ? dd.a : dd.b;
    if (slot.find(text) == std::string::npos) slot += (slot.empty() ? "" : "; ") + text;
  }
  return out;
}

}  // namespace

int DefaultCase(const report::KernelReport& k) {
  if (k.cases_size() == 0) return -1;
  if (k.has_tiling() && k.tiling().chosen_case() >= 0 &&
      k.tiling().chosen_case() < k.cases_size()) {
    return k.tiling().chosen_case();
  }
  return 0;
}

std::string GraphName(const report::KernelReport& k) {
  return k.hint_graph().graph_name();
}

std::string ShortCaseName(const report::KernelReport& k, int c) {
  if (c < 0 || c >= k.cases_size()) return {};
  const std::string& name = k.cases(c).name();
  const std::string prefix = GraphName(k) + "_";
  if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0)
    return name.substr(prefix.size());
  return name;
}

// A multi-group kernel (reductions over different axes, or cube + vector): its groups' chosen
// cases joined ("B0Y0 | kFixpip | -" with "-" for a group that does not run), the largest
// block_dim and UB, the summed cycles and vector pipes.
void GroupsSide(const report::KernelReport& k, KernelSide& s) {
  std::string cases;
  std::string templates;
  bool tiled = true;
  for (const auto& g : k.groups()) {
    std::string c = "-";
    std::string t = "-";
    if (g.has_cube()) {
      tiled = tiled && g.cube().tiled();
      c = g.cube().tiled() ? g.cube().template_name() : "cube";
      t = "cube";
      s.block_dim = std::max<std::int64_t>(s.block_dim, g.cube().block_dim());
    } else if (!g.skipped()) {
      const int gc = DefaultCase(g);
      c = ShortCaseName(g, gc);
      t = gc >= 0 ? g.cases(gc).template_name() : "";
      tiled = tiled && g.has_tiling();
      if (g.has_tiling()) {
        s.block_dim = std::max<std::int64_t>(s.block_dim, g.tiling().block_dim());
        s.ub_bytes = std::max<std::int64_t>(s.ub_bytes, g.tiling().ub_bytes());
      }
      if (g.has_tiling() && gc >= 0) {
        const auto& cr = g.cases(gc);
        s.pipes[0] += cr.mte2_cycles();
        s.pipes[1] += cr.mte3_cycles();
        s.pipes[2] += cr.vec_cycles();
        s.pipes[3] += cr.scalar_cycles();
      }
    }
    cases += (cases.empty() ? "" : " | ") + c;
    templates += (templates.empty() ? "" : " | ") + t;
  }
  s.case_name = cases;
  s.template_name = templates;
  s.tiled = tiled;
  s.cycles = k.groups_modeled_cycles();
}

KernelSide Side(const report::KernelReport& k) {
  KernelSide s;
  s.present = true;
  s.name = k.name();
  s.refused = k.error_code();
  if (k.groups_size() > 0 && s.refused.empty()) {
    GroupsSide(k, s);
    return s;
  }
  const int c = DefaultCase(k);
  if (c >= 0) {
    s.case_name = ShortCaseName(k, c);
    s.template_name = k.cases(c).template_name();
  }
  if (k.has_tiling() && s.refused.empty()) {
    s.tiled = true;
    s.block_dim = k.tiling().block_dim();
    s.ub_bytes = k.tiling().ub_bytes();
    s.cycles = k.tiling().modeled_cycles();
    if (c >= 0) {
      const auto& cr = k.cases(c);
      s.pipes[0] = cr.mte2_cycles();
      s.pipes[1] = cr.mte3_cycles();
      s.pipes[2] = cr.vec_cycles();
      s.pipes[3] = cr.scalar_cycles();
    }
  }
  return s;
}

std::vector<std::string> KernelDiff::Changes() const {
  if (a.present != b.present) return {a.present ? "only in A" : "only in B"};
  std::vector<std::string> c;
  if (a.refused != b.refused) c.emplace_back("refused");
  if (a.case_name != b.case_name) c.emplace_back("case");
  if (a.template_name != b.template_name) c.emplace_back("template");
  if (a.tiled != b.tiled || a.block_dim != b.block_dim) c.emplace_back("block_dim");
  if (a.ub_bytes != b.ub_bytes) c.emplace_back("ub_bytes");
  if (a.cycles != b.cycles) c.emplace_back("cycles");
  if (a.pipes != b.pipes) c.emplace_back("pipes");
  return c;
}

std::vector<KernelDiff> DiffKernels(const report::CompileReport& a,
                                    const report::CompileReport& b) {
  std::vector<KernelDiff> out;
  const std::vector<std::string> ka = Keys(a);
  const std::vector<std::string> kb = Keys(b);
  std::vector<bool> used(kb.size(), false);
  for (std::size_t i = 0; i < ka.size(); ++i) {
    KernelDiff d;
    d.graph = ka[i];
    d.a = Side(a.kernels(static_cast<int>(i)));
    for (std::size_t j = 0; j < kb.size(); ++j) {
      if (!used[j] && kb[j] == ka[i]) {
        used[j] = true;
        d.b = Side(b.kernels(static_cast<int>(j)));
        break;
      }
    }
    out.push_back(std::move(d));
  }
  for (std::size_t j = 0; j < kb.size(); ++j) {
    if (used[j]) continue;
    KernelDiff d;
    d.graph = kb[j];
    d.b = Side(b.kernels(static_cast<int>(j)));
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<DecisionDiff> DiffDecisions(const report::CompileReport& a,
                                        const report::CompileReport& b) {
  Outcomes all = OutcomesOf(a, true);
  for (auto& [key, d] : OutcomesOf(b, false)) {
    auto it = all.find(key);
    if (it == all.end()) {
      all.emplace(key, std::move(d));
    } else {
      it->second.b = d.b;
    }
  }
  std::vector<DecisionDiff> out;
  for (auto& [key, d] : all) {
    if (d.a != d.b) out.push_back(std::move(d));
  }
  return out;
}

int ReportDiff::changedKernels() const {
  return static_cast<int>(std::count_if(kernels.begin(), kernels.end(),
                                        [](const KernelDiff& d) { return d.changed(); }));
}

ReportDiff Diff(const report::CompileReport& a, const report::CompileReport& b) {
  return {DiffKernels(a, b), DiffDecisions(a, b)};
}

}  // namespace af::reportdiff
