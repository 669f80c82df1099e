//! CUBIC as Linux's `tcp_cubic.c` runs it, in packets, with its HyStart.
//!
//! After a congestion event the window follows W(t) = C * (t - K)^3 + W_max: fast away from the
//! last maximum, flat near it, then probing beyond (RFC 9438 §4.2). Where RFC 9438 and Linux
//! differ, the lab does what Linux does (docs/model.md):
//! - the cut is `cwnd * 717 / 1024` packets, floor 2 (`cubictcp_recalc_ssthresh`);
//! - the Reno-friendly estimate always grows by 3 (1 - beta) / (1 + beta) packets per window
//!   (`tcp_friendliness`), never switching to 1 once it passes cwnd_prior (RFC 9438 §4.3);
//! - while no W_max is known, after a HyStart exit or a timeout, the window grows by at least
//!   1 packet per 20 acknowledged, 5 % per round trip (`last_max_cwnd == 0`, `cnt` capped at 20);
//! - the curve is read one minimum RTT ahead, in jiffies, and updated at most once per jiffy
//!   (`bictcp_update`); growth is at most one packet per two acknowledged (`cnt` >= 2).

use super::hystart::HyStart;
use super::reno::cong_avoid_ai;
use super::slow_start::slow_start;
use super::{AckEvent, CongestionControl, LossEvent, Window, MIN_SSTHRESH};
use crate::scenario::CcAlgo;
use crate::time::{Duration, Instant};

/// The kernel's timer frequency (`CONFIG_HZ`): CUBIC's clock is `tcp_jiffies32`. 250 is the
/// measured kernel's (Debian's) value.
pub const HZ: u64 = 250;
/// `beta`: the multiplicative decrease, in 1/1024 (`BICTCP_BETA_SCALE`), 0.7 as RFC 9438.
pub const BETA: u32 = 717;
pub const BETA_SCALE: u32 = 1024;
/// `bic_scale`: C = 41 * 10 / 1024 = 0.4 packets per second cubed (`cube_rtt_scale`).
const CUBE_RTT_SCALE: u64 = 41 * 10;
/// `BICTCP_HZ`: the curve's time unit is 1/1024 s.
const BICTCP_HZ: u32 = 10;
/// Below this `offs`, `CUBE_RTT_SCALE * offs^3` fits in 64 bits (410 * 2^54 < 2^63).
const CUBE_EXACT_IN_64: u64 = 1 << 18;
/// `cube_factor`: 2^(10 + 3 * BICTCP_HZ) / cube_rtt_scale, so that K = cbrt(cube_factor * dW)
/// comes out in 1/1024 s.
const CUBE_FACTOR: u64 = (1 << (10 + 3 * BICTCP_HZ)) / CUBE_RTT_SCALE;
/// `beta_scale`: 8 * (1024 + 717) / 3 / (1024 - 717) = 15, the Reno-friendly estimate's
/// packets acknowledged per increase, in eighths of a window: 3 (1 - beta) / (1 + beta) per RTT.
const FRIENDLY_SCALE: u32 = 8 * (BETA_SCALE + BETA) / 3 / (BETA_SCALE - BETA);
/// C in packets per second cubed, as the integer arithmetic has it: for the chart's curve.
pub const C: f64 = CUBE_RTT_SCALE as f64 / 1024.0;

/// The cubic curve of the current congestion-avoidance epoch, in packets and seconds: for the
/// cwnd chart's overlay.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubicCurve {
    pub epoch_start: Instant,
    pub k: f64,
    pub w_max: f64,
}

impl CubicCurve {
    /// W at `now`, in packets (RFC 9438 equation 1).
    pub fn w_at(&self, now: Instant) -> f64 {
        let d = now
            .saturating_duration_since(self.epoch_start)
            .as_secs_f64()
            - self.k;
        C * d * d * d + self.w_max
    }
}

/// RFC 9438 equation 2 in seconds: K = cbrt((W_max - cwnd_epoch) / C).
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

/// The curve's distance from its origin `offs` (2^-10 s units) from K: `C/rtt * offs^3` in
/// packets (`bictcp_update`). Linux cubes in 64 bits, which wraps once `offs` passes 2^18
/// (about 256 s from K); the lab takes 128 bits there and saturates. Below it 64 bits are
/// exact, and spare WebAssembly a library call for each 128-bit product on every ACK.
fn cube_delta(offs: u64) -> u32 {
    if offs < CUBE_EXACT_IN_64 {
        ((CUBE_RTT_SCALE * offs * offs * offs) >> (10 + 3 * BICTCP_HZ)) as u32
    } else {
        // From 2^22 on the result is past `u32::MAX` anyway; the cap keeps the cube in range.
        let offs = u128::from(offs.min(1 << 32));
        ((u128::from(CUBE_RTT_SCALE) * offs * offs * offs) >> (10 + 3 * BICTCP_HZ))
            .min(u128::from(u32::MAX)) as u32
    }
}

