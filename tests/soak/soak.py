#!/usr/bin/env python3
"""Differential soak of the whole compiler: random hint graphs through `afc run`.

Each graph is made from a seed (so any graph can be made again from its number): 1-3 dims with
size symbols, 1-3 inputs of any dtype (full, broadcast along some dims, or read transposed),
1-8 ops (unary and binary elementwise, comparisons with Where, Scalars, casts between every dtype,
explicit and implicit broadcasts, reductions over any dims), 1-2 outputs. Each graph is run with
several bindings (1, primes, unaligned tails, rows past the UB capacity) and input seeds; the
bindings of one graph share its kernel, so the host compiler runs once per graph (the kernel cache,
AF_CACHE_DIR, is reused between runs and soaks).

Every run must end in one of:
  pass     - exit 0, `PASS`: the kernel on the CPU runtime (its checks on: UB capacity, alignment,
             GM bounds, queue discipline) matches the reference interpreter;
  refused  - exit 2 with a reason code in brackets (`[UNSUPPORTED_...]`): the compiler said no.
Anything else is a finding: exit 1 (mismatch), a runtime check failure, a crash (signal), an
uncoded exit 2, a timeout. A finding is shrunk (fewer ops, smaller sizes) and written as a
reproducer graph (`<out>/soak_<seed>.graph.txt`, its bindings and seed in the header) that
tests/soak/regressions replays in ctest.

A run past --timeout seconds (600) is killed with its children and is a finding that names the
stage afc was in (`timeout after 600 s in stage: host compile`); it is not shrunk. Every 50 graphs
the soak prints `soak: seeds A..B done` (in seed order), so a stopped soak resumes with --start.

Usage: soak.py --afc PATH [--count N] [--start SEED] [--jobs J] [--out DIR] [--shapes K]
               [--timeout S]
"""
import argparse
import concurrent.futures
import copy
import os
import random
import re
import subprocess
import sys
import tempfile
import time

FLOATS = ["fp32", "fp16", "bf16"]
INTS = ["int8", "int16", "int32", "int64", "uint8"]
NUMERIC = FLOATS + INTS
ALL = NUMERIC + ["bool"]
UNARY_ANY = ["Abs", "Neg", "Relu", "Sign"]
UNARY_FLOAT = ["Exp", "Sigmoid", "Tanh", "Erf"]
UNARY_POSITIVE = ["Ln", "Sqrt", "Rsqrt", "Reciprocal"]  # made safe: op(|x| + 1)
BINARY_ANY = ["Add", "Sub", "Mul", "Maximum", "Minimum"]
BINARY_FLOAT = ["TrueDiv"]
COMPARE = ["Eq", "Ne", "Gt", "Ge", "Lt", "Le"]
REDUCE_ANY = ["Sum", "Max", "Min"]
REDUCE_FLOAT = ["Mean"]
SIZES_SMALL = [1, 2, 3, 5, 7, 8, 13, 16, 31, 37, 64, 101]
SIZES_BIG = [127, 257, 1000, 1031, 4099, 16411, 65537, 200003]
MAX_ELEMS = 1 << 21


# ----------------------------------------------------------------------------- graph spec
# A spec is a dict: rank, inputs [(dtype, kind, mask)], ops [tuple], outputs [value ids]. Values
# are numbered: inputs first (their Loads), then one value per op. Ops:
#   ("unary", op, a) ("pos", op, a) ("binary", op, a, b) ("scalar", op, a, text)
#   ("cmpwhere", cmp, a, b, c, d) ("cast", dtype, a) ("reduce", op, a, dims) ("bcast", a)


def operands(op):
    """The value ids an op reads."""
    if op[0] in ("unary", "pos", "cast", "scalar", "reduce"):
        return [op[2]]
    if op[0] == "binary":
        return [op[2], op[3]]
    if op[0] == "cmpwhere":
        return list(op[2:6])
    return [op[1]]  # bcast


