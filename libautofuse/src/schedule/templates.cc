// Templates and the cases each enumerates.
#include "templates.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "af_tiling/elementwise.h"
#include "autofuse/ir/op_registry.h"
#include "cases.h"

namespace af::schedule {
namespace {

using ir::Graph;
using ir::Node;
using sym::Expr;

// Broadcasts the brc_inline template can leave to their consumers: every consumer is a binary op
// that can read the operand row by row. A column broadcast (innermost dim broadcast) becomes a
// scalar per row, so only ops with a scalar form qualify (Add/Mul/Max/Min on either side; Sub and
// float Div with the broadcast second: x - s = Adds(x, -s), x / s = Muls(x, 1 / s)).
//
// The buffer plan (shared by all templates) frees a broadcast's source at the Broadcast node; an
// inlined broadcast's consumers read the source itself, row by row, while they write their rows.
// So a broadcast is inlined only when no node after it up to its last consumer, that one included,
// writes into the source's buffer (found by the soak, seed 5: an explicit Broadcast long before its
// Minimum; Abs/Add/Sqrt took over the source's TBuf, and a consumer writing its row 0 over the
// source clobbered the values of the rows after it).
bool SourceOutlives(const ScheduleResult& r, std::size_t b,
                    const std::vector<std::pair<int, int>>& consumers) {
  const int src = r.graph.nodes[b].inputs.at(0).node;
  const std::optional<int> buf = r.placed.at(static_cast<std::size_t>(src)).buffer;
  int last = 0;
  for (const auto& [c, slot] : consumers)
    last = std::max(last, c);
  for (int j = static_cast<int>(b) + 1; buf && j <= last; ++j) {
    if (r.placed.at(static_cast<std::size_t>(j)).buffer == buf) return false;
  }
  return true;
}

std::vector<bool> InlinableBroadcasts(const ScheduleResult& r) {
  const Graph& g = r.graph;
  std::vector<bool> out(g.nodes.size(), false);
  const auto consumers = g.Consumers();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& b = g.nodes[i];
    if (b.type != "Broadcast" || consumers[i].empty()) continue;
    const ir::Tensor& src = g.nodes[b.inputs.at(0).node].outputs.at(0);
    if (src.axis.empty()) continue;
    if (!SourceOutlives(r, i, consumers[i])) continue;
    const bool column = src.repeats.back() == Expr(1);
    bool ok = true;
    for (const auto& [c, slot] : consumers[i]) {
      const Node& n = g.nodes[c];
      const std::string& op = n.type;
      if (n.inputs.size() != 2 || n.inputs[0].node == n.inputs[1].node) {
        ok = false;
        break;
      }
      const Node& other = g.nodes[n.inputs[1 - slot].node];
      if (other.type == "Broadcast" || other.type == "Scalar") {
        ok = false;
        break;
      }
      const bool commutative = op == "Add" || op == "Mul" || op == "Maximum" || op == "Minimum";
      const bool second =
          slot == 1 &&
          (op == "Sub" || ((op == "Div" || op == "TrueDiv") && ir::IsFloat(n.outputs.at(0).dtype)));
      const bool row_op = commutative || op == "Sub" || op == "Div" || op == "TrueDiv";
      if (column ? !(commutative || second) : !row_op) {
        ok = false;
        break;
      }
    }
    out[i] = ok;
  }
  return out;
}

bool Contiguous(const ir::Tensor& t) {
  if (t.strides.empty() || t.strides.back() != Expr(1)) return false;
  for (std::size_t j = 0; j + 1 < t.strides.size(); ++j) {
    if (sym::ProveEq(t.strides[j], t.strides[j + 1] * t.repeats[j + 1]) != sym::Tri::kTrue) {
      return false;
    }
  }
  return true;
}

// The unaligned variant needs: full loads and stores contiguous in GM (one copy per tile),
// broadcast results of one 2- or 4-byte element size (Gather's types), scalars feeding full
// tensors only. Returns the broadcast element size, or 0 when the variant does not apply.
int UnalignedBroadcastSize(const Graph& g, std::string* why) {
  int esize = 0;
  const auto consumers = g.Consumers();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (n.outputs.empty()) continue;
    const ir::Tensor& t = n.outputs[0];
    if ((n.type == "Load" || n.type == "Store") && OneMask(t) == 0 && !Contiguous(t)) {
      *why = "'" + n.name + "' is not contiguous in GM";
      return 0;
    }
    if (n.type == "Broadcast") {
      const int e = ir::DTypeBytes(t.dtype);
      if ((e != 2 && e != 4) || (esize != 0 && e != esize)) {
        *why = "broadcast '" + n.name + "' has no single 2- or 4-byte element size for Gather";
        return 0;
      }
      esize = e;
    }
    if (n.type == "Scalar") {
      for (const auto& [c, slot] : consumers[i]) {
        if (OneMask(g.nodes[c].outputs.at(0)) != 0) {
          *why = "scalar '" + n.name + "' feeds a broadcast-shaped tensor";
          return 0;
        }
      }
    }
  }
  if (esize == 0) *why = "no broadcast to compact";
  return esize;
}

