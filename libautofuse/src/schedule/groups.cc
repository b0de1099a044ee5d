// Multi-group partition of a hint graph (see autofuse/schedule/groups.h).
#include "autofuse/schedule/groups.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"
#include "expand_softmax.h"
#include "group_parts.h"
#include "node_kinds.h"

namespace af::schedule {
namespace {

using ir::Graph;
using ir::Node;
using sym::Expr;

// The axes a reduction removes: those where its input has an extent and its output has 1.
std::vector<std::int64_t> ReducedAxes(const Graph& g, const Node& n) {
  const ir::Tensor& in = g.nodes[static_cast<std::size_t>(n.inputs.at(0).node)].outputs.at(
      static_cast<std::size_t>(n.inputs[0].output));
  const ir::Tensor& out = n.outputs.at(0);
  std::vector<std::int64_t> axes;
  for (std::size_t j = 0; j < out.axis.size(); ++j) {
    const auto it = std::find(in.axis.begin(), in.axis.end(), out.axis[j]);
    if (it == in.axis.end()) continue;
    const Expr& r = in.repeats[static_cast<std::size_t>(it - in.axis.begin())];
    if (out.repeats[j] == Expr(1) && r != Expr(1)) axes.push_back(out.axis[j]);
  }
  std::sort(axes.begin(), axes.end());
  return axes;
}

// Data movement the reduce templates do not take (CONCAT_WITH_REDUCE, GATHER_WITH_REDUCE, and
// the split pieces of PARTS_WITH_REDUCE): in a graph with reductions each gets a group without
// reductions, and its results cross group boundaries through GM workspace tensors.
bool IsMovement(const Node& n) {
  return n.type == "Concat" || n.type == "Split" || n.type == "Gather";
}

// A node whose result another group reads from a workspace instead of recomputing it.
bool IsCut(const Node& n) {
  return IsReduce(n) || IsMovement(n);
}

// The mask of a group that moves data (no reduced axis has a negative id).
const std::vector<std::int64_t> kMovementMask = {-1};

std::string AxesText(const Graph& g, const std::vector<std::int64_t>& axes) {
  std::string s = "{";
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const ir::Axis* a = g.FindAxis(axes[i]);
    s += (i != 0u ? ", " : "") + (a != nullptr ? a->name : std::to_string(axes[i]));
  }
  return s + "}";
}

// The view of a workspace tensor: the reduction's repeats, laid out densely (stride 0 on
// extent-1 axes, as the hint graphs write reduced dims).
ir::Tensor WorkspaceView(const ir::Tensor& t) {
  return DenseView(t, t.dtype);
}

// A reduction's result read as a Gather's indices (argmax, then a gather of its rows): the
// workspace view keeps only the index dims (ir::GatherIndexDims: the reduction spans the params'
// trailing axes with extent 1, and those are dropped).
ir::Tensor IndexView(const Graph& g, const Node& gather, const ir::Tensor& ws) {
  const ir::Tensor& params =
      g.nodes.at(static_cast<std::size_t>(gather.inputs.at(0).node)).outputs.at(0);
  ir::Tensor v;
  v.dtype = ws.dtype;
  for (const std::size_t j : ir::GatherIndexDims(params, ws)) {
    v.axis.push_back(ws.axis[j]);
    v.repeats.push_back(ws.repeats[j]);
    v.strides.push_back(ws.strides[j]);
  }
  return v;
}

class Partitioner {
 public:
  explicit Partitioner(const Graph& g) : g_(g), phase_(g.nodes.size(), 0) {}

  GroupPartition Run() {
    AssignPhases();
    if (masks_.size() < 2) return {};
    for (const auto& n : g_.nodes) {
      if (n.type == "Data") ++inputs_;
      if (n.type == "Output") ++outputs_;
    }
    p_.num_params = inputs_ + outputs_;
    FindWorkspace();
    for (std::size_t q = 0; q < masks_.size(); ++q)
      needed_.push_back(Needed(static_cast<int>(q)));
    for (std::size_t q = 0; q < masks_.size(); ++q)
      p_.groups.push_back(BuildGroup(static_cast<int>(q)));
    return std::move(p_);
  }

