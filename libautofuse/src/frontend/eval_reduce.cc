// Evaluation rule for reductions: sum, mean, amax, amin, prod, any, all, argmax, var and var_mean
// over the given dims (all when none are given).
#include <algorithm>
#include <cmath>
#include <limits>

#include "autofuse/model/shape.h"
#include "eval_rules.h"

namespace af::frontend::eval_detail {

void EvalReduce(const Ctx& c) {
  const model::Node& n = c.node();
  const std::string& name = c.name();
  T x = c.Tensor(0, "self");
  const std::size_t r = x.shape.size();
  std::vector<bool> rd(r, false);
  bool any = false;
  const bool has_dims = n.op.ns == "prims" || n.op.overload != "default" || name == "amax" ||
                        name == "amin" || name == "argmax";
  const Arg* d = has_dims ? ArgAt(n, 1, "dim") : nullptr;
  if (d != nullptr && !d->IsNone()) {
    std::vector<Arg> items = d->IsList() ? d->items : std::vector<Arg>{*d};
    for (const auto& it : items) {
      auto nd = model::NormalizeDim(it.AsInt().value_or(0), r);
      if (!nd) Fail(n, "dim");
      rd[static_cast<std::size_t>(*nd)] = true;
      any = true;
    }
  }
  if (!any) std::fill(rd.begin(), rd.end(), true);
  double correction = 1.0;
  if (const Arg* corr = n.Kwarg("correction"); corr != nullptr && !corr->IsNone()) {
    correction = NumberOf(*corr).value_or(1.0);
  } else if ((name == "var" || name == "var_mean") &&
             (n.op.overload == "dim" || n.op.overload == "default")) {
    const Arg* ub = n.op.overload == "dim" ? ArgAt(n, 2, "unbiased") : ArgAt(n, 1, "unbiased");
    if (ub != nullptr && ub->kind == Arg::Kind::kBool && !ub->b) correction = 0.0;
  }
  // dense output with reduced dims of size 1
  Shape os = x.shape;
  for (std::size_t k = 0; k < r; ++k)
    if (rd[k]) os[k] = 1;
  const Shape ost = Strides(os);
  const auto no = static_cast<std::size_t>(Numel(os));
  std::vector<std::vector<double>> groups(no);
  Shape idx(r, 0);
  for (std::size_t i = 0; i < x.v.size(); ++i) {
    std::int64_t o = 0;
    for (std::size_t k = 0; k < r; ++k)
      if (!rd[k]) o += idx[k] * ost[k];
    groups[static_cast<std::size_t>(o)].push_back(x.v[i]);
    for (std::size_t k = r; k-- > 0;) {
      if (++idx[k] < x.shape[k]) break;
      idx[k] = 0;
    }
  }
  const Shape final_shape = c.ShapeOf(n.outputs[0]);
  auto reduce = [&](const std::function<double(const std::vector<double>&)>& f, DType dt) {
    T t{dt, final_shape, std::vector<double>(no)};
    for (std::size_t i = 0; i < no; ++i)
      t.v[i] = f(groups[i]);
    return t;
  };
  auto mean = [](const std::vector<double>& g) {
    double s = 0;
    for (double v : g)
      s += v;
    return s / static_cast<double>(g.size());
  };
  auto var = [&](const std::vector<double>& g) {
    const double m = mean(g);
    double s = 0;
    for (double v : g)
      s += (v - m) * (v - m);
    const double den = static_cast<double>(g.size()) - correction;
    return den > 0 ? s / den : NAN;
  };
  if (name == "var_mean") {
    c.Set(0, reduce(var, c.out_dt()));
    c.Set(1, reduce(mean, c.graph().value(n.outputs.at(1)).type.dtype));
    return;
  }
  if (name == "var") {
    c.Set(0, reduce(var, c.out_dt()));
    return;
  }
  c.Set(0, reduce(
               [&](const std::vector<double>& g) -> double {
                 if (name == "mean") return mean(g);
                 if (name == "argmax") {  // first maximum; the first NaN is the maximum
                   std::size_t best = 0;
                   for (std::size_t k = 1; k < g.size() && !std::isnan(g[best]); ++k) {
                     if (std::isnan(g[k]) || g[k] > g[best]) best = k;
                   }
                   return static_cast<double>(best);
                 }
                 double acc = name == "prod" ? 1.0 : 0.0;
                 if (name == "any") {
                   for (double v : g)
                     if (v != 0) return 1;
                   return 0;
                 }
                 if (name == "all") {
                   for (double v : g)
                     if (v == 0) return 0;
                   return 1;
                 }
                 if (name == "amax" || name == "amin") {
                   acc = name == "amax" ? -std::numeric_limits<double>::infinity()
                                        : std::numeric_limits<double>::infinity();
                   for (double v : g) {
                     if (std::isnan(v)) return v;
                     acc = name == "amax" ? std::max(acc, v) : std::min(acc, v);
                   }
                   return acc;
                 }
                 for (double v : g)
                   acc = name == "prod" ? acc * v : acc + v;
                 return acc;
               },
               c.out_dt()));
}

}  // namespace af::frontend::eval_detail
