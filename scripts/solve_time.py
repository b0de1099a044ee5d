#!/usr/bin/env python3
"""What the generated tiling function's solve costs on the e2e kernels (docs/tiling.md, "Figures").

The kernels are the e2e graphs (tests/e2e/graphs) at their e2e shape sets (CASES in
tests/e2e/e2e_test.py): 264 kernels. Three measurements, each optional:

  --afc build/bin/afc            `afc tile --json` per kernel: the median of the kernels' solve_ns
                                 (docs/cli.md), with the load average before and after (timed
                                 figures on a shared machine are noisy; compare them with it).
  --count build/tests/af_solve_count
                                 callgrind's instruction count of af_tiling::SelectCase per kernel
                                 (one call each; deterministic, whatever the load), and with
                                 --annotate the hottest source lines.
  --decisions FILE               (with --count) every kernel's decision and every case's solution
                                 on the e2e kernels plus a seeded stream of further shapes, on
                                 ascend910b and ascend950, written to FILE: diff two builds' files
                                 to check that a change decides exactly as before.

Usage: scripts/solve_time.py [--afc AFC] [--count AF_SOLVE_COUNT [--annotate]] [--decisions FILE]
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPHS = os.path.join(ROOT, "tests", "e2e", "graphs")
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))


def e2e_kernels():
    """(graph file, bindings) for every e2e graph and shape of its e2e shape set."""
    import e2e_test  # the shape sets live there
    out = []
    for name in sorted(e2e_test.CASES):
        for b in e2e_test.CASES[name][1]:
            out.append((os.path.join(GRAPHS, name + ".graph.txt"), b))
    return out


def wide_kernels(kernels, per_graph=30, seed=7):
    """Further shapes per graph for the decision check: random sizes (1-16, primes, up to a cap
    that shrinks with the symbol count) and sizes just past powers of two."""
    rng = random.Random(seed)
    primes = [2, 3, 5, 7, 13, 31, 101, 127, 257, 1021, 4099, 8191, 65537]
    syms = {}
    for g, b in kernels:
        syms.setdefault(g, sorted(b))
    out = []
    for g, names in sorted(syms.items()):
        cap = 60 if len(names) >= 3 else (20000 if len(names) == 2 else 2000000)
        for _ in range(per_graph):
            b = {}
            for n in names:
                r = rng.randrange(4)
                v = (1 + rng.randrange(16) if r == 0 else rng.choice(primes) if r == 1
                     else 1 + rng.randrange(cap))
                b[n] = min(v, cap) if r != 1 else v
            out.append((g, b))
    return out


def bind_text(b):
    return ",".join("%s=%d" % (k, v) for k, v in sorted(b.items()))


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def time_afc(afc, kernels):
    load0 = loadavg()
    ns = []
    for g, b in kernels:
        r = subprocess.run([afc, "tile", g, "--bind", bind_text(b), "--json"],
                           capture_output=True, text=True, check=True)
        ns.append(json.loads(r.stdout)["solve_ns"])
    ns.sort()
    print("afc tile solve_ns over %d kernels: median %.2f us, p25 %.2f us, p75 %.2f us, "
          "mean %.2f us (load average %s before, %s after)"
          % (len(ns), statistics.median(ns) / 1000, ns[len(ns) // 4] / 1000,
             ns[3 * len(ns) // 4] / 1000, statistics.mean(ns) / 1000, load0, loadavg()))


def write_list(path, kernels):
    with open(path, "w") as f:
        for g, b in kernels:
            f.write("%s %s\n" % (g, bind_text(b)))


def callgrind_total(path):
    with open(path) as f:
        for line in f:
            m = re.match(r"(?:summary|totals):\s+(\d+)", line)
            if m:
                return int(m.group(1))
    return 0


def count(tool, kernels, tmp, annotate):
    lst = os.path.join(tmp, "kernels.txt")
    write_list(lst, kernels)
    out = os.path.join(tmp, "callgrind.out")
    # One dump per kernel (af_solve_count --dump-each): per-kernel counts, whose median is the
    # figure comparable with the median solve_ns.
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                    "--toggle-collect=*CountedSelect*", tool, lst, "--dump-each"],
                   capture_output=True, text=True, check=True)
    dumps = sorted((p for p in os.listdir(tmp) if p.startswith("callgrind.out.")),
                   key=lambda p: int(p.rsplit(".", 1)[1].split("-")[0]))
    per = [callgrind_total(os.path.join(tmp, p)) for p in dumps][:len(kernels)]
    total = sum(per)
    print("callgrind: %d instructions in SelectCase over %d kernels: mean %.0f, median %.0f "
          "per kernel (p25 %.0f, p75 %.0f)"
          % (total, len(per), total / len(per), statistics.median(per),
             sorted(per)[len(per) // 4], sorted(per)[3 * len(per) // 4]))
    if annotate:
        out = os.path.join(tmp, "callgrind.all")
        subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                        "--toggle-collect=*CountedSelect*", tool, lst],
                       capture_output=True, text=True, check=True)
        r = subprocess.run(["callgrind_annotate", "--inclusive=no", "--auto=yes",
                            "--threshold=99", out], capture_output=True, text=True, check=True)
        print(r.stdout)


def decisions(tool, kernels, tmp, path):
    every = kernels + wide_kernels(kernels)
    lst = os.path.join(tmp, "decisions.txt")
    write_list(lst, every)
    with open(path, "w") as f:
        for soc in ("ascend910b", "ascend950"):
            r = subprocess.run([tool, lst, "--soc", soc, "--decisions"], capture_output=True,
                               text=True, check=True)
            f.write("# %s\n%s" % (soc, r.stdout))
    print("decisions of %d kernels x 2 profiles written to %s" % (len(every), path))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--afc")
    ap.add_argument("--count")
    ap.add_argument("--annotate", action="store_true")
    ap.add_argument("--decisions")
    args = ap.parse_args()
    kernels = e2e_kernels()
    with tempfile.TemporaryDirectory() as tmp:
        if args.count:
            count(args.count, kernels, tmp, args.annotate)
            if args.decisions:
                decisions(args.count, kernels, tmp, args.decisions)
        if args.afc:
            time_afc(args.afc, kernels)
    return 0


if __name__ == "__main__":
    sys.exit(main())
