# Writes tests/e2e/graphs/split_many.graph.txt: 60 pieces of abs(x) split along dim 1, each
# stored (grouped split: the pieces share one load queue, one TBuf and one store queue), and
# tests/e2e/graphs/concat_many.graph.txt: y = abs(cat([x0, ..., x49], dim=1)), fp32, the
# inputs [s0, s1] and [s0, s2] alternately: more inputs than the UB concat takes (48), so the
# Concat becomes one store per input (CONCAT_TO_STORES, the grouped concat with one input per
# group); and the schedule golden test of the same graph, tests/golden/schedule/concat_many.test.
#   python3 tests/e2e/tools/make_many_parts.py tests/e2e/graphs tests/golden/schedule
import os
import sys

N = 50
out = sys.argv[1]
width = ["s1" if k % 2 == 0 else "s2" for k in range(N)]
total = f"{N // 2} * s1 + {N // 2} * s2"
L = ["# y = abs(cat([x0, ..., x%d], dim=1)), fp32: x(2k) [s0, s1], x(2k+1) [s0, s2]; %d inputs, more"
     % (N - 1, N),
     "# than the UB concat takes, so each input is stored into its columns of y (CONCAT_TO_STORES).",
     "# Written by tests/e2e/tools/make_many_parts.py.",
     "Graph: concat_many", "  type: hint", "Sizes:", "  s0: VAR", "  s1: VAR", "  s2: VAR",
     "Axis:", "  z0(0) : ORIGINAL, size:s0", f"  z1(1) : ORIGINAL, size:{total}", "Nodes:"]
i = 0


def node(text):
    global i
    L.append(f"  [{i}] {text}")
    i += 1


for k in range(N):
    node(f"x{k} : Data")
    L.append(f"    .attr.index = {k}")
    L.append(f"    .y0 : fp32 axis={{z0, z1}} repeats=(s0 * {width[k]}, 1) strides=(1, 0)")
for k in range(N):
    node(f"l{k} : Load(x{k}.y0)")
    L += ["    .axis = {z0, z1}", "    .loop_axis = z1",
          f"    .y0 : fp32 axis={{z0, z1}} repeats=(s0, {width[k]}) strides=({width[k]}, 1)"]
node("cat : Concat(" + ", ".join(f"l{k}.y0" for k in range(N)) + ")")
full = f"    .y0 : fp32 axis={{z0, z1}} repeats=(s0, {total}) strides=({total}, 1)"
L += ["    .axis = {z0, z1}", "    .loop_axis = z1", full]
node("y : Abs(cat.y0)")
L += ["    .axis = {z0, z1}", "    .loop_axis = z1", full]
node("st : Store(y.y0)")
L += ["    .axis = {z0, z1}", "    .loop_axis = z1", full]
node("out : Output(st.y0)")
L += ["    .attr.index = 0", full]
with open(os.path.join(out, "concat_many.graph.txt"), "w") as f:
    f.write("\n".join(L) + "\n")
GOLDEN = """# The graph of tests/e2e/graphs/concat_many.graph.txt (both written by
# tests/e2e/tools/make_many_parts.py): 50 concat inputs, more than the UB concat takes. Each
# input's load, its copy of the Abs and its store follow one another, so the loads of one width
# share a VECIN queue, the Abs results a TBuf and the stores a VECOUT queue, each sized for that
# width: four buffers whatever the input count.
# RUN: schedule
# CHECK: decision CONCAT_TO_STORES: Concat 'cat' has 50 inputs, more than the UB concat takes (48): one store per input into its region of the output (2 node(s) after it copied per input), AutoFuse's grouped concat with one input per group
# CHECK: decision SHARED_VECOUT_QUEUE: 50 stores share 2 VECOUT queues, one per part
# CHECK: decision REUSE_QUEUE: 'l49' reuses q3
# CHECK-LABEL: Nodes:
# CHECK: l0 : Load(x0.y0)
# CHECK: y_c0 : Abs(l0.y0)
# CHECK: st_c0 : Store(y_c0.y0)
# CHECK-NEXT: .attr.offset = expr(0)
# CHECK: st_c49 : Store(y_c49.y0)
# CHECK-NEXT: .attr.offset = expr(25 * s1 + 24 * s2)
# CHECK: out : Output(st_c0.y0,
# CHECK-NOT: Concat
# CHECK-LABEL: Buffers:
# CHECK-NEXT: q0 : TQue<VECOUT> x2, 4-byte elements, holds {}, part 0 (extent s1 along z1)
# CHECK-NEXT: q1 : TQue<VECOUT> x2, 4-byte elements, holds {}, part 1 (extent s2 along z1)
# CHECK-NEXT: q2 : TQue<VECIN> x2, 4-byte elements, holds {l0, l2,
# CHECK-NEXT: q3 : TQue<VECIN> x2, 4-byte elements, holds {l1, l3,
# CHECK-NEXT: b4 : TBuf<VECCALC> x1, 4-byte elements, holds {y_c0, y_c2,
# CHECK-NEXT: b5 : TBuf<VECCALC> x1, 4-byte elements, holds {y_c1, y_c3,
# CHECK-NEXT: Templates:
"""
if len(sys.argv) > 2:
    with open(os.path.join(sys.argv[2], "concat_many.test"), "w") as f:
        f.write(GOLDEN + "\n".join(l for l in L if not l.startswith("#")) + "\n")

# split_many: y_k = abs(x)[:, k * s1:(k + 1) * s1] for k < 60, fp32, x [s0, 60 * s1].
M = 60
S = ["# y_k = abs(x)[:, k * s1:(k + 1) * s1] for k in 0..%d, fp32: x [s0, %d * s1]. The Split folds"
     % (M - 1, M),
     "# into one load per piece (FOLD_SPLIT); %d pieces of one extent are one part along z1." % M,
     "# Written by tests/e2e/tools/make_many_parts.py.",
     "Graph: split_many", "  type: hint", "Sizes:", "  s0: VAR", "  s1: VAR", "Axis:",
     "  z0(0) : ORIGINAL, size:s0", f"  z1(1) : ORIGINAL, size:{M} * s1", "Nodes:"]
piece = "    .y0 : fp32 axis={z0, z1} repeats=(s0, s1) strides=(s1, 1)"
loop = ["    .axis = {z0, z1}", "    .loop_axis = z1"]
nodes = [("x : Data", [".attr.index = 0",
                       f".y0 : fp32 axis={{z0, z1}} repeats=(s0 * {M} * s1, 1) strides=(1, 0)"])]
nodes.append(("lx : Load(x.y0)", loop + [
    f"    .y0 : fp32 axis={{z0, z1}} repeats=(s0, {M} * s1) strides=({M} * s1, 1)"]))
nodes.append(("sp : Split(lx.y0)", loop + [
    f"    .y{k} : fp32 axis={{z0, z1}} repeats=(s0, s1) strides=(s1, 1)" for k in range(M)]))
for k in range(M):
    nodes.append((f"a{k} : Abs(sp.y{k})", loop + [piece]))
    nodes.append((f"st{k} : Store(a{k}.y0)", loop + [piece]))
for k in range(M):
    nodes.append((f"y{k} : Output(st{k}.y0)", [f".attr.index = {k}", piece.strip()]))
for i, (head, lines) in enumerate(nodes):
    S.append(f"  [{i}] {head}")
    S += [l if l.startswith("    ") else "    " + l for l in lines]
with open(os.path.join(out, "split_many.graph.txt"), "w") as f:
    f.write("\n".join(S) + "\n")
