// Unit tests for af::sym expressions: construction, every canonical rule, constant folding of
// each op, evaluation and its errors, Subs, FreeSymbols, printing and the provers.
#include "autofuse/sym/expr.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <thread>
#include <unordered_set>

namespace af::sym {
namespace {

using ::testing::HasSubstr;

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();

class SymTest : public ::testing::Test {
 protected:
  Expr s0 = Expr::Sym("s0");
  Expr s1 = Expr::Sym("s1");
  Expr s2 = Expr::Sym("s2");
  Expr s3 = Expr::Sym("s3");
};

// Returns the message of the Error thrown by fn, or "" when nothing was thrown.
template <typename F>
std::string ErrorOf(F fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// ---------------------------------------------------------------------------------------------
// Construction and hash-consing

TEST_F(SymTest, LeavesAndAccessors) {
  EXPECT_EQ(Expr(), Expr(0));
  EXPECT_EQ(Expr(5), Expr::Const(5));
  EXPECT_TRUE(Expr(5).IsConst());
  EXPECT_EQ(Expr(5).AsInt(), 5);
  EXPECT_EQ(Expr(5).value(), (Rational{5, 1}));
  EXPECT_EQ(s0.kind(), Kind::kSymbol);
  EXPECT_TRUE(s0.IsSymbol());
  EXPECT_EQ(s0.name(), "s0");
  EXPECT_TRUE(s0.args().empty());
  EXPECT_EQ(s0.value(), (Rational{0, 1}));
  EXPECT_FALSE(s0.AsInt().has_value());
  EXPECT_EQ(Expr(7).name(), "");
  EXPECT_EQ(Expr::Sym("z0t_size").name(), "z0t_size");
}

TEST_F(SymTest, RationalsAreNormalised) {
  EXPECT_EQ(Expr::Rat(2, 4).value(), (Rational{1, 2}));
  EXPECT_EQ(Expr::Rat(3, -6).value(), (Rational{-1, 2}));
  EXPECT_EQ(Expr::Rat(-4, -2), Expr(2));
  EXPECT_TRUE(Expr::Rat(8, 4).AsInt().has_value());
  EXPECT_FALSE(Expr::Rat(1, 8).AsInt().has_value());
  EXPECT_EQ(Expr::Rat(0, 5), Expr(0));
  EXPECT_THAT(ErrorOf([] { Expr::Rat(1, 0); }), HasSubstr("division by zero"));
  EXPECT_THAT(ErrorOf([] { Expr::Rat(kMin, -1); }), HasSubstr("overflow"));
}

TEST_F(SymTest, InvalidSymbolNamesThrow) {
  EXPECT_NE(ErrorOf([] { Expr::Sym(""); }), "");
  EXPECT_NE(ErrorOf([] { Expr::Sym("1abc"); }), "");
  EXPECT_NE(ErrorOf([] { Expr::Sym("a b"); }), "");
  EXPECT_NE(ErrorOf([] { Expr::Sym("a+b"); }), "");
  EXPECT_EQ(ErrorOf([] { Expr::Sym("_x9"); }), "");
}

TEST_F(SymTest, HashConsingGivesPointerEquality) {
  Expr a = s0 * s1 + Expr(3);
  Expr b = Expr(3) + s1 * s0;
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.node(), b.node());
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_EQ(std::hash<Expr>()(a), a.hash());
  EXPECT_EQ(Expr::Sym("s0").node(), s0.node());
  EXPECT_EQ(Expr(123456789).node(), Expr::Const(123456789).node());
  EXPECT_NE(a, s0 * s1 + Expr(4));
  std::unordered_set<Expr> set{a, b, s0, Expr::Sym("s0")};
  EXPECT_EQ(set.size(), 2U);
}

TEST_F(SymTest, InterningIsThreadSafe) {
  constexpr int kThreads = 8;
  std::vector<const Node*> results(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &results] {
      Expr acc(0);
      for (int i = 0; i < 200; ++i) {
        Expr x = Expr::Sym("thr_" + std::to_string(i % 17));
        acc = acc + FloorDiv(x * Expr(i % 5 + 1), Expr(3)) + Max(x, Expr(i % 7));
      }
      results[static_cast<std::size_t>(t)] = acc.node();
    });
  }
  for (auto& th : threads)
    th.join();
  for (int t = 1; t < kThreads; ++t)
    EXPECT_EQ(results[0], results[static_cast<std::size_t>(t)]);
}

TEST_F(SymTest, OrderIsStructuralAndTotal) {
  EXPECT_TRUE(Expr(3) < s0);
  EXPECT_TRUE(Expr(-1) < Expr(2));
  EXPECT_TRUE(Expr::Rat(1, 3) < Expr::Rat(1, 2));
  EXPECT_TRUE(Expr::Sym("s2") < Expr::Sym("s10"));  // natural order
  EXPECT_TRUE(Expr::Sym("a") < Expr::Sym("b"));
  EXPECT_FALSE(s0 < s0);
  std::vector<Expr> v{s2 + Expr(1), s1, Expr(4), Mod(s0, Expr(3)), s0 * s1, Expr::Sym("s10")};
  std::vector<Expr> w(v.rbegin(), v.rend());
  std::sort(v.begin(), v.end());
  std::sort(w.begin(), w.end());
  EXPECT_EQ(v, w);
  for (std::size_t i = 0; i + 1 < v.size(); ++i) {
    EXPECT_TRUE(v[i] < v[i + 1]);
    EXPECT_FALSE(v[i + 1] < v[i]);
  }
  EXPECT_EQ((Expr::Sym("s10") + Expr::Sym("s2")).ToString(), "s2 + s10");
}

// ---------------------------------------------------------------------------------------------
// Sums

