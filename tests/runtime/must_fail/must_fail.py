#!/usr/bin/env python3
"""Compile-must-fail test of the CPU runtime's API signatures.

Each case file holds one call the real AscendC API rejects (under AF_MUST_FAIL) and its accepted
form (without). The test compiles the file twice against the runtime headers (-fsyntax-only, with
the case's __NPU_ARCH__): the accepted form must compile, and the rejected one must fail with an
error matching the case's EXPECT-ERROR pattern, so that the failure is the one the case is about.

Usage: must_fail.py --cxx COMPILER --include RUNTIME_INCLUDE CASE.cc
"""

import argparse
import re
import subprocess
import sys


def compile_case(cxx, include, arch, path, must_fail):
    cmd = cxx.split() + ["-std=c++17", "-fsyntax-only", "-D__NPU_ARCH__=%s" % arch,
                         "-I", include, path]
    if must_fail:
        cmd.append("-DAF_MUST_FAIL")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("case")
    a = ap.parse_args()
    text = open(a.case, encoding="utf-8").read()
    arch = re.search(r"^// NPU-ARCH: (\d+)$", text, re.M)
    expect = re.search(r"^// EXPECT-ERROR: (.+)$", text, re.M)
    if not arch or not expect:
        print("FAIL %s: the case needs '// NPU-ARCH:' and '// EXPECT-ERROR:' lines" % a.case)
        return 1
    rc, out = compile_case(a.cxx, a.include, arch.group(1), a.case, False)
    if rc != 0:
        print("FAIL %s: the accepted form does not compile:\n%s" % (a.case, out[-3000:]))
        return 1
    rc, out = compile_case(a.cxx, a.include, arch.group(1), a.case, True)
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