def make_spec(seed):
    rng = random.Random(seed)
    rank = rng.choice([1, 2, 2, 2, 3, 3])
    spec = {"rank": rank, "inputs": [], "ops": [], "outputs": []}
    for _ in range(rng.choice([1, 1, 2, 2, 3])):
        kind = "full"
        mask = [True] * rank
        r = rng.random()
        if rank >= 2 and r < 0.25:
            mask = [rng.random() < 0.5 for _ in range(rank)]
            if all(mask):
                mask[rng.randrange(rank)] = False
            kind = "bcast"
        elif rank == 2 and r < 0.35:
            kind = "transpose"
        spec["inputs"].append((rng.choice(ALL), kind, mask))
    compute = rng.choice(NUMERIC)
    # every input to the compute dtype first
    values = []  # (dtype, reduced dims set)
    for i, (dt, kind, mask) in enumerate(spec["inputs"]):
        reduced = {d for d in range(rank) if not mask[d]}
        values.append((dt, reduced))
    live = []
    for i, (dt, _, _) in enumerate(spec["inputs"]):
        if dt != compute:
            spec["ops"].append(("cast", compute, i))
            values.append((compute, values[i][1]))
            live.append(len(values) - 1)
        else:
            live.append(i)
    reduces = 0
    for _ in range(rng.randint(1, 8)):
        used = {x for o in spec["ops"] for x in operands(o)}
        fresh = [v for v in live if v not in used]
        a = rng.choice(fresh) if fresh and rng.random() < 0.7 else rng.choice(live)
        dt, red = values[a]
        is_float = dt in FLOATS
        r = rng.random()
        if r < 0.25:
            pool = UNARY_ANY + (UNARY_FLOAT + UNARY_POSITIVE if is_float else [])
            op = rng.choice(pool)
            spec["ops"].append(("pos" if op in UNARY_POSITIVE else "unary", op, a))
            values.append((dt, red))
        elif r < 0.5:
            same = [v for v in live if values[v][0] == dt]
            b = rng.choice(same)
            op = rng.choice(BINARY_ANY + (BINARY_FLOAT if is_float else []))
            if op == "TrueDiv":  # a / (|b| + 1): no 0/0 (NaN propagation is not compared)
                spec["ops"].append(("pos", "Abs", b))
                values.append((dt, values[b][1]))
                b = len(values) - 1
            spec["ops"].append(("binary", op, a, b))
            values.append((dt, red & values[b][1]))
        elif r < 0.6:
            text = rng.choice(["0.5", "-1.25", "2", "3"]) if is_float else rng.choice(["1", "-1", "2"])
            if dt == "uint8" and text.startswith("-"):
                text = "1"
            spec["ops"].append(("scalar", rng.choice(["Add", "Mul", "Sub", "Maximum"]), a, text))
            values.append((dt, red))
        elif r < 0.7:
            same = [v for v in live if values[v][0] == dt]
            b, c, d = rng.choice(same), rng.choice(same), rng.choice(same)
            spec["ops"].append(("cmpwhere", rng.choice(COMPARE), a, b, c, d))
            values.append((dt, red & values[b][1] & values[c][1] & values[d][1]))
        elif r < 0.8:
            new = rng.choice(NUMERIC)
            spec["ops"].append(("cast", new, a))
            values.append((new, red))
        elif r < 0.9 and reduces < 2:
            free = [d for d in range(rank) if d not in red]
            if not free:
                continue
            dims = sorted(rng.sample(free, rng.randint(1, len(free))))
            op = rng.choice(REDUCE_ANY + (REDUCE_FLOAT if is_float else []))
            spec["ops"].append(("reduce", op, a, dims))
            values.append((dt, red | set(dims)))
            reduces += 1
        else:
            if not red:
                continue
            spec["ops"].append(("bcast", a))
            values.append((dt, set()))
        live.append(len(values) - 1)
    # Every dead end is an output (the last value first), so no node computes for nothing.
    used = {x for o in spec["ops"] for x in operands(o)}
    dead = [v for v in reversed(live) if v not in used]
    spec["outputs"] = dead[:4]
    if rng.random() < 0.4:
        spec["final_cast"] = rng.choice(ALL)
    return spec


