// The traffic figure of a tiling (see traffic.h).
#include "autofuse/att/traffic.h"

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "autofuse/att/tiling.h"
#include "autofuse/ir/data_movement.h"

namespace af::att {
namespace {

using af_tiling::CaseParams;
using af_tiling::CaseSolution;
using af_tiling::PerfNode;

bool ReadsGm(const ir::Node& n) {
  return n.type == "Load" || n.type == "Gather";
}

// The view a load reads: its input, offset, strides and part; equal views read the same bytes.
std::tuple<int, std::string, int> ViewKey(const ir::Node& n, int index, int part) {
  if (n.type != "Load" || n.inputs.empty()) return {-1 - index, "", part};
  std::string key;
  if (const auto* off = n.FindAttr("offset")) {
    if (const auto* e = std::get_if<sym::Expr>(off)) key = e->ToString();
  }
  for (const auto& st : n.outputs.at(0).strides)
    key += "," + st.ToString();
  return {n.inputs[0].node, key, part};
}

// The bytes a load addresses: its extents along the dims where it varies, at its element size.
std::int64_t ViewBytes(const ir::Node& n, const CaseParams& p, const PerfNode& pn) {
  const ir::Tensor& t = n.outputs.at(0);
  const std::uint32_t one = schedule::OneMask(t);
  std::int64_t elems = 1;
  for (int j = 0; j < p.n_dims; ++j) {
    const bool zero_stride = static_cast<std::size_t>(j) < t.strides.size() &&
                             t.strides[j].AsInt().value_or(1) == 0 && n.type == "Load";
    if (af_tiling::Bit(one, j) || zero_stride) continue;
    elems *= af_tiling::PartExtent(p, j, pn.part);
  }
  return elems * static_cast<std::int64_t>(ir::DTypeBytes(t.dtype));
}

// The model's MTE2 bytes of one node, all cores: the case priced with that node alone.
std::int64_t NodeBytes(const CaseParams& p, const PerfNode& n, const CaseSolution& sol,
                       const af_tiling::PerfTable& table) {
  CaseParams one = p;
  one.nodes = &n;
  one.n_nodes = 1;
  auto m = std::make_unique<af_tiling::Model>();
  af_tiling::Prepare(one, table, m.get());
  CaseSolution x = sol;
  af_tiling::Price(*m, &x, true);
  return x.mte2_bytes;
}

std::string Ratio(std::int64_t model, std::int64_t compulsory) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", TrafficRatio(model, compulsory));
  return buf;
}

// Why load `pn` of case `c` is read more than once: the loops outside its block along which it
// does not vary, its sweeps, r_core's two phases. Appends the reasons to `out`; false when none
// applies.
bool ExplainRereads(const schedule::ScheduleResult& s, const schedule::ImplCase& c,
                    const CaseParams& p, const CaseSolution& sol, const PerfNode& pn,
                    const std::string& what, std::vector<schedule::Decision>* out) {
  const bool looped = c.kind == schedule::CaseKind::kCommon || c.kind == schedule::CaseKind::kRCore;
  const bool invariant = pn.when == af_tiling::kWhenBefore || pn.when == af_tiling::kWhenAfter;
  auto axis = [&](int j) { return s.graph.FindAxis(s.dims[j])->name; };
  std::string loops;
  for (int j = 0; j <= p.tile_dim && j < p.n_dims; ++j) {
    if (!af_tiling::Bit(pn.one_mask, j)) continue;
    // R-invariant inputs of the looped templates are read once per A iteration, before the R loop.
    if (looped && invariant && af_tiling::Bit(p.r_mask, j)) continue;
    const std::int64_t iters = j < p.tile_dim ? af_tiling::PartExtent(p, j, pn.part)
                                              : af_tiling::CeilDiv(p.dims[j], sol.tile);
    if (iters <= 1) continue;
    loops += (loops.empty() ? "" : ", ") + std::to_string(iters) +
             (j < p.tile_dim ? " iterations of " : " tiles of ") + axis(j);
  }
  const std::size_t before = out->size();
  if (!loops.empty()) {
    out->push_back({"tiling", "REREAD_BROADCAST_LOOP",
                    what + ": read again in each of the " + loops +
                        ", along which it does not vary; the case holds the dims from its tile "
                        "dim " +
                        axis(p.tile_dim) +
                        " inward in UB, so keeping the block across those loops would need them "
                        "inside the block"});
  }
  if (c.kind == schedule::CaseKind::kCommon && pn.when == af_tiling::kWhenVarying &&
      pn.sweeps > 1) {
    out->push_back({"tiling", "REREAD_NORM_SWEEPS",
                    what + ": read in each of the " + std::to_string(pn.sweeps) +
                        " sweeps of the norm loop (the common template re-reads its inputs "
                        "instead of writing a GM workspace, docs/schedule.md)"});
  }
  if (c.kind == schedule::CaseKind::kRCore && pn.when == af_tiling::kWhenBefore) {
    out->push_back({"tiling", "REREAD_R_CORE_PHASES",
                    what + ": an R-invariant input of r_core, read by phase 1 for each of the " +
                        std::to_string(sol.r_split) + " shares and again by phase 2"});
  }
  return out->size() > before;
}

}  // namespace

