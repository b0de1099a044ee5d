#!/usr/bin/env python3
"""The device check of generated kernels: compiles every *_kernel.cc a second way, as device code.

Our CPU runtime builds kernels with the host compiler, where __gm__ and __aicore__ mean nothing, so
a kernel that casts a GM address to a plain pointer or calls a host-only function from device code
would build here and fail under CANN's compiler. This check parses each kernel with clang in the
runtime's AF_DEVICE_CHECK mode (libautofuse/runtime/include/af_cpu/config.h): __gm__ and __ubuf__
are real address spaces (clang rejects a reinterpret_cast out of one), and __aicore__/__global__
are annotations that a clang-query matcher checks: inside a device function, every call must go to
another __aicore__ function, to the AscendC API or to a constexpr function.

Usage:
  device_check.py --afc build/bin/afc GRAPH...     generate each hint graph's kernel (afc opt
                                                   --stage codegen) and check it
  device_check.py --dir DIR...                     check every *_kernel.cc under DIR (e.g. the
                                                   --out folder of afc compile)
Prints one line per kernel and a summary "device check: N/M kernels ok"; exits 1 when any fails.
"""

import argparse
import concurrent.futures
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "libautofuse" / "runtime" / "include"

# Inside a function annotated by __aicore__/__global__, in the kernel's own files (the runtime is
# included as a system header), a call whose callee is neither annotated, nor in namespace
# AscendC, nor constexpr.
MATCHER = (
    'match callExpr(unless(isExpansionInSystemHeader()), '
    'hasAncestor(functionDecl(hasAttr("attr::Annotate"))), '
    'callee(functionDecl(unless(anyOf(hasAttr("attr::Annotate"), '
    'hasAncestor(namespaceDecl(hasName("AscendC"))), isConstexpr())))))'
)


def find_tool(names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def check_kernel(query_tool, kernel, runtime):
    """Returns (ok, message) for one *_kernel.cc."""
    with tempfile.NamedTemporaryFile("w", suffix=".query", delete=False) as q:
        q.write("set output diag\n" + MATCHER + "\n")
        qpath = q.name
    try:
        cmd = [query_tool, "-f", qpath, str(kernel), "--", "-std=c++17", "-DAF_DEVICE_CHECK",
               "-isystem", str(runtime), "-I", str(kernel.parent)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    finally:
        os.unlink(qpath)
    out = r.stdout + r.stderr
    errors = [l for l in out.splitlines() if re.search(r"\b(fatal )?error:", l)]
    m = re.search(r"(\d+) match(es)?\.", out)
    matches = int(m.group(1)) if m else -1
    if errors:
        return False, "does not compile as device code:\n  " + "\n  ".join(errors[:8])
    if matches != 0:
        calls = [l for l in out.splitlines() if "binds here" in l or re.search(r":\d+:\d+:", l)]
        return False, "calls a function that is not __aicore__ from device code:\n  " + \
            "\n  ".join(calls[:12] or [out[-2000:]])
    if r.returncode != 0:
        return False, "clang-query failed (exit %d):\n%s" % (r.returncode, out[-2000:])
    return True, "ok"


def generate(afc, graph, dest):
    """Writes the files of `afc opt GRAPH --stage codegen` into dest; returns an error or None."""
    r = subprocess.run([afc, "opt", str(graph), "--stage", "codegen"], capture_output=True,
                       text=True, timeout=300)
    if r.returncode != 0:
        return "afc opt failed (exit %d): %s" % (r.returncode, r.stderr.strip()[-1000:])
    parts = re.split(r"^// ---- ([A-Za-z0-9_.]+)\n", r.stdout, flags=re.M)
    if len(parts) < 3:
        return "afc opt --stage codegen printed no files: " + r.stdout.strip()[:500]
    for i in range(1, len(parts) - 1, 2):
        (dest / parts[i]).write_text(parts[i + 1])
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--afc", help="afc, to generate the kernels of GRAPH arguments")
    ap.add_argument("--dir", action="append", default=[], help="folder of generated sources")
    ap.add_argument("--runtime", default=str(RUNTIME), help="the CPU runtime's include folder")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("graphs", nargs="*")
    args = ap.parse_args()
    query_tool = find_tool(["clang-query", "clang-query-14", "clang-query-15", "clang-query-16"])
    if query_tool is None:
        print("device check: clang-query is not installed (Debian package clang-tools; "
              "scripts/install-deps.sh installs it)", file=sys.stderr)
        return 2
    if args.graphs and not args.afc:
        print("device check: GRAPH arguments need --afc", file=sys.stderr)
        return 2

    failures = []
    kernels = []
    with tempfile.TemporaryDirectory(prefix="af-device-check-") as tmp:
        for i, g in enumerate(args.graphs):
            dest = pathlib.Path(tmp) / ("g%d" % i)
            dest.mkdir()
            err = generate(args.afc, g, dest)
            if err:
                failures.append((g, err))
                continue
            kernels += [(g, k) for k in sorted(dest.glob("*_kernel.cc"))]
        for d in args.dir:
            found = sorted(pathlib.Path(d).rglob("*_kernel.cc"))
            if not found:
                failures.append((d, "no *_kernel.cc under this folder"))
            kernels += [(str(k), k) for k in found]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            futs = [(src, ex.submit(check_kernel, query_tool, k, args.runtime)) for src, k in kernels]
            for src, f in futs:
                ok, msg = f.result()
                print("%s %s%s" % ("ok  " if ok else "FAIL", src, "" if ok else ": " + msg))
                if not ok:
                    failures.append((src, msg))
    for src, msg in failures:
        if not any(src == k for k, _ in kernels):
            print("FAIL %s: %s" % (src, msg))
    total = len(kernels)
    bad = len([1 for src, _ in failures])
    print("device check: %d/%d kernels ok" % (total - len([f for f in failures if any(
        f[0] == k for k, _ in kernels)]), total))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
