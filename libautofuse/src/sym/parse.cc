// Parser for AutoFuse / SymEngine strings and Inductor / sympy index expressions.
//
// Grammar (Python precedence; whitespace anywhere between tokens):
//   sum     := product (('+' | '-') product)*
//   product := unary (('*' | '/' | '//' | '%') unary)*
//   unary   := ('-' | '+') unary | power
//   power   := primary ('**' unary)?            exponent: an integer constant
//   primary := integer | identifier | identifier '(' [sum (',' sum)*] ')' | '(' sum ')'
// "/" is exact division, "//" FloorDiv, "%" Mod. Functions: Ceiling / ceiling, Floor / floor,
// Rational, Min / Max (n-ary), Mod, PythonMod, Align, FloorDiv, CleanDiv (a FloorDiv known to be
// exact, read as FloorDiv), CeilDiv, ModularIndexing(x, d, m) = Mod(FloorDiv(x, d), m), Pow,
// TruncToInt and Identity (of an integral expression: the expression itself).
// Ceiling(p / q) and Floor(p / q) become CeilDiv(p, q) / FloorDiv(p, q); of another non-integral
// expression they apply to its fraction form N / D; of an integral expression they vanish.
//
// A '-' directly before an integer literal makes a negative literal (so INT64_MIN is readable),
// except before '**' where Python precedence applies (-2**2 == -4). Nesting is capped at
// kMaxDepth; long flat sums and products are built in one canonicalisation (no quadratic cost).
// Errors from building the expression (division by zero, overflow) become ParseErrors at the
// operator or function that caused them.
#include <cstdio>
#include <functional>

#include "node.h"

namespace af::sym {
namespace {

using detail::Scaled;

constexpr int kMaxDepth = 256;

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}
bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsIdentChar(char c) {
  return IsIdentStart(c) || IsDigit(c);
}

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Expr Run() {
    SkipWs();
    if (AtEnd()) Fail("expected an expression but found end of input", pos_);
    PExpr e = ParseSum();
    SkipWs();
    if (!AtEnd()) Fail("expected an operator or end of input but found " + Describe(pos_), pos_);
    return e.e;
  }

 private:
  // A parsed expression; `quot` remembers numerator and denominator when the expression was
  // written as p / q at its top level (parentheses are transparent), for Ceiling / Floor.
  struct PExpr {
    Expr e;
    std::optional<std::pair<Expr, Expr>> quot;
  };

  struct DepthGuard {
    explicit DepthGuard(Parser& p) : parser(p) {
      if (++parser.depth_ > kMaxDepth) {
        parser.Fail(
            "expression nested too deeply (more than " + std::to_string(kMaxDepth) + " levels)",
            parser.pos_);
      }
    }
    ~DepthGuard() { --parser.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    Parser& parser;
  };

  [[noreturn]] void Fail(const std::string& msg, std::size_t pos) const {
    throw ParseError("parse error at offset " + std::to_string(pos) + ": " + msg, pos);
  }

  // Runs a constructor, turning its Error into a ParseError at `pos`.
  Expr Build(std::size_t pos, const std::function<Expr()>& fn) const {
    try {
      return fn();
    } catch (const ParseError&) {
      throw;
    } catch (const Error& e) {
      Fail(e.what(), pos);
    }
  }

  bool AtEnd() const { return pos_ >= s_.size(); }
  char Peek(std::size_t ahead = 0) const {
    return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0';
  }
  void SkipWs() {
    while (!AtEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' ||
                        s_[pos_] == '\r' || s_[pos_] == '\f' || s_[pos_] == '\v')) {
      ++pos_;
    }
  }

  std::string Describe(std::size_t pos) const {
    if (pos >= s_.size()) return "end of input";
    char c = s_[pos];
    if (IsIdentStart(c)) {
      std::size_t end = pos;
      while (end < s_.size() && IsIdentChar(s_[end]) && end - pos < 32)
        ++end;
      return "identifier '" + std::string(s_.substr(pos, end - pos)) + "'";
    }
    if (IsDigit(c)) return "number";
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
    char buf[16];
    std::snprintf(buf, sizeof(buf), "byte 0x%02x", u);
    return buf;
  }

  PExpr ParseSum() {
    PExpr first = ParseProduct();
    SkipWs();
    if (Peek() != '+' && Peek() != '-') return first;
    std::size_t op_pos = pos_;
    std::vector<Scaled> terms{{first.e, Rational{1, 1}}};
    while (true) {
      SkipWs();
      char c = Peek();
      if (c != '+' && c != '-') break;
      ++pos_;
      PExpr t = ParseProduct();
      terms.push_back({t.e, Rational{c == '-' ? -1 : 1, 1}});
    }
    return {Build(op_pos, [&] { return detail::SumOf(terms); }), std::nullopt};
  }