// The concat templates: the concat dim and the dims after it stay whole in UB, so both tile a dim
// before it. concat copies each input's rows straight to its columns (DataCopy, 32-byte aligned
// starts); concat_gather (innermost concat dims, 2- and 4-byte elements) puts the rows side by
// side in a staging block and gathers the output rows from it.
void ConcatTemplates(ScheduleResult& r) {
  const Graph& g = r.graph;
  const Node& cat = g.nodes[static_cast<std::size_t>(*r.parts.concat)];
  const int c = *r.parts.dim;
  const int last = static_cast<int>(r.dims.size()) - 1;
  const std::string dim_name = g.FindAxis(r.dims[static_cast<std::size_t>(c)])->name;
  Template ub{"concat", CaseKind::kConcat, {}};
  for (int k = 0; k < c; ++k)
    AddCase(r, ub, k);
  r.decisions.push_back(
      {"templates", "TEMPLATE",
       "concat: '" + cat.name + "' (" + std::to_string(cat.inputs.size()) + " inputs along " +
           dim_name + ") in UB, each input's rows copied straight to its columns" +
           (c == last ? " (runs when every input but the last ends on a 32-byte boundary)" : "") +
           " (" + std::to_string(ub.cases.size()) + " case(s))"});
  r.templates.push_back(std::move(ub));
  const int esize = ir::DTypeBytes(cat.outputs.at(0).dtype);
  if (c != last) {
    r.decisions.push_back({"templates", "NO_CONCAT_GATHER",
                           "the concat dim " + dim_name +
                               " is not the innermost: its rows are whole padded rows, always "
                               "aligned"});
    return;
  }
  if (esize != 2 && esize != 4) {
    r.decisions.push_back({"templates", "NO_CONCAT_GATHER",
                           "'" + cat.name + "' has " + std::to_string(esize) +
                               "-byte elements; Gather moves 2- and 4-byte elements"});
    return;
  }
  Buffer st;
  st.id = static_cast<int>(r.buffers.size());
  st.kind = BufKind::kTBuf;
  st.esize = esize;
  st.one_mask = OneMask(cat.outputs.at(0));
  st.all_full = false;
  st.role = "concat_staging";
  st.part = af_tiling::kPartStaging;
  r.work.concat_staging = st.id;
  r.buffers.push_back(st);
  Buffer off = st;
  off.id = st.id + 1;
  off.esize = 4;
  off.role = "concat_offsets";
  off.part = af_tiling::kPartFull;
  r.work.concat_offsets = off.id;
  r.buffers.push_back(off);
  Template gt{"concat_gather", CaseKind::kConcatGather, {}};
  for (int k = 0; k < c; ++k)
    AddCase(r, gt, k);
  r.decisions.push_back({"templates", "TEMPLATE",
                         "concat_gather: the inputs' padded rows side by side in " + st.Name() +
                             ", the output rows gathered from it with offsets in " + off.Name() +
                             " (built once per core) (" + std::to_string(gt.cases.size()) +
                             " case(s))"});
  r.templates.push_back(std::move(gt));
}

// Parts without a Concat. Pieces (part dim 0): any dim is tiled, the outer loop walks the
// pieces. Otherwise (folded split pieces, slices): the part dim and the dims after it stay whole
// in UB, so the elementwise cases tile a dim before it.
void PartsTemplate(ScheduleResult& r) {
  const Graph& g = r.graph;
  const int n_dims = static_cast<int>(r.dims.size());
  Template t{"elementwise", CaseKind::kElementwise, {}};
  const int dim = *r.parts.dim;
  for (int k = 0; k < (dim == 0 ? n_dims : dim); ++k)
    AddCase(r, t, k);
  if (dim > 0) {
    r.decisions.push_back(
        {"templates", "PARTS_WHOLE_IN_UB",
         "tensors with extents of their own along " +
             g.FindAxis(r.dims[static_cast<std::size_t>(dim)])->name +
             ": it and the dims after it stay whole in UB (no brc_inline or unaligned "
             "variant)"});
  }
  r.templates.push_back(std::move(t));
}

