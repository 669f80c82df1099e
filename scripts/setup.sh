# shellcheck shell=bash
# Sourced by scripts/serve.sh and scripts/test.sh. Each `need_*` function installs one tool
# when it is missing or at another version and skips it otherwise, fetching only from the
# package registries (crates.io, npm, Debian). Versions are pinned here and in tools/.

# Trunk 0.22.1 declares rust-version 1.96.1 but builds and runs with this machine's rustc 1.95,
# hence --ignore-rust-version below (README, "What the commands install").
TRUNK_VERSION=0.22.1
# The tool that cuts the page's module at its split points (scripts/split.py); its version goes
# with the `wasm_split_helpers` of web/Cargo.toml, whose markers it reads.
WASM_SPLIT_VERSION=0.2.4
WASM_TARGET=wasm32-unknown-unknown

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$ROOT/tools/node_modules/.bin:$PATH"
# Trunk would otherwise ask crates.io at every start whether it is current.
export TRUNK_SKIP_VERSION_CHECK=true

section() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
say() { printf '    %s\n' "$*"; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

_apt_updated=
_debian_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}
# need_debian PKG...: installs the packages that are not installed; `apt-get update` only then.
need_debian() {
    local missing=() pkg
    for pkg in "$@"; do
        _debian_installed "$pkg" || missing+=("$pkg")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        say "debian: $* already installed"
        return
    fi
    say "debian: installing ${missing[*]}"
    if [ -z "$_apt_updated" ]; then
        as_root apt-get update -qq
        _apt_updated=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

need_rust() {
    if ! command -v cargo >/dev/null || ! command -v rustup >/dev/null; then
        echo "cargo and rustup are needed: install Rust with rustup first" >&2
        return 1
    fi
    # Crates with C parts (in Trunk's tree) need a C compiler.
    command -v cc >/dev/null || need_debian gcc libc6-dev
    if rustup target list --installed | grep -qx "$WASM_TARGET"; then
        say "rust: $WASM_TARGET target already installed"
    else
        say "rust: adding the $WASM_TARGET target"
        rustup target add "$WASM_TARGET"
    fi
    rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
    rustup component list --installed | grep -q '^clippy' || rustup component add clippy
}

# Trunk builds offline (Trunk.toml), so every crate of Cargo.lock, for every target, is fetched
# here first; a second run finds them in cargo's cache and asks nothing of the network.
need_crates() {
    say "crates: fetching what Cargo.lock names and cargo's cache lacks"
    cargo fetch --locked --manifest-path "$ROOT/Cargo.toml" --quiet
}

need_trunk() {
    # Trunk's post-build hook (scripts/csp.py) writes the page's Content-Security-Policy.
    command -v python3 >/dev/null || need_debian python3
    if [ "$(trunk --version 2>/dev/null)" = "trunk $TRUNK_VERSION" ]; then
        say "trunk $TRUNK_VERSION already installed"
    else
        say "trunk: installing $TRUNK_VERSION from crates.io (several minutes)"
        cargo install trunk --version "$TRUNK_VERSION" --locked --ignore-rust-version
    fi
}

# The version of the `wasm-bindgen` crate in Cargo.lock: the CLI must match it exactly.
wasm_bindgen_version() {
    awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

need_wasm_bindgen() {
    local want
    want="$(wasm_bindgen_version)"
    if [ -z "$want" ]; then
        echo "no wasm-bindgen in $ROOT/Cargo.lock" >&2
        return 1
    fi
    if ! grep -qx "wasm_bindgen = \"$want\"" "$ROOT/Trunk.toml"; then
        echo "Trunk.toml's [tools] wasm_bindgen must be \"$want\", the version in Cargo.lock" >&2
        return 1
    fi
    if [ "$(wasm-bindgen --version 2>/dev/null)" = "wasm-bindgen $want" ] &&
        [ "$(wasm-bindgen-test-runner --version 2>/dev/null)" = "wasm-bindgen-test-runner $want" ]; then
        say "wasm-bindgen-cli $want already installed"
    else
        say "wasm-bindgen-cli: installing $want from crates.io (several minutes)"
        # Not --locked: the CLI's own lockfile names a release of a dependency that the
        # registry no longer has.
        cargo install wasm-bindgen-cli --version "$want"
    fi
}

need_wasm_split() {
    if cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
        say "wasm-split-cli $WASM_SPLIT_VERSION already installed"
    else
        say "wasm-split-cli: installing $WASM_SPLIT_VERSION from crates.io (a minute or two)"
        cargo install wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary --locked
    fi
}

# wasm-opt from npm's binaryen, pinned in tools/package-lock.json: Debian's is too old to read
# what wasm-bindgen writes.
need_wasm_opt() {
    local want
    want="$(node -p "require('$ROOT/tools/package.json').dependencies.binaryen.split('.')[0]" 2>/dev/null || true)"
    if ! command -v npm >/dev/null; then
        need_debian nodejs npm
        want="$(node -p "require('$ROOT/tools/package.json').dependencies.binaryen.split('.')[0]")"
    fi
    if [ -n "$want" ] && [ -x "$ROOT/tools/node_modules/.bin/wasm-opt" ] &&
        "$ROOT/tools/node_modules/.bin/wasm-opt" --version 2>/dev/null | grep -q "version $want "; then
        say "wasm-opt (binaryen $want) already installed in tools/"
    else
        say "wasm-opt: installing binaryen $want from npm into tools/"
        (cd "$ROOT/tools" && npm ci --no-audit --no-fund --loglevel=error)
    fi
}

# The kernel twin's tests (kernel/): `ip` to configure its namespaces and routes, `ethtool` to
# turn the TUN devices' offloads off, `mount` (in Debian's base system) for their sysfs.
need_kernel_tools() {
    # tcpdump: the twin's captures (`run --pcap`), which a twin test holds the lab's to.
    need_debian iproute2 ethtool tcpdump
}

# tshark: the capture tests check the lab's pcap files against Wireshark's own analysis.
need_tshark() {
    need_debian tshark
}

# Whether this machine can host the kernel twin: root and a TUN device. Prints why not.
can_run_kernel_twin() {
    if [ "$(id -u)" -ne 0 ]; then
        say "kernel twin: not root, so its tests only say why they skip"
        return 1
    fi
    if [ ! -e /dev/net/tun ]; then
        say "kernel twin: no /dev/net/tun, so its tests only say why they skip"
        return 1
    fi
    return 0
}

need_chromium() {
    # fonts-liberation: the chart's text is drawn by the browser, which needs real fonts;
    # fonts-wqy-microhei: the page's Chinese, in the screenshots of the end-to-end tests.
    need_debian chromium chromium-driver fonts-liberation fonts-wqy-microhei
    export CHROMEDRIVER=/usr/bin/chromedriver CHROMIUM=/usr/bin/chromium
}
