// Reading a case's loop nest from its impl graph.
#include "loop_nest.h"

#include <algorithm>

#include "autofuse/codegen/codegen.h"
#include "autofuse/ir/op_registry.h"
#include "autofuse/sym/expr.h"

namespace af::codegen {
namespace {

using ir::Axis;
using ir::AxisType;

[[noreturn]] void Fail(const schedule::ImplCase& c, const std::string& what) {
  throw CodegenError("INTERNAL", "impl graph of case " + c.name + ": " + what);
}

const Axis& AxisOf(const schedule::ImplCase& c, std::int64_t id) {
  const Axis* a = c.graph.FindAxis(id);
  if (a == nullptr) Fail(c, "no axis " + std::to_string(id));
  return *a;
}

const Axis& OnlyAxisOfType(const schedule::ImplCase& c, AxisType t) {
  const Axis* found = nullptr;
  for (const auto& a : c.graph.axes) {
    if (a.type != t) continue;
    if (found != nullptr) Fail(c, "more than one " + std::string(ir::AxisTypeName(t)) + " axis");
    found = &a;
  }
  if (found == nullptr) Fail(c, "no " + std::string(ir::AxisTypeName(t)) + " axis");
  return *found;
}

// The axes a loop axis fuses (itself when it is not merged), outer -> inner.
std::vector<std::int64_t> Components(const schedule::ImplCase& c, std::int64_t id) {
  const Axis& a = AxisOf(c, id);
  if (a.type == AxisType::kMerged) return a.from;
  return {id};
}

std::optional<int> DimOf(const schedule::ScheduleResult& s, std::int64_t id) {
  const auto it = std::find(s.dims.begin(), s.dims.end(), id);
  if (it == s.dims.end()) return std::nullopt;
  return static_cast<int>(it - s.dims.begin());
}

// Sorts the components of an outer loop into kept and reduced dims; `reduced` says a dim's role.
template <typename Reduced>
void SortOuter(const schedule::ScheduleResult& s, const schedule::ImplCase& c,
               const std::vector<std::int64_t>& ids, std::int64_t tile_outer, Reduced reduced,
               LoopNest& nest) {
  for (const auto id : ids) {
    if (id == tile_outer) {
      nest.tile_reduced = reduced(nest.tile_dim);
      continue;
    }
    const std::optional<int> j = DimOf(s, id);
    if (!j) {
      const Axis& a = AxisOf(c, id);
      if (a.type == AxisType::kOriginal && sym::ProveEq(a.size, sym::Expr(1)) == sym::Tri::kTrue) {
        continue;  // the size-1 block loop of a case with no kept outer loop
      }
      Fail(c, "outer loop axis " + a.name + " is not a dim");
    }
    (reduced(*j) ? nest.r_outer : nest.a_outer).push_back(*j);
  }
}

// The emitter names loops by dim index and walks the dims inside the tile as k..last: the nest
// must cover every dim once, with the outer dims before the tile dim in dim order, the dims after
// it inside the tile, and (outside r_core) the roles of the axis groups.
void CheckNest(const schedule::ScheduleResult& s, const schedule::ImplCase& c,
               const LoopNest& nest) {
  const int k = nest.tile_dim;
  const auto r_dim = [&](int j) {
    return static_cast<bool>(s.groups.r_dim[static_cast<std::size_t>(j)]);
  };
  std::vector<int> a_want;
  std::vector<int> r_want;
  for (int j = 0; j < k; ++j)
    (r_dim(j) ? r_want : a_want).push_back(j);
  std::vector<int> inner_want;
  for (int j = k; j < static_cast<int>(s.dims.size()); ++j)
    inner_want.push_back(j);
  if (nest.a_outer != a_want || nest.r_outer != r_want || nest.inner != inner_want ||
      nest.tile_reduced != r_dim(k)) {
    Fail(c, "loop nest disagrees with the dims and axis groups");
  }
}

// Which nodes run in the reduce loop `r_loop` (none: no reduce loop of its own in the graph).
void ReadReduceLoop(const schedule::ScheduleResult& s, const schedule::ImplCase& c,
                    std::optional<std::int64_t> r_loop, LoopNest& nest) {
  const auto& nodes = c.graph.nodes;
  nest.in_reduce_loop.assign(nodes.size(), false);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const bool grouped = (i < s.groups.r_invariant.size() && !s.groups.r_invariant[i]) ||
                         ir::IsReduceOp(nodes[i].type);
    if (!r_loop || nodes[i].sched.axis.empty()) {
      nest.in_reduce_loop[i] = grouped;
      continue;
    }
    nest.in_reduce_loop[i] = nodes[i].sched.loop_axis == *r_loop;
    if (nest.in_reduce_loop[i] != grouped) {
      Fail(c, "node " + nodes[i].name + " is " + (grouped ? "not " : "") +
                  "in the reduce loop, unlike its axis group");
    }
  }
}

}  // namespace

