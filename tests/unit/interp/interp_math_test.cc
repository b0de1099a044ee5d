// The math op set of issue 22 in the reference interpreter against NumPy (PyTorch for digamma,
// Python's math.lgamma element by element): every op on a [5, 9] fp32 tensor, inputs drawn from
// each op's domain, one NumPy script for the whole table.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

#include "../data/numpy_runner.h"
#include "af_cpu/special_math.h"
#include "autofuse/data/compare.h"
#include "autofuse/data/npy.h"
#include "autofuse/interp/interpreter.h"
#include "autofuse/ir/validate.h"
#include "fixtures.h"
#include "graph_builder.h"

namespace af::interp {
namespace {

using ir::DType;
using testing::GraphBuilder;

constexpr auto F32 = DType::kFloat32;
constexpr const char* kRep = "s0, s1";
constexpr const char* kStr = "s1, 1";

struct MathCase {
  const char* op;
  int arity;
  DType in;
  DType out;
  const char* attr;  // "key=value" or ""
};

// Input domains and the NumPy expression of each op; a, b, c are the inputs.
constexpr const char* kScript = R"(
import math
rng = np.random.default_rng(22)
S = (5, 9)
def u(lo, hi): return rng.uniform(lo, hi, S).astype(np.float32)
def nz(lo, hi):
    v = u(lo, hi); v[np.abs(v) < 0.25] = 0.5; return v
def ints(dt): return rng.integers(-1000, 1000, S).astype(dt)
special = np.array([np.nan, np.inf, -np.inf, 0.0, -1.5, 2.0, 3e38, -0.0, 1.0], np.float32)
cases = {
 'Sin': ([u(-6, 6)], np.sin), 'Cos': ([u(-6, 6)], np.cos), 'Tan': ([u(-1.4, 1.4)], np.tan),
 'Asin': ([u(-1, 1)], np.arcsin), 'Acos': ([u(-1, 1)], np.arccos), 'Atan': ([u(-9, 9)], np.arctan),
 'Sinh': ([u(-4, 4)], np.sinh), 'Cosh': ([u(-4, 4)], np.cosh), 'Asinh': ([u(-9, 9)], np.arcsinh),
 'Acosh': ([u(1, 9)], np.arccosh), 'Atanh': ([u(-0.99, 0.99)], np.arctanh),
 'Erfc': ([u(-3, 3)], lambda a: np.vectorize(math.erfc)(a.astype(np.float64))),
 'Lgamma': ([u(0.1, 9)], lambda a: np.vectorize(math.lgamma)(a.astype(np.float64))),
 'Digamma': ([u(-3.9, 9)], lambda a: torch.special.digamma(torch.from_numpy(a.astype(np.float64))).numpy()),
 'Floor': ([u(-9, 9)], np.floor), 'Ceil': ([u(-9, 9)], np.ceil), 'Trunc': ([u(-9, 9)], np.trunc),
 'Round': ([np.round(u(-9, 9) * 2) / 2], np.round),
 'Log2': ([u(0.01, 9)], np.log2), 'Log10': ([u(0.01, 9)], np.log10),
 'Square': ([u(-9, 9)], np.square), 'Exp2': ([u(-9, 9)], np.exp2), 'Expm': ([u(-3, 3)], np.expm1),
 'Log1p': ([u(-0.9, 9)], np.log1p),
 'Gelu': ([u(-5, 5)], lambda a: 0.5 * a * (1 + np.tanh(np.sqrt(2 / np.pi) * (a + 0.044715 * a ** 3)))),
 'LeakyRelu': ([u(-5, 5)], lambda a: np.where(a < 0, a * np.float32(0.2), a)),
 'Nop': ([u(-5, 5)], lambda a: a), 'Ub2ub': ([u(-5, 5)], lambda a: a),
 'RoundToInt': ([np.round(u(-9, 9) * 2) / 2], lambda a: np.rint(a).astype(np.int32)),
 'TruncToInt': ([u(-9, 9)], lambda a: np.trunc(a).astype(np.int32)),
 'FloorToInt': ([u(-9, 9)], lambda a: np.floor(a).astype(np.int32)),
 'Ceil2Int': ([u(-9, 9)], lambda a: np.ceil(a).astype(np.int32)),
 'IsFinite': ([np.resize(special, S)], np.isfinite), 'IsInf': ([np.resize(special, S)], np.isinf),
 'Isnan': ([np.resize(special, S)], np.isnan),
 'Fmod': ([u(-9, 9), nz(-3, 3)], np.fmod), 'Remainder': ([u(-9, 9), nz(-3, 3)], np.remainder),
 'Mod': ([u(-9, 9), nz(-3, 3)], np.remainder), 'FloorDiv': ([u(-9, 9), nz(-3, 3)], np.floor_divide),
 'TruncDiv': ([u(-9, 9), nz(-3, 3)], lambda a, b: np.trunc(a / b)),
 'Hypot': ([u(-9, 9), u(-9, 9)], np.hypot),
 'Atan2': ([u(-9, 9), u(-9, 9)], lambda a, b: np.arctan2(b, a)),
 'CopySign': ([u(-9, 9), u(-9, 9)], np.copysign),
 'SignBit': ([u(-9, 9)], np.signbit),
 'Axpy': ([u(-9, 9), u(-9, 9)], lambda a, b: np.float32(1.5) * a + b),
 'BitwiseAnd': ([ints(np.int32), ints(np.int32)], np.bitwise_and),
 'BitwiseOr': ([ints(np.int32), ints(np.int32)], np.bitwise_or),
 'BitwiseXor': ([ints(np.int32), ints(np.int32)], np.bitwise_xor),
 'BitwiseNot': ([ints(np.int32)], np.invert),
 'LogicalXor': ([rng.uniform(size=S) < 0.5, rng.uniform(size=S) < 0.5], np.logical_xor),
 'ClipByValue': ([u(-9, 9), u(-5, 0), u(0, 5)], lambda a, b, c: np.minimum(np.maximum(a, b), c)),
 'Fma': ([u(-9, 9), u(-9, 9), u(-9, 9)], lambda a, b, c: a.astype(np.float64) * b + c),
 'MaskedFill': ([u(-9, 9), rng.uniform(size=S) < 0.5, u(-9, 9)], lambda a, m, v: np.where(m, v, a)),
}
def ts(f):
    return lambda a: f(torch.from_numpy(a.astype(np.float64))).numpy()
sp = torch.special
for name, f, lo, hi in [
        ('BesselJ0', sp.bessel_j0, -9, 9), ('BesselJ1', sp.bessel_j1, -9, 9),
        ('BesselY0', sp.bessel_y0, 0.05, 9), ('BesselY1', sp.bessel_y1, 0.05, 9),
        ('ModifiedBesselI0', sp.modified_bessel_i0, -5, 5),
        ('ModifiedBesselI1', sp.modified_bessel_i1, -5, 5),
        ('ModifiedBesselK0', sp.modified_bessel_k0, 0.05, 9),
        ('ModifiedBesselK1', sp.modified_bessel_k1, 0.05, 9),
        ('ScaledModifiedBesselK0', sp.scaled_modified_bessel_k0, 0.05, 9),
        ('ScaledModifiedBesselK1', sp.scaled_modified_bessel_k1, 0.05, 9),
        ('SphericalBesselJ0', sp.spherical_bessel_j0, -9, 9), ('Ndtr', sp.ndtr, -5, 5),
        ('Ndtri', sp.ndtri, 0.01, 0.99), ('Erfinv', sp.erfinv, -0.99, 0.99),
        ('Erfcx', sp.erfcx, -2, 9)]:
    cases[name] = ([u(lo, hi)], ts(f))
def ts2(f):
    return lambda a, b: f(*[torch.from_numpy(v.astype(np.float64)) for v in (a, b)]).numpy()
ga = 10 ** u(-2, 2.5)
gx = (ga * 2 ** u(-2, 2)).astype(np.float32)
cases['Igamma'] = ([ga, gx], ts2(sp.gammainc))
cases['Igammac'] = ([ga, gx], ts2(sp.gammaincc))
cases['Zeta'] = ([1 + 10 ** u(-2, 1), 10 ** u(-2, 2)], ts2(sp.zeta))
cases['AiryAi'] = ([u(-12, 6)], ts(sp.airy_ai))
for name, (ins, f) in cases.items():
    for k, a in enumerate(ins):
        np.save('%s_in%d.npy' % (name, k), a)
    with np.errstate(all='ignore'):
        r = f(*ins)
    if r.dtype == np.float64: r = r.astype(np.float32)
    np.save('%s_out.npy' % name, r)
)";

constexpr DType I32 = DType::kInt32;
constexpr DType B = DType::kBool;
const MathCase kCases[] = {
    {"Sin", 1, F32, F32, ""},
    {"Cos", 1, F32, F32, ""},
    {"Tan", 1, F32, F32, ""},
    {"Asin", 1, F32, F32, ""},
    {"Acos", 1, F32, F32, ""},
    {"Atan", 1, F32, F32, ""},
    {"Sinh", 1, F32, F32, ""},
    {"Cosh", 1, F32, F32, ""},
    {"Asinh", 1, F32, F32, ""},
    {"Acosh", 1, F32, F32, ""},
    {"Atanh", 1, F32, F32, ""},
    {"Erfc", 1, F32, F32, ""},
    {"Lgamma", 1, F32, F32, ""},
    {"Digamma", 1, F32, F32, ""},
    {"Floor", 1, F32, F32, ""},
    {"Ceil", 1, F32, F32, ""},
    {"Trunc", 1, F32, F32, ""},
    {"Round", 1, F32, F32, ""},
    {"Log2", 1, F32, F32, ""},
    {"Log10", 1, F32, F32, ""},
    {"Square", 1, F32, F32, ""},
    {"Exp2", 1, F32, F32, ""},
    {"Expm", 1, F32, F32, ""},
    {"Log1p", 1, F32, F32, ""},
    {"Gelu", 1, F32, F32, ""},
    {"LeakyRelu", 1, F32, F32, "negative_slope=0.2"},
    {"Nop", 1, F32, F32, ""},
    {"Ub2ub", 1, F32, F32, ""},
    {"RoundToInt", 1, F32, I32, ""},
    {"TruncToInt", 1, F32, I32, ""},
    {"FloorToInt", 1, F32, I32, ""},
    {"Ceil2Int", 1, F32, I32, ""},
    {"IsFinite", 1, F32, B, ""},
    {"IsInf", 1, F32, B, ""},
    {"Isnan", 1, F32, B, ""},
    {"Fmod", 2, F32, F32, ""},
    {"Remainder", 2, F32, F32, ""},
    {"Mod", 2, F32, F32, ""},
    {"FloorDiv", 2, F32, F32, ""},
    {"TruncDiv", 2, F32, F32, ""},
    {"Hypot", 2, F32, F32, ""},
    {"Atan2", 2, F32, F32, ""},
    {"CopySign", 2, F32, F32, ""},
    {"SignBit", 1, F32, B, ""},
    {"Axpy", 2, F32, F32, "alpha=1.5"},
    {"BitwiseAnd", 2, I32, I32, ""},
    {"BitwiseOr", 2, I32, I32, ""},
    {"BitwiseXor", 2, I32, I32, ""},
    {"BitwiseNot", 1, I32, I32, ""},
    {"LogicalXor", 2, B, B, ""},
    {"ClipByValue", 3, F32, F32, ""},
    {"Fma", 3, F32, F32, ""},
    {"MaskedFill", 3, F32, F32, ""},
    {"BesselJ0", 1, F32, F32, ""},
    {"BesselJ1", 1, F32, F32, ""},
    {"BesselY0", 1, F32, F32, ""},
    {"BesselY1", 1, F32, F32, ""},
    {"ModifiedBesselI0", 1, F32, F32, ""},
    {"ModifiedBesselI1", 1, F32, F32, ""},
    {"ModifiedBesselK0", 1, F32, F32, ""},
    {"ModifiedBesselK1", 1, F32, F32, ""},
    {"ScaledModifiedBesselK0", 1, F32, F32, ""},
    {"ScaledModifiedBesselK1", 1, F32, F32, ""},
    {"SphericalBesselJ0", 1, F32, F32, ""},
    {"Ndtr", 1, F32, F32, ""},
    {"Ndtri", 1, F32, F32, ""},
    {"Erfinv", 1, F32, F32, ""},
    {"Erfcx", 1, F32, F32, ""},
    {"Igamma", 2, F32, F32, ""},
    {"Igammac", 2, F32, F32, ""},
    {"Zeta", 2, F32, F32, ""},
    {"AiryAi", 1, F32, F32, ""},
};

ir::Graph MathGraph(const MathCase& mc) {
  GraphBuilder b(std::string("math_") + mc.op, 2);
  std::vector<int> loads;
  for (int k = 0; k < mc.arity; ++k) {
    const DType dt = std::string(mc.op) == "MaskedFill" && k == 1 ? B : mc.in;
    const int d = b.Data("x" + std::to_string(k), k, dt, kRep, kStr);
    loads.push_back(b.Add("Load", "l" + std::to_string(k), {d}, dt, kRep, kStr));
  }
  const int op = b.Add(mc.op, "op", loads, mc.out, kRep, kStr);
  const std::string attr = mc.attr;
  if (!attr.empty()) {
    const auto eq = attr.find('=');
    b.node(op).attrs[attr.substr(0, eq)] = std::stod(attr.substr(eq + 1));
  }
  const int st = b.Add("Store", "st", {op}, mc.out, kRep, kStr);
  b.Output("y", 0, st, mc.out, kRep, kStr);
  return b.graph();
}

TEST(InterpMath, EveryOpAgainstNumpy) {
  const auto dir = test::TempDir("np_math");
  ASSERT_EQ(test::RunNumpy(dir, std::string("import torch\n") + kScript), "");
  for (const auto& mc : kCases) {
    SCOPED_TRACE(mc.op);
    std::vector<data::HostArray> ins;
    for (int k = 0; k < mc.arity; ++k) {
      ins.push_back(data::ReadNpy(
          (dir / (std::string(mc.op) + "_in" + std::to_string(k) + ".npy")).string()));
    }
    const auto out = Interpret(MathGraph(mc), {{"s0", 5}, {"s1", 9}}, ins);
    const auto want = data::ReadNpy((dir / (std::string(mc.op) + "_out.npy")).string());
    const data::CompareResult r = data::CompareArrays(want, out[0], 1e-5, 1e-5);
    EXPECT_TRUE(r.ok) << r.message;
  }
}

// Atan2, CopySign and SignBit on every pair of signed zeros, infinities and NaNs (both signs),
// against PyTorch: values, NaN positions and the sign of every zero (and of CopySign's NaNs).
constexpr const char* kSignScript = R"(
e = np.array([0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, -np.nan, 3e-3], np.float32)
a = np.repeat(e, 9).reshape(9, 9)
b = np.tile(e, 9).reshape(9, 9)
ta, tb = torch.from_numpy(a), torch.from_numpy(b)
np.save('a.npy', a); np.save('b.npy', b)
np.save('Atan2.npy', torch.atan2(tb, ta).numpy())
np.save('CopySign.npy', torch.copysign(ta, tb).numpy())
np.save('SignBit.npy', torch.signbit(ta).numpy())
)";