# ----------------------------------------------------------------------------- rendering
class Renderer:
    def __init__(self, spec, name):
        self.spec, self.name = spec, name
        self.rank = spec["rank"]
        self.syms = ["s%d" % i for i in range(self.rank)]
        self.axes = ", ".join("z%d" % i for i in range(self.rank))
        self.lines = []
        self.count = 0
        self.vals = []  # (node name, dtype, reduced set)

    def reps(self, red):
        return ["1" if d in red else self.syms[d] for d in range(self.rank)]

    def strides(self, red):
        out = []
        for d in range(self.rank):
            if d in red:
                out.append("0")
                continue
            rest = [self.syms[j] for j in range(d + 1, self.rank) if j not in red]
            out.append(" * ".join(rest) if rest else "1")
        return out

    def tensor(self, dtype, red):
        return "%s axis={%s} repeats=(%s) strides=(%s)" % (
            dtype, self.axes, ", ".join(self.reps(red)), ", ".join(self.strides(red)))

    def node(self, op, ins, dtype, red, attrs=(), scalar=False, buffer=False):
        name = "n%d" % self.count
        args = "(" + ", ".join("%s.y0" % self.vals[i][0] for i in ins) + ")" if ins else ""
        self.lines.append("  [%d] %s : %s%s" % (self.count, name, op, args))
        for k, v in attrs:
            self.lines.append("    .attr.%s = %s" % (k, v))
        if not buffer:
            self.lines.append("    .axis = {%s}" % self.axes)
            self.lines.append("    .loop_axis = z%d" % (self.rank - 1))
        if scalar:
            self.lines.append("    .y0 : %s axis={} repeats=() strides=()" % dtype)
        else:
            self.lines.append("    .y0 : " + self.tensor(dtype, red))
        self.count += 1
        self.vals.append((name, dtype, set(red)))
        return len(self.vals) - 1

    def raw(self, op, ins, y0, attrs=(), buffer=False):
        name = "n%d" % self.count
        args = "(" + ", ".join("%s.y0" % self.vals[i][0] for i in ins) + ")" if ins else ""
        self.lines.append("  [%d] %s : %s%s" % (self.count, name, op, args))
        for k, v in attrs:
            self.lines.append("    .attr.%s = %s" % (k, v))
        if not buffer:
            self.lines.append("    .axis = {%s}" % self.axes)
            self.lines.append("    .loop_axis = z%d" % (self.rank - 1))
        self.lines.append("    .y0 : " + y0)
        self.count += 1
        return name

    def to_shape(self, v, red):
        """Broadcasts value v up to `red` (a subset of its reduced dims)."""
        name, dt, have = self.vals[v]
        if have == red:
            return v
        return self.node("Broadcast", [v], dt, red)

    def render(self):
        spec = self.spec
        ids = []  # spec value id -> renderer value index
        datas = []
        for i, (dt, kind, mask) in enumerate(spec["inputs"]):
            red = {d for d in range(self.rank) if not mask[d]}
            if kind == "transpose":
                s0, s1 = self.syms
                nm = self.raw("Data", [], "%s axis={%s} repeats=(%s * %s, 1) strides=(1, 0)" % (
                    dt, self.axes, s0, s1), [("index", str(i))], buffer=True)
                self.vals.append((nm, dt, set()))
                datas.append(len(self.vals) - 1)
            else:
                datas.append(self.node("Data", [], dt, red, [("index", str(i))], buffer=True))
        for i, (dt, kind, mask) in enumerate(spec["inputs"]):
            red = {d for d in range(self.rank) if not mask[d]}
            if kind == "transpose":
                s0, s1 = self.syms
                nm = self.raw("Load", [datas[i]], "%s axis={%s} repeats=(%s, %s) strides=(1, %s)" % (
                    dt, self.axes, s0, s1, s0))
                self.vals.append((nm, dt, set()))
                ids.append(len(self.vals) - 1)
            else:
                ids.append(self.node("Load", [datas[i]], dt, red))
        for op in spec["ops"]:
            ids.append(self.emit(op, ids))
        outs = []
        for k, v in enumerate(spec["outputs"]):
            src = ids[v]
            fc = spec.get("final_cast")
            if fc and k == 0 and fc != self.vals[src][1]:
                src = self.node("Cast", [src], fc, self.vals[src][2])
            _, dt, red = self.vals[src]
            st = self.node("Store", [src], dt, red)
            outs.append(self.node("Output", [st], dt, red, [("index", str(k))], buffer=True))
        head = ["# soak graph %s" % self.name, "Graph: %s" % self.name, "  type: hint", "Sizes:"]
        head += ["  %s: VAR" % s for s in self.syms]
        head.append("Axis:")
        head += ["  z%d(%d) : ORIGINAL, size:%s" % (d, d, self.syms[d]) for d in range(self.rank)]
        head.append("Nodes:")
        return "\n".join(head + self.lines) + "\n"

    def scalar(self, dt, text):
        return self.node("Scalar", [], dt, set(), [("value", '"%s"' % text)], scalar=True)

    def emit(self, op, ids):
        kind = op[0]
        if kind == "unary":
            a = ids[op[2]]
            return self.node(op[1], [a], self.vals[a][1], self.vals[a][2])
        if kind == "pos":  # op(|x| + 1)
            a = ids[op[2]]
            dt, red = self.vals[a][1], self.vals[a][2]
            ab = self.node("Abs", [a], dt, red)
            one = self.scalar(dt, "1")
            p = self.node("Add", [ab, one], dt, red)
            return self.node(op[1], [p], dt, red)
        if kind == "binary":
            a, b = ids[op[2]], ids[op[3]]
            red = self.vals[a][2] & self.vals[b][2]
            if (op[2] + op[3]) % 2 == 0:  # explicit broadcasts on half of them
                a, b = self.to_shape(a, red), self.to_shape(b, red)
            return self.node(op[1], [a, b], self.vals[a][1], red)
        if kind == "scalar":
            a = ids[op[2]]
            dt, red = self.vals[a][1], self.vals[a][2]
            s = self.scalar(dt, op[3])
            return self.node(op[1], [a, s], dt, red)
        if kind == "cmpwhere":
            a, b, c, d = (ids[x] for x in op[2:6])
            rc = self.vals[a][2] & self.vals[b][2]
            cond = self.node(op[1], [a, b], "bool", rc)
            red = rc & self.vals[c][2] & self.vals[d][2]
            cond = self.to_shape(cond, red)
            c, d = self.to_shape(c, red), self.to_shape(d, red)
            return self.node("Where", [cond, c, d], self.vals[c][1], red)
        if kind == "cast":
            a = ids[op[2]]
            return self.node("Cast", [a], op[1], self.vals[a][2])
        if kind == "reduce":
            a = ids[op[2]]
            return self.node(op[1], [a], self.vals[a][1], self.vals[a][2] | set(op[3]))
        if kind == "bcast":
            a = ids[op[1]]
            return self.to_shape(a, set())
        raise ValueError(op)


