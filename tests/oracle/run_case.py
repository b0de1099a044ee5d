#!/usr/bin/python3
"""One PyTorch oracle case as a test: write the case with samples/torch/make_case.py (eager
PyTorch gives the expected outputs), then `afc run CASE` (with `--flags` from the FLAGS entry of
cases.py, if the case has one, and `--soc` from its SOC entry), whose last line says PASS or FAIL.
For a case in EXPECT_FUSED, also `afc compile CASE` with the same flags: its report.json must place every node of each listed
aten op in a fused kernel that compiled (model_nodes[].kernel, kernels[].error_code); for a case
in EXPECT_TEMPLATE, every fused kernel must also have chosen a case of that template
(kernels[].tiling.chosen_case); for a case in EXPECT_ONE_KERNEL, the nodes of the listed ops must
all be in one fused kernel.

    run_case.py --case NAME --afc PATH --work DIR [--superkernel] [--made]
    run_case.py --make-all --work DIR

--make-all writes every case of cases.py into DIR (one PyTorch import for all of them: importing
torch costs ~2 s of CPU, which 67 separate imports would pay again each time; the CTest fixture
oracle_make_cases does this once) and, beside each case directory, CASE.oracle.json with its
flags, SOC and expectations. --made then runs a case from DIR without importing PyTorch.

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


def load_torch():
    """cases.py's module and samples/torch/make_case.py, or None when PyTorch is missing."""
    try:
        import torch  # noqa: F401
    except ImportError:
        print("oracle: PyTorch is missing (python3-torch): run scripts/install-deps.sh")
        return None, None
    sys.path.insert(0, os.path.join(ROOT, "samples", "torch"))
    import make_case

    spec = importlib.util.spec_from_file_location("af_oracle_cases", os.path.join(HERE, "cases.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, make_case


def make(mod, make_case, name, work):
    """Writes case `name` into work/name and its settings into work/name.oracle.json."""
    import torch

    fn, make_inputs = mod.CASES[name]
    torch.manual_seed(0)
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    make_case.make_case(fn, make_inputs(), out, getattr(mod, "REFERENCE", {}).get(name))
    settings = {k: getattr(mod, k, {}).get(name)
                for k in ("FLAGS", "SOC", "EXPECT_FUSED", "EXPECT_TEMPLATE", "EXPECT_ONE_KERNEL")}
    tmp = out + ".oracle.json.tmp"
    with open(tmp, "w") as f:
        json.dump(settings, f, indent=1)
    os.replace(tmp, out + ".oracle.json")
    return settings


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case")
    ap.add_argument("--afc")
    ap.add_argument("--work", required=True)
    ap.add_argument("--superkernel", action="store_true")
    ap.add_argument("--made", action="store_true")
    ap.add_argument("--make-all", action="store_true")
    args = ap.parse_args()
    if args.make_all:
        mod, make_case = load_torch()
        if mod is None:
            return 1
        for name in mod.CASES:
            make(mod, make_case, name, args.work)
        print("oracle: wrote %d cases into %s" % (len(mod.CASES), args.work))
        return 0
    if not args.case or not args.afc:
        ap.error("--case and --afc are required (or --make-all)")
    out = os.path.join(args.work, args.case)
    if args.made:
        try:
            settings = json.load(open(out + ".oracle.json"))
        except (OSError, ValueError) as e:
            print("oracle: %s.oracle.json unreadable (%s): run the oracle_make_cases fixture "
                  "(run_case.py --make-all --work %s)" % (out, e, args.work))
            return 1
    else:
        mod, make_case = load_torch()
        if mod is None:
            return 1
        if args.case not in mod.CASES:
            print("oracle: no case %r in cases.py" % args.case)
            return 1
        settings = make(mod, make_case, args.case, args.work)
    flags = settings.get("FLAGS")
    soc = settings.get("SOC")
    args.soc = ["--soc", soc] if soc else []
    cmd = [args.afc, "run", out] + (["--flags", flags] if flags else []) + args.soc
    if args.superkernel:
        cmd.append("--superkernel")
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout, end="")
    expect = settings.get("EXPECT_FUSED")
    if r.returncode != 0 or not expect or args.superkernel:
        return r.returncode
    missing = check_fused(args, out, flags, expect)
    template = settings.get("EXPECT_TEMPLATE")
    if template:
        missing += check_template(out, template)
    together = settings.get("EXPECT_ONE_KERNEL")
    if together:
        missing += check_one_kernel(out, together)
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


def check_one_kernel(case_dir, ops):
    """A line when the nodes of `ops` (aten op names) are not all in one fused kernel."""
    rep = json.load(open(os.path.join(case_dir + ".compile", "report.json")))
    kernels = {}
    for n in rep["model_nodes"]:
        op = n["op"].split(".")[1:2]
        if op and op[0] in ops:
            kernels.setdefault(n.get("kernel", ""), []).append(n["name"])
    if len(kernels) == 1 and "" not in kernels:
        return []
    return ["aten.%s in one fused kernel, found %s" % (
        ", aten.".join(ops),
        "; ".join("%s in %s" % (", ".join(v), k or "no kernel") for k, v in sorted(kernels.items())))]


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
