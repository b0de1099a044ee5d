// Argument access for the inference rules.
#include "infer_ctx.h"

#include "autofuse/model/arg_reader.h"
#include "autofuse/model/dtype_code.h"

namespace af::model::infer_detail {

void Fail(std::string reason) {
  throw RuleError{std::move(reason)};
}

const Arg* Ctx::Get(int pos, std::string_view name) const {
  if (pos < 0) return name.empty() ? nullptr : n_.Kwarg(name);
  return ArgAt(n_, static_cast<std::size_t>(pos), name);
}

bool Ctx::Has(int pos, std::string_view name) const {
  const Arg* a = Get(pos, name);
  return a != nullptr && !a->IsNone();
}

const Arg& Ctx::Need(int pos, std::string_view name) const {
  const Arg* a = Get(pos, name);
  if (a == nullptr) {
    Fail("argument " + (name.empty() ? std::to_string(pos) : std::string(name)) + " is missing");
  }
  return *a;
}

const ValueType& Ctx::TypeOf(const Arg& a) const {
  if (!a.IsValue() || a.value < 0 || static_cast<std::size_t>(a.value) >= g_.values.size()) {
    Fail("expected a graph value as argument");
  }
  const ValueType& t = g_.value(a.value).type;
  if (!t.IsKnown()) throw UnknownInput{};
  return t;
}

const ValueType& Ctx::TensorArg(const Arg& a) const {
  const ValueType& t = TypeOf(a);
  if (!t.IsTensor()) Fail("expected a tensor, got " + t.ToString());
  return t;
}

const ValueType& Ctx::Tensor(int pos, std::string_view name) const {
  return TensorArg(Need(pos, name));
}

const ValueType* Ctx::TensorOrNull(const Arg& a) const {
  if (!a.IsValue()) return nullptr;
  const ValueType& t = TypeOf(a);
  return t.IsTensor() ? &t : nullptr;
}

std::int64_t Ctx::Int(int pos, std::string_view name, std::optional<std::int64_t> def) const {
  const Arg* a = Get(pos, name);
  if (a == nullptr || a->IsNone()) {
    if (def) return *def;
    Fail("integer argument " + (name.empty() ? std::to_string(pos) : std::string(name)) +
         " is missing");
  }
  if (auto v = a->AsInt()) return *v;
  if (a->IsValue()) {
    const ValueType& t = TypeOf(*a);
    if (t.kind == ValueKind::kSymInt && t.expr) {
      if (auto v = t.expr->AsInt()) return *v;
    }
  }
  Fail("expected an integer constant");
}

bool Ctx::Bool(int pos, std::string_view name, bool def) const {
  const Arg* a = Get(pos, name);
  if (a == nullptr || a->IsNone()) return def;
  if (a->kind == Arg::Kind::kBool) return a->b;
  if (a->kind == Arg::Kind::kInt) return a->i != 0;
  Fail("expected a bool");
}

sym::Expr Ctx::Size(const Arg& a) const {
  if (auto v = a.AsInt()) return {*v};
  if (a.IsValue()) {
    const ValueType& t = TypeOf(a);
    if (t.kind == ValueKind::kSymInt) {
      if (!t.expr) throw UnknownInput{};
      return *t.expr;
    }
  }
  Fail("expected a size");
}

Shape Ctx::SizeList(const Arg& a) const {
  Shape out;
  if (!a.IsList()) {
    out.push_back(Size(a));
    return out;
  }
  for (const auto& it : a.items)
    out.push_back(Size(it));
  return out;
}

std::vector<std::int64_t> Ctx::IntList(const Arg& a) const {
  std::vector<std::int64_t> out;
  auto one = [&](const Arg& x) {
    const sym::Expr e = Size(x);
    auto v = e.AsInt();
    if (!v) Fail("expected an integer constant, got " + e.ToString());
    out.push_back(*v);
  };
  if (!a.IsList()) {
    one(a);
    return out;
  }
  for (const auto& it : a.items)
    one(it);
  return out;
}

int Ctx::Dim(std::int64_t d, std::size_t rank) const {
  if (rank == 0) Fail("dimension " + std::to_string(d) + " of a 0-dim tensor");
  return DimOrScalar(d, rank);
}

int Ctx::DimOrScalar(std::int64_t d, std::size_t rank) const {
  auto n = NormalizeDim(d, rank);
  if (!n) Fail("dimension " + std::to_string(d) + " out of range for rank " + std::to_string(rank));
  return *n;
}

std::optional<std::vector<int>> Ctx::Dims(const Arg* a, std::size_t rank) const {
  if (a == nullptr || a->IsNone()) return std::nullopt;
  std::vector<int> out;
  for (std::int64_t d : IntList(*a))
    out.push_back(DimOrScalar(d, rank));
  return out;
}

std::optional<ir::DType> Ctx::DTypeArg(int pos, std::string_view name) const {
  const Arg* a = Get(pos, name);
  if (a == nullptr || a->IsNone()) return std::nullopt;
  if (a->kind != Arg::Kind::kDType) Fail("expected a dtype");
  if (a->dtype == ir::DType::kUndefined) Fail("dtype " + a->text + " is not supported");
  return a->dtype;
}

std::string Ctx::DeviceArg(int pos, std::string_view name) const {
  const Arg* a = Get(pos, name);
  if (a == nullptr || a->kind != Arg::Kind::kDevice) return "";
  return a->text;
}

PromotionOperand Ctx::Operand(const Arg& a) const {
  using C = PromotionOperand::Class;
  switch (a.kind) {
    case Arg::Kind::kBool:
      return {C::kScalar, ir::DType::kBool};
    case Arg::Kind::kInt:
      return {C::kScalar, ir::DType::kInt64};
    case Arg::Kind::kFloat:
      return {C::kScalar, ir::DType::kFloat32};
    case Arg::Kind::kValue:
      break;
    default:
      Fail("expected a tensor or a number");
  }
  const ValueType& t = TypeOf(a);
  switch (t.kind) {
    case ValueKind::kTensor:
      if (t.dtype == ir::DType::kUndefined) Fail("dtype " + t.dtype_code + " is not supported");
      return {t.rank() == 0 ? C::kZeroDimTensor : C::kDimTensor, t.dtype};
    case ValueKind::kSymInt:
      return {C::kScalar, ir::DType::kInt64};
    case ValueKind::kSymFloat:
      return {C::kScalar, ir::DType::kFloat32};
    case ValueKind::kSymBool:
      return {C::kScalar, ir::DType::kBool};
    case ValueKind::kUnknown:
      break;
  }
  throw UnknownInput{};
}

ValueType WithShape(const ValueType& like, Shape shape) {
  ValueType t;
  t.kind = ValueKind::kTensor;
  t.dtype = like.dtype;
  t.dtype_code = like.dtype_code;
  t.device = like.device;
  t.shape = std::move(shape);
  return t;
}

ValueType MakeTensor(ir::DType dtype, Shape shape) {
  return ValueType::Tensor(dtype, std::move(shape));
}

ir::DType Promote(const Ctx& c, const std::vector<const Arg*>& operands) {
  std::vector<PromotionOperand> ops;
  for (const Arg* a : operands) {
    if (a != nullptr && !a->IsNone()) ops.push_back(c.Operand(*a));
  }
  auto r = ResultType(ops);
  if (!r) Fail("no common dtype for the operands");
  return *r;
}

Shape BroadcastArgs(const Ctx& c, const std::vector<const Arg*>& operands) {
  Shape out;
  for (const Arg* a : operands) {
    if (a == nullptr) continue;
    const ValueType* t = c.TensorOrNull(*a);
    if (t == nullptr) continue;
    std::string why;
    auto b = BroadcastShapes(out, t->shape, &why);
    if (!b) Fail(why);
    out = std::move(*b);
  }
  return out;
}

ir::DType ToFloating(ir::DType t) {
  return ir::IsFloat(t) ? t : ir::DType::kFloat32;
}

}  // namespace af::model::infer_detail
