//! Reno (RFC 5681) as Linux's `tcp_cong.c` runs it, in packets: slow start, then one packet of
//! growth per window of packets acknowledged (`tcp_cong_avoid_ai`); on loss, half the window
//! with a floor of two packets (`tcp_reno_ssthresh`). Like Linux it halves cwnd rather than RFC
//! 5681's FlightSize: the two agree whenever the window is in use, which is the only time it
//! may grow (`tcp_is_cwnd_limited`).

use super::slow_start::slow_start;
use super::{AckEvent, CongestionControl, LossEvent, Window, MIN_SSTHRESH};
use crate::scenario::CcAlgo;

/// The cut on loss: a halving, a shift by one (`tcp_reno_ssthresh`'s `snd_cwnd >> 1`).
pub const REDUCTION_SHIFT: u32 = 1;

#[derive(Debug, Default, Clone)]
pub struct Reno;

impl Reno {
    /// `tcp_reno_ssthresh`: RFC 5681 §3.1 equation (4), applied to cwnd as Linux does.
    pub fn loss_ssthresh(cwnd: u32) -> u32 {
        (cwnd >> REDUCTION_SHIFT).max(MIN_SSTHRESH)
    }
}

/// Linux `tcp_cong_avoid_ai`: one packet per `per` packets acknowledged, counting in
/// `w.cwnd_cnt`; credit earned at a larger `per` is spent gently, one packet at a time.
/// Reno passes the window as `per`, CUBIC its `cnt`.
pub fn cong_avoid_ai(w: &mut Window, per: u32, acked: u32) {
    let per = per.max(1);
    if w.cwnd_cnt >= per {
        w.cwnd_cnt = 0;
        w.cwnd = w.cwnd.saturating_add(1);
    }
    w.cwnd_cnt = w.cwnd_cnt.saturating_add(acked);
    if w.cwnd_cnt >= per {
        let delta = w.cwnd_cnt / per;
        w.cwnd_cnt -= delta * per;
        w.cwnd = w.cwnd.saturating_add(delta);
    }
}

impl CongestionControl for Reno {
    fn algo(&self) -> CcAlgo {
        CcAlgo::Reno
    }

    /// `tcp_reno_cong_avoid`.
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
        cong_avoid_ai(w, w.cwnd, acked);
    }

    fn on_enter_recovery(&mut self, w: &mut Window, _loss: &LossEvent) {
        w.ssthresh = Self::loss_ssthresh(w.cwnd);
    }

    fn on_rto(&mut self, w: &mut Window, _loss: &LossEvent, first: bool) {
        if first {
            w.ssthresh = Self::loss_ssthresh(w.cwnd);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Instant;

    fn ack(acked: u32) -> AckEvent {
        AckEvent::plain(Instant::ZERO, acked)
    }

    fn avoiding(cwnd: u32) -> Window {
        Window {
            ssthresh: 5,
            ..Window::new(cwnd, 1000)
        }
    }

    #[test]
    fn congestion_avoidance_adds_one_packet_per_window_acked() {
        let mut w = avoiding(10);
        // Five ACKs of two packets each: ten packets acknowledged, one window's worth.
        for _ in 0..5 {
            Reno.on_ack(&mut w, &ack(2));
        }
        assert_eq!((w.cwnd, w.cwnd_cnt), (11, 0));
    }

    #[test]
    fn credit_earned_at_a_larger_window_is_spent_one_packet_at_a_time() {
        // tcp_cong_avoid_ai: a count already past `per` (the window shrank) gives one packet
        // and starts over, not cnt / per packets at once.
        let mut w = Window {
            cwnd_cnt: 30,
            ..avoiding(10)
        };
        cong_avoid_ai(&mut w, 10, 1);
        assert_eq!((w.cwnd, w.cwnd_cnt), (11, 1));
    }

    #[test]
    fn loss_halves_the_window_with_a_two_packet_floor() {
        assert_eq!(Reno::loss_ssthresh(40), 20);
        assert_eq!(Reno::loss_ssthresh(41), 20);
        assert_eq!(Reno::loss_ssthresh(3), 2);
    }

    #[test]
    fn a_duplicate_ack_that_only_sacks_does_not_grow_the_window() {
        let mut w = Window::new(10, 1000);
        let mut dupack = ack(0);
        dupack.sacked = 1;
        Reno.on_ack(&mut w, &dupack);
        assert_eq!(w.cwnd, 10);
        // The ACK that fills the hole counts what it acknowledges and what it SACKs.
        let mut filling = ack(1);
        filling.sacked = 1;
        Reno.on_ack(&mut w, &filling);
        assert_eq!(w.cwnd, 12);
    }

    #[test]
    fn an_idle_window_does_not_grow() {
        let mut w = Window::new(10, 1000);
        let mut a = ack(5);
        a.cwnd_limited = false;
        Reno.on_ack(&mut w, &a);
        assert_eq!(w.cwnd, 10);
    }

    #[test]
    fn a_loss_sets_ssthresh_and_leaves_the_window_to_the_sender() {
        let mut w = Window::new(40, 1000);
        Reno.on_enter_recovery(
            &mut w,
            &LossEvent {
                now: Instant::ZERO,
                flight_size: 40_000,
                total_lost: 1,
                snd_nxt: 0,
            },
        );
        assert_eq!((w.cwnd, w.ssthresh), (40, 20));
    }
}