TEST(InterpMath, SignOpsSignedZerosAndNan) {
  const auto dir = test::TempDir("np_math_sign");
  ASSERT_EQ(test::RunNumpy(dir, std::string("import torch\n") + kSignScript), "");
  const data::HostArray a = data::ReadNpy((dir / "a.npy").string());
  const data::HostArray b = data::ReadNpy((dir / "b.npy").string());
  for (const MathCase& mc :
       {MathCase{"Atan2", 2, F32, F32, ""}, MathCase{"CopySign", 2, F32, F32, ""},
        MathCase{"SignBit", 1, F32, B, ""}}) {
    SCOPED_TRACE(mc.op);
    std::vector<data::HostArray> ins = {a};
    if (mc.arity == 2) ins.push_back(b);
    const auto out = Interpret(MathGraph(mc), {{"s0", 9}, {"s1", 9}}, ins);
    const auto want = data::ReadNpy((dir / (std::string(mc.op) + ".npy")).string());
    ASSERT_EQ(out[0].numel(), 81);
    for (std::int64_t k = 0; k < 81; ++k) {
      const double w = want.GetAsDouble(k);
      const double g = out[0].GetAsDouble(k);
      EXPECT_EQ(std::isnan(w), std::isnan(g)) << k;
      if (std::isinf(w) || w == 0) {
        EXPECT_EQ(w, g) << k;
      } else if (!std::isnan(w)) {  // PyTorch's float atan2 may be an ulp off ours
        EXPECT_NEAR(w, g, 1e-6 * std::fabs(w)) << k;
      }
      // Zeros and CopySign's NaNs carry their sign; Atan2's NaN sign is unspecified.
      if (w == 0 || std::string(mc.op) == "CopySign") {
        EXPECT_EQ(std::signbit(w), std::signbit(g)) << k << ": " << w << " vs " << g;
      }
    }
  }
}

