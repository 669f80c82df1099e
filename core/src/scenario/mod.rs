//! The scenario: the one description of an experiment (`spec/scenario.md` in the docs).
//!
//! The page's query string, the runner's argument and the presets all pass through the one parser
//! and the one printer here, so a link, a command line and a preset can never disagree.

mod error;
mod keys;
mod parse;
pub mod per_flow;
mod presets;
mod print;
pub mod sched;
mod source;
mod units;

pub use error::{
    escaped, is_unshowable, per_flow_names, shown, ChangeProblem, Conflict, Problem, ScenarioError,
};
pub use keys::{table_markdown, table_text, Key, KeyDef, Value, KEYS, MAX_DROPS, MAX_RWND};
pub use parse::decode as decode_component;
pub use parse::Lenient;
pub use per_flow::PerFlow;
pub use presets::{Preset, PRESETS};
pub use print::fmt_decimal;
pub use source::{Post, Source};

/// Congestion-control algorithm (`cc`), written `reno`, `cubic`, `bbr`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum CcAlgo {
    Reno,
    /// The default, as Linux's.
    #[default]
    Cubic,
    Bbr,
}

/// What the bottleneck's link is (`link`), written `fixed`, `lte`, `wifi`, `trace`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LinkKind {
    /// A constant rate, `bw` (and the schedule's changes of it).
    #[default]
    Fixed,
    /// A cellular link, seeded: Sprout's model (`link::opportunity`), averaging `bw`.
    Lte,
    /// A Wi-Fi link, seeded: aggregates of frames after random contention, averaging `bw`.
    Wifi,
    /// A Mahimahi trace the runner or the page was given (`Scenario::link_trace`).
    Trace,
}

impl LinkKind {
    pub const ALL: [LinkKind; 4] = [
        LinkKind::Fixed,
        LinkKind::Lte,
        LinkKind::Wifi,
        LinkKind::Trace,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LinkKind::Fixed => "fixed",
            LinkKind::Lte => "lte",
            LinkKind::Wifi => "wifi",
            LinkKind::Trace => "trace",
        }
    }

    pub fn from_name(name: &str) -> Option<LinkKind> {
        LinkKind::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// Workload (`app`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum App {
    /// Each flow sends one body of `body` bytes on a new connection.
    Body,
    /// Each flow sends without end for `dur`.
    Bulk,
    /// A message of `msg` bytes every `every` ms, `count` in all, over `conns` connections.
    Msgs,
}

/// The bottleneck's queue discipline (`aqm`), written `fifo`, `red`, `codel`, `fq_codel`,
/// `pie`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Aqm {
    /// Drop-tail: a packet that finds the queue full is dropped (Linux's `pfifo`).
    #[default]
    Fifo,
    /// Random Early Detection (Floyd and Jacobson 1993), gentle (Floyd 2000).
    Red,
    /// CoDel (RFC 8289), Linux's `sch_codel`.
    Codel,
    /// FQ-CoDel (RFC 8290), Linux's `sch_fq_codel`.
    FqCodel,
    /// PIE (RFC 8033), Linux's `sch_pie`.
    Pie,
}

/// Every knob of an experiment, in the units of the query string.
///
/// Field names follow the query keys; units are in the suffix where the key itself has none.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The preset this scenario started from, if any (printed first in the canonical form).
    pub preset: Option<&'static str>,
    /// Every flow's algorithm, or flow 1's where `each.cc` gives one per flow.
    pub cc: CcAlgo,
    /// Round-trip propagation delay, no queueing (ms): every flow's, or flow 1's where
    /// `each.rtt_ms` gives one per flow.
    pub rtt_ms: f64,
    /// Bottleneck rate (Mbit/s): the fixed link's, or the mean of a model's (`link`).
    pub bw_mbps: f64,
    pub link: LinkKind,
    /// The Mahimahi trace of `link=trace`: a file, which no query can carry.
    pub link_trace: Option<std::sync::Arc<crate::link::opportunity::LinkTrace>>,
    /// Random loss on the data direction (percent).
    pub loss_pct: f64,
    /// Random loss on the ACK direction (percent).
    pub ackloss_pct: f64,
    /// ACKs are released in bursts on a grid of this period (ms); 0 = as they come.
    pub ackagg_ms: f64,
    /// The policer's rate (Mbit/s; 0 = none) and bucket (bytes; 0 = 20 ms of the rate).
    pub police_mbps: f64,
    pub police_burst: u64,
    /// The path's changes during the run, in order of time.
    pub sched: Vec<sched::Change>,
    /// Data packets to drop, 1-based in order of transmission on the data direction, ascending.
    pub drop: Vec<u64>,
    /// Mean loss-burst length in packets (Gilbert-Elliott); 1 = independent losses.
    pub burst: f64,
    /// The bottleneck queue's hard limit (packets): drop-tail with `aqm=fifo`, each
    /// discipline's `limit` otherwise.
    pub queue: u32,
    pub aqm: Aqm,
    /// ECN (RFC 3168): data is sent ECT(0), the queue marks CE instead of dropping it, the
    /// receiver echoes ECE and the sender answers as for a loss without retransmitting.
    pub ecn: bool,
    /// CoDel's target sojourn (ms), for `codel` and `fq_codel`.
    pub codel_target_ms: f64,
    /// CoDel's interval (ms).
    pub codel_interval_ms: f64,
    /// FQ-CoDel's DRR quantum (bytes).
    pub fq_quantum: u32,
    /// PIE's target queueing delay (ms).
    pub pie_target_ms: f64,
    /// PIE's update interval (ms), rounded up to whole jiffies as Linux does.
    pub pie_tupdate_ms: f64,
    /// PIE's weights of the delay's distance from target and of its trend (sixteenths).
    pub pie_alpha: u32,
    pub pie_beta: u32,
    /// RED's thresholds on the average queue (packets).
    pub red_min: f64,
    pub red_max: f64,
    /// RED's drop probability at `red_max` (percent).
    pub red_maxp_pct: f64,
    /// RED's EWMA weight of the queue.
    pub red_wq: f64,
    /// A latency probe's interval (ms); 0 = no probe.
    pub probe_ms: f64,
    /// Segment payload (bytes).
    pub mss: u32,
    /// Initial congestion window (segments): every flow's, or flow 1's where `each.iw` gives
    /// one per flow.
    pub iw: u32,
    /// Receive buffer = largest advertised window (bytes).
    pub rwnd: u64,
    pub hystart: bool,
    pub sack: bool,
    /// TCP timestamps (RFC 7323): 12 option bytes on every segment, and RTT samples from every
    /// ACK that advances, retransmitted data included, as Linux takes them.
    pub ts: bool,
    /// Receive-buffer autotuning (Linux `tcp_moderate_rcvbuf`): the buffer starts at Linux's
    /// default and grows each round trip up to `rwnd`; off, the buffer is fixed at `rwnd` as
    /// `SO_RCVBUF` fixes it.
    pub autotune: bool,
    /// Delayed-ACK timeout (ms); 0 = ACK every segment.
    pub delack_ms: f64,
    /// Minimum retransmission timeout (ms).
    pub minrto_ms: f64,
    pub app: App,
    /// Body size (bytes), app=body.
    pub body: u64,
    /// The sending application's pause before its first write, after the handshake (ms).
    pub think_ms: f64,
    /// Simulated time limit (s).
    pub dur_s: f64,
    pub flows: u32,
    /// When the flows open their connections (s into the run): every flow's, or flow 1's where
    /// `each.start_s` gives one per flow.
    pub start_s: f64,
    /// The settings that differ between flows (`cc=bbr,cubic`), one per flow; a list left empty
    /// means every flow takes the field of the same name above.
    pub each: PerFlow,
    /// Message size (bytes), app=msgs.
    pub msg: u32,
    /// Interval between messages (ms), app=msgs.
    pub every_ms: f64,
    /// Number of messages, app=msgs.
    pub count: u32,
    /// Connections for messages; 0 = UDP.
    pub conns: u32,
    pub seed: u64,
    /// The player's cursor (ms of simulated time); does not change the run.
    pub at_ms: Option<f64>,
}

