//! The lab's analysis of real captures: Linux's TCP through the kernel twin, captured by tcpdump
//! on a host's TUN device (tests/captures/README.md says how each was made).

use std::path::PathBuf;

use tcplab::capture::analyze::{Analysis, CaptureFile};
use tcplab::capture::CapturePoint;
use tcplab::theory::verdict::Limit;
use tcplab::{run, RunOptions, Scenario};

fn analysed(name: &str) -> Analysis {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/captures")
        .join(name);
    let bytes = std::fs::read(&path).expect("a capture of tests/captures");
    let file = CaptureFile::read(&bytes, &mut |_| {}).expect("readable");
    assert_eq!(file.connections.len(), 1, "{name}");
    file.analyze(file.largest()).expect("analysable")
}

/// What the twin was set to, and what the analysis must find.
struct Made {
    file: &'static str,
    rtt_ms: f64,
    loss_pct: f64,
    at: CapturePoint,
    verdict: Limit,
}

const MADE: [Made; 4] = [
    Made {
        file: "body.pcap",
        rtt_ms: 40.0,
        loss_pct: 0.0,
        at: CapturePoint::Sender,
        verdict: Limit::SlowStart,
    },
    Made {
        file: "lossy-bulk.pcap",
        rtt_ms: 40.0,
        loss_pct: 1.0,
        at: CapturePoint::Sender,
        verdict: Limit::Loss,
    },
    Made {
        file: "window.pcap",
        rtt_ms: 60.0,
        loss_pct: 0.0,
        at: CapturePoint::Receiver,
        verdict: Limit::ReceiveWindow,
    },
    Made {
        file: "hol-messages.pcap",
        rtt_ms: 100.0,
        loss_pct: 3.0,
        at: CapturePoint::Sender,
        verdict: Limit::Application,
    },
];

#[test]
fn each_real_capture_reads_as_it_was_made() {
    for m in &MADE {
        let a = analysed(m.file);
        let name = m.file;
        let fitted = Scenario::parse(&a.scenario).expect("the fitted scenario parses");
        assert!(
            (fitted.rtt_ms - m.rtt_ms).abs() / m.rtt_ms < 0.05,
            "{name}: RTT {} against {}",
            fitted.rtt_ms,
            m.rtt_ms
        );
        if m.loss_pct == 0.0 {
            assert_eq!(a.loss_pct, 0.0, "{name}");
        } else {
            let ratio = a.loss_pct / m.loss_pct;
            assert!(
                (1.0 / 1.5..=1.5).contains(&ratio),
                "{name}: loss {} %",
                a.loss_pct
            );
        }
        assert_eq!(a.capture_point, m.at, "{name}: {}", a.capture_point_why);
        assert_eq!(a.verdict, m.verdict, "{name}: {}", a.verdict_text);
        assert!(a.handshake, "{name}");
    }
}

#[test]
fn each_fitted_scenario_simulates_the_capture_s_goodput() {
    for m in &MADE {
        let a = analysed(m.file);
        let fitted = Scenario::parse(&a.scenario).expect("parses");
        let sim = run(&fitted, &RunOptions::default())
            .summary
            .goodput_MBps
            .expect("a goodput");
        let real = a.goodput_MBps.expect("a goodput");
        assert!(
            (sim / real - 1.0).abs() < 0.25,
            "{}: simulated {sim} MB/s against the capture's {real} ({})",
            m.file,
            a.scenario
        );
    }
}

#[test]
fn the_real_body_shows_linux_s_handshake_and_first_flight() {
    let a = analysed("body.pcap");
    assert_eq!(a.mss, Some(1460));
    assert_eq!(a.iw_segments, Some(10), "Linux's TCP_INIT_CWND");
    assert_eq!(
        a.acked_bytes, 500_000,
        "the FIN's sequence number is not payload"
    );
    assert_eq!(a.retransmitted_segments, 0);
    let window = analysed("window.pcap");
    // The receiver's window clamp of 64 KB held the flight.
    assert!(
        window.in_flight_max_bytes <= 65_536,
        "{}",
        window.in_flight_max_bytes
    );
    // The verdict names the window that held the peak, the one offered then, not a larger
    // one offered later: what was in flight is within a segment of it.
    assert_eq!(window.verdict, Limit::ReceiveWindow);
    assert!(
        window.verdict_text.starts_with(
            "Limited by the receive window: 62,780 bytes in flight filled the 64,078 bytes the \
             receiver offered then (at most 73,000 bytes in the capture); window / RTT = 1.06 MB/s"
        ),
        "{}",
        window.verdict_text
    );
    // So the flow never filled its 100 Mbit/s link, and the link's rate is read from the
    // spacing of each flight's segments as they arrived (packet pairs), not guessed from what
    // the flow delivered (twice its peak was 17.65 Mbit/s).
    let fitted = Scenario::parse(&window.scenario).expect("parses");
    assert!(
        (fitted.bw_mbps - 100.0).abs() < 2.0,
        "bw {} Mbit/s: {}",
        fitted.bw_mbps,
        window.scenario
    );
    let how = &window
        .estimates
        .iter()
        .find(|e| e.key == "bw")
        .expect("bw")
        .how;
    assert!(how.contains("packet pairs"), "{how}");
    let hol = analysed("hol-messages.pcap");
    let fitted = Scenario::parse(&hol.scenario).expect("parses");
    assert_eq!(
        (fitted.msg, fitted.every_ms, fitted.count),
        (100, 10.0, 200)
    );
    // Its messages left as they were written, between ACKs: the application's clock, not a
    // pacer's, so the algorithm is Linux's default, as the kernel that made it ran.
    assert_eq!(fitted.cc, tcplab::CcAlgo::Cubic, "{}", hol.scenario);
    let cc = hol.estimates.iter().find(|e| e.key == "cc").expect("cc");
    assert!(
        cc.how.contains("as its application wrote them"),
        "{}",
        cc.how
    );
}

