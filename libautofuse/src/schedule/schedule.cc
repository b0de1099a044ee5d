// Axis groups, templates, tiling cases, impl graphs and UB buffers for normalised hint graphs.
#include "autofuse/schedule/schedule.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "af_tiling/elementwise.h"
#include "autofuse/ir/axis_algebra.h"
#include "autofuse/ir/data_movement.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/ir/text.h"

namespace af::schedule {
namespace {

using ir::Graph;
using ir::Node;
using sym::Expr;

bool IsCompute(const Node& n) {
  const ir::OpDef* op = ir::FindOp(n.type);
  return op != nullptr && op->compute != ir::ComputeType::kBuffer;
}

bool IsReduce(const Node& n) {
  return ir::IsReduceOp(n.type);
}

// A Load whose innermost dim is read with a stride other than 1 (and is not a broadcast).
bool IsStridedLoad(const Node& n) {
  if (n.type != "Load" || n.outputs.empty()) return false;
  const ir::Tensor& t = n.outputs[0];
  if (t.strides.empty()) return false;
  return t.strides.back() != Expr(1) && t.repeats.back() != Expr(1);
}

// The dim a strided load reads contiguously (stride 1, extent > 1), or -1.
int ContiguousDim(const ir::Tensor& t) {
  for (std::size_t j = 0; j < t.strides.size(); ++j) {
    if (t.strides[j] == Expr(1) && t.repeats[j] != Expr(1)) return static_cast<int>(j);
  }
  return -1;
}

}  // namespace

std::uint32_t OneMask(const ir::Tensor& t) {
  std::uint32_t m = 0;
  for (std::size_t j = 0; j < t.repeats.size() && j < 32; ++j) {
    if (t.repeats[j] == Expr(1)) m |= 1u << j;
  }
  return m;
}

std::vector<bool> SweepNodes(const ScheduleResult& s, int p) {
  const auto& g = s.graph;
  const int n = static_cast<int>(g.nodes.size());
  std::vector<bool> need(static_cast<std::size_t>(n), false);
  std::vector<int> stack;
  for (int i = 0; i < n; ++i) {
    const Node& node = g.nodes[i];
    const bool target = (IsReduce(node) && s.avail[i] - 1 == p) ||
                        (node.type == "Store" && !s.r_invariant[i] && s.avail[i] == p);
    if (target) stack.push_back(i);
  }
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (need[i]) continue;
    need[i] = true;
    for (const auto& in : g.nodes[i].inputs) {
      const Node& src = g.nodes[in.node];
      if (s.r_invariant[in.node] || IsReduce(src) || src.type == "Data") continue;
      stack.push_back(in.node);
    }
  }
  return need;
}

