// Evaluation under bindings: exact rationals with checked int64 numerators and denominators.
//
// Integer operands take the fast path (__builtin_*_overflow, no gcd). Overflow, division by
// zero and unbound symbols throw Error naming the operation or symbol; Eval additionally requires
// an integer result.
#include "node.h"

namespace af::sym {
namespace detail {
namespace {

class Evaluator {
 public:
  explicit Evaluator(const Bindings& b) : bindings_(b) {}

  Rational Eval(const Expr& e) {
    switch (e.kind()) {
      case Kind::kConst:
        return e.value();
      case Kind::kSymbol: {
        auto it = bindings_.find(e.name());
        if (it == bindings_.end()) throw Error("unbound symbol '" + e.name() + "'");
        return RInt(it->second);
      }
      case Kind::kAdd: {
        Rational acc = Eval(e.args()[0]);
        for (std::size_t i = 1; i < e.args().size(); ++i) {
          acc = Check(RAdd(acc, Eval(e.args()[i])), "'+'", e);
        }
        return acc;
      }
      case Kind::kMul: {
        Rational acc = Eval(e.args()[0]);
        for (std::size_t i = 1; i < e.args().size(); ++i) {
          acc = Check(RMul(acc, Eval(e.args()[i])), "'*'", e);
        }
        return acc;
      }
      case Kind::kPow: {
        Rational base = Eval(e.args()[0]);
        std::int64_t n = e.args()[1].value().num;
        if (base.num == 0 && n < 0) throw DivZero("Pow", e);
        return Check(RPow(base, n), "Pow", e);
      }
      case Kind::kFloorDiv:
      case Kind::kCeilDiv: {
        const char* op = e.kind() == Kind::kFloorDiv ? "FloorDiv" : "CeilDiv";
        Rational a = Eval(e.args()[0]);
        Rational b = Eval(e.args()[1]);
        if (b.num == 0) throw DivZero(op, e);
        if (a.den == 1 && b.den == 1) return RInt(IntDiv(a.num, b.num, e.kind(), op, e));
        Rational q = Check(RDiv(a, b), op, e);
        return e.kind() == Kind::kFloorDiv ? RFloor(q) : RCeil(q);
      }
      case Kind::kMod: {
        Rational a = Eval(e.args()[0]);
        Rational b = Eval(e.args()[1]);
        if (b.num == 0) throw DivZero("Mod", e);
        if (a.den == 1 && b.den == 1) {
          if (b.num == -1) return Rational{};
          std::int64_t r = a.num % b.num;
          if (r != 0 && ((r < 0) != (b.num < 0))) r += b.num;
          return RInt(r);
        }
        Rational q = RFloor(Check(RDiv(a, b), "Mod", e));
        return Check(RSub(a, Check(RMul(b, q), "Mod", e)), "Mod", e);
      }
      case Kind::kMin:
      case Kind::kMax: {
        bool is_max = e.kind() == Kind::kMax;
        Rational best = Eval(e.args()[0]);
        for (std::size_t i = 1; i < e.args().size(); ++i) {
          Rational v = Eval(e.args()[i]);
          if ((RCmp(v, best) > 0) == is_max && RCmp(v, best) != 0) best = v;
        }
        return best;
      }
      case Kind::kAlign: {
        Rational a = Eval(e.args()[0]);
        Rational b = Eval(e.args()[1]);
        if (b.num == 0) throw DivZero("Align", e);
        Rational q;
        if (a.den == 1 && b.den == 1) {
          q = RInt(IntDiv(a.num, b.num, Kind::kCeilDiv, "Align", e));
        } else {
          q = RCeil(Check(RDiv(a, b), "Align", e));
        }
        return Check(RMul(q, b), "Align", e);
      }
    }
    throw Error("corrupt expression node");
  }

 private:
  static Rational Check(std::optional<Rational> r, const char* op, const Expr& e) {
    if (!r) throw Error(std::string("integer overflow in ") + op + " evaluating " + Brief(e));
    return *r;
  }

  static Error DivZero(const char* op, const Expr& e) {
    return Error(std::string("division by zero in ") + op + " evaluating " + Brief(e));
  }

  // Floor or ceiling of a / b for int64 operands, b != 0.
  static std::int64_t IntDiv(std::int64_t a, std::int64_t b, Kind kind, const char* op,
                             const Expr& e) {
    if (a == kI64Min && b == -1) {
      throw Error(std::string("integer overflow in ") + op + " evaluating " + Brief(e));
    }
    std::int64_t q = a / b;
    std::int64_t r = a % b;
    if (r != 0) {
      bool negative = (r < 0) != (b < 0);
      if (kind == Kind::kFloorDiv && negative) --q;
      if (kind == Kind::kCeilDiv && !negative) ++q;
    }
    return q;
  }

  const Bindings& bindings_;
};

}  // namespace
}  // namespace detail

Rational Expr::EvalRational(const Bindings& b) const {
  return detail::Evaluator(b).Eval(*this);
}

std::int64_t Expr::Eval(const Bindings& b) const {
  Rational r = detail::Evaluator(b).Eval(*this);
  if (!r.IsInteger()) {
    throw Error("non-integer result " + detail::RToString(r) + " evaluating " +
                detail::Brief(*this));
  }
  return r.num;
}

}  // namespace af::sym
