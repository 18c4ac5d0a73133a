#!/usr/bin/env bash
# The shared fan-out harness (../shared/perf/fanout.py, run from the checkout's root) with its
# client also reporting how loaded it was while it timed: its CPU (% of a core) and its own event
# loop's delay (p50/p99 ms) over the measured window, as `client` in each side's JSON. At 10,000
# clients on two cores the one client process is the bottleneck for the project and the floor
# alike (BENCHMARKS.md §34). Same arguments and environment as fanout.py, e.g.
#   ulimit -n 20000; STREAM_LIMIT_PER_ADDRESS=0 FLOOR_MODE=delta \
#     bash packages/api/bench/shared-fanout-client-load.sh 100 1000 10000
source "$(dirname "$0")/shared-harness.sh"
python3 - "$work/fanout-client.mjs" <<'PY'
import sys
client = sys.argv[1]
source = open(client).read()
start = "\nrecording = true;\n"
stop = "\nrecording = false;\n"
report = "console.log(JSON.stringify({\n"
for marker in (start, stop, report):
    if source.count(marker) != 1:
        sys.exit(f"the harness's client changed: {marker.strip()!r} not found once")
source = source.replace(start, start + (
    "const { monitorEventLoopDelay } = await import('node:perf_hooks');\n"
    "const loopDelay = monitorEventLoopDelay({ resolution: 10 }); loopDelay.enable();\n"
    "const cpuAtStart = process.cpuUsage();\n"))
source = source.replace(stop, stop + (
    "loopDelay.disable(); const cpuUsed = process.cpuUsage(cpuAtStart);\n"))
source = source.replace(report, report + (
    "  client: { cpuPct: Math.round((cpuUsed.user + cpuUsed.system) / 1e4 / SECONDS),\n"
    "    loopDelayP50: +(loopDelay.percentile(50) / 1e6).toFixed(1),\n"
    "    loopDelayP99: +(loopDelay.percentile(99) / 1e6).toFixed(1) },\n"))
open(client, "w").write(source)
PY
run_harness "$@"