# ----------------------------------------------------------------------------- running
def make_binds(seed, rank, k):
    rng = random.Random(seed * 7919 + 1)
    out = []
    for j in range(k):
        while True:
            sizes = [rng.choice(SIZES_SMALL) for _ in range(rank)]
            if j % 2 == 1:  # one dim big: unaligned tails, rows past UB, many tiles
                sizes[rng.randrange(rank)] = rng.choice(SIZES_BIG)
            n = 1
            for s in sizes:
                n *= s
            if n <= MAX_ELEMS:
                break
        out.append(sizes)
    return out


def bind_text(sizes):
    return ",".join("s%d=%d" % (i, s) for i, s in enumerate(sizes))


CODE = re.compile(r"\[[A-Z][A-Z0-9_]+\]")


def classify(rc, out):
    """pass | refused | finding:<kind>"""
    if rc == 0 and "PASS" in out:
        return "pass"
    if rc == 1:
        return "finding:mismatch"
    if rc < 0:
        return "finding:crash(signal %d)" % -rc
    if rc == 2:
        low = out.lower()
        if "runtime" in low and ("violation" in low or "check" in low):
            return "finding:runtime-check"
        if "internal error" in low or "sanitizer" in low:
            return "finding:internal"
        if "failed to compile" in low:
            return "finding:host-compile-error"
        if CODE.search(out):
            return "refused"
        return "finding:uncoded-exit-2"
    return "finding:exit-%d" % rc


STAGE = re.compile(r"^afc stage: (.*)$", re.M)


