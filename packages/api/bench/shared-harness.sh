# Sourced by the shared-fanout-*.sh scripts: copies the shared fan-out harness
# (../shared/perf beside the checkout) into "$work" (removed on exit), for the script to change
# one part of; `run_harness "$@"` then runs that copy from the checkout's root.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
perf="$root/../shared/perf"
[ -f "$perf/fanout.py" ] || { echo "no fan-out harness at $perf" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$perf/fanout.py" "$perf/fanout-client.mjs" "$perf/floor-server.mjs" "$work/"

run_harness() {
  cd "$root"
  PYTHONUNBUFFERED=1 python3 "$work/fanout.py" "$@"
}
