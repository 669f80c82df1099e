#!/usr/bin/env bash
# Measures the page's gzipped wasm for each cargo opt-level (s, z, 3) against each wasm-opt
# level, the way Trunk builds it (the `page` profile, wasm-bindgen --target web, then wasm-opt).
# Prints a markdown table for docs/performance.md. Uses its own target dir: several minutes.
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
export CARGO_TARGET_DIR="${MEASURE_TARGET_DIR:-$ROOT/target/measure}"
gz() { gzip -9 -c "$1" | wc -c; }
kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }

echo "| cargo opt-level | wasm-opt | wasm | wasm gzipped | JS gzipped |"
echo "|---|---|---:|---:|---:|"
for level in s z 3; do
    CARGO_PROFILE_PAGE_OPT_LEVEL=$level cargo build -q --profile page \
        --target "$WASM_TARGET" -p tcplab-web --bin tcplab-web
    wasm-bindgen --target web --no-typescript --out-dir "$out/$level" \
        "$CARGO_TARGET_DIR/$WASM_TARGET/page/tcplab-web.wasm"
    bg="$out/$level/tcplab-web_bg.wasm"
    js_gz=$(gz "$out/$level/tcplab-web.js")
    for w in none -Os -Oz -O3; do
        f="$bg"
        if [ "$w" != none ]; then
            f="$out/$level/opt$w.wasm"
            wasm-opt "$w" "$bg" --output="$f"
        fi
        echo "| $level | $w | $(kb "$(stat -c %s "$f")") KiB | $(kb "$(gz "$f")") KiB | $(kb "$js_gz") KiB |"
    done
done
