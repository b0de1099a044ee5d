#!/usr/bin/python3
"""afc on a ready-made case directory (no PyTorch needed): `afc compile` writes fusion.json that
explains every op (in a kernel or a fallback with a reason), `afc run` ends with PASS, and
`afc estimate --json` prints the documented keys.

    check_cli.py --afc PATH --case DIR --work DIR
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return r.returncode, r.stdout, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--afc", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    out = os.path.join(a.work, os.path.basename(a.case.rstrip("/")))
    shutil.rmtree(out, ignore_errors=True)
    failures = []

    code, so, se = run([a.afc, "compile", a.case, "--out", out])
    if code != 0:
        failures.append("compile exit %d: %s" % (code, se))
    else:
        fusion = json.load(open(os.path.join(out, "fusion.json")))
        graph = open(os.path.join(a.case, "fx_graph_readable.py")).read()
        ops = set(re.findall(r"^\s+(\w+)(?::[^=]*)? = torch\.ops\.", graph, re.M))
        explained = set()
        for k in fusion["kernels"]:
            explained.update(k["nodes"])
            if not os.path.isdir(os.path.join(out, k["name"])):
                failures.append("no sources for kernel %s" % k["name"])
        for f in fusion["fallbacks"]:
            explained.add(f["node"])
            if not f["code"] or not f["text"].startswith("Fallback "):
                failures.append("fallback without a reason: %s" % f)
        if ops != explained:
            failures.append("ops not explained by fusion.json: %s" % sorted(ops ^ explained))
        if not os.path.exists(os.path.join(out, "report.json")):
            failures.append("no report.json")

    code, so, se = run([a.afc, "run", a.case])
    last = so.strip().splitlines()[-1] if so.strip() else ""
    if code != 0 or not last.startswith("PASS"):
        failures.append("run exit %d, last line %r, stderr %s" % (code, last, se))

    code, so, se = run([a.afc, "estimate", a.case, "--json"])
    if code != 0:
        failures.append("estimate exit %d: %s" % (code, se))
    else:
        e = json.loads(so)
        for k in e["kernels"]:
            for key in ("name", "fused_us", "unfused_us", "gain"):
                if key not in k:
                    failures.append("estimate kernel without %s" % key)
        for key in ("fused_us", "unfused_us", "gain"):
            if key not in e["total"]:
                failures.append("estimate total without %s" % key)

    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else "%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
