// The end of lowering: the axis classes become the graph's axes, in the order of the widest
// layout (a Gather's params dims around its indices' dims), and every node gets its view over
// them; Data and Output nodes get the view of their whole buffer, Gather operands the Gather's
// view; the graph's size variables are the symbols its views use.
#include "lowerer.h"

namespace af::frontend::lower_detail {

void Lowerer::Finalize(LoweredKernel* result) {
  const std::vector<int> order = AxisOrder();
  std::vector<std::int64_t> axis_ids;
  for (std::size_t a = 0; a < order.size(); ++a) {
    axis_ids.push_back(
        g_out_.AddAxis("z" + std::to_string(a), size_[static_cast<std::size_t>(order[a])]));
  }
  const std::size_t na = order.size();
  for (std::size_t i = 0; i < info_.size(); ++i) {
    ir::Node& n = g_out_.nodes[i];
    ir::Tensor& t = n.outputs[0];
    const Info& info = info_[i];
    switch (info.role) {
      case Role::kScalar:
      case Role::kData:
      case Role::kOutput:
        break;
      default:
        ViewFor(i, order, axis_ids, &t);
        n.sched.axis = axis_ids;
        n.sched.loop_axis = na == 0 ? -1 : axis_ids.back();
        break;
    }
    if (info.role == Role::kLoad || info.role == Role::kStore) {
      if (info.offset != Expr(0)) {
        if (auto v = info.offset.AsInt()) {
          n.attrs["offset"] = *v;
        } else {
          n.attrs["offset"] = info.offset;
        }
      }
    }
  }
  SetBufferViews(axis_ids);
  SetGatherViews(axis_ids);
  SetCubeViews(order, axis_ids);
  AddSizeVars();
  result->inputs = data_order_;
}

std::vector<int> Lowerer::AxisOrder() {
  // axes: classes some node spans (a piece of a concat/split axis counts as its whole)
  std::vector<int> roots;
  std::set<int> seen;
  for (Info& info : info_) {
    for (auto& d : info.layout) {
      if (d.cls < 0) continue;
      d.cls = Find(d.cls);
      const int a = AxisClass(d.cls);
      if (d.full && seen.insert(a).second) roots.push_back(a);
    }
  }
  // order: the layout spanning the most axes (Stores first, then earliest) gives the order
  int best = -1;
  int best_count = -1;
  bool best_store = false;
  for (std::size_t i = 0; i < info_.size(); ++i) {
    int c = 0;
    for (const auto& d : info_[i].layout)
      c += d.full ? 1 : 0;
    const bool store = info_[i].role == Role::kStore;
    if (c > best_count || (c == best_count && store && !best_store)) {
      best = static_cast<int>(i);
      best_count = c;
      best_store = store;
    }
  }
  std::vector<int> order;
  auto push = [&](int a) {
    if (std::find(order.begin(), order.end(), a) == order.end()) order.push_back(a);
  };
  if (best >= 0) {
    for (const auto& d : info_[static_cast<std::size_t>(best)].layout)
      if (d.full) push(AxisClass(d.cls));
  }
  for (int r : roots)
    push(r);
  // A Gather's output view is params[:axis] + indices + params[axis+1:] over the loop axes: the
  // params' leading dims go first, their trailing dims last, the indices' dims in between in
  // their order (docs/ir.md "Gather").
  if (!gathers_.empty()) {
    const auto pre = AxesOf(gathers_[0].prefix);
    const auto suf = AxesOf(gathers_[0].suffix);
    std::vector<int> forced = pre;
    for (int a : IndexAxes(gathers_[0]))
      forced.push_back(a);
    for (int a : order)
      if (std::find(forced.begin(), forced.end(), a) == forced.end() &&
          std::find(suf.begin(), suf.end(), a) == suf.end())
        forced.push_back(a);
    for (int a : suf)
      if (std::find(forced.begin(), forced.end(), a) == forced.end()) forced.push_back(a);
    order = forced;
  }
  for (const auto& gu : gathers_) {
    const auto pre = AxesOf(gu.prefix);
    const auto suf = AxesOf(gu.suffix);
    const auto idx = IndexAxes(gu);
    bool ok = pre.size() + suf.size() <= order.size() &&
              std::equal(pre.begin(), pre.end(), order.begin()) &&
              std::equal(suf.begin(), suf.end(), order.end() - static_cast<long>(suf.size()));
    std::size_t at = pre.size();
    for (int a : idx) {  // the indices' axes in their order inside the middle
      while (ok && at < order.size() - suf.size() && order[at] != a)
        ++at;
      ok = ok && at < order.size() - suf.size();
    }
    if (!ok) {
      throw LowerError("AXIS_CONFLICT",
                       "Gather " + g_out_.nodes[static_cast<std::size_t>(gu.node)].name +
                           ": its output dims do not fit the kernel's loop order (two gathers "
                           "with different layouts, or a gathered value mixed with its params' "
                           "axes)");
    }
  }
  return order;
}

std::vector<int> Lowerer::AxesOf(const std::vector<int>& classes) {
  std::vector<int> r;
  r.reserve(classes.size());
  for (int c : classes)
    r.push_back(AxisClass(c));
  return r;
}

std::vector<int> Lowerer::IndexAxes(const GatherUse& gu) {
  std::vector<int> r;
  for (const auto& d : gu.index_layout)
    if (d.cls >= 0) r.push_back(AxisClass(d.cls));
  return r;
}

void Lowerer::ViewFor(std::size_t i, const std::vector<int>& order,
                      const std::vector<std::int64_t>& axis_ids, ir::Tensor* t) {
  const std::size_t na = order.size();
  const Info& info = info_[i];
  t->axis = axis_ids;
  t->repeats.assign(na, Expr(1));
  t->strides.assign(na, Expr(0));
  std::vector<int> dim_of(na, -1);
  for (std::size_t k = 0; k < info.layout.size(); ++k) {
    const Dim& d = info.layout[k];
    if (!d.full) continue;
    const auto pos = static_cast<std::size_t>(
        std::find(order.begin(), order.end(), AxisClass(d.cls)) - order.begin());
    if (dim_of[pos] >= 0) {
      throw LowerError("AXIS_CONFLICT", "two dims of one tensor map to axis z" +
                                            std::to_string(pos) + " (a diagonal view)");
    }
    dim_of[pos] = static_cast<int>(k);
    t->repeats[pos] = size_[static_cast<std::size_t>(d.cls)];
  }
  if (info.role == Role::kLoad || info.role == Role::kStore) {
    for (std::size_t a = 0; a < na; ++a)
      if (dim_of[a] >= 0) t->strides[a] = info.phys[static_cast<std::size_t>(dim_of[a])];
  } else {
    Expr s(1);
    for (std::size_t a = na; a-- > 0;) {
      if (dim_of[a] < 0) continue;
      t->strides[a] = s;
      s = s * t->repeats[a];
    }
  }
}

void Lowerer::SetBufferViews(const std::vector<std::int64_t>& axis_ids) {
  const std::size_t na = axis_ids.size();
  auto dense = [&](const ir::Tensor& t) {
    Expr s(1);
    for (std::size_t a = na; a-- > 0;) {
      if (IsOne(t.repeats[a])) {
        if (t.strides[a] != Expr(0)) return false;
        continue;
      }
      if (t.strides[a] != s) return false;
      s = s * t.repeats[a];
    }
    return true;
  };
  auto flat = [&](ir::Tensor* t, const Expr& numel) {
    if (na == 0) {
      t->axis.clear();
      t->repeats.clear();
      t->strides.clear();
      return;
    }
    // every loop axis (the schedule wants buffer views over the loop nest), the whole buffer
    // along the first: repeats (numel, 1, ...), strides (1, 0, ...)
    t->axis = axis_ids;
    t->repeats.assign(na, Expr(1));
    t->strides.assign(na, Expr(0));
    t->repeats[0] = numel;
    t->strides[0] = Expr(1);
  };
  // Data / Output views: the access view when it is the whole buffer, densely; else flat.
  for (std::size_t i = 0; i < info_.size(); ++i) {
    const Info& info = info_[i];
    if (info.role != Role::kData && info.role != Role::kOutput) continue;
    if (gather_data_.contains(static_cast<int>(i))) continue;  // below
    const int value = info.base;
    const Expr numel = model::Numel(TypeOf(value).shape);
    int access = -1;
    if (info.role == Role::kData) {
      for (std::size_t j = 0; j < info_.size(); ++j)
        if (info_[j].role == Role::kLoad && info_[j].base == static_cast<int>(i)) {
          access = static_cast<int>(j);
          break;
        }
    } else {
      access = g_out_.nodes[i].inputs[0].node;
    }
    ir::Tensor& t = g_out_.nodes[i].outputs[0];
    bool use_access = false;
    if (access >= 0) {
      const ir::Tensor& at = g_out_.nodes[static_cast<std::size_t>(access)].outputs[0];
      const ir::Node& an = g_out_.nodes[static_cast<std::size_t>(access)];
      Expr prod(1);
      for (const auto& r : at.repeats)
        prod = prod * r;
      use_access = an.FindAttr("offset") == nullptr && dense(at) && prod == numel;
      if (use_access) {
        t.axis = at.axis;
        t.repeats = at.repeats;
        t.strides = at.strides;
      }
    }
    if (!use_access) flat(&t, numel);
  }
}

void Lowerer::SetGatherViews(const std::vector<std::int64_t>& axis_ids) {
  const std::size_t na = axis_ids.size();
  // Gather operands: read straight from Data, so each Data's view is the Gather's: params over
  // the loop axes of its leading and trailing dims and an axis of its own for the gathered dim
  // (no loop runs over it), indices over the loop axes between them.
  for (const Info& info : info_) {
    if (info.role == Role::kLoad && gather_data_.contains(info.base)) {
      throw LowerError("UNSUPPORTED_ARG",
                       "a Gather operand is also loaded elsewhere in the kernel (Gather reads "
                       "its Data directly)");
    }
  }
  std::map<int, ir::Tensor> gather_views;
  auto set_view = [&](int data, ir::Tensor v) {
    v.dtype = g_out_.nodes[static_cast<std::size_t>(data)].outputs[0].dtype;
    Expr s(1);
    for (std::size_t a = v.repeats.size(); a-- > 0;) {
      v.strides[a] = IsOne(v.repeats[a]) ? Expr(0) : s;
      s = s * v.repeats[a];
    }
    auto [it, fresh] = gather_views.emplace(data, v);
    if (!fresh && !(it->second == v)) {
      throw LowerError("AXIS_CONFLICT", "two Gathers read input " +
                                            g_out_.nodes[static_cast<std::size_t>(data)].name +
                                            " with different views");
    }
  };
  for (const auto& gu : gathers_) {
    const auto pre = AxesOf(gu.prefix);
    const auto suf = AxesOf(gu.suffix);
    ir::Tensor pv;
    for (std::size_t k = 0; k < gu.params_shape.size(); ++k) {
      std::int64_t id = 0;
      if (k < pre.size()) {
        id = axis_ids[k];
      } else if (k == pre.size()) {
        id = g_out_.AddAxis("z" + std::to_string(g_out_.axes.size()), gu.extent);
      } else {
        id = axis_ids[na - suf.size() + (k - pre.size() - 1)];
      }
      pv.axis.push_back(id);
      pv.repeats.push_back(gu.params_shape[k]);
      pv.strides.emplace_back(0);
    }
    set_view(gu.params, pv);
    ir::Tensor iv;
    const ir::Tensor& out = g_out_.nodes[static_cast<std::size_t>(gu.node)].outputs[0];
    for (std::size_t a = pre.size(); a < na - suf.size(); ++a) {
      iv.axis.push_back(axis_ids[a]);
      iv.repeats.push_back(out.repeats[a]);
      iv.strides.emplace_back(0);
    }
    if (!gu.reduced_indices) set_view(gu.indices, iv);
  }
  for (auto& [data, v] : gather_views) {
    g_out_.nodes[static_cast<std::size_t>(data)].outputs[0] = v;
    g_out_.nodes[static_cast<std::size_t>(data)].sched.axis = v.axis;
  }
}

void Lowerer::AddSizeVars() {
  std::set<std::string> used;
  auto note = [&](const Expr& e) {
    for (const auto& s : e.FreeSymbols())
      used.insert(s);
  };
  for (const auto& a : g_out_.axes)
    note(a.size);
  for (const auto& n : g_out_.nodes) {
    for (const auto& t : n.outputs) {
      for (const auto& e : t.repeats)
        note(e);
      for (const auto& e : t.strides)
        note(e);
    }
    for (const auto& [key, v] : n.attrs)
      if (const auto* e = std::get_if<Expr>(&v)) note(*e);
  }
  for (const auto& s : g_.symbols)
    if (used.erase(s) != 0) g_out_.AddSizeVar(s);
  for (const auto& s : used)
    g_out_.AddSizeVar(s);
}

}  // namespace af::frontend::lower_detail
