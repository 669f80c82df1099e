//! Bounded traces for the charts and for `tcplab trace`.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use crate::time::{Duration, Instant};

use super::series::{RateBins, Series};

/// Which trace `tcplab trace --what` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TraceKind {
    Cwnd,
    Throughput,
    Seq,
    /// Each RTT sample the sender took (RFC 6298's R), as the page's RTT chart draws them.
    Rtt,
    Msgs,
    Queue,
    /// Every step of the run with its explanation (the player's log).
    Steps,
}

impl TraceKind {
    pub const ALL: [TraceKind; 7] = [
        TraceKind::Cwnd,
        TraceKind::Throughput,
        TraceKind::Seq,
        TraceKind::Rtt,
        TraceKind::Msgs,
        TraceKind::Queue,
        TraceKind::Steps,
    ];

    /// Every trace's name, as `--what` and its messages list them: "cwnd, throughput, …".
    pub fn names(separator: &str) -> String {
        TraceKind::ALL.map(TraceKind::name).join(separator)
    }

    pub fn name(self) -> &'static str {
        match self {
            TraceKind::Cwnd => "cwnd",
            TraceKind::Throughput => "throughput",
            TraceKind::Seq => "seq",
            TraceKind::Rtt => "rtt",
            TraceKind::Msgs => "msgs",
            TraceKind::Queue => "queue",
            TraceKind::Steps => "steps",
        }
    }
}

impl fmt::Display for TraceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TraceKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TraceKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!(
                    "--what: unknown trace \"{s}\" (allowed {})",
                    TraceKind::names(", ")
                )
            })
    }
}

/// The columns of `trace --what cwnd` (the kernel twin's trace starts with the same ones).
pub const CWND_CSV_HEADER: &str =
    "t_ms,flow,cwnd_bytes,ssthresh_bytes,in_flight_bytes,rwnd_bytes,srtt_ms,rto_ms";

pub use crate::link::DropCause;

/// Columns of [`FlowTrace::window`].
pub mod window_col {
    pub const CWND: usize = 0;
    pub const SSTHRESH: usize = 1;
    pub const IN_FLIGHT: usize = 2;
    pub const RWND: usize = 3;
    pub const SRTT_MS: usize = 4;
    pub const RTO_MS: usize = 5;
}

/// Which traces a run keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tracing {
    /// None: a run wanted for its summary (a sweep's point, the runner's `run`), which reads no
    /// trace and runs about a fifth faster without them (docs/performance.md).
    Off,
    /// What the page's charts draw: every flow's window, goodput and algorithm model, the
    /// bottleneck's queue, sojourns and drops, and the first flow's segments, ACKs, SACK blocks
    /// and RTT samples, since the sequence and RTT charts are the first flow's. Eight flows'
    /// segments would be a third of a run's trace rows, never drawn. For the same reason a
    /// window row of a flow after the first is written when its cwnd changes, not at every
    /// change of its in-flight count: of those flows the charts draw cwnd alone.
    Charts,
    /// Everything of every flow: `tcplab trace` and the page's trace downloads.
    Full,
}

/// One flow's traces.
#[derive(Debug, Clone)]
pub struct FlowTrace {
    /// cwnd, ssthresh (NaN while unbounded), in flight and the peer's window in bytes, SRTT and
    /// RTO in ms, at each change.
    pub window: Series<6>,
    /// Highest byte of each new data segment sent.
    pub sends: Series<1>,
    /// First byte of each retransmission.
    pub retransmits: Series<1>,
    /// Cumulative ACK of each ACK received.
    pub acks: Series<1>,
    /// Highest SACKed byte reported by each ACK that carries SACK blocks.
    pub sacks: Series<1>,
    /// Each SACK block of each ACK that carries them (RFC 2018): its left edge and the byte
    /// after its right edge, a row per block.
    pub sack_blocks: Series<2>,
    /// Each RTT sample the sender's estimator took, in ms (RFC 6298's R; timestamps give one on
    /// every ACK that advances).
    pub rtt: Series<1>,
    /// Bytes delivered to the application, binned in time.
    pub delivered: RateBins,
    /// CUBIC: each epoch's curve, from the congestion event that began it (the latest ones,
    /// up to a cap).
    pub cubic_epochs: Vec<crate::cc::cubic::CubicCurve>,
    /// BBR: mode (0 Startup, 1 Drain, 2 ProbeBW, 3 ProbeRTT), bandwidth estimate in MB/s, min RTT
    /// in ms and pacing gain, at each change.
    pub bbr: Series<9>,
}

