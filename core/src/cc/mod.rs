//! Congestion control behind one small trait, one file per algorithm (as Linux's
//! `tcp_congestion_ops`): the sender owns loss recovery and calls the algorithm at the moments
//! the trait names; the algorithm owns the window's size.

pub mod bbr;
pub mod cubic;
pub mod hystart;
pub mod minmax;
pub mod reno;
pub mod slow_start;

use crate::scenario::CcAlgo;
use crate::time::{Duration, Instant};

pub use bbr::Bbr;
pub use cubic::Cubic;
pub use reno::Reno;

/// The sender's window as the algorithm sees and sets it, in packets as Linux counts it
/// (`snd_cwnd`, `snd_ssthresh`, `snd_cwnd_cnt`): a segment of 100 bytes takes a whole packet of
/// the window, as one of 1 460 does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// The congestion window, in packets.
    pub cwnd: u32,
    /// The slow-start threshold, in packets; [`INFINITE_SSTHRESH`] until a loss sets it.
    pub ssthresh: u32,
    /// Packets acknowledged toward the next one-packet increase in congestion avoidance
    /// (Linux's `snd_cwnd_cnt`, shared by every algorithm through `tcp_cong_avoid_ai`).
    pub cwnd_cnt: u32,
    /// Bytes of a full segment: what turns a packet count into bytes for rates and charts.
    pub mss: u32,
}

impl Window {
    /// A new connection's window of `cwnd` packets, with no ssthresh yet.
    pub fn new(cwnd: u32, mss: u32) -> Window {
        Window {
            cwnd,
            ssthresh: INFINITE_SSTHRESH,
            cwnd_cnt: 0,
            mss,
        }
    }

    /// The window in bytes of full segments, for charts and traces.
    pub fn cwnd_bytes(&self) -> u64 {
        u64::from(self.cwnd) * u64::from(self.mss)
    }

    /// ssthresh in bytes of full segments, `None` while unbounded.
    pub fn ssthresh_bytes(&self) -> Option<u64> {
        (self.ssthresh < INFINITE_SSTHRESH).then(|| u64::from(self.ssthresh) * u64::from(self.mss))
    }

    /// Linux `tcp_in_slow_start`.
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
}

/// The no-limit ssthresh of a new connection, in packets (Linux's `TCP_INFINITE_SSTHRESH`).
pub const INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

/// An unbounded ssthresh where windows are told in bytes (traces, the player's steps).
pub const INFINITE_SSTHRESH_BYTES: u64 = u64::MAX / 4;

/// The lowest ssthresh any loss-based algorithm sets, in packets (`tcp_reno_ssthresh`'s and
/// `cubictcp_recalc_ssthresh`'s floor of 2).
pub const MIN_SSTHRESH: u32 = 2;

/// A delivery-rate sample (Linux `tcp_rate.c`, draft-cheng-iccrg-delivery-rate-estimation), in
/// Linux's units: packets over whole microseconds. Only a sample with a positive interval is
/// made (Linux marks the others `interval_us = -1`, which every user skips).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RateSample {
    /// Packets delivered over the sample's interval (`rs->delivered`).
    pub delivered: u32,
    /// The interval in microseconds: the longer of the send and the ACK intervals
    /// (`rs->interval_us`).
    pub interval_us: u64,
    /// The sample was taken while the sender had nothing to send, so it may understate the path.
    pub app_limited: bool,
    /// The sender's delivered count, in packets, when the sampled packet was sent (marks round
    /// trips; `rs->prior_delivered`).
    pub prior_delivered: u64,
}

/// What one ACK told the sender. Counts of data are in packets, as Linux's algorithms take
/// them; the sequence numbers are in bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AckEvent {
    pub now: Instant,
    /// Packets newly acknowledged cumulatively and not SACKed before. Without SACK, the
    /// cumulative ACK that ends a run of duplicate ACKs credits what the duplicates did not:
    /// max(acked - duplicates, 1), as Linux's `tcp_remove_reno_sacks`.
    pub acked: u32,
    /// Packets newly SACKed; without SACK, a duplicate ACK is taken as one packet delivered
    /// (`tcp_add_reno_sack`).
    pub sacked: u32,
    /// Whether the ACK advanced the cumulative ACK over new data (Linux's `FLAG_DATA_ACKED`):
    /// only such an ACK may grow a loss-based window (`tcp_may_raise_cwnd`, RFC 5681 §3.1).
    pub data_acked: bool,
    /// Packets newly deemed lost while this ACK was processed (Linux's `rs->losses`).
    pub lost: u32,
    /// Packets deemed lost since the connection began, each marking counted (Linux's
    /// `tp->lost`).
    pub total_lost: u64,
    /// RTT sample of this ACK. None from retransmitted data: the lab applies Karn's rule
    /// (RFC 6298 §3) where Linux, with timestamps, would take one (docs/model.md).
    pub rtt: Option<Duration>,
    /// The lowest RTT seen on the connection.
    pub min_rtt: Option<Duration>,
    /// Packets in flight after this ACK was processed (`tcp_packets_in_flight`).
    pub in_flight: u32,
    /// Whether the window, not the application or the receiver, has been the limit lately (Linux
    /// `tcp_is_cwnd_limited`): a window that is not used must not grow.
    pub cwnd_limited: bool,
    /// Whether the sender is reducing its window, in fast recovery or for an ECN echo (Linux
    /// `tcp_in_cwnd_reduction`): PRR, not the algorithm, sets the window then.
    pub in_recovery: bool,
    /// The reduction under way answers an ECN echo (Linux's `TCP_CA_CWR`), not a loss.
    pub in_cwr: bool,
    /// The sender's count of packets delivered so far, acknowledged or SACKed (Linux's
    /// `tp->delivered`).
    pub delivered: u64,
    /// The cumulative ACK and the next byte to send: a round trip ends when the first passes
    /// the value the second had when the round began.
    pub snd_una: u64,
    pub snd_nxt: u64,
    /// When the pacer lets the next packet leave (Linux's `tcp_wstamp_ns`, the earliest
    /// departure time); `now` or earlier for a sender that does not pace.
    pub next_departure: Instant,
    pub srtt: Option<Duration>,
    pub rate: Option<RateSample>,
}

