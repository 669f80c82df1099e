//! Bit-for-bit determinism across platforms: a set of scenarios run natively and in wasm32 must
//! give the summaries and traces recorded in `golden/runs.txt`. The host writes the file with
//! `UPDATE_GOLDEN=1 cargo test -p tcplab --test golden` when the simulator's behaviour changes
//! on purpose; the wasm32 run (`cargo test -p tcplab --target wasm32-unknown-unknown --test
//! golden`) checks it against the same file.

use tcplab::metrics::trace::TraceKind;
use tcplab::{run, RunOptions, Scenario, Tracing};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

/// Scenarios that touch every mechanism: slow start, HyStart, both recoveries, RACK and TLP,
/// timeouts, bursty and staged loss, ACK loss, several flows, each algorithm, each queue
/// discipline, ECN, a path that changes on a schedule, aggregated ACKs, flows of different
/// algorithms, RTTs, windows and starts, a cellular and a Wi-Fi link.
const SCENARIOS: &[&str] = &[
    "",
    "preset=post-slow-start",
    "preset=loss-sweep&dur=2",
    "preset=loss-sweep&sack=0&loss=5&ackloss=5&dur=3",
    "cc=reno&rtt=40&bw=50&loss=2&burst=4&app=bulk&dur=3&flows=3&seed=9",
    "cc=cubic&rtt=100&bw=200&queue=50&app=bulk&dur=5&flows=2",
    "cc=bbr&rtt=50&bw=100&loss=1&app=bulk&dur=3",
    "iw=4&mss=536&delack=0&body=300000&drop=5,6,7,30&rtt=80&bw=20",
    "rtt=300&bw=5&queue=20&body=2000000&ackloss=10&minrto=50",
    "preset=hol-blocking&count=300",
    "preset=hol-blocking&count=300&conns=3&burst=3",
    "preset=hol-blocking&count=300&conns=0",
    "cc=cubic&rtt=50&bw=100&app=bulk&dur=3&aqm=codel",
    "cc=cubic&rtt=50&bw=100&app=bulk&dur=3&aqm=codel&ecn=1&loss=0.1",
    "cc=reno&rtt=40&bw=20&app=bulk&dur=3&flows=4&aqm=fq_codel&ecn=1&queue=200",
    "cc=cubic&rtt=30&bw=50&app=bulk&dur=3&flows=2&aqm=pie&ecn=1",
    "cc=cubic&rtt=30&bw=10&app=bulk&dur=3&aqm=red&red_min=20&red_max=60&ecn=1",
    "cc=bbr&rtt=50&bw=100&app=bulk&dur=3&aqm=codel&ecn=1",
    "cc=cubic&rtt=50&bw=100&app=bulk&dur=3&flows=2&probe=10&aqm=fq_codel",
    "preset=hol-blocking&count=300&probe=5&loss=0&queue=30",
    "cc=cubic&rtt=40&bw=100&app=bulk&dur=4&flows=2&sched=1:bw:10,2:loss:1,2.5:rtt:80,3:queue:30,3.5:bw:50",
    "cc=bbr&rtt=30&bw=50&app=bulk&dur=3&ackagg=4&aqm=fq_codel&sched=1.5:bw:20",
    "flows=3&cc=bbr,cubic,reno&rtt=20,60,20&iw=4,10,20&start=0,0.5,1&bw=50&queue=100&app=bulk&dur=3",
    "flows=2&cc=bbr,cubic&rtt=10,80&aqm=fq_codel&bw=20&app=bulk&dur=3&sched=1.5:rtt:40",
    "cc=cubic&rtt=40&bw=10&link=lte&queue=300&app=bulk&dur=3",
    "cc=bbr&rtt=20&bw=30&link=wifi&aqm=codel&app=bulk&dur=3&flows=2",
];

/// FNV-1a, 64-bit: a stable digest of a long trace.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn record() -> String {
    let mut out = String::new();
    for q in SCENARIOS {
        let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
        // Every flow's traces, as `tcplab trace` writes them.
        let options = RunOptions {
            traces: Tracing::Full,
            ..RunOptions::default()
        };
        let r = run(&s, &options);
        let json = serde_json::to_string(&r.summary).unwrap_or_default();
        out.push_str(&json);
        out.push('\n');
        for kind in [
            TraceKind::Cwnd,
            TraceKind::Seq,
            TraceKind::Throughput,
            TraceKind::Queue,
        ] {
            out.push_str(&format!("  {kind} {:016x}\n", fnv(&r.trace_csv(kind))));
        }
    }
    out
}

#[test]
fn runs_match_the_golden_record() {
    let got = record();
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/runs.txt");
        std::fs::write(path, &got).unwrap_or_else(|e| panic!("{path}: {e}"));
        return;
    }
    let want = include_str!("golden/runs.txt");
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {} differs", i + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count());
}
