// py_code_<graph>.py (see py_code.h): a fixed Python prelude (the pyautofuse import, or a numpy
// stand-in for its graph-building API plus an executor with the reference interpreter's
// semantics) followed by the graph written statement by statement in AutoFuse's form.
#include "autofuse/pipeline/py_code.h"

#include <cctype>
#include <set>
#include <sstream>

namespace af::pipeline {
namespace {

// The prelude. Bodies are indented so that readers of AutoFuse's scripts that take only
// top-level statements (our asc_graph.py reader) see the graph alone.
constexpr const char* kPrelude = R"PY(import math
import os
import sys
from fractions import Fraction

import numpy as np


def _pyautofuse():
    try:
        from autofuse.pyautofuse import ascir as real, Autofuser, AutofuserOptions
        return real, Autofuser, AutofuserOptions
    except ImportError:
        return _NumpyAscir(), None, None


def _sym_functions():
    return (max, min, lambda a, b: a % b, lambda a, b: a // b, lambda a, b: -((-a) // b),
            lambda a, b: a ** b, Fraction)


class _Out:
    """One output of a node: its view (dtype, axis, size, strides)."""

    def __init__(self, node, index):
        self.node, self.index = node, index
        self.dtype, self.axis, self.size, self.strides = None, [], [], []

    def __getitem__(self, k):
        return self.node.out(k)


class _Attr:
    def __init__(self):
        self.sched = type("sched", (), {})()
        self.sched.axis = []
        self.ir_attr = type("ir_attr", (), {})()


class _Node:
    def __init__(self, op, name, graph):
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "inputs", {})
        object.__setattr__(self, "attr", _Attr())
        object.__setattr__(self, "outs", [])
        graph.nodes.append(self)

    def out(self, k):
        while len(self.outs) <= k:
            self.outs.append(_Out(self, len(self.outs)))
        return self.outs[k]

    @property
    def y(self):
        return self.out(0)

    def __setattr__(self, port, value):
        self.inputs[port] = value

    def ports(self):
        def key(p):
            return int(p[1:] or 0)
        return [self.inputs[p] for p in sorted(self.inputs, key=key)]

    def ir(self, key, default=None):
        return getattr(self.attr.ir_attr, key, default)


class _HintGraph:
    last = None

    def __init__(self, name):
        self.name, self.nodes, self.sizes = name, [], {}
        _HintGraph.last = self

    def create_size(self, name):
        if name not in _BINDINGS:
            raise SystemExit("py_code: size %s is not bound: pass --bind %s=N" % (name, name))
        self.sizes[name] = _BINDINGS[name]
        return Fraction(_BINDINGS[name])

    def create_axis(self, name, size):
        return name


class _NumpyAscir:
    class dtypes:
        float32, float16, bfloat16, float64 = "float32", "float16", "bfloat16", "float64"
        int8, int16, int32, int64 = "int8", "int16", "int32", "int64"
        uint8, uint16, uint32, uint64, bool = "uint8", "uint16", "uint32", "uint64", "bool"

    HintGraph = _HintGraph

    class _Ops:
        def __getattr__(self, op):
            return lambda name, graph=None: _Node(op, name, graph or _HintGraph.last)

    ops = _Ops()


def _digamma(t):
    if t <= 0 and t == math.floor(t):
        return math.nan
    r = 0.0
    if t < 0.5:
        r, t = -math.pi / math.tan(math.pi * t), 1.0 - t
    while t < 6:
        r, t = r - 1.0 / t, t + 1.0
    f = 1.0 / (t * t)
    return r + math.log(t) - 0.5 / t - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (
        1 / 240 - f / 132))))


def _special(name):
    """AutoFuse's api_regbase special functions: torch.special (numpy has none)."""
    def f(x):
        try:
            import torch
        except ImportError:
            raise SystemExit("py_code: %s needs torch.special (numpy has no %s)" % (name, name))
        return getattr(torch.special, name)(torch.from_numpy(np.asarray(x, np.float64))).numpy()
    return f


def _special2(name):
    """The two-operand ones (gammainc, gammaincc, zeta), the same way."""
    def f(a, b):
        try:
            import torch
        except ImportError:
            raise SystemExit("py_code: %s needs torch.special (numpy has no %s)" % (name, name))
        t = [torch.from_numpy(np.asarray(v, np.float64)) for v in (a, b)]
        return getattr(torch.special, name)(*t).numpy()
    return f


