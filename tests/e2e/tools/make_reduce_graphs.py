# Writes the reduce test graphs of tests/e2e/graphs in the readable text form:
#   python3 tests/e2e/tools/make_reduce_graphs.py tests/e2e/graphs
import os, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)

def dims_str(shape):
    return ", ".join(shape)

class G:
    def __init__(self, name, comment, sizes, axes):
        self.name, self.comment, self.sizes, self.axes = name, comment, sizes, axes
        self.nodes = []
    def strides(self, reps):
        st = []
        acc = "1"
        for r in reversed(reps):
            if r == "1":
                st.append("0")
            else:
                st.append(acc)
                acc = r if acc == "1" else f"{r} * {acc}" if False else (r if acc == "1" else f"({acc}) * {r}")
        return list(reversed(st))
    def node(self, name, op, inputs, dtype, reps, attrs=None, loop=True):
        self.nodes.append((name, op, inputs, dtype, reps, attrs or {}, loop))
    def text(self):
        L = [f"# {self.comment}", f"Graph: {self.name}", "  type: hint", "Sizes:"]
        for s in self.sizes: L.append(f"  {s}: VAR")
        L.append("Axis:")
        for i, (a, size) in enumerate(self.axes): L.append(f"  {a}({i}) : ORIGINAL, size:{size}")
        L.append("Nodes:")
        axes = ", ".join(a for a, _ in self.axes)
        for i, (name, op, inputs, dtype, reps, attrs, loop) in enumerate(self.nodes):
            ins = ", ".join(f"{x}.y0" for x in inputs)
            L.append(f"  [{i}] {name} : {op}" + (f"({ins})" if ins else ""))
            for k, v in attrs.items(): L.append(f"    .attr.{k} = " + (f"\"{v}\"" if k == "value" else f"{v}"))
            if op not in ("Data", "Output"):
                L.append(f"    .axis = {{{axes}}}")
                L.append(f"    .loop_axis = {self.axes[-1][0]}")
            if reps is None:
                L.append(f"    .y0 : {dtype} axis={{}} repeats=() strides=()")
            else:
                st = self.strides(reps)
                L.append(f"    .y0 : {dtype} axis={{{axes}}} repeats=({', '.join(reps)}) strides=({', '.join(st)})")
        return "\n".join(L) + "\n"
    def write(self):
        open(os.path.join(out, self.name + ".graph.txt"), "w").write(self.text())

def red(reps, rdims):
    return [("1" if i in rdims else r) for i, r in enumerate(reps)]

def simple_reduce(name, op, shape, rdims, dtype="fp32", comment=""):
    axes = [(f"z{i}", s) for i, s in enumerate(shape)]
    g = G(name, comment or f"{op} over dims {rdims} of {dtype} {shape}", shape, axes)
    g.node("x", "Data", [], dtype, shape, {"index": 0})
    g.node("lx", "Load", ["x"], dtype, shape)
    g.node("r", op, ["lx"], dtype, red(shape, rdims))
    g.node("st", "Store", ["r"], dtype, red(shape, rdims))
    g.node("out", "Output", ["st"], dtype, red(shape, rdims), {"index": 0})
    g.write()

simple_reduce("sum_ar", "Sum", ["s0", "s1"], [1])
simple_reduce("mean_ra", "Mean", ["s0", "s1"], [0])
simple_reduce("max_ara", "Max", ["s0", "s1", "s2"], [1])
simple_reduce("min_ara", "Min", ["s0", "s1", "s2"], [1])
simple_reduce("sum_rar", "Sum", ["s0", "s1", "s2"], [0, 2])
simple_reduce("prod_ar", "Prod", ["s0", "s1"], [1])
simple_reduce("sum_all_fp16", "Sum", ["s0", "s1"], [0, 1], "fp16")
simple_reduce("mean_ar_bf16", "Mean", ["s0", "s1"], [1], "bf16")

# any/all over a bool input produced by a comparison-free path: Data bool
def logical(name, op):
    shape = ["s0", "s1"]
    axes = [(f"z{i}", s) for i, s in enumerate(shape)]
    g = G(name, f"{op} over dim 1 of bool {shape}", shape, axes)
    g.node("x", "Data", [], "bool", shape, {"index": 0})
    g.node("lx", "Load", ["x"], "bool", shape)
    g.node("r", op, ["lx"], "bool", red(shape, [1]))
    g.node("st", "Store", ["r"], "bool", red(shape, [1]))
    g.node("out", "Output", ["st"], "bool", red(shape, [1]), {"index": 0})
    g.write()
logical("any_ar", "Any")
logical("all_ar", "All")

# multi-output: y = x * x stored, and s = sum(y, dim 1) stored
shape = ["s0", "s1"]; axes = [("z0", "s0"), ("z1", "s1")]
g = G("sq_and_sum", "y = x*x and sum(y, dim=1): a pre-reduce store and a reduce store", shape, axes)
g.node("x", "Data", [], "fp32", shape, {"index": 0})
g.node("lx", "Load", ["x"], "fp32", shape)
g.node("sq", "Mul", ["lx", "lx"], "fp32", shape)
g.node("st0", "Store", ["sq"], "fp32", shape)
g.node("out0", "Output", ["st0"], "fp32", shape, {"index": 0})
g.node("r", "Sum", ["sq"], "fp32", red(shape, [1]))
g.node("sc", "Scalar", [], "fp32", None, {"value": "0.5"})
g.node("h", "Mul", ["r", "sc"], "fp32", red(shape, [1]))
g.node("st1", "Store", ["h"], "fp32", red(shape, [1]))
g.node("out1", "Output", ["st1"], "fp32", red(shape, [1]), {"index": 1})
g.write()