 private:
  // Phases of reductions (the first compatible phase at or after the phases they read) and of
  // stores (the phase of the last reduction they read); `base_` is, per node, the latest phase
  // of a reduction it reads without another reduction between.
  void AssignPhases() {
    std::vector<int> base(g_.nodes.size(), 0);
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      int b = 0;
      for (const auto& in : n.inputs) {
        const auto u = static_cast<std::size_t>(in.node);
        b = std::max(b, IsCut(g_.nodes[u]) ? phase_[u] : base[u]);
      }
      base[i] = b;
      phase_[i] = b;
      if (IsMovement(n)) {
        phase_[i] = MovementPhase(n, b);
        continue;
      }
      if (!IsReduce(n)) continue;
      const auto axes = ReducedAxes(g_, n);
      if (axes.empty()) continue;  // reduces only extent-1 axes: fits any group
      has_reduce_ = true;
      const std::size_t q = FindPhase(b, axes);
      if (masks_[q].empty()) {
        masks_[q] = axes;
        first_[q] = n.name;
        if (q > 0 && masks_[q - 1] != kMovementMask) {
          p_.decisions.push_back({"groups", "GROUP_REDUCE_AXES",
                                  "reduction '" + n.name + "' removes " + AxesText(g_, axes) +
                                      ", group " + std::to_string(q - 1) + "'s reductions ('" +
                                      first_[q - 1] + "') remove " + AxesText(g_, masks_[q - 1]) +
                                      ": one loop nest cannot do both, so group " +
                                      std::to_string(q) + " starts here"});
        }
      }
      phase_[i] = static_cast<int>(q);
    }
    if (masks_.empty()) masks_.resize(1);
    if (!has_reduce_) return;
    for (std::size_t q = 0; q < masks_.size(); ++q) {
      if (masks_[q] != kMovementMask) continue;
      p_.decisions.push_back({"groups", "GROUP_DATA_MOVEMENT",
                              first_[q] +
                                  " in a graph with reductions: the reduce templates do "
                                  "not take it, so group " +
                                  std::to_string(q) +
                                  " moves the data without reducing, and the groups that "
                                  "reduce it read its result from a GM workspace"});
    }
  }

  // The phase of a Concat, Split or Gather whose inputs are ready in phase `b`: the first phase
  // from `b` on that has no reductions. A graph without reductions keeps them in one group.
  int MovementPhase(const Node& n, int b) {
    const std::size_t q = FindPhase(b, kMovementMask);
    const std::string what = n.type + " '" + n.name + "'";
    if (masks_[q].empty()) {
      masks_[q] = kMovementMask;
      first_[q] = what;
    } else {
      first_[q] += ", " + what;
    }
    return static_cast<int>(q);
  }

  // The first phase from `b` on that is unclaimed (its mask empty, added if need be) or whose
  // mask is `mask`.
  std::size_t FindPhase(int b, const std::vector<std::int64_t>& mask) {
    auto q = static_cast<std::size_t>(b);
    while (q < masks_.size() && !masks_[q].empty() && masks_[q] != mask)
      ++q;
    if (q >= masks_.size()) masks_.resize(q + 1);
    return q;
  }

