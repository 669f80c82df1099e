//! What the page draws, in one serialisable value: a run's summary, verdict and theory lines,
//! and its traces as chart-ready points (time in ms). The page's worker runs the simulation and
//! posts this to the page as postcard bytes (`tcplab-wire`), which leave out no field: every
//! field is written, even when empty. Nothing in the page computes TCP.

use serde::{Deserialize, Serialize};

use crate::cc::bbr::BbrMode;
use crate::link::managed::Discipline;
use crate::link::PathShape;
use crate::metrics::summary::Summary;
use crate::metrics::trace::window_col;
use crate::rate::{MBytePerS, MbitPerS};
use crate::scenario::Scenario;
use crate::sim::RunResult;
use crate::theory::path::{bdp_bytes, link_payload, packet_ms, window_limit};
use crate::theory::slow_start::ideal_rate_steps;
use crate::theory::verdict::{verdict, Verdict};
use crate::time::Instant;

mod packed;

/// Messages kept for the latency chart; beyond this, each bin of messages keeps its worst.
pub const MAX_MESSAGE_POINTS: usize = 20_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunView {
    /// The canonical query string.
    pub query: String,
    pub summary: Summary,
    pub verdict: Verdict,
    pub theory: Theory,
    pub flows: Vec<FlowView>,
    /// (t ms, packets waiting at the bottleneck).
    #[serde(with = "packed::pairs")]
    pub queue: Vec<(f64, f64)>,
    pub drops: Vec<DropView>,
    /// (t ms, sojourn ms) of data packets at the bottleneck, as each went onto the link.
    #[serde(with = "packed::pairs")]
    pub sojourn: Vec<(f64, f64)>,
    /// CE marks by the queue discipline.
    pub marks: Vec<MarkView>,
    /// (t ms, round trip ms) of the latency probe's pings, as each echo came back.
    #[serde(with = "packed::pairs")]
    pub probe: Vec<(f64, f64)>,
    pub messages: Vec<MsgView>,
    pub hol: Vec<HolView>,
    /// When the run stopped, in ms.
    pub end_ms: f64,
    /// The path's scheduled changes (`sched`), for the charts to mark.
    #[serde(default)]
    pub changes: Vec<ChangeView>,
    /// How several flows shared the link, window by window (`metrics::fairness`); empty for
    /// one flow.
    #[serde(default)]
    pub fairness: Vec<FairnessPoint>,
    /// The length of those windows (ms).
    #[serde(default)]
    pub fairness_window_ms: f64,
    /// A link of opportunities (`link=lte`, `wifi`, a trace): what it could carry, (bin start
    /// ms, MB/s of payload) in the goodput's bins; empty for a fixed rate.
    #[serde(default)]
    pub capacity: Vec<(f64, MBytePerS)>,
}

/// What a link of opportunities could carry in each bin of `bin` up to `end`: every
/// opportunity used, each worth its 1504 bytes less the headers' share of a packet of
/// `payload` bytes in `wire` bytes.
///
/// Drawing the link again costs as much as the run's own link did (a tenth of a cellular run),
/// and a slider dragged over any key but the link's own asks for the same capacity run after
/// run: the last one computed on this thread is kept, and given again for the same inputs.
pub fn capacity(
    model: &crate::link::opportunity::LinkModel,
    bin: crate::time::Duration,
    end: Instant,
    sizes: (u32, u32),
) -> Vec<(f64, MBytePerS)> {
    type Key = (
        crate::link::opportunity::LinkModel,
        crate::time::Duration,
        Instant,
        (u32, u32),
    );
    type Kept = Option<(Key, Vec<(f64, MBytePerS)>)>;
    thread_local! {
        static LAST: std::cell::RefCell<Kept> = const { std::cell::RefCell::new(None) };
    }
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if let Some((key, bins)) = last.as_ref() {
            if key.0 == *model && key.1 == bin && key.2 == end && key.3 == sizes {
                return bins.clone();
            }
        }
        let bins = draw_capacity(model, bin, end, sizes);
        *last = Some(((model.clone(), bin, end, sizes), bins.clone()));
        bins
    })
}

