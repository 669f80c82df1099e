//! CUBIC (RFC 9438), with Linux's HyStart.
//!
//! After a congestion event the window follows W_cubic(t) = C * (t - K)^3 + W_max: fast away
//! from the last maximum, flat near it, then probing beyond. Where Reno would be faster (short
//! RTTs, small windows) CUBIC follows Reno's estimate W_est instead (the Reno-friendly region).

use super::hystart::{HyStart, LOW_WINDOW_SEGMENTS};
use super::slow_start::slow_start;
use super::{AckEvent, CongestionControl, LossEvent, Window};
use crate::time::Time;

/// RFC 9438 §4.1: the scaling constant, in segments per second cubed.
pub const C: f64 = 0.4;
/// RFC 9438 §4.6: the multiplicative decrease factor.
pub const BETA_CUBIC: f64 = 0.7;
/// RFC 9438 §4.3: Reno-friendly additive increase, 3 * (1 - beta) / (1 + beta) segments per RTT.
pub const ALPHA_CUBIC: f64 = 3.0 * (1.0 - BETA_CUBIC) / (1.0 + BETA_CUBIC);

/// The cubic curve of the current congestion-avoidance epoch, in segments and seconds: for the
/// cwnd chart's overlay.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubicCurve {
    pub epoch_start: Time,
    pub k: f64,
    pub w_max: f64,
}

impl CubicCurve {
    /// W_cubic at `now`, in segments (RFC 9438 equation 1).
    pub fn w_at(&self, now: Time) -> f64 {
        let d = now.saturating_sub(self.epoch_start).as_secs_f64() - self.k;
        C * d * d * d + self.w_max
    }
}

/// RFC 9438 equation 2: K = cbrt((W_max - cwnd_epoch) / C).
pub fn k_of(w_max: f64, cwnd_epoch: f64) -> f64 {
    cbrt((w_max - cwnd_epoch).max(0.0) / C)
}

/// The cube root by Newton's method from a bit-level first guess: only IEEE-exact operations,
/// so native and wasm32 builds agree to the bit (their libm `cbrt`s need not).
pub fn cbrt(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 || x.is_infinite() {
        return 0.0;
    }
    let mut y = f64::from_bits(x.to_bits() / 3 + 0x2A9F_7893_782D_A1CE);
    for _ in 0..6 {
        y -= (y * y * y - x) / (3.0 * y * y);
    }
    y
}

#[derive(Debug, Clone)]
pub struct Cubic {
    /// The window before the last reduction, in segments (after fast convergence); zero when
    /// none is remembered. At the next reduction it is also the previous W_max that fast
    /// convergence compares with (RFC 9438 §4.7; Linux keeps the one `last_max_cwnd` too).
    w_max: f64,
    /// RFC 9438 §4.6's cwnd_prior: the window when ssthresh was last set, in segments; W_est
    /// reaching it ends the Reno-friendly region's slower increase (§4.3).
    cwnd_prior: f64,
    curve: Option<CubicCurve>,
    /// Reno's window estimate for the Reno-friendly region, in segments.
    w_est: f64,
    /// Sub-byte growth carried between ACKs.
    carry: f64,
    hystart: Option<HyStart>,
    delay_min: Option<Time>,
}

impl Cubic {
    pub fn new(hystart: bool) -> Self {
        Cubic {
            w_max: 0.0,
            cwnd_prior: 0.0,
            curve: None,
            w_est: 0.0,
            carry: 0.0,
            hystart: hystart.then(HyStart::default),
            delay_min: None,
        }
    }

    /// The curve being followed, if in congestion avoidance.
    pub fn curve(&self) -> Option<CubicCurve> {
        self.curve
    }

    pub fn w_max(&self) -> f64 {
        self.w_max
    }

    /// RFC 9438 §4.6 and §4.7: remember the window, with fast convergence, and cut it.
    fn reduce(&mut self, w: &mut Window) {
        let cwnd = w.cwnd_segments();
        self.cwnd_prior = cwnd;
        self.w_max = if cwnd < self.w_max {
            cwnd * (1.0 + BETA_CUBIC) / 2.0
        } else {
            cwnd
        };
        w.ssthresh = ((w.cwnd as f64 * BETA_CUBIC) as u64).max(2 * w.mss);
        self.curve = None;
        self.carry = 0.0;
    }

