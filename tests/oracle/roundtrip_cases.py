#!/usr/bin/python3
"""The dump round trip over every oracle case: writes each case of cases.py once (make_case.py,
one PyTorch import for all) and runs af_dump_roundtrip over the case folders (no host builds:
the compile stops after codegen, the --codegen_compile_debug tree is read back and compared).

    roundtrip_cases.py --tool PATH --work DIR
"""
import argparse
import importlib.util
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print("oracle: PyTorch is missing (python3-torch): run scripts/install-deps.sh")
        return 1
    sys.path.insert(0, os.path.join(ROOT, "samples", "torch"))
    import make_case

    cases_dir = os.path.join(args.work, "cases")
    shutil.rmtree(cases_dir, ignore_errors=True)
    cases = make_case.load_cases(os.path.join(HERE, "cases.py"))
    spec = importlib.util.spec_from_file_location("af_oracle_flags", os.path.join(HERE, "cases.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    flags = getattr(mod, "FLAGS", {})
    for name, (fn, make_inputs) in sorted(cases.items()):
        torch.manual_seed(0)
        out = os.path.join(cases_dir, name)
        make_case.make_case(fn, make_inputs(), out)
        if name in flags:  # compiled with the case's flags, as tests/oracle/run_case.py does
            with open(os.path.join(out, "afc_flags"), "w") as f:
                f.write(flags[name] + "\n")
    print("%d oracle cases written" % len(cases), flush=True)
    r = subprocess.run([args.tool, "--work", os.path.join(args.work, "dumps"), "--cases",
                        cases_dir])
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