namespace {

// UB strides of a tensor's vectorised dims (its own repeats): innermost 1, the next the innermost
// repeat aligned to 32 bytes, then products.
std::vector<Expr> UbStrides(const ir::Tensor& t, const std::vector<std::int64_t>& vec_axes,
                            std::int64_t row_align) {
  std::vector<Expr> rep;
  for (auto id : vec_axes) {
    const auto it = std::find(t.axis.begin(), t.axis.end(), id);
    rep.push_back(it == t.axis.end() ? Expr(1) : t.repeats[it - t.axis.begin()]);
  }
  std::vector<Expr> strides(rep.size(), Expr(1));
  if (rep.empty()) return strides;
  Expr acc = Expr(1);
  for (std::size_t k = rep.size(); k-- > 0;) {
    strides[k] = acc;
    acc = k + 1 == rep.size() ? sym::Align(rep[k], Expr(row_align)) * acc : rep[k] * acc;
  }
  return strides;
}

// Queue/buffer plan shared by every case (it depends on the graph, not on the tile).
void PlanBuffers(ScheduleResult& r, const hw::Profile& profile) {
  const Graph& g = r.graph;
  const int n = static_cast<int>(g.nodes.size());
  const bool reduces = r.passes > 0;
  // In reduce graphs, R-invariant results (reduce results and what is computed from them, and
  // broadcast operands loaded once per A iteration) live across the R loop of the common
  // template: they get buffers of their own, never shared by lifetime.
  auto persistent = [&](int i) {
    return reduces && (r.r_invariant[i] || IsReduce(g.nodes[i])) && g.nodes[i].type != "Store";
  };
  r.node_buffer.assign(n, -1);
  r.staged.assign(n, false);
  r.store_queue.assign(n, -1);
  r.gather_queue.assign(n, -1);
  r.gather_offsets.assign(n, -1);
  const auto consumers = g.Consumers();
  std::vector<int> loads;  // contiguous-row loads
  std::vector<int> strided;
  std::vector<int> stores;
  // Gathers read rows from GM into a VECIN queue like loads; they come first, so they get queues
  // of their own (the staging path is for plain loads).
  for (int i = 0; i < n; ++i) {
    if (g.nodes[i].type == "Gather") loads.push_back(i);
  }
  for (int i = 0; i < n; ++i) {
    if (g.nodes[i].type == "Load") (IsStridedLoad(g.nodes[i]) ? strided : loads).push_back(i);
    if (g.nodes[i].type == "Store") stores.push_back(i);
  }
  auto add = [&](BufKind kind, int buf_num, int esize) {
    Buffer b;
    b.id = static_cast<int>(r.buffers.size());
    b.kind = kind;
    b.buf_num = buf_num;
    b.esize = esize;
    r.buffers.push_back(b);
    return b.id;
  };
  auto esize = [&](int node) {
    return std::max(1, ir::DTypeBytes(g.nodes[node].outputs[0].dtype));
  };
  const int budget = static_cast<int>(profile.max_queues);
  // VECOUT: one queue per store when that leaves a VECIN queue, else one shared queue.
  const int min_in = static_cast<int>(strided.size()) + (loads.empty() ? 0 : 1);
  const bool own_out = static_cast<int>(stores.size()) + min_in <= budget;
  auto part_of = [&](int i) {
    return g.nodes[i].outputs.empty() ? af_tiling::kPartFull : PartOf(r, g.nodes[i].outputs[0]);
  };
  // Shared VECOUT queues: one per part of the stores when the budget allows (each sized for its
  // part), else one.
  std::set<int> store_parts;
  for (int s : stores)
    store_parts.insert(part_of(s));
  const bool out_per_part = static_cast<int>(store_parts.size()) + min_in <= budget;
  std::map<int, int> store_queue;  // store node -> buffer
  std::map<int, int> shared_out;   // part (kPartFull when one for all) -> buffer
  for (int s : stores) {
    const int producer = g.nodes[s].inputs[0].node;
    if (own_out) {
      store_queue[s] = add(BufKind::kQueueOut, 2, esize(producer));
    } else {
      const int key = out_per_part ? part_of(s) : af_tiling::kPartFull;
      if (!shared_out.contains(key)) shared_out[key] = add(BufKind::kQueueOut, 2, esize(producer));
      const int q = shared_out[key];
      r.buffers[q].esize = std::max(r.buffers[q].esize, esize(producer));
      store_queue[s] = q;
    }
  }
  if (!own_out) {
    r.decisions.push_back(
        {"buffers", "SHARED_VECOUT_QUEUE",
         std::to_string(stores.size()) + " stores share " +
             (shared_out.size() == 1
                  ? std::string("one VECOUT queue")
                  : std::to_string(shared_out.size()) + " VECOUT queues, one per part") +
             " (queue budget " + std::to_string(budget) + "); results are copied into it"});
  }
  const int out_queues =
      own_out ? static_cast<int>(stores.size()) : static_cast<int>(shared_out.size());
  if (out_queues + min_in > budget) {
    throw ScheduleError("TOO_MANY_STRIDED_LOADS",
                        "graph '" + g.name + "' has " + std::to_string(strided.size()) +
                            " strided loads, each needing a VECIN queue of its own, besides " +
                            std::to_string(out_queues) + " VECOUT queue(s)" +
                            (loads.empty() ? "" : " and one for its other loads") +
                            " (queue budget " + std::to_string(budget) + ")");
  }
  // Strided loads: a VECIN queue for the GM-order block, a TBuf (below) for the loop-order one,
  // and the Gather offsets between them.
  for (const int l : strided) {
    const int q = add(BufKind::kQueueIn, 2, esize(l));
    r.buffers[q].role = "gather_staging";
    r.buffers[q].gather_dim = ContiguousDim(g.nodes[l].outputs[0]);
    r.gather_queue[l] = q;
    const int off = add(BufKind::kTBuf, 1, 4);
    r.buffers[off].role = "gather_offsets";
    r.buffers[off].one_mask = OneMask(g.nodes[l].outputs[0]);
    r.buffers[off].all_full = false;
    r.gather_offsets[l] = off;
    const int gd = r.buffers[q].gather_dim;
    r.decisions.push_back(
        {"buffers", "STRIDED_LOAD_GATHER",
         "'" + g.nodes[l].name + "' reads its innermost dim with stride " +
             g.nodes[l].outputs[0].strides.back().ToString() + ": copied in GM order into " +
             r.buffers[q].Name() +
             (gd >= 0 ? " (rows along " + g.FindAxis(r.dims[static_cast<std::size_t>(gd)])->name +
                            " when the tile dim is at or before it, else one element per row)"
                      : " (one element per row: no dim is contiguous)") +
             ", then gathered into loop order with offsets in " + r.buffers[off].Name()});
  }
  std::vector<int> last_use(n, -1);
  for (int i = 0; i < n; ++i) {
    for (const auto& [c, slot] : consumers[i])
      last_use[i] = std::max(last_use[i], c);
  }
  // A load takes over the VECIN queue of an earlier load of the same dtype size and part once
  // that one's values are dead (a concat turned into stores: one input after another). Only in
  // graphs with parts: their templates (elementwise, concat) free a load at its last reader, as
  // planned here; the reduce and brc_inline templates keep some loads longer.
  const bool queue_reuse = r.part_dim >= 0 && !reduces;
  auto reusable_queue = [&](int l, const std::vector<int>& owner) {
    for (std::size_t q = 0; queue_reuse && q < owner.size() && g.nodes[l].type == "Load"; ++q) {
      const int o = owner[q];
      if (last_use[o] < l && esize(o) == esize(l) && part_of(o) == part_of(l)) {
        return static_cast<int>(q);
      }
    }
    return -1;
  };
  int needed = 0;  // VECIN queues the loads need with that reuse
  {
    std::vector<int> owner;  // per queue: its latest load
    for (const int l : loads) {
      const int q = reusable_queue(l, owner);
      if (q >= 0) {
        owner[static_cast<std::size_t>(q)] = l;
      } else {
        owner.push_back(l);
      }
    }
    needed = static_cast<int>(owner.size());
  }
  const int in_budget = std::max(1, budget - out_queues - static_cast<int>(strided.size()));
  const bool stage = needed > in_budget;
  int staging = -1;
  std::vector<int> owner;     // per own VECIN queue: its latest load
  std::vector<int> queue_of;  // per own VECIN queue: the buffer
  for (const int l : loads) {
    const int q = reusable_queue(l, owner);
    if (q >= 0) {
      owner[static_cast<std::size_t>(q)] = l;
      r.node_buffer[l] = queue_of[static_cast<std::size_t>(q)];
      r.decisions.push_back({"buffers", "REUSE_QUEUE",
                             "'" + g.nodes[l].name + "' reuses " +
                                 r.buffers[static_cast<std::size_t>(r.node_buffer[l])].Name() +
                                 " (the previous load's values are dead)"});
    } else if (!stage || static_cast<int>(owner.size()) < in_budget - 1) {
      r.node_buffer[l] = add(BufKind::kQueueIn, 2, esize(l));
      owner.push_back(l);
      queue_of.push_back(r.node_buffer[l]);
    } else if (g.nodes[l].type == "Gather") {
      throw ScheduleError("TOO_MANY_GATHERS",
                          "Gather '" + g.nodes[l].name +
                              "' would need a VECIN queue beyond the budget of " +
                              std::to_string(budget));
    } else {
      if (staging < 0) {
        staging = add(BufKind::kQueueIn, 2, esize(l));
        r.staging_queue = staging;
        r.decisions.push_back({"buffers", "UB2UB_STAGING",
                               "more loads than VECIN queues (" + std::to_string(in_budget) +
                                   "): later loads go through a shared queue and a UB-to-UB "
                                   "copy into a TBuf"});
      }
      r.buffers[staging].esize = std::max(r.buffers[staging].esize, esize(l));
      r.staged[l] = true;
    }
  }
  // Compute results: straight into the store's queue when the store is the only consumer and
  // the queue is its own; otherwise a TBuf, reused once its last consumer has run by a tensor of
  // the same element size and part.
  struct Slot {
    int buffer;
    int busy_until;
    int part;
  };
  std::vector<Slot> slots;
  for (int i = 0; i < n; ++i) {
    const Node& node = g.nodes[i];
    const bool gathered = r.gather_queue[i] >= 0;
    const bool needs_tbuf =
        (IsCompute(node) && node.type != "Load" && node.type != "Store" && node.type != "Gather") ||
        node.type == "Scalar" || r.staged[i] || gathered;
    if (!needs_tbuf) continue;
    if (consumers[i].size() == 1 && own_out && g.nodes[consumers[i][0].first].type == "Store" &&
        node.type != "Scalar" && !r.staged[i] && !gathered && !persistent(i)) {
      r.node_buffer[i] = store_queue[consumers[i][0].first];
      continue;
    }
    int chosen = -1;
    for (auto& s : slots) {
      if (persistent(i)) break;
      if (s.busy_until < i && r.buffers[s.buffer].esize == esize(i) && s.part == part_of(i)) {
        // The buffer grows to the larger block: extent 1 only where both blocks have it.
        r.buffers[s.buffer].one_mask &= OneMask(node.outputs.at(0));
        chosen = s.buffer;
        s.busy_until = last_use[i];
        break;
      }
    }
    if (chosen < 0) {
      chosen = add(BufKind::kTBuf, 1, esize(i));
      r.buffers[chosen].one_mask = OneMask(node.outputs.at(0));
      if (!persistent(i)) slots.push_back({chosen, last_use[i], part_of(i)});
    } else {
      r.decisions.push_back({"buffers", "REUSE_TBUF",
                             "'" + node.name + "' reuses " + r.buffers[chosen].Name() +
                                 " (its previous tensor is dead)"});
    }
    r.node_buffer[i] = chosen;
  }
  for (const auto& [s, q] : store_queue)
    r.store_queue[s] = q;
  // Comparison work buffers (see ScheduleResult::cmp_mask).
  bool compares = false;
  for (int i = 0; i < n; ++i) {
    const ir::OpDef* op = ir::FindOp(g.nodes[i].type);
    if (op != nullptr && op->compute == ir::ComputeType::kElewise &&
        (op->out_rule == ir::DTypeRule::kBool || g.nodes[i].type == "Where" ||
         g.nodes[i].type == "Select")) {
      compares = compares || g.nodes[i].type != "LogicalNot";
    }
  }
  if (compares) {
    r.cmp_mask = add(BufKind::kTBuf, 1, 1);
    r.buffers[r.cmp_mask].role = "cmp_mask";
    r.buffers[r.cmp_mask].all_full = false;
    r.cmp_half = add(BufKind::kTBuf, 1, 2);
    r.buffers[r.cmp_half].role = "cmp_half";
    r.buffers[r.cmp_half].all_full = false;
    r.vec_align_bytes = 512;
  }
  // Reduce work buffers: the partial result of one R iteration (common template), and the
  // intermediate of a two-step reduction (two R dims inside one UB block).
  if (reduces) {
    std::uint32_t out_mask = ~0u;
    std::uint32_t in_mask = ~0u;
    for (int i = 0; i < n; ++i) {
      if (!IsReduce(g.nodes[i])) continue;
      out_mask &= OneMask(g.nodes[i].outputs.at(0));
      const auto& in = g.nodes[i].inputs.at(0);
      in_mask &= OneMask(g.nodes[in.node].outputs.at(in.output));
    }
    r.reduce_partial = add(BufKind::kTBuf, 1, 4);
    r.buffers[r.reduce_partial].one_mask = out_mask;
    r.buffers[r.reduce_partial].role = "reduce_partial";
    int r_dims = 0;
    for (bool b : r.r_dim)
      r_dims += b ? 1 : 0;
    if (r_dims >= 2) {
      r.reduce_scratch = add(BufKind::kTBuf, 1, 4);
      r.buffers[r.reduce_scratch].one_mask = in_mask;
      r.buffers[r.reduce_scratch].role = "reduce_scratch";
    }
  }
  // Row alignment: 32 bytes of the narrowest dtype held in UB.
  int min_esize = 4;
  for (const auto& b : r.buffers)
    min_esize = std::min(min_esize, b.esize);
  r.row_align = 32 / std::max(1, min_esize);
  // Staged loads keep their own TBuf (above) and borrow the staging queue while copying.
  for (int i = 0; i < n; ++i) {
    if (r.node_buffer[i] >= 0) r.buffers[r.node_buffer[i]].nodes.push_back(i);
  }
  if (staging >= 0) {
    for (int i = 0; i < n; ++i) {
      if (r.staged[i]) r.buffers[staging].nodes.push_back(i);
    }
  }
  for (int i = 0; i < n; ++i) {
    if (r.gather_queue[i] >= 0) r.buffers[r.gather_queue[i]].nodes.push_back(i);
  }
  for (auto& b : r.buffers) {
    for (int i : b.nodes) {
      if (!g.nodes[i].outputs.empty() && OneMask(g.nodes[i].outputs[0]) != 0) b.all_full = false;
    }
  }
  for (int st = 0; st < n; ++st) {
    if (r.store_queue[st] >= 0 && OneMask(g.nodes[st].outputs.at(0)) != 0) {
      r.buffers[r.store_queue[st]].all_full = false;
    }
  }
  // Queue masks: dims along which every block the queue carries has extent 1.
  for (auto& b : r.buffers) {
    if (b.kind == BufKind::kTBuf) continue;
    std::uint32_t m = ~0u;
    for (int i : b.nodes)
      m &= g.nodes[i].outputs.empty() ? 0u : OneMask(g.nodes[i].outputs[0]);
    for (int st = 0; st < n; ++st) {
      if (r.store_queue[st] == b.id) m &= OneMask(g.nodes[st].outputs.at(0));
    }
    b.one_mask = b.nodes.empty() && m == ~0u ? 0u : m;
  }
  for (auto& b : r.buffers) {
    if (r.dims.size() < 32) b.one_mask &= (1u << r.dims.size()) - 1u;
  }
  // Concat parts: a buffer whose every tenant has one input's extent along the concat dim is
  // sized for it; any other mix gets the full extent.
  if (r.part_dim >= 0) {
    for (auto& b : r.buffers) {
      std::vector<const ir::Tensor*> held;
      for (int i : b.nodes) {
        if (!g.nodes[i].outputs.empty()) held.push_back(g.nodes[i].outputs.data());
      }
      for (int st = 0; st < n; ++st) {
        if (r.store_queue[st] == b.id) held.push_back(&g.nodes[st].outputs.at(0));
      }
      int part = held.empty() ? af_tiling::kPartFull : PartOf(r, *held[0]);
      for (const auto* t : held) {
        if (PartOf(r, *t) != part) part = af_tiling::kPartFull;
      }
      b.part = part;
    }
  }
}

// Parts: finds the graph's Concat (at most one) and the dim along which tensors have extents of
// their own (its inputs, folded split pieces, slices), before the buffers are planned. Refuses
// what the templates cannot run: parts along two dims, or along the outermost dim (no dim
// before it to tile).
void FindParts(ScheduleResult& r) {
  const Graph& g = r.graph;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type != "Concat") continue;
    if (r.concat >= 0) {
      throw ScheduleError("CONCAT_COUNT", "graph '" + g.name + "' has more than one Concat ('" +
                                              g.nodes[static_cast<std::size_t>(r.concat)].name +
                                              "', '" + g.nodes[i].name +
                                              "'); the UB concat templates take one");
    }
    r.concat = static_cast<int>(i);
  }
  std::string first;  // the first tensor with an extent of its own, for messages
  if (r.concat >= 0) {
    const Node& cat = g.nodes[static_cast<std::size_t>(r.concat)];
    if (r.passes > 0) {
      throw ScheduleError("CONCAT_WITH_REDUCE",
                          "Concat '" + cat.name +
                              "' in a graph with reductions: the reduce templates do not take a "
                              "Concat yet");
    }
    if (const auto dim = ir::ConcatDim(g, cat)) {
      if (cat.inputs.size() > static_cast<std::size_t>(af_tiling::kMaxParts)) {
        throw ScheduleError("CONCAT_TOO_MANY_INPUTS",
                            "Concat '" + cat.name + "' has " + std::to_string(cat.inputs.size()) +
                                " inputs; the UB concat template takes at most " +
                                std::to_string(af_tiling::kMaxParts) +
                                ", and it could not become one store per input (decision "
                                "CONCAT_KEPT says why)");
      }
      if (*dim == 0) {
        throw ScheduleError(
            "CONCAT_FIRST_DIM",
            "Concat '" + cat.name + "' concatenates along the outermost loop dim (" +
                g.FindAxis(r.dims[0])->name +
                ") but could not become one store per input (GM concat; decision CONCAT_KEPT "
                "says why), and the UB concat needs a dim before it to tile");
      }
      r.part_dim = static_cast<int>(*dim);
      for (std::size_t k = 0; k < cat.inputs.size(); ++k)
        r.part_lens.push_back(ir::InputTensor(g, cat, k)->repeats.at(*dim));
      r.cat_inputs = static_cast<int>(cat.inputs.size());
      first = "Concat '" + cat.name + "'";
    }
  }
  for (const auto& n : g.nodes) {
    if (n.type == "Data" || n.type == "Output" || n.outputs.empty()) continue;
    const ir::Tensor& t = n.outputs[0];
    if (t.axis.size() != r.dims.size()) continue;
    for (std::size_t j = 0; j < r.dims.size(); ++j) {
      const Expr& e = t.repeats[j];
      if (e == Expr(1) || ir::SameRepeat(e, g.FindAxis(r.dims[j])->size)) continue;
      if (r.part_dim >= 0 && static_cast<std::size_t>(r.part_dim) != j) {
        throw ScheduleError("PARTS_ALONG_TWO_DIMS",
                            "'" + n.name + "' has an extent of its own along " +
                                g.FindAxis(r.dims[j])->name + ", " + first + " along " +
                                g.FindAxis(r.dims[static_cast<std::size_t>(r.part_dim)])->name +
                                "; one dim can hold parts");
      }
      if (r.part_dim < 0) {
        r.part_dim = static_cast<int>(j);
        first = "'" + n.name + "'";
      }
      if (j == 0) continue;  // pieces: FindPieces
      bool known = false;
      for (const auto& l : r.part_lens)
        known = known || ir::SameRepeat(l, e);
      if (known) continue;
      if (r.part_lens.size() >= static_cast<std::size_t>(af_tiling::kMaxParts)) {
        throw ScheduleError("TOO_MANY_PARTS", "more than " + std::to_string(af_tiling::kMaxParts) +
                                                  " distinct extents along " +
                                                  g.FindAxis(r.dims[j])->name);
      }
      r.part_lens.push_back(e);
    }
  }
}