    fn congestion_avoidance(&mut self, w: &mut Window, ack: &AckEvent, acked: u64) {
        let mss = w.mss as f64;
        let cwnd = w.cwnd_segments();
        let curve = *self.curve.get_or_insert_with(|| {
            // A new epoch (RFC 9438 §4.2): from a remembered maximum, or from here.
            self.w_est = cwnd;
            if self.w_max > cwnd {
                CubicCurve {
                    epoch_start: ack.now,
                    k: k_of(self.w_max, cwnd),
                    w_max: self.w_max,
                }
            } else {
                CubicCurve {
                    epoch_start: ack.now,
                    k: 0.0,
                    w_max: cwnd,
                }
            }
        });
        let segs = acked as f64 / mss;
        // RFC 9438 §4.3: W_est grows as Reno would, with alpha 1 once it reaches cwnd_prior.
        let alpha = if self.w_est >= self.cwnd_prior {
            1.0
        } else {
            ALPHA_CUBIC
        };
        self.w_est += alpha * segs / cwnd;

        let target_now = curve.w_at(ack.now);
        let new = if target_now < self.w_est {
            // The Reno-friendly region.
            self.w_est.max(cwnd)
        } else {
            // RFC 9438 §4.4 and §4.5: aim for W_cubic one RTT ahead, growing at most by half a
            // segment per segment acknowledged (Linux's `cnt` floor of 2).
            let rtt = self.delay_min.or(ack.min_rtt).unwrap_or(Time::ZERO);
            let target = curve.w_at(ack.now + rtt).clamp(cwnd, 1.5 * cwnd);
            cwnd + (target - cwnd) / cwnd * segs
        };
        let grown = (new - cwnd) * mss + self.carry;
        let whole = grown.floor().max(0.0);
        self.carry = grown - whole;
        w.cwnd += whole as u64;
    }
}

impl Default for Cubic {
    fn default() -> Self {
        Cubic::new(true)
    }
}

