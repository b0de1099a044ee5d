// Parser tests: every accepted input form (AutoFuse / SymEngine strings and Inductor / sympy
// index expressions), print -> parse round trips, and malformed or hostile inputs that must
// give a ParseError at a sensible offset without crashing or hanging.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "autofuse/sym/expr.h"

namespace af::sym {
namespace {

using ::testing::HasSubstr;

Expr S(const char* name) {
  return Expr::Sym(name);
}

// ---------------------------------------------------------------------------------------------
// AutoFuse strings

TEST(SymParse, AutoFuseExactStrings) {
  EXPECT_EQ(Parse("Ceiling((s0 / (z0t_size)))"), CeilDiv(S("s0"), S("z0t_size")));
  EXPECT_EQ(Parse("Rational(1 , 8)"), Expr::Rat(1, 8));
  EXPECT_EQ(Parse("(s1 * s2)"), S("s1") * S("s2"));
  EXPECT_EQ(Parse("(100 + s0)"), S("s0") + Expr(100));
  EXPECT_EQ(Parse("-1"), Expr(-1));
}

TEST(SymParse, AutoFuseFunctions) {
  Expr s0 = S("s0");
  Expr s1 = S("s1");
  EXPECT_EQ(Parse("Floor((s0 / (s1)))"), FloorDiv(s0, s1));
  EXPECT_EQ(Parse("Floor(s0 / 4)"), FloorDiv(s0, Expr(4)));
  EXPECT_EQ(Parse("Ceiling(s0 / 4)"), CeilDiv(s0, Expr(4)));
  EXPECT_EQ(Parse("Ceiling(((s0 * s1) / (16)))"), CeilDiv(s0 * s1, Expr(16)));
  EXPECT_EQ(Parse("ceiling(s0/s1)"), CeilDiv(s0, s1));
  EXPECT_EQ(Parse("floor(s0/s1)"), FloorDiv(s0, s1));
  EXPECT_EQ(Parse("Max(s0, s1)"), Max(s0, s1));
  EXPECT_EQ(Parse("Max(1, s0, (s1 * 2))"), Max(Max(Expr(1), s0), Expr(2) * s1));
  EXPECT_EQ(Parse("Min(s0, 128)"), Min(s0, Expr(128)));
  EXPECT_EQ(Parse("Min(s0)"), s0);
  EXPECT_EQ(Parse("Mod(s0, 8)"), Mod(s0, Expr(8)));
  EXPECT_EQ(Parse("Mod((s0 + 3), s1)"), Mod(s0 + Expr(3), s1));
  EXPECT_EQ(Parse("Align(s0, 32)"), Align(s0, Expr(32)));
  EXPECT_EQ(Parse("Align((s0 * s1), 16)"), Align(s0 * s1, Expr(16)));
  EXPECT_EQ(Parse("Pow(s0, 3)"), Pow(s0, 3));
  EXPECT_EQ(Parse("Rational(-3, 8)"), Expr::Rat(-3, 8));
  EXPECT_EQ(Parse("Rational(4, 8)"), Expr::Rat(1, 2));
  EXPECT_EQ(Parse("(Rational(1 , 8) * s0)"), Div(s0, Expr(8)));
  EXPECT_EQ(Parse("(-1 * s0)"), -s0);
  EXPECT_EQ(Parse("(s0 + -1)"), s0 - Expr(1));
  EXPECT_EQ(Parse("-(s0)"), -s0);
}

TEST(SymParse, CeilingAndFloorOfOtherExpressions) {
  Expr s0 = S("s0");
  Expr s1 = S("s1");
  EXPECT_EQ(Parse("Ceiling(s0)"), s0);  // integral: unchanged
  EXPECT_EQ(Parse("Floor(s0 * s1 + 2)"), s0 * s1 + Expr(2));
  EXPECT_EQ(Parse("Ceiling(Rational(1, 2) * s0)"), CeilDiv(s0, Expr(2)));
  EXPECT_EQ(Parse("Ceiling(s0 / 2 + s1 / 3)"), CeilDiv(Expr(3) * s0 + Expr(2) * s1, Expr(6)));
  EXPECT_EQ(Parse("Floor(s0 / s1 / 4)"), FloorDiv(s0, Expr(4) * s1));
  EXPECT_EQ(Parse("Ceiling((s0 + s1) / 8)"), CeilDiv(s0 + s1, Expr(8)));
  EXPECT_EQ(Parse("Ceiling(7 / 2)"), Expr(4));
  EXPECT_EQ(Parse("Floor(-7 / 2)"), Expr(-4));
}

TEST(SymParse, ExactDivision) {
  Expr s0 = S("s0");
  EXPECT_EQ(Parse("1/8"), Expr::Rat(1, 8));
  EXPECT_EQ(Parse("6/3"), Expr(2));
  EXPECT_EQ(Parse("s0/2"), Div(s0, Expr(2)));
  EXPECT_EQ(Parse("s0 / S1"), Div(s0, S("S1")));
  EXPECT_EQ(Parse("4*s0/2"), Expr(2) * s0);
  EXPECT_EQ(Parse("s0/2*4"), Expr(2) * s0);
}

// ---------------------------------------------------------------------------------------------
// Inductor / sympy index expressions

TEST(SymParse, InductorExactStrings) {
  Expr p0 = S("p0");
  EXPECT_EQ(Parse("784*p0 + p1"), Expr(784) * p0 + S("p1"));
  EXPECT_EQ(Parse("ModularIndexing(p0, 1, 64)"), Mod(p0, Expr(64)));
  EXPECT_EQ(Parse("ModularIndexing(p0, 1, 64)"), Mod(FloorDiv(p0, Expr(1)), Expr(64)));
}

TEST(SymParse, InductorForms) {
  Expr x = S("x0");
  Expr y = S("x1");
  EXPECT_EQ(Parse("ModularIndexing(x0, 16, 4)"), Mod(FloorDiv(x, Expr(16)), Expr(4)));
  EXPECT_EQ(Parse("FloorDiv(x0, 16)"), FloorDiv(x, Expr(16)));
  EXPECT_EQ(Parse("x0//16"), FloorDiv(x, Expr(16)));
  EXPECT_EQ(Parse("x0 // x1"), FloorDiv(x, y));
  EXPECT_EQ(Parse("7 // 2"), Expr(3));
  EXPECT_EQ(Parse("-7 // 2"), Expr(-4));
  EXPECT_EQ(Parse("CeilDiv(x0, 16)"), CeilDiv(x, Expr(16)));
  EXPECT_EQ(Parse("CleanDiv(x0, 16)"), FloorDiv(x, Expr(16)));
  EXPECT_EQ(Parse("CleanDiv(16*x0, 16)"), x);
  EXPECT_EQ(Parse("Min(x0, 5)"), Min(x, Expr(5)));
  EXPECT_EQ(Parse("Max(x0, x1, 3)"), Max(Max(x, y), Expr(3)));
  EXPECT_EQ(Parse("min(x0, x1)"), Min(x, y));
  EXPECT_EQ(Parse("max(x0, x1)"), Max(x, y));
  EXPECT_EQ(Parse("x0**2"), Pow(x, 2));
  EXPECT_EQ(Parse("x0 ** 2 * x1"), Pow(x, 2) * y);
  EXPECT_EQ(Parse("2**10"), Expr(1024));
  EXPECT_EQ(Parse("-2**2"), Expr(-4));  // Python precedence
  EXPECT_EQ(Parse("(-2)**2"), Expr(4));
  EXPECT_EQ(Parse("2**3**2"), Expr(512));  // right associative
  EXPECT_EQ(Parse("x0**-1"), Div(Expr(1), x));
  EXPECT_EQ(Parse("PythonMod(x0, 7)"), Mod(x, Expr(7)));
  EXPECT_EQ(Parse("Mod(x0, 7)"), Mod(x, Expr(7)));
  EXPECT_EQ(Parse("x0 % 7"), Mod(x, Expr(7)));
  EXPECT_EQ(Parse("-7 % 3"), Expr(2));
  EXPECT_EQ(Parse("TruncToInt(x0 + 1)"), x + Expr(1));
  EXPECT_EQ(Parse("Identity(x0*x1)"), x * y);
  EXPECT_EQ(Parse("x0 + 3*x1 - 2"), x + Expr(3) * y - Expr(2));
  EXPECT_EQ(Parse("64*ModularIndexing(x0, 1, 8) + FloorDiv(x0, 8)"),
            Expr(64) * Mod(x, Expr(8)) + FloorDiv(x, Expr(8)));
}

TEST(SymParse, WhitespaceAndSigns) {
  Expr s0 = S("s0");
  EXPECT_EQ(Parse("  s0\t+\n1  "), s0 + Expr(1));
  EXPECT_EQ(Parse("Max ( s0 , 1 )"), Max(s0, Expr(1)));
  EXPECT_EQ(Parse("- 5"), Expr(-5));
  EXPECT_EQ(Parse("--5"), Expr(5));
  EXPECT_EQ(Parse("+s0"), s0);
  EXPECT_EQ(Parse("s0 - -1"), s0 + Expr(1));
  EXPECT_EQ(Parse("-9223372036854775808"), Expr(std::numeric_limits<std::int64_t>::min()));
  EXPECT_EQ(Parse("9223372036854775807"), Expr(std::numeric_limits<std::int64_t>::max()));
  EXPECT_EQ(Parse("s0 + (-9223372036854775808)"),
            s0 + Expr(std::numeric_limits<std::int64_t>::min()));
  EXPECT_EQ(Parse("Max"), S("Max"));  // an identifier without '(' is a symbol
}

TEST(SymParse, RoundTripSamples) {
  Expr s0 = S("s0");
  Expr s1 = S("s1");
  Expr s2 = S("s2");
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  std::vector<Expr> samples = {
      Expr(0),
      Expr(-7),
      Expr(kMin),
      Expr::Rat(-3, 7),
      Expr::Rat(kMin, 3),
      s0 * s1 + Expr(3),
      s1 - s0,
      -s0 * s1,
      Expr(kMin) * s0,
      s0 + Expr(kMin) * s1 + Expr(kMin),
      Div(s0, Expr(8)) - Div(Expr(3) * s1, Expr(4)),
      Div(s0, s1),
      Div(Expr(-2) * s0, s1 * s2),
      Div(Expr(1), s1),
      -Div(Expr(1), s1),
      Pow(s0, 5),
      Pow(s0 + s1, 30),
      Pow(s0, -3) * s1,
      CeilDiv(s0, Expr::Sym("z0t_size")),
      FloorDiv(s0 + Expr(5), Expr(4)),
      Mod(s0 * s1 + Expr(1), s2),
      Min(Min(s0, s1), -s2),
      Max(Max(s0, Expr(3)), s1 - Expr(2)),
      Align(s0, Expr(16)) + Align(s1, s2),
      Mod(Div(s0, s1), Expr(3)),
      (s0 + s1 + s2 + Expr(1)) *
          (S("a") + S("b") + S("c") + S("d") + S("e") + S("f") + S("g") + S("h") + S("i") + S("j") +
           S("k") + S("l") + S("m") + S("n") + S("o") + S("p") + S("q")),
  };
  for (const Expr& e : samples) {
    SCOPED_TRACE(e.ToString());
    EXPECT_EQ(Parse(e.ToString()), e);
  }
}

// ---------------------------------------------------------------------------------------------
// Errors

// Parses text expecting a ParseError; returns it (or fails the test).
ParseError ErrorFor(const std::string& text) {
  try {
    Expr e = Parse(text);
    ADD_FAILURE() << "expected a ParseError for '" << text.substr(0, 80) << "', got "
                  << e.ToString();
  } catch (const ParseError& e) {
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected a ParseError for '" << text.substr(0, 80) << "', got " << e.what();
  }
  return ParseError("none", std::string::npos);
}

TEST(SymParse, EmptyInput) {
  for (const char* text : {"", "   "}) {
    ParseError e = ErrorFor(text);
    EXPECT_THAT(e.what(), HasSubstr("expected an expression"));
    EXPECT_THAT(e.what(), HasSubstr("end of input"));
  }
  EXPECT_EQ(ErrorFor("").pos(), 0U);
  EXPECT_EQ(ErrorFor("   ").pos(), 3U);
}

TEST(SymParse, UnbalancedParentheses) {
  ParseError e = ErrorFor("(s0 + 1");
  EXPECT_EQ(e.pos(), 7U);
  EXPECT_THAT(e.what(), HasSubstr("expected ')'"));
  EXPECT_THAT(e.what(), HasSubstr("end of input"));
  e = ErrorFor("s0 + 1)");
  EXPECT_EQ(e.pos(), 6U);
  EXPECT_THAT(e.what(), HasSubstr("')'"));
  e = ErrorFor("Max(s0, 1");
  EXPECT_EQ(e.pos(), 9U);
  EXPECT_THAT(e.what(), HasSubstr("expected ',' or ')'"));
  e = ErrorFor("((s0)");
  EXPECT_EQ(e.pos(), 5U);
  e = ErrorFor(")");
  EXPECT_EQ(e.pos(), 0U);
  EXPECT_THAT(e.what(), HasSubstr("expected an expression"));
}

TEST(SymParse, TrailingJunk) {
  ParseError e = ErrorFor("s0 s1");
  EXPECT_EQ(e.pos(), 3U);
  EXPECT_THAT(e.what(), HasSubstr("identifier 's1'"));
  e = ErrorFor("2s0");
  EXPECT_EQ(e.pos(), 1U);
  e = ErrorFor("s0 + 1 $");
  EXPECT_EQ(e.pos(), 7U);
  EXPECT_THAT(e.what(), HasSubstr("'$'"));
  e = ErrorFor("s0 +");
  EXPECT_EQ(e.pos(), 4U);
  e = ErrorFor("s0 * * s1");
  EXPECT_EQ(e.pos(), 5U);
  e = ErrorFor("s0,");
  EXPECT_EQ(e.pos(), 2U);
  e = ErrorFor(std::string("s0 \x01", 4));
  EXPECT_EQ(e.pos(), 3U);
  EXPECT_THAT(e.what(), HasSubstr("0x01"));
}

TEST(SymParse, DivisionByZero) {
  ParseError e = ErrorFor("1/0");
  EXPECT_EQ(e.pos(), 1U);
  EXPECT_THAT(e.what(), HasSubstr("division by zero"));
  e = ErrorFor("s0 / (s1 - s1)");
  EXPECT_EQ(e.pos(), 3U);
  e = ErrorFor("s0 // 0");
  EXPECT_EQ(e.pos(), 3U);
  e = ErrorFor("s0 % 0");
  EXPECT_EQ(e.pos(), 3U);
  e = ErrorFor("Mod(s0, 0)");
  EXPECT_EQ(e.pos(), 0U);
  e = ErrorFor("x + Rational(1, 0)");
  EXPECT_EQ(e.pos(), 16U);
  EXPECT_THAT(e.what(), HasSubstr("zero denominator"));
}

TEST(SymParse, IntegerLiteralsOutOfRange) {
  ParseError e = ErrorFor("9223372036854775808");
  EXPECT_EQ(e.pos(), 0U);
  EXPECT_THAT(e.what(), HasSubstr("out of int64 range"));
  e = ErrorFor("s0 + 99999999999999999999999999999999999999999");
  EXPECT_EQ(e.pos(), 5U);
  e = ErrorFor("-9223372036854775809");
  EXPECT_EQ(e.pos(), 1U);
  e = ErrorFor("1.5");
  EXPECT_EQ(e.pos(), 1U);
  EXPECT_THAT(e.what(), HasSubstr("floating-point"));
  e = ErrorFor("9223372036854775807 + 1");
  EXPECT_EQ(e.pos(), 20U);
  EXPECT_THAT(e.what(), HasSubstr("overflow"));
  e = ErrorFor("2**64");
  EXPECT_EQ(e.pos(), 1U);
}

TEST(SymParse, BadFunctionsAndArguments) {
  ParseError e = ErrorFor("s0 + Foo(1)");
  EXPECT_EQ(e.pos(), 5U);
  EXPECT_THAT(e.what(), HasSubstr("unknown function 'Foo'"));
  e = ErrorFor("Mod(1)");
  EXPECT_EQ(e.pos(), 0U);
  EXPECT_THAT(e.what(), HasSubstr("expects 2 arguments but found 1"));
  e = ErrorFor("ModularIndexing(p0, 1)");
  EXPECT_THAT(e.what(), HasSubstr("expects 3 arguments"));
  e = ErrorFor("Max()");
  EXPECT_THAT(e.what(), HasSubstr("at least 1"));
  e = ErrorFor("Rational(s0, 2)");
  EXPECT_EQ(e.pos(), 9U);
  EXPECT_THAT(e.what(), HasSubstr("integer constant numerator"));
  e = ErrorFor("s0 ** s1");
  EXPECT_EQ(e.pos(), 6U);
  EXPECT_THAT(e.what(), HasSubstr("integer constant exponent"));
  e = ErrorFor("Pow(s0, Rational(1, 2))");
  EXPECT_THAT(e.what(), HasSubstr("exponent"));
  e = ErrorFor("Ceiling(Min(s0 / 2, 1))");
  EXPECT_EQ(e.pos(), 0U);
  e = ErrorFor("TruncToInt(s0 / 2)");
  EXPECT_THAT(e.what(), HasSubstr("TruncToInt"));
  e = ErrorFor("Max(s0,, 1)");
  EXPECT_EQ(e.pos(), 7U);
}

TEST(SymParse, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '(');
  deep += "s0";
  deep += std::string(100000, ')');
  ParseError e = ErrorFor(deep);
  EXPECT_THAT(e.what(), HasSubstr("nested too deeply"));
  EXPECT_LE(e.pos(), 300U);
  EXPECT_THAT(ErrorFor(std::string(100000, '-') + "1").what(), HasSubstr("nested too deeply"));
  std::string calls;
  for (int i = 0; i < 5000; ++i)
    calls += "Max(1, ";
  EXPECT_THAT(ErrorFor(calls).what(), HasSubstr("nested too deeply"));
  std::string powers = "2";
  for (int i = 0; i < 5000; ++i)
    powers += "**2";
  EXPECT_THAT(ErrorFor(powers).what(), HasSubstr("nested too deeply"));
  // Within the limit it works.
  std::string ok = std::string(200, '(') + "s0" + std::string(200, ')');
  EXPECT_EQ(Parse(ok), S("s0"));
}

TEST(SymParse, LongFlatInputsAreFast) {
  std::string sum;
  std::string product;
  for (int i = 0; i < 20000; ++i) {
    if (i != 0) {
      sum += " + ";
      product += "*";
    }
    sum += "v" + std::to_string(i);
    product += "w" + std::to_string(i % 100);
  }
  Expr e = Parse(sum);
  ASSERT_EQ(e.kind(), Kind::kAdd);
  EXPECT_EQ(e.args().size(), 20000U);
  Expr p = Parse(product);
  ASSERT_EQ(p.kind(), Kind::kMul);
  EXPECT_EQ(p.args().size(), 100U);
  EXPECT_EQ(p.args()[0], Pow(S("w0"), 200));
  EXPECT_THAT(ErrorFor(std::string(1000000, '9')).what(), HasSubstr("out of int64 range"));
}

TEST(SymParse, RandomGarbageNeverCrashes) {
  std::mt19937 rng(1234);
  const std::string alphabet = "s0 1()+-*/%,.Max(Mod(Ceiling(Rational(abc_9";
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<int> len(0, 40);
  int parsed = 0;
  int rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    int n = len(rng);
    for (int j = 0; j < n; ++j)
      text += alphabet[pick(rng)];
    try {
      Expr e = Parse(text);
      ++parsed;
      EXPECT_EQ(Parse(e.ToString()), e) << text;
    } catch (const ParseError& e) {
      ++rejected;
      EXPECT_LE(e.pos(), text.size()) << text;
    }
  }
  EXPECT_GT(parsed, 100);
  EXPECT_GT(rejected, 100);
}

}  // namespace
}  // namespace af::sym