// The unaligned template (when UnalignedBroadcastSize allows it): compact UB rows for the full
// tensors, one case per dim before the innermost (a tile of the innermost dim is a single row:
// already compact).
void UnalignedTemplate(ScheduleResult& r) {
  const Graph& g = r.graph;
  const int n_dims = static_cast<int>(r.dims.size());
  std::string why;
  const int bsize = n_dims >= 2 ? UnalignedBroadcastSize(g, &why) : 0;
  if (bsize != 0) {
    Buffer scr;
    scr.id = static_cast<int>(r.buffers.size());
    r.work.unaligned_scratch = scr.id;
    scr.kind = BufKind::kTBuf;
    scr.esize = bsize;
    scr.all_full = false;  // the aligned layout
    scr.role = "unaligned_scratch";
    r.buffers.push_back(scr);
    Buffer off = scr;
    off.id = scr.id + 1;
    off.esize = 4;
    off.all_full = true;  // one offset per compact element
    off.role = "unaligned_offsets";
    r.work.unaligned_offsets = off.id;
    r.buffers.push_back(off);
    Template un{"unaligned", CaseKind::kUnaligned, {}};
    for (int k = 0; k + 1 < n_dims; ++k)
      AddCase(r, un, k);
    r.decisions.push_back({"templates", "TEMPLATE",
                           "unaligned: full tensors without row padding in UB, broadcasts "
                           "compacted with Gather (" +
                               std::to_string(un.cases.size()) + " case(s))"});
    r.templates.push_back(std::move(un));
  } else if (n_dims >= 2) {
    r.decisions.push_back({"templates", "NO_UNALIGNED", "no unaligned variant: " + why});
  }
}

// Graphs without reductions or parts: elementwise (one case per dim; splitting a size-1 dim is
// pointless when others exist), brc_inline when some broadcast can be left to its consumers,
// unaligned.
void ElementwiseTemplates(ScheduleResult& r) {
  const Graph& g = r.graph;
  const int n_dims = static_cast<int>(r.dims.size());
  Template t{"elementwise", CaseKind::kElementwise, {}};
  for (int k = 0; k < n_dims; ++k)
    AddCase(r, t, k);
  r.templates.push_back(std::move(t));
  r.inlined = InlinableBroadcasts(r);
  std::string names;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (r.inlined[i]) names += (names.empty() ? "'" : ", '") + g.nodes[i].name + "'";
  }
  if (!names.empty()) {
    Template in{"brc_inline", CaseKind::kBrcInline, {}};
    for (int k = 0; k < n_dims; ++k)
      AddCase(r, in, k);
    r.decisions.push_back({"templates", "TEMPLATE",
                           "brc_inline: " + names +
                               " feed binary ops that read the operand row by row; not "
                               "materialised (" +
                               std::to_string(in.cases.size()) + " case(s))"});
    r.templates.push_back(std::move(in));
  }
  UnalignedTemplate(r);
}

bool HasArgMax(const Graph& g) {
  return std::any_of(g.nodes.begin(), g.nodes.end(),
                     [](const Node& n) { return n.type == "ArgMax"; });
}

// ArgMax's codegen reduces the innermost dim row by row (ReduceMax with calIndex) and keeps the
// running (value, index) per row in scalars: one reduced dim, the innermost.
void CheckArgMaxLayout(const ScheduleResult& r, int first_r, int r_count) {
  const int n_dims = static_cast<int>(r.dims.size());
  if (!HasArgMax(r.graph) || (r_count == 1 && first_r == n_dims - 1)) return;
  throw ScheduleError("ARGMAX_LAYOUT",
                      "graph '" + r.graph.name +
                          "': ArgMax is compiled only when the one reduced dim is the innermost "
                          "(after merging dims); here " +
                          std::to_string(r_count) + " reduced dim(s), the first at " +
                          std::to_string(first_r) + " of " + std::to_string(n_dims));
}

// r_core: for large R with little A, the R iterations go over cores (two phases joined by a GM
// workspace and SyncAll). Only single-level graphs with few nodes after the reduction, as in
// AutoFuse.
void RCoreTemplate(ScheduleResult& r, int first_r) {
  const Graph& g = r.graph;
  const int n_dims = static_cast<int>(r.dims.size());
  int post_nodes = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::OpDef* op = ir::FindOp(g.nodes[i].type);
    if (op != nullptr && op->compute == ir::ComputeType::kElewise && r.groups.avail[i] >= 1)
      ++post_nodes;
  }
  if (r.groups.passes != 1) {
    r.decisions.push_back({"templates", "NO_R_CORE",
                           "norm-like graph (" + std::to_string(r.groups.passes) +
                               " sweeps): the R-split template needs one reduction level"});
  } else if (post_nodes > 4) {
    r.decisions.push_back({"templates", "NO_R_CORE",
                           std::to_string(post_nodes) +
                               " elementwise nodes after the reduction (the R-split template "
                               "allows at most 4)"});
  } else {
    Template rc{"r_core", CaseKind::kRCore, {}};
    for (int k = first_r; k < n_dims; ++k)
      AddCase(r, rc, k);
    if (!rc.cases.empty()) {
      r.decisions.push_back({"templates", "TEMPLATE",
                             "r_core: reduce iterations split across cores through a workspace (" +
                                 std::to_string(rc.cases.size()) + " case(s))"});
      if (HasArgMax(g)) {
        r.decisions.push_back({"templates", "ARGMAX_R_CORE",
                               "ArgMax under r_core: each share writes its (value, index) pair "
                               "to the workspace, phase 2 merges them in share order (first "
                               "maximum, NaN the maximum; AutoFuse's ArgMaxMultiRPhase1/2)"});
      }
      r.templates.push_back(std::move(rc));
    }
  }
}