def descendants(root):
    """The pids of every process below `root` (from /proc), children first."""
    children = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append(int(d))
    out, todo = [], [root]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def run_afc(afc, graph_path, sizes, seed, timeout=600):
    """(rc, output) of `afc run`; rc 124 when it ran past `timeout` seconds: then afc and its
    children (the host compiler) are killed and the output ends with the stage that ran out
    (afc's AF_TRACE_STAGES markers, autofuse/support/stage_trace.h)."""
    cmd = [afc, "run", graph_path, "--bind", bind_text(sizes), "--seed", str(seed)]
    env = dict(os.environ, AF_TRACE_STAGES="1")
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                             start_new_session=True)
    except OSError as e:  # afc missing or being rebuilt: a finding of the soak itself
        return 126, "cannot run %s: %s" % (afc, e)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        # The host compiler leads a process group of its own (toolchain/process.cc): kill every
        # descendant's group, then afc's, or an orphaned compiler keeps a core busy.
        for pid in descendants(p.pid) + [p.pid]:
            try:
                os.killpg(pid, 9)
            except (ProcessLookupError, PermissionError):
                pass
        out, _ = p.communicate()
        text = out.decode("utf-8", "replace")
        stages = STAGE.findall(text)
        stage = stages[-1] if stages else "start of afc (no stage reached)"
        return 124, text + "\ntimeout after %d s in stage: %s" % (timeout, stage)


def run_graph(afc, spec, name, binds, workdir, timeout=600):
    path = os.path.join(workdir, name + ".graph.txt")
    with open(path, "w") as f:
        f.write(Renderer(spec, name).render())
    results = []
    for j, sizes in enumerate(binds):
        rc, out = run_afc(afc, path, sizes, j + 1, timeout)
        cls = "finding:timeout" if rc == 124 else classify(rc, out)
        results.append((sizes, j + 1, cls, out))
        if cls == "refused":
            break  # refusals do not depend on the sizes here; one is enough
    return results


# ----------------------------------------------------------------------------- shrinking
def drop_op(spec, k):
    """The spec without op k: uses of its value become uses of its first operand."""
    s = copy.deepcopy(spec)
    n_in = len(s["inputs"])
    op = s["ops"][k]
    if op[0] in ("cast", "unary", "pos", "binary", "scalar", "reduce"):
        src = op[2]
    elif op[0] == "cmpwhere":
        src = op[4]
    else:
        src = op[1]
    vid = n_in + k  # value ids: inputs 0..n_in-1, then one per op in order

    def fix(x):
        if x == vid:
            return src
        return x - 1 if x > vid else x

    new_ops = []
    for j, o in enumerate(s["ops"]):
        if j == k:
            continue
        if o[0] in ("unary", "pos", "cast"):
            new_ops.append((o[0], o[1], fix(o[2])))
        elif o[0] == "binary":
            new_ops.append((o[0], o[1], fix(o[2]), fix(o[3])))
        elif o[0] == "scalar":
            new_ops.append((o[0], o[1], fix(o[2]), o[3]))
        elif o[0] == "cmpwhere":
            new_ops.append((o[0], o[1]) + tuple(fix(x) for x in o[2:6]))
        elif o[0] == "reduce":
            new_ops.append((o[0], o[1], fix(o[2]), o[3]))
        elif o[0] == "bcast":
            new_ops.append((o[0], fix(o[1])))
    s["ops"] = new_ops
    s["outputs"] = sorted(set(fix(x) for x in s["outputs"]))
    return s


def shrink(afc, spec, sizes, seed, cls, workdir, budget_s=600):
    """Fewer ops, fewer outputs, smaller sizes while the same kind of finding persists."""
    t0 = time.time()
    kind = cls

    def same(sp, sz):
        path = os.path.join(workdir, "shrink.graph.txt")
        try:
            text = Renderer(sp, "shrink").render()
        except (ValueError, IndexError, KeyError):
            return False
        with open(path, "w") as f:
            f.write(text)
        rc, out = run_afc(afc, path, sz, seed)
        return (classify(rc, out) if rc != 124 else "finding:timeout") == kind

    changed = True
    while changed and time.time() - t0 < budget_s:
        changed = False
        for k in reversed(range(len(spec["ops"]))):
            if time.time() - t0 > budget_s:
                break
            cand = drop_op(spec, k)
            if same(cand, sizes):
                spec, changed = cand, True
        if len(spec["outputs"]) > 1:
            cand = dict(spec, outputs=spec["outputs"][:1])
            if same(cand, sizes):
                spec, changed = cand, True
        if spec.get("final_cast"):
            cand = dict(spec)
            cand.pop("final_cast")
            if same(cand, sizes):
                spec, changed = cand, True
        for d in range(len(sizes)):
            for smaller in [1, 2, 3, 7, 37, 101, 1031]:
                if smaller >= sizes[d]:
                    break
                cand_sizes = list(sizes)
                cand_sizes[d] = smaller
                if same(spec, cand_sizes):
                    sizes, changed = cand_sizes, True
                    break
    return spec, sizes