/// CUBIC epochs kept per flow.
pub const MAX_CUBIC_EPOCHS: usize = 2048;

impl FlowTrace {
    pub fn new(cap: usize, initial_bin: Duration) -> Self {
        FlowTrace {
            window: Series::new(cap, window_col::CWND),
            sends: Series::new(cap, 0),
            retransmits: Series::new(cap, 0),
            acks: Series::new(cap, 0),
            sacks: Series::new(cap, 0),
            sack_blocks: Series::new(cap, 1),
            rtt: Series::new(cap, 0),
            delivered: RateBins::new(initial_bin, cap.clamp(64, 2048)),
            cubic_epochs: Vec::new(),
            bbr: Series::new(cap, 1),
        }
    }
}

/// Every trace of a run.
#[derive(Debug, Clone)]
pub struct Traces {
    pub flows: Vec<FlowTrace>,
    /// Packets waiting at the bottleneck, from each change on (an arrival, a departure onto
    /// the link, a discipline's drop): a step series keeps only its changes.
    pub queue: Series<1>,
    /// Drops: (flow, cause code).
    pub drops: Series<2>,
    /// Each data packet's sojourn at the bottleneck (ms), when it went onto the link.
    pub sojourn: Series<1>,
    /// CE marks by the queue discipline: (flow).
    pub marks: Series<1>,
    /// The latency probe's round trips (ms), when each echo came back.
    pub probe: Series<1>,
    /// The queue's count as last pushed: a change is known without reading the series back
    /// (two pushes a packet, on the hot path).
    queued_last: Option<usize>,
    tracing: Tracing,
}

/// Milliseconds with nanosecond precision, printed without float noise.
fn ms(ns: u64) -> String {
    let (whole, frac) = (ns / 1_000_000, ns % 1_000_000);
    if frac == 0 {
        whole.to_string()
    } else {
        let s = format!("{whole}.{frac:06}");
        s.trim_end_matches('0').to_string()
    }
}

fn num(v: f64) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        String::new()
    }
}

impl Traces {
    /// The traces of `flows` flows, as many kept as `tracing` says (a run that keeps none,
    /// [`Tracing::Off`], makes none).
    pub fn new(flows: usize, cap: usize, initial_bin: Duration, tracing: Tracing) -> Self {
        Traces {
            flows: (0..flows)
                .map(|_| FlowTrace::new(cap, initial_bin))
                .collect(),
            queue: Series::new(cap, 0),
            drops: Series::new(cap, 1),
            sojourn: Series::new(cap, 0),
            marks: Series::new(cap, 0),
            probe: Series::new(cap, 0),
            queued_last: None,
            tracing,
        }
    }

    /// Whether flow `flow`'s segments, retransmissions, ACKs, SACKs and RTT samples are kept
    /// ([`Tracing`]); if not, those series of it stay empty.
    #[inline(always)]
    pub fn keeps_detail_of(&self, flow: usize) -> bool {
        flow == 0 || self.tracing == Tracing::Full
    }

    /// `packets` wait at the bottleneck from `at` on.
    #[inline]
    pub fn queued(&mut self, at: Instant, packets: usize) {
        if self.queued_last != Some(packets) {
            self.queued_last = Some(packets);
            self.queue.push(at, [packets as f64]);
        }
    }

    /// The traces of a run that kept none: each series of each of `flows` flows, empty.
    pub fn empty(flows: usize) -> Self {
        Traces::new(flows.max(1), 0, Duration::from_micros(1), Tracing::Full)
    }

    pub fn drop_events(&self) -> Vec<(Instant, usize, DropCause)> {
        self.drops
            .rows()
            .into_iter()
            .map(|(t, [flow, cause])| {
                let cause = DropCause::from_code(cause as u64).unwrap_or(DropCause::Data);
                (t, flow as usize, cause)
            })
            .collect()
    }

    pub fn record_drop(&mut self, t: Instant, flow: u16, cause: DropCause) {
        self.drops
            .push(t, [f64::from(flow), f64::from(cause.code())]);
    }