impl CongestionControl for Cubic {
    fn name(&self) -> &'static str {
        "cubic"
    }

    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        if let Some(rtt) = ack.rtt {
            self.delay_min = Some(self.delay_min.map_or(rtt, |d| d.min(rtt)));
            if w.in_slow_start() && w.cwnd_segments() >= LOW_WINDOW_SEGMENTS {
                if let (Some(h), Some(delay_min)) = (self.hystart.as_mut(), self.delay_min) {
                    // Linux's `hystart_ack_delay`: four 64 KiB bursts at the pacing rate Linux
                    // computes in slow start (twice cwnd per SRTT), at most 1 ms.
                    let srtt = ack.srtt.unwrap_or(delay_min).as_secs_f64().max(1e-9);
                    let pacing = 2.0 * w.cwnd as f64 / srtt;
                    let ack_delay =
                        Time::from_secs_f64(4.0 * 65_536.0 / pacing).min(Time::from_millis(1));
                    if h.on_ack(ack.now, ack.snd_una, ack.snd_nxt, rtt, delay_min, ack_delay)
                        .is_some()
                    {
                        w.ssthresh = w.cwnd;
                    }
                }
            }
        }
        let Some(mut acked) = ack.growth() else {
            return;
        };
        if w.in_slow_start() {
            acked = slow_start(w, acked);
            if acked == 0 {
                return;
            }
        }
        self.congestion_avoidance(w, ack, acked);
    }

    fn on_enter_recovery(&mut self, w: &mut Window, _loss: &LossEvent) {
        self.reduce(w);
        w.cwnd = w.ssthresh;
    }

    fn on_rto(&mut self, w: &mut Window, _loss: &LossEvent, first: bool) {
        if first {
            self.reduce(w);
        }
        // Linux's `bictcp_state(TCP_CA_Loss)` resets the algorithm (`bictcp_reset`, which clears
        // the minimum delay too): the slow start that follows ends at ssthresh and a fresh epoch
        // starts from there.
        self.w_max = 0.0;
        self.cwnd_prior = 0.0;
        self.delay_min = None;
        self.curve = None;
        if let Some(h) = self.hystart.as_mut() {
            h.reset();
        }
    }

    fn model(&self) -> super::CcModel {
        super::CcModel::Cubic(self.curve)
    }

    fn state_label(&self) -> &'static str {
        match self.hystart.as_ref().and_then(HyStart::found) {
            Some(super::hystart::HyStartExit::AckTrain) => "hystart-ack-train",
            Some(super::hystart::HyStartExit::DelayIncrease) => "hystart-delay",
            None => "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    fn ack(now_ms: u64, acked: u64) -> AckEvent {
        let rtt = Some(Time::from_millis(100));
        AckEvent {
            rtt,
            min_rtt: rtt,
            srtt: rtt,
            ..AckEvent::plain(Time::from_millis(now_ms), acked)
        }
    }

    #[test]
    fn the_cube_root_is_exact_where_it_can_be() {
        for (x, r) in [
            (27.0, 3.0),
            (1.0, 1.0),
            (1e-9, 1e-3),
            (75.0, 4.217_163_326_508_746),
        ] {
            assert!((cbrt(x) - r).abs() <= r * 1e-15, "{x}: {}", cbrt(x));
        }
        assert_eq!(cbrt(0.0), 0.0);
        assert_eq!(cbrt(f64::NAN), 0.0);
    }

    #[test]
    fn k_matches_the_seed_posts_table() {
        // Seed 002: W_max 33 MSS and 23 after the reduction give K = 2.91 s.
        assert!((k_of(33.0, 23.1) - 2.91).abs() < 0.01);
        assert!((ALPHA_CUBIC - 0.529_411_764_705_882_4).abs() < 1e-12);
    }

    /// A window of 100 segments that has just taken one loss.
    fn after_one_loss() -> (Window, Cubic) {
        let mut w = Window {
            cwnd: 100 * MSS,
            ssthresh: u64::MAX,
            mss: MSS,
        };
        let mut c = Cubic::new(false);
        c.on_enter_recovery(&mut w, &loss(100));
        (w, c)
    }

    fn loss(flight_segments: u64) -> LossEvent {
        LossEvent {
            now: Time::ZERO,
            flight_size: flight_segments * MSS,
        }
    }

    #[test]
    fn a_loss_cuts_to_beta_and_remembers_w_max() {
        let (mut w, mut c) = after_one_loss();
        assert_eq!((w.cwnd, w.ssthresh), (70 * MSS, 70 * MSS));
        assert_eq!(c.w_max(), 100.0);
        // Fast convergence: a second loss below the last maximum remembers less.
        c.on_enter_recovery(&mut w, &loss(70));
        assert!((c.w_max() - 70.0 * 0.85).abs() < 1e-9);
    }

    #[test]
    fn the_window_regrows_along_the_cubic_and_plateaus_at_w_max() {
        let (mut w, mut c) = after_one_loss();
        // One ACK per segment for 3 s of 100 ms round trips.
        let mut now = 0;
        let mut k = 0.0;
        while now < 3_000 {
            let per_ack = w.cwnd / MSS;
            for i in 0..per_ack {
                c.on_ack(&mut w, &ack(now + i * 100 / per_ack, MSS));
            }
            now += 100;
            if let Some(curve) = c.curve() {
                k = curve.k;
            }
        }
        // K = cbrt(30 / 0.4) = 4.2 s: at 3 s the window is just under W_max, as W_cubic says.
        assert!((k - 4.217).abs() < 0.01, "{k}");
        let expected = C * (3.1f64 - k) * (3.1 - k) * (3.1 - k) + 100.0;
        let got = w.cwnd as f64 / MSS as f64;
        assert!(
            (got - expected).abs() / expected < 0.02,
            "{got} vs {expected}"
        );
    }
}