def _vec(fn):
    return np.vectorize(fn, otypes=[np.float64])


def _shift(left):
    """PyTorch's bitwise shifts: a count (read as signed) outside [0, width) gives 0, or the sign
    fill for a right shift of a signed value."""
    def f(a, b):
        a = np.asarray(a)
        bits = a.dtype.itemsize * 8
        n = np.asarray(b).astype(a.dtype).astype(np.int64)
        if a.dtype.kind == "u":
            n = np.where(n >= 2 ** (bits - 1), n - 2 ** bits, n)
        ok = (n >= 0) & (n < bits)
        m = np.where(ok, n, 0).astype(a.dtype)
        if left:
            return np.where(ok, np.left_shift(a, m), 0).astype(a.dtype)
        return np.where(ok, np.right_shift(a, m), np.where(a < 0, -1, 0)).astype(a.dtype)
    return f



class _T:
    NP = {"float32": np.float32, "float16": np.float16, "bfloat16": np.float32,
          "float64": np.float64, "int8": np.int8, "int16": np.int16, "int32": np.int32,
          "int64": np.int64, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32,
          "uint64": np.uint64, "bool": np.bool_}
    UNARY = {
        "Abs": np.abs, "Neg": np.negative, "Exp": np.exp, "Ln": np.log, "Sqrt": np.sqrt,
        "Rsqrt": lambda x: 1.0 / np.sqrt(x), "Reciprocal": lambda x: 1.0 / x,
        "Relu": lambda x: np.maximum(x, 0), "Sigmoid": lambda x: 1.0 / (1.0 + np.exp(-x)),
        "Tanh": np.tanh, "Erf": np.vectorize(math.erf, otypes=[np.float64]), "Sign": np.sign,
        "LogicalNot": lambda x: x == 0,
        # the math set (issue 22; docs/ir.md "The math op set")
        "Sin": np.sin, "Cos": np.cos, "Tan": np.tan, "Asin": np.arcsin, "Acos": np.arccos,
        "Atan": np.arctan, "Sinh": np.sinh, "Cosh": np.cosh, "Asinh": np.arcsinh,
        "Acosh": np.arccosh, "Atanh": np.arctanh, "Erfc": _vec(math.erfc),
        "Lgamma": _vec(math.lgamma), "Digamma": _vec(_digamma), "Floor": np.floor, "Ceil": np.ceil,
        "Round": np.round, "Trunc": np.trunc, "Log2": np.log2, "Log10": np.log10,
        "Square": np.square, "Exp2": np.exp2, "Expm": np.expm1, "Log1p": np.log1p,
        "Gelu": lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
        "Nop": lambda x: x, "Ub2ub": lambda x: x, "RoundToInt": np.rint, "TruncToInt": np.trunc,
        "FloorToInt": np.floor, "Ceil2Int": np.ceil, "IsFinite": np.isfinite, "IsInf": np.isinf,
        "Isnan": np.isnan, "BitwiseNot": np.invert, "SignBit": np.signbit,
        "BesselJ0": _special("bessel_j0"), "BesselJ1": _special("bessel_j1"),
        "BesselY0": _special("bessel_y0"), "BesselY1": _special("bessel_y1"),
        "ModifiedBesselI0": _special("modified_bessel_i0"),
        "ModifiedBesselI1": _special("modified_bessel_i1"),
        "ModifiedBesselK0": _special("modified_bessel_k0"),
        "ModifiedBesselK1": _special("modified_bessel_k1"),
        "ScaledModifiedBesselK0": _special("scaled_modified_bessel_k0"),
        "ScaledModifiedBesselK1": _special("scaled_modified_bessel_k1"),
        "SphericalBesselJ0": _special("spherical_bessel_j0"), "Ndtr": _special("ndtr"),
        "Ndtri": _special("ndtri"), "Erfinv": _special("erfinv"), "Erfcx": _special("erfcx"),
        "AiryAi": _special("airy_ai"),
    }
    BINARY = {
        "Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Maximum": np.maximum,
        "Minimum": np.minimum, "Eq": np.equal, "Ne": np.not_equal, "Gt": np.greater,
        "Ge": np.greater_equal, "Lt": np.less, "Le": np.less_equal,
        "LogicalAnd": lambda a, b: (a != 0) & (b != 0),
        "LogicalOr": lambda a, b: (a != 0) | (b != 0),
        "Fmod": np.fmod, "Hypot": np.hypot, "TruncDiv": lambda a, b: np.trunc(a / b),
        "FloorDiv": lambda a, b: np.floor(a / b), "Remainder": np.remainder, "Mod": np.remainder,
        "BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or, "BitwiseXor": np.bitwise_xor,
        "LogicalXor": lambda a, b: (a != 0) != (b != 0),
        "Atan2": lambda a, b: np.arctan2(b, a), "CopySign": np.copysign,
        "Igamma": _special2("gammainc"), "Igammac": _special2("gammaincc"),
        "Zeta": _special2("zeta"),
        "LShift": _shift(True), "RShift": _shift(False), "Xor": np.bitwise_xor,
    }
    POLY = {
        "ShiftedChebyshevPolynomialT": "shifted_chebyshev_polynomial_t",
        "ShiftedChebyshevPolynomialU": "shifted_chebyshev_polynomial_u",
        "ShiftedChebyshevPolynomialV": "shifted_chebyshev_polynomial_v",
        "ShiftedChebyshevPolynomialW": "shifted_chebyshev_polynomial_w",
        "LaguerrePolynomialL": "laguerre_polynomial_l",
        "LegendrePolynomialP": "legendre_polynomial_p",
    }
    TERNARY = {
        "ClipByValue": lambda a, b, c: np.minimum(np.maximum(a, b), c),
        "Fma": lambda a, b, c: a * b + c,
        "MaskedFill": lambda a, m, v: np.where(m != 0, v, a),
    }
    REDUCE = {"Sum": np.sum, "Mean": np.mean, "Max": np.max, "Min": np.min, "Prod": np.prod,
              "Any": np.any, "All": np.all}



