//! Captures: a run exported as a pcap and read back by the lab's own analysis, and by tshark.
//!
//! tshark (Debian's package, which `scripts/test.sh` installs) must agree with the lab's own
//! counts. Where it is missing the tshark tests say so and pass, unless `TCPLAB_TSHARK=require`
//! (set by the test command), when they fail.

use std::path::PathBuf;
use std::process::Command;

use tcplab::capture::analyze::{AnalyzeError, CaptureFile};
use tcplab::capture::read::ReadError;
use tcplab::capture::{CaptureOptions, CapturePoint, FileWriter, Format};
use tcplab::{run, RunOptions, RunResult, Scenario, Tracing};

fn captured(q: &str, opts: CaptureOptions) -> RunResult {
    let s = Scenario::parse(q).expect("scenario");
    run(
        &s,
        &RunOptions {
            capture: Some(opts),
            // Every flow's RTT samples, which the captures' are held to.
            traces: Tracing::Full,
            ..RunOptions::default()
        },
    )
}

fn at(point: CapturePoint) -> CaptureOptions {
    CaptureOptions {
        at: point,
        ..CaptureOptions::default()
    }
}

fn bytes(r: &RunResult) -> &[u8] {
    &r.capture.as_ref().expect("a capture").bytes
}

fn analysed(bytes: &[u8]) -> tcplab::capture::analyze::Analysis {
    let file = CaptureFile::read(bytes, &mut |_| {}).expect("readable");
    file.analyze(file.largest()).expect("analysable")
}

/// How the analysis found its estimate of `key`, in English.
fn how_of<'a>(a: &'a tcplab::capture::analyze::Analysis, key: &str) -> &'a str {
    &a.estimates
        .iter()
        .find(|e| e.key == key)
        .unwrap_or_else(|| panic!("no estimate of {key}"))
        .how
}

// ---------------------------------------------------------------------------------------------
// Round trip: the lab's analysis of its own export.

#[test]
fn an_exported_run_analysed_gives_back_its_rtt_retransmissions_and_link_rate() {
    for point in [CapturePoint::Sender, CapturePoint::Receiver] {
        for (q, rtt, bw) in [
            ("rtt=40&bw=20&loss=0.5&dur=5&app=bulk", 40.0, 20.0),
            ("rtt=80&bw=50&loss=0.2&dur=8&app=bulk&cc=reno", 80.0, 50.0),
            ("rtt=20&bw=10&dur=4&app=bulk&queue=50", 20.0, 10.0),
        ] {
            let r = captured(q, at(point));
            let a = analysed(bytes(&r));
            let ctx = format!("{q} at the {}", point.name());
            assert_eq!(a.capture_point, point, "{ctx}: {}", a.capture_point_why);
            let fitted = Scenario::parse(&a.scenario).expect("the fitted scenario parses");
            // The fitted rtt is the propagation delay: the least RTT less one segment's and
            // one ACK's serialisation at the fitted rate.
            let measured = fitted.rtt_ms;
            assert!(
                (measured - rtt).abs() / rtt < 0.02,
                "{ctx}: RTT {measured} ms against {rtt} ms"
            );
            assert!(a.rtt_ms.is_some_and(|m| m > measured), "{ctx}");
            if point == CapturePoint::Sender {
                assert_eq!(
                    a.retransmitted_segments, r.summary.retransmitted_segments,
                    "{ctx}: retransmissions"
                );
                assert_eq!(a.data_segments_sent, r.summary.data_segments_sent, "{ctx}");
                assert_eq!(
                    a.duplicate_acks, r.summary.duplicate_acks,
                    "{ctx}: dup ACKs"
                );
            } else {
                // The receiver sees the retransmissions that arrived before the run ended.
                assert!(
                    a.retransmitted_segments <= r.summary.retransmitted_segments,
                    "{ctx}"
                );
                assert_eq!(a.spurious_retransmissions, 0, "{ctx}");
            }
            assert!(
                (fitted.bw_mbps - bw).abs() / bw < 0.05,
                "{ctx}: bottleneck {} Mbit/s against {bw}",
                fitted.bw_mbps
            );
            assert_eq!(fitted.mss, 1460, "{ctx}");
        }
    }
}

/// A flow held by its window never fills its link, so what it delivered says only that the link
/// was at least that fast; the spacing of each flight's packets as they left the link's queue
/// (packet pairs) gives the link's own rate, at either capture point.
#[test]
fn a_flow_that_never_filled_its_link_reads_the_link_s_rate_from_its_packet_pairs() {
    for point in [CapturePoint::Sender, CapturePoint::Receiver] {
        for (q, bw) in [
            ("rtt=50&bw=10&rwnd=30000&autotune=0&app=bulk&dur=3", 10.0),
            ("rtt=30&bw=200&rwnd=200000&autotune=0&app=bulk&dur=2", 200.0),
            ("app=body&body=300000&rtt=40&bw=50", 50.0),
        ] {
            let r = captured(q, at(point));
            let a = analysed(bytes(&r));
            let ctx = format!("{q} at the {}", point.name());
            let fitted = Scenario::parse(&a.scenario).expect("the fitted scenario parses");
            let how = how_of(&a, "bw");
            assert!(
                (fitted.bw_mbps - bw).abs() / bw < 0.02,
                "{ctx}: {} Mbit/s against {bw} ({how})",
                fitted.bw_mbps
            );
            // The link's rate known, the least round trip less a segment's and an ACK's time
            // on it is the path's propagation delay.
            let rtt = Scenario::parse(q).expect("scenario").rtt_ms;
            assert!(
                (fitted.rtt_ms - rtt).abs() / rtt < 0.01,
                "{ctx}: rtt {} against {rtt}",
                fitted.rtt_ms
            );
        }
    }
    // The window-limited flow's delivery alone would have said 9.6 Mbit/s at most.
    let r = captured(
        "rtt=50&bw=10&rwnd=30000&autotune=0&app=bulk&dur=3",
        at(CapturePoint::Sender),
    );
    let a = analysed(bytes(&r));
    let how = how_of(&a, "bw");
    assert!(how.contains("packet pairs"), "{how}");
}

