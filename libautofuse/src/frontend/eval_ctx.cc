// The evaluator rules' shared helpers and their context (see eval_rules.h).
#include <algorithm>

#include "autofuse/model/shape.h"
#include "autofuse/support/error.h"
#include "eval_rules.h"

namespace af::frontend::eval_detail {

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

std::vector<double> Gather(const std::vector<double>& in, const Shape& shape, const Shape& strides,
                           std::int64_t offset) {
  std::vector<double> out(static_cast<std::size_t>(Numel(shape)));
  Shape idx(shape.size(), 0);
  for (double& slot : out) {
    std::int64_t o = offset;
    for (std::size_t k = 0; k < shape.size(); ++k)
      o += idx[k] * strides[k];
    slot = in.at(static_cast<std::size_t>(o));
    for (std::size_t k = shape.size(); k-- > 0;) {
      if (++idx[k] < shape[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

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

Ctx::Ctx(Evaluator& ev, const model::Graph& g, const sym::Bindings& b, const model::Node& n)
    : ev_(ev), g_(g), b_(b), n_(n), out_dt_(g.value(n.outputs[0]).type.dtype) {}

T Ctx::Tensor(std::size_t i, std::string_view kw) const {
  const Arg* a = ArgAt(n_, i, kw);
  if (a == nullptr || !a->IsValue()) Fail(n_, "operand " + std::to_string(i) + " is no tensor");
  return FromHost(ev_.Get(a->value));
}

T Ctx::FromArg(const Arg* a) const {
  if (a == nullptr) Fail(n_, "missing operand");
  if (a->IsValue()) {
    const auto& t = g_.value(a->value).type;
    if (t.IsTensor()) return FromHost(ev_.Get(a->value));
    if (t.kind == model::ValueKind::kSymInt && t.expr)
      return {DType::kInt64, {}, {static_cast<double>(t.expr->Eval(b_))}};
    Fail(n_, "operand is neither a tensor nor a number");
  }
  if (a->kind == Arg::Kind::kFloat) return {DType::kFloat32, {}, {a->f}};
  if (a->kind == Arg::Kind::kBool) return {DType::kBool, {}, {a->b ? 1.0 : 0.0}};
  if (auto v = a->AsInt()) return {DType::kInt64, {}, {static_cast<double>(*v)}};
  Fail(n_, "operand is neither a tensor nor a number");
}

std::int64_t Ctx::IntAt(std::size_t i, std::string_view kw, std::int64_t dflt) const {
  const Arg* a = ArgAt(n_, i, kw);
  if (a == nullptr || a->IsNone()) return dflt;
  if (auto v = a->AsInt()) return *v;
  if (a->IsValue()) {
    const auto& t = g_.value(a->value).type;
    if (t.expr) return t.expr->Eval(b_);
  }
  Fail(n_, "integer argument '" + std::string(kw) + "'");
}

std::size_t Ctx::DimAt(std::size_t i, std::size_t rank) const {
  auto d = model::NormalizeDim(IntAt(i, "dim", 0), rank);
  if (!d) Fail(n_, "dim out of range");
  return static_cast<std::size_t>(*d);
}

T Ctx::Value(int value) const {
  return FromHost(ev_.Get(value));
}

void Ctx::Set(std::size_t k, const T& t) const {
  ev_.Set(n_.outputs.at(k), data::FromDoubles(t.dt, t.shape, t.v));
}

T Ctx::Map(std::vector<T> in, DType compute, DType result, const ElementFn& f) const {
  std::vector<Shape> shapes;
  shapes.reserve(in.size());
  for (const auto& t : in)
    shapes.push_back(t.shape);
  const Shape s = BroadcastShape(n_, shapes);
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
}

}  // namespace af::frontend::eval_detail
