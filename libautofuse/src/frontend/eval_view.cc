// Evaluation rules for views: reshapes, expand, permutes and slice / select. Each one copies:
// the evaluator keeps every value dense.
#include <algorithm>

#include "autofuse/model/shape.h"
#include "eval_rules.h"

namespace af::frontend::eval_detail {

void EvalReshape(const Ctx& c) {
  T x = c.Tensor(0, "self");
  x.shape = c.ShapeOf(c.node().outputs[0]);
  if (Numel(x.shape) != static_cast<std::int64_t>(x.v.size()))
    Fail(c.node(), "reshape changes size");
  c.Set(0, x);
}

void EvalExpand(const Ctx& c) {
  T x = c.Tensor(0, "self");
  const Shape s = c.ShapeOf(c.node().outputs[0]);
  c.Set(0, {x.dt, s, Expand(x, s)});
}

void EvalPermute(const Ctx& c) {
  const model::Node& n = c.node();
  const std::string& name = c.name();
  T x = c.Tensor(0, "self");
  const std::size_t r = x.shape.size();
  std::vector<std::size_t> p(r);
  for (std::size_t k = 0; k < r; ++k)
    p[k] = k;
  if (name == "permute" || name == "permute_copy") {
    const Arg* d = ArgAt(n, 1, "dims");
    if (d == nullptr || !d->IsList() || d->items.size() != r) Fail(n, "dims");
    for (std::size_t k = 0; k < r; ++k)
      p[k] = static_cast<std::size_t>(
          model::NormalizeDim(d->items[k].AsInt().value_or(0), r).value_or(0));
  } else if (r >= 2) {
    std::size_t d0 = 0;
    std::size_t d1 = 1;
    if (name == "transpose") {
      d0 = static_cast<std::size_t>(
          model::NormalizeDim(ArgAt(n, 1, "dim0")->AsInt().value_or(0), r).value_or(0));
      d1 = static_cast<std::size_t>(
          model::NormalizeDim(ArgAt(n, 2, "dim1")->AsInt().value_or(0), r).value_or(0));
    }
    std::swap(p[d0], p[d1]);
  }
  const Shape st = Strides(x.shape);
  Shape s(r);
  Shape ps(r);
  for (std::size_t k = 0; k < r; ++k) {
    s[k] = x.shape[p[k]];
    ps[k] = st[p[k]];
  }
  c.Set(0, {x.dt, s, Gather(x.v, s, ps, 0)});
}

void EvalSlice(const Ctx& c) {
  T x = c.Tensor(0, "self");
  const std::size_t r = x.shape.size();
  const auto dim =
      static_cast<std::size_t>(model::NormalizeDim(c.IntAt(1, "dim", 0), r).value_or(0));
  const Shape st = Strides(x.shape);
  Shape s = x.shape;
  Shape ss = st;
  std::int64_t offset = 0;
  const std::int64_t size = x.shape[dim];
  if (c.name() == "select") {
    std::int64_t idx = c.IntAt(2, "index", 0);
    if (idx < 0) idx += size;
    offset = idx * st[dim];
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(dim));
    ss.erase(ss.begin() + static_cast<std::ptrdiff_t>(dim));
  } else {
    std::int64_t start = c.IntAt(2, "start", 0);
    std::int64_t end = c.IntAt(3, "end", size);
    const std::int64_t step = c.IntAt(4, "step", 1);
    if (start < 0) start += size;
    if (end < 0) end += size;
    start = std::clamp<std::int64_t>(start, 0, size);
    end = std::clamp<std::int64_t>(end, start, size);
    offset = start * st[dim];
    s[dim] = (end - start + step - 1) / step;
    ss[dim] = st[dim] * step;
  }
  c.Set(0, {x.dt, s, Gather(x.v, s, ss, offset)});
}

}  // namespace af::frontend::eval_detail
