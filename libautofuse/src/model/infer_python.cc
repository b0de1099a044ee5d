// Inference rules for Python-level arithmetic on symbolic scalars (FX prints these as
// `sub = arg4_1 - 0`, `mul = sym_size * 6`): integer operations stay symbolic integers with their
// expression; division and float operands give SymFloat; comparisons give SymBool.
#include "infer_ctx.h"

namespace af::model::infer_detail {
namespace {

using sym::Expr;

struct Scalar {
  ValueKind kind = ValueKind::kSymInt;  // kSymInt, kSymFloat or kSymBool
  std::optional<Expr> expr;             // integer value when known
};

Scalar ScalarOf(const Ctx& c, const Arg* a) {
  if (a == nullptr) Fail("missing operand");
  switch (a->kind) {
    case Arg::Kind::kInt:
      return {ValueKind::kSymInt, Expr(a->i)};
    case Arg::Kind::kBool:
      return {ValueKind::kSymBool, std::nullopt};
    case Arg::Kind::kFloat:
      return {ValueKind::kSymFloat, std::nullopt};
    case Arg::Kind::kValue:
      break;
    default:
      Fail("expected a number");
  }
  const ValueType& t = c.TypeOf(*a);
  if (t.kind == ValueKind::kTensor) Fail("Python arithmetic on a tensor");
  return {t.kind, t.expr};
}

ValueType IntResult(std::optional<Expr> e) {
  if (e) return ValueType::SymInt(*e);
  ValueType t;
  t.kind = ValueKind::kSymInt;
  return t;
}

bool IsInt(const Scalar& s) {
  return s.kind == ValueKind::kSymInt || s.kind == ValueKind::kSymBool;
}

enum class BinOp { kAdd, kSub, kMul, kFloorDiv, kMod, kPow, kMax, kMin };

RuleFn Binary(BinOp op) {
  return [op](const Ctx& c) {
    const Scalar a = ScalarOf(c, c.Get(0));
    const Scalar b = ScalarOf(c, c.Get(1));
    if (!IsInt(a) || !IsInt(b)) return std::vector<ValueType>{ValueType::SymFloat()};
    std::optional<Expr> r;
    if (a.expr && b.expr) {
      const Expr& x = *a.expr;
      const Expr& y = *b.expr;
      switch (op) {
        case BinOp::kAdd:
          r = x + y;
          break;
        case BinOp::kSub:
          r = x - y;
          break;
        case BinOp::kMul:
          r = x * y;
          break;
        case BinOp::kFloorDiv:
          if (y == Expr(0)) Fail("division by zero");
          r = sym::FloorDiv(x, y);
          break;
        case BinOp::kMod:
          if (y == Expr(0)) Fail("modulo by zero");
          r = sym::Mod(x, y);
          break;
        case BinOp::kPow: {
          auto k = y.AsInt();
          if (k && *k < 0) return std::vector<ValueType>{ValueType::SymFloat()};
          if (k && *k <= 64) r = sym::Pow(x, *k);
          break;
        }
        case BinOp::kMax:
          r = sym::Max(x, y);
          break;
        case BinOp::kMin:
          r = sym::Min(x, y);
          break;
      }
    }
    return std::vector<ValueType>{IntResult(r)};
  };
}

std::vector<ValueType> TrueDiv(const Ctx& c) {
  (void)ScalarOf(c, c.Get(0));
  (void)ScalarOf(c, c.Get(1));
  return {ValueType::SymFloat()};
}

std::vector<ValueType> Compare(const Ctx& c) {
  for (const auto& a : c.node().args)
    (void)ScalarOf(c, &a);
  return {ValueType::SymBool()};
}

std::vector<ValueType> Neg(const Ctx& c) {
  const Scalar a = ScalarOf(c, c.Get(0));
  if (a.kind == ValueKind::kSymFloat) return {ValueType::SymFloat()};
  return {IntResult(a.expr ? std::optional<Expr>(-*a.expr) : std::nullopt)};
}

std::vector<ValueType> ToFloat(const Ctx& c) {
  (void)ScalarOf(c, c.Get(0));
  return {ValueType::SymFloat()};
}

// int(x), math.floor/ceil/trunc: integers keep their expression, floats lose it.
std::vector<ValueType> ToInt(const Ctx& c) {
  const Scalar a = ScalarOf(c, c.Get(0));
  return {IntResult(IsInt(a) ? a.expr : std::nullopt)};
}

std::vector<ValueType> SymSum(const Ctx& c) {
  const Arg& l = c.Need(0);
  if (!l.IsList()) Fail("sym_sum needs a list");
  std::optional<Expr> total = Expr(0);
  for (const auto& it : l.items) {
    const Scalar s = ScalarOf(c, &it);
    if (!IsInt(s)) return {ValueType::SymFloat()};
    total = (total && s.expr) ? std::optional<Expr>(*total + *s.expr) : std::nullopt;
  }
  return {IntResult(total)};
}

void Add(RuleTable& t, std::initializer_list<std::string_view> names, const RuleFn& fn) {
  for (auto n : names)
    t[std::string(n)] = Rule{fn, false};
}

}  // namespace

void AddPythonRules(RuleTable& t) {
  Add(t, {"operator.add"}, Binary(BinOp::kAdd));
  Add(t, {"operator.sub"}, Binary(BinOp::kSub));
  Add(t, {"operator.mul"}, Binary(BinOp::kMul));
  Add(t, {"operator.floordiv"}, Binary(BinOp::kFloorDiv));
  Add(t, {"operator.mod"}, Binary(BinOp::kMod));
  Add(t, {"operator.pow"}, Binary(BinOp::kPow));
  Add(t, {"torch.sym_max", "builtins.max"}, Binary(BinOp::kMax));
  Add(t, {"torch.sym_min", "builtins.min"}, Binary(BinOp::kMin));
  Add(t, {"operator.truediv"}, TrueDiv);
  Add(t,
      {"operator.eq", "operator.ne", "operator.lt", "operator.le", "operator.gt", "operator.ge",
       "operator.and_", "operator.or_", "operator.not_", "torch.sym_not"},
      Compare);
  Add(t, {"operator.neg"}, Neg);
  Add(t, {"operator.pos"}, [](const Ctx& c) {
    const Scalar a = ScalarOf(c, c.Get(0));
    if (a.kind == ValueKind::kSymFloat) return std::vector<ValueType>{ValueType::SymFloat()};
    if (a.kind == ValueKind::kSymBool) return std::vector<ValueType>{IntResult(std::nullopt)};
    return std::vector<ValueType>{IntResult(a.expr)};
  });
  Add(t, {"torch.sym_float", "math.sqrt", "builtins.float"}, ToFloat);
  Add(t, {"torch.sym_int", "math.floor", "math.ceil", "math.trunc", "builtins.int"}, ToInt);
  Add(t, {"torch.sym_sum"}, SymSum);
}

}  // namespace af::model::infer_detail
