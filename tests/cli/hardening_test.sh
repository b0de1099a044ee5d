#!/usr/bin/env bash
# Failures users really meet, each through the real afc: paths with spaces and non-ASCII
# characters, a read-only output folder, a full disk (RLIMIT_FSIZE: writes fail with EFBIG), a
# host compiler killed by a signal, and a damaged kernel-cache entry. Each must end with a clear
# message (exit 2) or, for the damaged cache, a rebuild — and never leave a half-written file.
#   hardening_test.sh AFC SAMPLE_GRAPH
set -uo pipefail
afc="$1"
sample="$2"
bind="s0=3,s1=5"
root="$(mktemp -d)"
trap 'chattr -i "$root/ro" 2>/dev/null; chmod -R u+w "$root" 2>/dev/null; rm -rf "$root"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# expect_exit CODE PATTERN CMD...: runs CMD, checks its exit code and that stderr matches PATTERN.
expect_exit() {
  local want="$1" pattern="$2"
  shift 2
  "$@" >"$root/stdout" 2>"$root/stderr"
  local got=$?
  if [[ $got -ne $want ]]; then
    fail "exit $got (want $want): $*"
    sed 's/^/    /' "$root/stderr" | tail -20
  elif [[ -n "$pattern" ]] && ! grep -Eq "$pattern" "$root/stderr"; then
    fail "stderr lacks /$pattern/: $*"
    sed 's/^/    /' "$root/stderr" | tail -20
  else
    echo "ok: $* -> exit $got"
  fi
}
# no_leftovers DIR: no temporary files (ours end .afc-tmp; the kernel cache's start .tmp. or hold
# kernel.so.tmp.) under DIR.
no_leftovers() {
  local left
  left="$(find "$1" \( -name '*.afc-tmp' -o -name '.tmp.*' -o -name 'kernel.so.tmp.*' \) 2>/dev/null)"
  [[ -z "$left" ]] || fail "temporary files left in $1: $left"
}

# 1. Spaces and non-ASCII characters in the input path, the output folder and the kernel cache.
odd="$root/dir with spaces/ünïcødé ✓ 名前"
mkdir -p "$odd"
cp "$sample" "$odd/graph ä b.AscGraphDef.txt"
export AF_CACHE_DIR="$odd/kernel cache é"
expect_exit 0 "" "$afc" run "$odd/graph ä b.AscGraphDef.txt" --bind "$bind" --seed 3
expect_exit 0 "" "$afc" compile "$odd/graph ä b.AscGraphDef.txt" --bind "$bind" --out "$odd/out ü"
[[ -f "$odd/out ü/report.json" ]] || fail "no report.json in the non-ASCII output folder"
expect_exit 0 "" "$afc" convert "$odd/graph ä b.AscGraphDef.txt" -o "$odd/text ö.txt"
[[ -s "$odd/text ö.txt" ]] || fail "convert wrote nothing to the non-ASCII path"
expect_exit 2 "missing ü\.txt" "$afc" inspect "$odd/missing ü.txt"

# 2. A read-only output folder: chmod (any user but root), else the immutable attribute (root).
ro="$root/ro"
mkdir -p "$ro"
echo "old text" >"$ro/kept.txt"
chmod 555 "$ro"
if touch "$ro/.probe" 2>/dev/null; then
  rm -f "$ro/.probe"
  chattr +i "$ro" 2>/dev/null
fi
if touch "$ro/.probe" 2>/dev/null; then
  fail "cannot make a read-only folder here (chmod and chattr +i both leave it writable)"
else
  expect_exit 2 "ro/out: cannot create the directory" \
    "$afc" compile "$sample" --bind "$bind" --out "$ro/out" --no-build
  expect_exit 2 "kept\.txt: cannot write" "$afc" convert "$sample" -o "$ro/kept.txt" --force
  [[ "$(cat "$ro/kept.txt")" == "old text" ]] || fail "the read-only folder's file changed"
  [[ "$(ls -A "$ro")" == "kept.txt" ]] || fail "files appeared in the read-only folder: $(ls -A "$ro")"
fi
chattr -i "$ro" 2>/dev/null
chmod 755 "$ro"

# 3. A full disk: RLIMIT_FSIZE of 1 KiB with SIGXFSZ ignored, so a write fails with EFBIG exactly
#    like ENOSPC does. The old file stays whole; no temporary file is left.
full="$root/full"
mkdir -p "$full"
echo "old text" >"$full/graph.txt"
expect_exit 2 "graph\.txt: write failed \(File too large\)" \
  bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' _ "$afc" convert "$sample" -o "$full/graph.txt" --force
[[ "$(cat "$full/graph.txt")" == "old text" ]] || fail "a failed write replaced the old file"
expect_exit 2 "write failed \(File too large\)" \
  bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@"' _ "$afc" compile "$sample" --bind "$bind" \
  --out "$full/out" --no-build
no_leftovers "$full"

# 4. The host compiler killed by a signal (SIGKILL, as the OOM killer does): a clear message, no
#    library in the cache folder, no temporary file.
wrap="$root/wrap"
mkdir -p "$wrap"
real_cxx="$(command -v c++ || command -v g++ || command -v clang++)"
cat >"$wrap/killed-cxx" <<EOF
#!/bin/sh
case "\$*" in *--version*|*-dumpversion*) exec "$real_cxx" "\$@" ;; esac
kill -KILL \$\$
EOF
chmod +x "$wrap/killed-cxx"
killed_cache="$root/killed cache"
expect_exit 2 "host toolchain: .*compiler killed by signal 9" \
  env AF_CACHE_DIR="$killed_cache" CXX="$wrap/killed-cxx" "$afc" run "$sample" --bind "$bind" --seed 3
if find "$killed_cache" -name 'kernel.so*' 2>/dev/null | grep -q .; then
  fail "a killed build left a library: $(find "$killed_cache" -name 'kernel.so*')"
fi
no_leftovers "$killed_cache"

# 5. A damaged kernel-cache entry (bytes overwritten in the middle of kernel.so, then the digest
#    removed): never loaded, rebuilt, and the run passes.
so="$(find "$AF_CACHE_DIR" -name kernel.so | head -1)"
if [[ -z "$so" ]]; then
  fail "no cached kernel.so after the first run"
else
  size=$(stat -c %s "$so")
  head -c 4096 /dev/urandom | dd of="$so" bs=1 seek=$((size / 2)) conv=notrunc status=none
  cp "$so" "$root/damaged.so"
  expect_exit 0 "" "$afc" run "$odd/graph ä b.AscGraphDef.txt" --bind "$bind" --seed 4
  cmp -s "$so" "$root/damaged.so" && fail "the damaged kernel.so was kept (not rebuilt)"
  rm -f "$(dirname "$so")/kernel.so.digest"
  : >"$so"  # truncated to nothing
  expect_exit 0 "" "$afc" run "$odd/graph ä b.AscGraphDef.txt" --bind "$bind" --seed 5
  [[ -s "$so" && -s "$(dirname "$so")/kernel.so.digest" ]] || fail "the emptied entry was not rebuilt"
  no_leftovers "$AF_CACHE_DIR"
fi

if [[ $failures -ne 0 ]]; then
  echo "hardening: $failures failure(s)"
  exit 1
fi
echo "hardening: all checks passed"