# softmax over the last dim, fp16 in/out
g = G("softmax_fp16", "softmax(x, dim=-1), fp16 [s0, s1]", shape, axes)
g.node("x", "Data", [], "fp16", shape, {"index": 0})
g.node("lx", "Load", ["x"], "fp16", shape)
g.node("mx", "Max", ["lx"], "fp16", red(shape, [1]))
g.node("sub", "Sub", ["lx", "mx"], "fp16", shape)
g.node("ex", "Exp", ["sub"], "fp16", shape)
g.node("sm", "Sum", ["ex"], "fp16", red(shape, [1]))
g.node("dv", "Div", ["ex", "sm"], "fp16", shape)
g.node("st", "Store", ["dv"], "fp16", shape)
g.node("out", "Output", ["st"], "fp16", shape, {"index": 0})
g.write()

# layernorm over the last dim, bf16 x, fp32 gamma/beta [1, s1]
g = G("layernorm_bf16", "layernorm(x, [s1], gamma, beta, eps=1e-5), x bf16 [s0, s1], gamma/beta fp32", shape, axes)
row = ["1", "s1"]
g.node("x", "Data", [], "bf16", shape, {"index": 0})
g.node("gamma", "Data", [], "fp32", row, {"index": 1})
g.node("beta", "Data", [], "fp32", row, {"index": 2})
g.node("lx", "Load", ["x"], "bf16", shape)
g.node("xf", "Cast", ["lx"], "fp32", shape)
g.node("mu", "Mean", ["xf"], "fp32", red(shape, [1]))
g.node("d", "Sub", ["xf", "mu"], "fp32", shape)
g.node("d2", "Mul", ["d", "d"], "fp32", shape)
g.node("var", "Mean", ["d2"], "fp32", red(shape, [1]))
g.node("eps", "Scalar", [], "fp32", None, {"value": "1e-05"})
g.node("ve", "Add", ["var", "eps"], "fp32", red(shape, [1]))
g.node("rs", "Rsqrt", ["ve"], "fp32", red(shape, [1]))
g.node("nx", "Mul", ["d", "rs"], "fp32", shape)
g.node("lg", "Load", ["gamma"], "fp32", row)
g.node("lb", "Load", ["beta"], "fp32", row)
g.node("sc", "Mul", ["nx", "lg"], "fp32", shape)
g.node("y", "Add", ["sc", "lb"], "fp32", shape)
g.node("yb", "Cast", ["y"], "bf16", shape)
g.node("st", "Store", ["yb"], "bf16", shape)
g.node("out", "Output", ["st"], "bf16", shape, {"index": 0})
g.write()

# rmsnorm, fp16 x and weight [1, s1]
g = G("rmsnorm_fp16", "rmsnorm: x * rsqrt(mean(x^2) + 1e-6) * w, fp16 [s0, s1]", shape, axes)
g.node("x", "Data", [], "fp16", shape, {"index": 0})
g.node("w", "Data", [], "fp16", row, {"index": 1})
g.node("lx", "Load", ["x"], "fp16", shape)
g.node("x2", "Mul", ["lx", "lx"], "fp16", shape)
g.node("ms", "Mean", ["x2"], "fp16", red(shape, [1]))
g.node("eps", "Scalar", [], "fp16", None, {"value": "1e-06"})
g.node("me", "Add", ["ms", "eps"], "fp16", red(shape, [1]))
g.node("rs", "Rsqrt", ["me"], "fp16", red(shape, [1]))
g.node("nx", "Mul", ["lx", "rs"], "fp16", shape)
g.node("lw", "Load", ["w"], "fp16", row)
g.node("y", "Mul", ["nx", "lw"], "fp16", shape)
g.node("st", "Store", ["y"], "fp16", shape)
g.node("out", "Output", ["st"], "fp16", shape, {"index": 0})
g.write()

# RARA four-axis reduce over dims 0 and 2
simple_reduce("sum_rara", "Sum", ["s0", "s1", "s2", "s3"], [0, 2])
simple_reduce("sum_arar", "Sum", ["s0", "s1", "s2", "s3"], [1, 3])

# ArgMax over the innermost dim (issue 22): the index (int64 or int32) of the first maximum; the
# fp16 graph also stores the maximum itself (a Max next to the ArgMax in one kernel).
def argmax(name, shape, dtype, out_dtype, with_max=False):
    axes = [(f"z{i}", s) for i, s in enumerate(shape)]
    rd = red(shape, [len(shape) - 1])
    what = "ArgMax" + (" and Max" if with_max else "")
    g = G(name, f"{what} over the innermost dim of {dtype} {shape} ({out_dtype} index)", shape, axes)
    g.node("x", "Data", [], dtype, shape, {"index": 0})
    g.node("lx", "Load", ["x"], dtype, shape)
    g.node("am", "ArgMax", ["lx"], out_dtype, rd)
    g.node("st", "Store", ["am"], out_dtype, rd)
    if with_max:
        g.node("mx", "Max", ["lx"], dtype, rd)
        g.node("st2", "Store", ["mx"], dtype, rd)
    g.node("out", "Output", ["st"], out_dtype, rd, {"index": 0})
    if with_max:
        g.node("out2", "Output", ["st2"], dtype, rd, {"index": 1})
    g.write()

argmax("argmax_ar", ["s0", "s1"], "fp32", "int64")
argmax("argmax_max_fp16", ["s0", "s1", "s2"], "fp16", "int32", with_max=True)