#[test]
fn a_capture_s_loss_estimate_counts_the_needed_retransmissions() {
    let r = captured(
        "rtt=30&bw=50&loss=1&dur=10&app=bulk",
        at(CapturePoint::Receiver),
    );
    let a = analysed(bytes(&r));
    let s = &r.summary;
    let true_loss = s.dropped_data as f64 / s.data_segments_sent as f64 * 100.0;
    assert!(
        (a.loss_pct / true_loss - 1.0).abs() < 0.1,
        "estimated {} %, dropped {} %",
        a.loss_pct,
        true_loss
    );
    assert_eq!(a.verdict, tcplab::theory::verdict::Limit::Loss);
}

#[test]
fn a_window_limited_run_reads_as_limited_by_the_receive_window() {
    let r = captured(
        "rtt=30&bw=100&rwnd=65536&autotune=0&dur=5&app=bulk",
        at(CapturePoint::Sender),
    );
    let a = analysed(bytes(&r));
    assert_eq!(a.verdict, tcplab::theory::verdict::Limit::ReceiveWindow);
    assert_eq!(a.window_scale, Some(1));
    // The receiver's window is its buffer in whole segments, below 65 536.
    let w = a.rwnd_max_bytes.expect("a window");
    assert!((60_000..=65_536).contains(&w), "{w}");
    let g = a.goodput_MBps.expect("goodput");
    let lab = r.summary.goodput_MBps.expect("goodput");
    assert!((g / lab - 1.0).abs() < 0.05, "{g} against {lab}");
}

#[test]
fn two_connections_are_listed_apart_and_the_largest_is_analysed() {
    let r = captured(
        "rtt=20&bw=20&flows=2&dur=3&app=bulk",
        at(CapturePoint::Sender),
    );
    let file = CaptureFile::read(bytes(&r), &mut |_| {}).expect("readable");
    assert_eq!(file.connections.len(), 2);
    let ports: Vec<&str> = file.connections.iter().map(|c| c.sender.as_str()).collect();
    assert_eq!(ports, ["192.0.2.1:40000", "192.0.2.1:40001"]);
    let largest = file.largest();
    let most = file
        .connections
        .iter()
        .map(|c| c.data_bytes)
        .max()
        .unwrap_or(0);
    assert_eq!(file.connections[largest - 1].data_bytes, most);
    for c in 1..=2 {
        // The sender's first sample is the handshake's, the path's bare 20 ms round trip
        // (Linux's tcp_synack_rtt_meas), taken as the SYN-ACK arrives.
        let first = r.traces.flows[c - 1]
            .rtt
            .rows()
            .first()
            .map(|(t, v)| (t.as_millis_f64(), v[0]));
        assert!(
            first.is_some_and(|(t, v)| (v - 20.0).abs() < 0.1 && (t - v).abs() < 0.1),
            "connection {c}: {first:?}"
        );
        let a = file.analyze(c).expect("each connection");
        // Each connection's least round trip is the least its sender measured on its data (the
        // first sample is the handshake's, of packets without a payload to serialise).
        let lab = r.traces.flows[c - 1]
            .rtt
            .rows()
            .iter()
            .skip(1)
            .map(|(_, v)| v[0])
            .fold(f64::INFINITY, f64::min);
        let rtt = a.rtt_ms.unwrap_or(0.0);
        assert!(
            (rtt - lab).abs() < 0.05,
            "connection {c}: {rtt} against {lab}"
        );
    }
    assert_eq!(
        file.analyze(3),
        Err(AnalyzeError::NoSuchConnection { asked: 3, count: 2 })
    );
}

#[test]
fn the_latency_probe_and_udp_are_captured_beside_tcp() {
    let r = captured("preset=bufferbloat&dur=2", at(CapturePoint::Sender));
    let c = r.capture.as_ref().expect("a capture");
    let file = CaptureFile::read(&c.bytes, &mut |_| {}).expect("readable");
    assert_eq!(file.connections.len(), 1, "pings are no connection");
    let udp = captured("app=msgs&conns=0&dur=1", at(CapturePoint::Receiver));
    let e = CaptureFile::read(bytes(&udp), &mut |_| {}).expect_err("no TCP");
    assert!(e.to_string().contains("not TCP"), "{e}");
}

#[test]
fn a_capture_starting_mid_connection_is_still_analysed() {
    // Held by its window, the flow never queues: every round trip is the path's.
    let r = captured(
        "rtt=40&bw=100&rwnd=65536&autotune=0&dur=4&app=bulk",
        at(CapturePoint::Sender),
    );
    // Drop the first 500 packets, handshake included.
    let tail = rewrite(bytes(&r), 500, None);
    let a = analysed(&tail);
    assert!(!a.handshake);
    assert!(
        a.notes.iter().any(|n| n.contains("after the handshake")),
        "{:?}",
        a.notes
    );
    let fitted = Scenario::parse(&a.scenario).expect("parses");
    assert!((fitted.rtt_ms - 40.0).abs() < 0.8, "{}", a.scenario);
    assert_eq!(a.window_scale, None);
    // Estimated as the smallest scale that holds the bytes in flight: the window's own.
    assert_eq!(a.rwnd_max_bytes, Some(64_240));
    assert_eq!(a.verdict, tcplab::theory::verdict::Limit::ReceiveWindow);
}

// ---------------------------------------------------------------------------------------------
// Broken files: each says what is wrong; none panics.

