//! Reno (RFC 5681): slow start, then one segment of growth per window of data acknowledged;
//! on loss, half the window with a floor of two segments. Like Linux's `tcp_reno_ssthresh` it
//! halves cwnd rather than RFC 5681's FlightSize: the two agree whenever the window is in use,
//! which is the only time it may grow (`tcp_is_cwnd_limited`).

use super::slow_start::slow_start;
use super::{AckEvent, CongestionControl, LossEvent, Window};

/// Multiplicative decrease of RFC 5681 §3.1, equation (4).
pub const BETA: f64 = 0.5;

#[derive(Debug, Default, Clone)]
pub struct Reno {
    /// Bytes acknowledged toward the next one-segment increase (Linux's `snd_cwnd_cnt`, in
    /// bytes): RFC 3465's byte counting in congestion avoidance.
    bytes_acked: u64,
}

impl Reno {
    /// RFC 5681 §3.1 equation (4), applied to cwnd as Linux does.
    pub fn loss_ssthresh(cwnd: u64, mss: u64) -> u64 {
        ((cwnd as f64 * BETA) as u64).max(2 * mss)
    }

    /// Congestion avoidance: one MSS per cwnd of bytes acknowledged (Linux
    /// `tcp_cong_avoid_ai`), so delayed ACKs do not slow it down.
    pub fn additive_increase(bytes_acked: &mut u64, w: &mut Window, acked: u64) {
        *bytes_acked += acked;
        if *bytes_acked >= w.cwnd {
            let steps = *bytes_acked / w.cwnd.max(1);
            *bytes_acked -= steps * w.cwnd;
            w.cwnd += steps * w.mss;
        }
    }
}

impl CongestionControl for Reno {
    fn name(&self) -> &'static str {
        "reno"
    }

    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        let Some(mut acked) = ack.growth() else {
            return;
        };
        if w.in_slow_start() {
            acked = slow_start(w, acked);
            if acked == 0 {
                return;
            }
        }
        Self::additive_increase(&mut self.bytes_acked, w, acked);
    }

    fn on_enter_recovery(&mut self, w: &mut Window, _loss: &LossEvent) {
        w.ssthresh = Self::loss_ssthresh(w.cwnd, w.mss);
        w.cwnd = w.ssthresh;
        self.bytes_acked = 0;
    }

    fn on_rto(&mut self, w: &mut Window, _loss: &LossEvent, first: bool) {
        if first {
            w.ssthresh = Self::loss_ssthresh(w.cwnd, w.mss);
        }
        self.bytes_acked = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Time;

    fn ack(acked: u64) -> AckEvent {
        AckEvent::plain(Time::ZERO, acked)
    }

    #[test]
    fn congestion_avoidance_adds_one_mss_per_window_acked() {
        let mut w = Window {
            cwnd: 10_000,
            ssthresh: 5_000,
            mss: 1_000,
        };
        let mut reno = Reno::default();
        // Five ACKs of two segments each: ten segments acknowledged, one window's worth.
        for _ in 0..5 {
            reno.on_ack(&mut w, &ack(2_000));
        }
        assert_eq!(w.cwnd, 11_000);
    }

    #[test]
    fn loss_halves_the_window_with_a_two_segment_floor() {
        assert_eq!(Reno::loss_ssthresh(40_000, 1_000), 20_000);
        assert_eq!(Reno::loss_ssthresh(3_000, 1_000), 2_000);
    }

    #[test]
    fn a_duplicate_ack_that_only_sacks_does_not_grow_the_window() {
        let mut w = Window {
            cwnd: 10_000,
            ssthresh: u64::MAX,
            mss: 1_000,
        };
        let mut reno = Reno::default();
        let mut dupack = ack(0);
        dupack.sacked = 1_000;
        reno.on_ack(&mut w, &dupack);
        assert_eq!(w.cwnd, 10_000);
        // The ACK that fills the hole counts what it acknowledges and what it SACKs.
        let mut filling = ack(1_000);
        filling.sacked = 1_000;
        reno.on_ack(&mut w, &filling);
        assert_eq!(w.cwnd, 12_000);
    }

    #[test]
    fn an_idle_window_does_not_grow() {
        let mut w = Window {
            cwnd: 10_000,
            ssthresh: u64::MAX,
            mss: 1_000,
        };
        let mut a = ack(5_000);
        a.cwnd_limited = false;
        Reno::default().on_ack(&mut w, &a);
        assert_eq!(w.cwnd, 10_000);
    }
}