def _into(a, dt):
    """Rounds an array into dtype dt as the interpreter does."""
    a = np.asarray(a)
    if dt == "bool":
        return a != 0
    if dt == "bfloat16":
        f = a.astype(np.float32)
        bits = f.view(np.uint32).astype(np.uint64)
        r = (((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16).astype(np.uint32).view(np.float32)
        return np.where(np.isnan(f), f, r).astype(np.float32)
    t = np.dtype(_T.NP[dt])
    if t.kind == "f":
        return a.astype(t)
    if a.dtype.kind == "f":
        info = np.iinfo(t)
        v = np.nan_to_num(np.trunc(a), nan=0.0)
        return np.clip(v, info.min, info.max).astype(t)
    return a.astype(np.int64).astype(t)


def _wide(a):
    a = np.asarray(a)
    return a.astype(np.float64) if a.dtype.kind == "f" else a.astype(np.int64)


def _ints(v):
    return [int(x) for x in v]


def _positions(out, offset):
    """Flat positions offset + sum_k i_k * stride_k over the view of out."""
    idx = np.full([int(s) for s in out.size], int(offset), dtype=np.int64)
    for k, (n, s) in enumerate(zip(_ints(out.size), _ints(out.strides))):
        shape = [1] * len(out.size)
        shape[k] = n
        idx = idx + np.arange(n, dtype=np.int64).reshape(shape) * s
    return idx


def _int_div(a, b):
    if np.any(b == 0):
        raise SystemExit("py_code: integer division by zero")
    q = np.abs(a) // np.abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def _float_math(op):
    return op in ("Exp", "Ln", "Sqrt", "Rsqrt", "Reciprocal", "Sigmoid", "Tanh", "Erf") or (
        op in _T.UNARY and op not in ("Abs", "Neg", "Relu", "Sign", "LogicalNot", "Nop", "Ub2ub",
                                      "BitwiseNot"))


def _binary(op, a, b):
    if op in ("Div", "TrueDiv"):
        if a.dtype.kind == "i" and b.dtype.kind == "i":
            return _int_div(a, b)
        return a / b
    if op == "Pow":
        negative = a.dtype.kind == "i" and b.dtype.kind == "i" and np.any(b < 0)
        return np.power(a.astype(np.float64) if negative else a, b)
    return _T.BINARY[op](a, b)


def _split_dim(whole, part):
    for d, (w, p) in enumerate(zip(_ints(whole.size), _ints(part.size))):
        if w != p:
            return d
    return 0


class _Run:
    def __init__(self, graph, inputs, upcast):
        self.g, self.inputs, self.vals, self.upcast = graph, inputs, {}, upcast

    def cdt(self, dt):
        """The dtype a computing node keeps: fp16/bf16 stay fp32 with upcast, as the kernel
        computes them after the schedule's upcast (AfterDtypeConsistency)."""
        return "float32" if self.upcast and dt in ("float16", "bfloat16") else dt

    def value(self, ref):
        key = (id(ref.node), ref.index)
        if key not in self.vals:
            self.eval(ref.node)
        return self.vals[key]

    def set(self, n, k, v):
        self.vals[(id(n), k)] = v

    def eval(self, n):
        op, out = n.op, n.y
        shape = _ints(out.size)
        xs = [self.value(r) for r in n.ports()] if op not in ("Output",) else []
        if op == "Data":
            a = np.asarray(self.inputs[int(n.ir("index", 0))])
            want = int(np.prod(shape))
            if a.size != want:
                raise SystemExit("py_code: input %s has %d elements, the graph wants %d (%s)"
                                 % (n.name, a.size, want, shape))
            self.set(n, 0, _into(a, out.dtype).reshape(shape))
        elif op == "Load":
            flat = xs[0].ravel()
            pos = _positions(out, n.ir("offset", 0))
            if pos.size and (pos.min() < 0 or pos.max() >= flat.size):
                raise SystemExit("py_code: %s reads outside its input" % n.name)
            self.set(n, 0, flat[pos])
        elif op == "Store":
            self.set(n, 0, _into(np.broadcast_to(xs[0], shape), out.dtype))
        elif op == "Broadcast":
            self.set(n, 0, np.broadcast_to(xs[0], shape).copy())
        elif op == "Output":
            self.set(n, 0, self.output(n))
        elif op == "Scalar":
            v = n.ir("value", 0)
            v = {"true": 1.0, "false": 0.0}.get(str(v).lower(), v)
            self.set(n, 0, _into(np.full(shape, float(v)), self.cdt(out.dtype)))
        elif op == "Cast":
            self.set(n, 0, _into(np.broadcast_to(xs[0], shape), out.dtype))
        elif op == "LeakyRelu":
            x, k = _wide(xs[0]), float(n.ir("negative_slope", 0.01))
            self.set(n, 0, _into(np.broadcast_to(np.where(x < 0, x * k, x), shape),
                                 self.cdt(out.dtype)))
        elif op in _T.POLY:
            # torch.special's orthogonal polynomials of degree n (the node's attr)
            try:
                import torch
            except ImportError:
                raise SystemExit("py_code: %s needs torch.special" % op)
            x = torch.from_numpy(np.asarray(_wide(xs[0]), np.float64))
            r = getattr(torch.special, _T.POLY[op])(x, int(n.ir("n", 0))).numpy()
            self.set(n, 0, _into(np.broadcast_to(r, shape), self.cdt(out.dtype)))
        elif op == "Axpy":
            r = float(n.ir("alpha", 1.0)) * _wide(xs[0]) + _wide(xs[1])
            self.set(n, 0, _into(np.broadcast_to(r, shape), self.cdt(out.dtype)))
        elif op in _T.TERNARY:
            with np.errstate(all="ignore"):
                r = _T.TERNARY[op](_wide(xs[0]), _wide(xs[1]), _wide(xs[2]))
            self.set(n, 0, _into(np.broadcast_to(r, shape), self.cdt(out.dtype)))
        elif op in _T.UNARY:
            x = _wide(xs[0])
            x = x.astype(np.float64) if _float_math(op) else x
            with np.errstate(all="ignore"):
                self.set(n, 0, _into(np.broadcast_to(_T.UNARY[op](x), shape), self.cdt(out.dtype)))
        elif op in _T.BINARY or op in ("Div", "TrueDiv", "Pow"):
            with np.errstate(all="ignore"):
                r = _binary(op, _wide(xs[0]), _wide(xs[1]))
            self.set(n, 0, _into(np.broadcast_to(r, shape), self.cdt(out.dtype)))
        elif op in ("Where", "Select"):
            r = np.where(xs[0] != 0, _wide(xs[1]), _wide(xs[2]))
            self.set(n, 0, _into(np.broadcast_to(r, shape), self.cdt(out.dtype)))
        elif op == "Softmax":  # V2: along the innermost axis, the shape kept
            x = _wide(xs[0]).astype(np.float64)
            with np.errstate(all="ignore"):
                e = np.exp(x - x.max(axis=-1, keepdims=True))
                r = e / e.sum(axis=-1, keepdims=True)
            self.set(n, 0, _into(np.broadcast_to(r, shape), self.cdt(out.dtype)))
        elif op == "ArgMax":  # C-order position over the reduced dims; the first NaN wins
            src = n.ports()[0]
            dims = [d for d, (i, o, s) in enumerate(zip(_ints(src.size), shape,
                                                        _ints(out.strides)))
                    if o == 1 and s == 0 and i != 1]
            x = _wide(xs[0])
            keep = [d for d in range(x.ndim) if d not in dims]
            t = np.transpose(x, keep + dims)
            t = t.reshape(t.shape[:len(keep)] + (-1,))
            r = np.argmax(t, axis=-1).reshape([1 if d in dims else x.shape[d]
                                              for d in range(x.ndim)])
            self.set(n, 0, r.astype(self.cdt(out.dtype)))
        elif op in _T.REDUCE:
            src = n.ports()[0]
            dims = tuple(d for d, (i, o, s) in enumerate(zip(_ints(src.size), shape,
                                                             _ints(out.strides)))
                         if o == 1 and s == 0 and i != 1)
            x = _wide(xs[0]) if op not in ("Any", "All") else xs[0] != 0
            self.set(n, 0, _into(_T.REDUCE[op](x, axis=dims, keepdims=True), self.cdt(out.dtype)))
        elif op in ("MatMul", "MatMulBias", "BatchMatMul", "BatchMatMulBias"):
            # docs/ir.md "Cube ops": in float64, the bias added and has_relu applied before the
            # one rounding to the output dtype
            batch = op.startswith("Batch")
            a = _wide(xs[0]).astype(np.float64)
            b = _wide(xs[1]).astype(np.float64)
            if n.ir("adj_x1" if batch else "transpose_x1", 0):
                a = np.swapaxes(a, -1, -2)
            if n.ir("adj_x2" if batch else "transpose_x2", 0):
                b = np.swapaxes(b, -1, -2)
            r = np.matmul(a, b)
            if op.endswith("Bias"):
                r = r + _wide(xs[2]).astype(np.float64)
            if n.ir("has_relu", 0):
                r = np.maximum(r, 0)
            self.set(n, 0, _into(np.broadcast_to(r, shape), self.cdt(out.dtype)))
        else:
            self.move(n, op, xs, out, shape)

    def move(self, n, op, xs, out, shape):
        if op == "Transpose":
            src = n.ports()[0]
            perm = [src.axis.index(a) for a in out.axis]
            self.set(n, 0, np.transpose(xs[0], perm))
        elif op == "Concat":
            d = next((d for r in n.ports() for d, (a, b) in
                      enumerate(zip(_ints(r.size), shape)) if a != b), 0)
            self.set(n, 0, np.concatenate(xs, axis=d))
        elif op == "Split":
            self.split(n, xs[0])
        elif op == "Gather":
            params, idx = xs[0], xs[1].astype(np.int64)
            axis = int(n.ir("axis", 0)) % max(params.ndim, 1)
            size = params.shape[axis]
            if n.ir("negative_index_support", False):
                idx = np.where(idx < 0, idx + size, idx)
            if idx.size and (idx.min() < 0 or idx.max() >= size):
                raise SystemExit("py_code: %s: an index is outside [0, %d)" % (n.name, size))
            self.set(n, 0, np.take(params, idx.ravel(), axis=axis).reshape(shape))
        elif op == "Pad":
            r = np.zeros(shape, dtype=xs[0].dtype)
            r[tuple(slice(0, k) for k in xs[0].shape)] = xs[0]
            self.set(n, 0, r)
        elif op == "RemovePad":
            self.set(n, 0, xs[0][tuple(slice(0, k) for k in shape)].copy())
        else:
            raise SystemExit("py_code: the numpy runner has no %s (node %s)" % (op, n.name))

    def split(self, n, x):
        src = n.ports()[0]
        gid = n.ir("gid")
        if gid is None:
            start = 0
            for o in n.outs:
                d = _split_dim(src, o)
                sl = [slice(None)] * x.ndim
                sl[d] = slice(start, start + _ints(o.size)[d])
                self.set(n, o.index, x[tuple(sl)].copy())
                start += _ints(o.size)[d]
            return
        peers = sorted((m for m in self.g.nodes if m.op == "Split" and m.ir("gid") == gid
                        and m.ports()[0] is src), key=lambda m: int(m.ir("index", 0)))
        d = _split_dim(src, n.y)
        start = sum(_ints(m.y.size)[d] for m in peers[:peers.index(n)])
        sl = [slice(None)] * x.ndim
        sl[d] = slice(start, start + _ints(n.y.size)[d])
        self.set(n, 0, x[tuple(sl)].copy())

    def output(self, n):
        src = n.ports()[0]
        store = src.node
        view = n.y if n.y.size else src
        res = np.zeros(_ints(view.size), dtype=_T.NP[view.dtype or src.dtype])
        v = self.value(src)
        if store.op != "Store":
            return _into(v.reshape(res.shape), view.dtype or src.dtype)
        pos = _positions(store.y, store.ir("offset", 0))
        flat = res.ravel()
        if pos.size and (pos.min() < 0 or pos.max() >= flat.size):
            raise SystemExit("py_code: %s writes outside output %s" % (store.name, n.name))
        flat[pos.ravel()] = _into(v, view.dtype or src.dtype).ravel()
        return flat.reshape(res.shape)


def _tolerance(dt):
    return {"float16": (1e-3, 1e-3), "bfloat16": (8e-3, 8e-3), "float32": (1e-4, 1e-5)}.get(
        dt, (0.0, 0.0))


def _run_numpy(graph, argv):
    import argparse
    ap = argparse.ArgumentParser(description="Runs " + graph.name + " with numpy.")
    ap.add_argument("--bind", default="")
    ap.add_argument("--inputs", help="folder of in<k>.npy (default: seeded random arrays)")
    ap.add_argument("--expect", help="folder of out<k>.npy to compare with")
    ap.add_argument("--out", help="folder that receives out<k>.npy")
    ap.add_argument("--no-upcast", action="store_true",
                    help="round fp16/bf16 results after every op (the reference interpreter) "
                         "instead of computing them in fp32 as the kernel does")
    args = ap.parse_args(argv)
    datas = sorted((n for n in graph.nodes if n.op == "Data"), key=lambda n: int(n.ir("index", 0)))
    rng = np.random.default_rng(0)
    inputs = {}
    for n in datas:
        k = int(n.ir("index", 0))
        if args.inputs:
            inputs[k] = np.load(os.path.join(args.inputs, "in%d.npy" % k))
        else:
            a = rng.uniform(-2.0, 2.0, size=_ints(n.y.size))
            inputs[k] = _into(a, n.y.dtype)
    run = _Run(graph, inputs, not args.no_upcast)
    outs = sorted((n for n in graph.nodes if n.op == "Output"), key=lambda n: int(n.ir("index", 0)))
    ok = True
    for n in outs:
        k = int(n.ir("index", 0))
        got = run.value(n.y)
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            np.save(os.path.join(args.out, "out%d.npy" % k), got)
        print("output %d (%s): %s %s" % (k, n.name, n.y.dtype or n.ports()[0].dtype,
                                         list(got.shape)))
        if args.expect:
            want = np.load(os.path.join(args.expect, "out%d.npy" % k))
            rtol, atol = _tolerance(n.y.dtype or n.ports()[0].dtype)
            same = want.size == got.size and np.allclose(
                got.reshape(want.shape).astype(np.float64), want.astype(np.float64),
                rtol=rtol, atol=atol, equal_nan=True)
            if not same:
                ok = False
                print("  differs from %s" % os.path.join(args.expect, "out%d.npy" % k))
    if args.expect:
        print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def _bindings(defaults):
    b = dict(defaults)
    argv = sys.argv[1:]
    for i, a in enumerate(argv):
        text = a[len("--bind="):] if a.startswith("--bind=") else (
            argv[i + 1] if a == "--bind" and i + 1 < len(argv) else "")
        for kv in filter(None, text.split(",")):
            k, v = kv.split("=")
            b[k.strip()] = int(v)
    return b
)PY";

std::string Ident(const std::string& s) {
  std::string out;
  for (char c : s)
    out += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0])) != 0) out = "_" + out;
  return out;
}

