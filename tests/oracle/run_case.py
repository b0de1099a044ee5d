#!/usr/bin/python3
"""One PyTorch oracle case as a test: write the case with samples/torch/make_case.py (eager
PyTorch gives the expected outputs), then `afc run CASE` (with `--flags` from the FLAGS entry of
cases.py, if the case has one), whose last line says PASS or FAIL.

    run_case.py --case NAME --afc PATH --work DIR
"""
import argparse
import importlib.util
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", required=True)
    ap.add_argument("--afc", required=True)
    ap.add_argument("--work", required=True)
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
    cmd = [args.afc, "run", out] + (["--flags", flags] if flags else [])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout, end="")
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