// Graphs with reductions: all_load, common and r_core.
void ReduceTemplates(ScheduleResult& r) {
  const Graph& g = r.graph;
  const int n_dims = static_cast<int>(r.dims.size());
  int first_r = n_dims;
  int r_count = 0;
  for (int j = n_dims - 1; j >= 0; --j) {
    if (r.groups.r_dim[j]) {
      first_r = j;
      ++r_count;
    }
  }
  CheckArgMaxLayout(r, first_r, r_count);
  if (r.groups.passes > 1) {
    r.decisions.push_back(
        {"templates", "NORM_LOOP",
         "a value feeding a reduction is also used after it (" + std::to_string(r.groups.passes) +
             " reduction levels): all_load computes it in one sweep; the common template sweeps "
             "the reduce loop " +
             std::to_string(r.groups.passes) + " times, re-reading its inputs"});
  }
  // all_load: every reduced dim in UB, so only kept dims before the first reduced one are tiled.
  Template all{"all_load", CaseKind::kAllLoad, {}};
  if (first_r == 0) {
    r.decisions.push_back({"templates", "NO_ALL_LOAD",
                           "the outermost dim is reduced (R first): all_load has no kept dim to "
                           "tile, as in AutoFuse (AllLoad needs AR/ARA patterns)"});
  } else if (r_count > 2) {
    r.decisions.push_back({"templates", "NO_ALL_LOAD",
                           std::to_string(r_count) +
                               " reduced dims: an all_load block would need more than 2 reduce "
                               "steps"});
  }
  for (int k = 0; k < first_r && r_count <= 2; ++k)
    AddCase(r, all, k);
  if (!all.cases.empty()) {
    r.decisions.push_back({"templates", "TEMPLATE",
                           "all_load: the whole reduced extent of a row stays in UB (" +
                               std::to_string(all.cases.size()) + " case(s))"});
    r.templates.push_back(std::move(all));
  }
  // common: tile a reduced dim (partial sums across tiles) or a kept dim after the first
  // reduced one (the reduced dims before it are looped).
  Template common{"common", CaseKind::kCommon, {}};
  for (int k = first_r; k < n_dims; ++k)
    AddCase(r, common, k);
  if (!common.cases.empty()) {
    r.decisions.push_back({"templates", "TEMPLATE",
                           "common: reduced dims tiled or looped with partial accumulation (" +
                               std::to_string(common.cases.size()) + " case(s))"});
    r.templates.push_back(std::move(common));
  }
  RCoreTemplate(r, first_r);
  if (r.cases.empty()) {
    throw ScheduleError("NO_TILING_CASE", "graph '" + g.name + "' has no schedulable tiling case");
  }
}

}  // namespace

void AddTemplates(ScheduleResult& r) {
  if (r.parts.dim && r.parts.concat) {
    ConcatTemplates(r);
  } else if (r.parts.dim && r.groups.passes == 0) {
    PartsTemplate(r);
  } else if (r.parts.dim) {
    throw ScheduleError("PARTS_WITH_REDUCE",
                        "tensors with extents of their own along " +
                            r.graph.FindAxis(r.dims[static_cast<std::size_t>(*r.parts.dim)])->name +
                            " in a graph with reductions: the reduce templates do not take them "
                            "yet");
  } else if (r.groups.passes == 0) {
    ElementwiseTemplates(r);
  } else {
    ReduceTemplates(r);
  }
}

bool SyncsAllCores(CaseKind kind) {
  return kind == CaseKind::kRCore;
}

std::string_view CaseKindName(CaseKind k) {
  switch (k) {
    case CaseKind::kElementwise:
      return "elementwise";
    case CaseKind::kAllLoad:
      return "all_load";
    case CaseKind::kCommon:
      return "common";
    case CaseKind::kRCore:
      return "r_core";
    case CaseKind::kBrcInline:
      return "brc_inline";
    case CaseKind::kUnaligned:
      return "unaligned";
    case CaseKind::kConcat:
      return "concat";
    case CaseKind::kConcatGather:
      return "concat_gather";
  }
  return "?";
}

}  // namespace af::schedule
