# Writes the math-set test graphs of tests/e2e/graphs (issue 22) in the readable text form:
#   python3 tests/e2e/tools/make_math_graphs.py tests/e2e/graphs
# Each graph is 2-D [s0, s1]; several ops feed one output through Adds so one kernel runs many.
import os
import sys

HEAD = "# {comment}\nGraph: {name}\n  type: hint\nSizes:\n  s0: VAR\n  s1: VAR\nAxis:\n" \
       "  z0(0) : ORIGINAL, size:s0\n  z1(1) : ORIGINAL, size:s1\nNodes:\n"
VIEW = "axis={z0, z1} repeats=(s0, s1) strides=(s1, 1)"


class G:
    def __init__(self, name, comment):
        self.name, self.comment, self.lines, self.n = name, comment, [], 0

    def node(self, name, op, ins=(), dtype="fp32", attrs=None):
        args = "(" + ", ".join(i + ".y0" for i in ins) + ")" if ins else ""
        self.lines.append("  [%d] %s : %s%s" % (self.n, name, op, args))
        for k, v in (attrs or {}).items():
            self.lines.append("    .attr.%s = %s" % (k, v))
        if op not in ("Data", "Output"):
            self.lines.append("    .axis = {z0, z1}")
            self.lines.append("    .loop_axis = z1")
        self.lines.append("    .y0 : %s %s" % (dtype, VIEW))
        self.n += 1
        return name

    def data(self, name, index, dtype="fp32"):
        self.node(name, "Data", dtype=dtype, attrs={"index": index})
        return self.node("l" + name, "Load", [name], dtype)

    def out(self, name, index, value, dtype="fp32"):
        st = self.node("st_" + name, "Store", [value], dtype)
        self.node(name, "Output", [st], dtype, {"index": index})

    def sum(self, tag, terms, dtype="fp32"):
        acc = terms[0]
        for k, t in enumerate(terms[1:]):
            acc = self.node("%s_add%d" % (tag, k), "Add", [acc, t], dtype)
        return acc

    def text(self):
        return HEAD.format(comment=self.comment, name=self.name) + "\n".join(self.lines) + "\n"


def unary():
    g = G("math_unary", "The 950 math set's unary ops and Gelu/LeakyRelu, fp32: out0 = sum of 21 ops "
          "of x in (-0.9, 0.9), out1 = lgamma + digamma + log2 + log10 + acosh of y in (1, 3), "
          "out2 = AutoFuse's api_regbase special functions of z in (0.05, 0.95) summed (Bessel "
          "family, Ndtr, Ndtri, Erfinv, Erfcx)")
    x = g.data("x", 0)
    y = g.data("y", 1)
    ops = ["Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Atanh", "Erfc",
           "Floor", "Ceil", "Round", "Trunc", "Square", "Exp2", "Expm", "Log1p", "Gelu"]
    terms = [g.node("u_" + op.lower(), op, [x]) for op in ops]
    terms.append(g.node("u_leaky", "LeakyRelu", [x], attrs={"negative_slope": "0.2"}))
    g.out("out0", 0, g.sum("s0", terms))
    terms = [g.node("v_" + op.lower(), op, [y])
             for op in ["Lgamma", "Digamma", "Log2", "Log10", "Acosh"]]
    g.out("out1", 1, g.sum("s1", terms))
    z = g.data("z", 2)
    ops = ["BesselJ0", "BesselJ1", "BesselY0", "BesselY1", "ModifiedBesselI0", "ModifiedBesselI1",
           "ModifiedBesselK0", "ModifiedBesselK1", "ScaledModifiedBesselK0",
           "ScaledModifiedBesselK1", "SphericalBesselJ0", "Ndtr", "Ndtri", "Erfinv", "Erfcx"]
    g.out("out2", 2, g.sum("s2", [g.node("f_" + op.lower(), op, [z]) for op in ops]))
    return g


def binary():
    g = G("math_binary", "Binary/ternary math ops, fp32 a, b (a / b never near an integer), c, "
          "mask m and d with inf/nan: out0 = sum of 10 ops, out1 = (IsInf(d) xor IsFinite(d)) "
          "or (Isnan(d) and not IsFinite(d)), out2 = the four *ToInt casts of a summed (int32), "
          "out3 = (x & y | y) ^ ~x of int32 x, y")
    a = g.data("a", 0)
    b = g.data("b", 1)
    c = g.data("c", 2)
    m = g.data("m", 3, "bool")
    d = g.data("d", 4)
    terms = [g.node("b_" + op.lower(), op, [a, b])
             for op in ["Fmod", "Remainder", "Mod", "FloorDiv", "TruncDiv", "Hypot"]]
    terms.append(g.node("b_axpy", "Axpy", [a, b], attrs={"alpha": "1.5"}))
    terms.append(g.node("b_clip", "ClipByValue", [a, b, c]))
    terms.append(g.node("b_fma", "Fma", [a, b, c]))
    terms.append(g.node("b_fill", "MaskedFill", [a, m, c]))
    g.out("out0", 0, g.sum("s0", terms))
    inf = g.node("p_isinf", "IsInf", [d], "bool")
    fin = g.node("p_isfinite", "IsFinite", [d], "bool")
    nan = g.node("p_isnan", "Isnan", [d], "bool")
    x1 = g.node("p_xor", "LogicalXor", [inf, fin], "bool")
    nf = g.node("p_not", "LogicalNot", [fin], "bool")
    an = g.node("p_and", "LogicalAnd", [nan, nf], "bool")
    g.out("out1", 1, g.node("p_or", "LogicalOr", [x1, an], "bool"), "bool")
    terms = [g.node("i_" + op.lower(), op, [a], "int32")
             for op in ["RoundToInt", "TruncToInt", "FloorToInt", "Ceil2Int"]]
    g.out("out2", 2, g.sum("s2", terms, "int32"), "int32")
    x = g.data("x", 5, "int32")
    y = g.data("y", 6, "int32")
    a = g.node("w_and", "BitwiseAnd", [x, y], "int32")
    o = g.node("w_or", "BitwiseOr", [a, y], "int32")
    n = g.node("w_not", "BitwiseNot", [x], "int32")
    g.out("out3", 3, g.node("w_xor", "BitwiseXor", [o, n], "int32"), "int32")
    return g