// Parts along the outermost dim (split pieces, a concat's stores, slices): the graph's values
// fall into pieces, the connected groups of nodes with an extent of their own along it, each
// one a loop nest of its own; the outer loop walks the pieces one after another, and the axis
// size becomes the sum of their extents. Nodes of extent 1 along it run for every piece.
void FindPieces(ScheduleResult& r) {
  Graph& g = r.graph;
  const int n = static_cast<int>(g.nodes.size());
  auto own = [&](int i) {
    const Node& node = g.nodes[static_cast<std::size_t>(i)];
    return node.type != "Data" && node.type != "Output" && !node.outputs.empty() &&
           !node.outputs[0].axis.empty() && node.outputs[0].repeats.at(0) != Expr(1);
  };
  std::vector<int> root(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    root[static_cast<std::size_t>(i)] = i;
  auto find = [&](int i) {
    while (root[static_cast<std::size_t>(i)] != i)
      i = root[static_cast<std::size_t>(i)] =
          root[static_cast<std::size_t>(root[static_cast<std::size_t>(i)])];
    return i;
  };
  for (int i = 0; i < n; ++i) {
    if (!own(i)) continue;
    for (const auto& in : g.nodes[static_cast<std::size_t>(i)].inputs) {
      if (own(in.node)) root[static_cast<std::size_t>(find(in.node))] = find(i);
    }
  }
  r.part_lens.clear();
  r.node_piece.assign(static_cast<std::size_t>(n), -1);
  std::map<int, int> piece_of_root;
  Expr total(0);
  std::string names;
  for (int i = 0; i < n; ++i) {
    if (!own(i)) continue;
    const Expr& e = g.nodes[static_cast<std::size_t>(i)].outputs[0].repeats[0];
    const auto [it, added] =
        piece_of_root.try_emplace(find(i), static_cast<int>(r.part_lens.size()));
    if (added) {
      if (r.part_lens.size() >= static_cast<std::size_t>(af_tiling::kMaxParts)) {
        throw ScheduleError("TOO_MANY_PARTS", "more than " + std::to_string(af_tiling::kMaxParts) +
                                                  " pieces along " + g.FindAxis(r.dims[0])->name);
      }
      r.part_lens.push_back(e);
      total = total + e;
      names += std::string(names.empty() ? "" : ", ") + e.ToString() + " ('" +
               g.nodes[static_cast<std::size_t>(i)].name + "')";
    } else if (!ir::SameRepeat(r.part_lens[static_cast<std::size_t>(it->second)], e)) {
      throw ScheduleError("PIECE_EXTENTS_DIFFER",
                          "'" + g.nodes[static_cast<std::size_t>(i)].name + "' has extent " +
                              e.ToString() + " along " + g.FindAxis(r.dims[0])->name +
                              " but reads values of extent " +
                              r.part_lens[static_cast<std::size_t>(it->second)].ToString());
    }
    r.node_piece[static_cast<std::size_t>(i)] = it->second;
  }
  // Each piece's nodes in one run (after the nodes every piece runs, which read none of
  // them), so the kernel runs each piece's nodes under one `if`.
  std::vector<int> order;
  for (int p = -1; p < static_cast<int>(r.part_lens.size()); ++p) {
    for (int i = 0; i < n; ++i) {
      if (r.node_piece[static_cast<std::size_t>(i)] == p &&
          g.nodes[static_cast<std::size_t>(i)].type != "Output") {
        order.push_back(i);
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    if (g.nodes[static_cast<std::size_t>(i)].type == "Output") order.push_back(i);
  }
  std::vector<int> at(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    at[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
  auto permute = [&](auto& v) {
    auto old = v;
    for (int k = 0; k < n && static_cast<std::size_t>(k) < old.size(); ++k)
      v[static_cast<std::size_t>(k)] =
          old[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])];
  };
  permute(g.nodes);
  permute(r.node_piece);
  permute(r.avail);
  permute(r.r_invariant);
  for (auto& node : g.nodes) {
    for (auto& in : node.inputs)
      in.node = at[static_cast<std::size_t>(in.node)];
  }
  ir::Axis* a = g.FindAxis(r.dims[0]);
  r.decisions.push_back({"templates", "PIECES",
                         std::to_string(r.part_lens.size()) + " piece(s) along the outermost dim " +
                             a->name + ", one after another in its loop: " + names +
                             "; nodes of extent 1 along it run for "
                             "every piece"});
  a->size = total;
}

// Memory placement of the impl graph's tensors, from the buffer plan.
void AnnotateMemory(ImplCase& c, const ScheduleResult& r) {
  std::int64_t tensor_id = 0;
  for (std::size_t i = 0; i < c.graph.nodes.size(); ++i) {
    Node& n = c.graph.nodes[i];
    for (auto& t : n.outputs) {
      t.mem = {};
      t.que = {};
      t.buf = {};
      t.mem.tensor_id = tensor_id++;
      const int b = r.node_buffer[i];
      if (b < 0) {
        t.mem.alloc_type = ir::AllocType::kGlobal;
        t.mem.position = ir::Position::kGM;
        t.mem.hardware = ir::Hardware::kGM;
        continue;
      }
      const Buffer& buf = r.buffers[b];
      t.mem.hardware = ir::Hardware::kUB;
      if (buf.kind == BufKind::kTBuf) {
        t.mem.alloc_type = ir::AllocType::kBuffer;
        t.mem.position = ir::Position::kVecCalc;
        t.buf.id = buf.id;
      } else {
        t.mem.alloc_type = ir::AllocType::kQueue;
        t.mem.position =
            buf.kind == BufKind::kQueueIn ? ir::Position::kVecIn : ir::Position::kVecOut;
        t.que = {buf.id, 1, buf.buf_num, ""};
      }
    }
  }
}

// Fuses `ids` (in loop order) into one merged axis replacing them in every node's loop list, at
// the position of the first. Returns the merged id (the axis itself when there is only one).
std::int64_t FuseAxes(Graph& g, const std::vector<std::int64_t>& ids) {
  if (ids.size() == 1) return ids[0];
  ir::Axis m;
  m.id = g.NextAxisId();
  m.type = ir::AxisType::kMerged;
  m.size = Expr(1);
  for (auto id : ids) {
    m.name += g.FindAxis(id)->name;
    m.size = m.size * g.FindAxis(id)->size;
  }
  m.from = ids;
  g.axes.push_back(m);
  for (auto& n : g.nodes) {
    auto& s = n.sched.axis;
    if (s.empty()) continue;
    std::vector<std::int64_t> rest;
    bool placed = false;
    for (auto id : s) {
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) {
        rest.push_back(id);
      } else if (!placed) {
        rest.push_back(m.id);
        placed = true;
      }
    }
    s = rest;
  }
  return m.id;
}

// The impl graph of tiling dim k: TileSplit d[k]; the A (kept) outer loops and, for a kept tile
// dim, the tile-outer loop fused and block-split over cores; the R outer loops and, for a reduced
// tile dim, the tile-outer loop fused into one sequential reduce loop; then the vectorised dims.
ImplCase BuildCase(const ScheduleResult& r, int k, CaseKind kind) {
  ImplCase c;
  c.tile_dim = k;
  c.kind = kind;
  int a_index = 0;
  int r_index = 0;
  for (int j = 0; j < k; ++j)
    (r.r_dim[j] ? r_index : a_index) += 1;
  c.name = r.graph.name +
           (r.r_dim[k] ? "_B0R" + std::to_string(r_index) : "_B0Y" + std::to_string(a_index)) +
           (kind == CaseKind::kBrcInline   ? "_inline"
            : kind == CaseKind::kUnaligned ? "_unaligned"
                                           : "");
  c.graph = r.graph;
  c.graph.name = c.name;
  c.graph.type = ir::GraphType::kImpl;
  Graph& g = c.graph;
  const auto tile = ir::TileSplit(g, r.dims[k]);
  c.tile_var = g.FindAxis(tile.inner)->name + "_size";
  if (k == 0 && r.part_dim == 0) {
    // Pieces: each piece has its own tiles along the outermost dim.
    const Expr t = g.FindAxis(tile.inner)->size;
    Expr tiles(0);
    for (const auto& len : r.part_lens)
      tiles = tiles + sym::CeilDiv(len, t);
    g.FindAxis(tile.outer)->size = tiles;
  }
  std::vector<std::int64_t> a_outer;
  std::vector<std::int64_t> r_outer;
  for (int j = 0; j < k; ++j)
    (r.r_dim[j] ? r_outer : a_outer).push_back(r.dims[j]);
  (r.r_dim[k] ? r_outer : a_outer).push_back(tile.outer);
  if (kind == CaseKind::kRCore) {
    // R iterations are distributed over cores too: one block axis over A x R.
    a_outer.insert(a_outer.end(), r_outer.begin(), r_outer.end());
    r_outer.clear();
  }
  std::int64_t fused = -1;
  if (a_outer.empty()) {
    // Nothing to split over cores: a size-1 block loop keeps the B/b structure.
    ir::Axis one;
    one.id = g.NextAxisId();
    one.name = "zA";
    one.type = ir::AxisType::kOriginal;
    one.size = Expr(1);
    g.axes.push_back(one);
    fused = one.id;
    for (auto& n : g.nodes) {
      if (!n.sched.axis.empty()) n.sched.axis.insert(n.sched.axis.begin(), fused);
    }
  } else {
    fused = FuseAxes(g, a_outer);
  }
  std::int64_t r_loop = r_outer.empty() ? -1 : FuseAxes(g, r_outer);
  const auto block = ir::BlockSplit(g, fused);
  c.block_var = g.FindAxis(block.inner)->name + "_size";
  // Loop order: B, b, the reduce loop, then the vectorised dims.
  std::vector<std::int64_t> vec = {tile.inner};
  vec.insert(vec.end(), r.dims.begin() + k + 1, r.dims.end());
  for (auto& n : g.nodes) {
    if (n.sched.axis.empty()) continue;
    std::vector<std::int64_t> order = {block.outer, block.inner};
    if (r_loop >= 0) order.push_back(r_loop);
    order.insert(order.end(), vec.begin(), vec.end());
    n.sched.axis = order;
    // The innermost loop that is not vectorised; R-invariant nodes of the common template run
    // once per block iteration, outside the reduce loop.
    const auto idx = static_cast<std::size_t>(&n - g.nodes.data());
    const bool in_r_loop = r_loop >= 0 && idx < r.r_invariant.size() && !r.r_invariant[idx];
    n.sched.loop_axis = in_r_loop || (r_loop >= 0 && IsReduce(n)) ? r_loop : block.inner;
    if (!IsCompute(n) && n.type != "Scalar") continue;
    for (auto& t : n.outputs) {
      if (t.axis.empty()) continue;
      t.vectorized_axis = vec;
      t.vectorized_strides = UbStrides(t, vec, r.row_align);
    }
  }
  AnnotateMemory(c, r);
  return c;
}

// Broadcasts the brc_inline template can leave to their consumers: every consumer is a binary op
// that can read the operand row by row. A column broadcast (innermost dim broadcast) becomes a
// scalar per row, so only ops with a scalar form qualify (Add/Mul/Max/Min on either side; Sub and
// float Div with the broadcast second: x - s = Adds(x, -s), x / s = Muls(x, 1 / s)).
std::vector<bool> InlinableBroadcasts(const Graph& g) {
  std::vector<bool> out(g.nodes.size(), false);
  const auto consumers = g.Consumers();
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& b = g.nodes[i];
    if (b.type != "Broadcast" || consumers[i].empty()) continue;
    const ir::Tensor& src = g.nodes[b.inputs.at(0).node].outputs.at(0);
    if (src.axis.empty()) continue;
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

// Axis groups: the R group is the set of dims some reduction removes (all reductions of a graph
// must remove the same set: AutoFuse's YR+YR merge rule); the rest form the Y group.
void GroupAxes(ScheduleResult& r) {
  const Graph& g = r.graph;
  const std::size_t n_dims = r.dims.size();
  r.r_dim.assign(n_dims, false);
  std::optional<std::uint32_t> rset;
  std::string first;
  for (const auto& n : g.nodes) {
    if (!IsReduce(n)) continue;
    const auto& in = g.nodes[n.inputs.at(0).node].outputs.at(n.inputs[0].output);
    const auto& out = n.outputs.at(0);
    if (out.dtype != ir::DType::kFloat32) {
      throw ScheduleError("REDUCE_DTYPE",
                          "reduction '" + n.name + "' computes in " +
                              std::string(ir::DTypeName(out.dtype)) +
                              "; the AscendC pattern reductions of Atlas A2/A3 take fp32 (inputs "
                              "of fp16/bf16 are upcast, integer reductions are not supported)");
    }
    std::uint32_t m = 0;
    for (std::size_t j = 0; j < n_dims; ++j) {
      if (out.repeats[j] == Expr(1) && in.repeats[j] != Expr(1)) m |= 1u << j;
    }
    if (m == 0) continue;
    if (rset && *rset != m) {
      throw ScheduleError("REDUCE_AXES_CONFLICT",
                          "reductions '" + first + "' and '" + n.name +
                              "' reduce different axes: their YR axis groups cannot merge");
    }
    rset = m;
    first = n.name;
  }
  if (rset) {
    for (std::size_t j = 0; j < n_dims; ++j)
      r.r_dim[j] = ((*rset >> j) & 1u) != 0;
  }
  // Reduction levels (how many reductions lie on the longest path into a node) and R-invariance.
  r.avail.assign(g.nodes.size(), 0);
  r.r_invariant.assign(g.nodes.size(), false);
  int max_stage = -1;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    int base = 0;
    for (const auto& in : n.inputs)
      base = std::max(base, r.avail[in.node]);
    if (IsReduce(n)) {
      max_stage = std::max(max_stage, base);
      r.avail[i] = base + 1;
    } else {
      r.avail[i] = base;
    }
    bool inv = true;
    if (!n.outputs.empty() && !n.outputs[0].axis.empty()) {
      for (std::size_t j = 0; j < n_dims; ++j) {
        if (r.r_dim[j] && n.outputs[0].repeats[j] != Expr(1)) inv = false;
      }
    }
    r.r_invariant[i] = inv && n.type != "Data" && n.type != "Output";
  }
  // Sweeps: one per reduction level, and one more when varying values computed from the last
  // reductions are stored (softmax's normalised output).
  int sweeps = max_stage + 1;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].type == "Store" && !r.r_invariant[i]) sweeps = std::max(sweeps, r.avail[i] + 1);
  }
  r.passes = rset ? sweeps : 0;
}