std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += '_';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string AscDType(ir::DType t) {
  switch (t) {
    case ir::DType::kFloat32:
      return "float32";
    case ir::DType::kFloat16:
      return "float16";
    case ir::DType::kBFloat16:
      return "bfloat16";
    case ir::DType::kFloat64:
      return "float64";
    case ir::DType::kInt8:
      return "int8";
    case ir::DType::kInt16:
      return "int16";
    case ir::DType::kInt32:
      return "int32";
    case ir::DType::kInt64:
      return "int64";
    case ir::DType::kUInt8:
      return "uint8";
    case ir::DType::kUInt16:
      return "uint16";
    case ir::DType::kUInt32:
      return "uint32";
    case ir::DType::kUInt64:
      return "uint64";
    case ir::DType::kBool:
      return "bool";
    case ir::DType::kUndefined:
      break;
  }
  return "float32";
}

// The script's names: sizes keep their symbol names (the expressions use them), axes and nodes
// get unique identifiers that cannot shadow the prelude (n_ prefix for nodes).
class Names {
 public:
  std::string Take(const std::string& want) {
    std::string id = Ident(want);
    while (taken_.contains(id) || kReserved.contains(id))
      id += "_";
    taken_.insert(id);
    return id;
  }

 private:
  inline static const std::set<std::string> kReserved = {"graph",       "ascir",
                                                         "Autofuser",   "AutofuserOptions",
                                                         "np",          "sys",
                                                         "os",          "math",
                                                         "Fraction",    "Max",
                                                         "Min",         "Mod",
                                                         "FloorDiv",    "CeilDiv",
                                                         "Pow",         "Rational",
                                                         "fuser",       "schedule_results",
                                                         "tiling_def",  "host_impl",
                                                         "device_impl", "_BINDINGS",
                                                         "False",       "True",
                                                         "None"};
  std::set<std::string> taken_;
};