TEST_F(SymTest, AddIdentityAndFolding) {
  EXPECT_EQ(s0 + Expr(0), s0);
  EXPECT_EQ(Expr(0) + s0, s0);
  EXPECT_EQ(Expr(2) + Expr(3), Expr(5));
  EXPECT_EQ(Expr::Rat(1, 2) + Expr::Rat(1, 3), Expr::Rat(5, 6));
  EXPECT_EQ(Expr(2) - Expr(7), Expr(-5));
  EXPECT_EQ(-Expr(4), Expr(-4));
  EXPECT_EQ(s0 - s0, Expr(0));
  EXPECT_EQ(s0 + Expr(2) - Expr(2), s0);
  EXPECT_THAT(ErrorOf([] { return Expr(kMax) + Expr(1); }), HasSubstr("overflow"));
  EXPECT_THAT(ErrorOf([] { return -Expr(kMin); }), HasSubstr("overflow"));
}

TEST_F(SymTest, LikeTermsAreCollected) {
  EXPECT_EQ(Expr(2) * s0 + Expr(3) * s0, Expr(5) * s0);
  EXPECT_EQ(s0 + s0, Expr(2) * s0);
  EXPECT_EQ(Expr(2) * s0 * s1 - s1 * s0, s0 * s1);
  EXPECT_EQ(Expr(3) * s0 + s1 - Expr(3) * s0, s1);
  EXPECT_EQ(Div(s0, Expr(2)) + Div(s0, Expr(2)), s0);
  Expr e = Expr(5) * s0;
  ASSERT_EQ(e.kind(), Kind::kMul);
  EXPECT_EQ(e.args()[0], Expr(5));
  EXPECT_EQ(e.args()[1], s0);
}

TEST_F(SymTest, SumsAreSortedAndFlattened) {
  Expr a = (s0 + s1) + (s2 + Expr(4));
  Expr b = s2 + (Expr(4) + s1) + s0;
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.kind(), Kind::kAdd);
  ASSERT_EQ(a.args().size(), 4U);
  EXPECT_EQ(a.args()[0], Expr(4));  // the constant comes first in args
  EXPECT_EQ(a.args()[1], s0);
  EXPECT_EQ(a.args()[2], s1);
  EXPECT_EQ(a.args()[3], s2);
  EXPECT_EQ(a.ToString(), "s0 + s1 + s2 + 4");  // and is printed last
  EXPECT_EQ((s0 * s1 + Expr(3)).ToString(), "s0 * s1 + 3");
}

// ---------------------------------------------------------------------------------------------
// Products and powers

TEST_F(SymTest, MulIdentityZeroAndFolding) {
  EXPECT_EQ(s0 * Expr(1), s0);
  EXPECT_EQ(Expr(1) * s0, s0);
  EXPECT_EQ(s0 * Expr(0), Expr(0));
  EXPECT_EQ(Expr(0) * (s0 + s1), Expr(0));
  EXPECT_EQ(Expr(6) * Expr(7), Expr(42));
  EXPECT_EQ(Expr::Rat(2, 3) * Expr::Rat(3, 4), Expr::Rat(1, 2));
  EXPECT_EQ(s0 * s1, s1 * s0);
  EXPECT_EQ((s0 * s1) * s2, s0 * (s1 * s2));
  EXPECT_THAT(ErrorOf([] { return Expr(kMax) * Expr(2); }), HasSubstr("overflow"));
}

TEST_F(SymTest, PowersAreCollected) {
  Expr sq = s0 * s0;
  ASSERT_EQ(sq.kind(), Kind::kPow);
  EXPECT_EQ(sq, Pow(s0, 2));
  EXPECT_EQ(sq.args()[0], s0);
  EXPECT_EQ(sq.args()[1], Expr(2));
  EXPECT_EQ(Pow(s0, 2) * s0, Pow(s0, 3));
  EXPECT_EQ(Pow(s0, 2) * Pow(s0, 3) * s1, Pow(s0, 5) * s1);
  EXPECT_EQ(s0 * Div(Expr(1), s0), Expr(1));
  EXPECT_EQ(Div(Pow(s0, 3), s0), Pow(s0, 2));
}

TEST_F(SymTest, ConstantTimesSumDistributes) {
  EXPECT_EQ(Expr(2) * (s0 + Expr(1)), Expr(2) * s0 + Expr(2));
  EXPECT_EQ(-(s0 - s1), s1 - s0);
  EXPECT_EQ(s0 * (s1 + Expr(1)), s0 * s1 + s0);
}

TEST_F(SymTest, SmallProductsOfSumsExpand) {
  Expr e = (s0 + Expr(1)) * (s1 + Expr(2));
  EXPECT_EQ(e, s0 * s1 + Expr(2) * s0 + s1 + Expr(2));
  EXPECT_EQ(Pow(s0 + s1, 2), s0 * s0 + Expr(2) * s0 * s1 + s1 * s1);
  EXPECT_EQ((s0 + s1) * (s0 - s1), s0 * s0 - s1 * s1);
  EXPECT_EQ((s0 + s1) * Div(Expr(1), s0 + s1), Expr(1));
}

TEST_F(SymTest, LargeProductsOfSumsStayFactored) {
  Expr a(0);
  Expr b(0);
  for (int i = 0; i < 10; ++i) {
    a = a + Expr::Sym("a" + std::to_string(i));
    b = b + Expr::Sym("b" + std::to_string(i));
  }
  Expr p = a * b;  // 100 terms > kMaxExpandTerms
  EXPECT_EQ(p.kind(), Kind::kMul);
  EXPECT_EQ(p, b * a);
  EXPECT_EQ(p - a * b, Expr(0));
  EXPECT_EQ(Parse(p.ToString()), p);
  // A huge power of a sum is never expanded.
  Expr big = Pow(s0 + s1, 1000000);
  EXPECT_EQ(big.kind(), Kind::kPow);
  EXPECT_EQ(big.args()[1], Expr(1000000));
  Expr mid = Pow(s0 + Expr(1), 40);  // beyond the exponent limit
  EXPECT_EQ(mid.kind(), Kind::kPow);
}