/// The integer cube root, rounded down: Linux's `cubic_root` (a table and one Newton step)
/// rounded to the exact value.
fn icbrt(x: u64) -> u64 {
    let mut r = cbrt(x as f64) as u64;
    while r > 0 && u128::from(r).pow(3) > u128::from(x) {
        r -= 1;
    }
    while u128::from(r + 1).pow(3) <= u128::from(x) {
        r += 1;
    }
    r
}

/// Linux `tcp_jiffies32` at `now`.
fn jiffies(now: Instant) -> u64 {
    now.as_nanos() / (1_000_000_000 / HZ)
}

/// Linux `usecs_to_jiffies`, rounding up.
fn usecs_to_jiffies(us: u64) -> u64 {
    (us * HZ).div_ceil(1_000_000)
}

/// Linux's `struct bictcp`.
#[derive(Debug, Clone, Default)]
pub struct Cubic {
    /// Increase the window by one packet per `cnt` acknowledged.
    cnt: u32,
    /// W_max, in packets, after fast convergence; 0 while none is known.
    last_max_cwnd: u32,
    /// The window and jiffy of the last update of `cnt`.
    last_cwnd: u32,
    last_time: u64,
    /// The curve's plateau, in packets, and the time to reach it from the epoch's start, in
    /// 1/1024 s.
    origin_point: u32,
    k: u64,
    /// The lowest RTT seen, in microseconds (`delay_min`); 0 before any.
    delay_min_us: u64,
    /// The jiffy the epoch began, if one has.
    epoch_start: Option<u64>,
    /// Packets acknowledged toward the Reno-friendly estimate, and the estimate.
    ack_cnt: u32,
    tcp_cwnd: u32,
    hystart: Option<HyStart>,
}

impl Cubic {
    pub fn new(hystart: bool) -> Self {
        Cubic {
            hystart: hystart.then(HyStart::default),
            ..Cubic::default()
        }
    }

    /// The curve being followed, if in congestion avoidance.
    pub fn curve(&self) -> Option<CubicCurve> {
        let start = self.epoch_start?;
        Some(CubicCurve {
            epoch_start: Instant(start * (1_000_000_000 / HZ)),
            k: self.k as f64 / 1024.0,
            w_max: f64::from(self.origin_point),
        })
    }

    /// W_max in packets (0 while none is known).
    pub fn w_max(&self) -> u32 {
        self.last_max_cwnd
    }

    /// The packets per one-packet increase the curve asks for now.
    pub fn cnt(&self) -> u32 {
        self.cnt
    }

    /// `cubictcp_recalc_ssthresh`: end the epoch, remember W_max with fast convergence (RFC
    /// 9438 §4.7), and set ssthresh to beta times the window.
    fn recalc_ssthresh(&mut self, w: &mut Window) {
        self.epoch_start = None;
        let cwnd = w.cwnd;
        self.last_max_cwnd = if cwnd < self.last_max_cwnd {
            ((u64::from(cwnd) * u64::from(BETA_SCALE + BETA)) / u64::from(2 * BETA_SCALE)) as u32
        } else {
            cwnd
        };
        w.ssthresh =
            ((u64::from(cwnd) * u64::from(BETA) / u64::from(BETA_SCALE)) as u32).max(MIN_SSTHRESH);
    }