def write_repro(out_dir, seed, spec, sizes, run_seed, cls, output, shrunk=True):
    os.makedirs(out_dir, exist_ok=True)
    name = "soak_%d" % seed
    text = Renderer(spec, name).render()
    tail = [l for l in output.strip().splitlines() if l.strip()][-3:]
    header = "# soak finding (%s), graph seed %d, %s\n# bind: %s\n# seed: %d\n" % (
        cls, seed, "shrunk" if shrunk else "not shrunk", bind_text(sizes), run_seed)
    header += "".join("# was: %s\n" % l[:200] for l in tail)
    path = os.path.join(out_dir, name + ".graph.txt")
    with open(path, "w") as f:
        f.write(header + text)
    return path


def soak_one(args, seed, workdir):
    spec = make_spec(seed)
    name = "soak_%d" % seed
    try:
        Renderer(spec, name).render()
    except (ValueError, IndexError, KeyError) as e:
        return seed, [("-", 0, "generator-error", str(e))], None
    results = run_graph(args.afc, spec, name, make_binds(seed, spec["rank"], args.shapes), workdir,
                        args.timeout)
    repro = None
    for sizes, run_seed, cls, out in results:
        if cls.startswith("finding"):
            # A timeout is not shrunk: each try could take the whole limit again.
            shrunk = args.shrink and cls != "finding:timeout"
            if shrunk:
                sspec, ssizes = shrink(args.afc, spec, sizes, run_seed, cls, workdir)
            else:
                sspec, ssizes = spec, sizes
            repro = write_repro(args.out, seed, sspec, ssizes, run_seed, cls, out, shrunk)
            break
    return seed, results, repro


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--afc", required=True)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--shapes", type=int, default=3, help="bindings per graph")
    ap.add_argument("--out", default="soak-findings")
    ap.add_argument("--no-shrink", dest="shrink", action="store_false")
    ap.add_argument("--timeout", type=int, default=600,
                    help="seconds one afc run may take; past it: a timeout finding naming the stage")
    ap.add_argument("--print-graph", type=int, help="print the graph of this seed and exit")
    args = ap.parse_args()
    if args.print_graph is not None:
        spec = make_spec(args.print_graph)
        sys.stdout.write(Renderer(spec, "soak_%d" % args.print_graph).render())
        print("# binds:", [bind_text(b) for b in make_binds(args.print_graph, spec["rank"], args.shapes)])
        return 0
    counts = {}
    reasons = {}
    findings = []
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="af-soak-") as workdir:
        def job(seed):
            d = os.path.join(workdir, str(seed))
            os.makedirs(d, exist_ok=True)
            return soak_one(args, seed, d)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
            for seed, results, repro in ex.map(job, range(args.start, args.start + args.count)):
                for sizes, run_seed, cls, out in results:
                    counts[cls] = counts.get(cls, 0) + 1
                    if cls == "refused":
                        code = CODE.search(out).group(0)
                        reasons[code] = reasons.get(code, 0) + 1
                    if cls.startswith("finding") or cls == "generator-error":
                        last = [l for l in out.strip().splitlines() if l.strip()][-1:] or [""]
                        print("graph %d bind %s: %s: %s" % (
                            seed, sizes if sizes == "-" else bind_text(sizes), cls, last[0][:300]),
                            flush=True)
                if repro:
                    findings.append(repro)
                    print("  reproducer:", repro, flush=True)
                if (seed - args.start + 1) % 50 == 0:
                    print("soak: seeds %d..%d done, %.0f s" % (args.start, seed, time.time() - t0),
                          flush=True)
    n = args.count
    runs = sum(counts.values())
    print("soak: %d graphs (seeds %d..%d), %d runs in %.0f s: %s" % (
        n, args.start, args.start + n - 1, runs, time.time() - t0,
        ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    if reasons:
        print("refusals: " + ", ".join("%s %d" % kv for kv in sorted(reasons.items())))
    bad = sum(v for k, v in counts.items() if k.startswith("finding") or k == "generator-error")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