impl Scenario {
    /// The link of opportunities the bottleneck is, if it is not a fixed rate. The models
    /// draw from their own seed, apart from the path's losses.
    pub fn link_model(&self) -> Option<crate::link::opportunity::LinkModel> {
        use crate::link::opportunity::LinkModel;
        let bits_per_s = self.bw_mbps * 1e6;
        let seed = self.seed ^ 0x6c69_6e6b_5f6d_6f64;
        match self.link {
            LinkKind::Fixed => None,
            LinkKind::Lte => Some(LinkModel::Lte { bits_per_s, seed }),
            LinkKind::Wifi => Some(LinkModel::Wifi { bits_per_s, seed }),
            LinkKind::Trace => self.link_trace.clone().map(LinkModel::Trace),
        }
    }

    /// The scenario with `trace` as its link (`link=trace`); `bw` becomes the trace's mean
    /// rate, which the theory's lines (the link rate, the BDP) then draw.
    pub fn with_link_trace(self, trace: crate::link::opportunity::LinkTrace) -> Scenario {
        self.with_shared_trace(std::sync::Arc::new(trace))
    }

    /// [`Scenario::with_link_trace`] with a trace held elsewhere too (the page's).
    pub fn with_shared_trace(
        mut self,
        trace: std::sync::Arc<crate::link::opportunity::LinkTrace>,
    ) -> Scenario {
        self.link = LinkKind::Trace;
        let mbps = (trace.mean_bits_per_s() / 1e6 * 1000.0).round() / 1000.0;
        self.bw_mbps = mbps.clamp(0.01, 100_000.0);
        self.link_trace = Some(trace);
        self
    }
}

impl Default for Scenario {
    /// The defaults of the spec's key table.
    fn default() -> Self {
        Scenario {
            preset: None,
            cc: CcAlgo::default(),
            rtt_ms: 28.0,
            bw_mbps: 1000.0,
            link: LinkKind::Fixed,
            link_trace: None,
            loss_pct: 0.0,
            ackloss_pct: 0.0,
            ackagg_ms: 0.0,
            police_mbps: 0.0,
            police_burst: 0,
            sched: Vec::new(),
            drop: Vec::new(),
            burst: 1.0,
            queue: 1000,
            aqm: Aqm::Fifo,
            ecn: false,
            codel_target_ms: 5.0,
            codel_interval_ms: 100.0,
            fq_quantum: 1514,
            pie_target_ms: 15.0,
            pie_tupdate_ms: 15.0,
            pie_alpha: 2,
            pie_beta: 20,
            red_min: 5.0,
            red_max: 15.0,
            red_maxp_pct: 10.0,
            red_wq: 0.002,
            probe_ms: 0.0,
            mss: 1460,
            iw: 10,
            rwnd: 4_194_304,
            hystart: true,
            sack: true,
            ts: true,
            autotune: true,
            delack_ms: 40.0,
            minrto_ms: 200.0,
            app: App::Body,
            body: 2_500_000,
            think_ms: 0.0,
            dur_s: 10.0,
            flows: 1,
            start_s: 0.0,
            each: PerFlow::default(),
            msg: 100,
            every_ms: 10.0,
            count: 500,
            conns: 1,
            seed: 1,
            at_ms: None,
        }
    }
}