LoopNest ReadLoopNest(const schedule::ScheduleResult& s, const schedule::ImplCase& c) {
  LoopNest nest;
  const Axis& tile_in = OnlyAxisOfType(c, AxisType::kTileInner);
  const Axis& tile_out = OnlyAxisOfType(c, AxisType::kTileOuter);
  const Axis& block_out = OnlyAxisOfType(c, AxisType::kBlockOuter);
  const Axis& block_in = OnlyAxisOfType(c, AxisType::kBlockInner);
  if (tile_in.from.size() != 1 || block_out.from.size() != 1) Fail(c, "split without one parent");
  const std::optional<int> k = DimOf(s, tile_in.from[0]);
  if (!k) Fail(c, "the tiled axis is not a dim");
  nest.tile_dim = *k;
  nest.tile_var = tile_in.name + "_size";
  nest.block_var = block_in.name + "_size";
  // Any scheduled node's loop axes: B, b, the reduce loop (if any), then the vectorised dims.
  const auto node = std::find_if(c.graph.nodes.begin(), c.graph.nodes.end(),
                                 [](const ir::Node& n) { return !n.sched.axis.empty(); });
  if (node == c.graph.nodes.end()) Fail(c, "no scheduled node");
  const auto& order = node->sched.axis;
  if (order.size() < 3 || order[0] != block_out.id || order[1] != block_in.id) {
    Fail(c, "loop axes do not open with the block split");
  }
  const std::size_t tile_at = order[2] == tile_in.id ? 2 : 3;
  if (order.size() <= tile_at || order[tile_at] != tile_in.id) Fail(c, "no tile-inner loop");
  const auto r_dim = [&](int j) { return s.groups.r_dim[static_cast<std::size_t>(j)]; };
  const std::vector<std::int64_t> block = Components(c, block_out.from[0]);
  if (c.kind == schedule::CaseKind::kRCore) {
    // One block axis over kept and reduced iterations: the axis groups tell them apart.
    SortOuter(s, c, block, tile_out.id, r_dim, nest);
  } else {
    SortOuter(
        s, c, block, tile_out.id, [](int) { return false; }, nest);
    if (tile_at == 3) {
      SortOuter(
          s, c, Components(c, order[2]), tile_out.id, [](int) { return true; }, nest);
    }
  }
  nest.inner.push_back(nest.tile_dim);
  for (std::size_t i = tile_at + 1; i < order.size(); ++i) {
    const std::optional<int> j = DimOf(s, order[i]);
    if (!j) Fail(c, "vectorised axis " + AxisOf(c, order[i]).name + " is not a dim");
    nest.inner.push_back(*j);
  }
  CheckNest(s, c, nest);
  const std::optional<std::int64_t> r_loop =
      c.kind != schedule::CaseKind::kRCore && tile_at == 3 ? std::optional(order[2]) : std::nullopt;
  ReadReduceLoop(s, c, r_loop, nest);
  return nest;
}

}  // namespace af::codegen
