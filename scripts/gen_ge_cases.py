#!/usr/bin/env python3
"""Small GE networks with numpy expectations (used by gen_ge_dump.py `case`; needs numpy).

A network is built with GeGraph (Data, Const with values, ops with GE's attributes and tensor
descriptions) and printed in both dump forms GE writes: the ONNX text (OnnxUtils: op_type
"ge:<Type>", "<src>:<idx>" inputs, `input_desc_*:i` / `output_desc_*:i` attributes sorted by name,
Const values as value_desc_* and value_data) and the ModelDef text (op { name type input attr
input_desc output_desc }, Const values as attr "value" { t { desc data } }). numpy computes the
outputs the way the graph says (fp16 where the graph is fp16).

Networks:
  cast_abs_cast_add_relu_cast  the seeds' Cast_Abs_Cast_Add_Relu_Cast: y fp16 [192,128] and
                               x fp16 [128], cast to fp32, |y| + x, relu, cast to fp16
  rec_mlp                      a recommendation block: embedding gathers (GatherV2 on Const
                               tables, 2-D and 1-D ids), sum pooling (ReduceSumD), feature concat
                               (ConcatV2), MatMulV2 + bias, Relu, ReduceMeanD, a scalar Mul, Sigmoid
  norm_softmax                 LayerNorm (Const gamma/beta), SoftmaxV2, TransposeD, SplitD, Exp,
                               ConcatD, RealDiv, Sub
  super_kernel_scopes          torchair.scope.super_kernel regions as GE writes them
                               (`_super_kernel_scope` / `_super_kernel_options` on each op):
                               Exp and Neg in scope "sk1", Abs + Relu and Sigmoid in "sk2",
                               a Tanh outside every scope
"""
import os
import sys

import numpy as np

DT = {np.dtype("float32"): "DT_FLOAT", np.dtype("float16"): "DT_FLOAT16",
      np.dtype("int32"): "DT_INT32", np.dtype("int64"): "DT_INT64"}
GE_DT_INT = {"DT_FLOAT": 0, "DT_FLOAT16": 1, "DT_INT32": 3, "DT_INT64": 9}  # ge::DataType


class T:
    """One output of a node: its producer edge, dtype and shape."""

    def __init__(self, node, idx, dtype, shape):
        self.node, self.idx, self.dtype, self.shape = node, idx, np.dtype(dtype), tuple(shape)

    @property
    def edge(self):
        return f"{self.node}:{self.idx}"


class GeGraph:
    def __init__(self, name):
        self.name = name
        self.nodes = []  # dict(name, type, inputs [T], outputs [(dtype, shape)], attrs, value)
        self.used = {}

    def _add(self, name, typ, inputs, outputs, attrs=None, value=None):
        self.nodes.append(dict(name=name, type=typ, inputs=inputs, outputs=outputs,
                               attrs=attrs or {}, value=value))
        for t in inputs:
            self.used.setdefault(t.node, set()).add(t.idx)
        return [T(name, k, d, s) for k, (d, s) in enumerate(outputs)]

    def data(self, name, dtype, shape):
        return self._add(name, "Data", [], [(np.dtype(dtype), shape)],
                         {"index": ("i", sum(n["type"] == "Data" for n in self.nodes))})[0]

    def const(self, name, array):
        array = np.ascontiguousarray(array)
        return self._add(name, "Const", [], [(array.dtype, array.shape)], value=array)[0]

    def op(self, typ, name, inputs, outputs, **attrs):
        outs = self._add(name, typ, inputs, [(np.dtype(d), s) for d, s in outputs], attrs)
        return outs if len(outs) > 1 else outs[0]

    def output(self, tensors):
        self._add("NetOutput", "NetOutput", tensors, [])


# ---------------------------------------------------------------- printing

def esc(data):
    return "".join(f"\\{b:03o}" for b in data)


def onnx_attr(out, name, kind, value):
    out.append("    attribute {")
    out.append(f'      name: "{name}"')
    if kind == "i":
        out.append(f"      i: {int(value)}\n      type: INT")
    elif kind == "f":
        out.append(f"      f: {float(value)!r}\n      type: FLOAT")
    elif kind == "s":
        out.append(f'      s: "{value}"\n      type: STRING')
    elif kind == "ints":
        out.extend(f"      ints: {int(v)}" for v in value)
        out.append("      type: INTS")
    out.append("    }")


