#!/usr/bin/python3
"""Writes, and compares, the generated sources of every e2e graph and oracle case.

A restructuring must not change what the compiler emits. `write` runs `afc compile` on every
test graph under tests/e2e/graphs, every PyTorch oracle case of tests/oracle/cases.py (written
with samples/torch/make_case.py, with the case's FLAGS), the ready-made cases under
samples/torch/cases and the bundled hint graph, into one tree; `compare` diffs two such trees
file by file. report.json is compared without the fields that measure time (timings, solve_ns).

    codegen_tree.py write --afc build/bin/afc --out /tmp/before [--jobs 2]
    codegen_tree.py compare /tmp/before /tmp/after

`compare` exits 0 when every file is identical, 1 otherwise (listing each difference).
"""
import argparse
import concurrent.futures
import filecmp
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TIME_KEYS = {"timings", "solve_ns", "ms"}


def load_module(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def inputs_to_compile(work):
    """(name, input path, flags) for every graph and case; oracle cases are written into work."""
    items = []
    graphs = os.path.join(ROOT, "tests", "e2e", "graphs")
    for f in sorted(os.listdir(graphs)):
        items.append(("e2e/" + f.split(".")[0], os.path.join(graphs, f), None))
    for f in sorted(os.listdir(os.path.join(ROOT, "samples", "hint_graphs"))):
        items.append(("samples/" + f.split(".")[0],
                      os.path.join(ROOT, "samples", "hint_graphs", f), None))
    cases = os.path.join(ROOT, "samples", "torch", "cases")
    for c in sorted(os.listdir(cases)):
        if os.path.isdir(os.path.join(cases, c)):
            items.append(("sample_cases/" + c, os.path.join(cases, c), None))
    sys.path.insert(0, os.path.join(ROOT, "samples", "torch"))
    import make_case  # noqa: E402  (needs PyTorch)
    import torch  # noqa: E402

    oracle = os.path.join(ROOT, "tests", "oracle", "cases.py")
    cases_mod = load_module(oracle, "af_oracle_cases")
    for name, (fn, make_inputs) in cases_mod.CASES.items():
        case_dir = os.path.join(work, "oracle_cases", name)
        if not os.path.isdir(case_dir):
            torch.manual_seed(0)
            make_case.make_case(fn, make_inputs(), case_dir)
        items.append(("oracle/" + name, case_dir, getattr(cases_mod, "FLAGS", {}).get(name)))
    return items


def compile_one(afc, out, item):
    name, path, flags = item
    dest = os.path.join(out, name)
    cmd = [afc, "compile", path, "--out", dest, "--force"] + (["--flags", flags] if flags else [])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "afc_exit.txt"), "w") as f:
        f.write("exit %d\n" % r.returncode)
    return name, r.returncode


def write(args):
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    items = inputs_to_compile(args.work or os.path.join(out, "_work"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, rc in pool.map(lambda it: compile_one(args.afc, out, it), items):
            print("%-40s exit %d" % (name, rc))
    with open(os.path.join(out, "CHECKOUT"), "w") as f:
        f.write(ROOT + "\n")
    print("wrote %d inputs into %s" % (len(items), out))
    return 0


def strip_times(node):
    if isinstance(node, dict):
        return {k: strip_times(v) for k, v in node.items() if k not in TIME_KEYS}
    if isinstance(node, list):
        return [strip_times(v) for v in node]
    return node


CHECKOUT_A = CHECKOUT_B = ROOT


def checkout_of(tree):
    """The source checkout a tree was written from (recorded by `write`)."""
    try:
        with open(os.path.join(tree, "CHECKOUT")) as f:
            return f.read().strip()
    except OSError:
        return ROOT


def files_under(root):
    found = set()
    for dp, dn, fn in os.walk(root):
        dn[:] = [d for d in dn if d != "_work"]
        fn = [f for f in fn if f not in ("DONE", "CHECKOUT")]
        for f in fn:
            found.add(os.path.relpath(os.path.join(dp, f), root))
    return found


def same(a, b, rel):
    if os.path.basename(rel) in ("report.json", "fusion.json"):
        # Paths inside the reports name the checkout that wrote them: compare them relative.
        with open(a) as fa, open(b) as fb:
            ja = json.loads(fa.read().replace(CHECKOUT_A + "/", ""))
            jb = json.loads(fb.read().replace(CHECKOUT_B + "/", ""))
        # the input path may differ between trees (oracle cases are written under each tree)
        return strip_times(ja) == strip_times(jb) if "input" not in ja else \
            strip_times({k: v for k, v in ja.items() if k != "input"}) == \
            strip_times({k: v for k, v in jb.items() if k != "input"})
    return filecmp.cmp(a, b, shallow=False)


def compare(args):
    global CHECKOUT_A, CHECKOUT_B
    CHECKOUT_A = checkout_of(args.a)
    CHECKOUT_B = checkout_of(args.b)
    fa, fb = files_under(args.a), files_under(args.b)
    bad = 0
    for rel in sorted(fa - fb):
        print("only in %s: %s" % (args.a, rel))
        bad += 1
    for rel in sorted(fb - fa):
        print("only in %s: %s" % (args.b, rel))
        bad += 1
    both = sorted(fa & fb)
    for rel in both:
        if not same(os.path.join(args.a, rel), os.path.join(args.b, rel), rel):
            print("differs: %s" % rel)
            bad += 1
    print("%d files compared, %d identical, %d differences" % (len(both), len(both) - bad
                                                              if bad <= len(both) else 0, bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    w.add_argument("--afc", required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--work", help="where oracle case folders are written (default OUT/_work)")
    w.add_argument("--jobs", type=int, default=2)
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args()
    return write(args) if args.cmd == "write" else compare(args)


if __name__ == "__main__":
    sys.exit(main())