std::string List(const std::vector<std::string>& items) {
  std::string s = "[";
  for (std::size_t i = 0; i < items.size(); ++i)
    s += (i != 0 ? ", " : "") + items[i];
  return s + "]";
}

std::string Exprs(const std::vector<sym::Expr>& v) {
  std::vector<std::string> items;
  items.reserve(v.size());
  for (const auto& e : v)
    items.push_back(e.ToString());
  return List(items);
}

std::string AttrLiteral(const ir::AttrValue& v) {
  struct V {
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const {
      std::ostringstream o;
      o.precision(17);
      o << d;
      std::string s = o.str();
      if (s.find_first_of(".en") == std::string::npos) s += ".0";
      if (s == "inf" || s == "-inf" || s == "nan") return "float(\"" + s + "\")";
      return s;
    }
    std::string operator()(bool b) const { return b ? "True" : "False"; }
    std::string operator()(const std::string& s) const { return Quoted(s); }
    std::string operator()(const sym::Expr& e) const { return e.ToString(); }
    std::string operator()(const std::vector<std::int64_t>& l) const {
      std::vector<std::string> items;
      items.reserve(l.size());
      for (auto x : l)
        items.push_back(std::to_string(x));
      return List(items);
    }
  };
  return std::visit(V{}, v);
}