// The concat templates: the concat dim and the dims after it stay whole in UB, so both tile a dim
// before it. concat copies each input's rows straight to its columns (DataCopy, 32-byte aligned
// starts); concat_gather (innermost concat dims, 2- and 4-byte elements) puts the rows side by
// side in a staging block and gathers the output rows from it.
template <typename AddCase>
void ConcatTemplates(ScheduleResult& r, AddCase&& add_case) {
  const Graph& g = r.graph;
  const Node& cat = g.nodes[static_cast<std::size_t>(r.concat)];
  const int c = r.part_dim;
  const int last = static_cast<int>(r.dims.size()) - 1;
  const std::string dim_name = g.FindAxis(r.dims[static_cast<std::size_t>(c)])->name;
  Template ub{"concat", CaseKind::kConcat, {}};
  for (int k = 0; k < c; ++k)
    add_case(ub, k);
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
  r.concat_staging = st.id;
  r.buffers.push_back(st);
  Buffer off = st;
  off.id = st.id + 1;
  off.esize = 4;
  off.role = "concat_offsets";
  off.part = af_tiling::kPartFull;
  r.concat_offsets = off.id;
  r.buffers.push_back(off);
  Template gt{"concat_gather", CaseKind::kConcatGather, {}};
  for (int k = 0; k < c; ++k)
    add_case(gt, k);
  r.decisions.push_back({"templates", "TEMPLATE",
                         "concat_gather: the inputs' padded rows side by side in " + st.Name() +
                             ", the output rows gathered from it with offsets in " + off.Name() +
                             " (built once per core) (" + std::to_string(gt.cases.size()) +
                             " case(s))"});
  r.templates.push_back(std::move(gt));
}