impl AckEvent {
    /// Whether a loss-based algorithm may grow the window on this ACK, and by how many packets
    /// (Linux `tcp_cong_control`: `tcp_may_raise_cwnd`, then `tcp_cong_avoid` with
    /// `acked_sacked`): only outside a window reduction, on an ACK that acknowledges new data
    /// cumulatively, by everything it delivered; nor to a window the sender is not using.
    pub fn growth(&self) -> Option<u32> {
        (!self.in_recovery && self.cwnd_limited && self.data_acked)
            .then(|| self.acked + self.sacked)
    }

    /// An ACK of `acked` new packets at `now` for a window-limited sender in the Open state,
    /// with nothing else to report: the starting point of the algorithms' tests.
    pub fn plain(now: Instant, acked: u32) -> AckEvent {
        AckEvent {
            now,
            acked,
            sacked: 0,
            data_acked: acked > 0,
            lost: 0,
            total_lost: 0,
            rtt: None,
            min_rtt: None,
            in_flight: 0,
            cwnd_limited: true,
            in_recovery: false,
            in_cwr: false,
            delivered: 0,
            snd_una: 0,
            snd_nxt: 0,
            next_departure: now,
            srtt: None,
            rate: None,
        }
    }
}

/// Why the sender reduces its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LossEvent {
    pub now: Instant,
    /// Bytes in flight when the loss was detected (RFC 5681's FlightSize).
    pub flight_size: u64,
    /// Packets deemed lost since the connection began (Linux's `tp->lost`), a timeout's own
    /// markings included.
    pub total_lost: u64,
    /// The next new byte's sequence number as the loss was found (`snd_nxt`): a timeout
    /// starts CUBIC's HyStart round there (`bictcp_hystart_reset`).
    pub snd_nxt: u64,
}

/// The state an algorithm's [`CcModel`] is computed from, packed into words: two equal keys
/// give equal models.
#[derive(Debug, Clone, Copy, Eq)]
pub struct ModelKey(pub [u64; 7]);

impl PartialEq for ModelKey {
    // Every word at once: the derived comparison of the array is a call to `memcmp`, and the
    // engine compares two keys after every traced ACK.
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.0
            .iter()
            .zip(&other.0)
            .fold(0, |differ, (a, b)| differ | (a ^ b))
            == 0
    }
}

/// A congestion-control algorithm (Linux's `tcp_congestion_ops`). The sender owns loss
/// recovery and, for the loss-based algorithms, the window's reduction in it (PRR, RFC 6937).
pub trait CongestionControl {
    /// Which algorithm this is: the scenario's `cc` (its name is [`CcAlgo::name`]).
    fn algo(&self) -> CcAlgo;

