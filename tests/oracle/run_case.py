#!/usr/bin/python3
"""One PyTorch oracle case as a test: write the case with samples/torch/make_case.py (eager
PyTorch gives the expected outputs), then `afc run CASE` (with `--flags` from the FLAGS entry of
cases.py, if the case has one, and `--soc` from its SOC entry), whose last line says PASS or FAIL.
For a case in EXPECT_FUSED, also `afc compile CASE` with the same flags: its report.json must place every node of each listed
aten op in a fused kernel that compiled (model_nodes[].kernel, kernels[].error_code); for a case
in EXPECT_TEMPLATE, every fused kernel must also have chosen a case of that template
(kernels[].tiling.chosen_case).

    run_case.py --case NAME --afc PATH --work DIR [--superkernel]

With --superkernel, `afc run --superkernel CASE`: the case's kernels also run as super kernels,
checked against the separate kernels and the expected arrays (docs/superkernel.md).
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", required=True)
    ap.add_argument("--afc", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--superkernel", action="store_true")
    args = ap.parse_args()
    try:
        import torch  # noqa: F401
    except ImportError:
        print("oracle: PyTorch is missing (python3-torch): run scripts/install-deps.sh")
        return 1
    sys.path.insert(0, os.path.join(ROOT, "samples", "torch"))
    import make_case

    cases = make_case.load_cases(os.path.join(HERE, "cases.py"))
    fn, make_inputs = cases[args.case]
    torch.manual_seed(0)
    out = os.path.join(args.work, args.case)
    make_case.make_case(fn, make_inputs(), out)
    spec = importlib.util.spec_from_file_location("af_oracle_flags", os.path.join(HERE, "cases.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    flags = getattr(mod, "FLAGS", {}).get(args.case)
    soc = getattr(mod, "SOC", {}).get(args.case)
    args.soc = ["--soc", soc] if soc else []
    cmd = [args.afc, "run", out] + (["--flags", flags] if flags else []) + args.soc
    if args.superkernel:
        cmd.append("--superkernel")
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout, end="")
    expect = getattr(mod, "EXPECT_FUSED", {}).get(args.case)
    if r.returncode != 0 or not expect or args.superkernel:
        return r.returncode
    missing = check_fused(args, out, flags, expect)
    template = getattr(mod, "EXPECT_TEMPLATE", {}).get(args.case)
    if template:
        missing += check_template(out, template)
    for m in missing:
        print("FAIL %s: expected %s" % (args.case, m))
    if not missing:
        print("fused as expected: %s" % ", ".join(expect))
    return 1 if missing else 0


def check_fused(args, case_dir, flags, expect):
    """What of `expect` (aten op names) is not in a compiled fused kernel, one line each."""
    rep_dir = case_dir + ".compile"
    shutil.rmtree(rep_dir, ignore_errors=True)
    cmd = [args.afc, "compile", case_dir, "--out", rep_dir] + (["--flags", flags] if flags else [])
    cmd += args.soc
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not os.path.exists(os.path.join(rep_dir, "report.json")):
        return ["afc compile to write report.json (exit %d): %s" % (r.returncode, r.stdout)]
    rep = json.load(open(os.path.join(rep_dir, "report.json")))
    refused = {k["name"]: k.get("error_code", "") for k in rep["kernels"]}
    missing = []
    for op in expect:
        nodes = [n for n in rep["model_nodes"] if n["op"].split(".")[1:2] == [op]]
        found = []
        for n in nodes:
            k = n.get("kernel", "")
            if not k:
                code = n.get("fallback_code")
                found.append("%s outside every kernel%s"
                             % (n["name"], " [%s]" % code if code else ""))
            elif refused.get(k):
                found.append("%s in kernel %s, not compiled [%s]" % (n["name"], k, refused[k]))
        if not nodes or found:
            missing.append("aten.%s in a fused kernel, found %s"
                           % (op, "; ".join(found) or "no aten.%s node" % op))
    return missing


def check_template(case_dir, template):
    """The fused kernels of the compile check_fused wrote whose chosen case is not of `template`."""
    rep = json.load(open(os.path.join(case_dir + ".compile", "report.json")))
    bad = []
    for k in rep["kernels"]:
        t = k.get("tiling", {})
        if "chosen_case" not in t:
            continue
        got = k["cases"][t["chosen_case"]]["template_name"]
        if got != template:
            bad.append("kernel %s to choose a %s case, chose %s" % (k["name"], template, got))
    return bad


if __name__ == "__main__":
    sys.exit(main())