    /// `bictcp_update`: the packets per increase that bring the window to the curve one
    /// minimum RTT from now, and no slower than the Reno-friendly estimate.
    fn update(&mut self, cwnd: u32, acked: u32, now: Instant) {
        let j = jiffies(now);
        self.ack_cnt = self.ack_cnt.saturating_add(acked);
        if self.last_cwnd == cwnd && j.saturating_sub(self.last_time) <= HZ / 32 {
            return;
        }
        // The curve is recomputed at most once per jiffy; a reduction ends the epoch, which
        // forces it.
        if !(self.epoch_start.is_some() && j == self.last_time) {
            self.last_cwnd = cwnd;
            self.last_time = j;
            let epoch = match self.epoch_start {
                Some(e) => e,
                None => {
                    self.epoch_start = Some(j);
                    self.ack_cnt = acked;
                    self.tcp_cwnd = cwnd;
                    if self.last_max_cwnd <= cwnd {
                        self.k = 0;
                        self.origin_point = cwnd;
                    } else {
                        self.k = icbrt(CUBE_FACTOR * u64::from(self.last_max_cwnd - cwnd));
                        self.origin_point = self.last_max_cwnd;
                    }
                    j
                }
            };
            let t = ((j - epoch + usecs_to_jiffies(self.delay_min_us)) << BICTCP_HZ) / HZ;
            let delta = cube_delta(t.abs_diff(self.k));
            let target = if t < self.k {
                self.origin_point.saturating_sub(delta)
            } else {
                self.origin_point.saturating_add(delta)
            };
            self.cnt = if target > cwnd {
                cwnd / (target - cwnd)
            } else {
                cwnd.saturating_mul(100)
            };
            // The curve alone is too timid while the path's capacity is unknown.
            if self.last_max_cwnd == 0 {
                self.cnt = self.cnt.min(20);
            }
        }
        // Linux's `tcp_friendliness`: the Reno-friendly estimate grows one packet per
        // 15/8 windows acknowledged, whatever cwnd_prior was.
        let per = ((cwnd as u64 * u64::from(FRIENDLY_SCALE)) >> 3).max(1) as u32;
        if self.ack_cnt > per {
            let n = (self.ack_cnt - 1) / per;
            self.ack_cnt -= n * per;
            self.tcp_cwnd = self.tcp_cwnd.saturating_add(n);
        }
        if self.tcp_cwnd > cwnd {
            let max_cnt = cwnd / (self.tcp_cwnd - cwnd);
            self.cnt = self.cnt.min(max_cnt);
        }
        self.cnt = self.cnt.max(2);
    }

    /// `cubictcp_acked`: the minimum delay and HyStart, from each RTT sample.
    fn on_rtt_sample(&mut self, w: &mut Window, ack: &AckEvent, rtt: Duration) {
        // Samples right after a reduction are discarded: the queue may still be draining.
        if self
            .epoch_start
            .is_some_and(|e| jiffies(ack.now).saturating_sub(e) < HZ)
        {
            return;
        }
        let delay_us = rtt.as_micros().max(1);
        if self.delay_min_us == 0 || self.delay_min_us > delay_us {
            self.delay_min_us = delay_us;
        }
        if !w.in_slow_start() {
            return;
        }
        let delay_min = Duration::from_micros(self.delay_min_us);
        if let Some(h) = self.hystart.as_mut() {
            // Linux's `hystart_ack_delay`: four 64 KiB bursts at the pacing rate Linux
            // computes in slow start (twice cwnd per SRTT), at most 1 ms.
            let srtt = ack.srtt.unwrap_or(delay_min).as_secs_f64().max(1e-9);
            let pacing = 2.0 * w.cwnd_bytes() as f64 / srtt;
            let ack_delay =
                Duration::from_secs_f64(4.0 * 65_536.0 / pacing).min(Duration::from_millis(1));
            let rtt = Duration::from_micros(delay_us);
            if h.on_ack(
                ack.now,
                ack.snd_una,
                ack.snd_nxt,
                w.cwnd,
                rtt,
                delay_min,
                ack_delay,
            )
            .is_some()
            {
                w.ssthresh = w.cwnd;
            }
        }
    }
}

impl CongestionControl for Cubic {
    fn algo(&self) -> CcAlgo {
        CcAlgo::Cubic
    }

    /// `cubictcp_acked`, then `cubictcp_cong_avoid`.
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        if let Some(rtt) = ack.rtt {
            self.on_rtt_sample(w, ack, rtt);
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
        self.update(w.cwnd, acked, ack.now);
        cong_avoid_ai(w, self.cnt, acked);
    }

    fn on_enter_recovery(&mut self, w: &mut Window, _loss: &LossEvent) {
        self.recalc_ssthresh(w);
    }

    /// `cubictcp_cwnd_event(CA_EVENT_TX_START)`: after an idle spell the epoch moves forward
    /// by it, so the window resumes the curve where it left it instead of jumping ahead.
    fn on_tx_start(&mut self, now: Instant, idle: Duration) {
        let now_j = jiffies(now);
        let delta = now_j.saturating_sub(jiffies(now - idle));
        if let Some(e) = self.epoch_start.as_mut() {
            if delta > 0 {
                *e = (*e + delta).min(now_j);
            }
        }
    }

