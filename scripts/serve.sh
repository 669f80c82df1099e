#!/usr/bin/env bash
# Serves the lab on 127.0.0.1 and rebuilds it when a source changes; Ctrl-C stops it.
# Installs what is missing first (scripts/setup.sh). PORT=NNNN picks another port; extra
# arguments go to `trunk serve`. Once the lab answers, it opens the default scenario in the
# desktop's browser, where there is a desktop (NO_OPEN=1 skips that).
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"

PORT="${PORT:-8080}"
URL="http://127.0.0.1:$PORT/"

# Answers 0 when something on the port returns a page with status 200.
answers() {
    (
        exec 3<>"/dev/tcp/127.0.0.1/$PORT"
        printf 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
        IFS= read -r -t 5 status <&3
        [[ "$status" == *" 200 "* ]]
    ) 2>/dev/null
}

# Opens $1 in the desktop's browser, if there is a desktop and a way to reach its browser; on a
# headless machine the address above is all there is to say.
open_browser() {
    [[ "${NO_OPEN:-0}" == 1 ]] && return 0
    if [[ "$(uname -s)" == Darwin ]]; then
        open "$1" && return 0
    elif [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
        local opener
        for opener in xdg-open sensible-browser x-www-browser; do
            if command -v "$opener" >/dev/null; then
                "$opener" "$1" >/dev/null 2>&1 &
                return 0
            fi
        done
    fi
    echo "    open $1 in a browser"
}

section "Tools"
need_rust
need_crates
need_trunk
need_wasm_bindgen
need_wasm_split
need_wasm_opt

if answers; then
    echo "something already answers on port $PORT: stop it, or choose another with PORT=NNNN" >&2
    exit 1
fi

section "Building and serving the lab (release build; the first takes a few minutes)"
trunk serve --release --address 127.0.0.1 --port "$PORT" "$@" &
trunk_pid=$!
trap 'kill "$trunk_pid" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM

until answers; do
    if ! kill -0 "$trunk_pid" 2>/dev/null; then
        wait "$trunk_pid" || exit $?
        exit 1
    fi
    sleep 1
done
section "tcplab is served at $URL"
say "to host dist/ elsewhere: any static host; the page carries its own Content-Security-Policy"
say "(a meta tag), and a host that sets headers should add: Content-Security-Policy:"
say "frame-ancestors 'self', X-Content-Type-Options: nosniff, Referrer-Policy: no-referrer,"
say "and Content-Type: application/wasm for .wasm files (README, Hosting the page)"
open_browser "$URL"
wait "$trunk_pid"
