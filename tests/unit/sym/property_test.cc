// Property tests over thousands of random expressions from a seeded generator.
//
// Each random expression is built twice: as a plain, unsimplified tree local to this test and,
// op by op, through the canonicalising constructors. For random bindings the tree is evaluated
// directly with exact rationals and Python floor semantics (an implementation independent of the
// library) and must agree with the canonical form. Bindings where the tree divides by zero are
// discarded (counted, and enough samples must remain). Every canonical form must also survive a
// print -> parse round trip unchanged and give a non-empty, balanced ToCpp, and the provers must
// never contradict a sampled binding.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <random>

#include "autofuse/sym/expr.h"

namespace af::sym {
namespace {

__extension__ typedef __int128 I128;

// An exact rational for the reference evaluator. Division by zero and values beyond kLimit
// throw (and the sample is discarded).
struct Q {
  I128 n = 0;
  I128 d = 1;
};

constexpr I128 kLimit = static_cast<I128>(1) << 60;  // beyond this a sample is discarded

struct Overflow {};
struct DivByZero {};

I128 Abs(I128 v) {
  return v < 0 ? -v : v;
}

I128 Gcd(I128 a, I128 b) {
  a = Abs(a);
  b = Abs(b);
  while (b != 0) {
    I128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

Q Norm(I128 n, I128 d) {
  if (d == 0) throw DivByZero{};
  if (d < 0) {
    n = -n;
    d = -d;
  }
  I128 g = Gcd(n, d);
  if (g > 1) {
    n /= g;
    d /= g;
  }
  if (Abs(n) > kLimit || d > kLimit) throw Overflow{};
  return {n, d};
}

Q Add(Q a, Q b) {
  return Norm(a.n * b.d + b.n * a.d, a.d * b.d);
}
Q Sub(Q a, Q b) {
  return Norm(a.n * b.d - b.n * a.d, a.d * b.d);
}
Q Mul(Q a, Q b) {
  return Norm(a.n * b.n, a.d * b.d);
}
Q Divide(Q a, Q b) {
  return Norm(a.n * b.d, a.d * b.n);
}
bool Less(Q a, Q b) {
  return a.n * b.d < b.n * a.d;
}

// Python-style floor of a rational.
Q Floor(Q a) {
  I128 q = a.n / a.d;
  if (a.n % a.d != 0 && a.n < 0) --q;
  return {q, 1};
}
Q Ceil(Q a) {
  Q f = Floor(a);
  return f.n * a.d == a.n ? f : Q{f.n + 1, 1};
}

enum class Op {
  kConst,
  kSym,
  kAdd,
  kSub,
  kMul,
  kNeg,
  kDiv,
  kFloorDiv,
  kCeilDiv,
  kMod,
  kMin,
  kMax,
  kAlign,
  kPow
};

struct Tree {
  Op op = Op::kConst;
  std::int64_t value = 0;  // constant, symbol index or exponent
  std::vector<Tree> kids;
};

const char* const kNames[] = {"s0", "s1", "s2", "s3"};

Q Naive(const Tree& t, const std::vector<std::int64_t>& env) {
  switch (t.op) {
    case Op::kConst:
      return {t.value, 1};
    case Op::kSym:
      return {env[static_cast<std::size_t>(t.value)], 1};
    case Op::kNeg:
      return Sub({0, 1}, Naive(t.kids[0], env));
    case Op::kPow: {
      Q base = Naive(t.kids[0], env);
      Q r{1, 1};
      for (std::int64_t i = 0; i < t.value; ++i)
        r = Mul(r, base);
      return r;
    }
    default:
      break;
  }
  Q a = Naive(t.kids[0], env);
  Q b = Naive(t.kids[1], env);
  switch (t.op) {
    case Op::kAdd:
      return Add(a, b);
    case Op::kSub:
      return Sub(a, b);
    case Op::kMul:
      return Mul(a, b);
    case Op::kDiv:
      return Divide(a, b);
    case Op::kFloorDiv:
      return Floor(Divide(a, b));
    case Op::kCeilDiv:
      return Ceil(Divide(a, b));
    case Op::kMod:
      return Sub(a, Mul(b, Floor(Divide(a, b))));
    case Op::kMin:
      return Less(b, a) ? b : a;
    case Op::kMax:
      return Less(a, b) ? b : a;
    case Op::kAlign:
      return Mul(Ceil(Divide(a, b)), b);
    default:
      break;
  }
  throw std::logic_error("bad op");
}

// The same tree through the canonicalising constructors.
Expr Build(const Tree& t) {
  switch (t.op) {
    case Op::kConst:
      return Expr(t.value);
    case Op::kSym:
      return Expr::Sym(kNames[t.value]);
    case Op::kNeg:
      return -Build(t.kids[0]);
    case Op::kPow:
      return Pow(Build(t.kids[0]), t.value);
    default:
      break;
  }
  Expr a = Build(t.kids[0]);
  Expr b = Build(t.kids[1]);
  switch (t.op) {
    case Op::kAdd:
      return a + b;
    case Op::kSub:
      return a - b;
    case Op::kMul:
      return a * b;
    case Op::kDiv:
      return Div(a, b);
    case Op::kFloorDiv:
      return FloorDiv(a, b);
    case Op::kCeilDiv:
      return CeilDiv(a, b);
    case Op::kMod:
      return Mod(a, b);
    case Op::kMin:
      return Min(a, b);
    case Op::kMax:
      return Max(a, b);
    case Op::kAlign:
      return Align(a, b);
    default:
      break;
  }
  throw std::logic_error("bad op");
}

class Generator {
 public:
  explicit Generator(std::uint32_t seed, int symbols) : rng_(seed), symbols_(symbols) {}

  Tree Make(int depth) {
    int leaf_pct = depth <= 0 ? 100 : 25;
    if (Pick(100) < leaf_pct) {
      Tree t;
      if (Pick(2) == 0) {
        t.op = Op::kConst;
        t.value = Pick(11) - 4;  // -4 .. 6
      } else {
        t.op = Op::kSym;
        t.value = Pick(symbols_);
      }
      return t;
    }
    Tree t;
    t.op = static_cast<Op>(2 + Pick(12));
    if (t.op == Op::kNeg) {
      t.kids.push_back(Make(depth - 1));
    } else if (t.op == Op::kPow) {
      t.value = Pick(4);  // 0 .. 3
      t.kids.push_back(Make(depth - 2));
    } else {
      t.kids.push_back(Make(depth - 1));
      t.kids.push_back(Make(depth - 1));
      bool divisor = t.op == Op::kDiv || t.op == Op::kFloorDiv || t.op == Op::kCeilDiv ||
                     t.op == Op::kMod || t.op == Op::kAlign;
      // Divisors are usually small constants (the common case), sometimes symbolic.
      if (divisor && Pick(3) != 0) {
        t.kids[1] = Tree{Op::kConst, Pick(9) - 3, {}};
      }
    }
    return t;
  }

  std::int64_t Pick(std::int64_t n) {
    return std::uniform_int_distribution<std::int64_t>(0, n - 1)(rng_);
  }

 private:
  std::mt19937 rng_;
  int symbols_;
};

bool Balanced(const std::string& s) {
  int depth = 0;
  for (char c : s) {
    if (c == '(') ++depth;
    if (c == ')' && --depth < 0) return false;
  }
  return depth == 0;
}

struct Stats {
  int exprs = 0;
  int rejected_constructions = 0;  // constructor threw division by zero (constant divisor 0)
  int checked = 0;
  int discarded = 0;
};

constexpr int kExpressions = 6000;
constexpr int kBindingsPerExpr = 8;

TEST(SymProperty, CanonicalFormMatchesNaiveEvaluationAndRoundTrips) {
  Generator gen(20240611, 4);
  Stats st;
  std::mt19937 rng(99);
  while (st.exprs < kExpressions) {
    Tree t = gen.Make(4);
    Expr e;
    try {
      e = Build(t);
    } catch (const Error& err) {
      // Only a constant zero divisor may be rejected at construction.
      ASSERT_NE(std::string(err.what()).find("division by zero"), std::string::npos) << err.what();
      ++st.rejected_constructions;
      continue;
    }
    ++st.exprs;
    std::string text = e.ToString();
    // (b) print -> parse round trip.
    Expr back;
    ASSERT_NO_THROW(back = Parse(text)) << text;
    ASSERT_EQ(back, e) << text << " reparsed as " << back.ToString();
    // (c) ToCpp is non-empty and balanced.
    std::string cpp = e.ToCpp();
    EXPECT_FALSE(cpp.empty());
    EXPECT_TRUE(Balanced(cpp)) << cpp;
    // (a) agreement with the naive evaluation.
    for (int k = 0; k < kBindingsPerExpr; ++k) {
      std::vector<std::int64_t> env(4);
      Bindings b;
      for (std::size_t i = 0; i < env.size(); ++i) {
        int range = k < 4 ? 6 : 40;
        env[i] = std::uniform_int_distribution<std::int64_t>(0, range)(rng);
        b[kNames[i]] = env[i];
      }
      Q want;
      try {
        want = Naive(t, env);
      } catch (const DivByZero&) {
        ++st.discarded;
        continue;
      } catch (const Overflow&) {
        ++st.discarded;
        continue;
      }
      Rational got;
      ASSERT_NO_THROW(got = e.EvalRational(b)) << text;
      ASSERT_EQ(static_cast<I128>(got.num) * want.d, want.n * static_cast<I128>(got.den))
          << "canonical " << text << " = " << got.num << "/" << got.den << ", naive "
          << static_cast<std::int64_t>(want.n) << "/" << static_cast<std::int64_t>(want.d);
      if (want.d == 1) {
        ASSERT_EQ(e.Eval(b), static_cast<std::int64_t>(want.n)) << text;
      } else {
        ASSERT_THROW(e.Eval(b), Error) << text;
      }
      ++st.checked;
    }
  }
  RecordProperty("checked", st.checked);
  EXPECT_EQ(st.exprs, kExpressions);
  EXPECT_GE(st.checked, kExpressions * kBindingsPerExpr / 2)
      << "discarded " << st.discarded << ", rejected " << st.rejected_constructions;
}

TEST(SymProperty, SubsAgreesWithEvaluation) {
  Generator gen(7, 3);
  int checked = 0;
  for (int n = 0; n < 2000; ++n) {
    Expr e;
    Expr r;
    try {
      e = Build(gen.Make(3));
      r = Build(gen.Make(2));
    } catch (const Error&) {
      continue;
    }
    Bindings b{{"s0", gen.Pick(7)}, {"s1", gen.Pick(7)}, {"s2", gen.Pick(7)}};
    // e[s0 := r] under b equals e under b with s0 bound to r's value.
    Rational rv;
    try {
      rv = r.EvalRational(b);
    } catch (const Error&) {
      continue;
    }
    if (!rv.IsInteger() || rv.num < 0) continue;
    Bindings b2 = b;
    b2["s0"] = rv.num;
    Rational want;
    try {
      want = e.EvalRational(b2);
    } catch (const Error&) {
      continue;  // undefined (division by zero) at this point
    }
    Expr s;
    try {
      s = e.Subs({{"s0", r}});
    } catch (const Error&) {
      continue;  // the substitution produced a constant zero divisor
    }
    Rational got;
    ASSERT_NO_THROW(got = s.EvalRational(b)) << e.ToString() << " [s0 := " << r.ToString() << "]";
    ASSERT_EQ(got, want) << e.ToString() << " [s0 := " << r.ToString() << "] = " << s.ToString();
    ++checked;
  }
  EXPECT_GE(checked, 1000);
}

TEST(SymProperty, ProversNeverContradictSamples) {
  Generator gen(4242, 3);
  std::mt19937 rng(17);
  int decided = 0;
  int checked = 0;
  for (int n = 0; n < 3000; ++n) {
    Expr a;
    Expr b;
    try {
      a = Build(gen.Make(3));
      // Half of the pairs are related (b = a + small perturbation) so provers often decide.
      b = gen.Pick(2) == 0 ? Build(gen.Make(3)) : a + Build(gen.Make(1));
    } catch (const Error&) {
      continue;
    }
    Tri le = ProveLe(a, b);
    Tri eq = ProveEq(a, b);
    if (le != Tri::kUnknown || eq != Tri::kUnknown) ++decided;
    EXPECT_EQ(ProveGe(b, a), le);
    for (int k = 0; k < 12; ++k) {
      Bindings bind;
      for (const char* name : {"s0", "s1", "s2"}) {
        bind[name] = std::uniform_int_distribution<std::int64_t>(0, k < 6 ? 4 : 50)(rng);
      }
      Rational va;
      Rational vb;
      try {
        va = a.EvalRational(bind);
        vb = b.EvalRational(bind);
      } catch (const Error&) {
        continue;
      }
      ++checked;
      bool holds_le = static_cast<I128>(va.num) * vb.den <= static_cast<I128>(vb.num) * va.den;
      bool holds_eq = va == vb;
      if (le == Tri::kTrue) {
        ASSERT_TRUE(holds_le) << a.ToString() << " <= " << b.ToString();
      }
      if (le == Tri::kFalse) {
        ASSERT_FALSE(holds_le) << a.ToString() << " <= " << b.ToString();
      }
      if (eq == Tri::kTrue) {
        ASSERT_TRUE(holds_eq) << a.ToString() << " == " << b.ToString();
      }
      if (eq == Tri::kFalse) {
        ASSERT_FALSE(holds_eq) << a.ToString() << " == " << b.ToString();
      }
    }
  }
  EXPECT_GE(decided, 300);
  EXPECT_GE(checked, 10000);
}

TEST(SymProperty, GeneratorCoversEveryOp) {
  Generator gen(20240611, 4);
  std::vector<int> seen(14, 0);
  std::function<void(const Tree&)> walk = [&](const Tree& t) {
    ++seen[static_cast<std::size_t>(t.op)];
    for (const Tree& k : t.kids)
      walk(k);
  };
  for (int i = 0; i < 500; ++i)
    walk(gen.Make(4));
  for (std::size_t op = 0; op < seen.size(); ++op)
    EXPECT_GT(seen[op], 10) << "op " << op;
}

}  // namespace
}  // namespace af::sym