    fn on_rto(&mut self, w: &mut Window, loss: &LossEvent, first: bool) {
        if first {
            self.recalc_ssthresh(w);
        }
        // `cubictcp_state(TCP_CA_Loss)`: `bictcp_reset` forgets everything, W_max and the
        // minimum delay too, so the slow start that follows ends at ssthresh and the epoch
        // after it grows at least 5 % per round trip; `bictcp_hystart_reset` starts HyStart's
        // round at the timeout, to end past what had been sent (not at the first ACK after).
        let hystart = self.hystart.is_some();
        *self = Cubic::new(hystart);
        if let Some(h) = self.hystart.as_mut() {
            h.start_round(loss.now, loss.snd_nxt);
        }
    }

    fn model_key(&self) -> Option<super::ModelKey> {
        // The curve's inputs (`curve`): a new one only with a new epoch.
        Some(super::ModelKey([
            self.epoch_start.unwrap_or(u64::MAX),
            self.k,
            u64::from(self.origin_point),
            0,
            0,
            0,
            0,
        ]))
    }

    fn model(&self) -> super::CcModel {
        super::CcModel::Cubic(self.curve())
    }

    fn hystart_exit(&self) -> Option<super::hystart::HyStartExit> {
        self.hystart.as_ref().and_then(HyStart::found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn ack(now_ms: u64, acked: u32) -> AckEvent {
        let rtt = Some(Duration::from_millis(100));
        AckEvent {
            rtt,
            min_rtt: rtt,
            srtt: rtt,
            ..AckEvent::plain(Instant::from_millis(now_ms), acked)
        }
    }

    #[test]
    fn the_curve_is_the_same_in_64_and_128_bits_where_both_are_exact() {
        let wide = |offs: u64| {
            let o = u128::from(offs);
            ((u128::from(CUBE_RTT_SCALE) * o * o * o) >> (10 + 3 * BICTCP_HZ))
                .min(u128::from(u32::MAX)) as u32
        };
        let edge = CUBE_EXACT_IN_64;
        for offs in (0..edge)
            .step_by(97)
            .chain([edge - 2, edge - 1, edge, edge + 1, 1 << 21])
        {
            assert_eq!(cube_delta(offs), wide(offs), "offs {offs}");
        }
        // Past 2^22 the curve saturates, however far.
        for offs in [1 << 22, 1 << 32, 1 << 40, u64::MAX] {
            assert_eq!(cube_delta(offs), u32::MAX, "offs {offs}");
        }
        // 25 s from K on the 2^-10 s scale: C * 25^3 packets, with Linux's C of 410 / 1024
        // (0.4004, `bic_scale` 41 times 10) rather than RFC 9438's 0.4: 6 256 where 0.4 gives 6 250.
        assert_eq!(cube_delta(25 << 10), 6_256);
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
        for x in [0, 1, 7, 8, 26, 27, 1 << 40, u64::MAX / 2] {
            let r = icbrt(x);
            assert!(
                u128::from(r).pow(3) <= u128::from(x) && u128::from(r + 1).pow(3) > u128::from(x)
            );
        }
    }

    #[test]
    fn linux_constants() {
        // tcp_cubic.c's module init: beta_scale 15, cube_factor 2^40 / 410; C is 0.4.
        assert_eq!(FRIENDLY_SCALE, 15);
        assert_eq!(CUBE_FACTOR, 2_681_735_677);
        assert!((C - 0.4).abs() < 1e-3);
        // Seed 002: W_max 33 packets and 23 after the reduction give K = 2.91 s.
        assert!((k_of(33.0, 23.1) - 2.91).abs() < 0.01);
    }

    /// A window of 100 packets that has just taken its first loss, in congestion avoidance.
    fn after_one_loss() -> (Window, Cubic) {
        let mut w = Window::new(100, 1000);
        let mut c = Cubic::new(false);
        c.delay_min_us = 100_000;
        c.on_enter_recovery(&mut w, &loss(100));
        // PRR brings the window to ssthresh, as the sender does when recovery ends.
        w.cwnd = w.ssthresh;
        (w, c)
    }

    fn loss(flight_packets: u64) -> LossEvent {
        LossEvent {
            now: Instant::ZERO,
            flight_size: flight_packets * 1000,
            total_lost: 1,
            snd_nxt: 0,
        }
    }

    #[test]
    fn a_loss_cuts_by_717_over_1024_and_remembers_w_max() {
        let (mut w, mut c) = after_one_loss();
        // cubictcp_recalc_ssthresh: 100 * 717 / 1024 = 70 packets, in whole packets.
        assert_eq!(w.ssthresh, 70);
        assert_eq!(c.w_max(), 100);
        // Fast convergence: a second loss below the last maximum remembers less, 70 * 1741 /
        // 2048 = 59.
        c.on_enter_recovery(&mut w, &loss(70));
        assert_eq!((c.w_max(), w.ssthresh), (59, 49));
        // The floor is two packets.
        let mut tiny = Window::new(2, 1000);
        c.on_enter_recovery(&mut tiny, &loss(2));
        assert_eq!(tiny.ssthresh, 2);
    }

    #[test]
    fn the_window_regrows_along_the_cubic_and_plateaus_at_w_max() {
        let (mut w, mut c) = after_one_loss();
        // One ACK per packet for 3 s of 100 ms round trips.
        let mut now = 0;
        while now < 3_000 {
            let per_ack = u64::from(w.cwnd);
            for i in 0..per_ack {
                c.on_ack(&mut w, &ack(now + i * 100 / per_ack, 1));
            }
            now += 100;
        }
        let curve = c.curve().expect("an epoch");
        // K = cbrt(30 / 0.4) = 4.2 s: at 3 s the window is just under W_max, as W(t) says.
        assert!((curve.k - 4.217).abs() < 0.01, "{}", curve.k);
        let expected = curve.w_at(Instant(3_100 * MS));
        let got = f64::from(w.cwnd);
        assert!(
            (got - expected).abs() / expected < 0.03,
            "{got} vs {expected}"
        );
        assert!(w.cwnd <= 100, "{}", w.cwnd);
    }

    #[test]
    fn tcp_friendliness_keeps_the_reno_rate_and_never_switches_to_one() {
        // A 10-packet window far below W_max, on a path whose curve is slow (min RTT 1 ms):
        // W_est grows one packet per 10 * 15 / 8 = 18 packets acknowledged, 0.53 packets per
        // window (RFC 9438's alpha_cubic), and keeps that rate past cwnd_prior, where RFC 9438
        // §4.3 would switch to one packet per window.
        let w = Window::new(10, 1000);
        let mut c = Cubic::new(false);
        c.delay_min_us = 1_000;
        c.last_max_cwnd = 10_000;
        let mut acked = 0u32;
        let mut now = 0;
        while acked < 18 * 40 {
            c.update(w.cwnd, 1, Instant(now * MS));
            acked += 1;
            now += 1;
        }
        // 720 packets acknowledged at a fixed window of 10 give W_est 10 + 39 = 49 (the first
        // packet starts the epoch) and cnt = 10 / 39 -> the floor of 2.
        assert_eq!(c.tcp_cwnd, 49);
        assert_eq!(c.cnt(), 2);
    }

    #[test]
    fn without_w_max_the_window_grows_five_percent_per_round() {
        // After a HyStart exit (or a timeout) no W_max is known: the curve from here would be
        // flat, and Linux caps cnt at 20, one packet per 20 acknowledged.
        let mut w = Window {
            ssthresh: 200,
            ..Window::new(200, 1000)
        };
        let mut c = Cubic::new(false);
        c.delay_min_us = 100_000;
        for i in 0..200u64 {
            c.on_ack(&mut w, &ack(i / 2, 1));
        }
        assert_eq!(c.cnt(), 20);
        assert!((209..=210).contains(&w.cwnd), "{}", w.cwnd);
    }

    #[test]
    fn a_timeout_forgets_w_max_and_the_delay() {
        let (mut w, mut c) = after_one_loss();
        c.on_rto(&mut w, &loss(70), true);
        assert_eq!((c.w_max(), c.delay_min_us, c.curve()), (0, 0, None));
        assert_eq!(w.ssthresh, 49);
    }

    #[test]
    fn an_idle_spell_moves_the_epoch_forward() {
        // cubictcp_cwnd_event(CA_EVENT_TX_START): 500 ms idle is 125 jiffies at HZ 250.
        let (mut w, mut c) = after_one_loss();
        c.on_ack(&mut w, &ack(100, 1));
        let start = c.curve().map(|k| k.epoch_start);
        assert_eq!(start, Some(Instant::from_millis(100)));
        c.on_tx_start(Instant::from_millis(1_000), Duration::from_millis(500));
        assert_eq!(
            c.curve().map(|k| k.epoch_start),
            Some(Instant::from_millis(600))
        );
        // Never past now.
        c.on_tx_start(Instant::from_millis(1_000), Duration::from_millis(900));
        assert_eq!(
            c.curve().map(|k| k.epoch_start),
            Some(Instant::from_millis(1_000))
        );
    }
}
