#!/usr/bin/env bash
# Counts the instructions of the runner's whole run of each QUERY under callgrind, the figures
# of docs/performance.md ("The hot path"), and leaves each profile as target/callgrind/NAME.out
# for callgrind_annotate. Installs valgrind (Debian's package) if it is missing: the test
# command does not need it.
#
#   scripts/profile.sh 'app=bulk&dur=1' 'app=bulk&dur=1&loss=0.1' 'app=bulk&dur=1&flows=8'
#
# With --traces first, each run keeps the traces the page's charts draw (`tcplab run --traces`),
# the run the charts draw: the instructions "with traces" of the docs.
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"

traces=()
if [ "${1:-}" = "--traces" ]; then
    traces=(--traces)
    shift
fi
if [ "$#" -eq 0 ]; then
    echo "usage: scripts/profile.sh [--traces] QUERY..." >&2
    exit 2
fi
need_rust
need_debian valgrind
# The bench profile (release, with LTO) with line tables, so that the profile names source lines.
CARGO_PROFILE_BENCH_DEBUG=line-tables-only cargo build -q --profile bench -p tcplab --bin tcplab
mkdir -p target/callgrind
for query in "$@"; do
    name=$(printf '%s%s' "$query" "${traces[*]/#--/_}" | tr -c 'A-Za-z0-9.' '_')
    out="target/callgrind/$name.out"
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        target/release/tcplab run "${traces[@]}" "$query" >/dev/null 2>"target/callgrind/$name.log"
    refs=$(sed -n 's/.*I *refs: *//p' "target/callgrind/$name.log")
    printf '%-50s %s instructions  (%s)\n' "$query" "$refs" "$out"
done