  // Results of reductions and data movement read by a node of a later phase: each becomes a
  // workspace tensor.
  void FindWorkspace() {
    for (std::size_t q = 0; q < masks_.size(); ++q) {
      for (const int i : Needed(static_cast<int>(q))) {
        for (const auto& in : g_.nodes[static_cast<std::size_t>(i)].inputs) {
          const auto u = static_cast<std::size_t>(in.node);
          if (!IsCut(g_.nodes[u]) || phase_[u] == static_cast<int>(q)) continue;
          const std::pair<int, int> key{in.node, in.output};
          if (ws_of_.contains(key)) continue;
          const Node& src = g_.nodes[u];
          const ir::Tensor& t = src.outputs.at(static_cast<std::size_t>(in.output));
          Expr elems(1);
          for (const auto& r : t.repeats)
            elems = elems * r;
          ws_of_[key] = static_cast<int>(p_.workspace.size());
          const std::string value =
              src.name + (src.outputs.size() > 1 ? ".y" + std::to_string(in.output) : "");
          p_.workspace.push_back({value, t.dtype, elems, phase_[u]});
          p_.decisions.push_back(
              {"groups", "GROUP_WORKSPACE",
               (IsReduce(src) ? "reduction '" : src.type + " '") + value + "' (group " +
                   std::to_string(phase_[u]) + ") is read by group " + std::to_string(q) +
                   ": stored to GM workspace tensor " + std::to_string(p_.workspace.size() - 1) +
                   " of " + elems.ToString() + " " + std::string(ir::DTypeName(t.dtype)) +
                   " elements, then a SyncAll"});
        }
      }
    }
  }