def sign():
    g = G("math_sign", "Atan2, CopySign and SignBit (AutoFuse's api_regbase ops) over a, b holding "
          "signed zeros, +-inf and nan: out0 = Atan2(a, b) + CopySign(a, b) (fp32), out1 = "
          "SignBit(a) (bool), out2 = CopySign(Atan2(c, d), d) of fp16 c, d")
    a = g.data("a", 0)
    b = g.data("b", 1)
    t = g.node("g_atan2", "Atan2", [a, b])
    s = g.node("g_copysign", "CopySign", [a, b])
    g.out("out0", 0, g.node("g_add", "Add", [t, s]))
    g.out("out1", 1, g.node("g_signbit", "SignBit", [a], "bool"), "bool")
    c = g.data("c", 2, "fp16")
    d = g.data("d", 3, "fp16")
    h = g.node("h_atan2", "Atan2", [c, d], "fp16")
    g.out("out2", 2, g.node("h_copysign", "CopySign", [h, d], "fp16"), "fp16")
    return g


def special2():
    g = G("math_special2", "AutoFuse's api_regbase incomplete gamma, zeta and Airy functions, fp32: "
          "out0 = Igamma(a, x), out1 = Igammac(a, x) of a in (0.05, 20), x in (0, 30) with zeros "
          "and a = 0 sprinkled in, out2 = Zeta(s, q) of s in (1.1, 8), q in (0.1, 10), out3 = "
          "AiryAi(w) of w in (-10, 5)")
    a = g.data("a", 0)
    x = g.data("x", 1)
    g.out("out0", 0, g.node("g_igamma", "Igamma", [a, x]))
    g.out("out1", 1, g.node("g_igammac", "Igammac", [a, x]))
    s = g.data("s", 2)
    q = g.data("q", 3)
    g.out("out2", 2, g.node("g_zeta", "Zeta", [s, q]))
    w = g.data("w", 4)
    g.out("out3", 3, g.node("g_airy", "AiryAi", [w]))
    return g


def bits():
    g = G("math_bits", "LShift, RShift, Xor and SignBit on integers, counts n, m, q, k holding "
          "in-range, width-or-more and negative counts: out0 = LShift(x, n), out1 = RShift(x, n) "
          "(int32), out2 = Xor(LShift(u, m), RShift(u, m)) (uint8), out3 = the same of int8 p, q, "
          "out4 = the same of int64 w, k, out5 = SignBit(x) (bool)")
    x = g.data("x", 0, "int32")
    n = g.data("n", 1, "int32")
    g.out("out0", 0, g.node("i_lshift", "LShift", [x, n], "int32"), "int32")
    g.out("out1", 1, g.node("i_rshift", "RShift", [x, n], "int32"), "int32")
    for k, (tag, dt) in enumerate([("u", "uint8"), ("p", "int8"), ("w", "int64")]):
        v = g.data(tag + "v", 2 + 2 * k, dt)
        c = g.data(tag + "c", 3 + 2 * k, dt)
        left = g.node(tag + "_lshift", "LShift", [v, c], dt)
        right = g.node(tag + "_rshift", "RShift", [v, c], dt)
        g.out("out%d" % (2 + k), 2 + k, g.node(tag + "_xor", "Xor", [left, right], dt), dt)
    g.out("out5", 5, g.node("i_signbit", "SignBit", [x], "bool"), "bool")
    return g


out = sys.argv[1]
def poly():
    g = G("math_poly", "AutoFuse's api_regbase orthogonal polynomials, fp32, the degree as attr n: "
          "out0..out3 = ShiftedChebyshevPolynomialT/U/V/W(x) of degrees 3, 7, 2, 30 with x in "
          "(-0.2, 1.2) (0 and 1 sprinkled in), out4 = LaguerrePolynomialL(z, 5) of z in (-1, 8), "
          "out5 = LegendrePolynomialP(w, 30) of w in (-1.1, 1.1) (+-1 sprinkled in), out6 = "
          "LegendrePolynomialP(w, -1) + LaguerrePolynomialL(z, 1) (= 0 + 1 - z)")
    x = g.data("x", 0)
    z = g.data("z", 1)
    w = g.data("w", 2)
    for k, (kind, n) in enumerate([("T", 3), ("U", 7), ("V", 2), ("W", 30)]):
        op = "ShiftedChebyshevPolynomial" + kind
        g.out("out%d" % k, k, g.node("c_" + kind.lower(), op, [x], attrs={"n": n}))
    g.out("out4", 4, g.node("l_5", "LaguerrePolynomialL", [z], attrs={"n": 5}))
    g.out("out5", 5, g.node("p_30", "LegendrePolynomialP", [w], attrs={"n": 30}))
    p = g.node("p_neg", "LegendrePolynomialP", [w], attrs={"n": -1})
    lag = g.node("l_1", "LaguerrePolynomialL", [z], attrs={"n": 1})
    g.out("out6", 6, g.node("s_add", "Add", [p, lag]))
    return g


for g in (unary(), binary(), sign(), special2(), bits(), poly()):
    with open(os.path.join(out, g.name + ".graph.txt"), "w") as f:
        f.write(g.text())
