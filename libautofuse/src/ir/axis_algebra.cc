// Split, merge and reorder of axes, applied to schedules and views together.
#include "autofuse/ir/axis_algebra.h"

#include <algorithm>

namespace af::ir {
namespace {

// A view dimension that does not advance along its axis: broadcast (stride 0) or reduced.
bool IsBroadcastDim(const Expr& repeat, const Expr& stride) {
  return repeat == Expr(1) && stride == Expr(0);
}

SplitResult Split(Graph& g, std::int64_t id, std::optional<Expr> inner_size, char outer_suffix,
                  char inner_suffix, AxisType outer_type, AxisType inner_type) {
  const Axis* src = g.FindAxis(id);
  if (src == nullptr) return {};
  const Axis parent = *src;

  // Ids follow creation order, outer first (z0T before z0t), as in AutoFuse's dumps.
  Axis outer;
  outer.id = g.NextAxisId();
  outer.name = parent.name + outer_suffix;
  outer.type = outer_type;
  outer.from = {parent.id};
  outer.bind_block = outer_type == AxisType::kBlockOuter;

  Axis inner;
  inner.id = outer.id + 1;
  inner.name = parent.name + inner_suffix;
  inner.type = inner_type;
  if (inner_size) {
    inner.size = *inner_size;
  } else {
    const std::string var = inner.name + "_size";
    g.AddSizeVar(var);
    inner.size = Expr::Sym(var);
  }
  inner.from = {parent.id};
  inner.allow_unaligned_tail = parent.allow_unaligned_tail;
  outer.size = parent.size == Expr(1) ? Expr(1) : sym::CeilDiv(parent.size, inner.size);
  outer.split_pair_other_id = inner.id;
  inner.split_pair_other_id = outer.id;
  g.axes.push_back(outer);
  g.axes.push_back(inner);

  for (auto& node : g.nodes) {
    auto& nest = node.sched.axis;
    const auto it = std::find(nest.begin(), nest.end(), id);
    if (it != nest.end()) {
      const auto pos = it - nest.begin();
      nest[pos] = outer.id;
      nest.insert(nest.begin() + pos + 1, inner.id);
      if (node.sched.loop_axis == id) node.sched.loop_axis = inner.id;
    }
    for (auto& t : node.outputs) {
      const auto vit = std::find(t.axis.begin(), t.axis.end(), id);
      if (vit == t.axis.end()) continue;
      const auto pos = vit - t.axis.begin();
      const Expr repeat = t.repeats[pos];
      const Expr stride = t.strides[pos];
      Expr outer_rep;
      Expr inner_rep;
      Expr outer_stride;
      if (IsBroadcastDim(repeat, stride) && parent.size != Expr(1)) {
        outer_rep = Expr(1);
        inner_rep = Expr(1);
        outer_stride = Expr(0);
      } else {
        outer_rep = outer.size;
        inner_rep = inner.size;
        outer_stride = stride * inner.size;
      }
      t.axis[pos] = outer.id;
      t.axis.insert(t.axis.begin() + pos + 1, inner.id);
      t.repeats[pos] = outer_rep;
      t.repeats.insert(t.repeats.begin() + pos + 1, inner_rep);
      t.strides[pos] = outer_stride;
      t.strides.insert(t.strides.begin() + pos + 1, stride);
    }
  }
  return {outer.id, inner.id};
}

// Where `ids` sit in `seq`: the start index when they appear adjacently in order, -1 when none
// of them appear, -2 when some appear but not adjacently in order.
long FindRun(const std::vector<std::int64_t>& seq, const std::vector<std::int64_t>& ids) {
  const auto first = std::find(seq.begin(), seq.end(), ids.front());
  bool any = false;
  for (auto id : ids)
    any = any || std::find(seq.begin(), seq.end(), id) != seq.end();
  if (!any) return -1;
  if (first == seq.end()) return -2;
  const long start = first - seq.begin();
  if (start + static_cast<long>(ids.size()) > static_cast<long>(seq.size())) return -2;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (seq[start + static_cast<long>(k)] != ids[k]) return -2;
  }
  return start;
}

}  // namespace

SplitResult TileSplit(Graph& g, std::int64_t id, std::optional<Expr> inner_size) {
  return Split(g, id, inner_size, 'T', 't', AxisType::kTileOuter, AxisType::kTileInner);
}

SplitResult BlockSplit(Graph& g, std::int64_t id, std::optional<Expr> inner_size) {
  return Split(g, id, inner_size, 'B', 'b', AxisType::kBlockOuter, AxisType::kBlockInner);
}