// The incomplete gamma, zeta and Airy functions at their special values and in the regimes the
// random draw above misses (tiny and huge a, negative q, the Airy zeros), in double, against
// PyTorch 1.13's float64 values:
//   torch.special.gammainc / gammaincc(a, x), torch.special.zeta(x, q), torch.special.airy_ai(x)
// with a = [0, 0, -1, 1, inf, 1, inf, 0.5, 2, 1e-3, 3e5, 3e5, 1e-6, 25, -0.0],
//      x = [1, 0, 1, -1, 1, inf, inf, 0.3, 3, 2.5, 3e5, 3.02e5, 0.5, 20, 2],
// (x, q) = (2, 1), (1, 1), (0.5, 1), (1.5, 2), (3, -1.5), (2, 0), (2, -2), (2, -2.5), (inf, 1),
//          (inf, 0.5), (inf, 2), (2, inf), (4.5, 0.25), (1.0001, 1), (30, 1.5),
// Ai at 0, inf, -inf, nan, -100, 100, -2.338107410459767 (the first zero), 1, -1, 3.5, -7.25,
// 0.5; to 1e-10 relative. Where PyTorch is further off than that (gammainc(25, 20):
// 0.15677262160714048, gammaincc(1e-6, 0.5): 5.597738882031205e-07, Ai(-2.338107410459767):
// 6.6e-7; mpmath: 2.7e-17, checked to 1e-15 below) the expected value is mpmath's (30 digits),
// marked.
struct SpecialCase {
  const char* op;
  double in0, in1, want;
};
constexpr double kInf = HUGE_VAL;
const double kNan = std::nan("");
const SpecialCase kSpecialCases[] = {
    {"Igamma", 0, 1, 1.0},
    {"Igamma", 0, 0, kNan},
    {"Igamma", -1, 1, kNan},
    {"Igamma", 1, -1, kNan},
    {"Igamma", kInf, 1, 0.0},
    {"Igamma", 1, kInf, 1.0},
    {"Igamma", kInf, kInf, kNan},
    {"Igamma", 0.5, 0.3, 0.5614219739190003},
    {"Igamma", 2, 3, 0.8008517265285442},
    {"Igamma", 1e-3, 2.5, 0.9999750416033543},
    {"Igamma", 3e5, 3e5, 0.5002427885412495},
    {"Igamma", 3e5, 3.02e5, 0.9998657879667243},
    {"Igamma", 1e-6, 0.5, 0.9999994402261128},
    {"Igamma", 25, 20, 0.156772621826237726},  // mpmath
    {"Igamma", -0.0, 2, 1.0},
    {"Igammac", 0, 1, 0.0},
    {"Igammac", 0, 0, kNan},
    {"Igammac", -1, 1, kNan},
    {"Igammac", 1, -1, kNan},
    {"Igammac", kInf, 1, 1.0},
    {"Igammac", 1, kInf, 0.0},
    {"Igammac", kInf, kInf, kNan},
    {"Igammac", 0.5, 0.3, 0.4385780260809997},
    {"Igammac", 2, 3, 0.1991482734714558},
    {"Igammac", 1e-3, 2.5, 2.49583966457872e-05},
    {"Igammac", 3e5, 3e5, 0.49975721145875046},
    {"Igammac", 3e5, 3.02e5, 0.0001342120332756874},
    {"Igammac", 1e-6, 0.5, 5.59773888155634534e-07},  // mpmath
    {"Igammac", 25, 20, 0.843227378173762274},        // mpmath
    {"Igammac", -0.0, 2, 0.0},
    {"Zeta", 2, 1, 1.6449340668482266},
    {"Zeta", 1, 1, kInf},
    {"Zeta", 0.5, 1, kNan},
    {"Zeta", 1.5, 2, 1.6123753486854886},
    {"Zeta", 3, -1.5, 0.11810202582086413},
    {"Zeta", 2, 0, kInf},
    {"Zeta", 2, -2, kInf},
    {"Zeta", 2, -2.5, 9.539246644989124},
    {"Zeta", kInf, 1, 1.0},
    {"Zeta", kInf, 0.5, kInf},
    {"Zeta", kInf, 2, kNan},
    {"Zeta", 2, kInf, kNan},
    {"Zeta", 4.5, 0.25, 512.4000175661097},
    {"Zeta", 1.0001, 1, 10000.57722294754},
    {"Zeta", 30, 1.5, 5.215096203815733e-06},
    {"AiryAi", 0, 0, 0.3550280538878172},
    {"AiryAi", kInf, 0, kNan},
    {"AiryAi", -kInf, 0, kNan},
    {"AiryAi", kNan, 0, kNan},
    {"AiryAi", -100, 0, 0.1767533932395512},
    {"AiryAi", 100, 0, 2.6344821520882847e-291},
    {"AiryAi", 1, 0, 0.13529241631288144},
    {"AiryAi", -1, 0, 0.5355608832923521},
    {"AiryAi", 3.5, 0, 0.0025840987869896357},
    {"AiryAi", -7.25, 0, 0.3237405732111861},
    {"AiryAi", 0.5, 0, 0.23169360648083345},
};

