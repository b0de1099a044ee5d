// The reference evaluator of model graphs (see evaluator.h).
#include "autofuse/frontend/evaluator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <set>

#include "autofuse/model/shape.h"
#include "autofuse/support/error.h"

namespace af::frontend {
namespace {

using ir::DType;
using model::Arg;
using Shape = std::vector<std::int64_t>;

struct T {
  DType dt = DType::kFloat32;
  Shape shape;
  std::vector<double> v;
};

[[noreturn]] void Fail(const model::Node& n, const std::string& why) {
  throw InputError({}, "node " + n.name + " (" + n.op.ToString() + "): " + why);
}

std::int64_t Numel(const Shape& s) {
  std::int64_t n = 1;
  for (auto d : s)
    n *= d;
  return n;
}

Shape Strides(const Shape& s) {
  Shape st(s.size(), 1);
  for (std::size_t k = s.size(); k-- > 1;)
    st[k - 1] = st[k] * s[k];
  return st;
}

T FromHost(const data::HostArray& a) {
  return {a.dtype, a.shape, data::ToDoubles(a)};
}

// Strided gather: out[i] = in[offset + sum i_k * strides[k]] over `shape`.
std::vector<double> Gather(const std::vector<double>& in, const Shape& shape, const Shape& strides,
                           std::int64_t offset) {
  std::vector<double> out(static_cast<std::size_t>(Numel(shape)));
  Shape idx(shape.size(), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::int64_t o = offset;
    for (std::size_t k = 0; k < shape.size(); ++k)
      o += idx[k] * strides[k];
    out[i] = in.at(static_cast<std::size_t>(o));
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

// Writes the dense array `x` into `out` (strides `ost`) starting at `offset`.
void Scatter(std::vector<double>* out, const Shape& ost, std::int64_t offset, const T& x) {
  Shape idx(x.shape.size(), 0);
  for (double v : x.v) {
    std::int64_t o = offset;
    for (std::size_t k = 0; k < x.shape.size(); ++k)
      o += idx[k] * ost[k];
    out->at(static_cast<std::size_t>(o)) = v;
    for (std::size_t k = x.shape.size(); k-- > 0;) {
      if (++idx[k] < x.shape[k]) break;
      idx[k] = 0;
    }
  }
}

Shape BroadcastShape(const model::Node& n, const std::vector<Shape>& shapes) {
  std::size_t r = 0;
  for (const auto& s : shapes)
    r = std::max(r, s.size());
  Shape out(r, 1);
  for (const auto& s : shapes) {
    for (std::size_t k = 0; k < s.size(); ++k) {
      auto& o = out[r - s.size() + k];
      if (s[k] == 1) continue;
      if (o != 1 && o != s[k]) Fail(n, "shapes do not broadcast");
      o = s[k];
    }
  }
  return out;
}

// `a` expanded to `shape` (right-aligned broadcasting).
std::vector<double> Expand(const T& a, const Shape& shape) {
  Shape st(shape.size(), 0);
  const Shape as = Strides(a.shape);
  for (std::size_t k = 0; k < a.shape.size(); ++k) {
    if (a.shape[k] != 1) st[shape.size() - a.shape.size() + k] = as[k];
  }
  return Gather(a.v, shape, st, 0);
}

double RoundTo(double x, DType dt) {
  data::HostArray a = data::Zeros(dt, {});
  a.SetFromDouble(0, x);
  return a.GetAsDouble(0);
}

double Gelu(double x, bool tanh_approx) {
  if (tanh_approx) {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
  }
  return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2));
}

const Arg* ArgAt(const model::Node& n, std::size_t i, std::string_view kw) {
  if (i < n.args.size()) return &n.args[i];
  return n.Kwarg(kw);
}

}  // namespace

sym::Bindings BindFromInputs(const model::Graph& g, const std::vector<data::HostArray>& inputs) {
  sym::Bindings b;
  std::size_t k = 0;
  for (int v : g.inputs) {
    const auto& t = g.value(v).type;
    if (!t.IsTensor()) continue;
    if (k >= inputs.size()) throw InputError({}, "fewer input arrays than tensor inputs");
    const auto& a = inputs[k++];
    if (a.shape.size() != t.shape.size()) {
      throw InputError({}, "input " + g.value(v).name + " has rank " +
                               std::to_string(a.shape.size()) + ", the graph says " + t.ToString());
    }
    for (std::size_t d = 0; d < t.shape.size(); ++d) {
      const auto& e = t.shape[d];
      if (e.IsSymbol()) {
        auto [it, fresh] = b.emplace(e.name(), a.shape[d]);
        if (!fresh && it->second != a.shape[d])
          throw InputError({}, "symbol " + e.name() + " bound to two sizes");
      }
    }
  }
  for (std::size_t j = 0, kk = 0; j < g.inputs.size(); ++j) {
    const auto& t = g.value(g.inputs[j]).type;
    if (!t.IsTensor()) continue;
    const auto& a = inputs[kk++];
    for (std::size_t d = 0; d < t.shape.size(); ++d) {
      std::int64_t want = 0;
      try {
        want = t.shape[d].Eval(b);
      } catch (const std::exception&) {
        continue;
      }
      if (want != a.shape[d]) {
        throw InputError({}, "input " + g.value(g.inputs[j]).name + " dim " + std::to_string(d) +
                                 " is " + std::to_string(a.shape[d]) + ", the graph says " +
                                 t.ToString());
      }
    }
  }
  return b;
}

Evaluator::Evaluator(const model::Graph& g, sym::Bindings bindings)
    : g_(g), b_(std::move(bindings)) {}

void Evaluator::Set(int value, data::HostArray a) {
  values_[value] = std::move(a);
}

const data::HostArray& Evaluator::Get(int value) const {
  auto it = values_.find(value);
  if (it == values_.end()) throw InputError({}, "value " + g_.value(value).name + " not computed");
  return it->second;
}

std::vector<std::int64_t> Evaluator::ShapeOf(int value) const {
  const auto& t = g_.value(value).type;
  Shape s;
  for (const auto& e : t.shape) {
    try {
      s.push_back(e.Eval(b_));
    } catch (const std::exception& ex) {
      throw InputError({}, "size of " + g_.value(value).name + ": " + ex.what());
    }
  }
  return s;
}

void Evaluator::EvalNode(int id) {
  const model::Node& n = g_.node(id);
  const std::string& name = n.op.name;
  if (n.kind != model::NodeKind::kOp || n.outputs.empty()) return;
  bool tensor_out = false;
  for (int v : n.outputs)
    tensor_out = tensor_out || g_.value(v).type.IsTensor();
  if (!tensor_out) return;  // size queries and other scalar ops: nothing to compute
  const auto& ot = g_.value(n.outputs[0]).type;
  const DType out_dt = ot.dtype;
  auto tensor = [&](std::size_t i, std::string_view kw) -> T {
    const Arg* a = ArgAt(n, i, kw);
    if (a == nullptr || !a->IsValue()) Fail(n, "operand " + std::to_string(i) + " is no tensor");
    return FromHost(Get(a->value));
  };
  // A tensor or Python-number operand as a T (numbers as rank-0).
  auto from_arg = [&](const Arg* a) -> T {
    if (a == nullptr) Fail(n, "missing operand");
    if (a->IsValue()) {
      const auto& t = g_.value(a->value).type;
      if (t.IsTensor()) return FromHost(Get(a->value));
      if (t.kind == model::ValueKind::kSymInt && t.expr)
        return {DType::kInt64, {}, {static_cast<double>(t.expr->Eval(b_))}};
      Fail(n, "operand is neither a tensor nor a number");
    }
    if (a->kind == Arg::Kind::kFloat) return {DType::kFloat32, {}, {a->f}};
    if (a->kind == Arg::Kind::kBool) return {DType::kBool, {}, {a->b ? 1.0 : 0.0}};
    if (auto v = a->AsInt()) return {DType::kInt64, {}, {static_cast<double>(*v)}};
    Fail(n, "operand is neither a tensor nor a number");
  };
  auto operand = [&](std::size_t i, std::string_view kw) { return from_arg(ArgAt(n, i, kw)); };
  auto set = [&](std::size_t k, T t) {
    data::HostArray h = data::FromDoubles(t.dt, t.shape, t.v);
    values_[n.outputs.at(k)] = std::move(h);
  };
  // Elementwise over broadcast operands; operands are first rounded into `compute`.
  auto map = [&](std::vector<T> in, DType compute, DType result,
                 const std::function<double(const std::vector<double>&)>& f) {
    std::vector<Shape> shapes;
    for (const auto& t : in)
      shapes.push_back(t.shape);
    const Shape s = BroadcastShape(n, shapes);
    std::vector<std::vector<double>> ex;
    for (auto& t : in) {
      if (t.dt != compute)
        for (auto& x : t.v)
          x = RoundTo(x, compute);
      ex.push_back(Expand(t, s));
    }
    T r{result, s, std::vector<double>(static_cast<std::size_t>(Numel(s)))};
    std::vector<double> args(in.size());
    for (std::size_t i = 0; i < r.v.size(); ++i) {
      for (std::size_t k = 0; k < ex.size(); ++k)
        args[k] = ex[k][i];
      r.v[i] = f(args);
    }
    return r;
  };
  using Fn = std::function<double(double)>;
  static const std::map<std::string, Fn> unary = {
      {"abs", [](double x) { return std::fabs(x); }},
      {"neg", [](double x) { return -x; }},
      {"exp", [](double x) { return std::exp(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"reciprocal", [](double x) { return 1.0 / x; }},
      {"relu", [](double x) { return std::isnan(x) ? x : std::max(x, 0.0); }},
      {"sigmoid", [](double x) { return 1.0 / (1.0 + std::exp(-x)); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"erf", [](double x) { return std::erf(x); }},
      {"sign", [](double x) { return std::isnan(x) ? x : (x > 0) - (x < 0) + 0.0; }},
      {"silu", [](double x) { return x / (1.0 + std::exp(-x)); }},
      {"square", [](double x) { return x * x; }},
  };
  if (auto it = unary.find(name); it != unary.end()) {
    const Fn f = it->second;
    set(0, map({operand(0, "self")}, out_dt, out_dt, [&](const auto& a) { return f(a[0]); }));
    return;
  }
  if (name == "gelu") {
    const Arg* ap = ArgAt(n, 1, "approximate");
    const bool th = ap != nullptr && ap->kind == Arg::Kind::kString && ap->text == "tanh";
    set(0,
        map({operand(0, "self")}, out_dt, out_dt, [&](const auto& a) { return Gelu(a[0], th); }));
    return;
  }
  static const std::set<std::string> cmp = {"eq", "ne", "gt", "ge", "lt", "le"};
  if (cmp.count(name)) {
    T a = operand(0, "self");
    T b = operand(1, "other");
    set(0, map({a, b}, DType::kFloat64, DType::kBool, [&](const auto& x) -> double {
          if (name == "eq") return x[0] == x[1];
          if (name == "ne") return x[0] != x[1];
          if (name == "gt") return x[0] > x[1];
          if (name == "ge") return x[0] >= x[1];
          if (name == "lt") return x[0] < x[1];
          return x[0] <= x[1];
        }));
    return;
  }
  static const std::set<std::string> bin = {"add",     "sub",     "mul", "div", "true_divide",
                                            "maximum", "minimum", "pow", "rsub"};
  if (bin.count(name)) {
    T a = operand(0, "self");
    T b = operand(1, "other");
    double alpha = 1.0;
    if (const Arg* al = n.Kwarg("alpha"); al != nullptr)
      alpha = al->kind == Arg::Kind::kFloat ? al->f : static_cast<double>(al->AsInt().value_or(1));
    std::string mode;
    if (const Arg* rm = n.Kwarg("rounding_mode"); rm != nullptr && rm->kind == Arg::Kind::kString)
      mode = rm->text;
    set(0, map({a, b}, out_dt, out_dt, [&](const auto& x) -> double {
          if (name == "add") return x[0] + alpha * x[1];
          if (name == "sub") return x[0] - alpha * x[1];
          if (name == "rsub") return x[1] - alpha * x[0];
          if (name == "mul") return x[0] * x[1];
          if (name == "div" || name == "true_divide") {
            const double q = x[0] / x[1];
            if (mode == "floor") return std::floor(q);
            if (mode == "trunc") return std::trunc(q);
            return q;
          }
          if (name == "maximum")
            return std::isnan(x[0]) || std::isnan(x[1]) ? NAN : std::max(x[0], x[1]);
          if (name == "minimum")
            return std::isnan(x[0]) || std::isnan(x[1]) ? NAN : std::min(x[0], x[1]);
          return std::pow(x[0], x[1]);
        }));
    return;
  }
  if (name == "logical_not" || name == "bitwise_not") {
    set(0, map({operand(0, "self")}, DType::kFloat64, out_dt, [&](const auto& x) -> double {
          if (out_dt == DType::kBool) return x[0] == 0;
          return static_cast<double>(~static_cast<std::int64_t>(x[0]));
        }));
    return;
  }
  if (name == "logical_and" || name == "logical_or") {
    set(0, map({operand(0, "self"), operand(1, "other")}, DType::kFloat64, DType::kBool,
               [&](const auto& x) -> double {
                 return name == "logical_and" ? (x[0] != 0 && x[1] != 0) : (x[0] != 0 || x[1] != 0);
               }));
    return;
  }
  if (name == "where") {
    set(0, map({operand(0, "condition"), operand(1, "self"), operand(2, "other")}, DType::kFloat64,
               out_dt, [&](const auto& x) { return x[0] != 0 ? x[1] : x[2]; }));
    // operands round into the result dtype through FromDoubles
    return;
  }
  if (name == "masked_fill") {
    set(0, map({operand(0, "self"), operand(1, "mask"), operand(2, "value")}, DType::kFloat64,
               out_dt, [&](const auto& x) { return x[1] != 0 ? x[2] : x[0]; }));
    return;
  }
  if (name == "clamp" || name == "clamp_min" || name == "clamp_max") {
    T x = operand(0, "self");
    std::vector<T> in = {x};
    const Arg* lo = name == "clamp_max" ? nullptr : ArgAt(n, 1, "min");
    const Arg* hi =
        name == "clamp" ? ArgAt(n, 2, "max") : (name == "clamp_max" ? ArgAt(n, 1, "max") : nullptr);
    const bool has_lo = lo != nullptr && !lo->IsNone();
    const bool has_hi = hi != nullptr && !hi->IsNone();
    if (has_lo) in.push_back(from_arg(lo));
    if (has_hi) in.push_back(from_arg(hi));
    set(0, map(in, out_dt, out_dt, [&](const auto& a) {
          double r = a[0];
          std::size_t k = 1;
          if (has_lo) r = std::isnan(r) ? r : std::max(r, a[k++]);
          if (has_hi) r = std::isnan(r) ? r : std::min(r, a[k]);
          return r;
        }));
    return;
  }
  if (name == "_to_copy" || name == "to" || name == "convert_element_type" || name == "clone" ||
      name == "alias" || name == "lift_fresh_copy" || name == "contiguous") {
    T x = tensor(0, "self");
    x.dt = out_dt;
    set(0, x);
    return;
  }
  // ---- views
  if (name == "view" || name == "_unsafe_view" || name == "reshape" || name == "unsqueeze" ||
      name == "squeeze" || name == "view_copy") {
    T x = tensor(0, "self");
    x.shape = ShapeOf(n.outputs[0]);
    if (Numel(x.shape) != static_cast<std::int64_t>(x.v.size())) Fail(n, "reshape changes size");
    set(0, x);
    return;
  }
  if (name == "expand" || name == "expand_copy") {
    T x = tensor(0, "self");
    const Shape s = ShapeOf(n.outputs[0]);
    set(0, {x.dt, s, Expand(x, s)});
    return;
  }
  if (name == "permute" || name == "transpose" || name == "t" || name == "permute_copy") {
    T x = tensor(0, "self");
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
    set(0, {x.dt, s, Gather(x.v, s, ps, 0)});
    return;
  }
  // An integer argument: a literal or a size symbol's bound value.
  auto int_at = [&](std::size_t i, std::string_view kw, std::int64_t dflt) -> std::int64_t {
    const Arg* a = ArgAt(n, i, kw);
    if (a == nullptr || a->IsNone()) return dflt;
    if (auto v = a->AsInt()) return *v;
    if (a->IsValue()) {
      const auto& t = g_.value(a->value).type;
      if (t.expr) return t.expr->Eval(b_);
    }
    Fail(n, "integer argument '" + std::string(kw) + "'");
  };
  if (name == "slice" || name == "select") {
    T x = tensor(0, "self");
    const std::size_t r = x.shape.size();
    const auto dim =
        static_cast<std::size_t>(model::NormalizeDim(int_at(1, "dim", 0), r).value_or(0));
    const Shape st = Strides(x.shape);
    Shape s = x.shape;
    Shape ss = st;
    std::int64_t offset = 0;
    const std::int64_t size = x.shape[dim];
    if (name == "select") {
      std::int64_t idx = int_at(2, "index", 0);
      if (idx < 0) idx += size;
      offset = idx * st[dim];
      s.erase(s.begin() + static_cast<std::ptrdiff_t>(dim));
      ss.erase(ss.begin() + static_cast<std::ptrdiff_t>(dim));
    } else {
      std::int64_t start = int_at(2, "start", 0);
      std::int64_t end = int_at(3, "end", size);
      const std::int64_t step = int_at(4, "step", 1);
      if (start < 0) start += size;
      if (end < 0) end += size;
      start = std::clamp<std::int64_t>(start, 0, size);
      end = std::clamp<std::int64_t>(end, start, size);
      offset = start * st[dim];
      s[dim] = (end - start + step - 1) / step;
      ss[dim] = st[dim] * step;
    }
    set(0, {x.dt, s, Gather(x.v, s, ss, offset)});
    return;
  }
  // ---- data movement
  auto dim_at = [&](std::size_t i, std::size_t rank) -> std::size_t {
    auto d = model::NormalizeDim(int_at(i, "dim", 0), rank);
    if (!d) Fail(n, "dim out of range");
    return static_cast<std::size_t>(*d);
  };
  if (name == "cat") {
    const Arg* l = ArgAt(n, 0, "tensors");
    if (l == nullptr || !l->IsList()) Fail(n, "cat needs a list of tensors");
    const Shape os = ShapeOf(n.outputs[0]);
    if (os.empty()) Fail(n, "cat of 0-D tensors");
    const std::size_t d = dim_at(1, os.size());
    const Shape ost = Strides(os);
    T r{out_dt, os, std::vector<double>(static_cast<std::size_t>(Numel(os)))};
    std::int64_t at = 0;
    for (const auto& it : l->items) {
      if (!it.IsValue()) Fail(n, "a cat operand is not a tensor");
      const T x = FromHost(Get(it.value));
      if (x.shape.size() == 1 && x.shape[0] == 0 && os.size() != 1) continue;
      Shape want = os;
      want[d] = x.shape.size() == os.size() ? x.shape[d] : -1;
      if (x.shape != want || at + x.shape[d] > os[d]) Fail(n, "operand shapes do not concatenate");
      Scatter(&r.v, ost, at * ost[d], x);
      at += x.shape[d];
    }
    if (at != os[d]) Fail(n, "operands do not fill the output");
    set(0, r);
    return;
  }
  if (name == "split" || name == "split_with_sizes" || name == "split_copy" ||
      name == "split_with_sizes_copy" || name == "chunk" || name == "unbind" ||
      name == "unbind_copy") {
    const T x = tensor(0, "self");
    if (x.shape.empty()) Fail(n, "split of a 0-D tensor");
    const bool unbind = name == "unbind" || name == "unbind_copy";
    const std::size_t d = dim_at(unbind ? 1 : 2, x.shape.size());
    const Shape st = Strides(x.shape);
    std::int64_t at = 0;
    for (std::size_t k = 0; k < n.outputs.size(); ++k) {
      const Shape ps = ShapeOf(n.outputs[k]);
      Shape box = x.shape;
      box[d] = 1;
      if (!unbind) {
        if (ps.size() != x.shape.size()) Fail(n, "piece rank");
        box = ps;
      }
      if (at + box[d] > x.shape[d] || Numel(box) != Numel(ps))
        Fail(n, "pieces exceed the split dim");
      set(k, {x.dt, ps, Gather(x.v, box, st, at * st[d])});
      at += box[d];
    }
    if (at != x.shape[d]) Fail(n, "pieces do not cover the split dim");
    return;
  }
  if (name == "index_select" || name == "embedding" || name == "index" || name == "_unsafe_index") {
    T x;
    T idx;
    std::size_t axis = 0;
    const bool negative = name == "index" || name == "_unsafe_index";  // Python indexing
    if (name == "embedding") {
      x = tensor(0, "weight");
      idx = tensor(1, "indices");
    } else if (name == "index_select") {
      x = tensor(0, "self");
      idx = tensor(2, "index");
      if (x.shape.empty()) Fail(n, "index_select of a 0-D tensor");
      axis = dim_at(1, x.shape.size());
    } else {
      x = tensor(0, "self");
      const Arg* l = ArgAt(n, 1, "indices");
      if (l == nullptr || !l->IsList()) Fail(n, "index list");
      bool found = false;
      for (std::size_t k = 0; k < l->items.size(); ++k) {
        if (l->items[k].IsNone()) continue;
        if (found || !l->items[k].IsValue())
          Fail(n, "indexing with more than one tensor is not supported");
        found = true;
        axis = k;
        idx = FromHost(Get(l->items[k].value));
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
    T r{out_dt, ShapeOf(n.outputs[0]),
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
    set(0, r);
    return;
  }
  if (name == "gather") {  // out[o] = x[o with o[dim] = index[o]]
    const T x = tensor(0, "self");
    const T idx = tensor(2, "index");
    const std::size_t r = x.shape.size();
    const std::size_t d = r == 0 ? 0 : dim_at(1, r);
    if (idx.shape.size() != r && !(r == 0 && idx.shape.size() <= 1)) Fail(n, "index rank");
    const Shape xst = Strides(x.shape);
    T out{out_dt, idx.shape, std::vector<double>(idx.v.size())};
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
        const std::int64_t c = k == d ? i : o[k];
        if (c >= x.shape[k]) Fail(n, "index shape exceeds the input");
        src += c * xst[k];
      }
      out.v[e] = x.v[static_cast<std::size_t>(src)];
      for (std::size_t k = o.size(); k-- > 0;) {
        if (++o[k] < idx.shape[k]) break;
        o[k] = 0;
      }
    }
    set(0, out);
    return;
  }
  if (name == "constant_pad_nd") {
    const T x = tensor(0, "self");
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
      if (v->kind == Arg::Kind::kFloat) {
        value = v->f;
      } else if (auto iv = v->AsInt()) {
        value = static_cast<double>(*iv);
      } else {
        Fail(n, "pad value");
      }
    }
    const Shape xst = Strides(x.shape);
    T out{out_dt, os, std::vector<double>(static_cast<std::size_t>(Numel(os)), value)};
    Shape o(r, 0);
    for (double& slot : out.v) {
      std::int64_t src = 0;
      bool inside = true;
      for (std::size_t k = 0; k < r && inside; ++k) {
        const std::int64_t c = o[k] - lo[k];
        inside = c >= 0 && c < x.shape[k];
        src += c * xst[k];
      }
      if (inside) slot = x.v[static_cast<std::size_t>(src)];
      for (std::size_t k = r; k-- > 0;) {
        if (++o[k] < os[k]) break;
        o[k] = 0;
      }
    }
    set(0, out);
    return;
  }
  // ---- reductions
  static const std::set<std::string> red = {"sum", "mean", "amax", "amin",    "prod",
                                            "any", "all",  "var",  "var_mean"};
  if (red.count(name)) {
    T x = tensor(0, "self");
    const std::size_t r = x.shape.size();
    std::vector<bool> rd(r, false);
    bool any = false;
    const bool has_dims =
        n.op.ns == "prims" || n.op.overload != "default" || name == "amax" || name == "amin";
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
    if (const Arg* c = n.Kwarg("correction"); c != nullptr && !c->IsNone()) {
      correction =
          c->kind == Arg::Kind::kFloat ? c->f : static_cast<double>(c->AsInt().value_or(1));
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
    const std::size_t no = static_cast<std::size_t>(Numel(os));
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
    const Shape final_shape = ShapeOf(n.outputs[0]);
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
      set(0, reduce(var, out_dt));
      set(1, reduce(mean, g_.value(n.outputs.at(1)).type.dtype));
      return;
    }
    if (name == "var") {
      set(0, reduce(var, out_dt));
      return;
    }
    set(0, reduce(
               [&](const std::vector<double>& g) -> double {
                 if (name == "mean") return mean(g);
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
                   acc = name == "amax" ? -INFINITY : INFINITY;
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
               out_dt));
    return;
  }
  // ---- matmul family (accumulates in double, rounds once)
  if (name == "mm" || name == "bmm" || name == "addmm" || name == "matmul" || name == "linear") {
    T a = tensor(name == "addmm" ? 1 : 0, "mat1");
    T b = tensor(name == "addmm" ? 2 : 1, "mat2");
    if (name == "linear") {  // x @ w.t()
      if (b.shape.size() != 2) Fail(n, "linear weight must be 2-D");
      const Shape bs = {b.shape[1], b.shape[0]};
      b = {b.dt, bs, Gather(b.v, bs, {1, b.shape[1]}, 0)};
    }
    if (a.shape.size() < 2 || b.shape.size() < 2) Fail(n, "matmul of vectors is not supported");
    const std::int64_t m = a.shape[a.shape.size() - 2];
    const std::int64_t k = a.shape.back();
    const std::int64_t nn = b.shape.back();
    if (b.shape[b.shape.size() - 2] != k) Fail(n, "inner sizes differ");
    const Shape abatch(a.shape.begin(), a.shape.end() - 2);
    const Shape bbatch(b.shape.begin(), b.shape.end() - 2);
    const Shape batch = BroadcastShape(n, {abatch, bbatch});
    const std::int64_t nb = Numel(batch);
    Shape as = batch;
    as.push_back(m);
    as.push_back(k);
    Shape bs = batch;
    bs.push_back(k);
    bs.push_back(nn);
    const auto av = Expand(a, as);
    const auto bv = Expand(b, bs);
    Shape os = batch;
    os.push_back(m);
    os.push_back(nn);
    T r{out_dt, os, std::vector<double>(static_cast<std::size_t>(Numel(os)))};
    for (std::int64_t p = 0; p < nb; ++p)
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < nn; ++j) {
          double s = 0;
          for (std::int64_t q = 0; q < k; ++q)
            s += av[static_cast<std::size_t>((p * m + i) * k + q)] *
                 bv[static_cast<std::size_t>((p * k + q) * nn + j)];
          r.v[static_cast<std::size_t>((p * m + i) * nn + j)] = s;
        }
    if (name == "addmm" ||
        (name == "linear" && ArgAt(n, 2, "bias") != nullptr && ArgAt(n, 2, "bias")->IsValue())) {
      T bias = tensor(name == "addmm" ? 0 : 2, name == "addmm" ? "self" : "bias");
      const auto bv2 = Expand(bias, os);
      for (std::size_t i = 0; i < r.v.size(); ++i)
        r.v[i] += bv2[i];
    }
    set(0, r);
    return;
  }
  Fail(n, "not supported by the reference evaluator");
}

}  // namespace af::frontend