// AutoFuse's StaticUbTemplateFilter: with static sizes, a case whose smallest tile (one element
// of the tile dim) already overflows UB can never run; it is dropped, and a template left without
// cases with it. Dynamic sizes keep every case (the tiling decides at run time).
void StaticUbFilter(ScheduleResult& r, const hw::Profile& profile) {
  if (r.dims.size() > static_cast<std::size_t>(af_tiling::kMaxDims) ||
      r.buffers.size() > static_cast<std::size_t>(af_tiling::kMaxBuffers)) {
    return;
  }
  std::vector<std::int64_t> values;
  for (const auto id : r.dims) {
    const auto v = r.graph.FindAxis(id)->size.AsInt();
    if (!v) return;  // dynamic: nothing to decide here
    values.push_back(*v);
  }
  for (const auto& e : r.part_lens) {
    const auto v = e.AsInt();
    if (!v) return;
    values.push_back(*v);
  }
  af_tiling::CaseParams p;
  std::vector<ImplCase> kept;
  std::vector<int> remap(r.cases.size(), -1);
  for (std::size_t c = 0; c < r.cases.size(); ++c) {
    FillCaseLayout(r, static_cast<int>(c), values, &p);
    if (!af_tiling::CatFeasible(p)) {
      r.decisions.push_back({"cases", "CONCAT_UNALIGNED",
                             r.cases[c].indexed_name + " (" + r.cases[c].name +
                                 ") copies rows straight to their columns, but an input ends "
                                 "inside a 32-byte block; dropped"});
      continue;
    }
    const std::int64_t min_ub = af_tiling::UbBytes(p, 1, nullptr);
    if (min_ub > profile.ub_bytes) {
      r.decisions.push_back({"cases", "STATIC_UB_FILTER",
                             r.cases[c].indexed_name + " (" + r.cases[c].name + ") needs " +
                                 std::to_string(min_ub) + " bytes of UB even with a tile of 1 (" +
                                 profile.name + " has " + std::to_string(profile.ub_bytes) +
                                 "); dropped"});
      continue;
    }
    remap[c] = static_cast<int>(kept.size());
    kept.push_back(std::move(r.cases[c]));
  }
  if (kept.size() == r.cases.size()) {
    r.cases = std::move(kept);
    return;
  }
  std::vector<Template> templates;
  for (auto& t : r.templates) {
    std::vector<int> cases;
    for (int c : t.cases) {
      if (remap[c] >= 0) cases.push_back(remap[c]);
    }
    if (cases.empty()) {
      r.decisions.push_back({"templates", "STATIC_UB_FILTER",
                             "template " + t.name + " has no case left that fits UB; dropped"});
      continue;
    }
    t.cases = std::move(cases);
    templates.push_back(std::move(t));
  }
  for (std::size_t t = 0; t < templates.size(); ++t) {
    for (std::size_t i = 0; i < templates[t].cases.size(); ++i) {
      ImplCase& c = kept[templates[t].cases[i]];
      c.templ = static_cast<int>(t);
      c.indexed_name = r.graph.name + "_S" + std::to_string(t) + "G0C" + std::to_string(i);
    }
  }
  for (std::size_t c = 0; c < kept.size(); ++c)
    kept[c].graph.tiling_key = static_cast<std::int64_t>(c);
  r.cases = std::move(kept);
  r.templates = std::move(templates);
}

}  // namespace

