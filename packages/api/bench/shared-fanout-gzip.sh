#!/usr/bin/env bash
# The shared fan-out harness (../shared/perf/fanout.py, run from the checkout's root) with its
# floor doing gzip as the project does (shared-floor-gzip.mjs): the harness's own floor answers a
# client that asks for gzip in plain text, and gunzipping is most of what its client then times
# (BENCHMARKS.md §23). Same arguments and environment as fanout.py, e.g.
#   ulimit -n 20000; STREAM_LIMIT_PER_ADDRESS=0 FLOOR_MODE=delta \
#     bash packages/api/bench/shared-fanout-gzip.sh 100 1000 10000
source "$(dirname "$0")/shared-harness.sh"
cp "$root/packages/api/bench/shared-floor-gzip.mjs" "$work/floor-server.mjs"
cp "$root/packages/api/bench/floor-stream.mjs" "$work/"
run_harness "$@"