fn draw_capacity(
    model: &crate::link::opportunity::LinkModel,
    bin: crate::time::Duration,
    end: Instant,
    (payload, wire): (u32, u32),
) -> Vec<(f64, MBytePerS)> {
    use crate::link::opportunity::{Opportunities, OPPORTUNITY_BYTES};
    let bin_ns = bin.as_nanos().max(1);
    let bins = (end.as_nanos().div_ceil(bin_ns) as usize).min(1 << 20);
    let mut count = vec![0u64; bins];
    let mut o = Opportunities::new(model);
    let mut t = Instant::ZERO;
    loop {
        t = o.depart(t, OPPORTUNITY_BYTES);
        match count.get_mut((t.as_nanos() / bin_ns) as usize) {
            Some(c) => *c += 1,
            None => break,
        }
    }
    let per =
        crate::link::opportunity::opportunity_payload(payload, wire) / bin.as_secs_f64() / 1e6;
    count
        .iter()
        .enumerate()
        .map(|(i, &c)| ((i as u64 * bin_ns) as f64 / 1e6, MBytePerS(c as f64 * per)))
        .collect()
}

/// One window of a run of several flows: from `t` ms, Jain's index of their goodput and each
/// flow's share of it (0 to 1), `None` where no flow delivered anything.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FairnessPoint {
    pub t: f64,
    pub jain: Option<f64>,
    pub shares: Option<Vec<f64>>,
}

/// One scheduled change of the path: at `t` ms, `key` takes `value` (written as the query
/// writes it, in the key's unit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChangeView {
    pub t: f64,
    pub key: crate::scenario::Key,
    pub value: String,
}

/// The lines the charts lay over the measurement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Theory {
    pub rtt_ms: f64,
    pub mss: u32,
    pub bdp_bytes: f64,
    pub rwnd_bytes: f64,
    /// The link's payload rate; for a link of opportunities (`link=lte`, `wifi`, a trace),
    /// what it could carry over the span the goodput is measured on, the rate the verdict holds
    /// the goodput to (a walk's or a trace's stretch may stand well off its long-run mean).
    pub link_mbps: MBytePerS,
    /// `link_mbps` is a varying link's mean over the run, not a fixed rate.
    #[serde(default)]
    pub link_varies: bool,
    pub window_limit_mbps: MBytePerS,
    pub mathis_mbps: Option<MBytePerS>,
    /// Ideal slow start's rate, as steps (start ms after the first data byte, rate).
    pub slow_start: Vec<(f64, MBytePerS)>,
    /// The queue discipline, and the sojourn it aims at (CoDel's and FQ-CoDel's target,
    /// PIE's); none for the FIFO and RED, whose thresholds are in packets.
    pub aqm: crate::scenario::Aqm,
    pub queue_target_ms: Option<f64>,
    /// A full-sized packet's time on the link, ms.
    pub packet_ms: f64,
    /// What a full queue adds to a packet's delay: `queue` full-sized packets, ms.
    pub full_queue_ms: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarkView {
    pub t: f64,
    pub flow: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WindowPoint {
    pub t: f64,
    pub cwnd: f64,
    pub ssthresh: Option<f64>,
    pub in_flight: f64,
    pub rwnd: f64,
    pub srtt_ms: Option<f64>,
    pub rto_ms: f64,
}

/// A CUBIC epoch: W(t) = 0.4 (t - k)^3 + w_max segments, t in s from `start_ms`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CubicView {
    pub start_ms: f64,
    pub k_s: f64,
    pub w_max: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BbrPoint {
    pub t: f64,
    pub mode: BbrMode,
    pub bw_mbps: Option<MBytePerS>,
    pub min_rtt_ms: Option<f64>,
    pub pacing_gain: f64,
    /// The pacing rate BBR set (payload), which Startup never lowers.
    #[serde(default)]
    pub pacing_mbps: Option<MBytePerS>,
    /// ProbeBW's phase of its eight-phase gain cycle (0 probes up at 1.25, 1 drains at 0.75,
    /// 2 to 7 cruise at 1), `None` in the other modes.
    #[serde(default)]
    pub phase: Option<u8>,
    #[serde(default)]
    pub cwnd_gain: f64,
    /// The window BBR steers toward (`bbr_set_cwnd`'s target), bytes: `cwnd_gain` BDPs of its
    /// model plus the ACK-aggregation allowance; none before it has a min RTT.
    #[serde(default)]
    pub target_cwnd_bytes: Option<f64>,
    /// The ACK-aggregation allowance in that target (`bbr_ack_aggregation_cwnd`, Linux's
    /// `extra_acked` filter), bytes.
    #[serde(default)]
    pub extra_acked_bytes: f64,
}

/// One SACK block an ACK carried, as sequence offsets: its left edge and the byte after its
/// right edge (RFC 2018).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SackBlockView {
    pub t_ms: f64,
    pub left: f64,
    pub right: f64,
}