void WriteView(std::ostringstream& o, const std::string& ref, const ir::Tensor& t,
               const std::map<std::int64_t, std::string>& axes) {
  std::vector<std::string> ax;
  for (auto id : t.axis)
    ax.push_back(axes.contains(id) ? axes.at(id) : std::to_string(id));
  o << ref << ".dtype = ascir.dtypes." << AscDType(t.dtype) << "\n"
    << ref << ".axis = " << List(ax) << "\n"
    << ref << ".size = " << Exprs(t.repeats) << "\n"
    << ref << ".strides = " << Exprs(t.strides) << "\n";
}

void WriteGraph(std::ostringstream& o, const ir::Graph& g) {
  Names names;
  o << "graph = ascir.HintGraph(" << Quoted(g.name) << ")\n";
  for (const auto& s : g.size_vars)
    o << names.Take(s.name) << " = graph.create_size(" << Quoted(s.name) << ")\n";
  std::map<std::int64_t, std::string> axes;
  for (const auto& a : g.axes) {
    axes[a.id] = names.Take(a.name);
    o << axes[a.id] << " = graph.create_axis(" << Quoted(a.name) << ", " << a.size.ToString()
      << ")\n";
  }
  std::vector<std::string> vars;
  for (const auto& n : g.nodes) {
    const std::string v = names.Take("n_" + n.name);
    vars.push_back(v);
    o << v << " = ascir.ops." << Ident(n.type) << "(" << Quoted(n.name) << ", graph)\n";
    std::vector<std::string> ax;
    for (auto id : n.sched.axis)
      ax.push_back(axes.contains(id) ? axes.at(id) : std::to_string(id));
    o << v << ".attr.sched.axis = " << List(ax) << "\n";
    for (const auto& [k, val] : n.attrs)
      o << v << ".attr.ir_attr." << Ident(k) << " = " << AttrLiteral(val) << "\n";
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
      const auto& in = n.inputs[i];
      const std::string port = n.inputs.size() == 1 ? "x" : "x" + std::to_string(i + 1);
      o << v << "." << port << " = " << vars.at(static_cast<std::size_t>(in.node)) << ".y";
      if (g.nodes.at(static_cast<std::size_t>(in.node)).outputs.size() > 1)
        o << "[" << in.output << "]";
      o << "\n";
    }
    for (std::size_t k = 0; k < n.outputs.size(); ++k)
      WriteView(o, v + ".y" + (n.outputs.size() > 1 ? "[" + std::to_string(k) + "]" : ""),
                n.outputs[k], axes);
  }
}

}  // namespace

