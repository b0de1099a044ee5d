#!/usr/bin/python3
"""Writes PyTorch oracle case directories for `afc run CASE`.

A case is a Python function on tensors plus example inputs. This script traces the function to
an aten graph (torch.fx.experimental.proxy_tensor.make_fx, which torch 1.13 -- Debian 12's
python3-torch -- and torch 2.x both have; softmax, log_softmax and layer_norm are decomposed into
the aten ops the fusion front end lowers), prints the graph in the torch 2.x `print_readable` form
with quoted "dtype[shape]" annotations, and writes

    CASE/fx_graph_readable.py   the graph
    CASE/inputs/argN_1.npy      one array per placeholder, named by placeholder
    CASE/expected/outK.npy      eager PyTorch results, one per returned value

bf16 arrays are stored as float32 holding exactly the bf16 values (NumPy has no bfloat16).

Use as a library (make_case(fn, inputs, out_dir)) or from the command line:

    make_case.py --cases tests/oracle/cases.py --out DIR [--only NAME ...] [--list]

where the cases file defines CASES = {name: (fn, make_inputs)} with make_inputs() returning the
list of example tensors.
"""
import argparse
import importlib.util
import os
import sys

import numpy as np
import torch
from torch.fx.experimental.proxy_tensor import make_fx
from torch.fx.passes.shape_prop import ShapeProp

aten = torch.ops.aten

DTYPE_CODES = {
    torch.float32: "f32",
    torch.float16: "f16",
    torch.bfloat16: "bf16",
    torch.float64: "f64",
    torch.int64: "i64",
    torch.int32: "i32",
    torch.int16: "i16",
    torch.int8: "i8",
    torch.uint8: "u8",
    torch.bool: "b8",
}


def _number_degree(op):
    """torch.special's orthogonal polynomials with a Python-number degree n: torch 1.13's make_fx
    hands the number to the Tensor overload and fails (its n_scalar overloads are composite), so
    the degree is traced as aten.scalar_tensor(n), the constant the front end takes it from."""
    def f(x, n):
        if isinstance(n, torch.Tensor):
            return NotImplemented
        return op(x, aten.scalar_tensor.default(n, dtype=x.dtype))
    return f


def _decompositions():
    from torch._decomp import get_decompositions

    ops = [aten._softmax, aten._log_softmax, aten.native_layer_norm, aten.softmax,
           aten.log_softmax, aten.layer_norm]
    table = get_decompositions([op for op in ops if op is not None])
    for name in ("shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
                 "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w",
                 "laguerre_polynomial_l", "legendre_polynomial_p"):
        packet = getattr(aten, "special_" + name, None)
        if packet is not None:
            table[packet.default] = _number_degree(packet.default)
    return table


def _annotation(meta):
    if meta is None:
        return None
    dims = ", ".join(str(int(d)) for d in meta.shape)
    return '"%s[%s]"' % (DTYPE_CODES[meta.dtype], dims)


def _fmt(a):
    if isinstance(a, torch.fx.Node):
        return a.name
    if isinstance(a, bool):
        return "True" if a else "False"
    if a is None:
        return "None"
    if isinstance(a, float):
        return repr(a)
    if isinstance(a, int):
        return str(a)
    if isinstance(a, str):
        return repr(a)
    if isinstance(a, (list, tuple)):
        inner = ", ".join(_fmt(x) for x in a)
        if isinstance(a, tuple):
            return "(" + inner + ("," if len(a) == 1 else "") + ")"
        return "[" + inner + "]"
    if isinstance(a, torch.dtype):
        return str(a)
    if isinstance(a, torch.device):
        return "device(type='%s')" % a.type
    if isinstance(a, torch.layout):
        return str(a)
    if isinstance(a, torch.memory_format):
        return str(a)
    raise ValueError("cannot print argument %r" % (a,))