fn read(name: &str) -> Result<CaptureFile, String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/captures")
        .join(name);
    let bytes = std::fs::read(&path).expect("a file of tests/captures");
    CaptureFile::read(&bytes, &mut |_| {}).map_err(|e| e.to_string())
}

#[test]
fn two_real_connections_are_told_apart() {
    let file = read("two-connections.pcap").expect("readable");
    assert_eq!(file.connections.len(), 2);
    for c in &file.connections {
        let a = file.analyze(c.conn).expect("analysable");
        let fitted = Scenario::parse(&a.scenario).expect("parses");
        // Both start at once: one flow's first flight may wait behind the other's, so its
        // least round trip is up to a flight's time on the link longer than the path's.
        assert!(
            (29.5..36.0).contains(&fitted.rtt_ms),
            "{}: {}",
            c.conn,
            a.scenario
        );
        assert_ne!(a.sender, file.connections[2 - c.conn].sender);
    }
}

#[test]
fn the_broken_files_say_what_is_wrong() {
    let e = read("broken/snaplen-40.pcap")
        .map(|_| ())
        .expect_err("cut headers");
    assert!(
        e.contains(
            "frames are cut before the end of their TCP header (the snap length keeps 28 bytes"
        ),
        "{e}"
    );
    let e = read("broken/wrong-magic.pcap")
        .map(|_| ())
        .expect_err("no capture");
    assert!(
        e.starts_with("not a capture file: it begins with 47 45 54 20"),
        "{e}"
    );
    let cut = read("broken/truncated.pcap").expect("read up to the cut");
    let a = cut.analyze(cut.largest()).expect("analysable");
    assert!(
        a.notes
            .iter()
            .any(|n| n.starts_with("the file ends inside packet ")),
        "{:?}",
        a.notes
    );
    let mid = read("broken/mid-connection.pcap").expect("readable");
    let a = mid.analyze(mid.largest()).expect("analysable");
    assert!(!a.handshake && a.window_scale.is_none());
    assert!(
        a.notes
            .iter()
            .any(|n| n.contains("window scale is estimated")),
        "{:?}",
        a.notes
    );
    let fitted = Scenario::parse(&a.scenario).expect("parses");
    assert!((fitted.rtt_ms - 40.0).abs() < 2.0, "{}", a.scenario);
    // Its retransmissions are the whole capture's share (1 %), not taken back as spurious by
    // SACK blocks of data sent before it began.
    assert!(
        a.spurious_retransmissions <= a.retransmitted_segments,
        "{a:?}"
    );
    assert!((0.8..1.3).contains(&a.loss_pct), "{}", a.loss_pct);
}

/// The figures a sentence states, in order: what both languages must say alike.
fn figures(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .map(|t| t.trim_matches(|c| c == '.' || c == ','))
        .filter(|t| t.chars().any(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

/// The page shows the analysis in Chinese too: each sentence in Chinese, with the English's
/// figures, for every real capture.
#[test]
fn each_analysis_says_the_same_figures_in_chinese() {
    let chinese = |t: &str| t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    for name in [
        "body.pcap",
        "lossy-bulk.pcap",
        "window.pcap",
        "hol-messages.pcap",
        "two-connections.pcap",
        "broken/mid-connection.pcap",
        "broken/truncated.pcap",
    ] {
        let file = read(name).expect("readable");
        let both = file.analyze_in_both(file.largest()).expect("analysable");
        let (en, zh) = (&both.analysis, &both.zh);
        let mut verdict = figures(&en.verdict_text);
        let mut verdict_zh = figures(&zh.verdict_text);
        // A sentence may order its figures differently in each language.
        verdict.sort();
        verdict_zh.sort();
        assert_eq!(
            verdict, verdict_zh,
            "{name}: {} / {}",
            en.verdict_text, zh.verdict_text
        );
        assert!(chinese(&zh.verdict_text), "{name}: {}", zh.verdict_text);
        assert!(chinese(&zh.capture_point_why), "{name}");
        assert_eq!(
            figures(&en.capture_point_why),
            figures(&zh.capture_point_why),
            "{name}"
        );
        assert_eq!(en.estimates.len(), zh.estimates.len(), "{name}");
        for (e, z) in en.estimates.iter().zip(&zh.estimates) {
            assert_eq!(e.key, z.key, "{name}");
            assert_eq!(
                figures(&e.value),
                figures(&z.value),
                "{name}: {e:?} / {z:?}"
            );
            assert!(chinese(&z.how), "{name}: {z:?}");
        }
        assert_eq!(en.notes.len(), zh.notes.len(), "{name}");
        for (e, z) in en.notes.iter().zip(&zh.notes) {
            assert_eq!(figures(e), figures(z), "{name}: {e} / {z}");
            assert!(chinese(z), "{name}: {z}");
        }
    }
}

/// The goodput chart of a capture has points, however short the capture: a body over within
/// ten round trips is drawn in windows of a round trip.
#[test]
fn each_capture_s_goodput_is_charted() {
    for m in &MADE {
        let a = analysed(m.file);
        let points = a.curves.goodput.len();
        assert!(points >= 5, "{}: {points} goodput windows", m.file);
    }
}