std::optional<std::int64_t> MergeAxes(Graph& g, const std::vector<std::int64_t>& ids,
                                      std::string* why) {
  auto fail = [&](const std::string& msg) -> std::optional<std::int64_t> {
    if (why != nullptr) *why = msg;
    return std::nullopt;
  };
  if (ids.size() < 2) return fail("merge needs at least two axes");
  std::string name;
  Expr size(1);
  for (auto id : ids) {
    const Axis* a = g.FindAxis(id);
    if (a == nullptr) return fail("unknown axis id " + std::to_string(id));
    name += a->name;
    size = size * a->size;
  }
  // Check every schedule and view first, so a failed merge changes nothing.
  for (const auto& node : g.nodes) {
    if (FindRun(node.sched.axis, ids) == -2) {
      return fail("node '" + node.name + "' does not hold the axes adjacently in its loop nest");
    }
    for (std::size_t o = 0; o < node.outputs.size(); ++o) {
      const Tensor& t = node.outputs[o];
      const long start = FindRun(t.axis, ids);
      if (start == -1) continue;
      if (start == -2) {
        return fail("output " + std::to_string(o) + " of node '" + node.name +
                    "' does not hold the axes adjacently");
      }
      bool all_bcast = true;
      bool contiguous = true;
      for (std::size_t k = 0; k < ids.size(); ++k) {
        const auto p = static_cast<std::size_t>(start) + k;
        all_bcast = all_bcast && IsBroadcastDim(t.repeats[p], t.strides[p]);
        if (k + 1 < ids.size()) {
          contiguous =
              contiguous &&
              sym::ProveEq(t.strides[p], t.repeats[p + 1] * t.strides[p + 1]) == sym::Tri::kTrue;
        }
        const Axis* a = g.FindAxis(ids[k]);
        contiguous = contiguous && sym::ProveEq(t.repeats[p], a->size) == sym::Tri::kTrue;
      }
      if (!all_bcast && !contiguous) {
        return fail("output " + std::to_string(o) + " of node '" + node.name +
                    "' is not contiguous over the axes");
      }
    }
  }

  Axis merged;
  merged.id = g.NextAxisId();
  merged.name = name;
  merged.type = AxisType::kMerged;
  merged.size = size;
  merged.from = ids;
  g.axes.push_back(merged);

  for (auto& node : g.nodes) {
    const long s = FindRun(node.sched.axis, ids);
    if (s >= 0) {
      auto& nest = node.sched.axis;
      const bool had_loop = std::find(ids.begin(), ids.end(), node.sched.loop_axis) != ids.end();
      nest.erase(nest.begin() + s, nest.begin() + s + static_cast<long>(ids.size()));
      nest.insert(nest.begin() + s, merged.id);
      if (had_loop) node.sched.loop_axis = merged.id;
    }
    for (auto& t : node.outputs) {
      const long start = FindRun(t.axis, ids);
      if (start < 0) continue;
      const auto p = static_cast<std::size_t>(start);
      const auto n = static_cast<long>(ids.size());
      bool all_bcast = true;
      for (std::size_t k = 0; k < ids.size(); ++k) {
        all_bcast = all_bcast && IsBroadcastDim(t.repeats[p + k], t.strides[p + k]);
      }
      const Expr rep = all_bcast ? Expr(1) : size;
      const Expr stride = all_bcast ? Expr(0) : t.strides[p + ids.size() - 1];
      t.axis.erase(t.axis.begin() + start, t.axis.begin() + start + n);
      t.axis.insert(t.axis.begin() + start, merged.id);
      t.repeats.erase(t.repeats.begin() + start, t.repeats.begin() + start + n);
      t.repeats.insert(t.repeats.begin() + start, rep);
      t.strides.erase(t.strides.begin() + start, t.strides.begin() + start + n);
      t.strides.insert(t.strides.begin() + start, stride);
    }
  }
  return merged.id;
}

void ReorderAxes(Graph& g, const std::vector<std::int64_t>& order) {
  auto permute = [&](std::vector<std::int64_t>& seq, auto&&... parallel) {
    std::vector<std::size_t> slots;
    for (std::size_t i = 0; i < seq.size(); ++i) {
      if (std::find(order.begin(), order.end(), seq[i]) != order.end()) slots.push_back(i);
    }
    if (slots.size() < 2) return;
    // The axes present, in the requested order, go into the same slots.
    std::vector<std::size_t> src;
    for (auto id : order) {
      for (auto s : slots) {
        if (seq[s] == id) src.push_back(s);
      }
    }
    auto apply = [&](auto& vec) {
      auto copy = vec;
      for (std::size_t k = 0; k < slots.size(); ++k)
        vec[slots[k]] = copy[src[k]];
    };
    (apply(parallel), ...);
    apply(seq);
  };
  for (auto& node : g.nodes) {
    permute(node.sched.axis);
    for (auto& t : node.outputs)
      permute(t.axis, t.repeats, t.strides);
  }
}

}  // namespace af::ir