def print_readable(gm):
    """The graph in torch 2.x print_readable form (quoted annotations)."""
    params = []
    body = []
    for node in gm.graph.nodes:
        meta = node.meta.get("tensor_meta")
        single = meta if hasattr(meta, "dtype") else None
        ann = _annotation(single)
        if node.op == "placeholder":
            params.append("%s: %s" % (node.name, ann))
        elif node.op == "call_function":
            target = node.target
            lhs = node.name + (": " + ann if ann else "")
            if target.__name__ == "getitem" and getattr(target, "__module__", "") == "_operator":
                body.append("%s = %s[%d]" % (lhs, node.args[0].name, node.args[1]))
                continue
            name = str(target)
            if not name.startswith("aten.") and not name.startswith("prims."):
                raise ValueError("unexpected call target %s" % name)
            args = [_fmt(a) for a in node.args]
            args += ["%s = %s" % (k, _fmt(v)) for k, v in node.kwargs.items()]
            body.append("%s = torch.ops.%s(%s)" % (lhs, name, ", ".join(args)))
        elif node.op == "output":
            outs = node.args[0]
            if not isinstance(outs, (list, tuple)):
                outs = (outs,)
            body.append("return (%s)" % "".join(_fmt(o) + ", " for o in outs).rstrip(" "))
        else:
            raise ValueError("unexpected node kind %s" % node.op)
    lines = ["class GraphModule(torch.nn.Module):",
             "    def forward(self, %s):" % ", ".join(params)]
    lines += ["        " + b for b in body]
    return "\n".join(lines) + "\n"


def _to_numpy(t):
    t = t.detach()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return np.ascontiguousarray(t.numpy())


def make_case(fn, inputs, out_dir, reference=None):
    """Traces fn on inputs and writes the case directory; returns the graph text. The expected
    outputs are fn's in eager PyTorch, or reference's when given (same inputs)."""
    # placeholders named arg0_1, arg1_1, ... (make_fx appends _1 to the parameter names)
    params = ", ".join("arg%d" % i for i in range(len(inputs)))
    scope = {"fn": fn}
    exec("def wrapper(%s):\n    return fn(%s)\n" % (params, params), scope)
    gm = make_fx(scope["wrapper"], decomposition_table=_decompositions())(*inputs)
    ShapeProp(gm).propagate(*inputs)
    text = print_readable(gm)
    os.makedirs(os.path.join(out_dir, "inputs"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "expected"), exist_ok=True)
    with open(os.path.join(out_dir, "fx_graph_readable.py"), "w") as f:
        f.write(text)
    names = [n.name for n in gm.graph.nodes if n.op == "placeholder"]
    for name, t in zip(names, inputs):
        np.save(os.path.join(out_dir, "inputs", name + ".npy"), _to_numpy(t))
    with torch.no_grad():
        outs = (reference or fn)(*inputs)
    if not isinstance(outs, (list, tuple)):
        outs = (outs,)
    for k, o in enumerate(outs):
        np.save(os.path.join(out_dir, "expected", "out%d.npy" % k), _to_numpy(o))
    return text


def load_cases(path):
    spec = importlib.util.spec_from_file_location("af_oracle_cases", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.CASES


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", required=True, help="Python file defining CASES")
    ap.add_argument("--out", help="directory that receives one case directory per case")
    ap.add_argument("--only", nargs="*", help="case names to write (default: all)")
    ap.add_argument("--list", action="store_true", help="print the case names and exit")
    args = ap.parse_args()
    cases = load_cases(args.cases)
    if args.list:
        for name in cases:
            print(name)
        return 0
    if not args.out:
        ap.error("--out is required")
    for name in args.only or list(cases):
        if name not in cases:
            print("make_case: no case named %s" % name, file=sys.stderr)
            return 2
        fn, make_inputs = cases[name]
        torch.manual_seed(0)
        make_case(fn, make_inputs(), os.path.join(args.out, name))
        print("wrote %s" % os.path.join(args.out, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
