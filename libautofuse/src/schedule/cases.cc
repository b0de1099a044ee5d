// Tiling cases and their impl graphs.
#include "cases.h"

#include <algorithm>

#include "autofuse/ir/axis_algebra.h"
#include "node_kinds.h"

namespace af::schedule {
namespace {

using ir::Graph;
using ir::Node;
using sym::Expr;

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
      const std::optional<int> b = r.placed[i].buffer;
      if (!b) {
        t.mem.alloc_type = ir::AllocType::kGlobal;
        t.mem.position = ir::Position::kGM;
        t.mem.hardware = ir::Hardware::kGM;
        continue;
      }
      const Buffer& buf = r.buffers[*b];
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
    (r.groups.r_dim[j] ? r_index : a_index) += 1;
  c.name =
      r.graph.name +
      (r.groups.r_dim[k] ? "_B0R" + std::to_string(r_index) : "_B0Y" + std::to_string(a_index)) +
      (kind == CaseKind::kBrcInline   ? "_inline"
       : kind == CaseKind::kUnaligned ? "_unaligned"
                                      : "");
  c.graph = r.graph;
  c.graph.name = c.name;
  c.graph.type = ir::GraphType::kImpl;
  Graph& g = c.graph;
  const auto tile = ir::TileSplit(g, r.dims[k]);
  c.tile_var = g.FindAxis(tile.inner)->name + "_size";
  if (k == 0 && r.parts.dim == 0) {
    // Pieces: each piece has its own tiles along the outermost dim.
    const Expr t = g.FindAxis(tile.inner)->size;
    Expr tiles(0);
    for (const auto& len : r.parts.lens)
      tiles = tiles + sym::CeilDiv(len, t);
    g.FindAxis(tile.outer)->size = tiles;
  }
  std::vector<std::int64_t> a_outer;
  std::vector<std::int64_t> r_outer;
  for (int j = 0; j < k; ++j)
    (r.groups.r_dim[j] ? r_outer : a_outer).push_back(r.dims[j]);
  (r.groups.r_dim[k] ? r_outer : a_outer).push_back(tile.outer);
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
    const bool in_r_loop =
        r_loop >= 0 && idx < r.groups.r_invariant.size() && !r.groups.r_invariant[idx];
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

}  // namespace

void AddCase(ScheduleResult& r, Template& t, int k) {
  const Graph& g = r.graph;
  const int n_dims = static_cast<int>(r.dims.size());
  const ir::Axis* a = g.FindAxis(r.dims[k]);
  if (n_dims > 1 && sym::ProveEq(a->size, Expr(1)) == sym::Tri::kTrue) {
    r.decisions.push_back({"cases", "PRUNE_SIZE1_AXIS",
                           "no " + t.name + " case tiles " + a->name + ": its size is 1"});
    return;
  }
  int r_in_block = 0;
  for (int j = k; j < n_dims; ++j)
    r_in_block += r.groups.r_dim[j] ? 1 : 0;
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
  c.indexed_name = g.name + "_S" + std::to_string(c.templ) + "G0C" + std::to_string(t.cases.size());
  c.graph.tiling_key = static_cast<std::int64_t>(r.cases.size());
  std::string what = c.name + " tiles " + a->name + " (" + c.tile_var + ")";
  if (t.kind == CaseKind::kRCore) {
    what += ", splits the reduce iterations across cores (workspace + SyncAll)";
  } else if (t.kind == CaseKind::kCommon) {
    what += r.groups.r_dim[k] ? ", accumulates partial reductions over its tiles"
                              : ", loops over the reduced dims before it";
  }
  r.decisions.push_back({"cases", "TILING_CASE",
                         what + "; the kept outer loop goes over cores (" + c.block_var + ")"});
  t.cases.push_back(static_cast<int>(r.cases.size()));
  r.cases.push_back(std::move(c));
}

}  // namespace af::schedule