TEST_F(SymTest, PowFoldingAndRules) {
  EXPECT_EQ(Pow(s0, 0), Expr(1));
  EXPECT_EQ(Pow(s0, 1), s0);
  EXPECT_EQ(Pow(Expr(2), 10), Expr(1024));
  EXPECT_EQ(Pow(Expr(-3), 3), Expr(-27));
  EXPECT_EQ(Pow(Expr::Rat(1, 2), 3), Expr::Rat(1, 8));
  EXPECT_EQ(Pow(Expr(0), 0), Expr(1));
  EXPECT_EQ(Pow(Expr(1), kMax), Expr(1));
  EXPECT_EQ(Pow(Expr(-1), kMax), Expr(-1));
  EXPECT_EQ(Pow(Expr(0), kMax), Expr(0));
  EXPECT_EQ(Pow(Pow(s0, 2), 3), Pow(s0, 6));
  EXPECT_EQ(Pow(Expr(2) * s0, 2), Expr(4) * Pow(s0, 2));
  EXPECT_EQ(Pow(s0 * s1, 2), Pow(s0, 2) * Pow(s1, 2));
  EXPECT_EQ(Pow(s0, 1000000000).kind(), Kind::kPow);
  EXPECT_THAT(ErrorOf([] { return Pow(Expr(2), 64); }), HasSubstr("overflow"));
  EXPECT_THAT(ErrorOf([] { return Pow(Expr(3), kMax); }), HasSubstr("overflow"));
  EXPECT_THAT(ErrorOf([] { return Pow(Expr(0), -1); }), HasSubstr("division by zero"));
}

TEST_F(SymTest, ExactDivision) {
  EXPECT_EQ(Div(Expr(6), Expr(4)), Expr::Rat(3, 2));
  EXPECT_EQ(Div(Expr(6), Expr(3)), Expr(2));
  EXPECT_EQ(Div(s0, Expr(2)), Expr::Rat(1, 2) * s0);
  EXPECT_EQ(Div(Expr(2) * s0, Expr(2)), s0);
  EXPECT_EQ(Div(s0 * s1, s1), s0);
  EXPECT_EQ(Div(s0 * s1 + s1, s1), s0 + Expr(1));
  EXPECT_EQ(Div(s0, s1).ToString(), "s0 / s1");
  EXPECT_THAT(ErrorOf([&] { return Div(s0, Expr(0)); }), HasSubstr("division by zero"));
}

// ---------------------------------------------------------------------------------------------
// FloorDiv / CeilDiv

TEST_F(SymTest, FloorDivConstantFolding) {
  EXPECT_EQ(FloorDiv(Expr(7), Expr(2)), Expr(3));
  EXPECT_EQ(FloorDiv(Expr(-7), Expr(2)), Expr(-4));
  EXPECT_EQ(FloorDiv(Expr(7), Expr(-2)), Expr(-4));
  EXPECT_EQ(FloorDiv(Expr(-7), Expr(-2)), Expr(3));
  EXPECT_EQ(FloorDiv(Expr(8), Expr(2)), Expr(4));
  EXPECT_EQ(FloorDiv(Expr::Rat(7, 2), Expr(1)), Expr(3));
  EXPECT_EQ(FloorDiv(Expr(3), Expr::Rat(1, 2)), Expr(6));
  EXPECT_THAT(ErrorOf([] { return FloorDiv(Expr(1), Expr(0)); }), HasSubstr("division by zero"));
  EXPECT_THAT(ErrorOf([&] { return FloorDiv(s0, Expr(0)); }), HasSubstr("FloorDiv"));
  EXPECT_THAT(ErrorOf([] { return FloorDiv(Expr(kMin), Expr(-1)); }), HasSubstr("overflow"));
}

TEST_F(SymTest, FloorDivRules) {
  EXPECT_EQ(FloorDiv(s0, Expr(1)), s0);
  EXPECT_EQ(FloorDiv(s0 * s1, Expr(1)), s0 * s1);
  EXPECT_EQ(FloorDiv(Expr(4) * s0, Expr(4)), s0);
  EXPECT_EQ(FloorDiv(s0 * s1, s1), s0);
  EXPECT_EQ(FloorDiv((s0 + Expr(1)) * s1, s1), s0 + Expr(1));
  EXPECT_EQ(FloorDiv(Expr(0), s1), Expr(0));
  EXPECT_EQ(FloorDiv(s0 + s1, s0 + s1), Expr(1));
  EXPECT_EQ(FloorDiv(Expr(4) * s0 + Expr(4), s0 + Expr(1)), Expr(4));
  EXPECT_EQ(FloorDiv(s0 + Expr(8), Expr(4)), FloorDiv(s0, Expr(4)) + Expr(2));
  EXPECT_EQ(FloorDiv(Expr(8) * s1 + s0, Expr(4)), Expr(2) * s1 + FloorDiv(s0, Expr(4)));
  EXPECT_EQ(FloorDiv(Expr(2) * s0, Expr(4)), FloorDiv(s0, Expr(2)));
  EXPECT_EQ(FloorDiv(FloorDiv(s0, Expr(2)), Expr(3)), FloorDiv(s0, Expr(6)));
  EXPECT_EQ(FloorDiv(FloorDiv(s0, s1), s2), FloorDiv(s0, s1 * s2));
  EXPECT_EQ(FloorDiv(Mod(s0, Expr(4)), Expr(4)), Expr(0));
  EXPECT_EQ(FloorDiv(s0, Expr(-2)), FloorDiv(-s0, Expr(2)));
  EXPECT_EQ(FloorDiv(Div(s0, Expr(2)), Expr(3)), FloorDiv(s0, Expr(6)));
  EXPECT_EQ(FloorDiv(Div(s0, Expr(2)), Expr(1)), FloorDiv(s0, Expr(2)));  // not s0/2
  // Nothing to do: the node is kept as written.
  Expr f = FloorDiv(s0 + Expr(5), Expr(4));
  ASSERT_EQ(f.kind(), Kind::kFloorDiv);
  EXPECT_EQ(f.args()[0], s0 + Expr(5));
  EXPECT_EQ(f.args()[1], Expr(4));
  EXPECT_EQ(FloorDiv(s0, s1).kind(), Kind::kFloorDiv);
}

