#!/usr/bin/env bash
# Makes the real captures under tests/captures/: the kernel twin runs each scenario through this
# machine's own Linux TCP, and tcpdump on the sending host's TUN device writes what it saw (raw IP,
# link type 101). As root, with /dev/net/tun. The files are committed; the tests only read them.
set -euo pipefail
# shellcheck source=scripts/setup.sh
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$ROOT"
need_rust
need_kernel_tools
need_debian tcpdump
cargo build --release -p tcplab-kernel -p tcplab
out=tests/captures
mkdir -p "$out"
capture() {
    local name=$1 query=$2 at=$3
    say "capture $name: '$query' at the $at"
    target/release/tcplab-kernel run "$query" --pcap "$out/$name.pcap" --at "$at" --snaplen 80 \
        > "$out/$name.summary.json"
}
capture body 'rtt=40&bw=20&body=500KB' sender
capture lossy-bulk 'rtt=40&bw=20&loss=1&app=bulk&dur=2' sender
capture window 'rtt=60&bw=100&rwnd=65536&autotune=0&app=bulk&dur=1' receiver
capture hol-messages 'app=msgs&rtt=100&loss=3&every=10&count=200' sender
# Two connections interleaved, and the broken files: a real tcpdump -s 40, a capture that
# starts mid-connection (editcap, from Debian's wireshark-common, keeps packets 400 to 1 400), one
# cut short inside a packet, and a file that is no capture at all.
capture two-connections 'rtt=30&bw=20&flows=2&app=bulk&dur=1' sender
mkdir -p "$out/broken"
target/release/tcplab-kernel run 'rtt=40&bw=20&body=200KB' --pcap "$out/broken/snaplen-40.pcap" \
    --snaplen 40 > /dev/null
need_debian tshark
editcap -r "$out/lossy-bulk.pcap" "$out/broken/mid-connection.pcap" 400-1400
head -c 20000 "$out/body.pcap" > "$out/broken/truncated.pcap"
printf 'GET /capture.pcap HTTP/1.1\r\nHost: example\r\n\r\n' > "$out/broken/wrong-magic.pcap"
ls -l "$out/broken"
uname -r > "$out/kernel.txt"
ls -l "$out"
