#!/usr/bin/env bash
# What a first visit cannot go below on the page's stack: tools/size-floor (Yew, one plotters
# chart on a canvas, one slider, postcard; nothing of the lab) built as the page is built, beside
# the simulator's worker built at its own profile and at the page's. Prints a markdown table for
# docs/performance.md ("What the page downloads"). A few minutes; its own target dirs.
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"
need_rust
need_crates
need_wasm_bindgen
need_wasm_opt

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
gz() { gzip -9 -c "$1" | wc -c; }
# wasm-bindgen then wasm-opt -Oz, as Trunk does (index.html: data-wasm-opt="z"); prints the
# gzipped wasm and JS glue.
bind() {
    wasm-bindgen --target "$2" --no-typescript --out-dir "$out/$3" "$1"
    wasm-opt -Oz "$out/$3/$3_bg.wasm" --output="$out/$3/opt.wasm"
    echo "$(gz "$out/$3/opt.wasm") $(gz "$out/$3/$3.js")"
}

floor_target="$ROOT/target/size-floor"
CARGO_TARGET_DIR="$floor_target" cargo build -q --release --locked --offline \
    --manifest-path tools/size-floor/Cargo.toml --target "$WASM_TARGET"
read -r floor_wasm floor_js < <(bind "$floor_target/$WASM_TARGET/release/size-floor.wasm" web size-floor)

cargo build -q --profile worker --target "$WASM_TARGET" -p tcplab-web --bin tcplab-worker
read -r worker_wasm worker_js < <(bind "$ROOT/target/$WASM_TARGET/worker/tcplab-worker.wasm" no-modules tcplab-worker)
# The same worker with the simulator at the page's opt-level "z" instead of 3.
small_target="$ROOT/target/size-floor-worker"
CARGO_TARGET_DIR="$small_target" cargo build -q --profile worker --target "$WASM_TARGET" \
    -p tcplab-web --bin tcplab-worker --config 'profile.worker.package.tcplab.opt-level="z"'
read -r small_wasm small_js < <(bind "$small_target/$WASM_TARGET/worker/tcplab-worker.wasm" no-modules tcplab-worker)

echo "| what | wasm gzipped | JS gzipped | together |"
echo "|---|---:|---:|---:|"
echo "| the smallest first screen (tools/size-floor) | $floor_wasm | $floor_js | $((floor_wasm + floor_js)) |"
echo "| the simulator's worker (\`worker\` profile) | $worker_wasm | $worker_js | $((worker_wasm + worker_js)) |"
echo "| the worker, simulator at opt-level \"z\" | $small_wasm | $small_js | $((small_wasm + small_js)) |"
echo "| floor + worker | | | $((floor_wasm + floor_js + worker_wasm + worker_js)) |"
echo "| floor + worker at \"z\" | | | $((floor_wasm + floor_js + small_wasm + small_js)) |"