TEST_F(SymTest, CeilDivConstantFolding) {
  EXPECT_EQ(CeilDiv(Expr(7), Expr(2)), Expr(4));
  EXPECT_EQ(CeilDiv(Expr(-7), Expr(2)), Expr(-3));
  EXPECT_EQ(CeilDiv(Expr(7), Expr(-2)), Expr(-3));
  EXPECT_EQ(CeilDiv(Expr(-7), Expr(-2)), Expr(4));
  EXPECT_EQ(CeilDiv(Expr(8), Expr(2)), Expr(4));
  EXPECT_EQ(CeilDiv(Expr::Rat(1, 8), Expr(1)), Expr(1));
  EXPECT_THAT(ErrorOf([] { return CeilDiv(Expr(1), Expr(0)); }), HasSubstr("division by zero"));
}

TEST_F(SymTest, CeilDivRules) {
  EXPECT_EQ(CeilDiv(s0, Expr(1)), s0);
  EXPECT_EQ(CeilDiv(Expr(16) * s0, Expr(16)), s0);
  EXPECT_EQ(CeilDiv(s0 * s1, s1), s0);
  EXPECT_EQ(CeilDiv(s0 * Pow(s1, 2), s1), s0 * s1);
  EXPECT_EQ(CeilDiv(s0 * s1 + s1, s1), s0 + Expr(1));
  EXPECT_EQ(CeilDiv(Expr(0), s0), Expr(0));
  EXPECT_EQ(CeilDiv(s0 + Expr(8), Expr(4)), CeilDiv(s0, Expr(4)) + Expr(2));
  EXPECT_EQ(CeilDiv(Expr(6) * s0 + Expr(3), Expr(9)), CeilDiv(Expr(2) * s0 + Expr(1), Expr(3)));
  EXPECT_EQ(CeilDiv(CeilDiv(s0, Expr(4)), Expr(4)), CeilDiv(s0, Expr(16)));
  EXPECT_EQ(CeilDiv(Mod(s0, Expr(4)), Expr(8)).kind(), Kind::kCeilDiv);  // 0 or 1
  EXPECT_EQ(CeilDiv(s0, Expr(-4)), CeilDiv(-s0, Expr(4)));
  Expr c = CeilDiv(s0, Expr::Sym("z0t_size"));
  ASSERT_EQ(c.kind(), Kind::kCeilDiv);
  EXPECT_EQ(c.ToString(), "CeilDiv(s0, z0t_size)");
}

// ---------------------------------------------------------------------------------------------
// Mod

TEST_F(SymTest, ModConstantFolding) {
  EXPECT_EQ(Mod(Expr(7), Expr(3)), Expr(1));
  EXPECT_EQ(Mod(Expr(-7), Expr(3)), Expr(2));
  EXPECT_EQ(Mod(Expr(7), Expr(-3)), Expr(-2));
  EXPECT_EQ(Mod(Expr(-7), Expr(-3)), Expr(-1));
  EXPECT_EQ(Mod(Expr(6), Expr(3)), Expr(0));
  EXPECT_EQ(Mod(Expr::Rat(7, 2), Expr(2)), Expr::Rat(3, 2));
  EXPECT_EQ(Mod(Expr(kMin), Expr(-1)), Expr(0));
  EXPECT_THAT(ErrorOf([] { return Mod(Expr(1), Expr(0)); }), HasSubstr("division by zero"));
  EXPECT_THAT(ErrorOf([&] { return Mod(s0, Expr(0)); }), HasSubstr("Mod"));
}

TEST_F(SymTest, ModRules) {
  EXPECT_EQ(Mod(s0, Expr(1)), Expr(0));
  EXPECT_EQ(Mod(Expr(4) * s0, Expr(4)), Expr(0));
  EXPECT_EQ(Mod(s0 * s1, s1), Expr(0));
  EXPECT_EQ(Mod(s0 * s1 + Expr(2) * s1, s1), Expr(0));
  EXPECT_EQ(Mod(Expr(0), s1), Expr(0));
  EXPECT_EQ(Mod(s0 + Expr(5), Expr(4)), Mod(s0 + Expr(1), Expr(4)));
  EXPECT_EQ(Mod(s0 - Expr(1), Expr(4)), Mod(s0 + Expr(3), Expr(4)));
  EXPECT_EQ(Mod(Expr(5) * s0 + Expr(8) * s1, Expr(4)), Mod(s0, Expr(4)));
  EXPECT_EQ(Mod(Expr(2) * s0, Expr(4)), Expr(2) * Mod(s0, Expr(2)));
  EXPECT_EQ(Mod(Mod(s0, Expr(8)), Expr(4)), Mod(s0, Expr(4)));
  EXPECT_EQ(Mod(Mod(s0, Expr(3)), Expr(5)), Mod(s0, Expr(3)));
  EXPECT_EQ(Mod(Mod(s0, s1), s1), Mod(s0, s1));
  EXPECT_EQ(Mod(s0, Expr(-4)), -Mod(-s0, Expr(4)));
  EXPECT_EQ(Mod(Div(s0, Expr(2)), Expr(3)), Div(Mod(s0, Expr(6)), Expr(2)));
  Expr m = Mod(s0, Expr(64));
  ASSERT_EQ(m.kind(), Kind::kMod);
  EXPECT_EQ(m.args()[0], s0);
  EXPECT_EQ(m.args()[1], Expr(64));
}