#[test]
fn broken_files_say_what_is_wrong() {
    let r = captured("rtt=40&bw=20&dur=1&app=bulk", at(CapturePoint::Sender));
    let good = bytes(&r).to_vec();
    let err = |b: &[u8]| {
        CaptureFile::read(b, &mut |_| {})
            .expect_err("broken")
            .to_string()
    };
    assert_eq!(err(&[]), "the file is empty");
    let text = err(b"GET / HTTP/1.1\r\n");
    assert!(
        text.starts_with("not a capture file: it begins with 47 45 54 20"),
        "{text}"
    );
    assert_eq!(
        err(&good[..10]),
        "the file ends inside its header: it was cut short"
    );
    assert_eq!(
        err(&good[..30]),
        "the file ends inside its first packet: it was cut short"
    );
    // Cut inside the second packet: the one before it is read, and said so in the singular.
    let first_len = u32::from_le_bytes([good[32], good[33], good[34], good[35]]) as usize;
    let second = 24 + 16 + first_len;
    // The one packet read is the SYN: nothing was delivered, which the cut may explain.
    let text = CaptureFile::read(&good[..second + 20], &mut |_| {})
        .and_then(|c| c.analyze(1))
        .map(|a| format!("{a:?}"))
        .unwrap_or_else(|e| e.to_string());
    assert!(
        text.starts_with("connection 1 carried no data: its one packet carries no payload"),
        "{text}"
    );
    assert!(
        text.contains(
            "the file ends inside packet 2: it was cut short, and the packet before it is read"
        ),
        "{text}"
    );
    let one = tcplab::capture::analyze::AnalyzeError::NoTcp {
        frames: 1,
        why: tcplab::capture::analyze::NoTcpWhy::NotTcp {
            frames: 1,
            fragments: 0,
        },
    };
    assert_eq!(
        one.to_string(),
        "no TCP segment could be read in the one frame: it is not TCP (UDP, ICMP, ARP or \
         another protocol)"
    );
    // Cut inside a later packet: the packets before it are read, and the analysis says so.
    let cut = &good[..good.len() - 7];
    let a = analysed(cut);
    assert!(
        a.notes.iter().any(|n| n.contains("it was cut short")),
        "{:?}",
        a.notes
    );
    // A snap length of 40 keeps 6 bytes of each TCP header.
    let short = captured(
        "rtt=40&dur=1",
        CaptureOptions {
            snaplen: 40,
            ..CaptureOptions::default()
        },
    );
    let text = err(bytes(&short));
    assert!(
        text.contains("cut before the end of their TCP header"),
        "{text}"
    );
    assert!(text.contains("keeps 40 bytes"), "{text}");
    // Garbage after a valid header and a few packets: read up to it, never a panic.
    let mut garbled = good[..2_000].to_vec();
    garbled.extend((0..5_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    let _ = CaptureFile::read(&garbled, &mut |_| {}).map(|f| f.analyze(f.largest()));
    assert!(matches!(
        tcplab::capture::read::read_frames(&[0x0a, 0x0d, 0x0d, 0x0a, 1, 2], &mut |_| {}),
        Err(ReadError::TruncatedHeader)
    ));
}

#[test]
fn pcapng_reads_as_pcap_does() {
    let q = "rtt=30&bw=20&loss=0.5&dur=3&app=bulk";
    let pcap = captured(q, at(CapturePoint::Sender));
    let ng = captured(
        q,
        CaptureOptions {
            format: Format::Pcapng,
            ..CaptureOptions::default()
        },
    );
    let (a, b) = (analysed(bytes(&pcap)), analysed(bytes(&ng)));
    assert_eq!(a, b);
}

/// `bytes`, a pcap file of the lab's, without its first `skip` packets (and, if given, only
/// `keep` of the rest).
fn rewrite(bytes: &[u8], skip: usize, keep: Option<usize>) -> Vec<u8> {
    let frames = tcplab::capture::read::read_frames(bytes, &mut |_| {}).expect("readable");
    let mut out = FileWriter::new(Format::Pcap, CaptureOptions::DEFAULT_SNAPLEN);
    let base = tcplab::capture::file::EPOCH_S * 1_000_000_000;
    for f in frames
        .frames
        .iter()
        .skip(skip)
        .take(keep.unwrap_or(usize::MAX))
    {
        out.packet(f.ns - base, f.orig_len, f.data);
    }
    out.into_bytes()
}

// ---------------------------------------------------------------------------------------------
// tshark.

fn tshark() -> Option<PathBuf> {
    let path = PathBuf::from("/usr/bin/tshark");
    if path.exists() {
        return Some(path);
    }
    if std::env::var("TCPLAB_TSHARK").as_deref() == Ok("require") {
        panic!("tshark is required (TCPLAB_TSHARK=require) but /usr/bin/tshark is missing");
    }
    eprintln!("tshark is not installed: skipping (scripts/test.sh installs it)");
    None
}

/// Writes `bytes` to a file of its own for tshark.
fn file_of(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("captures");
    std::fs::create_dir_all(&dir).expect("a directory");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("written");
    path
}

/// tshark's count of frames matching `filter`; panics on any warning it prints.
fn count(tshark: &PathBuf, file: &PathBuf, filter: &str) -> u64 {
    let out = Command::new(tshark)
        .args(["-n", "-r"])
        .arg(file)
        .args(["-Y", filter, "-T", "fields", "-e", "frame.number"])
        .output()
        .expect("tshark runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| !l.contains("Running as user \"root\""))
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert!(
        out.status.success() && warnings.is_empty(),
        "tshark: {stderr}"
    );
    String::from_utf8_lossy(&out.stdout).lines().count() as u64
}

fn fields(tshark: &PathBuf, file: &PathBuf, filter: &str, names: &[&str]) -> Vec<Vec<String>> {
    let mut cmd = Command::new(tshark);
    cmd.args(["-n", "-r"])
        .arg(file)
        .args(["-Y", filter, "-T", "fields"]);
    for n in names {
        cmd.args(["-e", n]);
    }
    let out = cmd.output().expect("tshark runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// tshark's frames of `file` matching `filter`, every checksum verified (ICMP's always is;
/// TCP's, UDP's and IP's on request).
fn checked(tshark: &PathBuf, file: &PathBuf, filter: &str) -> std::process::Output {
    Command::new(tshark)
        .args(["-n", "-r"])
        .arg(file)
        .args([
            "-o",
            "tcp.check_checksum:TRUE",
            "-o",
            "ip.check_checksum:TRUE",
            "-o",
            "udp.check_checksum:TRUE",
            "-Y",
            filter,
        ])
        .output()
        .expect("tshark runs")
}

#[test]
fn tshark_reads_every_export_without_a_warning_and_with_good_checksums() {
    let Some(t) = tshark() else {
        return;
    };
    for (name, q, opts) in [
        (
            "sender.pcap",
            "rtt=40&bw=20&loss=0.5&dur=3&app=bulk",
            at(CapturePoint::Sender),
        ),
        (
            "receiver.pcap",
            "rtt=40&bw=20&loss=0.5&dur=3&app=bulk",
            at(CapturePoint::Receiver),
        ),
        (
            "ng.pcapng",
            "rtt=40&bw=20&dur=2&app=bulk",
            CaptureOptions {
                format: Format::Pcapng,
                ..CaptureOptions::default()
            },
        ),
        (
            "ecn.pcap",
            "preset=codel-ecn&dur=3",
            at(CapturePoint::Receiver),
        ),
        (
            "udp.pcap",
            "app=msgs&conns=0&dur=1&loss=1",
            at(CapturePoint::Sender),
        ),
        (
            "nots.pcap",
            "rtt=20&ts=0&sack=0&dur=1&loss=1&app=bulk",
            at(CapturePoint::Sender),
        ),
        (
            "full.pcap",
            "rtt=20&bw=10&dur=1&app=bulk",
            CaptureOptions {
                snaplen: 2_000,
                ..CaptureOptions::default()
            },
        ),
    ] {
        let r = captured(q, opts);
        let f = file_of(name, bytes(&r));
        let all = count(&t, &f, "frame");
        assert_eq!(all, r.capture.as_ref().map_or(0, |c| c.packets), "{name}");
        let out = checked(
            &t,
            &f,
            "tcp.checksum.status==0 || ip.checksum.status==0 || udp.checksum.status==0 \
                 || icmp.checksum.status==0 || _ws.malformed || _ws.expert.severity==error",
        );
        assert!(
            out.status.success() && out.stdout.is_empty(),
            "{name}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if name == "full.pcap" {
            // Whole frames: every TCP checksum is verified, and good.
            let out = checked(&t, &f, "tcp.checksum.status==1");
            assert_eq!(
                String::from_utf8_lossy(&out.stdout).lines().count() as u64,
                all
            );
        }
        if name == "ecn.pcap" {
            assert_eq!(count(&t, &f, "ip.dsfield.ecn==3"), r.summary.ecn_marks);
        }
    }
}

#[test]
fn tshark_s_tcp_analysis_counts_what_the_lab_counted() {
    let Some(t) = tshark() else {
        return;
    };
    for (name, q) in [
        ("staged.pcap", "rtt=30&bw=10&drop=20&body=2MB"),
        ("random.pcap", "rtt=40&bw=20&loss=1&dur=8&app=bulk"),
        ("timeout.pcap", "preset=lesson-timeout"),
        (
            "reno.pcap",
            "rtt=40&bw=20&loss=2&dur=6&app=bulk&cc=reno&sack=0",
        ),
    ] {
        let r = captured(q, at(CapturePoint::Sender));
        let f = file_of(name, bytes(&r));
        let s = &r.summary;
        // At the sender nothing is reordered, so every segment Wireshark calls out of order is
        // one sent again within a round trip of the highest (its timing heuristic): a
        // retransmission too.
        let resent = count(
            &t,
            &f,
            "tcp.analysis.retransmission || tcp.analysis.out_of_order",
        );
        assert_eq!(resent, s.retransmitted_segments, "{name}: retransmissions");
        assert_eq!(
            count(&t, &f, "tcp.analysis.duplicate_ack"),
            s.duplicate_acks,
            "{name}: duplicate ACKs"
        );
        assert_eq!(count(&t, &f, "tcp.analysis.zero_window"), 0, "{name}");
        if name != "random.pcap" && name != "reno.pcap" {
            assert_eq!(
                count(&t, &f, "tcp.analysis.retransmission"),
                s.retransmitted_segments
            );
        }
        if name == "timeout.pcap" {
            assert_eq!(count(&t, &f, "tcp.analysis.fast_retransmission"), 0);
        }
        // The time-sequence graph: each data segment's time and first byte, as the lab sent
        // it (its trace of new data and of repairs).
        let rows = fields(
            &t,
            &f,
            "tcp.len > 0",
            &["frame.time_relative", "tcp.seq", "tcp.len"],
        );
        let tr = &r.traces.flows[0];
        assert!(
            !tr.sends.is_thinned() && !tr.retransmits.is_thinned(),
            "{name}"
        );
        let mut lab: Vec<(f64, f64)> = tr
            .sends
            .rows()
            .iter()
            .map(|(t, v)| (t.as_millis_f64(), v[0]))
            .collect();
        lab.extend(
            tr.retransmits
                .rows()
                .iter()
                .map(|(t, v)| (t.as_millis_f64(), v[0] + 1460.0)),
        );
        lab.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        let mut wire: Vec<(f64, f64)> = rows
            .iter()
            .map(|r| {
                let t: f64 = r[0].parse().unwrap_or(f64::NAN);
                let seq: f64 = r[1].parse().unwrap_or(f64::NAN);
                let len: f64 = r[2].parse().unwrap_or(f64::NAN);
                (t * 1e3, seq - 1.0 + len)
            })
            .collect();
        wire.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
        assert_eq!(wire.len(), lab.len(), "{name}: segments");
        for (w, l) in wire.iter().zip(&lab) {
            assert!(
                (w.0 - l.0).abs() < 1e-3 && w.1 == l.1,
                "{name}: {w:?} against {l:?}"
            );
        }
    }
}

#[test]
fn the_first_syn_carries_linux_s_options() {
    let Some(t) = tshark() else {
        return;
    };
    let r = captured("rtt=40&rwnd=4194304", at(CapturePoint::Sender));
    let f = file_of("syn.pcap", bytes(&r));
    let syn = fields(
        &t,
        &f,
        "frame.number == 1",
        &[
            "tcp.flags.syn",
            "tcp.options.mss_val",
            "tcp.options.sack_perm",
            "tcp.options.wscale.shift",
            "tcp.options.timestamp.tsval",
            "tcp.len",
        ],
    );
    assert_eq!(syn.len(), 1);
    let s = &syn[0];
    assert_eq!(s[0], "1");
    assert_eq!(
        s[1], "1472",
        "MSS: 1 460 bytes of payload and 12 of timestamp"
    );
    assert!(!s[2].is_empty(), "SACK permitted");
    assert_eq!(s[3], "7");
    assert!(s[4].parse::<u32>().is_ok_and(|v| v > 0), "{s:?}");
    assert_eq!(s[5], "0");
    // The SYN-ACK announces the receiver's scale for a 4 MB buffer: 7 (4 194 304 >> 7 fits).
    let synack = fields(&t, &f, "frame.number == 2", &["tcp.options.wscale.shift"]);
    assert_eq!(synack[0][0], "7");
}

// ---------------------------------------------------------------------------------------------
// Link types and IP versions: the same packets, framed as other captures frame them.

/// A classic pcap, little- or big-endian, micro- or nanosecond, of `frames` on `linktype`.
fn pcap_of(frames: &[(u64, u32, Vec<u8>)], linktype: u32, big: bool, nanos: bool) -> Vec<u8> {
    let u32b = |x: u32| {
        if big {
            x.to_be_bytes()
        } else {
            x.to_le_bytes()
        }
    };
    let u16b = |x: u16| {
        if big {
            x.to_be_bytes()
        } else {
            x.to_le_bytes()
        }
    };
    let mut out = Vec::new();
    out.extend(u32b(if nanos { 0xa1b2_3c4d } else { 0xa1b2_c3d4 }));
    out.extend(u16b(2));
    out.extend(u16b(4));
    out.extend(u32b(0));
    out.extend(u32b(0));
    out.extend(u32b(65_535));
    out.extend(u32b(linktype));
    for (ns, orig, data) in frames {
        out.extend(u32b((ns / 1_000_000_000) as u32));
        let frac = ns % 1_000_000_000;
        out.extend(u32b(if nanos { frac } else { frac / 1000 } as u32));
        out.extend(u32b(data.len() as u32));
        out.extend(u32b(*orig));
        out.extend(data);
    }
    out
}

/// Each Ethernet frame of a lab capture, rewritten by `f` (which gets the IPv4 packet).
fn reframed(bytes: &[u8], f: impl Fn(&[u8]) -> Vec<u8>) -> Vec<(u64, u32, Vec<u8>)> {
    let frames = tcplab::capture::read::read_frames(bytes, &mut |_| {}).expect("readable");
    frames
        .frames
        .iter()
        .map(|fr| {
            let ip = &fr.data[14..];
            let out = f(ip);
            let grown = out.len() as u32 - ip.len() as u32;
            (fr.ns, fr.orig_len - 14 + grown, out)
        })
        .collect()
}

/// The IPv4 packet `ip` as IPv6, addresses mapped into 2001:db8::/32.
fn as_ipv6(ip: &[u8]) -> Vec<u8> {
    let ihl = usize::from(ip[0] & 0x0f) * 4;
    let total = u16::from_be_bytes([ip[2], ip[3]]);
    let payload = total - ihl as u16;
    let mut v6 = vec![0x60 | ((ip[1] >> 4) & 0x0f), (ip[1] & 0x0f) << 4, 0, 0];
    v6.extend(payload.to_be_bytes());
    v6.push(ip[9]);
    v6.push(64);
    for addr in [&ip[12..16], &ip[16..20]] {
        v6.extend([0x20, 0x01, 0x0d, 0xb8]);
        v6.extend([0u8; 8]);
        v6.extend(addr);
    }
    v6.extend(&ip[ihl..]);
    v6
}

#[test]
fn every_link_type_and_ip_version_reads_the_same_connection() {
    let r = captured(
        "rtt=30&bw=20&loss=0.5&dur=2&app=bulk",
        at(CapturePoint::Sender),
    );
    let want = analysed(bytes(&r));
    let eth = |ip: &[u8], vlan: bool, ether_type: u16| {
        let mut f = vec![2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1];
        if vlan {
            f.extend([0x81, 0x00, 0x00, 0x2a]);
        }
        f.extend(ether_type.to_be_bytes());
        f.extend(ip);
        f
    };
    let sll = |ip: &[u8]| {
        let mut f = vec![0, 4, 0, 1, 0, 6, 2, 0, 0, 0, 0, 1, 0, 0, 0x08, 0x00];
        f.extend(ip);
        f
    };
    let sll2 = |ip: &[u8]| {
        let mut f = vec![
            0x08, 0x00, 0, 0, 0, 0, 0, 3, 0, 1, 4, 6, 2, 0, 0, 0, 0, 1, 0, 0,
        ];
        f.extend(ip);
        f
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "raw IP, big-endian, microseconds",
            pcap_of(&reframed(bytes(&r), |ip| ip.to_vec()), 101, true, false),
        ),
        (
            "IPv4 link type",
            pcap_of(&reframed(bytes(&r), |ip| ip.to_vec()), 228, false, true),
        ),
        (
            "Linux cooked (SLL)",
            pcap_of(&reframed(bytes(&r), sll), 113, false, true),
        ),
        (
            "Linux cooked v2 (SLL2)",
            pcap_of(&reframed(bytes(&r), sll2), 276, false, true),
        ),
        (
            "a VLAN tag",
            pcap_of(
                &reframed(bytes(&r), |ip| eth(ip, true, 0x0800)),
                1,
                false,
                true,
            ),
        ),
        (
            "IPv6 over Ethernet",
            pcap_of(
                &reframed(bytes(&r), |ip| eth(&as_ipv6(ip), false, 0x86dd)),
                1,
                false,
                true,
            ),
        ),
        (
            "IPv6 link type",
            pcap_of(&reframed(bytes(&r), as_ipv6), 229, false, true),
        ),
    ];
    for (name, file) in cases {
        let got = analysed(&file);
        // Microseconds round the times; the rest is the same connection to the byte.
        assert_eq!(got.data_segments_sent, want.data_segments_sent, "{name}");
        assert_eq!(
            got.retransmitted_segments, want.retransmitted_segments,
            "{name}"
        );
        assert_eq!(got.duplicate_acks, want.duplicate_acks, "{name}");
        assert_eq!(got.rwnd_max_bytes, want.rwnd_max_bytes, "{name}");
        assert_eq!(got.acked_bytes, want.acked_bytes, "{name}");
        let (a, b) = (got.rtt_ms.unwrap_or(0.0), want.rtt_ms.unwrap_or(0.0));
        assert!((a - b).abs() < 0.01, "{name}: {a} against {b}");
        if name.contains("IPv6") {
            assert!(
                got.sender.starts_with("[2001:db8::c000:201]"),
                "{name}: {}",
                got.sender
            );
        }
    }
}

#[test]
fn a_link_type_the_lab_does_not_read_is_named() {
    let r = captured("rtt=30&dur=0.2", at(CapturePoint::Sender));
    let wifi = pcap_of(&reframed(bytes(&r), |ip| ip.to_vec()), 105, false, true);
    let e = CaptureFile::read(&wifi, &mut |_| {}).expect_err("802.11 is not read");
    assert!(
        e.to_string()
            .contains("its link type (105) is not one the lab reads"),
        "{e}"
    );
}

#[test]
fn a_paced_sender_reads_as_bbr_and_an_ack_clocked_one_does_not() {
    for (q, bbr) in [
        ("cc=bbr&rtt=40&bw=20&loss=0.5&app=bulk&dur=5", true),
        ("cc=cubic&rtt=40&bw=20&loss=0.5&app=bulk&dur=5", false),
        ("cc=reno&rtt=40&bw=20&app=bulk&dur=5", false),
    ] {
        let a = analysed(bytes(&captured(q, at(CapturePoint::Sender))));
        let fitted = Scenario::parse(&a.scenario).expect("parses");
        assert_eq!(fitted.cc == tcplab::CcAlgo::Bbr, bbr, "{q}: {}", a.scenario);
        let how = a
            .estimates
            .iter()
            .find(|e| e.key == "cc")
            .map(|e| e.how.clone());
        assert!(how.is_some_and(|h| h.contains("pac")), "{q}");
    }
    // At the receiver the sender's pacing is out of sight: the default, and it says why.
    let a = analysed(bytes(&captured(
        "cc=bbr&rtt=40&bw=20&app=bulk&dur=3",
        at(CapturePoint::Receiver),
    )));
    let how = a
        .estimates
        .iter()
        .find(|e| e.key == "cc")
        .map(|e| e.how.clone());
    assert!(
        how.is_some_and(|h| h.contains("away from the sender")),
        "{:?}",
        a.estimates
    );
}

/// A body's capture at the sender ends with its last byte acknowledged, as a real transfer's
/// does: the run is done when the receiver has the byte, and the capture goes on to its ACK.
/// The summary is the run's as it finished, with or without a capture.
#[test]
fn a_body_captured_at_the_sender_ends_acknowledged() {
    for q in ["body=2500000&rtt=28", "body=300000&rtt=100&loss=1&seed=3"] {
        let r = captured(q, at(CapturePoint::Sender));
        let a = analysed(bytes(&r));
        let body: u64 = Scenario::parse(q).expect("scenario").body;
        assert_eq!(
            a.acked_bytes, body,
            "{q}: every byte acknowledged in the capture"
        );
        let plain = run(
            &Scenario::parse(q).expect("scenario"),
            &RunOptions::default(),
        );
        assert_eq!(r.summary.completion_ms, plain.summary.completion_ms, "{q}");
        assert_eq!(r.summary.events, plain.summary.events, "{q}");
        assert_eq!(r.end, plain.end, "{q}");
    }
}

#[test]
fn a_connections_sends_are_its_senders_data_segments_in_order() {
    // At the sender every data segment it sent is in the file, retransmissions included; at the
    // receiver, not those the path lost.
    let q = "rtt=40&bw=20&loss=1&dur=3&app=bulk";
    let r = captured(q, at(CapturePoint::Sender));
    let file = CaptureFile::read(bytes(&r), &mut |_| {}).expect("readable");
    let sends = file.sends(1).expect("one connection");
    assert_eq!(sends.len() as u64, r.summary.data_segments_sent, "{q}");
    assert!(
        sends.windows(2).all(|w| w[0].ns <= w[1].ns),
        "in the order captured"
    );
    let first = sends.first().expect("data").src;
    assert!(sends.iter().all(|s| s.src == first && s.len > 0));
    // The same segments in bursts, each burst's at one instant, the next at a later one.
    let bursts = file.bursts(1, 1).expect("one connection");
    let total: u32 = bursts.iter().map(|b| b.segments).sum();
    assert_eq!(total as usize, sends.len());
    assert!(bursts.windows(2).all(|w| w[0].at_ns < w[1].at_ns));
    assert!(
        bursts.len() < sends.len(),
        "an ACK releases more than one segment at once"
    );
    let r = captured(q, at(CapturePoint::Receiver));
    let file = CaptureFile::read(bytes(&r), &mut |_| {}).expect("readable");
    let arrived = file.sends(1).expect("one connection").len() as u64;
    // Less those still on the path when the run stopped.
    let delivered = r.summary.data_segments_sent - r.summary.dropped_data;
    assert!(
        arrived <= delivered && arrived * 100 >= delivered * 99,
        "{q}: {arrived} arrived of {delivered}"
    );
    assert!(matches!(
        file.sends(2),
        Err(AnalyzeError::NoSuchConnection { asked: 2, count: 1 })
    ));
}

/// A transfer of one flight (handshake, three segments, their ACKs) is over before a round trip
/// of deliveries could show the link's rate: slow start held it, on the lab's default link,
/// and its goodput is the run's wherever it was captured. At the sender, whose flight was all
/// acknowledged with no more sent, it is the same body; at the receiver, whose capture ends on
/// its ACK of all it holds, more could have been on its way: a bulk flow as long as the
/// sender's view of it.
#[test]
fn a_transfer_of_one_flight_reads_as_slow_start_with_the_run_s_goodput() {
    let q = "app=body&body=4000&rtt=20";
    for point in [CapturePoint::Sender, CapturePoint::Receiver] {
        let r = captured(q, at(point));
        let a = analysed(bytes(&r));
        let ctx = format!("{q} at the {}", point.name());
        assert_eq!(
            a.verdict,
            tcplab::theory::verdict::Limit::SlowStart,
            "{ctx}"
        );
        assert_eq!(a.bottleneck_MBps, None, "{ctx}");
        let fitted = Scenario::parse(&a.scenario).expect("the fitted scenario parses");
        if point == CapturePoint::Sender {
            assert_eq!(fitted.app, tcplab::App::Body, "{ctx}: {}", a.scenario);
            assert_eq!(fitted.body, 4000, "{ctx}");
        } else {
            assert_eq!(fitted.app, tcplab::App::Bulk, "{ctx}: {}", a.scenario);
            let rtt = a.rtt_ms.expect("an rtt");
            let seen = (a.duration_ms + rtt) / 1e3;
            assert!((fitted.dur_s - seen).abs() < 0.001, "{ctx}: {}", a.scenario);
        }
        let how = how_of(&a, "bw");
        assert!(how.starts_with("the lab's default"), "{ctx}: {how}");
        // The lab's goodput runs from the first byte sent to the last received: half a round
        // trip from either capture point's view of it.
        let (g, lab) = (
            a.goodput_MBps.expect("goodput"),
            r.summary.goodput_MBps.expect("goodput"),
        );
        assert!((g / lab - 1.0).abs() < 0.02, "{ctx}: {g} against {lab}");
    }
}

/// At the receiver a transfer has ended when the capture goes on a round trip past its last
/// ACK with nothing more arriving (a keep-alive connection, or a capture left running); less
/// than that, more could still have been on its way.
#[test]
fn a_body_ends_at_the_receiver_a_round_trip_after_its_last_ack() {
    let r = captured("app=body&body=4000&rtt=20", at(CapturePoint::Receiver));
    let frames = tcplab::capture::read::read_frames(bytes(&r), &mut |_| {}).expect("readable");
    let base = tcplab::capture::file::EPOCH_S * 1_000_000_000;
    let last = frames.frames.last().expect("frames");
    for (after_ms, app) in [(30, tcplab::App::Body), (10, tcplab::App::Bulk)] {
        let mut out = FileWriter::new(Format::Pcap, CaptureOptions::DEFAULT_SNAPLEN);
        for f in &frames.frames {
            out.packet(f.ns - base, f.orig_len, f.data);
        }
        // The last ACK again, later: nothing new, the connection still up.
        out.packet(
            last.ns - base + after_ms * 1_000_000,
            last.orig_len,
            last.data,
        );
        let a = analysed(&out.into_bytes());
        let fitted = Scenario::parse(&a.scenario).expect("the fitted scenario parses");
        assert_eq!(fitted.app, app, "{after_ms} ms after: {}", a.scenario);
    }
}

/// A bulk flow cut by a capture at its receiver ends, there, on the receiver's ACK of all it
/// holds, with more data on its way: still a bulk flow, not a body that ended.
#[test]
fn a_bulk_flow_cut_at_the_receiver_is_fitted_as_bulk() {
    for q in [
        "rtt=40&bw=20&app=bulk&dur=0.5",
        "rtt=40&bw=20&app=bulk&dur=3",
    ] {
        let r = captured(q, at(CapturePoint::Receiver));
        let a = analysed(bytes(&r));
        let fitted = Scenario::parse(&a.scenario).expect("the fitted scenario parses");
        assert_eq!(fitted.app, tcplab::App::Bulk, "{q}: {}", a.scenario);
        assert_ne!(
            a.verdict,
            tcplab::theory::verdict::Limit::SlowStart,
            "{q}: {}",
            a.verdict_text
        );
    }
}

/// The fitted scenario of a long body gives the run the time to finish it, past the default
/// ten seconds: the capture's length, three times over.
#[test]
fn a_long_body_s_fitted_scenario_has_the_time_to_finish_it() {
    let r = captured(
        "app=body&body=2MB&bw=1&rtt=100&dur=60",
        at(CapturePoint::Sender),
    );
    let a = analysed(bytes(&r));
    let fitted = Scenario::parse(&a.scenario).expect("the fitted scenario parses");
    assert_eq!(fitted.app, tcplab::App::Body, "{}", a.scenario);
    assert!(a.duration_ms > 15_000.0, "{}", a.duration_ms);
    assert_eq!(fitted.dur_s, (a.duration_ms / 1e3 * 3.0).ceil());
    let again = run(&fitted, &RunOptions::summary_only());
    assert!(
        again.summary.completion_ms.is_some(),
        "{}: {:?}",
        a.scenario,
        again.summary.stopped_by
    );
}

/// A capture of a handshake alone, or of data never acknowledged, delivered nothing: there is
/// no transfer to explain, and no scenario is fitted to it.
#[test]
fn a_connection_that_delivered_nothing_is_refused_with_its_reason() {
    let r = captured("app=body&body=4000&rtt=20", at(CapturePoint::Sender));
    let all = bytes(&r);
    for (keep, data_segments) in [(2, 0), (4, 1)] {
        let cut = rewrite(all, 0, Some(keep));
        let file = CaptureFile::read(&cut, &mut |_| {}).expect("readable");
        let err = file.analyze(1).expect_err("nothing delivered");
        assert_eq!(
            err,
            AnalyzeError::NoDelivery {
                conn: 1,
                packets: keep as u64,
                data_segments,
                one_way: false,
                unseen_acked: 0,
                cut: None
            }
        );
        let text = err.to_string();
        let zh = err.say(tcplab::player::Language::Zh);
        if data_segments == 0 {
            assert_eq!(
                text,
                "connection 1 carried no data: its 2 packets carry no payload (a handshake or \
                 ACKs alone), so there is no transfer to explain"
            );
        } else {
            assert_eq!(
                text,
                "connection 1 has no data acknowledged: 1 data segment was sent, and no ACK in \
                 the capture covers it; a longer capture shows the transfer"
            );
        }
        assert!(zh.starts_with("连接 1 没有"), "{zh}");
    }
    // The sender's packets alone (a filter on one direction): no ACK could be in the file, and
    // the message says to capture both ways rather than longer.
    let frames = tcplab::capture::read::read_frames(all, &mut |_| {}).expect("readable");
    let sender = tcplab::capture::dissect::dissect(&frames.frames[0])
        .expect("the SYN")
        .src;
    let mut out = FileWriter::new(Format::Pcap, CaptureOptions::DEFAULT_SNAPLEN);
    let base = tcplab::capture::file::EPOCH_S * 1_000_000_000;
    for f in &frames.frames {
        if tcplab::capture::dissect::dissect(f).is_ok_and(|s| s.src == sender) {
            out.packet(f.ns - base, f.orig_len, f.data);
        }
    }
    let one_way = out.into_bytes();
    let file = CaptureFile::read(&one_way, &mut |_| {}).expect("readable");
    let err = file.analyze(1).expect_err("nothing acknowledged");
    assert!(
        matches!(err, AnalyzeError::NoDelivery { one_way: true, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().ends_with("capture both directions"),
        "{err}"
    );
    // The receiver's packets alone: ACKs of data the capture never holds, which says to capture
    // both ways, not that the connection carried nothing.
    let mut out = FileWriter::new(Format::Pcap, CaptureOptions::DEFAULT_SNAPLEN);
    for f in &frames.frames {
        if tcplab::capture::dissect::dissect(f).is_ok_and(|s| s.src != sender) {
            out.packet(f.ns - base, f.orig_len, f.data);
        }
    }
    let acks_alone = out.into_bytes();
    let file = CaptureFile::read(&acks_alone, &mut |_| {}).expect("readable");
    let err = file.analyze(1).expect_err("nothing carried");
    let AnalyzeError::NoDelivery {
        data_segments: 0,
        one_way: true,
        unseen_acked,
        packets,
        ..
    } = err
    else {
        panic!("{err:?}");
    };
    // The body's 4 000 bytes, past the SYN-ACK's ACK field.
    assert_eq!(unseen_acked, 4_000, "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "connection 1 shows one direction alone: its {packets} packets acknowledge 4000 \
             bytes, carried by no packet in the capture (a filter on one direction, or a route \
             there that avoids this host); capture both directions"
        )
    );
    let zh = err.say(tcplab::player::Language::Zh);
    assert!(zh.ends_with("请抓取两个方向"), "{zh}");
}

/// `bytes`, a pcapng file, without its Interface Description Blocks (type 1).
fn without_interfaces(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let kind = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
        let len = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().expect("4 bytes")) as usize;
        if kind != 1 {
            out.extend_from_slice(&bytes[at..at + len]);
        }
        at += len;
    }
    out
}

/// A pcapng file whose packets name an interface it never describes cannot place them: the
/// message says so rather than that the file holds no packets.
#[test]
fn pcapng_packets_without_their_interface_are_named() {
    let r = captured(
        "app=body&body=4000&rtt=20",
        CaptureOptions {
            format: Format::Pcapng,
            ..CaptureOptions::default()
        },
    );
    let bare = without_interfaces(bytes(&r));
    assert!(
        bare.len() < bytes(&r).len(),
        "an interface block was taken out"
    );
    let err = CaptureFile::read(&bare, &mut |_| {}).expect_err("nothing placed");
    assert_eq!(
        err.to_string(),
        format!(
            "no TCP segment could be read: {} packets name an interface the file never \
             describes (no Interface Description Block comes before them), so neither their \
             link type nor their clock is known",
            r.capture.as_ref().expect("a capture").packets
        )
    );
    assert!(
        err.say(tcplab::player::Language::Zh)
            .contains("个数据包指向文件从未描述的接口"),
        "{}",
        err.say(tcplab::player::Language::Zh)
    );
}
