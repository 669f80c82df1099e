#!/usr/bin/env bash
# Runs every check of the lab, stopping at the first failure. Installs what is missing first
# (scripts/setup.sh); a second run skips the installs and reuses target/.
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"

started=$SECONDS
elapsed() { printf '    (%d s)\n' $((SECONDS - started)); }

section "Tools"
need_rust
need_crates
need_trunk
need_wasm_bindgen
need_wasm_split
need_wasm_opt
need_chromium
need_kernel_tools
need_tshark
elapsed

section "Formatting: cargo fmt --check"
cargo fmt --all --check
elapsed

section "Lints, host: cargo clippy --workspace --all-targets"
cargo clippy --workspace --all-targets -- -D warnings
elapsed

section "Lints, wasm32: cargo clippy --target $WASM_TARGET (core and web)"
cargo clippy --target "$WASM_TARGET" -p tcplab -p tcplab-web --all-targets -- -D warnings
# The page as index.html builds it: its views behind split points (web/src/lazy.rs).
cargo clippy --target "$WASM_TARGET" -p tcplab-web --features split -- -D warnings
elapsed

# The capture tests compare the lab's pcap files with tshark's reading of them: required here.
section "Tests of the simulator, host: cargo test -p tcplab"
TCPLAB_TSHARK=require cargo test -p tcplab
elapsed

# Native and wasm32 must agree to the bit: the wasm32 build replays the golden record the host
# checks above (in Node.js, which wasm-bindgen-test-runner uses for tests not tied to a browser).
section "The simulator in wasm32: cargo test --target $WASM_TARGET -p tcplab --test golden"
cargo test --target "$WASM_TARGET" -p tcplab --test golden
elapsed

# The kernel twin runs the scenarios through this machine's own TCP. As root with a TUN device
# (CI) its tests are required to run; elsewhere each says why it skipped. One at a time: two
# twins at once would share the two cores and spoil each other's timing.
section "The kernel twin: cargo test --release -p tcplab-kernel"
if can_run_kernel_twin; then
    export TCPLAB_KERNEL_TESTS=require
fi
cargo test --release -p tcplab-kernel -- --test-threads=1
unset TCPLAB_KERNEL_TESTS
elapsed

# The page's logic without the DOM (web/src/model/, web/src/batch/) is tested on the host first:
# quick, and a failure there is not a browser's. The same tests run again in Chromium below.
section "Tests of the page's model, its wire and its first screen, host: cargo test -p tcplab-web --lib -p tcplab-wire -p tcplab-prerender"
cargo test -p tcplab-web --lib -p tcplab-wire -p tcplab-prerender
elapsed

section "Tests of the page's code, wasm32 in headless Chromium: cargo test -p tcplab-web"
cargo test --target "$WASM_TARGET" -p tcplab-web
elapsed

section "Release build of the page: trunk build --release (with wasm-opt)"
trunk build --release
elapsed

# The split modules are named by their content, so a host caches them across deploys only if
# the same code is cut into the same bytes: the cut (scripts/split.py) run twice on the page's
# linked module must agree file for file.
section "The cut at the split points is deterministic"
cut_a=$(mktemp -d) cut_b=$(mktemp -d)
wasm-split-cli target/wasm32-unknown-unknown/page/tcplab-web.wasm "$cut_a" >/dev/null
wasm-split-cli target/wasm32-unknown-unknown/page/tcplab-web.wasm "$cut_b" >/dev/null
if ! diff -r "$cut_a" "$cut_b" >/dev/null; then
    echo "two cuts of the same module differ: $(diff -rq "$cut_a" "$cut_b" | head -3)" >&2
    exit 1
fi
say "two cuts of the page's module agree ($(ls "$cut_a" | wc -l) files)"
rm -rf "$cut_a" "$cut_b"

section "Page size (gzip -9)"
# A first visit to the default page fetches its first screen, rendered when the page was built
# (index.html, the CSS, the icon, and its charts as images drawn at a phone's, a laptop's and a
# projector's width, of which a screen fetches its own: a laptop's counted here), and nothing of
# the page's code: the page's module (its glue, the fetcher of its split modules) and the default
# scenario's view come at the reader's first gesture (scripts/on_intent.py). A shared link's page
# fetches the module at once, and the simulator's worker, and no chart image. The views' own
# modules (split_*, and the chunk_* they share) come when a view is first opened, and the
# capture worker when the diagnosis is given a capture file (docs/performance.md, "What the page
# downloads"). The first visit must stay under FIRST_VISIT_MAX bytes.
FIRST_VISIT_MAX=300000
shopt -s nullglob
screen=0
charts=0
module=0
view=0
worker=0
capture=0
views=0
for f in dist/*.wasm dist/*.js dist/*.css dist/*.html dist/*.svg dist/*.bin; do
    raw=$(stat -c %s "$f")
    gz=$(gzip -9 -c "$f" | wc -c)
    case "$f" in
        dist/default-view-*) view=$((view + gz)) ;;
        dist/chart-*-wide-*) charts=$((charts + gz)) ;;
        dist/chart-*) ;;
        dist/tcplab-worker*|dist/worker-loader.js) worker=$((worker + gz)) ;;
        dist/tcplab-capture*) capture=$((capture + gz)) ;;
        dist/split_*|dist/chunk_*) views=$((views + gz)) ;;
        dist/tcplab-web-*|dist/__wasm_split*) module=$((module + gz)) ;;
        *) screen=$((screen + gz)) ;;
    esac
    printf '    %-44s %8d bytes  %8d gzipped\n' "$f" "$raw" "$gz"
done
first_visit=$((screen + charts))
printf '    %-44s %8s        %8d gzipped\n' "a first visit to the default page" "" "$first_visit"
printf '    %-44s %8s        %8d gzipped\n' "the page's module, at the first gesture" "" "$((module + view))"
printf '    %-44s %8s        %8d gzipped\n' "the simulator's worker, with the first change" "" "$worker"
printf '    %-44s %8s        %8d gzipped\n' "a shared link's first visit" "" "$((screen + module + worker))"
printf '    %-44s %8s        %8d gzipped\n' "the views' modules, each when first opened" "" "$views"
printf '    %-44s %8s        %8d gzipped\n' "the capture worker, when a capture is read" "" "$capture"
shopt -u nullglob
if [ "$first_visit" -gt "$FIRST_VISIT_MAX" ]; then
    echo "a first visit to the default page is $first_visit bytes gzipped, over $FIRST_VISIT_MAX" >&2
    exit 1
fi
say "a first visit to the default page: $first_visit bytes gzipped, under $FIRST_VISIT_MAX"

# Last, so that the run ends on cargo's own summary of the tests.
section "End-to-end tests of dist/ in headless Chromium: cargo test -p tcplab-e2e"
cargo test -p tcplab-e2e