def onnx_text(g):
    lines = ["ir_version: 6", 'producer_name: "GE"', "graph {"]
    for n in g.nodes:
        out = ["  node {"]
        out.extend(f'    input: "{t.edge}"' for t in n["inputs"])
        out.extend(f'    output: "{n["name"]}:{k}"' for k in sorted(g.used.get(n["name"], ())))
        out.append(f'    name: "{n["name"]}"')
        out.append(f'    op_type: "ge:{n["type"]}"')
        attrs = {}
        for k, (kind, v) in n["attrs"].items():
            attrs[k] = (kind if kind != "b" else "i", int(v) if kind == "b" else v)
        for side, descs in (("input", [(t.dtype, t.shape) for t in n["inputs"]]),
                            ("output", n["outputs"])):
            attrs[f"{side}_desc_nums"] = ("i", len(descs))
            for k, (d, s) in enumerate(descs):
                attrs[f"{side}_desc_dtype:{k}"] = ("s", DT[d])
                attrs[f"{side}_desc_layout:{k}"] = ("s", "ND")
                attrs[f"{side}_desc_origin_layout:{k}"] = ("s", "ND")
                attrs[f"{side}_desc_shape:{k}"] = ("ints", s)
        if n["value"] is not None:
            v = n["value"]
            attrs["value_desc_dtype"] = ("s", DT[v.dtype])
            attrs["value_desc_layout"] = ("s", "ND")
            attrs["value_desc_shape"] = ("ints", v.shape)
            attrs["value_data"] = ("s", esc(v.astype(v.dtype.newbyteorder("<")).tobytes()))
        for k in sorted(attrs):
            onnx_attr(out, k, *attrs[k])
        out.append("  }")
        lines.extend(out)
    lines.append(f'  name: "{g.name}"')
    lines.append("}")
    return "\n".join(lines) + "\n"


def proto_desc(tag, d, s, indent):
    p = " " * indent
    dims = "".join(f"\n{p}    dim: {int(x)}" for x in s)
    return (f"{p}{tag} {{\n{p}  dtype: {DT[d]}\n{p}  shape {{{dims}\n{p}  }}\n"
            f'{p}  layout: "ND"\n{p}}}')


def proto_attr(key, kind, v):
    if kind == "i":
        val = f"i: {int(v)}"
    elif kind == "b":
        val = f"b: {'true' if v else 'false'}"
    elif kind == "f":
        val = f"f: {float(v)!r}"
    elif kind == "s":
        val = f's: "{v}"'
    else:
        val = "list {\n" + "".join(f"          i: {int(x)}\n" for x in v) + \
              "          val_type: VT_LIST_INT\n        }"
    return f'    attr {{\n      key: "{key}"\n      value {{\n        {val}\n      }}\n    }}'


