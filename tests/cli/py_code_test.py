#!/usr/bin/python3
"""py_code_<graph>.py of the --codegen_compile_debug tree, run with python3 and numpy alone,
reproduces the expected results of every e2e graph: for each graph of tests/e2e/e2e_test.py (one
small shape of its shape set, inputs and expectations made by e2e_test's numpy cases, which the
e2e tests hold the built kernels to), `afc compile --no-build` with the dump on, then the
script with --bind/--inputs/--expect must print PASS. A planted wrong expectation must FAIL.

    py_code_test.py --afc PATH --work DIR [--graph NAME ...]
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "e2e"))
import e2e_test  # noqa: E402


def small_shape(shapes):
    """The smallest shape whose sizes are all above 1 (else the first)."""
    full = [b for b in shapes if min(b.values()) > 1]
    return min(full, key=lambda b: np.prod(list(b.values()))) if full else shapes[0]


def script_for(afc, graph, bind_s, work):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    path = os.path.join(os.path.dirname(HERE), "e2e", "graphs", graph + ".graph.txt")
    dbg = os.path.join(work, "dbg")
    cmd = [afc, "compile", path, "--bind", bind_s, "--no-build", "--out",
           os.path.join(work, "out"), "--flags", "--codegen_compile_debug=true;--debug_dir=" + dbg]
    r = subprocess.run(cmd + e2e_test.graph_soc(path), capture_output=True, text=True)
    if r.returncode != 0:
        return None, "afc compile: " + r.stderr.strip()
    found = glob.glob(os.path.join(dbg, "autofuse_compile_debug", "*", "*", "py_code_*.py"))
    if len(found) != 1:
        return None, "expected one py_code script, found %d" % len(found)
    return found[0], ""


def run_script(script, bind_s, d_in, d_out):
    r = subprocess.run([sys.executable, script, "--bind", bind_s, "--inputs", d_in, "--expect",
                        d_out], capture_output=True, text=True)
    lines = (r.stdout + r.stderr).strip().splitlines()
    return r.returncode, lines[-1] if lines else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--afc", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--graph", action="append")
    args = ap.parse_args()
    graphs = args.graph or sorted(e2e_test.CASES)
    failed = 0
    planted = None
    for g in graphs:
        make, shapes = e2e_test.CASES[g]
        bind = small_shape(shapes)
        bind_s = ",".join("%s=%d" % kv for kv in sorted(bind.items()))
        work = os.path.join(args.work, g)
        script, why = script_for(args.afc, g, bind_s, work)
        if script is None:
            print("FAIL %s [%s]: %s" % (g, bind_s, why))
            failed += 1
            continue
        ins, outs = make(np.random.default_rng(0), bind)
        d_in, d_out = os.path.join(work, "in"), os.path.join(work, "expect")
        os.makedirs(d_in)
        os.makedirs(d_out)
        for k, a in enumerate(ins):
            np.save(os.path.join(d_in, "in%d.npy" % k), a)
        for k, a in enumerate(outs):
            np.save(os.path.join(d_out, "out%d.npy" % k), a)
        rc, last = run_script(script, bind_s, d_in, d_out)
        ok = rc == 0 and last == "PASS"
        print("%s %s [%s]: %s" % ("ok  " if ok else "FAIL", g, bind_s, last), flush=True)
        failed += not ok
        if ok and planted is None and outs[0].dtype.kind == "f" and outs[0].size > 1:
            planted = (script, bind_s, d_in, outs, work)
    # The check can fail: a wrong expectation is caught.
    if planted is None:
        print("FAIL: no graph to plant a wrong expectation in")
        return 1
    script, bind_s, d_in, outs, work = planted
    d_bad = os.path.join(work, "bad")
    os.makedirs(d_bad)
    for k, a in enumerate(outs):
        b = a.copy()
        if k == 0:
            b.flat[0] = b.flat[0] + 1.0
        np.save(os.path.join(d_bad, "out%d.npy" % k), b)
    rc, last = run_script(script, bind_s, d_in, d_bad)
    print("%s planted wrong expectation: %s" % ("ok  " if last == "FAIL" and rc != 0 else "FAIL",
                                                 last))
    failed += not (last == "FAIL" and rc != 0)
    print("%d of %d graphs reproduced" % (len(graphs) - failed, len(graphs)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
