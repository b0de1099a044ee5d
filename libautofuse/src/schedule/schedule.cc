// Tiling cases, impl graphs and UB buffers for normalised elementwise/broadcast graphs.
#include "autofuse/schedule/schedule.h"

#include <algorithm>
#include <map>
#include <sstream>

#include "autofuse/ir/axis_algebra.h"
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
  r.node_buffer.assign(n, -1);
  r.staged.assign(n, false);
  r.store_queue.assign(n, -1);
  const auto consumers = g.Consumers();
  std::vector<int> loads;
  std::vector<int> stores;
  for (int i = 0; i < n; ++i) {
    if (g.nodes[i].type == "Load") loads.push_back(i);
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
  const bool own_out = static_cast<int>(stores.size()) + (loads.empty() ? 0 : 1) <= budget;
  std::map<int, int> store_queue;  // store node -> buffer
  int shared_out = -1;
  for (int s : stores) {
    const int producer = g.nodes[s].inputs[0].node;
    if (own_out) {
      store_queue[s] = add(BufKind::kQueueOut, 2, esize(producer));
    } else {
      if (shared_out < 0) shared_out = add(BufKind::kQueueOut, 2, esize(producer));
      r.buffers[shared_out].esize = std::max(r.buffers[shared_out].esize, esize(producer));
      store_queue[s] = shared_out;
    }
  }
  if (!own_out) {
    r.decisions.push_back({"buffers", "SHARED_VECOUT_QUEUE",
                           std::to_string(stores.size()) +
                               " stores share one VECOUT queue (queue budget " +
                               std::to_string(budget) + "); results are copied into it"});
  }
  const int out_queues = own_out ? static_cast<int>(stores.size()) : (stores.empty() ? 0 : 1);
  const int in_budget = std::max(1, budget - out_queues);
  const bool stage = static_cast<int>(loads.size()) > in_budget;
  int staging = -1;
  for (std::size_t k = 0; k < loads.size(); ++k) {
    const int l = loads[k];
    if (!stage || static_cast<int>(k) < in_budget - 1) {
      r.node_buffer[l] = add(BufKind::kQueueIn, 2, esize(l));
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
  // the queue is its own; otherwise a TBuf, reused once its last consumer has run.
  std::vector<int> last_use(n, -1);
  for (int i = 0; i < n; ++i) {
    for (const auto& [c, slot] : consumers[i])
      last_use[i] = std::max(last_use[i], c);
  }
  struct Slot {
    int buffer;
    int busy_until;
  };
  std::vector<Slot> slots;
  for (int i = 0; i < n; ++i) {
    const Node& node = g.nodes[i];
    const bool needs_tbuf = (IsCompute(node) && node.type != "Load" && node.type != "Store") ||
                            node.type == "Scalar" || r.staged[i];
    if (!needs_tbuf) continue;
    if (consumers[i].size() == 1 && own_out && g.nodes[consumers[i][0].first].type == "Store" &&
        node.type != "Scalar" && !r.staged[i]) {
      r.node_buffer[i] = store_queue[consumers[i][0].first];
      continue;
    }
    int chosen = -1;
    for (auto& s : slots) {
      if (s.busy_until < i && r.buffers[s.buffer].esize == esize(i)) {
        chosen = s.buffer;
        s.busy_until = last_use[i];
        break;
      }
    }
    if (chosen < 0) {
      chosen = add(BufKind::kTBuf, 1, esize(i));
      slots.push_back({chosen, last_use[i]});
    } else {
      r.decisions.push_back({"buffers", "REUSE_TBUF",
                             "'" + node.name + "' reuses " + r.buffers[chosen].Name() +
                                 " (its previous tensor is dead)"});
    }
    r.node_buffer[i] = chosen;
  }
  for (const auto& [s, q] : store_queue)
    r.store_queue[s] = q;
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

ImplCase BuildCase(const ScheduleResult& r, int k) {
  ImplCase c;
  c.tile_dim = k;
  c.name = r.graph.name + "_B0Y" + std::to_string(k);
  c.graph = r.graph;
  c.graph.name = c.name;
  c.graph.type = ir::GraphType::kImpl;
  Graph& g = c.graph;
  const auto tile = ir::TileSplit(g, r.dims[k]);
  c.tile_var = g.FindAxis(tile.inner)->name + "_size";
  // Fuse the outer loops (dims before the tile dim and the tile-outer axis) into one.
  std::vector<std::int64_t> outer(r.dims.begin(), r.dims.begin() + k);
  outer.push_back(tile.outer);
  std::int64_t fused = tile.outer;
  if (outer.size() > 1) {
    ir::Axis m;
    m.id = g.NextAxisId();
    m.type = ir::AxisType::kMerged;
    m.size = Expr(1);
    for (auto id : outer) {
      m.name += g.FindAxis(id)->name;
      m.size = m.size * g.FindAxis(id)->size;
    }
    m.from = outer;
    g.axes.push_back(m);
    fused = m.id;
    for (auto& n : g.nodes) {
      auto& s = n.sched.axis;
      if (s.empty()) continue;
      std::vector<std::int64_t> rest;
      for (auto id : s) {
        if (std::find(outer.begin(), outer.end(), id) == outer.end()) rest.push_back(id);
      }
      rest.insert(rest.begin(), fused);
      s = rest;
    }
  }
  const auto block = ir::BlockSplit(g, fused);
  c.block_var = g.FindAxis(block.inner)->name + "_size";
  std::vector<std::int64_t> vec = {tile.inner};
  vec.insert(vec.end(), r.dims.begin() + k + 1, r.dims.end());
  for (auto& n : g.nodes) {
    if (!n.sched.axis.empty()) n.sched.loop_axis = block.inner;
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
    o << "}\n";
  }
  o << "Cases:\n";
  for (const auto& c : s.cases)
    o << "  " << c.name << " : tile " << c.tile_var << "\n";
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
    const ir::OpDef* op = ir::FindOp(n.type);
    if (op->compute == ir::ComputeType::kLoad) {
      const auto& t = n.outputs.at(0);
      // The innermost dim must be contiguous in GM (or broadcast): strided and permuted reads
      // are the data-movement issue's templates.
      if (!t.strides.empty()) {
        const Expr& inner = t.strides.back();
        if (inner != Expr(1) && !(inner == Expr(0) && t.repeats.back() == Expr(1))) {
          throw ScheduleError("STRIDED_INNER_LOAD",
                              "load '" + n.name + "' reads its innermost dimension with stride " +
                                  inner.ToString() + "; only contiguous rows are scheduled yet");
        }
      }
    }
  }
  if (!has_output) throw ScheduleError("NO_OUTPUTS", "graph '" + g.name + "' has no Output");
  for (const auto& a : g.axes)
    r.dims.push_back(a.id);
  PlanBuffers(r, profile);
  // Tiling cases: one per Y axis; splitting a size-1 axis is pointless when others exist.
  for (std::size_t k = 0; k < r.dims.size(); ++k) {
    const ir::Axis* a = g.FindAxis(r.dims[k]);
    if (r.dims.size() > 1 && sym::ProveEq(a->size, Expr(1)) == sym::Tri::kTrue) {
      r.decisions.push_back(
          {"cases", "PRUNE_SIZE1_AXIS", "no case tiles " + a->name + ": its size is 1"});
      continue;
    }
    r.cases.push_back(BuildCase(r, static_cast<int>(k)));
    r.cases.back().graph.tiling_key = static_cast<std::int64_t>(r.cases.size()) - 1;
    r.decisions.push_back({"cases", "TILING_CASE",
                           r.cases.back().name + " tiles " + a->name + " (" +
                               r.cases.back().tile_var +
                               ") and splits the fused outer loop "
                               "over cores (" +
                               r.cases.back().block_var + ")"});
  }
  return r;
}

}  // namespace af::schedule