double SpecialValue(const SpecialCase& sc) {
  namespace sp = af_cpu::special;
  const std::string op = sc.op;
  if (op == "Igamma") return sp::Igamma(sc.in0, sc.in1);
  if (op == "Igammac") return sp::Igammac(sc.in0, sc.in1);
  if (op == "Zeta") return sp::Zeta(sc.in0, sc.in1);
  return sp::AiryAi(sc.in0);
}

TEST(InterpMath, SpecialFunctionsAtEdgesAgainstTorch) {
  // In double (af_cpu/special_math.h, what the interpreter's Igamma / Igammac / Zeta / AiryAi
  // compute before rounding), so the values are checked to 1e-12, not to float32's rounding.
  for (const SpecialCase& sc : kSpecialCases) {
    const double g = SpecialValue(sc);
    SCOPED_TRACE(std::string(sc.op) + "(" + std::to_string(sc.in0) + ", " + std::to_string(sc.in1) +
                 ") = " + std::to_string(g));
    if (std::isnan(sc.want) || std::isinf(sc.want)) {
      EXPECT_EQ(std::isnan(sc.want), std::isnan(g));
      if (std::isinf(sc.want)) {
        EXPECT_EQ(sc.want, g);
      }
    } else {
      EXPECT_NEAR(sc.want, g, 1e-10 * std::fabs(sc.want) + 1e-300);
    }
  }
  EXPECT_NEAR(af_cpu::special::AiryAi(-2.338107410459767), 0.0, 1e-15);
}