// ---------------------------------------------------------------------------------------------
// Min / Max

TEST_F(SymTest, MinMaxConstantFolding) {
  EXPECT_EQ(Min(Expr(3), Expr(5)), Expr(3));
  EXPECT_EQ(Max(Expr(3), Expr(5)), Expr(5));
  EXPECT_EQ(Min(Expr(-3), Expr::Rat(-7, 2)), Expr::Rat(-7, 2));
  EXPECT_EQ(Max(Expr::Rat(1, 2), Expr::Rat(1, 3)), Expr::Rat(1, 2));
  EXPECT_EQ(Min(Min(s0, Expr(7)), Expr(3)), Min(s0, Expr(3)));
  EXPECT_EQ(Max(Max(s0, Expr(7)), Expr(3)), Max(s0, Expr(7)));
}

TEST_F(SymTest, MinMaxFlattenDedupSort) {
  Expr m = Min(Min(s2, s0), Min(s1, s0));
  ASSERT_EQ(m.kind(), Kind::kMin);
  ASSERT_EQ(m.args().size(), 3U);
  EXPECT_EQ(m.args()[0], s0);
  EXPECT_EQ(m.args()[1], s1);
  EXPECT_EQ(m.args()[2], s2);
  EXPECT_EQ(Min(s0, s0), s0);
  EXPECT_EQ(Max(s1, s0), Max(s0, s1));
  EXPECT_EQ(Max(Max(s0, s1), s2), Max(s0, Max(s1, s2)));
  EXPECT_EQ(Min(Max(s0, s1), s2).kind(), Kind::kMin);  // different kinds do not flatten
}

TEST_F(SymTest, MinMaxDominance) {
  EXPECT_EQ(Max(s0, Expr(0)), s0);  // symbols are >= 0
  EXPECT_EQ(Min(s0, Expr(0)), Expr(0));
  EXPECT_EQ(Max(s0, Expr(-5)), s0);
  EXPECT_EQ(Max(s0 + Expr(2), s0 + Expr(5)), s0 + Expr(5));
  EXPECT_EQ(Min(s0 + Expr(2), s0 + Expr(5)), s0 + Expr(2));
  EXPECT_EQ(Max(s0, s0 + Expr(1)), s0 + Expr(1));
  EXPECT_EQ(Max(Mod(s0, Expr(4)), s1 + Expr(3)), s1 + Expr(3));
  EXPECT_EQ(Min(Mod(s0, Expr(4)), Expr(3)), Mod(s0, Expr(4)));
  EXPECT_EQ(Max(s0, Expr(1)).kind(), Kind::kMax);  // s0 may be 0
  EXPECT_EQ(Min(s0, s1).kind(), Kind::kMin);
}

// ---------------------------------------------------------------------------------------------
// Align

TEST_F(SymTest, AlignConstantFolding) {
  EXPECT_EQ(Align(Expr(10), Expr(4)), Expr(12));
  EXPECT_EQ(Align(Expr(12), Expr(4)), Expr(12));
  EXPECT_EQ(Align(Expr(0), Expr(4)), Expr(0));
  EXPECT_EQ(Align(Expr(-5), Expr(4)), Expr(-4));
  EXPECT_EQ(Align(Expr(1), Expr(32)), Expr(32));
  EXPECT_THAT(ErrorOf([] { return Align(Expr(1), Expr(0)); }), HasSubstr("division by zero"));
  EXPECT_THAT(ErrorOf([] { return Align(Expr(kMax), Expr(2)); }), HasSubstr("overflow"));
}

TEST_F(SymTest, AlignRules) {
  EXPECT_EQ(Align(s0, Expr(1)), s0);
  EXPECT_EQ(Align(Expr(4) * s0, Expr(4)), Expr(4) * s0);
  EXPECT_EQ(Align(s0 * s1, s1), s0 * s1);
  EXPECT_EQ(Align(Expr(0), s1), Expr(0));
  EXPECT_EQ(Align(Expr(8) * s1 + s0, Expr(4)), Expr(8) * s1 + Align(s0, Expr(4)));
  EXPECT_EQ(Align(Expr(2) * s0, Expr(4)), Expr(2) * Align(s0, Expr(2)));
  EXPECT_EQ(Align(Align(s0, Expr(8)), Expr(4)), Align(s0, Expr(8)));
  EXPECT_EQ(Align(Align(s0, Expr(4)), Expr(8)), Align(s0, Expr(8)));
  EXPECT_EQ(Align(Align(s0, s1), s1), Align(s0, s1));
  Expr a = Align(s0, Expr(16));
  ASSERT_EQ(a.kind(), Kind::kAlign);
  EXPECT_EQ(a.ToString(), "Align(s0, 16)");
}

// ---------------------------------------------------------------------------------------------
// Evaluation

