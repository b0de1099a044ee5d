// Evaluation rules for data movement: cat, the split family, index_select / embedding / index,
// gather and constant_pad_nd.
#include "autofuse/model/shape.h"
#include "eval_rules.h"

namespace af::frontend::eval_detail {

void EvalCat(const Ctx& c) {
  const model::Node& n = c.node();
  const Arg* l = ArgAt(n, 0, "tensors");
  if (l == nullptr || !l->IsList()) Fail(n, "cat needs a list of tensors");
  const Shape os = c.ShapeOf(n.outputs[0]);
  if (os.empty()) Fail(n, "cat of 0-D tensors");
  const std::size_t d = c.DimAt(1, os.size());
  const Shape ost = Strides(os);
  T r{c.out_dt(), os, std::vector<double>(static_cast<std::size_t>(Numel(os)))};
  std::int64_t at = 0;
  for (const auto& it : l->items) {
    if (!it.IsValue()) Fail(n, "a cat operand is not a tensor");
    const T x = c.Value(it.value);
    if (x.shape.size() == 1 && x.shape[0] == 0 && os.size() != 1) continue;
    Shape want = os;
    want[d] = x.shape.size() == os.size() ? x.shape[d] : -1;
    if (x.shape != want || at + x.shape[d] > os[d]) Fail(n, "operand shapes do not concatenate");
    Scatter(&r.v, ost, at * ost[d], x);
    at += x.shape[d];
  }
  if (at != os[d]) Fail(n, "operands do not fill the output");
  c.Set(0, r);
}

void EvalSplit(const Ctx& c) {
  const model::Node& n = c.node();
  const std::string& name = c.name();
  const T x = c.Tensor(0, "self");
  if (x.shape.empty()) Fail(n, "split of a 0-D tensor");
  const bool unbind = name == "unbind" || name == "unbind_copy";
  const std::size_t d = c.DimAt(unbind ? 1 : 2, x.shape.size());
  const Shape st = Strides(x.shape);
  std::int64_t at = 0;
  for (std::size_t k = 0; k < n.outputs.size(); ++k) {
    const Shape ps = c.ShapeOf(n.outputs[k]);
    Shape box = x.shape;
    box[d] = 1;
    if (!unbind) {
      if (ps.size() != x.shape.size()) Fail(n, "piece rank");
      box = ps;
    }
    if (at + box[d] > x.shape[d] || Numel(box) != Numel(ps)) Fail(n, "pieces exceed the split dim");
    c.Set(k, {x.dt, ps, Gather(x.v, box, st, at * st[d])});
    at += box[d];
  }
  if (at != x.shape[d]) Fail(n, "pieces do not cover the split dim");
}

void EvalIndex(const Ctx& c) {
  const model::Node& n = c.node();
  const std::string& name = c.name();
  T x;
  T idx;
  std::size_t axis = 0;
  const bool negative = name == "index" || name == "_unsafe_index";  // Python indexing
  if (name == "embedding") {
    x = c.Tensor(0, "weight");
    idx = c.Tensor(1, "indices");
  } else if (name == "index_select") {
    x = c.Tensor(0, "self");
    idx = c.Tensor(2, "index");
    if (x.shape.empty()) Fail(n, "index_select of a 0-D tensor");
    axis = c.DimAt(1, x.shape.size());
  } else {
    x = c.Tensor(0, "self");
    const Arg* l = ArgAt(n, 1, "indices");
    if (l == nullptr || !l->IsList()) Fail(n, "index list");
    bool found = false;
    for (std::size_t k = 0; k < l->items.size(); ++k) {
      if (l->items[k].IsNone()) continue;
      if (found || !l->items[k].IsValue())
        Fail(n, "indexing with more than one tensor is not supported");
      found = true;
      axis = k;
      idx = c.Value(l->items[k].value);
    }
    if (!found) Fail(n, "no index tensor");
  }
  if (ir::IsFloat(idx.dt) || idx.dt == DType::kBool) Fail(n, "indices must be integers");
  if (axis >= x.shape.size()) Fail(n, "axis out of range");
  std::int64_t pre = 1;
  std::int64_t post = 1;
  for (std::size_t k = 0; k < axis; ++k)
    pre *= x.shape[k];
  for (std::size_t k = axis + 1; k < x.shape.size(); ++k)
    post *= x.shape[k];
  const std::int64_t extent = x.shape[axis];
  const auto m = static_cast<std::int64_t>(idx.v.size());
  T r{c.out_dt(), c.ShapeOf(n.outputs[0]),
      std::vector<double>(static_cast<std::size_t>(pre * m * post))};
  for (std::int64_t j = 0; j < m; ++j) {
    auto i = static_cast<std::int64_t>(idx.v[static_cast<std::size_t>(j)]);
    if (i < 0 && negative) i += extent;
    if (i < 0 || i >= extent) {
      Fail(n, "index " +
                  std::to_string(static_cast<std::int64_t>(idx.v[static_cast<std::size_t>(j)])) +
                  " is out of range for dim " + std::to_string(axis) + " of size " +
                  std::to_string(extent));
    }
    for (std::int64_t p = 0; p < pre; ++p)
      for (std::int64_t q = 0; q < post; ++q)
        r.v[static_cast<std::size_t>((p * m + j) * post + q)] =
            x.v[static_cast<std::size_t>((p * extent + i) * post + q)];
  }
  if (Numel(r.shape) != static_cast<std::int64_t>(r.v.size())) Fail(n, "output shape");
  c.Set(0, r);
}

void EvalGather(const Ctx& c) {  // out[o] = x[o with o[dim] = index[o]]
  const model::Node& n = c.node();
  const T x = c.Tensor(0, "self");
  const T idx = c.Tensor(2, "index");
  const std::size_t r = x.shape.size();
  const std::size_t d = r == 0 ? 0 : c.DimAt(1, r);
  if (idx.shape.size() != r && !(r == 0 && idx.shape.size() <= 1)) Fail(n, "index rank");
  const Shape xst = Strides(x.shape);
  T out{c.out_dt(), idx.shape, std::vector<double>(idx.v.size())};
  Shape o(idx.shape.size(), 0);
  for (std::size_t e = 0; e < idx.v.size(); ++e) {
    auto i = static_cast<std::int64_t>(idx.v[e]);
    const std::int64_t extent = r == 0 ? 1 : x.shape[d];
    if (i < 0 || i >= extent) {
      Fail(n, "index " + std::to_string(i) + " is out of range for dim " + std::to_string(d) +
                  " of size " + std::to_string(extent));
    }
    std::int64_t src = 0;
    for (std::size_t k = 0; k < r; ++k) {
      const std::int64_t at = k == d ? i : o[k];
      if (at >= x.shape[k]) Fail(n, "index shape exceeds the input");
      src += at * xst[k];
    }
    out.v[e] = x.v[static_cast<std::size_t>(src)];
    for (std::size_t k = o.size(); k-- > 0;) {
      if (++o[k] < idx.shape[k]) break;
      o[k] = 0;
    }
  }
  c.Set(0, out);
}

void EvalPad(const Ctx& c) {
  const model::Node& n = c.node();
  const T x = c.Tensor(0, "self");
  const Arg* pl = ArgAt(n, 1, "pad");
  if (pl == nullptr || !pl->IsList()) Fail(n, "pad list");
  const std::size_t r = x.shape.size();
  if (pl->items.size() % 2 != 0 || pl->items.size() / 2 > r) Fail(n, "bad pad list");
  Shape lo(r, 0);
  Shape os = x.shape;
  for (std::size_t i = 0; i < pl->items.size() / 2; ++i) {
    auto a = pl->items[2 * i].AsInt();
    auto b = pl->items[2 * i + 1].AsInt();
    if (!a || !b) Fail(n, "pads must be integers");
    lo[r - 1 - i] = *a;
    os[r - 1 - i] += *a + *b;
    if (os[r - 1 - i] < 0) Fail(n, "pads remove more than the dim");
  }
  double value = 0;
  if (const Arg* v = ArgAt(n, 2, "value"); v != nullptr && !v->IsNone()) {
    const auto num = NumberOf(*v);
    if (!num) Fail(n, "pad value");
    value = *num;
  }
  const Shape xst = Strides(x.shape);
  T out{c.out_dt(), os, std::vector<double>(static_cast<std::size_t>(Numel(os)), value)};
  Shape o(r, 0);
  for (double& slot : out.v) {
    std::int64_t src = 0;
    bool inside = true;
    for (std::size_t k = 0; k < r && inside; ++k) {
      const std::int64_t at = o[k] - lo[k];
      inside = at >= 0 && at < x.shape[k];
      src += at * xst[k];
    }
    if (inside) slot = x.v[static_cast<std::size_t>(src)];
    for (std::size_t k = r; k-- > 0;) {
      if (++o[k] < os[k]) break;
      o[k] = 0;
    }
  }
  c.Set(0, out);
}

}  // namespace af::frontend::eval_detail
