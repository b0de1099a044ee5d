// The schedule stage's driver: normalise, group the axes, find the parts, plan the buffers, add
// the templates and their cases, filter them by UB; and the readable dump of its result.
#include "autofuse/schedule/schedule.h"

#include <sstream>

#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/text.h"
#include "axis_groups.h"
#include "buffers.h"
#include "node_kinds.h"
#include "parts.h"
#include "templates.h"
#include "ub_filter.h"

namespace af::schedule {
namespace {

using ir::Graph;

// The codegen writes a store's block as rows of the innermost dim, contiguous in GM, one row per
// coordinate of the other dims at their own strides (codegen EmitCopy). A store whose innermost
// dim has a GM stride other than 1 (a transposed output such as permute(x, [1, 0]) stored in its
// own layout) would be written as if contiguous: a silent wrong result. It is refused instead; a
// framework group falls back, a hint graph is a bad input (afc exit 2).
void CheckStoreLayout(const ir::Node& n) {
  if (n.type != "Store" || n.outputs.empty()) return;
  const ir::Tensor& t = n.outputs[0];
  if (t.strides.empty() || t.strides.size() != t.repeats.size()) return;
  if (t.repeats.back() == sym::Expr(1) || t.strides.back() == sym::Expr(1)) return;
  throw ScheduleError("STORE_STRIDED_UNSUPPORTED",
                      "store '" + n.name + "' writes its innermost dimension with GM stride " +
                          t.strides.back().ToString() +
                          "; stores write contiguous rows of the innermost dimension only (a "
                          "transposed output is not supported)");
}

// Refuses normalised graphs the steps below cannot take: no Output, strided loads of elements
// Gather cannot move, stores the codegen cannot write as laid out, more than 31 loop axes (dim
// masks are 32-bit), Gathers with reductions.
void CheckGraph(const ScheduleResult& r) {
  const Graph& g = r.graph;
  bool has_output = false;
  for (const auto& n : g.nodes) {
    has_output = has_output || n.type == "Output";
    CheckStoreLayout(n);
    if (IsStridedLoad(n)) {
      // The Gather that puts a strided block into loop order moves 2- or 4-byte elements.
      const int e = ir::DTypeBytes(n.outputs.at(0).dtype);
      if (e != 2 && e != 4) {
        throw ScheduleError("STRIDED_LOAD_DTYPE",
                            "load '" + n.name + "' reads its innermost dimension with stride " +
                                n.outputs[0].strides.back().ToString() + " and has " +
                                std::to_string(e) +
                                "-byte elements; strided loads gather 2- or 4-byte elements");
      }
    }
  }
  if (!has_output) throw ScheduleError("NO_OUTPUTS", "graph '" + g.name + "' has no Output");
  if (g.axes.size() > 31) {
    throw ScheduleError("TOO_MANY_AXES", "graph '" + g.name + "' has more than 31 loop axes");
  }
}

// Pieces (parts along the outermost dim) run elementwise graphs without a Gather only.
void CheckPieces(const ScheduleResult& r) {
  const Graph& g = r.graph;
  for (const auto& n : g.nodes) {
    if (r.groups.passes > 0 || n.type == "Gather") {
      throw ScheduleError(r.groups.passes > 0 ? "PARTS_WITH_REDUCE" : "PIECES_WITH_GATHER",
                          "tensors with extents of their own along the outermost dim " +
                              g.FindAxis(r.dims[0])->name + " in a graph with " +
                              (r.groups.passes > 0 ? "reductions" : "a Gather ('" + n.name + "')") +
                              ": the pieces loop runs elementwise graphs only");
    }
  }
}

// Ops AutoFuse's back-end for this profile does not register (issue 22): we compile them all
// the same, and say so as a decision per node.
void RecordAutofuseRefusals(const Graph& g, const hw::Profile& profile,
                            std::vector<Decision>* out) {
  const bool v2 = profile.npu_arch == "dav-3510";
  for (const auto& n : g.nodes) {
    const ir::OpDef* op = ir::FindOp(n.type);
    if (op == nullptr) continue;
    const std::string code = ir::AutofuseRefusal(*op, v2);
    if (code.empty()) continue;
    out->push_back({"ops", code,
                    "'" + n.name + "': AutoFuse's " + (v2 ? "950 (V2)" : "A2/A3 (V1)") +
                        " back-end registers no " + n.type + "; " + profile.name +
                        " compiles it with the AscendC calls docs/ir.md lists"});
  }
}

// Innermost-dim Gathers (normalize: GATHER_INNERMOST_ROW) run on 950 profiles only: AutoFuse V1
// (A2/A3) refuses them, and so do we there. Each params row is held whole in UB beside the
// blocks: a row of more bytes than UB is refused here (dynamic sizes: the tiling finds no tile).
void CheckInnermostGathers(const Graph& g, const hw::Profile& profile) {
  const bool v2 = profile.npu_arch == "dav-3510";
  for (const auto& n : g.nodes) {
    if (n.type != "Gather" || !ir::GatherInnermost(n)) continue;
    if (!v2) {
      throw ScheduleError("GATHER_INNERMOST_INDEX",
                          "Gather '" + n.name +
                              "' gathers along the params' innermost dim: " + profile.name +
                              " is an A2/A3 profile, where AutoFuse V1 refuses it (V2, on the "
                              "950, loads it with IndirectLoad; our 950 profiles gather the "
                              "params row in UB)");
    }
    const ir::AttrValue* ext = n.FindAttr("gather_extent");
    const auto* e = ext != nullptr ? std::get_if<sym::Expr>(ext) : nullptr;
    const std::int64_t len = e != nullptr ? e->AsInt().value_or(-1) : -1;  // -1: dynamic
    const std::int64_t es = ir::DTypeBytes(n.outputs.at(0).dtype);
    if (len >= 0 && (len * es + 31) / 32 * 32 > profile.ub_bytes) {
      throw ScheduleError("GATHER_ROW_PAST_UB",
                          "Gather '" + n.name + "' gathers along a params row of " +
                              std::to_string(len) + " elements (" + std::to_string(len * es) +
                              " bytes), which is held whole in UB: more than the " +
                              std::to_string(profile.ub_bytes) + " bytes of " + profile.name);
    }
  }
}

}  // namespace

ScheduleResult Schedule(const ir::Graph& hint, const hw::Profile& profile,
                        const ScheduleOptions& options, const StageDump& dump) {
  ScheduleResult r;
  r.graph = Normalize(hint, options, &r.decisions, dump);
  const Graph& g = r.graph;
  RecordAutofuseRefusals(hint, profile, &r.decisions);  // the nodes as written (a Softmax)
  CheckInnermostGathers(g, profile);
  CheckGraph(r);
  for (const auto& a : g.axes)
    r.dims.push_back(a.id);
  GroupAxes(r);
  for (const auto& n : g.nodes) {
    if (n.type == "Gather" && r.groups.passes > 0) {
      throw ScheduleError("GATHER_WITH_REDUCE",
                          "Gather '" + n.name +
                              "' in a graph with reductions: the reduce templates do not take a "
                              "Gather yet");
    }
  }
  FindParts(r);
  if (r.parts.dim == 0) {
    CheckPieces(r);
    FindPieces(r);
  }
  PlanBuffers(r, profile);
  AddTemplates(r);
  StaticUbFilter(r, profile);
  if (r.cases.empty()) {
    throw ScheduleError("UB_OVERFLOW",
                        "graph '" + g.name +
                            (r.parts.dim && r.parts.concat
                                 ? "' has no concat case that fits UB and its alignment even "
                                   "with the smallest tiles"
                                 : "' does not fit UB even with the smallest tiles"));
  }
  return r;
}

ScheduleResult Schedule(const ir::Graph& hint, const hw::Profile& profile, const StageDump& dump) {
  return Schedule(hint, profile, ScheduleOptions{}, dump);
}

std::string DumpSchedule(const ScheduleResult& s) {
  std::ostringstream o;
  o << ir::DumpText(s.graph);
  o << "Buffers:\n";
  for (const auto& b : s.buffers) {
    o << "  " << b.Name() << " : " << BufKindName(b.kind) << " x" << b.buf_num << ", " << b.esize
      << "-byte elements, holds {";
    for (std::size_t i = 0; i < b.nodes.size(); ++i) {
      o << (i != 0u ? ", " : "") << s.graph.nodes[b.nodes[i]].name;
    }
    o << "}";
    if (b.one_mask != 0) {
      o << ", extent 1 along {";
      bool first = true;
      for (std::size_t j = 0; j < s.dims.size(); ++j) {
        if (((b.one_mask >> j) & 1u) == 0) continue;
        o << (first ? "" : ", ") << s.graph.FindAxis(s.dims[j])->name;
        first = false;
      }
      o << "}";
    }
    if (b.part > 0) {
      o << ", part " << b.part - 1 << " (extent "
        << s.parts.lens.at(static_cast<std::size_t>(b.part - 1)).ToString() << " along "
        << s.graph.FindAxis(s.dims[static_cast<std::size_t>(*s.parts.dim)])->name << ")";
    }
    if (!b.role.empty()) o << ", " << b.role;
    if (b.fixed_elems) o << " (" << b.fixed_elems->ToString() << " elements, any tile)";
    if (b.role == "gather_staging") {
      o << " (contiguous dim "
        << (b.gather_dim ? s.graph.FindAxis(s.dims[static_cast<std::size_t>(*b.gather_dim)])->name
                         : std::string("none"))
        << ")";
    }
    o << "\n";
  }
  if (s.groups.passes > 0) {
    o << "AxisGroups:\n  Y = {";
    bool first = true;
    for (std::size_t j = 0; j < s.dims.size(); ++j) {
      if (s.groups.r_dim[j]) continue;
      o << (first ? "" : ", ") << s.graph.FindAxis(s.dims[j])->name;
      first = false;
    }
    o << "}\n  R = {";
    first = true;
    for (std::size_t j = 0; j < s.dims.size(); ++j) {
      if (!s.groups.r_dim[j]) continue;
      o << (first ? "" : ", ") << s.graph.FindAxis(s.dims[j])->name;
      first = false;
    }
    o << "}\n  passes = " << s.groups.passes << "\n";
  }
  o << "Templates:\n";
  for (const auto& t : s.templates) {
    o << "  " << t.name << " :";
    for (int c : t.cases)
      o << " " << s.cases[c].name;
    o << "\n";
  }
  o << "Cases:\n";
  for (const auto& c : s.cases) {
    o << "  " << c.indexed_name << " " << c.name << " : " << CaseKindName(c.kind) << ", tile "
      << c.tile_var << "\n";
  }
  for (const auto& c : s.cases)
    o << "\n" << ir::DumpText(c.graph);
  return o.str();
}

}  // namespace af::schedule
