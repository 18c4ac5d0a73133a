#!/usr/bin/env bash
# The shared fan-out harness (../shared/perf/fanout.py, run from the checkout's root) with a floor
# that sends the project's own frames, gzip-chained as the project sends them
# (same-frames-floor.mjs): what is left between the two is the project's work, not the payload
# or its encoding (BENCHMARKS.md §46). Same arguments and environment as fanout.py, e.g.
#   ulimit -n 20000; STREAM_LIMIT_PER_ADDRESS=0 \
#     bash packages/api/bench/shared-fanout-same-frames.sh 100 1000 10000
source "$(dirname "$0")/shared-harness.sh"
cp "$root/packages/api/bench/same-frames-floor.mjs" "$work/floor-server.mjs"
cp "$root/packages/api/bench/floor-stream.mjs" "$work/"
run_harness "$@"
