#!/usr/bin/env bash
# Every speed figure of issue 25's table, side by side in one run, with the
# machine and its load: one-shot start-up and piped lines against redis-cli
# (bench/run.sh), --pipe against redis-cli --pipe (bench/pipe.sh), and a
# contended lock (bench/load.sh). Each script prints its own ratios; this
# one prints the machine first and each script's summary lines under a
# heading. Small sizes by default (QUICK=1 for a smoke run); the figures in
# docs/benchmarks.md come from the defaults, on a quiet machine.
# Usage: bench/all.sh
set -euo pipefail
cd "$(dirname "$0")/.."
echo "machine: $(uname -m), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "redis: $(redis-server --version | cut -d' ' -f3), redis-cli $(redis-cli -v | cut -d' ' -f2), $(go version | cut -d' ' -f3)"
if [ "${QUICK:-}" = 1 ]; then
  run=(30 20000) pipe=(200000 3) load=(3 100 20000)
else
  run=(300 100000) pipe=(1000000 5) load=(9 400 50000)
fi
echo; echo "== one-shot SET k v and piped lines, against redis-cli (bench/run.sh ${run[*]})"
MAX_RATIO=99 bench/run.sh "${run[@]}" | tail -4
echo; echo "== --pipe, against redis-cli --pipe (bench/pipe.sh ${pipe[*]})"
bench/pipe.sh "${pipe[@]}" | tail -1
echo; echo "== a contended lock, per retry policy (bench/load.sh ${load[*]}: its rounds, then the medians)"
bench/load.sh "${load[@]}"
