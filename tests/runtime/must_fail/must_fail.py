#!/usr/bin/env python3
"""Compile-must-fail test of the CPU runtime's API signatures.

Each case file holds one call the real AscendC API rejects (under AF_MUST_FAIL) and its accepted
form (without). The test compiles the file twice against the runtime headers (-fsyntax-only, with
the case's __NPU_ARCH__): the accepted form must compile, and the rejected one must fail with an
error matching the case's EXPECT-ERROR pattern, so that the failure is the one the case is about.

With --pch-root DIR (GCC), kernel_operator.h is precompiled once per compiler, __NPU_ARCH__ and
runtime headers into DIR/pch-<hash>/ (beside a copy of the header, which the case's include then
finds first): parsing it is most of a case's two compiles (1.6 s of CPU each, 0.2 s with it). A
.gch GCC finds unusable it ignores, parsing the header as before.

Usage: must_fail.py --cxx COMPILER --include RUNTIME_INCLUDE [--pch-root DIR] CASE.cc
"""

import argparse
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys


def precompiled(cxx, include, arch, root):
    """The folder holding kernel_operator.h.gch for these settings (built if missing), or None."""
    h = hashlib.sha256()
    for part in (cxx, arch, shutil.which(cxx.split()[0]) or ""):
        h.update(part.encode() + b"\0")
    for f in sorted(pathlib.Path(include).rglob("*.h")):
        h.update(str(f.relative_to(include)).encode() + b"\0" + f.read_bytes())
    d = pathlib.Path(root) / ("pch-" + h.hexdigest()[:16])
    gch = d / "kernel_operator.h.gch"
    if gch.is_file():
        return d
    d.mkdir(parents=True, exist_ok=True)
    tag = "%d" % os.getpid()
    header = d / ("kernel_operator.h.tmp." + tag)
    shutil.copyfile(pathlib.Path(include) / "kernel_operator.h", header)
    os.replace(header, d / "kernel_operator.h")
    tmp = d / (".tmp." + tag + ".gch")
    cmd = cxx.split() + ["-std=c++17", "-D__NPU_ARCH__=%s" % arch, "-x", "c++-header", "-I",
                         include, str(d / "kernel_operator.h"), "-o", str(tmp)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if r.returncode != 0 or not tmp.is_file():
        tmp.unlink(missing_ok=True)
        return None
    os.replace(tmp, gch)
    return d


def compile_case(cxx, include, arch, path, must_fail, pch=None):
    cmd = cxx.split() + ["-std=c++17", "-fsyntax-only", "-D__NPU_ARCH__=%s" % arch]
    cmd += ["-I", str(pch)] if pch else []
    cmd += ["-I", include, path]
    if must_fail:
        cmd.append("-DAF_MUST_FAIL")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--pch-root")
    ap.add_argument("case")
    a = ap.parse_args()
    text = open(a.case, encoding="utf-8").read()
    arch = re.search(r"^// NPU-ARCH: (\d+)$", text, re.M)
    expect = re.search(r"^// EXPECT-ERROR: (.+)$", text, re.M)
    if not arch or not expect:
        print("FAIL %s: the case needs '// NPU-ARCH:' and '// EXPECT-ERROR:' lines" % a.case)
        return 1
    pch = precompiled(a.cxx, a.include, arch.group(1), a.pch_root) if a.pch_root else None
    rc, out = compile_case(a.cxx, a.include, arch.group(1), a.case, False, pch)
    if rc != 0:
        print("FAIL %s: the accepted form does not compile:\n%s" % (a.case, out[-3000:]))
        return 1
    rc, out = compile_case(a.cxx, a.include, arch.group(1), a.case, True, pch)
    if rc == 0:
        print("FAIL %s: the rejected form compiles against the runtime" % a.case)
        return 1
    if not re.search(expect.group(1), out):
        print("FAIL %s: it fails, but not with /%s/:\n%s" % (a.case, expect.group(1), out[-3000:]))
        return 1
    print("PASS %s (rejected: %s)" % (a.case, expect.group(1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