    /// One trace as CSV with a header line. `msgs` is written by the message workload.
    pub fn csv(&self, kind: TraceKind) -> String {
        let mut out = String::new();
        match kind {
            TraceKind::Cwnd => {
                out.push_str(CWND_CSV_HEADER);
                out.push('\n');
                for (f, tr) in self.flows.iter().enumerate() {
                    for (t, v) in tr.window.rows() {
                        let _ = writeln!(
                            out,
                            "{},{f},{},{},{},{},{},{}",
                            ms(t.as_nanos()),
                            num(v[0]),
                            num(v[1]),
                            num(v[2]),
                            num(v[3]),
                            num(v[4]),
                            num(v[5])
                        );
                    }
                }
            }
            TraceKind::Throughput => {
                out.push_str("t_ms,flow,bin_ms,bytes,goodput_MBps\n");
                for (f, tr) in self.flows.iter().enumerate() {
                    let width = tr.delivered.bin_width();
                    for (t, bytes) in tr.delivered.bins() {
                        let rate = bytes as f64 / width.as_secs_f64() / 1e6;
                        let _ = writeln!(
                            out,
                            "{},{f},{},{bytes},{}",
                            ms(t.as_nanos()),
                            ms(width.as_nanos()),
                            num(rate)
                        );
                    }
                }
            }
            TraceKind::Seq => {
                out.push_str("t_ms,flow,kind,seq\n");
                let mut rows: Vec<(Instant, usize, &str, f64)> = Vec::new();
                for (f, tr) in self.flows.iter().enumerate() {
                    for (name, s) in [
                        ("send", &tr.sends),
                        ("retransmit", &tr.retransmits),
                        ("ack", &tr.acks),
                        ("sack", &tr.sacks),
                    ] {
                        rows.extend(s.rows().into_iter().map(|(t, [v])| (t, f, name, v)));
                    }
                }
                rows.sort_by_key(|r| (r.0, r.1));
                for (t, f, name, v) in rows {
                    let _ = writeln!(out, "{},{f},{name},{}", ms(t.as_nanos()), num(v));
                }
            }
            TraceKind::Rtt => {
                out.push_str("t_ms,flow,rtt_ms\n");
                for (f, tr) in self.flows.iter().enumerate() {
                    for (t, [rtt]) in tr.rtt.rows() {
                        let _ = writeln!(out, "{},{f},{}", ms(t.as_nanos()), num(rtt));
                    }
                }
            }
            TraceKind::Msgs => {
                out.push_str("id,conn,write_ms,read_ms,latency_ms,held_by\n");
            }
            TraceKind::Steps => {
                out.push_str(crate::player::STEPS_CSV_HEADER);
            }
            TraceKind::Queue => {
                out.push_str("t_ms,queued_packets,drop_flow,drop_cause\n");
                let mut rows: Vec<(Instant, String)> = self
                    .queue
                    .rows()
                    .into_iter()
                    .map(|(t, [q])| (t, format!("{},{},,", ms(t.as_nanos()), num(q))))
                    .collect();
                rows.extend(
                    self.drop_events()
                        .into_iter()
                        .map(|(t, f, c)| (t, format!("{},,{f},{}", ms(t.as_nanos()), c.name()))),
                );
                rows.sort_by_key(|r| r.0);
                for (_, line) in rows {
                    out.push_str(&line);
                    out.push('\n');
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_print_exactly() {
        assert_eq!(ms(31_537_000), "31.537");
        assert_eq!(ms(2_000_000), "2");
        assert_eq!(ms(1), "0.000001");
    }

    #[test]
    fn every_kind_has_a_name_that_parses_back() {
        for k in TraceKind::ALL {
            assert_eq!(k.name().parse::<TraceKind>(), Ok(k));
        }
        assert!("nope"
            .parse::<TraceKind>()
            .is_err_and(|e| e.contains("--what")));
    }

    #[test]
    fn drops_keep_flow_and_cause() {
        let mut t = Traces::new(2, 100, Duration(1000), Tracing::Full);
        t.record_drop(Instant(5), 1, DropCause::Staged);
        assert_eq!(t.drop_events(), [(Instant(5), 1, DropCause::Staged)]);
        assert!(t.csv(TraceKind::Queue).contains("0.000005,,1,staged"));
    }
}
