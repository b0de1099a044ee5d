#!/usr/bin/python3
"""The traffic figure over every e2e graph (each of its shape sets) and every PyTorch oracle case:
`afc tile --json` gives each kernel's modelled MTE2 bytes over its compulsory bytes (each
addressed input byte read once) and the reason codes of its re-reads (docs/cost-model.md,
"Traffic"). Lists every kernel above the threshold with its codes; fails when such a kernel has
no reason, or a reason REREAD_UNEXPLAINED (a load the model reads more often than any recorded
cause explains). Nothing is compiled for the host: `afc tile` schedules and tiles only.

    traffic_check.py --afc PATH --work DIR [--threshold 1.1] [--markdown FILE]
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tile(afc, target, extra):
    r = subprocess.run([afc, "tile", target, "--json"] + extra, capture_output=True, text=True)
    if r.returncode != 0:
        return None, r.stderr.strip()
    j = json.loads(r.stdout)
    return (j if isinstance(j, list) else [j]), ""


def e2e_rows(afc):
    mod = load(os.path.join(ROOT, "tests", "e2e", "e2e_test.py"), "af_e2e")
    for graph, (_, shapes) in sorted(mod.CASES.items()):
        path = os.path.join(ROOT, "tests", "e2e", "graphs", graph + ".graph.txt")
        for b in shapes:
            bind = ",".join("%s=%d" % kv for kv in b.items())
            yield "e2e %s %s" % (graph, bind), path, ["--bind", bind] + mod.graph_soc(path)


def oracle_rows(work):
    try:
        import torch  # noqa: F401
    except ImportError:
        print("traffic: PyTorch is missing (python3-torch): oracle cases not checked")
        return
    sys.path.insert(0, os.path.join(ROOT, "samples", "torch"))
    import make_case
    cases_py = os.path.join(ROOT, "tests", "oracle", "cases.py")
    cases = make_case.load_cases(cases_py)
    oracle = load(cases_py, "af_oracle_cases")
    flags = getattr(oracle, "FLAGS", {})
    socs = getattr(oracle, "SOC", {})
    for name in sorted(cases):
        fn, make_inputs = cases[name]
        torch.manual_seed(0)
        out = os.path.join(work, name)
        make_case.make_case(fn, make_inputs(), out)
        extra = ["--flags", flags[name]] if name in flags else []
        extra += ["--soc", socs[name]] if name in socs else []
        yield "oracle %s" % name, out, extra


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--afc", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--threshold", type=float, default=1.1)
    ap.add_argument("--markdown", help="also write the list as a Markdown table")
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    above, bad, kernels = [], [], 0
    rows = list(e2e_rows(args.afc)) + list(oracle_rows(args.work))
    for where, target, extra in rows:
        ks, err = tile(args.afc, target, extra)
        if ks is None:
            # Shapes a graph cannot tile (e.g. a UB too small) are the e2e test's business.
            print("note: %s: no tiling: %s" % (where, err.splitlines()[-1] if err else "?"))
            continue
        # A multi-group kernel's traffic is its groups' (each against its own compulsory bytes).
        # A cube group (of a cube + vector kernel) has the cube's model instead (docs/tiling.md).
        for k in [g for k in ks for g in k.get("groups", [k]) if not g.get("cube")]:
            kernels += 1
            t = k["traffic"]
            codes = sorted({r["code"] for r in t["reasons"]})
            if "REREAD_UNEXPLAINED" in codes:
                bad.append((where, k, codes))
            if t["ratio"] > args.threshold:
                above.append((where, k, codes))
                if not codes:
                    bad.append((where, k, codes))
    print("%d kernels, %d above %.2fx compulsory traffic:" % (kernels, len(above), args.threshold))
    for where, k, codes in above:
        print("  %-58s %-22s %-16s %6.2fx  %s" % (where, k["case"][-22:], k["template"],
                                                  k["traffic"]["ratio"], " ".join(codes)))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("| where | case (template) | traffic | reason codes |\n|---|---|---|---|\n")
            for where, k, codes in above:
                f.write("| %s | %s (%s) | %.2f× | %s |\n" % (where, k["case"], k["template"],
                                                            k["traffic"]["ratio"],
                                                            ", ".join(codes)))
    for where, k, codes in bad:
        print("FAIL %s: kernel %s at %.2fx has %s" % (where, k["kernel"], k["traffic"]["ratio"],
                                                     "no recorded reason" if not codes else
                                                     "REREAD_UNEXPLAINED"))
        for r in k["traffic"]["reasons"]:
            print("    %s: %s" % (r["code"], r["message"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
