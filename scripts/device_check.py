#!/usr/bin/env python3
"""The device check of generated kernels: compiles every *_kernel.cc a second way, as device code.

Our CPU runtime builds kernels with the host compiler, where __gm__ and __aicore__ mean nothing, so
a kernel that casts a GM address to a plain pointer or calls a host-only function from device code
would build here and fail under CANN's compiler. This check parses each kernel with clang in the
runtime's AF_DEVICE_CHECK mode (libautofuse/runtime/include/af_cpu/config.h): __gm__ and __ubuf__
are real address spaces (clang rejects a reinterpret_cast out of one), and __aicore__/__global__
are annotations that a clang-query matcher checks: inside a device function, every call must go to
another __aicore__ function, to the AscendC API, to a constexpr function or to a built-in.

Usage:
  device_check.py --afc build/bin/afc GRAPH...     generate each hint graph's kernel (afc opt
                                                   --stage codegen) and check it
  device_check.py --dir DIR...                     check every *_kernel.cc under DIR (e.g. the
                                                   --out folder of afc compile)
  device_check.py --afc build/bin/afc --self-test GRAPH
                                                   the check must fail on two planted slips in
                                                   GRAPH's kernel (a host-only helper, a plain
                                                   pointer cast of the GM tiling argument) and pass
                                                   on the kernel as generated
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
# AscendC, nor constexpr, nor a compiler built-in (implicitly declared).
MATCHER = (
    'match callExpr(unless(isExpansionInSystemHeader()), '
    'hasAncestor(functionDecl(hasAttr("attr::Annotate"))), '
    'callee(functionDecl(unless(anyOf(hasAttr("attr::Annotate"), '
    'hasAncestor(namespaceDecl(hasName("AscendC"))), isConstexpr(), isImplicit())))))'
)


def find_tool(names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def clang_version(tool):
    """The "X.Y.Z" version a clang tool prints, or None."""
    try:
        r = subprocess.run([tool, "--version"], capture_output=True, text=True, timeout=60)
    except OSError:
        return None
    m = re.search(r"version (\d+\.\d+\.\d+)", r.stdout)
    return m.group(1) if m else None


def make_pch(query_tool, runtime, folder):
    """A precompiled kernel_operator.h for the checks (the runtime parsed once: each kernel's parse
    drops from ~1.9 s to ~1.1 s of CPU), built by the clang++ of clang-query's own version (a PCH
    from another version is unusable), with the kernel's flags and the runtime as a system header
    (its calls stay outside the matcher). None when there is no such clang++ or the build fails:
    the checks then parse the header each time, with the same results."""
    version = clang_version(query_tool)
    if version is None:
        return None
    major = version.split(".")[0]
    cxx = find_tool(["clang++-" + major, "clang++"])
    if cxx is None or clang_version(cxx) != version:
        return None
    header = pathlib.Path(folder) / "af_device_check_pch.h"
    header.write_text("#include <kernel_operator.h>\n")
    pch = header.with_suffix(".h.pch")
    r = subprocess.run([cxx, "-x", "c++-header", "-std=c++17", "-DAF_DEVICE_CHECK", "-isystem",
                        str(runtime), str(header), "-o", str(pch)],
                       capture_output=True, text=True, timeout=300)
    return pch if r.returncode == 0 and pch.is_file() else None


def check_kernel(query_tool, kernel, runtime, pch=None):
    """Returns (ok, message) for one *_kernel.cc (with `pch`, make_pch's header)."""
    with tempfile.NamedTemporaryFile("w", suffix=".query", delete=False) as q:
        q.write("set output diag\n" + MATCHER + "\n")
        qpath = q.name
    try:
        cmd = [query_tool, "-f", qpath, str(kernel), "--"]
        cmd += ["-include-pch", str(pch)] if pch else []
        cmd += ["-std=c++17", "-DAF_DEVICE_CHECK", "-isystem", str(runtime), "-I", str(kernel.parent)]
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


def graph_soc(graph):
    """The profile a graph file names on a `# SOC: NAME` line (None: afc's default)."""
    try:
        for line in pathlib.Path(graph).read_text().splitlines():
            m = re.match(r"#\s*SOC:\s*(\S+)", line)
            if m:
                return m.group(1)
    except (OSError, UnicodeDecodeError):
        return None
    return None


def generate(afc, graph, dest):
    """Writes the files of `afc opt GRAPH --stage codegen` (on the profile its `# SOC:` line
    names) into dest; returns an error or None."""
    soc = graph_soc(graph)
    stage = "codegen --soc " + soc if soc else "codegen"
    r = subprocess.run([afc, "opt", str(graph), "--stage", stage], capture_output=True,
                       text=True, timeout=300)
    if r.returncode != 0:
        return "afc opt failed (exit %d): %s" % (r.returncode, r.stderr.strip()[-1000:])
    parts = re.split(r"^// ---- ([A-Za-z0-9_.]+)\n", r.stdout, flags=re.M)
    if len(parts) < 3:
        return "afc opt --stage codegen printed no files: " + r.stdout.strip()[:500]
    for i in range(1, len(parts) - 1, 2):
        (dest / parts[i]).write_text(parts[i + 1])
    return None


def self_test(query_tool, afc, graph, runtime):
    """Plants two slips the check must catch; returns 0 when it catches both and passes the rest."""
    with tempfile.TemporaryDirectory(prefix="af-device-check-self-") as tmp:
        d = pathlib.Path(tmp)
        err = generate(afc, graph, d)
        if err:
            print("FAIL %s: %s" % (graph, err))
            return 1
        kernel = sorted(d.glob("*_kernel.cc"))[0]
        header = sorted(d.glob("*_tiling_data.h"))[0]
        # With the precompiled runtime header, as the check of many kernels runs.
        pch = make_pch(query_tool, runtime, tmp)
        print("ok   precompiled kernel_operator.h" if pch else
              "note no precompiled kernel_operator.h (no clang++ of clang-query's version)")
        ok, msg = check_kernel(query_tool, kernel, runtime, pch)
        if not ok:
            print("FAIL the kernel as generated: " + msg)
            return 1
        src, hdr = kernel.read_text(), header.read_text()
        slips = [
            ("a host-only helper", header,
             hdr.replace("__aicore__ static inline int64_t af_ceildiv",
                         "static inline int64_t af_ceildiv"), "not __aicore__"),
            ("a plain pointer cast of the GM tiling argument", kernel,
             src.replace("GET_TILING_DATA(t, tiling);",
                         "const AutofuseTilingData t = "
                         "*reinterpret_cast<const AutofuseTilingData*>(tiling);"),
             "reinterpret_cast"),
        ]
        status = 0
        for name, path, text, expect in slips:
            original = path.read_text()
            if text == original:
                print("FAIL cannot plant %s: the generated text changed" % name)
                status = 1
                continue
            path.write_text(text)
            ok, msg = check_kernel(query_tool, kernel, runtime, pch)
            path.write_text(original)
            if ok or expect not in msg:
                print("FAIL the check missed %s (%s)" % (name, msg))
                status = 1
            else:
                print("ok   caught %s" % name)
        return status


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--afc", help="afc, to generate the kernels of GRAPH arguments")
    ap.add_argument("--dir", action="append", default=[], help="folder of generated sources")
    ap.add_argument("--runtime", default=str(RUNTIME), help="the CPU runtime's include folder")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--self-test", action="store_true", help="plant slips in GRAPH's kernel")
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

    if args.self_test:
        if len(args.graphs) != 1:
            print("device check: --self-test takes one GRAPH", file=sys.stderr)
            return 2
        return self_test(query_tool, args.afc, args.graphs[0], args.runtime)

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
        pch = make_pch(query_tool, args.runtime, tmp) if len(kernels) > 2 else None
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            futs = [(src, ex.submit(check_kernel, query_tool, k, args.runtime, pch))
                    for src, k in kernels]
            for src, f in futs:
                ok, msg = f.result()
                print("%s %s%s" % ("ok  " if ok else "FAIL", src, "" if ok else ": " + msg))
                if not ok:
                    failures.append((src, msg))
    kernel_sources = {src for src, _ in kernels}
    for src, msg in failures:
        if src not in kernel_sources:  # a graph or folder that gave no kernel
            print("FAIL %s: %s" % (src, msg))
    bad_kernels = len([1 for src, _ in failures if src in kernel_sources])
    print("device check: %d/%d kernels ok" % (len(kernels) - bad_kernels, len(kernels)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
