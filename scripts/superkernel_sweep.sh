#!/usr/bin/env bash
# Every PyTorch oracle case (tests/oracle/cases.py) through `afc run --superkernel`: the case's
# kernels run separately and as super kernels, checked against each other and the expected arrays
# (docs/superkernel.md). Opt-in (the default suite runs one representative case,
# oracle_superkernel_*). Prints one line per case and a summary; exit 1 when a case fails.
#     scripts/superkernel_sweep.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
work="$build/oracle_cases_superkernel_sweep"
mkdir -p "$work"
cases=$(/usr/bin/python3 -c '
import re, sys
seen = []
for m in re.finditer(r"^    \"([a-z0-9_]+)\": \(", open("tests/oracle/cases.py").read(), re.M):
    if m.group(1) not in seen:
        seen.append(m.group(1))
print(" ".join(seen))')
pass=0; fail=0; joined=0
for c in $cases; do
  log="$work/$c.log"
  if /usr/bin/python3 tests/oracle/run_case.py --case "$c" --afc "$build/bin/afc" \
      --work "$work" --superkernel >"$log" 2>&1; then
    pass=$((pass + 1)); status=PASS
  else
    fail=$((fail + 1)); status=FAIL
  fi
  n=$(grep -c "SUPERKERNEL_JOINED" "$log")
  joined=$((joined + n))
  echo "$status $c ($n super kernel(s)): $(grep -E '^superkernel: ' "$log" | head -1)"
done
echo "superkernel sweep: $pass passed, $fail failed, $joined super kernels in all"
[ "$fail" -eq 0 ]
