#!/usr/bin/env python3
"""Replays the soak's shrunk reproducers (tests/soak/regressions/*.graph.txt): each runs through
`afc run` with the bindings and seed in its header and must end as its `# expect:` line says
(`pass`: PASS against the reference interpreter, or `refused`: exit 2 with a reason code).
Usage: replay.py --afc PATH [DIR]"""
import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import soak  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--afc", required=True)
    ap.add_argument("dir", nargs="?",
                    default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "regressions"))
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(args.dir, "*.graph.txt")))
    if not files:
        print("replay: no reproducers in", args.dir)
        return 1
    bad = 0
    for f in files:
        text = open(f).read()
        bind = re.search(r"^# bind: (\S+)$", text, re.M)
        seed = re.search(r"^# seed: (\d+)$", text, re.M)
        expect = re.search(r"^# expect: (pass|refused)$", text, re.M)
        if not (bind and seed and expect):
            print("FAIL %s: header lacks '# bind:', '# seed:' or '# expect:'" % f)
            bad += 1
            continue
        sizes = [int(kv.split("=")[1]) for kv in bind.group(1).split(",")]
        rc, out = soak.run_afc(args.afc, f, sizes, int(seed.group(1)))
        cls = soak.classify(rc, out)
        ok = cls == expect.group(1)
        print("%s %s: %s (expected %s)" % ("ok  " if ok else "FAIL", os.path.basename(f), cls,
                                          expect.group(1)))
        if not ok:
            print("\n".join("    " + l for l in out.strip().splitlines()[-15:]))
            bad += 1
    print("replay: %d reproducers, %d failed" % (len(files), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