  // The nodes group q computes, in graph order: its reductions and stores, their outputs, and
  // every non-reduction node they read (recomputed where several groups read it).
  std::vector<int> Needed(int q) const {
    std::vector<bool> need(g_.nodes.size(), false);
    for (std::size_t i = g_.nodes.size(); i-- > 0;) {
      const Node& n = g_.nodes[i];
      const bool seed = (IsCut(n) || n.type == "Store") && phase_[i] == q;
      if (seed) need[i] = true;
      if (!need[i]) continue;
      for (const auto& in : n.inputs) {
        const auto u = static_cast<std::size_t>(in.node);
        if (IsCut(g_.nodes[u]) && phase_[u] != q) continue;  // a workspace read
        need[u] = true;
      }
    }
    // Outputs follow their stores.
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      if (n.type == "Output" && !n.inputs.empty() &&
          need[static_cast<std::size_t>(n.inputs[0].node)])
        need[i] = true;
    }
    std::vector<int> out;
    for (std::size_t i = 0; i < need.size(); ++i)
      if (need[i]) out.push_back(static_cast<int>(i));
    return out;
  }

  GroupGraph BuildGroup(int q) {
    GroupGraph gg;
    Graph& h = gg.graph;
    h.name = g_.name + "_g" + std::to_string(q);
    h.type = g_.type;
    h.size_vars = g_.size_vars;
    h.axes = g_.axes;
    gg.moves_data = masks_[static_cast<std::size_t>(q)] == kMovementMask;
    if (!gg.moves_data) gg.reduced_axes = masks_[static_cast<std::size_t>(q)];
    const std::vector<int> needed = Needed(q);
    std::map<int, ir::InputRef> at;  // original node -> its value in h
    // (reading Gather or -1, original node, output) -> the workspace value in h. A Gather reads
    // its params and indices straight from a Data node of its own (normalize's GATHER_INPUT).
    std::map<std::tuple<int, int, int>, ir::InputRef> ws_at;
    int n_data = 0;
    std::vector<int> in_params;
    std::vector<int> out_params;
    std::set<std::string> names;
    for (const int i : needed)
      names.insert(g_.nodes[static_cast<std::size_t>(i)].name);
    // Workspace reads first (their Data/Load nodes), in workspace order.
    for (const int i : needed) {
      const Node& reader = g_.nodes[static_cast<std::size_t>(i)];
      const bool gather = reader.type == "Gather";
      for (std::size_t k = 0; k < reader.inputs.size(); ++k) {
        const ir::InputRef& in = reader.inputs[k];
        const auto u = static_cast<std::size_t>(in.node);
        const std::tuple<int, int, int> key{gather ? i : -1, in.node, in.output};
        if (!IsCut(g_.nodes[u]) || phase_[u] == q || ws_at.contains(key)) continue;
        const int w = ws_of_.at({in.node, in.output});
        ir::Tensor view =
            WorkspaceView(g_.nodes[u].outputs.at(static_cast<std::size_t>(in.output)));
        if (gather && k == 1) view = IndexView(g_, reader, view);
        Node d;
        d.name = FreshName(names, "workspace" + std::to_string(w));
        d.type = "Data";
        d.attrs["index"] = std::int64_t{n_data++};
        d.outputs.push_back(view);
        in_params.push_back(p_.num_params + w);
        h.nodes.push_back(d);
        gg.reads_workspace = true;
        if (gather) {
          ws_at[key] = {static_cast<int>(h.nodes.size() - 1), 0};
          continue;
        }
        Node l;
        l.name = FreshName(names, "workspace" + std::to_string(w) + "_load");
        l.type = "Load";
        l.inputs.push_back({static_cast<int>(h.nodes.size() - 1), 0});
        l.sched = g_.nodes[u].sched;
        l.outputs.push_back(view);
        h.nodes.push_back(l);
        ws_at[key] = {static_cast<int>(h.nodes.size() - 1), 0};
      }
    }
    int n_out = 0;
    for (const int i : needed) {
      Node n = g_.nodes[static_cast<std::size_t>(i)];
      for (auto& in : n.inputs) {
        const auto w = ws_at.find({n.type == "Gather" ? i : -1, in.node, in.output});
        const auto it = at.find(in.node);
        in = w != ws_at.end() ? w->second
             : it != at.end() ? ir::InputRef{it->second.node, in.output}
                              : in;
      }
      if (n.type == "Data") {
        in_params.push_back(static_cast<int>(n.IntAttr("index").value_or(0)));
        n.attrs["index"] = std::int64_t{n_data++};
      } else if (n.type == "Output") {
        out_params.push_back(inputs_ + static_cast<int>(n.IntAttr("index").value_or(0)));
        n.attrs["index"] = std::int64_t{n_out++};
      }
      h.nodes.push_back(n);
      const int self = static_cast<int>(h.nodes.size() - 1);
      at[i] = {self, 0};
      for (std::size_t k = 0; k < n.outputs.size(); ++k) {
        // A result later groups read: stored to its workspace tensor.
        const auto wi = ws_of_.find({i, static_cast<int>(k)});
        if (!IsCut(n) || wi == ws_of_.end()) continue;
        StoreWorkspace(h, names, n, {self, static_cast<int>(k)}, wi->second, &n_out);
        out_params.push_back(p_.num_params + wi->second);
      }
    }
    // Output nodes were renumbered in graph order; workspace outputs sit among them.
    gg.params = in_params;
    gg.params.insert(gg.params.end(), out_params.begin(), out_params.end());
    RecordRecompute(needed, q);
    FitAxes(h, q);
    return gg;
  }

  // A group that reads one piece of a Split (or computes one input of a Concat) has, along the
  // split dim, the piece's extent everywhere: its loop runs over that extent, not the whole dim's
  // (GROUP_AXIS_EXTENT), so its tensors have no extents of their own (PARTS_WITH_REDUCE).
  void FitAxes(Graph& h, int q) {
    for (std::size_t j = 0; j < h.axes.size(); ++j) {
      ir::Axis& a = h.axes[j];
      std::optional<Expr> extent;
      bool one = true;
      for (const auto& n : h.nodes) {
        if (n.type == "Data" || n.type == "Output") continue;
        for (const auto& t : n.outputs) {
          const auto it = std::find(t.axis.begin(), t.axis.end(), a.id);
          if (it == t.axis.end()) continue;
          const Expr& e = t.repeats[static_cast<std::size_t>(it - t.axis.begin())];
          if (e == Expr(1)) continue;
          if (!extent) extent = e;
          one = one && ir::SameRepeat(*extent, e);
        }
      }
      if (!extent || !one || ir::SameRepeat(*extent, a.size)) continue;
      p_.decisions.push_back({"groups", "GROUP_AXIS_EXTENT",
                              "group " + std::to_string(q) + " runs " + a.name + " over " +
                                  extent->ToString() +
                                  ", the extent of every tensor it computes, "
                                  "not the dim's " +
                                  a.size.ToString()});
      a.size = *extent;
    }
  }

  // Appends the Store and Output that write value `v` of `n` (in h) to workspace tensor `w`.
  static void StoreWorkspace(Graph& h, std::set<std::string>& names, const Node& n, ir::InputRef v,
                             int w, int* n_out) {
    AppendWorkspaceStore(h, names, v, n.outputs.at(static_cast<std::size_t>(v.output)), n.sched, w,
                         (*n_out)++);
  }

  // GROUP_RECOMPUTE: the elementwise nodes of other phases group q computes again.
  void RecordRecompute(const std::vector<int>& needed, int q) {
    std::size_t recomputed = 0;
    for (const int i : needed) {
      const Node& n = g_.nodes[static_cast<std::size_t>(i)];
      const int own = phase_[static_cast<std::size_t>(i)];
      if (IsCompute(n) && n.type != "Load" && n.type != "Store" && !IsCut(n) && own != q &&
          std::ranges::binary_search(needed_[static_cast<std::size_t>(own)], i))
        ++recomputed;
    }
    if (recomputed > 0) {
      p_.decisions.push_back({"groups", "GROUP_RECOMPUTE",
                              "group " + std::to_string(q) + " recomputes " +
                                  std::to_string(recomputed) +
                                  " elementwise node(s) it reads from its "
                                  "loads instead of reading them from GM"});
    }
  }

  const Graph& g_;
  std::vector<int> phase_;
  std::vector<std::vector<std::int64_t>> masks_;
  std::map<std::size_t, std::string> first_;
  std::map<std::pair<int, int>, int> ws_of_;  // (node, output) -> workspace tensor
  bool has_reduce_ = false;
  std::vector<std::vector<int>> needed_;  // per phase, Needed(phase)
  int inputs_ = 0;
  int outputs_ = 0;
  GroupPartition p_;
};

}  // namespace