  PExpr ParseProduct() {
    PExpr first = ParseUnary();
    std::vector<Expr> factors{first.e};
    bool any_op = false;
    std::size_t first_op = 0;
    bool last_div = false;
    std::size_t before_last = 0;
    Expr last_den;
    auto flush = [&](std::size_t pos) {
      Expr p = factors.size() == 1 ? factors[0] : Build(pos, [&] { return detail::MulN(factors); });
      factors.assign(1, p);
      return p;
    };
    while (true) {
      SkipWs();
      char c = Peek();
      std::size_t op = pos_;
      if (c == '*' && Peek(1) != '*') {
        ++pos_;
        factors.push_back(ParseUnary().e);
        last_div = false;
      } else if (c == '/' && Peek(1) == '/') {
        pos_ += 2;
        Expr lhs = flush(op);
        Expr rhs = ParseUnary().e;
        factors.assign(1, Build(op, [&] { return FloorDiv(lhs, rhs); }));
        last_div = false;
      } else if (c == '/') {
        ++pos_;
        Expr rhs = ParseUnary().e;
        if (detail::IsZero(rhs)) Fail("division by zero", op);
        before_last = factors.size();
        last_den = rhs;
        factors.push_back(Build(op, [&] { return Pow(rhs, -1); }));
        last_div = true;
      } else if (c == '%') {
        ++pos_;
        Expr lhs = flush(op);
        Expr rhs = ParseUnary().e;
        factors.assign(1, Build(op, [&] { return Mod(lhs, rhs); }));
        last_div = false;
      } else {
        break;
      }
      if (!any_op) first_op = op;
      any_op = true;
    }
    if (!any_op) return first;
    std::optional<std::pair<Expr, Expr>> quot;
    if (last_div) {
      std::vector<Expr> num(factors.begin(),
                            factors.begin() + static_cast<std::ptrdiff_t>(before_last));
      Expr n = num.size() == 1 ? num[0] : Build(first_op, [&] { return detail::MulN(num); });
      quot.emplace(n, last_den);
    }
    return {flush(first_op), quot};
  }

  PExpr ParseUnary() {
    DepthGuard guard(*this);
    SkipWs();
    char c = Peek();
    if (c == '+') {
      ++pos_;
      return ParseUnary();
    }
    if (c != '-') return ParsePower();
    std::size_t op = pos_;
    ++pos_;
    SkipWs();
    if (IsDigit(Peek())) {
      std::size_t save = pos_;
      detail::UInt128 mag = ReadMagnitude();
      SkipWs();
      bool power_follows = Peek() == '*' && Peek(1) == '*';
      if (!power_follows) {
        if (mag > static_cast<detail::UInt128>(detail::kI64Max) + 1) {
          Fail("integer literal out of int64 range", save);
        }
        return {Expr(static_cast<std::int64_t>(-static_cast<detail::Int128>(mag))), std::nullopt};
      }
      pos_ = save;
    }
    PExpr x = ParseUnary();
    return {Build(op, [&] { return -x.e; }), std::nullopt};
  }

  PExpr ParsePower() {
    PExpr base = ParsePrimary();
    SkipWs();
    if (Peek() != '*' || Peek(1) != '*') return base;
    std::size_t op = pos_;
    pos_ += 2;
    SkipWs();
    std::size_t exp_pos = pos_;
    Expr ex = ParseUnary().e;
    auto n = ex.AsInt();
    if (!n) {
      Fail("expected an integer constant exponent but found '" + detail::Brief(ex) + "'", exp_pos);
    }
    return {Build(op, [&] { return Pow(base.e, *n); }), std::nullopt};
  }

  // Reads decimal digits at pos_; saturates just above 2^63 so long inputs stay linear.
  detail::UInt128 ReadMagnitude() {
    constexpr detail::UInt128 kCap = static_cast<detail::UInt128>(detail::kI64Max) + 2;
    detail::UInt128 v = 0;
    while (IsDigit(Peek())) {
      v = v * 10 + static_cast<detail::UInt128>(Peek() - '0');
      if (v > kCap) v = kCap;
      ++pos_;
    }
    if (Peek() == '.' && IsDigit(Peek(1))) Fail("floating-point literals are not supported", pos_);
    return v;
  }

  PExpr ParsePrimary() {
    SkipWs();
    std::size_t start = pos_;
    char c = Peek();
    if (AtEnd()) Fail("expected an expression but found end of input", pos_);
    if (IsDigit(c)) {
      detail::UInt128 mag = ReadMagnitude();
      if (mag > static_cast<detail::UInt128>(detail::kI64Max)) {
        Fail("integer literal out of int64 range", start);
      }
      return {Expr(static_cast<std::int64_t>(mag)), std::nullopt};
    }
    if (IsIdentStart(c)) {
      while (IsIdentChar(Peek()))
        ++pos_;
      std::string name(s_.substr(start, pos_ - start));
      SkipWs();
      if (Peek() == '(') return ParseCall(name, start);
      return {Expr::Sym(name), std::nullopt};
    }
    if (c == '(') {
      ++pos_;
      PExpr inner = ParseSum();
      SkipWs();
      if (Peek() != ')') {
        Fail("expected ')' to close '(' at offset " + std::to_string(start) + " but found " +
                 Describe(pos_),
             pos_);
      }
      ++pos_;
      return inner;
    }
    Fail("expected an expression but found " + Describe(pos_), pos_);
  }

