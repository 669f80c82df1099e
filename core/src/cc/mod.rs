//! Congestion control behind one small trait, one file per algorithm (as Linux's
//! `tcp_congestion_ops`): the sender owns loss recovery and calls the algorithm at the moments
//! the trait names; the algorithm owns the window's size.

pub mod bbr;
pub mod cubic;
pub mod hystart;
pub mod reno;
pub mod slow_start;

use crate::scenario::CcAlgo;
use crate::time::Time;

pub use bbr::Bbr;
pub use cubic::Cubic;
pub use reno::Reno;

/// The sender's window as the algorithm sees and sets it, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub cwnd: u64,
    pub ssthresh: u64,
    pub mss: u64,
}

impl Window {
    /// The window in segments, for algorithms specified in segments.
    pub fn cwnd_segments(&self) -> f64 {
        self.cwnd as f64 / self.mss as f64
    }

    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }
}

/// The no-limit ssthresh of a new connection (Linux's TCP_INFINITE_SSTHRESH).
pub const INFINITE_SSTHRESH: u64 = u64::MAX / 4;

/// A delivery-rate sample (Linux `tcp_rate.c`, draft-cheng-iccrg-delivery-rate-estimation).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RateSample {
    /// Bytes delivered over the sample's interval.
    pub delivered: u64,
    /// The interval: the longer of the send and the ACK intervals.
    pub interval: Time,
    /// The sample was taken while the sender had nothing to send, so it may understate the path.
    pub app_limited: bool,
    /// The sender's delivered count when the sampled packet was sent (marks round trips).
    pub prior_delivered: u64,
}

impl RateSample {
    /// Bytes per second, if the interval is positive.
    pub fn rate(&self) -> Option<f64> {
        (self.interval > Time::ZERO).then(|| self.delivered as f64 / self.interval.as_secs_f64())
    }
}

/// What one ACK told the sender.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AckEvent {
    pub now: Time,
    /// Bytes newly acknowledged cumulatively.
    pub acked: u64,
    /// Bytes newly selectively acknowledged.
    pub sacked: u64,
    /// Bytes newly deemed lost while this ACK was processed (Linux's `rs->losses`).
    pub lost: u64,
    /// RTT sample of this ACK. None from retransmitted data: the lab applies Karn's rule
    /// (RFC 6298 §3) where Linux, with timestamps, would take one (docs/model.md).
    pub rtt: Option<Time>,
    /// The lowest RTT seen on the connection.
    pub min_rtt: Option<Time>,
    /// Bytes in flight after this ACK was processed.
    pub in_flight: u64,
    /// Whether the window, not the application or the receiver, has been the limit lately (Linux
    /// `tcp_is_cwnd_limited`): a window that is not used must not grow.
    pub cwnd_limited: bool,
    /// Whether the sender is recovering from a loss (fast recovery or after a timeout).
    pub in_recovery: bool,
    /// The sender's count of bytes delivered so far (acknowledged or SACKed).
    pub delivered: u64,
    /// The cumulative ACK and the next byte to send: a round trip ends when the first passes
    /// the value the second had when the round began.
    pub snd_una: u64,
    pub snd_nxt: u64,
    pub srtt: Option<Time>,
    pub rate: Option<RateSample>,
}

impl AckEvent {
    /// Whether a loss-based algorithm may grow the window on this ACK, and by how many bytes
    /// (Linux `tcp_may_raise_cwnd` and `acked_sacked`): only an ACK that acknowledges new data
    /// cumulatively (RFC 5681 §3.1), by everything it delivered; a duplicate ACK that only
    /// SACKs does not; nor an ACK in fast recovery, nor one to a window the sender is not using.
    pub fn growth(&self) -> Option<u64> {
        (!self.in_recovery && self.cwnd_limited && self.acked > 0).then(|| self.acked + self.sacked)
    }

    /// An ACK of `acked` new bytes at `now` for a window-limited sender in the Open state, with
    /// nothing else to report: the starting point of the algorithms' tests.
    pub fn plain(now: Time, acked: u64) -> AckEvent {
        AckEvent {
            now,
            acked,
            sacked: 0,
            lost: 0,
            rtt: None,
            min_rtt: None,
            in_flight: 0,
            cwnd_limited: true,
            in_recovery: false,
            delivered: 0,
            snd_una: 0,
            snd_nxt: 0,
            srtt: None,
            rate: None,
        }
    }
}

/// Why the sender reduces its window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LossEvent {
    pub now: Time,
    /// Bytes in flight when the loss was detected (RFC 5681's FlightSize).
    pub flight_size: u64,
}

/// A congestion-control algorithm.
pub trait CongestionControl {
    fn name(&self) -> &'static str;

    /// An ACK acknowledged or SACKed new data: grow (or, for model-based algorithms, set) the
    /// window. Loss-based algorithms do not grow it during recovery.
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent);

    /// Loss detected by duplicate ACKs or SACK: fast retransmit starts. Sets ssthresh and the
    /// window recovery begins with (RFC 5681 §3.2, RFC 6675 §5).
    fn on_enter_recovery(&mut self, w: &mut Window, loss: &LossEvent);

    /// Recovery completed: every byte outstanding at its start was acknowledged.
    fn on_exit_recovery(&mut self, w: &mut Window, now: Time) {
        let _ = now;
        w.cwnd = w.cwnd.min(w.ssthresh).max(w.mss);
    }

    /// The retransmission timer fired. `first` is false for a backed-off repeat, which Linux
    /// does not let reduce ssthresh again. The sender then sets cwnd to one segment (RFC 5681
    /// §3.1).
    fn on_rto(&mut self, w: &mut Window, loss: &LossEvent, first: bool);

    /// The rate to pace at, in bytes per second, for algorithms that pace.
    fn pacing_rate(&self) -> Option<f64> {
        None
    }

    /// A short label of the algorithm's state, for traces and the player (e.g. BBR's mode).
    fn state_label(&self) -> &'static str {
        ""
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
    /// BBR's mode, bandwidth estimate (payload bytes/s), min RTT and gains.
    Bbr {
        mode: bbr::BbrMode,
        bw: Option<f64>,
        min_rtt: Option<Time>,
        pacing_gain: f64,
        cwnd_gain: f64,
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
        CcAlgo::Reno => Box::new(Reno::default()),
        CcAlgo::Cubic => Box::new(Cubic::new(options.hystart)),
        CcAlgo::Bbr => Box::new(Bbr::new(options.seed)),
    }
}
