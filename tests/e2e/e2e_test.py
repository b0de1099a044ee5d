#!/usr/bin/env python3
"""Numeric end-to-end tests: every test hint graph x a shape set, run through `afc run` with
inputs and expectations made by numpy (not by our interpreter). Each case must end with PASS.

Shape sets cover 1, primes, unaligned tails, rows past the UB capacity, many tiles per core and
more outer iterations than cores. Usage: e2e_test.py --afc PATH [--graph NAME] [--keep DIR]
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def bf16_round(a):
    """Rounds float32 values to bfloat16 (round to nearest even), kept in float32."""
    a = np.asarray(a, dtype=np.float32)
    bits = a.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    out = rounded.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), a, out).astype(np.float32)


def sigmoid(x):
    return (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(np.float32)


# name -> (input makers, expected function, shape sets). Inputs get shapes from the bindings.
def rnd(rng, shape, lo=-2.0, hi=2.0):
    return rng.uniform(lo, hi, size=shape).astype(np.float32)


SHAPES_2D = [
    {"s0": 1, "s1": 1},
    {"s0": 1, "s1": 7},
    {"s0": 13, "s1": 1},
    {"s0": 37, "s1": 101},        # primes, unaligned tails
    {"s0": 1000, "s1": 3},        # many rows, narrow: more outer iterations than cores
    {"s0": 3, "s1": 200003},      # rows past the UB capacity: the inner axis is tiled
    {"s0": 1024, "s1": 2048},     # many tiles per core
]


def case_abs_add_relu(rng, b):
    x, y = rnd(rng, (b["s0"], b["s1"])), rnd(rng, (b["s0"], b["s1"]))
    return [x, y], [np.maximum(np.abs(x) + y, 0).astype(np.float32)]


def case_bcast_leading(rng, b):
    x, v = rnd(rng, (b["s0"], b["s1"])), rnd(rng, (1, b["s1"]))
    return [x, v], [np.exp(x * v).astype(np.float32)]


def case_bcast_trailing(rng, b):
    x, m = rnd(rng, (b["s0"], b["s1"])), rnd(rng, (b["s0"], 1))
    return [x, m], [np.exp(x - m).astype(np.float32)]


def case_bcast_middle(rng, b):
    x, v = rnd(rng, (b["s0"], b["s1"], b["s2"])), rnd(rng, (b["s0"], 1, b["s2"]))
    return [x, v], [np.maximum(x + v, x).astype(np.float32)]


def case_fp16_casts(rng, b):
    x = rnd(rng, (b["s0"], b["s1"]), -100, 100).astype(np.float16)
    return [x], [np.sqrt(np.abs(x.astype(np.float32))).astype(np.float16)]


def case_bf16_mul_add(rng, b):
    x, y = bf16_round(rnd(rng, (b["s0"], b["s1"]))), bf16_round(rnd(rng, (b["s0"], b["s1"])))
    return [x, y], [bf16_round(x * y + x)]


def case_scalar_affine_1d(rng, b):
    x = rnd(rng, (b["s0"],))
    return [x], [(x * np.float32(2.5) + np.float32(-1.25)).astype(np.float32)]


def case_sigmoid_bcast_4d(rng, b):
    x = rnd(rng, (b["s0"], b["s1"], b["s2"], b["s3"]))
    v = rnd(rng, (1, b["s1"], 1, b["s3"]))
    return [x, v], [(sigmoid(x) + v).astype(np.float32)]


def case_five_inputs_two_outputs(rng, b):
    ins = [rnd(rng, (b["s0"], b["s1"])) for _ in range(5)]
    a, bb, c, d, e = ins
    return ins, [((a + bb) * (c - d) + e).astype(np.float32), np.tanh(a).astype(np.float32)]


CASES = {
    "abs_add_relu": (case_abs_add_relu, SHAPES_2D),
    "bcast_leading": (case_bcast_leading, SHAPES_2D),
    "bcast_trailing": (case_bcast_trailing, SHAPES_2D),
    "bcast_middle": (case_bcast_middle, [
        {"s0": 1, "s1": 1, "s2": 1}, {"s0": 2, "s1": 3, "s2": 5}, {"s0": 7, "s1": 11, "s2": 13},
        {"s0": 64, "s1": 1, "s2": 33}, {"s0": 3, "s1": 5, "s2": 70001},
        {"s0": 97, "s1": 31, "s2": 8}]),
    "fp16_casts": (case_fp16_casts, SHAPES_2D),
    "bf16_mul_add": (case_bf16_mul_add, SHAPES_2D),
    "scalar_affine_1d": (case_scalar_affine_1d, [
        {"s0": 1}, {"s0": 7}, {"s0": 8}, {"s0": 4099}, {"s0": 1000003}, {"s0": 2 * 1024 * 1024}]),
    "sigmoid_bcast_4d": (case_sigmoid_bcast_4d, [
        {"s0": 1, "s1": 1, "s2": 1, "s3": 1}, {"s0": 2, "s1": 3, "s2": 5, "s3": 7},
        {"s0": 5, "s1": 4, "s2": 3, "s3": 65537}, {"s0": 50, "s1": 2, "s2": 9, "s3": 3}]),
    "five_inputs_two_outputs": (case_five_inputs_two_outputs, SHAPES_2D[:5]),
}


def run_case(afc, graph, bind, tmp, seed):
    make, _ = CASES[graph]
    rng = np.random.default_rng(seed)
    ins, outs = make(rng, bind)
    d_in, d_out = os.path.join(tmp, "in"), os.path.join(tmp, "out")
    os.makedirs(d_in, exist_ok=True)
    os.makedirs(d_out, exist_ok=True)
    for k, a in enumerate(ins):
        np.save(os.path.join(d_in, "in%d.npy" % k), a)
    for k, a in enumerate(outs):
        np.save(os.path.join(d_out, "out%d.npy" % k), a)
    bind_s = ",".join("%s=%d" % kv for kv in sorted(bind.items()))
    cmd = [afc, "run", os.path.join(HERE, "graphs", graph + ".graph.txt"), "--bind", bind_s,
           "--inputs", d_in, "--expect", d_out]
    p = subprocess.run(cmd, capture_output=True, text=True)
    last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    ok = p.returncode == 0 and last.startswith("PASS")
    return ok, bind_s, last or p.stderr.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--afc", required=True)
    ap.add_argument("--graph", action="append")
    args = ap.parse_args()
    graphs = args.graph or sorted(CASES)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for g in graphs:
            for i, bind in enumerate(CASES[g][1]):
                ok, bind_s, line = run_case(args.afc, g, bind, os.path.join(tmp, "%s_%d" % (g, i)), i)
                print("%s %s [%s]: %s" % ("ok  " if ok else "FAIL", g, bind_s, line), flush=True)
                passed += ok
                failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
