#!/usr/bin/env python3
"""Writes a synthetic N-layer transformer as an FX readable graph (fx_graph_readable.py form).

What for: the front end's scaling benchmarks (tests/bench/frontend_bench.cc, docs/benchmarks.md)
need model graphs of 1x, 2x, 4x, 8x the size of a real one and a 10,000-op graph. Each layer is a
pre-norm encoder block in the op vocabulary PyTorch 2.0's AOT export uses for a vision transformer
(layernorm as var_mean/rsqrt in fp32, qkv addmm, unbind, bmm attention with an fp32 softmax, GELU
through erf, residual adds), batch size symbolic (s0). 82 FX ops per layer; the defaults (197
tokens, width 384, 6 heads) are the sizes of timm's vit_small_patch16_224.

    gen_transformer.py --layers 12 -o graph.py     # about the ViT-S fixture's size (947 ops)
    gen_transformer.py --ops 10000 -o graph.py     # the fewest layers reaching 10,000 ops

The output is deterministic (no randomness, no timestamps).
"""
import argparse
import sys

OPS_PER_LAYER = 82


class Writer:
    def __init__(self, tokens, width, heads):
        self.s = tokens
        self.c = width
        self.h = heads
        self.d = width // heads
        self.params = []  # (name, type)
        self.lines = []
        self.count = {}
        self.ops = 0

    def name(self, base):
        n = self.count.get(base, 0)
        self.count[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def param(self, shape):
        name = f"arg{len(self.params)}_1"
        self.params.append((name, f"f16[{', '.join(str(d) for d in shape)}]"))
        return name

    def op(self, base, ty, rhs):
        n = self.name(base)
        self.lines.append(f"        {n}: {ty} = {rhs}" if ty else f"        {n} = {rhs}")
        self.ops += 1
        return n

    def layernorm(self, x, shape):
        s, c = self.s, self.c
        w = self.param([c])
        b = self.param([c])
        f32 = f"f32[{shape}]"
        red = f"f32[s0, {s}, 1]"
        cv = self.op("convert_element_type", f32,
                     f"torch.ops.prims.convert_element_type.default({x}, torch.float32)")
        vm = self.op("var_mean", None, f"torch.ops.aten.var_mean.correction({cv}, [2], "
                     "correction = 0, keepdim = True)")
        var = self.op("getitem", red, f"{vm}[0]")
        mean = self.op("getitem", red, f"{vm}[1]")
        a = self.op("add", red, f"torch.ops.aten.add.Tensor({var}, 1e-06)")
        r = self.op("rsqrt", red, f"torch.ops.aten.rsqrt.default({a})")
        d = self.op("sub", f32, f"torch.ops.aten.sub.Tensor({cv}, {mean})")
        m = self.op("mul", f32, f"torch.ops.aten.mul.Tensor({d}, {r})")
        m = self.op("mul", f32, f"torch.ops.aten.mul.Tensor({m}, {w})")
        a = self.op("add", f32, f"torch.ops.aten.add.Tensor({m}, {b})")
        return self.op("convert_element_type", f"f16[{shape}]",
                       f"torch.ops.prims.convert_element_type.default({a}, torch.float16)")

    def linear(self, x, k, n, rows_sym, out_shape, out_view):
        """x: f16[s0, S, k] -> f16[s0, S, n] through view/addmm/view."""
        w = self.param([n, k])
        b = self.param([n])
        s = self.s
        wt = self.op("permute", f"f16[{k}, {n}]", f"torch.ops.aten.permute.default({w}, [1, 0])")
        v = self.op("view", f"f16[{s}*s0, {k}]",
                    f"torch.ops.aten.view.default({x}, [{rows_sym}, {k}])")
        mm = self.op("addmm", f"f16[{s}*s0, {n}]",
                     f"torch.ops.aten.addmm.default({b}, {v}, {wt})")
        return self.op("view", f"f16[{out_shape}]", f"torch.ops.aten.view.default({mm}, {out_view})")

    def attention(self, x, bs):
        s, c, h, d = self.s, self.c, self.h, self.d
        rows = self.op("mul", f"Sym({s}*s0)", f"{bs} * {s}")
        qkv = self.linear(x, c, 3 * c, rows, f"s0, {s}, 3, {h}, {d}", f"[{bs}, {s}, 3, {h}, {d}]")
        p = self.op("permute", f"f16[3, s0, {h}, {s}, {d}]",
                    f"torch.ops.aten.permute.default({qkv}, [2, 0, 3, 1, 4])")
        ub = self.op("unbind", None, f"torch.ops.aten.unbind.int({p})")
        q = self.op("getitem", f"f16[s0, {h}, {s}, {d}]", f"{ub}[0]")
        k = self.op("getitem", f"f16[s0, {h}, {s}, {d}]", f"{ub}[1]")
        v = self.op("getitem", f"f16[s0, {h}, {s}, {d}]", f"{ub}[2]")
        kt = self.op("permute", f"f16[s0, {h}, {d}, {s}]",
                     f"torch.ops.aten.permute.default({k}, [0, 1, 3, 2])")
        bh = self.op("mul", f"Sym({h}*s0)", f"{bs} * {h}")

        def batched(t, shape, dims):
            e = self.op("expand", f"f16[{shape}]", f"torch.ops.aten.expand.default({t}, {dims})")
            cl = self.op("clone", f"f16[{shape}]", f"torch.ops.aten.clone.default({e}, "
                         "memory_format = torch.contiguous_format)")
            return cl

        qc = batched(q, f"s0, {h}, {s}, {d}", f"[{bs}, {h}, {s}, {d}]")
        q3 = self.op("_unsafe_view", f"f16[{h}*s0, {s}, {d}]",
                     f"torch.ops.aten._unsafe_view.default({qc}, [{bh}, {s}, {d}])")
        kc = batched(kt, f"s0, {h}, {d}, {s}", f"[{bs}, {h}, {d}, {s}]")
        k3 = self.op("_unsafe_view", f"f16[{h}*s0, {d}, {s}]",
                     f"torch.ops.aten._unsafe_view.default({kc}, [{bh}, {d}, {s}])")
        sc = self.op("bmm", f"f16[{h}*s0, {s}, {s}]", f"torch.ops.aten.bmm.default({q3}, {k3})")
        full = f"s0, {h}, {s}, {s}"
        sc = self.op("view", f"f16[{full}]",
                     f"torch.ops.aten.view.default({sc}, [{bs}, {h}, {s}, {s}])")
        sc = self.op("mul", f"f16[{full}]", f"torch.ops.aten.mul.Tensor({sc}, {d ** -0.5})")
        f = self.op("convert_element_type", f"f32[{full}]",
                    f"torch.ops.prims.convert_element_type.default({sc}, torch.float32)")
        mx = self.op("amax", f"f32[s0, {h}, {s}, 1]", f"torch.ops.aten.amax.default({f}, [-1], True)")
        f = self.op("sub", f"f32[{full}]", f"torch.ops.aten.sub.Tensor({f}, {mx})")
        f = self.op("exp", f"f32[{full}]", f"torch.ops.aten.exp.default({f})")
        sm = self.op("sum", f"f32[s0, {h}, {s}, 1]",
                     f"torch.ops.aten.sum.dim_IntList({f}, [-1], True)")
        f = self.op("div", f"f32[{full}]", f"torch.ops.aten.div.Tensor({f}, {sm})")
        pr = self.op("convert_element_type", f"f16[{full}]",
                     f"torch.ops.prims.convert_element_type.default({f}, torch.float16)")
        pr = self.op("expand", f"f16[{full}]",
                     f"torch.ops.aten.expand.default({pr}, [{bs}, {h}, {s}, {s}])")
        pr = self.op("view", f"f16[{h}*s0, {s}, {s}]",
                     f"torch.ops.aten.view.default({pr}, [{bh}, {s}, {s}])")
        vc = batched(v, f"s0, {h}, {s}, {d}", f"[{bs}, {h}, {s}, {d}]")
        v3 = self.op("_unsafe_view", f"f16[{h}*s0, {s}, {d}]",
                     f"torch.ops.aten._unsafe_view.default({vc}, [{bh}, {s}, {d}])")
        o = self.op("bmm", f"f16[{h}*s0, {s}, {d}]", f"torch.ops.aten.bmm.default({pr}, {v3})")
        o = self.op("view", f"f16[s0, {h}, {s}, {d}]",
                    f"torch.ops.aten.view.default({o}, [{bs}, {h}, {s}, {d}])")
        o = self.op("permute", f"f16[s0, {s}, {h}, {d}]",
                    f"torch.ops.aten.permute.default({o}, [0, 2, 1, 3])")
        o = self.op("clone", f"f16[s0, {s}, {h}, {d}]", f"torch.ops.aten.clone.default({o}, "
                    "memory_format = torch.contiguous_format)")
        o = self.op("_unsafe_view", f"f16[s0, {s}, {c}]",
                    f"torch.ops.aten._unsafe_view.default({o}, [{bs}, {s}, {c}])")
        return self.linear(o, c, c, rows, f"s0, {s}, {c}", f"[{bs}, {s}, {c}]")

    def mlp(self, x, bs):
        s, c = self.s, self.c
        rows = self.op("mul", f"Sym({s}*s0)", f"{bs} * {s}")
        hdn = f"s0, {s}, {4 * c}"
        y = self.linear(x, c, 4 * c, rows, hdn, f"[{bs}, {s}, {4 * c}]")
        f = self.op("convert_element_type", f"f32[{hdn}]",
                    f"torch.ops.prims.convert_element_type.default({y}, torch.float32)")
        half = self.op("mul", f"f32[{hdn}]", f"torch.ops.aten.mul.Tensor({f}, 0.5)")
        e = self.op("mul", f"f32[{hdn}]", f"torch.ops.aten.mul.Tensor({f}, 0.7071067811865476)")
        e = self.op("erf", f"f32[{hdn}]", f"torch.ops.aten.erf.default({e})")
        e = self.op("add", f"f32[{hdn}]", f"torch.ops.aten.add.Tensor({e}, 1)")
        g = self.op("mul", f"f32[{hdn}]", f"torch.ops.aten.mul.Tensor({half}, {e})")
        g = self.op("convert_element_type", f"f16[{hdn}]",
                    f"torch.ops.prims.convert_element_type.default({g}, torch.float16)")
        return self.linear(g, 4 * c, c, rows, f"s0, {s}, {c}", f"[{bs}, {s}, {c}]")

    def layer(self, x, bs):
        shape = f"s0, {self.s}, {self.c}"
        a = self.attention(self.layernorm(x, shape), bs)
        x = self.op("add", f"f16[{shape}]", f"torch.ops.aten.add.Tensor({x}, {a})")
        m = self.mlp(self.layernorm(x, shape), bs)
        return self.op("add", f"f16[{shape}]", f"torch.ops.aten.add.Tensor({x}, {m})")

    def text(self, layers):
        x_in = self.param([])  # placeholder name reserved first; its type is fixed below
        self.params[0] = (x_in, f"f16[s0, {self.s}, {self.c}]")
        bs = self.op("sym_size", "Sym(s0)", f"torch.ops.aten.sym_size({x_in}, 0)")
        x = x_in
        for _ in range(layers):
            x = self.layer(x, bs)
        sig = ", ".join(f"{n}: {t}" for n, t in self.params)
        head = ["class <lambda>(torch.nn.Module):", f"    def forward(self, {sig}):"]
        return "\n".join(head + self.lines + [f"        return ({x},)", ""])


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = ap.add_mutually_exclusive_group(required=True)
    size.add_argument("--layers", type=int, help="number of transformer layers")
    size.add_argument("--ops", type=int, help="the fewest layers with at least this many FX ops")
    ap.add_argument("--tokens", type=int, default=197)
    ap.add_argument("--width", type=int, default=384)
    ap.add_argument("--heads", type=int, default=6)
    ap.add_argument("-o", "--out", help="output file (default: stdout)")
    a = ap.parse_args(argv)
    if a.width % a.heads:
        ap.error("--width must be a multiple of --heads")
    layers = a.layers if a.layers is not None else max(1, -(-(a.ops - 1) // OPS_PER_LAYER))
    if layers < 1:
        ap.error("--layers must be at least 1")
    w = Writer(a.tokens, a.width, a.heads)
    text = w.text(layers)
    assert w.ops == 1 + OPS_PER_LAYER * layers, w.ops
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    print(f"{layers} layers, {w.ops} FX ops", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