double TrafficRatio(std::int64_t model_bytes, std::int64_t compulsory_bytes) {
  if (compulsory_bytes <= 0) return model_bytes > 0 ? static_cast<double>(model_bytes) : 1.0;
  return static_cast<double>(model_bytes) / static_cast<double>(compulsory_bytes);
}

std::int64_t CompulsoryBytes(const schedule::ScheduleResult& s, int case_index,
                             const CaseParams& p) {
  std::vector<int> origin;
  const auto nodes = PerfNodesFor(s, case_index, &origin);
  std::map<std::tuple<int, std::string, int>, std::int64_t> views;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].kind != af_tiling::kNodeLoad || origin[i] < 0) continue;
    const ir::Node& n = s.graph.nodes[static_cast<std::size_t>(origin[i])];
    if (!ReadsGm(n)) continue;
    views[ViewKey(n, origin[i], nodes[i].part)] = ViewBytes(n, p, nodes[i]);
  }
  std::int64_t total = 0;
  for (const auto& [k, b] : views)
    total += b;
  return total;
}

Traffic TrafficOf(const schedule::ScheduleResult& s, int case_index, const CaseParams& p,
                  const CaseSolution& sol, int perf_version) {
  Traffic t;
  t.model_bytes = sol.mte2_bytes;
  if (!sol.ok) return t;
  const auto& c = s.cases.at(static_cast<std::size_t>(case_index));
  const af_tiling::PerfTable& table = af_tiling::PerfTableFor(perf_version);
  std::vector<int> origin;
  const auto nodes = PerfNodesFor(s, case_index, &origin);
  std::map<std::tuple<int, std::string, int>, std::int64_t> views;
  std::int64_t workspace = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const PerfNode& pn = nodes[i];
    if (pn.kind == af_tiling::kNodeWsLoad) workspace += NodeBytes(p, pn, sol, table);
    if (pn.kind != af_tiling::kNodeLoad || origin[i] < 0) continue;
    const ir::Node& n = s.graph.nodes[static_cast<std::size_t>(origin[i])];
    if (!ReadsGm(n)) continue;
    LoadTraffic lt;
    lt.load = n.name;
    lt.input = n.inputs.empty() ? n.name : s.graph.nodes[n.inputs[0].node].name;
    lt.model_bytes = NodeBytes(p, pn, sol, table);
    const auto key = ViewKey(n, origin[i], pn.part);
    const bool duplicate = views.contains(key);
    lt.compulsory_bytes = duplicate ? 0 : ViewBytes(n, p, pn);
    views[key] = lt.compulsory_bytes;
    t.compulsory_bytes += lt.compulsory_bytes;
    if (lt.model_bytes > lt.compulsory_bytes) {
      const std::string what = lt.load + " (" + lt.input + ") reads " +
                               std::to_string(lt.model_bytes) + " B for " +
                               std::to_string(lt.compulsory_bytes) + " B addressed (" +
                               Ratio(lt.model_bytes, lt.compulsory_bytes) + "x)";
      if (duplicate) {
        t.reasons.push_back({"tiling", "REREAD_DUPLICATE_LOAD",
                             what + ": the same view of " + lt.input + " as an earlier load"});
      } else {
        bool explained = ExplainRereads(s, c, p, sol, pn, what, &t.reasons);
        if (n.type == "Gather" && ir::GatherInnermost(n)) {
          // The innermost-dim Gather's design (docs/schedule.md "Gather"): the whole row, not
          // only the addressed elements.
          t.reasons.push_back({"tiling", "REREAD_GATHER_ROW",
                               what + ": an innermost-dim Gather loads each params row whole "
                                      "into UB and picks the indexed elements there, so it "
                                      "reads the row's elements no index addresses too"});
          explained = true;
        }
        if (!explained) t.reasons.push_back({"tiling", "REREAD_UNEXPLAINED", what});
      }
    }
    t.loads.push_back(lt);
  }
  if (workspace > 0) {
    t.reasons.push_back({"tiling", "R_CORE_WORKSPACE",
                         "r_core reads its partial results back from the GM workspace: " +
                             std::to_string(workspace) + " B"});
  }
  t.ratio = TrafficRatio(t.model_bytes, t.compulsory_bytes);
  return t;
}

}  // namespace af::att