TEST_F(SymTest, EvalEveryOp) {
  Bindings b{{"s0", 7}, {"s1", 3}, {"s2", 0}};
  EXPECT_EQ((s0 * s1 + Expr(3)).Eval(b), 24);
  EXPECT_EQ((s0 - Expr(2) * s1).Eval(b), 1);
  EXPECT_EQ(Pow(s0, 3).Eval(b), 343);
  EXPECT_EQ(FloorDiv(s0, s1).Eval(b), 2);
  EXPECT_EQ(FloorDiv(s2 - s0, s1).Eval(b), -3);
  EXPECT_EQ(CeilDiv(s0, s1).Eval(b), 3);
  EXPECT_EQ(CeilDiv(s2 - s0, s1).Eval(b), -2);
  EXPECT_EQ(Mod(s0, s1).Eval(b), 1);
  EXPECT_EQ(Mod(s2 - s0, s1).Eval(b), 2);
  EXPECT_EQ(Min(Min(s0, s1), s2 + Expr(5)).Eval(b), 3);
  EXPECT_EQ(Max(s0, s1).Eval(b), 7);
  EXPECT_EQ(Align(s0, s1).Eval(b), 9);
  EXPECT_EQ(Div(s0 + Expr(1), Expr(2)).Eval(b), 4);
  EXPECT_EQ(Div(s0 * s1, s1).Eval(b), 7);
  EXPECT_EQ(Expr(42).Eval({}), 42);
  EXPECT_EQ(Div(s0, Expr(2)).EvalRational(b), (Rational{7, 2}));
  EXPECT_EQ(Expr::Rat(-3, 4).EvalRational({}), (Rational{-3, 4}));
  EXPECT_EQ(Div(Expr(1), s1).EvalRational(b), (Rational{1, 3}));
}

TEST_F(SymTest, EvalErrors) {
  Bindings b{{"s0", kMax}, {"s1", 0}, {"s2", 2}, {"m", kMin}, {"neg", -1}};
  EXPECT_THAT(ErrorOf([&] { (s0 + Expr(1)).Eval(b); }), HasSubstr("overflow"));
  EXPECT_THAT(ErrorOf([&] { (s0 * s2).Eval(b); }), HasSubstr("overflow"));
  EXPECT_THAT(ErrorOf([&] { Pow(s2, 64).Eval(b); }), HasSubstr("overflow"));
  Expr m = Expr::Sym("m");
  Expr neg = Expr::Sym("neg");
  EXPECT_THAT(ErrorOf([&] { FloorDiv(m, neg).Eval(b); }), HasSubstr("overflow"));
  EXPECT_THAT(ErrorOf([&] { CeilDiv(m, neg).Eval(b); }), HasSubstr("overflow"));
  EXPECT_EQ(Mod(m, neg).Eval(b), 0);
  EXPECT_THAT(ErrorOf([&] { Align(s0, s2 + Expr(1)).Eval(b); }), HasSubstr("overflow"));

  std::string msg = ErrorOf([&] { FloorDiv(s2, s1).Eval(b); });
  EXPECT_THAT(msg, HasSubstr("division by zero"));
  EXPECT_THAT(msg, HasSubstr("FloorDiv"));
  EXPECT_THAT(ErrorOf([&] { CeilDiv(s2, s1).Eval(b); }), HasSubstr("CeilDiv"));
  EXPECT_THAT(ErrorOf([&] { Mod(s2, s1).Eval(b); }), HasSubstr("division by zero in Mod"));
  EXPECT_THAT(ErrorOf([&] { Align(s2, s1).Eval(b); }), HasSubstr("division by zero in Align"));
  EXPECT_THAT(ErrorOf([&] { Div(s2, s1).Eval(b); }), HasSubstr("division by zero"));

  msg = ErrorOf([&] { (s2 + s3).Eval(b); });
  EXPECT_THAT(msg, HasSubstr("unbound symbol"));
  EXPECT_THAT(msg, HasSubstr("'s3'"));

  msg = ErrorOf([&] { Div(s2 + Expr(1), Expr(2)).Eval(b); });
  EXPECT_THAT(msg, HasSubstr("non-integer"));
  EXPECT_THAT(msg, HasSubstr("3/2"));
  EXPECT_EQ(Div(s2 + Expr(1), Expr(2)).EvalRational(b), (Rational{3, 2}));
}

// ---------------------------------------------------------------------------------------------
// Subs and FreeSymbols

TEST_F(SymTest, SubsRecanonicalises) {
  Expr e = s0 * s1 + FloorDiv(s0, Expr(4)) + Max(s1, Expr(2));
  EXPECT_EQ(e.Subs({{"s0", Expr(8)}, {"s1", Expr(3)}}), Expr(29));
  EXPECT_EQ((s0 + s1).Subs({{"s0", s1}}), Expr(2) * s1);
  EXPECT_EQ(FloorDiv(s0, s1).Subs({{"s0", Expr(4) * s1}}), Expr(4));
  EXPECT_EQ(Mod(s0, s2).Subs({{"s0", s1 * s2}}), Expr(0));
  EXPECT_EQ(CeilDiv(s0, Expr::Sym("t")).Subs({{"t", Expr(1)}}), s0);
  EXPECT_EQ((s0 - s1).Subs({{"s0", s1}, {"s1", s0}}), s1 - s0);  // simultaneous
  EXPECT_EQ(e.Subs({}), e);
  EXPECT_EQ(e.Subs({{"unused", Expr(1)}}), e);
  EXPECT_EQ(Pow(s0 + Expr(1), 2).Subs({{"s0", Expr(2)}}), Expr(9));
  EXPECT_THAT(ErrorOf([&] {
                FloorDiv(s0, s1).Subs({{"s1", Expr(0)}});
              }),
              HasSubstr("division by zero"));
}