std::string_view BufKindName(BufKind k) {
  switch (k) {
    case BufKind::kQueueIn:
      return "TQue<VECIN>";
    case BufKind::kQueueOut:
      return "TQue<VECOUT>";
    case BufKind::kTBuf:
      return "TBuf<VECCALC>";
  }
  return "?";
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

bool BufferUsedBy(const Buffer& b, CaseKind kind) {
  if (b.role.rfind("unaligned_", 0) == 0) return kind == CaseKind::kUnaligned;
  if (b.role.rfind("concat_", 0) == 0) return kind == CaseKind::kConcatGather;
  return true;
}

int PartOf(const ScheduleResult& s, const ir::Tensor& t) {
  if (s.part_dim <= 0 || t.axis.empty()) return af_tiling::kPartFull;
  const Expr& e = t.repeats.at(static_cast<std::size_t>(s.part_dim));
  if (e == Expr(1) || e == s.graph.FindAxis(s.dims[static_cast<std::size_t>(s.part_dim)])->size) {
    return af_tiling::kPartFull;
  }
  for (std::size_t k = 0; k < s.part_lens.size(); ++k) {
    if (ir::SameRepeat(s.part_lens[k], e)) return af_tiling::kPartInput(static_cast<int>(k));
  }
  return af_tiling::kPartFull;
}

int NodePart(const ScheduleResult& s, int i) {
  if (s.part_dim == 0) {
    const int p = s.node_piece.at(static_cast<std::size_t>(i));
    return p < 0 ? af_tiling::kPartFull : af_tiling::kPartInput(p);
  }
  const auto& n = s.graph.nodes.at(static_cast<std::size_t>(i));
  return n.outputs.empty() ? af_tiling::kPartFull : PartOf(s, n.outputs[0]);
}

bool BufferCompact(const Buffer& b, CaseKind kind) {
  return kind == CaseKind::kUnaligned && b.all_full && b.one_mask == 0;
}

std::int32_t BufferRun(const Buffer& b, int tile_dim) {
  if (b.role != "gather_staging") return af_tiling::kRunInner;
  return b.gather_dim >= tile_dim ? af_tiling::kRunAt(b.gather_dim) : af_tiling::kRunElements;
}

void FillCaseLayout(const ScheduleResult& s, int case_index,
                    const std::vector<std::int64_t>& values, af_tiling::CaseParams* p) {
  const ImplCase& c = s.cases.at(static_cast<std::size_t>(case_index));
  const std::size_t n_dims = std::min<std::size_t>(s.dims.size(), af_tiling::kMaxDims);
  p->n_dims = static_cast<std::int32_t>(s.dims.size());
  p->tile_dim = c.tile_dim;
  for (std::size_t j = 0; j < n_dims; ++j)
    p->dims[j] = j < values.size() ? values[j] : 1;
  p->row_align = s.row_align;
  p->vec_align = s.vec_align_bytes;
  p->n_buffers = static_cast<std::int32_t>(s.buffers.size());
  for (std::size_t b = 0; b < s.buffers.size() && b < af_tiling::kMaxBuffers; ++b) {
    const Buffer& buf = s.buffers[b];
    p->buf_esize[b] = buf.esize;
    p->buf_num[b] = BufferUsedBy(buf, c.kind) ? buf.buf_num : 0;
    p->buf_one_mask[b] = buf.one_mask;
    p->buf_compact[b] = BufferCompact(buf, c.kind) ? 1 : 0;
    p->buf_run[b] = static_cast<std::int8_t>(BufferRun(buf, c.tile_dim));
    p->buf_part[b] = static_cast<std::int8_t>(buf.part);
  }
  p->compact = c.kind == CaseKind::kUnaligned ? 1 : 0;
  p->part_dim = s.part_dim;
  p->n_parts = static_cast<std::int32_t>(s.part_lens.size());
  p->cat_inputs = s.cat_inputs;
  if (s.concat >= 0) {
    p->cat_esize =
        ir::DTypeBytes(s.graph.nodes[static_cast<std::size_t>(s.concat)].outputs.at(0).dtype);
  }
  p->cat_aligned_only = c.kind == CaseKind::kConcat ? 1 : 0;
  for (std::size_t k = 0; k < s.part_lens.size() && k < af_tiling::kMaxParts; ++k) {
    const std::size_t v = s.dims.size() + k;
    p->part_len[k] = v < values.size() ? values[v] : 1;
  }
}

std::string Buffer::Name() const {
  return (kind == BufKind::kTBuf ? "b" : "q") + std::to_string(id);
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
        << s.part_lens.at(static_cast<std::size_t>(b.part - 1)).ToString() << " along "
        << s.graph.FindAxis(s.dims[static_cast<std::size_t>(s.part_dim)])->name << ")";
    }
    if (!b.role.empty()) o << ", " << b.role;
    if (b.role == "gather_staging") {
      o << " (contiguous dim "
        << (b.gather_dim >= 0
                ? s.graph.FindAxis(s.dims[static_cast<std::size_t>(b.gather_dim)])->name
                : std::string("none"))
        << ")";
    }
    o << "\n";
  }
  if (s.passes > 0) {
    o << "AxisGroups:\n  Y = {";
    bool first = true;
    for (std::size_t j = 0; j < s.dims.size(); ++j) {
      if (s.r_dim[j]) continue;
      o << (first ? "" : ", ") << s.graph.FindAxis(s.dims[j])->name;
      first = false;
    }
    o << "}\n  R = {";
    first = true;
    for (std::size_t j = 0; j < s.dims.size(); ++j) {
      if (!s.r_dim[j]) continue;
      o << (first ? "" : ", ") << s.graph.FindAxis(s.dims[j])->name;
      first = false;
    }
    o << "}\n  passes = " << s.passes << "\n";
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

ScheduleResult Schedule(const ir::Graph& hint, const hw::Profile& profile,
                        const ScheduleOptions& options) {
  ScheduleResult r;
  r.graph = Normalize(hint, options, &r.decisions);
  const Graph& g = r.graph;
  bool has_output = false;
  for (const auto& n : g.nodes) {
    has_output = has_output || n.type == "Output";
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
  for (const auto& a : g.axes)
    r.dims.push_back(a.id);
  if (r.dims.size() > 31) {
    throw ScheduleError("TOO_MANY_AXES", "graph '" + g.name + "' has more than 31 loop axes");
  }
  GroupAxes(r);
  for (const auto& n : g.nodes) {
    if (n.type == "Gather" && r.passes > 0) {
      throw ScheduleError("GATHER_WITH_REDUCE",
                          "Gather '" + n.name +
                              "' in a graph with reductions: the reduce templates do not take a "
                              "Gather yet");
    }
  }
  FindParts(r);
  if (r.part_dim == 0) {
    for (const auto& n : g.nodes) {
      if (r.passes > 0 || n.type == "Gather") {
        throw ScheduleError(r.passes > 0 ? "PARTS_WITH_REDUCE" : "PIECES_WITH_GATHER",
                            "tensors with extents of their own along the outermost dim " +
                                g.FindAxis(r.dims[0])->name + " in a graph with " +
                                (r.passes > 0 ? "reductions" : "a Gather ('" + n.name + "')") +
                                ": the pieces loop runs elementwise graphs only");
      }
    }
    FindPieces(r);
  }
  PlanBuffers(r, profile);
  const int n_dims = static_cast<int>(r.dims.size());
  int first_r = n_dims;
  int r_count = 0;
  for (int j = n_dims - 1; j >= 0; --j) {
    if (r.r_dim[j]) {
      first_r = j;
      ++r_count;
    }
  }
  if (r.passes > 1) {
    r.decisions.push_back(
        {"templates", "NORM_LOOP",
         "a value feeding a reduction is also used after it (" + std::to_string(r.passes) +
             " reduction levels): all_load computes it in one sweep; the common template sweeps "
             "the reduce loop " +
             std::to_string(r.passes) + " times, re-reading its inputs"});
  }
  auto add_case = [&](Template& t, int k) {
    const ir::Axis* a = g.FindAxis(r.dims[k]);
    if (n_dims > 1 && sym::ProveEq(a->size, Expr(1)) == sym::Tri::kTrue) {
      r.decisions.push_back({"cases", "PRUNE_SIZE1_AXIS",
                             "no " + t.name + " case tiles " + a->name + ": its size is 1"});
      return;
    }
    int r_in_block = 0;
    for (int j = k; j < n_dims; ++j)
      r_in_block += r.r_dim[j] ? 1 : 0;
    if (r_in_block > 2) {
      r.decisions.push_back({"cases", "PRUNE_REDUCE_STEPS",
                             "no " + t.name + " case tiles " + a->name + ": " +
                                 std::to_string(r_in_block) +
                                 " reduced dims would be in one UB block (at most 2 reduce "
                                 "steps per block)"});
      return;
    }
    ImplCase c = BuildCase(r, k, t.kind);
    c.templ = static_cast<int>(r.templates.size());
    c.indexed_name =
        g.name + "_S" + std::to_string(c.templ) + "G0C" + std::to_string(t.cases.size());
    c.graph.tiling_key = static_cast<std::int64_t>(r.cases.size());
    std::string what = c.name + " tiles " + a->name + " (" + c.tile_var + ")";
    if (t.kind == CaseKind::kRCore) {
      what += ", splits the reduce iterations across cores (workspace + SyncAll)";
    } else if (t.kind == CaseKind::kCommon) {
      what += r.r_dim[k] ? ", accumulates partial reductions over its tiles"
                         : ", loops over the reduced dims before it";
    }
    r.decisions.push_back({"cases", "TILING_CASE",
                           what + "; the kept outer loop goes over cores (" + c.block_var + ")"});
    t.cases.push_back(static_cast<int>(r.cases.size()));
    r.cases.push_back(std::move(c));
  };
  if (r.part_dim >= 0 && r.concat >= 0) {
    ConcatTemplates(r, add_case);
    StaticUbFilter(r, profile);
    if (r.cases.empty()) {
      throw ScheduleError("UB_OVERFLOW", "graph '" + g.name +
                                             "' has no concat case that fits UB and its "
                                             "alignment even with the smallest tiles");
    }
    return r;
  }
  if (r.part_dim >= 0 && r.passes == 0) {
    // Parts without a Concat. Pieces (part dim 0): any dim is tiled, the outer loop walks the
    // pieces. Otherwise (folded split pieces, slices): the part dim and the dims after it stay
    // whole in UB, so the elementwise cases tile a dim before it.
    Template t{"elementwise", CaseKind::kElementwise, {}};
    for (int k = 0; k < (r.part_dim == 0 ? n_dims : r.part_dim); ++k)
      add_case(t, k);
    if (r.part_dim > 0) {
      r.decisions.push_back(
          {"templates", "PARTS_WHOLE_IN_UB",
           "tensors with extents of their own along " +
               g.FindAxis(r.dims[static_cast<std::size_t>(r.part_dim)])->name +
               ": it and the dims after it stay whole in UB (no brc_inline or unaligned "
               "variant)"});
    }
    r.templates.push_back(std::move(t));
    StaticUbFilter(r, profile);
    if (r.cases.empty()) {
      throw ScheduleError("UB_OVERFLOW",
                          "graph '" + g.name + "' does not fit UB even with the smallest tiles");
    }
    return r;
  }
  if (r.part_dim >= 0) {
    throw ScheduleError("PARTS_WITH_REDUCE",
                        "tensors with extents of their own along " +
                            g.FindAxis(r.dims[static_cast<std::size_t>(r.part_dim)])->name +
                            " in a graph with reductions: the reduce templates do not take them "
                            "yet");
  }
  if (r.passes == 0) {
    // Tiling cases: one per Y axis; splitting a size-1 axis is pointless when others exist.
    Template t{"elementwise", CaseKind::kElementwise, {}};
    for (int k = 0; k < n_dims; ++k)
      add_case(t, k);
    r.templates.push_back(std::move(t));
    r.inlined = InlinableBroadcasts(g);
    std::string names;
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      if (r.inlined[i]) names += (names.empty() ? "'" : ", '") + g.nodes[i].name + "'";
    }
    if (!names.empty()) {
      Template in{"brc_inline", CaseKind::kBrcInline, {}};
      for (int k = 0; k < n_dims; ++k)
        add_case(in, k);
      r.decisions.push_back({"templates", "TEMPLATE",
                             "brc_inline: " + names +
                                 " feed binary ops that read the operand row by row; not "
                                 "materialised (" +
                                 std::to_string(in.cases.size()) + " case(s))"});
      r.templates.push_back(std::move(in));
    }
    // unaligned: compact UB rows for the full tensors, one case per dim before the innermost
    // (a tile of the innermost dim is a single row: already compact).
    std::string why;
    const int bsize = n_dims >= 2 ? UnalignedBroadcastSize(g, &why) : 0;
    if (bsize != 0) {
      r.unaligned_scratch = static_cast<int>(r.buffers.size());
      Buffer scr;
      scr.id = r.unaligned_scratch;
      scr.kind = BufKind::kTBuf;
      scr.esize = bsize;
      scr.all_full = false;  // the aligned layout
      scr.role = "unaligned_scratch";
      r.buffers.push_back(scr);
      Buffer off = scr;
      off.id = r.unaligned_scratch + 1;
      off.esize = 4;
      off.all_full = true;  // one offset per compact element
      off.role = "unaligned_offsets";
      r.unaligned_offsets = off.id;
      r.buffers.push_back(off);
      Template un{"unaligned", CaseKind::kUnaligned, {}};
      for (int k = 0; k + 1 < n_dims; ++k)
        add_case(un, k);
      r.decisions.push_back({"templates", "TEMPLATE",
                             "unaligned: full tensors without row padding in UB, broadcasts "
                             "compacted with Gather (" +
                                 std::to_string(un.cases.size()) + " case(s))"});
      r.templates.push_back(std::move(un));
    } else if (n_dims >= 2) {
      r.decisions.push_back({"templates", "NO_UNALIGNED", "no unaligned variant: " + why});
    }
    StaticUbFilter(r, profile);
    if (r.cases.empty()) {
      throw ScheduleError("UB_OVERFLOW",
                          "graph '" + g.name + "' does not fit UB even with the smallest tiles");
    }
    return r;
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
    add_case(all, k);
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
    add_case(common, k);
  if (!common.cases.empty()) {
    r.decisions.push_back({"templates", "TEMPLATE",
                           "common: reduced dims tiled or looped with partial accumulation (" +
                               std::to_string(common.cases.size()) + " case(s))"});
    r.templates.push_back(std::move(common));
  }
  // r_core: for large R with little A, the R iterations go over cores (two phases joined by a
  // GM workspace and SyncAll). Only single-level graphs with few nodes after the reduction, as
  // in AutoFuse.
  int post_nodes = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const ir::OpDef* op = ir::FindOp(g.nodes[i].type);
    if (op != nullptr && op->compute == ir::ComputeType::kElewise && r.avail[i] >= 1) ++post_nodes;
  }
  if (r.passes != 1) {
    r.decisions.push_back({"templates", "NO_R_CORE",
                           "norm-like graph (" + std::to_string(r.passes) +
                               " sweeps): the R-split template needs one reduction level"});
  } else if (post_nodes > 4) {
    r.decisions.push_back({"templates", "NO_R_CORE",
                           std::to_string(post_nodes) +
                               " elementwise nodes after the reduction (the R-split template "
                               "allows at most 4)"});
  } else {
    Template rc{"r_core", CaseKind::kRCore, {}};
    for (int k = first_r; k < n_dims; ++k)
      add_case(rc, k);
    if (!rc.cases.empty()) {
      r.decisions.push_back({"templates", "TEMPLATE",
                             "r_core: reduce iterations split across cores through a workspace (" +
                                 std::to_string(rc.cases.size()) + " case(s))"});
      r.templates.push_back(std::move(rc));
    }
  }
  if (r.cases.empty()) {
    throw ScheduleError("NO_TILING_CASE", "graph '" + g.name + "' has no schedulable tiling case");
  }
  StaticUbFilter(r, profile);
  if (r.cases.empty()) {
    throw ScheduleError("UB_OVERFLOW",
                        "graph '" + g.name + "' does not fit UB even with the smallest tiles");
  }
  return r;
}

}  // namespace af::schedule