// The orthogonal polynomials of af_cpu/special_math.h (behind AutoFuse's
// ShiftedChebyshevPolynomialT/U/V/W, LaguerrePolynomialL and LegendrePolynomialP) in double against
// PyTorch's float64 torch.special functions: degrees from -2 to 100 incl. non-integer, NaN and inf
// ones (PyTorch truncates n to int64; NaN and inf give 0), x inside and outside the orthogonality
// interval, +-inf and NaN.
constexpr const char* kPolyScript = R"(
import torch
rng = np.random.default_rng(7)
x = np.concatenate([rng.uniform(-0.2, 1.2, 400), rng.uniform(-3, 3, 100),
                    [0, 1, -1, .5, .25, .75, np.inf, -np.inf, np.nan, 2, -3, 0, 1]])
x = x.astype(np.float32).astype(np.float64)
n = np.concatenate([rng.integers(-2, 40, 400).astype(float), rng.uniform(-2, 12, 100),
                    [7, 7, 7, 100, 3, 0, 7, 2, 0, np.nan, np.inf, -0.5, 2.9]])
sp = torch.special
fs = {'T': sp.shifted_chebyshev_polynomial_t, 'U': sp.shifted_chebyshev_polynomial_u,
      'V': sp.shifted_chebyshev_polynomial_v, 'W': sp.shifted_chebyshev_polynomial_w,
      'L': sp.laguerre_polynomial_l, 'P': sp.legendre_polynomial_p}
with open('poly.txt', 'w') as f:
    for k, fn in fs.items():
        r = fn(torch.from_numpy(x), torch.from_numpy(n)).numpy()
        for a, b, v in zip(x, n, r):
            f.write('%s %r %r %r\n' % (k, a, b, v))
)";

TEST(InterpMath, OrthogonalPolynomialsAgainstTorch) {
  const auto dir = test::TempDir("np_math_poly");
  ASSERT_EQ(test::RunNumpy(dir, kPolyScript), "");
  std::ifstream in(dir / "poly.txt");
  std::string kind;
  std::string xs;
  std::string ns;
  std::string ws;
  int count = 0;
  while (in >> kind >> xs >> ns >> ws) {
    const double x = std::strtod(xs.c_str(), nullptr);
    const double n = std::strtod(ns.c_str(), nullptr);
    const double w = std::strtod(ws.c_str(), nullptr);
    namespace sp = af_cpu::special;
    const double g = kind == "L"   ? sp::Laguerre(x, n)
                     : kind == "P" ? sp::Legendre(x, n)
                                   : sp::ShiftedChebyshev(kind[0], x, n);
    ++count;
    if (std::isnan(w) || std::isinf(w)) {
      EXPECT_EQ(std::isnan(w), std::isnan(g)) << kind << "(" << x << ", " << n << ") = " << g;
      if (std::isinf(w)) {
        EXPECT_EQ(w, g) << kind << "(" << x << ", " << n << ")";
      }
    } else {
      EXPECT_NEAR(w, g, 1e-9 * std::max(std::fabs(w), 1.0)) << kind << "(" << x << ", " << n << ")";
    }
  }
  EXPECT_EQ(count, 6 * 513);
}