/// One flow's series as the charts draw them. The segments, ACKs, SACKs and RTT samples are the
/// first flow's alone in a view of the charts' traces ([`crate::Tracing::Charts`]): the
/// sequence and RTT charts draw flow 1; every flow's come in the trace downloads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlowView {
    #[serde(with = "packed::windows")]
    pub window: Vec<WindowPoint>,
    /// (t ms, highest byte sent) of new data.
    #[serde(with = "packed::pairs")]
    pub sends: Vec<(f64, f64)>,
    /// (t ms, first byte) of each retransmission.
    #[serde(with = "packed::pairs")]
    pub retransmits: Vec<(f64, f64)>,
    /// (t ms, cumulative ACK).
    #[serde(with = "packed::pairs")]
    pub acks: Vec<(f64, f64)>,
    /// (t ms, highest SACKed byte).
    #[serde(with = "packed::pairs")]
    pub sacks: Vec<(f64, f64)>,
    /// Each ACK's SACK blocks, a block a row.
    #[serde(default)]
    pub sack_blocks: Vec<SackBlockView>,
    /// (t ms, RTT sample ms): each sample the sender's estimator took.
    #[serde(default)]
    #[serde(with = "packed::pairs")]
    pub rtt: Vec<(f64, f64)>,
    /// (bin start ms, goodput MB/s) in bins of `bin_ms`.
    #[serde(with = "packed::pairs")]
    pub goodput: Vec<(f64, f64)>,
    pub bin_ms: f64,
    pub cubic: Vec<CubicView>,
    pub bbr: Vec<BbrPoint>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DropView {
    pub t: f64,
    pub flow: u32,
    /// Written "data", "ack", "queue" or "staged".
    pub cause: crate::link::DropCause,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MsgView {
    pub id: u32,
    pub conn: u32,
    pub write_ms: f64,
    pub read_ms: Option<f64>,
    pub held_by: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HolView {
    pub id: u32,
    pub conn: u32,
    pub start_ms: f64,
    pub end_ms: f64,
    pub held: u32,
    pub worst_ms: f64,
}

fn ms(t: Instant) -> f64 {
    t.as_millis_f64()
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn pairs(rows: Vec<(Instant, [f64; 1])>) -> Vec<(f64, f64)> {
    rows.into_iter().map(|(t, [v])| (ms(t), v)).collect()
}

impl RunView {
    pub fn new(s: &Scenario, r: &RunResult) -> RunView {
        let link = link_payload(MbitPerS(s.bw_mbps), s.mss, s.ts);
        let end = r.end;
        let theory = Theory {
            rtt_ms: s.rtt_ms,
            mss: s.mss,
            bdp_bytes: bdp_bytes(MbitPerS(s.bw_mbps), s.rtt_ms),
            rwnd_bytes: s.rwnd as f64,
            link_mbps: r.link_offered.unwrap_or(link),
            link_varies: r.link_offered.is_some(),
            window_limit_mbps: window_limit(s.rwnd as f64, s.rtt_ms),
            mathis_mbps: r.summary.mathis_MBps.map(MBytePerS),
            slow_start: ideal_rate_steps(s.iw, s.mss, s.rtt_ms, link, ms(end)),
            aqm: s.aqm,
            queue_target_ms: Discipline::of(s, PathShape::of(s).bits_per_s)
                .and_then(|d| d.target())
                .map(crate::time::Duration::as_millis_f64),
            packet_ms: packet_ms(MbitPerS(s.bw_mbps), s.mss, s.ts),
            full_queue_ms: f64::from(s.queue) * packet_ms(MbitPerS(s.bw_mbps), s.mss, s.ts),
        };
        let flows = r
            .traces
            .flows
            .iter()
            .map(|f| {
                let width = f.delivered.bin_width();
                FlowView {
                    window: f
                        .window
                        .rows()
                        .into_iter()
                        .map(|(t, v)| WindowPoint {
                            t: ms(t),
                            cwnd: v[window_col::CWND],
                            ssthresh: finite(v[window_col::SSTHRESH]),
                            in_flight: v[window_col::IN_FLIGHT],
                            rwnd: v[window_col::RWND],
                            srtt_ms: finite(v[window_col::SRTT_MS]),
                            rto_ms: v[window_col::RTO_MS],
                        })
                        .collect(),
                    sends: pairs(f.sends.rows()),
                    retransmits: pairs(f.retransmits.rows()),
                    acks: pairs(f.acks.rows()),
                    sacks: pairs(f.sacks.rows()),
                    sack_blocks: f
                        .sack_blocks
                        .rows()
                        .into_iter()
                        .map(|(t, [left, right])| SackBlockView {
                            t_ms: ms(t),
                            left,
                            right,
                        })
                        .collect(),
                    rtt: pairs(f.rtt.rows()),
                    goodput: f
                        .delivered
                        .bins()
                        .map(|(t, b)| (ms(t), b as f64 / width.as_secs_f64() / 1e6))
                        .collect(),
                    bin_ms: width.as_millis_f64(),
                    cubic: f
                        .cubic_epochs
                        .iter()
                        .map(|c| CubicView {
                            start_ms: ms(c.epoch_start),
                            k_s: c.k,
                            w_max: c.w_max,
                        })
                        .collect(),
                    bbr: f
                        .bbr
                        .rows()
                        .into_iter()
                        .filter_map(|(t, v)| {
                            Some(BbrPoint {
                                t: ms(t),
                                mode: BbrMode::from_code(v[0] as u64)?,
                                bw_mbps: finite(v[1]).map(MBytePerS),
                                min_rtt_ms: finite(v[2]),
                                pacing_gain: v[3],
                                pacing_mbps: finite(v[4]).map(MBytePerS),
                                phase: finite(v[5]).map(|p| p as u8),
                                cwnd_gain: v[6],
                                target_cwnd_bytes: finite(v[7]).map(|p| p * f64::from(s.mss)),
                                extra_acked_bytes: v[8] * f64::from(s.mss),
                            })
                        })
                        .collect(),
                }
            })
            .collect();
        let drops = r
            .traces
            .drop_events()
            .into_iter()
            .map(|(t, flow, cause)| DropView {
                t: ms(t),
                flow: flow as u32,
                cause,
            })
            .collect();
        let (messages, hol) = match &r.messages {
            None => (Vec::new(), Vec::new()),
            Some(log) => {
                let conns = log.conns.max(1);
                let all: Vec<MsgView> = log
                    .records
                    .iter()
                    .enumerate()
                    .map(|(i, m)| MsgView {
                        id: i as u32,
                        conn: i as u32 % conns,
                        write_ms: ms(m.write),
                        read_ms: m.read.map(ms),
                        held_by: m.held_by,
                    })
                    .collect();
                let hol = log
                    .events
                    .iter()
                    .map(|e| HolView {
                        id: e.id,
                        conn: e.conn,
                        start_ms: ms(e.start),
                        end_ms: ms(e.end),
                        held: e.held,
                        worst_ms: e.worst_delay.as_millis_f64(),
                    })
                    .collect();
                (thin_messages(all), hol)
            }
        };
        let (fairness_window, windows) = if r.traces.flows.len() > 1 {
            let bins: Vec<&crate::metrics::series::RateBins> =
                r.traces.flows.iter().map(|f| &f.delivered).collect();
            crate::metrics::fairness::windows(&bins, crate::sim::goodput_window(s))
        } else {
            (crate::time::Duration::ZERO, Vec::new())
        };
        RunView {
            query: s.to_query(),
            verdict: verdict(s, r),
            summary: r.summary.clone(),
            theory,
            flows,
            queue: pairs(r.traces.queue.rows()),
            drops,
            sojourn: pairs(r.traces.sojourn.rows()),
            marks: r
                .traces
                .marks
                .rows()
                .into_iter()
                .map(|(t, [flow])| MarkView {
                    t: ms(t),
                    flow: flow as u32,
                })
                .collect(),
            probe: pairs(r.traces.probe.rows()),
            messages,
            hol,
            end_ms: ms(end),
            changes: s
                .sched
                .iter()
                .map(|c| ChangeView {
                    t: c.at_s * 1000.0,
                    key: c.setting.key(),
                    value: c.setting.text(),
                })
                .collect(),
            fairness: windows
                .iter()
                .map(|w| FairnessPoint {
                    t: ms(w.start),
                    jain: w.jain(),
                    shares: w.shares(),
                })
                .collect(),
            fairness_window_ms: fairness_window.as_millis_f64(),
            capacity: match (s.link_model(), r.traces.flows.first()) {
                (Some(model), Some(f)) => {
                    let wire = s.mss + crate::packet::header_bytes(s.ts);
                    capacity(&model, f.delivered.bin_width(), end, (s.mss, wire))
                }
                _ => Vec::new(),
            },
        }
    }
}

/// Keeps every message up to the cap; past it, each bin of consecutive messages keeps the one
/// with the longest latency (a lost one first), so the chart still shows every stall.
fn thin_messages(all: Vec<MsgView>) -> Vec<MsgView> {
    if all.len() <= MAX_MESSAGE_POINTS {
        return all;
    }
    let per = all.len().div_ceil(MAX_MESSAGE_POINTS);
    all.chunks(per)
        .filter_map(|c| {
            c.iter()
                .max_by(|a, b| {
                    let la = a.read_ms.map_or(f64::INFINITY, |r| r - a.write_ms);
                    let lb = b.read_ms.map_or(f64::INFINITY, |r| r - b.write_ms);
                    la.total_cmp(&lb)
                })
                .cloned()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{run, RunOptions};

    fn view(q: &str) -> RunView {
        let s = Scenario::parse(q).unwrap_or_default();
        RunView::new(&s, &run(&s, &RunOptions::default()))
    }

    #[test]
    fn a_view_survives_json_both_ways() {
        for q in [
            "",
            "preset=hol-blocking&count=100",
            "cc=bbr&app=bulk&dur=1",
            "flows=3&loss=1",
        ] {
            let v = view(q);
            let json = serde_json::to_string(&v).unwrap_or_default();
            let back: Result<RunView, _> = serde_json::from_str(&json);
            // Compared as JSON again: a failure then prints a line, not the whole view.
            let again = back.ok().and_then(|b| serde_json::to_string(&b).ok());
            assert!(again.as_deref() == Some(json.as_str()), "{q}");
            assert!(back_is_equal(&json, &v), "{q}");
        }
    }

    fn back_is_equal(json: &str, v: &RunView) -> bool {
        serde_json::from_str::<RunView>(json).is_ok_and(|b| &b == v)
    }

    #[test]
    fn the_default_view_has_its_lines_and_points() {
        let v = view("");
        assert_eq!(v.flows.len(), 1);
        assert!(v.flows[0].window.len() > 10);
        assert!(v.flows[0].sends.len() > 100);
        assert!((v.theory.bdp_bytes - 3_500_000.0).abs() < 1e-6);
        assert_eq!(v.theory.slow_start.first().map(|s| s.0), Some(0.0));
        assert!(v.end_ms > 200.0);
    }

    #[test]
    fn the_charts_link_line_is_the_rate_the_verdict_reads_the_goodput_against() {
        // A fixed link: its payload rate (100 Mbit/s less the headers).
        let fixed = view("rtt=40&bw=100&dur=2");
        assert!(!fixed.theory.link_varies);
        assert_eq!(fixed.theory.link_mbps, fixed.verdict.link_mbps);
        assert!(
            (fixed.theory.link_mbps.0 - 12.1).abs() < 0.1,
            "{:?}",
            fixed.theory.link_mbps
        );
        // LTE's walk spends this seed's 30 s above its 10 Mbit/s mean (1.21 MB/s of payload):
        // the line is what the link carried meanwhile, under the goodput it held.
        let lte = view("preset=cellular");
        assert!(lte.theory.link_varies);
        assert_eq!(lte.theory.link_mbps, lte.verdict.link_mbps);
        assert!(lte.theory.link_mbps.0 > 1.5, "{:?}", lte.theory.link_mbps);
        assert!(lte.verdict.goodput_mbps <= lte.theory.link_mbps);
    }

    #[test]
    fn a_udp_run_ends_with_its_last_datagram() {
        let v = view("preset=hol-blocking&conns=0&count=100");
        // 100 datagrams 10 ms apart, the last read 50 ms after it left.
        assert!(v.end_ms > 1000.0 && v.end_ms < 1100.0, "{}", v.end_ms);
    }

    #[test]
    fn a_million_messages_are_thinned_to_the_cap_keeping_the_worst() {
        let all: Vec<MsgView> = (0..1_000_000u32)
            .map(|i| MsgView {
                id: i,
                conn: 0,
                write_ms: f64::from(i),
                read_ms: Some(f64::from(i) + if i == 777_777 { 900.0 } else { 50.0 }),
                held_by: None,
            })
            .collect();
        let kept = thin_messages(all);
        assert!(kept.len() <= MAX_MESSAGE_POINTS);
        assert!(kept.iter().any(|m| m.id == 777_777));
    }

    #[test]
    fn the_kept_capacity_is_given_again_only_for_the_same_link() {
        use crate::link::opportunity::LinkModel;
        let lte = |seed| LinkModel::Lte {
            bits_per_s: 10e6,
            seed,
        };
        let bin = crate::time::Duration::from_millis(100);
        let end = Instant::from_secs_f64(5.0);
        let a = capacity(&lte(1), bin, end, (1448, 1500));
        assert_eq!(a, draw_capacity(&lte(1), bin, end, (1448, 1500)));
        assert_eq!(a, capacity(&lte(1), bin, end, (1448, 1500)), "kept");
        let b = capacity(&lte(2), bin, end, (1448, 1500));
        assert_eq!(b, draw_capacity(&lte(2), bin, end, (1448, 1500)));
        assert_ne!(a, b, "another seed, another link");
        let c = capacity(&lte(2), bin, end, (536, 588));
        assert_eq!(c, draw_capacity(&lte(2), bin, end, (536, 588)));
        assert_ne!(b, c, "another payload's share");
    }
}