GroupPartition PartitionGroups(const ir::Graph& hint) {
  if (std::any_of(hint.nodes.begin(), hint.nodes.end(), [](const Node& n) {
        const ir::OpDef* op = ir::FindOp(n.type);
        return op != nullptr && op->compute == ir::ComputeType::kCube;
      }))
    return PartitionCube(hint);
  if (std::none_of(hint.nodes.begin(), hint.nodes.end(),
                   [](const Node& n) { return n.type == "Softmax"; }))
    return Partitioner(hint).Run();
  // Softmax nodes as the reductions they are made of: their Max and Sum join the phases.
  ir::Graph g = hint;
  std::vector<Decision> expanded;
  ExpandSoftmax(g, &expanded);
  GroupPartition p = Partitioner(g).Run();
  if (!p.groups.empty()) p.decisions.insert(p.decisions.begin(), expanded.begin(), expanded.end());
  return p;
}

namespace {

// Drops the cases whose template synchronises all cores (r_core): inside a launch the groups
// share, the cores past such a case's block_dim would never reach its SyncAll.
void DropCoreSyncCases(ScheduleResult& s, std::size_t group) {
  const auto syncs = [](const ImplCase& c) { return SyncsAllCores(c.kind); };
  if (std::none_of(s.cases.begin(), s.cases.end(), syncs)) return;
  std::vector<int> new_index(s.cases.size(), -1);
  std::vector<ImplCase> kept;
  std::string dropped;
  for (std::size_t c = 0; c < s.cases.size(); ++c) {
    if (syncs(s.cases[c])) {
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
  const std::string g = "group " + std::to_string(group);
  s.decisions.push_back({"groups", "GROUP_NO_CORE_SYNC",
                         g + " does not offer " + dropped +
                             ": a template that synchronises all cores cannot run inside a kernel "
                             "whose launch the groups share"});
  if (s.cases.empty()) {
    throw ScheduleError("GROUP_NO_CORE_SYNC", g + " has only cases that synchronise all cores");
  }
}

}  // namespace

std::vector<ScheduleResult> ScheduleGroups(const GroupPartition& p, const hw::Profile& profile,
                                           const ScheduleOptions& options, const StageDump& dump) {
  std::vector<ScheduleResult> out;
  out.reserve(p.groups.size());
  for (std::size_t q = 0; q < p.groups.size(); ++q) {
    if (p.groups[q].cube) {
      // The cube group's code loads L0A in A2/A3's Zz fractals; the 950's L0A holds Nz fractals
      // (LoadData2DParams there copies Nz to Nz: asc-devkit issue #1660, maintainer's answer),
      // which the cube group does not generate.
      if (profile.npu_arch == "dav-3510") {
        throw ScheduleError("CUBE_L0A_NZ_UNSUPPORTED",
                            "cube node '" + p.groups[q].cube->node + "' on " + profile.name +
                                ": its L0A holds Nz fractals, the cube group is generated for "
                                "Atlas A2/A3's Zz L0A");
      }
      // The cube group has no vector schedule: its tiling is the cube's (att/cube.h).
      ScheduleResult cube;
      cube.graph = p.groups[q].graph;
      out.push_back(std::move(cube));
      continue;
    }
    out.push_back(Schedule(p.groups[q].graph, profile, options, dump));
    DropCoreSyncCases(out.back(), q);
  }
  return out;
}

std::string DumpGroups(const GroupPartition& p) {
  std::ostringstream o;
  for (std::size_t q = 0; q < p.groups.size(); ++q) {
    const GroupGraph& gg = p.groups[q];
    std::string what = gg.moves_data             ? "moves data"
                       : gg.reduced_axes.empty() ? std::string("elementwise")
                                                 : "reduces " + AxesText(gg.graph, gg.reduced_axes);
    if (gg.cube) {
      const CubeGroup& c = *gg.cube;
      what = "cube " + c.node + " M=" + c.m.ToString() + " N=" + c.n.ToString() +
             " K=" + c.k.ToString() +
             (c.batch.empty() ? "" : " batch=" + std::to_string(c.batch.size())) +
             (c.mm.transpose_x1 ? " x1^T" : "") + (c.mm.transpose_x2 ? " x2^T" : "") +
             ", templates kCommon" +
             (c.fixpipe ? std::string(" kFixpip (") + (c.fix_relu ? "relu, " : "") +
                              std::string(ir::DTypeName(c.fix_dtype)) + ", skips group " +
                              std::to_string(c.epilogue_group) + ")"
                        : "");
    }
    o << "group " << q << " " << gg.graph.name << ": " << what
      << (gg.reads_workspace ? ", after SyncAll" : "") << "\n  params:";
    for (const int k : gg.params) {
      if (k >= p.num_params) {
        o << " ws" << (k - p.num_params);
      } else {
        o << " " << k;
      }
    }
    o << "\n  nodes:";
    for (const auto& n : gg.graph.nodes)
      o << " " << n.name << ":" << n.type;
    o << "\n";
  }
  for (std::size_t w = 0; w < p.workspace.size(); ++w) {
    const auto& t = p.workspace[w];
    o << "workspace " << w << ": " << t.value << " " << ir::DTypeName(t.dtype) << " x "
      << t.elements.ToString() << " (group " << t.written_by << ")\n";
  }
  for (const auto& d : p.decisions)
    o << "decision " << d.code << ": " << d.message << "\n";
  return o.str();
}

}  // namespace af::schedule
