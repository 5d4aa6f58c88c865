#!/usr/bin/env bash
# Run a command beside CPU hogs, as a busy machine (a shared CI runner, a cheap VPS, a laptop on battery) would.
#   scripts/under_load.sh [-n HOGS] COMMAND [ARGS...]
# Starts HOGS busy loops (default 2), runs COMMAND, stops the hogs, and exits with COMMAND's status.
# The test suite must pass like this:  scripts/under_load.sh .venv/bin/python -m pytest -q
set -u
hogs=2
if [ "${1:-}" = "-n" ]; then hogs=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: $0 [-n HOGS] COMMAND [ARGS...]" >&2; exit 2; }
pids=()
stop() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait "${pids[@]}" 2>/dev/null; }
trap stop EXIT INT TERM
for _ in $(seq "$hogs"); do
  python3 -c 'while True: pass' &
  pids+=($!)
done
echo "under load: $hogs CPU hogs beside: $*" >&2
"$@"
status=$?
echo "under load: load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; status $status" >&2
exit $status