    /// An ACK delivered data (`cong_avoid`, or `cong_control` for an algorithm that sets the
    /// window itself). Loss-based algorithms grow the window only when [`AckEvent::growth`]
    /// allows.
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent);

    /// Fast recovery begins (`tcp_init_cwnd_reduction` calling `ssthresh`): set ssthresh. The
    /// window itself is then brought down to it by PRR over the recovery round, and set to it
    /// when recovery ends (`tcp_end_cwnd_reduction`).
    fn on_enter_recovery(&mut self, w: &mut Window, loss: &LossEvent);

    /// An ACK echoed a congestion mark (`tcp_enter_cwr`, which calls `ssthresh` as for a
    /// loss): the loss-based algorithms reduce as they would for one.
    fn on_ecn_echo(&mut self, w: &mut Window, loss: &LossEvent) {
        self.on_enter_recovery(w, loss);
    }

    /// The retransmission timer fired (`tcp_enter_loss`). `first` is false for a repeat within
    /// one episode, which Linux does not let reduce ssthresh again. The sender then sets cwnd
    /// to one packet (RFC 5681 §3.1).
    fn on_rto(&mut self, w: &mut Window, loss: &LossEvent, first: bool);

    /// A reduction proved spurious and is undone (`undo_cwnd`, called by
    /// `tcp_undo_cwnd_reduction`). The sender restores the window of an algorithm that does not
    /// set it itself (`tcp_reno_undo_cwnd`); this hook is for what else the algorithm forgets.
    fn on_undo(&mut self) {}

    /// Data leaves after the pipe had emptied, `idle` after the last (Linux's
    /// `CA_EVENT_TX_START`).
    fn on_tx_start(&mut self, now: Instant, idle: Duration) {
        let _ = (now, idle);
    }

    /// Whether the algorithm sets the window on every ACK itself, recovery included (Linux's
    /// `cong_control`, as BBR's): then the sender applies no PRR and does not set cwnd to
    /// ssthresh when recovery ends.
    fn controls_window(&self) -> bool {
        false
    }

    /// The rate to pace at, in payload bytes per second of full segments, for algorithms that
    /// pace.
    fn pacing_rate(&self) -> Option<f64> {
        None
    }

    /// The fewest segments a paced GSO packet is sized for: Linux's `min_tso_segs` hook, or the
    /// `tcp_min_tso_segs` sysctl's default without one.
    fn min_tso_segs(&self) -> u32 {
        crate::tcp::pacer::MIN_TSO_SEGS
    }

    /// Whether the algorithm ever paces (BBR, which Linux paces by `SK_PACING_NEEDED`): asked
    /// once, so that a sender whose algorithm never does is spared a call through the vtable
    /// for [`pacing_rate`](Self::pacing_rate) before every packet.
    fn paces(&self) -> bool {
        false
    }

    /// Whether the algorithm reads the ACKs' delivery-rate samples (BBR). Linux computes one on
    /// every ACK for `tcp_info` too; the lab has no reader but the algorithm, so a sender whose
    /// algorithm does not read them (asked once) keeps only the delivered count.
    fn samples_rate(&self) -> bool {
        false
    }

    /// A short label of the algorithm's state, for traces and the player (e.g. BBR's mode).
    /// The window comes from a model of the path (BBR's bandwidth and RTT), not from growth
    /// per ACK and a cut on loss: there is no ssthresh to leave slow start at.
    fn model_based(&self) -> bool {
        false
    }

    /// How HyStart ended slow start, if it did (CUBIC's `hystart_update`).
    fn hystart_exit(&self) -> Option<hystart::HyStartExit> {
        None
    }

    /// What [`model`](Self::model) is a function of, so that the world, which asks after
    /// every ACK, builds the model only when it can have changed: equal keys give equal
    /// models. `None`: the model is built every time.
    fn model_key(&self) -> Option<ModelKey> {
        None
    }

    /// Whether the model can differ from the one `last` keyed, which now keys this one. One
    /// call through the vtable with `model_key` inlined into it: a key returned through the
    /// vtable was written in pieces and read back whole, a stalled store-to-load forward on
    /// every traced ACK (docs/performance.md, "A packet in 64 bytes").
    fn model_changed(&self, last: &mut Option<ModelKey>) -> bool {
        let key = self.model_key();
        if key.is_some() && key == *last {
            return false;
        }
        *last = key;
        true
    }

    /// What the algorithm believes, for the charts' overlays: CUBIC's curve, BBR's model.
    fn model(&self) -> CcModel {
        CcModel::None
    }
}

/// A snapshot of an algorithm's model of the path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CcModel {
    None,
    /// The cubic curve of the current epoch (segments, seconds), if in congestion avoidance.
    Cubic(Option<cubic::CubicCurve>),
    /// BBR's mode, bandwidth estimate (payload bytes/s), min RTT, gains, the pacing rate it
    /// set (`sk_pacing_rate`, payload bytes/s), in ProbeBW the phase of its gain cycle, and the
    /// window it steers toward (`bbr_set_cwnd`'s target, packets, once it has a min RTT) with
    /// the part of it that ACK aggregation adds (`bbr_ack_aggregation_cwnd`, packets).
    Bbr {
        mode: bbr::BbrMode,
        bw: Option<f64>,
        min_rtt: Option<Duration>,
        pacing_gain: f64,
        cwnd_gain: f64,
        pacing_rate: Option<f64>,
        phase: Option<u8>,
        target_cwnd: Option<u32>,
        extra_acked: u32,
    },
}

/// Options of the algorithms that the scenario sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CcOptions {
    /// HyStart's slow-start exits (CUBIC).
    pub hystart: bool,
    /// Seeds the algorithm's own random choices (BBR's starting gain phase): the scenario's
    /// seed mixed with the flow's index, so flows differ and runs repeat.
    pub seed: u64,
}

/// The algorithm named by the scenario.
pub fn new_controller(algo: CcAlgo, options: CcOptions) -> Box<dyn CongestionControl> {
    match algo {
        CcAlgo::Reno => Box::new(Reno),
        CcAlgo::Cubic => Box::new(Cubic::new(options.hystart)),
        CcAlgo::Bbr => Box::new(Bbr::new(options.seed)),
    }
}