std::string PyCode(const ir::Graph& g, const sym::Bindings& bindings) {
  std::ostringstream o;
  o << "# Python code to construct AscGraph\n"
    << "# The hint graph " << Quoted(g.name)
    << " written by autofuse (--codegen_compile_debug) in AutoFuse's\n"
       "# pyautofuse form. With pyautofuse installed it schedules and generates the kernel as\n"
       "# AutoFuse does; with python3 and numpy alone it runs the graph on host arrays (the\n"
       "# reference interpreter's semantics), to compare with a kernel's results:\n"
       "#   python3 THIS.py [--bind s0=N,...] [--inputs DIR] [--expect DIR] [--out DIR]\n"
       "# (DIR/in<k>.npy by Data index, DIR/out<k>.npy by Output index; default inputs are\n"
       "# seeded random arrays).\n"
    << kPrelude << "\n\ndef _default_bindings():\n    return {";
  bool first = true;
  for (const auto& s : g.size_vars) {
    std::optional<std::int64_t> v = s.const_value;
    if (!v) {
      if (const auto it = bindings.find(s.name); it != bindings.end()) v = it->second;
    }
    if (!v) continue;
    o << (first ? "" : ", ") << Quoted(s.name) << ": " << *v;
    first = false;
  }
  o << "}\n\n\n"
       "ascir, Autofuser, AutofuserOptions = _pyautofuse()\n"
       "Max, Min, Mod, FloorDiv, CeilDiv, Pow, Rational = _sym_functions()\n"
       "_BINDINGS = _bindings(_default_bindings())\n\n";
  WriteGraph(o, g);
  o << "\nif Autofuser is not None:\n"
       "    fuser = Autofuser(AutofuserOptions())\n"
       "    schedule_results = fuser.schedule(graph)\n"
       "    tiling_def, host_impl, device_impl = fuser.codegen(schedule_results)\n"
       "else:\n"
       "    sys.exit(_run_numpy(graph, sys.argv[1:]))\n";
  return o.str();
}

}  // namespace af::pipeline