TEST_F(SymTest, FreeSymbolsSortedDistinct) {
  Expr e = Expr::Sym("b") * Expr::Sym("a") + Mod(Expr::Sym("c"), Expr::Sym("a")) +
           Max(Expr::Sym("b"), Expr(3));
  EXPECT_EQ(e.FreeSymbols(), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(Expr(3).FreeSymbols().empty());
  EXPECT_EQ(s0.FreeSymbols(), std::vector<std::string>{"s0"});
  EXPECT_TRUE((s0 - s0).FreeSymbols().empty());
}

// ---------------------------------------------------------------------------------------------
// Printing

TEST_F(SymTest, ToStringForms) {
  EXPECT_EQ(Expr(-5).ToString(), "-5");
  EXPECT_EQ(Expr::Rat(1, 8).ToString(), "Rational(1, 8)");
  EXPECT_EQ(Expr::Rat(-3, 8).ToString(), "Rational(-3, 8)");
  EXPECT_EQ((s1 - s0).ToString(), "-s0 + s1");
  EXPECT_EQ((Expr(784) * Expr::Sym("p0") + Expr::Sym("p1")).ToString(), "784 * p0 + p1");
  EXPECT_EQ((s0 - Expr(2) * s1 - Expr(1)).ToString(), "s0 - 2 * s1 - 1");
  EXPECT_EQ(Pow(s0, 3).ToString(), "Pow(s0, 3)");
  EXPECT_EQ(FloorDiv(s0, s1).ToString(), "FloorDiv(s0, s1)");
  EXPECT_EQ(Mod(s0, s1).ToString(), "Mod(s0, s1)");
  EXPECT_EQ(Min(s0, s1).ToString(), "Min(s0, s1)");
  EXPECT_EQ(Max(s0, s1).ToString(), "Max(s0, s1)");
  EXPECT_EQ(Div(s0, Expr(8)).ToString(), "Rational(1, 8) * s0");
  EXPECT_EQ(Div(s0, s1 * s2).ToString(), "s0 / (s1 * s2)");
  EXPECT_EQ(Expr(kMin).ToString(), "(-9223372036854775808)");
}

TEST_F(SymTest, ToCppForms) {
  EXPECT_EQ((s0 * s1 + Expr(3)).ToCpp(), "s0 * s1 + 3");
  EXPECT_EQ((s1 - Expr(2) * s0 - Expr(1)).ToCpp(), "-2 * s0 + s1 - 1");
  EXPECT_EQ(FloorDiv(s0, s1).ToCpp(), "af_floordiv(s0, s1)");
  EXPECT_EQ(CeilDiv(s0, Expr(16)).ToCpp(), "af_ceildiv(s0, 16)");
  EXPECT_EQ(Mod(s0, Expr(4)).ToCpp(), "af_mod(s0, 4)");
  EXPECT_EQ(Align(s0, s1).ToCpp(), "af_align(s0, s1)");
  EXPECT_EQ(Pow(s0, 3).ToCpp(), "af_pow(s0, 3)");
  EXPECT_EQ(Min(Min(s0, s1), s2).ToCpp(), "af_min(af_min(s0, s1), s2)");
  EXPECT_EQ(Max(s0, s1).ToCpp(), "af_max(s0, s1)");
  EXPECT_EQ(Div(Expr(3) * s0 + Expr(1), Expr(8)).ToCpp(), "af_floordiv(3 * s0 + 1, 8)");
  EXPECT_EQ(Div(s0, Expr(2)).ToCpp(), "af_floordiv(s0, 2)");
  EXPECT_EQ(Div(s0, s1).ToCpp(), "af_floordiv(s0, s1)");
  EXPECT_EQ(Expr(kMin).ToCpp(), "(-9223372036854775807 - 1)");
  EXPECT_EQ((s0 + Expr(kMin)).ToCpp(), "s0 + (-9223372036854775807 - 1)");
  EXPECT_EQ(((s0 + Expr(1)) * (s1 + Expr(1))).ToCpp(), "s0 + s0 * s1 + s1 + 1");
}

TEST_F(SymTest, PrintingIsDeterministic) {
  // A fixed golden string: the canonical order depends only on structure and names, so this is
  // the same in every run and on every machine.
  Expr t = Expr::Sym("z0t_size");
  Expr s10 = Expr::Sym("s10");
  Expr e = Max(s1, Expr(2)) + CeilDiv(s0, t) * t + Mod(s0, Expr(16)) - Expr(3) * s10 * s0 +
           Div(s1, Expr(4)) + Pow(s0 + Expr(1), 2);
  EXPECT_EQ(e.ToString(),
            "2 * s0 - 3 * s0 * s10 + Rational(1, 4) * s1 + z0t_size * CeilDiv(s0, z0t_size) + "
            "Pow(s0, 2) + Mod(s0, 16) + Max(2, s1) + 1");
  EXPECT_EQ(e.ToCpp(),
            "af_floordiv(8 * s0 - 12 * s0 * s10 + s1 + 4 * z0t_size * af_ceildiv(s0, z0t_size) + "
            "4 * af_pow(s0, 2) + 4 * af_mod(s0, 16) + 4 * af_max(2, s1) + 4, 4)");
  EXPECT_EQ(Parse(e.ToString()), e);
}

TEST_F(SymTest, ToCppRationalsStayExact) {
  Expr e = Div(s0 * (s0 + Expr(1)), Expr(2));  // always an integer
  EXPECT_EQ(e.ToCpp(), "af_floordiv(s0 + af_pow(s0, 2), 2)");
  EXPECT_EQ(Expr::Rat(3, 4).ToCpp(), "af_floordiv(3, 4)");
  EXPECT_EQ(Pow(s0 + s1, -2).ToCpp(), "af_floordiv(1, af_pow(s0 + s1, 2))");
  EXPECT_EQ(Div(Expr(3) * s0, Expr(2) * s1).ToCpp(), "af_floordiv(3 * s0, 2 * s1)");
}

// ---------------------------------------------------------------------------------------------
// Provers

TEST_F(SymTest, ProveConstantDifferences) {
  EXPECT_EQ(ProveLe(s0, s0), Tri::kTrue);
  EXPECT_EQ(ProveLe(s0, s0 + Expr(1)), Tri::kTrue);
  EXPECT_EQ(ProveLe(s0 + Expr(1), s0), Tri::kFalse);
  EXPECT_EQ(ProveLe(Expr(3), Expr(4)), Tri::kTrue);
  EXPECT_EQ(ProveGe(Expr(3), Expr(4)), Tri::kFalse);
  EXPECT_EQ(ProveEq(s0 + s1, s1 + s0), Tri::kTrue);
  EXPECT_EQ(ProveEq(s0 + Expr(1), s0), Tri::kFalse);
  EXPECT_EQ(ProveEq(Expr(2), Expr(2)), Tri::kTrue);
}

TEST_F(SymTest, ProveNonNegativeSums) {
  EXPECT_EQ(ProveGe(s0, Expr(0)), Tri::kTrue);
  EXPECT_EQ(ProveLe(s0, s0 + s1), Tri::kTrue);
  EXPECT_EQ(ProveLe(s0 * s1, s0 * s1 + Expr(2) * s0 + Pow(s2, 3)), Tri::kTrue);
  EXPECT_EQ(ProveGe(s0 * s1 + Expr(1), Expr(1)), Tri::kTrue);
  EXPECT_EQ(ProveGe(s0 + s1 + Expr(2), Expr(3)), Tri::kUnknown);
  EXPECT_EQ(ProveLe(s0, s0 * s1), Tri::kUnknown);  // s1 may be 0
  EXPECT_EQ(ProveLe(s0, s1), Tri::kUnknown);
  EXPECT_EQ(ProveEq(s0, s1), Tri::kUnknown);
  EXPECT_EQ(ProveGe(s0 - s1, Expr(0)), Tri::kUnknown);
  EXPECT_EQ(ProveLe(s0 + Expr(1), -s1), Tri::kFalse);
}

TEST_F(SymTest, ProveMinMax) {
  EXPECT_EQ(ProveLe(Min(s0, s1), s0), Tri::kTrue);
  EXPECT_EQ(ProveLe(Min(s0, s1), s1), Tri::kTrue);
  EXPECT_EQ(ProveGe(Max(s0, s1), s1), Tri::kTrue);
  EXPECT_EQ(ProveLe(Min(s0, s1), Max(s0, s2)), Tri::kTrue);
  EXPECT_EQ(ProveLe(Max(s0, s1), s0 + s1), Tri::kTrue);
  EXPECT_EQ(ProveGe(Min(s0, s1), s0), Tri::kUnknown);
  EXPECT_EQ(ProveLe(Max(s0, Expr(4)), Expr(3)), Tri::kFalse);
  EXPECT_EQ(ProveLe(Min(s0, Expr(4)), Expr(4)), Tri::kTrue);
  EXPECT_EQ(ProveGe(Min(s0 + Expr(5), s1 + Expr(7)), Expr(5)), Tri::kTrue);
  EXPECT_EQ(ProveLe(Max(s0, s1), s2), Tri::kUnknown);
}

TEST_F(SymTest, ProveDivModBounds) {
  EXPECT_EQ(ProveLe(FloorDiv(s0, Expr(4)), s0), Tri::kTrue);
  EXPECT_EQ(ProveLe(FloorDiv(s0, s1), s0), Tri::kTrue);  // s1 >= 1 where defined
  EXPECT_EQ(ProveGe(FloorDiv(s0, Expr(4)), Expr(0)), Tri::kTrue);
  EXPECT_EQ(ProveLe(s0, FloorDiv(s0, Expr(4))), Tri::kUnknown);  // equal at s0 == 0
  EXPECT_EQ(ProveLe(Expr(4) * FloorDiv(s0, Expr(4)), s0), Tri::kTrue);
  EXPECT_EQ(ProveLe(s1 * FloorDiv(s0, s1), s0), Tri::kTrue);
  EXPECT_EQ(ProveLe(CeilDiv(s0, Expr(4)), s0), Tri::kTrue);
  EXPECT_EQ(ProveGe(Expr(4) * CeilDiv(s0, Expr(4)), s0), Tri::kTrue);
  EXPECT_EQ(ProveLe(Expr(4) * CeilDiv(s0, Expr(4)), s0 + Expr(3)), Tri::kTrue);
  EXPECT_EQ(ProveLe(Expr(4) * CeilDiv(s0, Expr(4)), s0 + Expr(2)), Tri::kUnknown);
  EXPECT_EQ(ProveLe(Mod(s0, Expr(8)), Expr(7)), Tri::kTrue);
  EXPECT_EQ(ProveGe(Mod(s0, Expr(8)), Expr(8)), Tri::kFalse);
  EXPECT_EQ(ProveLe(Mod(s0, Expr(8)), Expr(6)), Tri::kUnknown);
  EXPECT_EQ(ProveLe(Mod(s0, s1), s1 - Expr(1)), Tri::kTrue);
  EXPECT_EQ(ProveLe(Mod(s0, s1), s0), Tri::kTrue);
  EXPECT_EQ(ProveEq(Mod(s0, s1), s1), Tri::kFalse);
  EXPECT_EQ(ProveGe(Align(s0, Expr(16)), s0), Tri::kTrue);
  EXPECT_EQ(ProveLe(Align(s0, Expr(16)), s0 + Expr(15)), Tri::kTrue);
  EXPECT_EQ(ProveLe(Align(s0, Expr(16)), s0 + Expr(14)), Tri::kUnknown);
  EXPECT_EQ(ProveGe(Align(s0, s1), s0), Tri::kTrue);
  EXPECT_EQ(ProveEq(FloorDiv(s0, Expr(4)) * Expr(4) + Mod(s0, Expr(4)), s0), Tri::kTrue);
}

}  // namespace
}  // namespace af::sym