  PExpr ParseCall(const std::string& name, std::size_t name_pos) {
    ++pos_;  // '('
    std::vector<PExpr> args;
    std::vector<std::size_t> arg_pos;
    SkipWs();
    if (Peek() == ')') {
      ++pos_;
    } else {
      while (true) {
        SkipWs();
        arg_pos.push_back(pos_);
        args.push_back(ParseSum());
        SkipWs();
        if (Peek() == ',') {
          ++pos_;
          continue;
        }
        if (Peek() == ')') {
          ++pos_;
          break;
        }
        Fail("expected ',' or ')' in the arguments of " + name + " but found " + Describe(pos_),
             pos_);
      }
    }
    auto arity = [&](std::size_t lo, std::size_t hi) {
      if (args.size() < lo || args.size() > hi) {
        std::string want = lo == hi ? std::to_string(lo) : "at least " + std::to_string(lo);
        Fail(name + " expects " + want + " argument" + (lo == 1 && hi == 1 ? "" : "s") +
                 " but found " + std::to_string(args.size()),
             name_pos);
      }
    };
    auto int_arg = [&](std::size_t i, const char* what) {
      auto v = args[i].e.AsInt();
      if (!v) {
        Fail(name + " expects an integer constant " + what + " but found '" +
                 detail::Brief(args[i].e) + "'",
             arg_pos[i]);
      }
      return *v;
    };
    constexpr auto kMany = static_cast<std::size_t>(-1);
    auto binary = [&](Expr (*fn)(const Expr&, const Expr&)) {
      arity(2, 2);
      return PExpr{Build(name_pos, [&] { return fn(args[0].e, args[1].e); }), std::nullopt};
    };
    if (name == "Ceiling" || name == "ceiling" || name == "Floor" || name == "floor") {
      arity(1, 1);
      return {Round(name[0] == 'C' || name[0] == 'c', args[0], name_pos), std::nullopt};
    }
    if (name == "Rational") {
      arity(2, 2);
      std::int64_t p = int_arg(0, "numerator");
      std::int64_t q = int_arg(1, "denominator");
      if (q == 0) Fail("Rational with a zero denominator", arg_pos[1]);
      return {Build(name_pos, [&] { return Expr::Rat(p, q); }), std::nullopt};
    }
    if (name == "Min" || name == "Max" || name == "min" || name == "max") {
      arity(1, kMany);
      std::vector<Expr> es;
      es.reserve(args.size());
      for (const PExpr& a : args) {
        es.push_back(a.e);
      }
      Kind k = name[1] == 'i' ? Kind::kMin : Kind::kMax;
      return {Build(name_pos, [&] { return detail::MinMaxN(k, es); }), std::nullopt};
    }
    if (name == "Mod" || name == "PythonMod") return binary(&Mod);
    if (name == "Align") return binary(&Align);
    if (name == "FloorDiv" || name == "CleanDiv") return binary(&FloorDiv);
    if (name == "CeilDiv") return binary(&CeilDiv);
    if (name == "ModularIndexing") {
      arity(3, 3);
      return {Build(name_pos, [&] { return Mod(FloorDiv(args[0].e, args[1].e), args[2].e); }),
              std::nullopt};
    }
    if (name == "Pow") {
      arity(2, 2);
      std::int64_t n = int_arg(1, "exponent");
      return {Build(name_pos, [&] { return Pow(args[0].e, n); }), std::nullopt};
    }
    if (name == "Identity") {
      arity(1, 1);
      return args[0];
    }
    if (name == "TruncToInt") {
      arity(1, 1);
      if (!detail::IsIntegral(args[0].e)) {
        Fail("TruncToInt of a non-integer expression is not supported", name_pos);
      }
      return {args[0].e, std::nullopt};
    }
    Fail("unknown function '" + name + "'", name_pos);
  }

  Expr Round(bool ceil, const PExpr& arg, std::size_t pos) {
    return Build(pos, [&]() -> Expr {
      if (arg.quot && detail::IsIntegral(arg.quot->first) && detail::IsIntegral(arg.quot->second)) {
        return ceil ? CeilDiv(arg.quot->first, arg.quot->second)
                    : FloorDiv(arg.quot->first, arg.quot->second);
      }
      auto frac = detail::AsFraction(arg.e);
      if (!frac) {
        Fail(std::string(ceil ? "Ceiling" : "Floor") + " of '" + detail::Brief(arg.e) +
                 "', which is neither integral nor a quotient of integral expressions",
             pos);
      }
      if (detail::IsOne(frac->second)) return frac->first;
      return ceil ? CeilDiv(frac->first, frac->second) : FloorDiv(frac->first, frac->second);
    });
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

Expr Parse(std::string_view text) {
  return Parser(text).Run();
}

}  // namespace af::sym