def proto_text(g):
    lines = ["graph {", f'  name: "{g.name}"']
    for n in g.nodes:
        out = ["  op {", f'    name: "{n["name"]}"', f'    type: "{n["type"]}"']
        out.extend(f'    input: "{t.edge}"' for t in n["inputs"])
        for k in sorted(n["attrs"]):
            out.append(proto_attr(k, *n["attrs"][k]))
        if n["value"] is not None:
            v = n["value"]
            desc = proto_desc("desc", v.dtype, v.shape, 10)
            out.append('    attr {\n      key: "value"\n      value {\n        t {\n' + desc +
                       f'\n          data: "{esc(v.astype(v.dtype.newbyteorder("<")).tobytes())}"'
                       '\n        }\n      }\n    }')
        out.extend(proto_desc("input_desc", t.dtype, t.shape, 4) for t in n["inputs"])
        out.extend(proto_desc("output_desc", d, s, 4) for d, s in n["outputs"])
        out.append("  }")
        lines.extend(out)
    lines.append("}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- networks

def cast_abs_cast_add_relu_cast(rng):
    g = GeGraph("cast_abs_cast_add_relu_cast")
    y = g.data("y", "float16", (192, 128))
    x = g.data("x", "float16", (128,))
    c0 = g.op("Cast", "Cast", [y], [("float32", (192, 128))], dst_type=("i", 0))
    a = g.op("Abs", "Abs", [c0], [("float32", (192, 128))])
    c1 = g.op("Cast", "Cast_1", [x], [("float32", (128,))], dst_type=("i", 0))
    s = g.op("Add", "Add", [a, c1], [("float32", (192, 128))])
    r = g.op("Relu", "Relu", [s], [("float32", (192, 128))])
    o = g.op("Cast", "Cast_2", [r], [("float16", (192, 128))], dst_type=("i", 1))
    g.output([o])
    yv = rng.uniform(-2, 2, (192, 128)).astype(np.float16)
    xv = rng.uniform(-2, 2, (128,)).astype(np.float16)
    out = np.maximum(np.abs(yv.astype(np.float32)) + xv.astype(np.float32), 0).astype(np.float16)
    return g, {"y": yv, "x": xv}, [out]


def rec_mlp(rng):
    b, fields, dim_a, dim_b, dense, hidden = 16, 4, 16, 8, 13, 32
    g = GeGraph("rec_mlp")
    ids_a = g.data("ids_a", "int32", (b, fields))
    ids_b = g.data("ids_b", "int32", (b,))
    feats = g.data("dense", "float32", (b, dense))
    table_a = rng.uniform(-1, 1, (100, dim_a)).astype(np.float32)
    table_b = rng.uniform(-1, 1, (50, dim_b)).astype(np.float32)
    w1 = rng.uniform(-0.3, 0.3, (dense + dim_a + dim_b, hidden)).astype(np.float32)
    b1 = rng.uniform(-0.1, 0.1, (hidden,)).astype(np.float32)
    ta = g.const("table_a", table_a)
    tb = g.const("table_b", table_b)
    ax0 = g.const("gather_axis", np.array(0, np.int32))
    ea = g.op("GatherV2", "emb_a/GatherV2", [ta, ids_a, ax0], [("float32", (b, fields, dim_a))])
    pa = g.op("ReduceSumD", "emb_a/pool", [ea], [("float32", (b, dim_a))],
              axes=("ints", [1]), keep_dims=("b", False))
    eb = g.op("GatherV2", "emb_b/GatherV2", [tb, ids_b, ax0], [("float32", (b, dim_b))])
    ax1 = g.const("concat_axis", np.array(1, np.int32))
    width = dense + dim_a + dim_b
    cat = g.op("ConcatV2", "features/concat", [feats, pa, eb, ax1], [("float32", (b, width))],
               N=("i", 3))
    wc = g.const("fc1/weight", w1)
    bc = g.const("fc1/bias", b1)
    h = g.op("MatMulV2", "fc1/MatMulV2", [cat, wc, bc], [("float32", (b, hidden))],
             transpose_x1=("b", False), transpose_x2=("b", False))
    r = g.op("Relu", "fc1/Relu", [h], [("float32", (b, hidden))])
    m = g.op("ReduceMeanD", "head/mean", [r], [("float32", (b, 1))],
             axes=("ints", [1]), keep_dims=("b", True))
    half = g.const("head/scale", np.array(0.5, np.float32))
    sc = g.op("Mul", "head/Mul", [m, half], [("float32", (b, 1))])
    o = g.op("Sigmoid", "head/Sigmoid", [sc], [("float32", (b, 1))])
    g.output([o, r])
    ia = rng.integers(0, 100, (b, fields)).astype(np.int32)
    ib = rng.integers(0, 50, (b,)).astype(np.int32)
    dv = rng.uniform(-1, 1, (b, dense)).astype(np.float32)
    x = np.concatenate([dv, table_a[ia].sum(axis=1), table_b[ib]], axis=1)
    hv = np.maximum(x @ w1 + b1, 0).astype(np.float32)
    ov = 1 / (1 + np.exp(-(hv.mean(axis=1, keepdims=True) * 0.5)))
    return g, {"ids_a": ia, "ids_b": ib, "dense": dv}, [ov.astype(np.float32), hv]


def norm_softmax(rng):
    rows, width = 24, 64
    g = GeGraph("norm_softmax")
    x = g.data("x", "float32", (rows, width))
    gamma = rng.uniform(0.5, 1.5, (width,)).astype(np.float32)
    beta = rng.uniform(-0.2, 0.2, (width,)).astype(np.float32)
    gm = g.const("ln/gamma", gamma)
    bt = g.const("ln/beta", beta)
    ln = g.op("LayerNorm", "ln/LayerNorm", [x, gm, bt],
              [("float32", (rows, width)), ("float32", (rows, 1)), ("float32", (rows, 1))],
              begin_norm_axis=("i", 1), begin_params_axis=("i", 1), epsilon=("f", 1e-5))
    sm = g.op("SoftmaxV2", "attn/Softmax", [ln[0]], [("float32", (rows, width))],
              axes=("ints", [-1]))
    tr = g.op("TransposeD", "attn/Transpose", [sm], [("float32", (width, rows))],
              perm=("ints", [1, 0]))
    parts = g.op("SplitD", "attn/Split", [tr],
                 [("float32", (width // 2, rows)), ("float32", (width // 2, rows))],
                 split_dim=("i", 0), num_split=("i", 2))
    e = g.op("Exp", "attn/Exp", [parts[1]], [("float32", (width // 2, rows))])
    d = g.op("RealDiv", "attn/RealDiv", [parts[0], e], [("float32", (width // 2, rows))])
    s = g.op("Sub", "attn/Sub", [e, parts[0]], [("float32", (width // 2, rows))])
    cat = g.op("ConcatD", "attn/Concat", [d, s], [("float32", (width, rows))],
               concat_dim=("i", 0), N=("i", 2))
    g.output([cat, ln[1]])
    xv = rng.uniform(-2, 2, (rows, width)).astype(np.float32)
    mean = xv.mean(axis=1, keepdims=True)
    var = ((xv - mean) ** 2).mean(axis=1, keepdims=True)
    y = (xv - mean) / np.sqrt(var + 1e-5) * gamma + beta
    z = np.exp(y - y.max(axis=1, keepdims=True))
    smv = (z / z.sum(axis=1, keepdims=True)).T
    p0, p1 = smv[: width // 2], smv[width // 2:]
    ev = np.exp(p1)
    out = np.concatenate([p0 / ev, ev - p0], axis=0).astype(np.float32)
    return g, {"x": xv}, [out, mean.astype(np.float32)]


def super_kernel_scopes(rng):
    shape = (40, 33)
    g = GeGraph("super_kernel_scopes")
    x, y, z, w, v = (g.data(n, "float32", shape) for n in ("x", "y", "z", "w", "v"))
    f32 = [("float32", shape)]

    def scope(name):
        return {"_super_kernel_scope": ("s", name), "_super_kernel_options": ("s", "")}

    e = g.op("Exp", "sk1/Exp", [x], f32, **scope("sk1"))
    n = g.op("Neg", "sk1/Neg", [y], f32, **scope("sk1"))
    a = g.op("Abs", "sk2/Abs", [z], f32, **scope("sk2"))
    r = g.op("Relu", "sk2/Relu", [a], f32, **scope("sk2"))
    s = g.op("Sigmoid", "sk2/Sigmoid", [w], f32, **scope("sk2"))
    t = g.op("Tanh", "Tanh", [v], f32)
    g.output([e, n, r, s, t])
    vals = {k: rng.uniform(-2, 2, shape).astype(np.float32) for k in "xyzwv"}
    outs = [np.exp(vals["x"]), -vals["y"], np.maximum(np.abs(vals["z"]), 0),
            1 / (1 + np.exp(-vals["w"])), np.tanh(vals["v"])]
    return g, vals, [o.astype(np.float32) for o in outs]


NETWORKS = {f.__name__: f for f in (cast_abs_cast_add_relu_cast, rec_mlp, norm_softmax,
                                    super_kernel_scopes)}


def write_cases(which, outdir, seed=0):
    names = list(NETWORKS) if which == "all" else [which]
    for name in names:
        if name not in NETWORKS:
            sys.exit(f"unknown network {name}; one of: {', '.join(NETWORKS)}, all")
        g, inputs, outputs = NETWORKS[name](np.random.default_rng(seed))
        case = os.path.join(outdir, name)
        os.makedirs(os.path.join(case, "inputs"), exist_ok=True)
        os.makedirs(os.path.join(case, "expected"), exist_ok=True)
        with open(os.path.join(case, f"ge_onnx_{name}.pbtxt"), "w") as f:
            f.write(onnx_text(g))
        with open(os.path.join(case, f"ge_proto_{name}.txt"), "w") as f:
            f.write(proto_text(g))
        for k, v in inputs.items():
            np.save(os.path.join(case, "inputs", k + ".npy"), np.ascontiguousarray(v))
        for k, v in enumerate(outputs):
            np.save(os.path.join(case, "expected", f"out{k}.npy"), np.ascontiguousarray(v))
        print(f"{case}: {len(g.nodes)} GE nodes, {len(inputs)} inputs, {len(outputs)} outputs")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    write_cases(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else 0)