// The six orthogonal-polynomial ops through the interpreter (the degree as the node's int64
// attr `n`), fp32, against PyTorch 1.13's float64 values rounded to float32:
//   xs = torch.tensor([-1.5, -1, -0.25, 0, 0.3, 0.5, 1, 1.75, 3], dtype=torch.float64)
//   torch.special.shifted_chebyshev_polynomial_t(xs, n)  (and _u, _v, _w, laguerre_polynomial_l,
//   legendre_polynomial_p) for n in (0, 1, 2, 7, 30, -2)
// x at the interval's ends (0 and 1 for the shifted Chebyshev ones, -1 and 1 for Legendre), inside
// and outside it; degree 7 takes the trigonometric form inside the interval, a negative degree
// gives 0.
struct PolyCase {
  const char* op;
  std::int64_t n;
  float want[9];
};
const PolyCase kPolyCases[] = {
    {"ShiftedChebyshevPolynomialT", 0, {1, 1, 1, 1, 1, 1, 1, 1, 1}},
    {"ShiftedChebyshevPolynomialT", 1, {-4, -3, -1.5, -1, -0.399999976, 0, 1, 2.5, 5}},
    {"ShiftedChebyshevPolynomialT", 2, {31, 17, 3.5, 1, -0.680000067, -1, 1, 11.5, 49}},
    {"ShiftedChebyshevPolynomialT",
     7,
     {-937444, -114243, -421.5, -1, 0.258022577, -4.28626385e-16, 1, 28982.5, 4656965}},
    {"ShiftedChebyshevPolynomialT",
     30,
     {3.8295699e+26, 4.62925501e+22, 1.73072646e+12, 1, -0.975708067, -1, 1, 1.29579979e+20,
      3.68708132e+29}},
    {"ShiftedChebyshevPolynomialT", -2, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"ShiftedChebyshevPolynomialU", 0, {1, 1, 1, 1, 1, 1, 1, 1, 1}},
    {"ShiftedChebyshevPolynomialU", 1, {-8, -6, -3, -2, -0.799999952, 0, 2, 5, 10}},
    {"ShiftedChebyshevPolynomialU", 2, {63, 35, 8, 3, -0.360000074, -1, 3, 24, 99}},
    {"ShiftedChebyshevPolynomialU",
     7,
     {-1905632, -235416, -987, -8, -0.163634971, -4.89858741e-16, 8, 60605, 9409960}},
    {"ShiftedChebyshevPolynomialU",
     30,
     {7.7847326e+26, 9.53932207e+22, 4.05273942e+12, 31, -1.07132006, -1, 31, 2.70963311e+20,
      7.4501935e+29}},
    {"ShiftedChebyshevPolynomialU", -2, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"ShiftedChebyshevPolynomialV", 0, {1, 1, 1, 1, 1, 1, 1, 1, 1}},
    {"ShiftedChebyshevPolynomialV", 1, {-9, -7, -4, -3, -1.79999995, -1, 1, 4, 9}},
    {"ShiftedChebyshevPolynomialV", 2, {71, 41, 11, 5, 0.439999878, -1, 1, 19, 89}},
    {"ShiftedChebyshevPolynomialV",
     7,
     {-2147679, -275807, -1364, -15, -1.21777892, 1, 1, 47956, 8459361}},
    {"ShiftedChebyshevPolynomialV",
     30,
     {8.7735231e+26, 1.11760103e+23, 5.6007485e+12, 61, -1.31035018, -1, 1, 2.14409975e+20,
      6.69757069e+29}},
    {"ShiftedChebyshevPolynomialV", -2, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"ShiftedChebyshevPolynomialW", 0, {1, 1, 1, 1, 1, 1, 1, 1, 1}},
    {"ShiftedChebyshevPolynomialW", 1, {-7, -5, -2, -1, 0.200000048, 1, 3, 6, 11}},
    {"ShiftedChebyshevPolynomialW", 2, {55, 29, 5, 1, -1.16000009, -1, 5, 29, 109}},
    {"ShiftedChebyshevPolynomialW",
     7,
     {-1663585, -195025, -610, -1, 0.89050895, -1, 15, 73254, 10360559}},
    {"ShiftedChebyshevPolynomialW",
     30,
     {6.79594211e+26, 7.9026329e+22, 2.50473087e+12, 1, -0.832290053, -1, 61, 3.27516648e+20,
      8.20281556e+29}},
    {"ShiftedChebyshevPolynomialW", -2, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"LaguerrePolynomialL", 0, {1, 1, 1, 1, 1, 1, 1, 1, 1}},
    {"LaguerrePolynomialL", 1, {2.5, 2, 1.25, 1, 0.699999988, 0.5, 0, -0.75, -2}},
    {"LaguerrePolynomialL", 2, {5.125, 3.5, 1.53125, 1, 0.444999993, 0.125, -0.5, -0.96875, -0.5}},
    {"LaguerrePolynomialL",
     7,
     {63.6383514, 25.9765873, 3.50326562, 1, -0.301105738, -0.518339217, -0.0404761918, 0.717787921,
      -0.746428549}},
    {"LaguerrePolynomialL",
     30,
     {39772.5938, 4677.646, 38.5152016, 1, 0.190093637, 0.27545923, -0.27361244, 0.174225822,
      0.684070289}},
    {"LaguerrePolynomialL", -2, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
    {"LegendrePolynomialP", 0, {1, 1, 1, 1, 1, 1, 1, 1, 1}},
    {"LegendrePolynomialP", 1, {-1.5, -1, -0.25, 0, 0.300000012, 0.5, 1, 1.75, 3}},
    {"LegendrePolynomialP", 2, {2.875, 1, -0.40625, -0.5, -0.36499998, -0.125, 1, 4.09375, 13}},
    {"LegendrePolynomialP",
     7,
     {-192.376465, -1, 0.279918671, -0, -0.224072963, 0.223144531, 1, 738.525146, 48639}},
    {"LegendrePolynomialP",
     30,
     {3.84761004e+11, 1, -0.0213843267, -0.144464448, 0.146655008, 0.149848819, 1, 1.35495858e+14,
      9.6426414e+21}},
    {"LegendrePolynomialP", -2, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
};

constexpr float kPolyX[9] = {-1.5F, -1.0F, -0.25F, 0.0F, 0.3F, 0.5F, 1.0F, 1.75F, 3.0F};

ir::Graph PolyGraph(const char* op, const ir::AttrValue& n) {
  GraphBuilder b(std::string("poly_") + op, 2);
  const int d = b.Data("x", 0, F32, kRep, kStr);
  const int l = b.Add("Load", "lx", {d}, F32, kRep, kStr);
  const int p = b.Add(op, "op", {l}, F32, kRep, kStr);
  b.node(p).attrs["n"] = n;
  const int st = b.Add("Store", "st", {p}, F32, kRep, kStr);
  b.Output("y", 0, st, F32, kRep, kStr);
  return b.graph();
}

TEST(InterpMath, OrthogonalPolynomialOpsAgainstTorch) {
  const data::HostArray x =
      data::FromDoubles(DType::kFloat32, {1, 9}, std::vector<double>(kPolyX, kPolyX + 9));
  for (const PolyCase& pc : kPolyCases) {
    SCOPED_TRACE(std::string(pc.op) + " n=" + std::to_string(pc.n));
    const auto out = Interpret(PolyGraph(pc.op, pc.n), {{"s0", 1}, {"s1", 9}}, {x});
    for (std::int64_t k = 0; k < 9; ++k) {
      const auto g = out[0].Get<float>(k);
      EXPECT_NEAR(pc.want[k], g, 1e-6 * std::max(1.0F, std::fabs(pc.want[k])))
          << "x=" << kPolyX[static_cast<std::size_t>(k)];
    }
  }
  // The degree as an integral double or string reads as that integer.
  const auto out =
      Interpret(PolyGraph("LegendrePolynomialP", std::string("2")), {{"s0", 1}, {"s1", 9}}, {x});
  EXPECT_FLOAT_EQ(out[0].Get<float>(8), 13.0F);  // P2(3) = (3 * 9 - 1) / 2
}

TEST(InterpMath, OrthogonalPolynomialDegreeMustBeAnInteger) {
  for (const ir::AttrValue& bad :
       {ir::AttrValue(2.5), ir::AttrValue(std::string("two")), ir::AttrValue(true)}) {
    const auto diags = ir::Validate(PolyGraph("ShiftedChebyshevPolynomialU", bad));
    ASSERT_TRUE(ir::HasErrors(diags));
    EXPECT_NE(ir::FormatDiagnostics(diags).find("attribute 'n' (the polynomial's degree) must be "
                                                "an integer"),
              std::string::npos)
        << ir::FormatDiagnostics(diags);
  }
  ir::Graph g = PolyGraph("LaguerrePolynomialL", std::int64_t{3});
  g.nodes[2].attrs.clear();
  EXPECT_NE(ir::FormatDiagnostics(ir::Validate(g)).find("missing attribute 'n'"),
            std::string::npos);
  // AscIR's form of Laguerre / Legendre, the degree as a second input, gets its own message.
  g.nodes[2].inputs.push_back(g.nodes[2].inputs[0]);
  EXPECT_NE(ir::FormatDiagnostics(ir::Validate(g)).find("has the degree as a second input"),
            std::string::npos)
      << ir::FormatDiagnostics(ir::Validate(g));
}

// LShift / RShift on every integer dtype they take: counts in [0, width) against PyTorch; counts
// at or past the width and negative ones against PyTorch's rule (>= 2.1, ATen's vec_base.h
// operator<< / operator>>: 0, or the sign fill for a right shift of a negative value); the
// rule is checked against PyTorch on the in-range rows too. The installed PyTorch may be older,
// where out-of-range counts are C undefined behaviour, so it is not asked about those. Xor
// (int16) against NumPy, SignBit on int32 against PyTorch.
constexpr const char* kBitsScript = R"(
rng = np.random.default_rng(7)
def rule(a, n, left):
    bits = a.dtype.itemsize * 8
    n = n.astype(np.int64)
    if a.dtype.kind == 'u':
        n = np.where(n >= 2 ** (bits - 1), n - 2 ** bits, n)
    ok = (n >= 0) & (n < bits)
    m = np.where(ok, n, 0).astype(a.dtype)
    if left:
        return np.where(ok, np.left_shift(a, m), 0).astype(a.dtype)
    return np.where(ok, np.right_shift(a, m), np.where(a < 0, -1, 0)).astype(a.dtype)
for dt in ['int8', 'int16', 'int32', 'int64', 'uint8']:
    info = np.iinfo(dt)
    w = info.bits
    a = rng.integers(info.min, info.max, (9, 9), endpoint=True).astype(dt)
    a[0, :4] = [info.min, info.max, 0, 1]
    a[5, :4] = [info.min, info.max, 0, 1]
    n = rng.integers(0, w, (9, 9)).astype(dt)
    n[0, :4] = [0, w - 1, w - 1, w - 1]
    signed = info.min < 0
    edge = [w, w + 1, min(100, info.max), info.max, 0, w - 1]
    edge += [-1, -w, info.min] if signed else [200, 255, 128]
    n[5:] = np.array(edge, np.int64).astype(dt)
    ta, tn = torch.from_numpy(a), torch.from_numpy(n)
    for op, left, tf in [('LShift', True, torch.bitwise_left_shift),
                         ('RShift', False, torch.bitwise_right_shift)]:
        want = rule(a, n, left)
        got = tf(ta, tn).numpy()
        assert (want[:5] == got[:5]).all(), (op, dt)
        want[:5] = got[:5]
        np.save('%s_%s.npy' % (op, dt), want)
    np.save('a_%s.npy' % dt, a); np.save('n_%s.npy' % dt, n)
x = rng.integers(-30000, 30000, (9, 9)).astype(np.int16)
y = rng.integers(-30000, 30000, (9, 9)).astype(np.int16)
np.save('xor_a.npy', x); np.save('xor_b.npy', y); np.save('Xor.npy', np.bitwise_xor(x, y))
s = rng.integers(-5, 5, (9, 9)).astype(np.int32)
s[0, :3] = [np.iinfo(np.int32).min, np.iinfo(np.int32).max, 0]
np.save('sb.npy', s); np.save('SignBit.npy', torch.signbit(torch.from_numpy(s)).numpy())
)";

TEST(InterpMath, ShiftsXorAndIntSignBit) {
  const auto dir = test::TempDir("np_math_bits");
  ASSERT_EQ(test::RunNumpy(dir, std::string("import torch\n") + kBitsScript), "");
  auto npy = [&](const std::string& name) { return data::ReadNpy((dir / name).string()); };
  auto expect_equal = [](const data::HostArray& want, const data::HostArray& got) {
    ASSERT_EQ(want.numel(), got.numel());
    for (std::int64_t k = 0; k < want.numel(); ++k)
      EXPECT_EQ(want.GetAsDouble(k), got.GetAsDouble(k)) << "element " << k;
  };
  const std::pair<const char*, DType> dtypes[] = {{"int8", DType::kInt8},
                                                  {"int16", DType::kInt16},
                                                  {"int32", DType::kInt32},
                                                  {"int64", DType::kInt64},
                                                  {"uint8", DType::kUInt8}};
  for (const auto& [name, dt] : dtypes) {
    for (const char* op : {"LShift", "RShift"}) {
      SCOPED_TRACE(std::string(op) + " " + name);
      const auto out = Interpret(
          MathGraph(MathCase{op, 2, dt, dt, ""}), {{"s0", 9}, {"s1", 9}},
          {npy(std::string("a_") + name + ".npy"), npy(std::string("n_") + name + ".npy")});
      expect_equal(npy(std::string(op) + "_" + name + ".npy"), out[0]);
    }
  }
  const DType i16 = DType::kInt16;
  expect_equal(npy("Xor.npy"),
               Interpret(MathGraph(MathCase{"Xor", 2, i16, i16, ""}), {{"s0", 9}, {"s1", 9}},
                         {npy("xor_a.npy"), npy("xor_b.npy")})[0]);
  expect_equal(npy("SignBit.npy"), Interpret(MathGraph(MathCase{"SignBit", 1, I32, B, ""}),
                                             {{"s0", 9}, {"s1", 9}}, {npy("sb.npy")})[0]);
}

TEST(InterpMath, ArgMaxFirstMaximumAndNan) {
  // x[3, 4] reduced over dim 1: ties keep the first index, a NaN is the maximum.
  GraphBuilder b("argmax", 2);
  const int x = b.Data("x", 0, F32, kRep, kStr);
  const int lx = b.Add("Load", "lx", {x}, F32, kRep, kStr);
  const int am = b.Add("ArgMax", "am", {lx}, DType::kInt64, "s0, 1", "1, 0");
  const int st = b.Add("Store", "st", {am}, DType::kInt64, "s0, 1", "1, 0");
  b.Output("y", 0, st, DType::kInt64, "s0, 1", "1, 0");
  const double nan = std::nan("");
  const data::HostArray in =
      data::FromDoubles(F32, {3, 4}, {1, 5, 5, 2, -1, -3, -1, -2, 0, nan, 7, nan});
  const auto out = Interpret(b.graph(), {{"s0", 3}, {"s1", 4}}, {in});
  ASSERT_EQ(out[0].numel(), 3);
  EXPECT_EQ(out[0].GetAsInt(0), 1);
  EXPECT_EQ(out[0].GetAsInt(1), 0);
  EXPECT_EQ(out[0].GetAsInt(2), 1);
}

}  // namespace
}  // namespace af::interp
