//! CoDel, Controlled Delay (RFC 8289), as Linux runs it (`include/net/codel_impl.h`): at each
//! dequeue the head packet's sojourn time is compared with `target`; once it has stayed above
//! for `interval`, CoDel drops (or, for an ECN-capable packet with `ecn` on, marks CE) and
//! schedules the next drop `interval / sqrt(count)` later, until the sojourn falls below
//! `target` again.
//!
//! Linux's arithmetic is kept to the bit, since it decides which packet is dropped: time in
//! units of 1024 ns in a wrapping `u32` (`codel_time_t`, `CODEL_SHIFT`), 1/sqrt(count) as a
//! 16-bit fixed-point number refined by one Newton step per drop (`codel_Newton_step`), and the
//! control law as a reciprocal scale (`codel_control_law`). The state is apart from the queue
//! ([`CodelVars`]), so that FQ-CoDel keeps one per flow queue as Linux does.

use super::{Head, Verdict, Waiting};
use crate::time::{Duration, Instant};

/// CoDel's clock: nanoseconds shifted right by 10, wrapping (`codel_get_time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CodelTime(pub u32);

/// `CODEL_SHIFT`: CoDel's clock ticks every 1024 ns.
const SHIFT: u32 = 10;

impl CodelTime {
    pub fn of(t: Instant) -> CodelTime {
        CodelTime((t.as_nanos() >> SHIFT) as u32)
    }

    pub fn span(d: Duration) -> CodelTime {
        CodelTime((d.as_nanos() >> SHIFT).min(u64::from(u32::MAX)) as u32)
    }

    pub fn as_duration(self) -> Duration {
        Duration::from_nanos(u64::from(self.0) << SHIFT)
    }

    fn plus(self, d: CodelTime) -> CodelTime {
        CodelTime(self.0.wrapping_add(d.0))
    }

    fn minus(self, other: CodelTime) -> CodelTime {
        CodelTime(self.0.wrapping_sub(other.0))
    }

    /// `codel_time_after`: later, in wrapping arithmetic.
    fn after(self, other: CodelTime) -> bool {
        (self.0.wrapping_sub(other.0) as i32) > 0
    }

    fn after_eq(self, other: CodelTime) -> bool {
        (self.0.wrapping_sub(other.0) as i32) >= 0
    }

    fn before(self, other: CodelTime) -> bool {
        (self.0.wrapping_sub(other.0) as i32) < 0
    }
}

/// CoDel's settings (`struct codel_params`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CodelParams {
    /// The acceptable standing queue delay (RFC 8289 §4.3: 5 ms).
    pub target: Duration,
    /// The window a delay above `target` must last before CoDel acts (RFC 8289 §4.4: 100 ms,
    /// about a worst-case RTT).
    pub interval: Duration,
    /// A queue of at most this many bytes is never dropped from (Linux: the device's MTU with
    /// its link header, `psched_mtu`, 1514 on Ethernet).
    pub mtu: u32,
    /// Mark ECN-capable packets instead of dropping them (RFC 8289 §5.3; off in Linux's
    /// `codel`, on in `fq_codel`).
    pub ecn: bool,
}

impl Default for CodelParams {
    /// Linux's `codel_params_init`.
    fn default() -> Self {
        CodelParams {
            target: Duration::from_millis(5),
            interval: Duration::from_millis(100),
            mtu: 1514,
            ecn: false,
        }
    }
}

/// Bits of the fixed-point 1/sqrt(count) (`REC_INV_SQRT_BITS`), and the shift that widens it
/// to a Q0.32 number (`REC_INV_SQRT_SHIFT`).
const REC_INV_SQRT_BITS: u32 = 16;
const REC_INV_SQRT_SHIFT: u32 = 32 - REC_INV_SQRT_BITS;

/// CoDel's state for one queue (`struct codel_vars`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CodelVars {
    /// Drops (and marks) since entering the dropping state.
    pub count: u32,
    /// `count` when the last dropping state began, for the re-entry rule.
    pub lastcount: u32,
    pub dropping: bool,
    /// 1/sqrt(count), Q0.16.
    pub rec_inv_sqrt: u16,
    /// When the sojourn will have been above target for an interval; 0 while below.
    pub first_above_time: CodelTime,
    /// When the next drop is due while dropping.
    pub drop_next: CodelTime,
    /// The sojourn of the last packet dequeued.
    pub ldelay: CodelTime,
}

/// What CoDel did to a packet on its way out, and why: what the player explains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CodelDecision {
    /// How long the packet had waited.
    pub sojourn: Duration,
    /// Drops and marks of this dropping state, this one included.
    pub count: u32,
    /// When the next drop is due if the queue stays above target; `None` if the packet behind
    /// this one waited less than target, which ends the dropping state.
    pub next: Option<Instant>,
}

/// Newton's step for 1/sqrt(count) in fixed point (`codel_Newton_step`):
/// x' = x / 2 * (3 - count * x^2).
fn newton_step(v: &mut CodelVars) {
    let invsqrt = u32::from(v.rec_inv_sqrt) << REC_INV_SQRT_SHIFT;
    let invsqrt2 = ((u64::from(invsqrt) * u64::from(invsqrt)) >> 32) as u32;
    let mut val = (3u64 << 32).wrapping_sub(u64::from(v.count) * u64::from(invsqrt2));
    // Shifted first so that the product below fits in 64 bits, as Linux does.
    val >>= 2;
    val = (val.wrapping_mul(u64::from(invsqrt))) >> (32 - 2 + 1);
    v.rec_inv_sqrt = (val >> REC_INV_SQRT_SHIFT) as u16;
}

/// t + interval / sqrt(count) (`codel_control_law`, RFC 8289 §5.5), with 1/sqrt(count) from
/// [`newton_step`] and the product as `reciprocal_scale`.
fn control_law(t: CodelTime, interval: CodelTime, rec_inv_sqrt: u16) -> CodelTime {
    let scale = u64::from(rec_inv_sqrt) << REC_INV_SQRT_SHIFT;
    t.plus(CodelTime(((u64::from(interval.0) * scale) >> 32) as u32))
}

/// Whether the packet just dequeued may be dropped (`codel_should_drop`, RFC 8289 §5.4): its
/// sojourn has been at or above `target` for at least `interval`, and more than an MTU is left.
fn should_drop<P>(
    w: Option<&Waiting<P>>,
    v: &mut CodelVars,
    params: &CodelParams,
    backlog: u64,
    now: CodelTime,
) -> bool {
    let Some(w) = w else {
        v.first_above_time = CodelTime(0);
        return false;
    };
    v.ldelay = now.minus(CodelTime::of(w.enqueued));
    if v.ldelay.before(CodelTime::span(params.target)) || backlog <= u64::from(params.mtu) {
        // Below target (or too little queued to matter): it must stay above a whole interval
        // again before the next drop.
        v.first_above_time = CodelTime(0);
        return false;
    }
    if v.first_above_time == CodelTime(0) {
        v.first_above_time = now.plus(CodelTime::span(params.interval));
        false
    } else {
        now.after(v.first_above_time)
    }
}

impl CodelVars {
    /// The decision on `w` at `now`: its own sojourn (`ldelay` may by now be the next
    /// packet's), and the next drop's time while the dropping state lasts.
    fn decision<P>(&self, now: Instant, at: CodelTime, w: &Waiting<P>) -> CodelDecision {
        // `drop_next` in CoDel's clock, carried back to the run's: the same instant less what
        // the clock's rounding cut.
        let ahead = self.drop_next.minus(at);
        let next = if (ahead.0 as i32) >= 0 {
            now + ahead.as_duration()
        } else {
            now
        };
        CodelDecision {
            sojourn: now.saturating_duration_since(w.enqueued),
            count: self.count,
            next: self.dropping.then_some(next),
        }
    }

    /// The next packet for the link at `now` (`codel_dequeue`, RFC 8289 §5.5), dropping (or
    /// marking) on the way as the control law says. `verdict` hears of each packet dropped or
    /// marked, with CoDel's reason.
    pub fn dequeue<P, Q: Head<P>>(
        &mut self,
        params: &CodelParams,
        now: Instant,
        queue: &mut Q,
        verdict: &mut impl FnMut(Verdict, &Waiting<P>, CodelDecision),
    ) -> Option<Waiting<P>> {
        let Some(mut w) = queue.pop() else {
            self.dropping = false;
            return None;
        };
        let at = CodelTime::of(now);
        let interval = CodelTime::span(params.interval);
        let drop = should_drop(Some(&w), self, params, queue.backlog_bytes(), at);
        if self.dropping {
            if !drop {
                // The sojourn fell below target: leave the dropping state.
                self.dropping = false;
            } else {
                // A deep queue may owe several drops at once: hence the loop.
                while self.dropping && at.after_eq(self.drop_next) {
                    self.count = self.count.wrapping_add(1);
                    newton_step(self);
                    if params.ecn && w.ect {
                        w.ce = true;
                        self.drop_next = control_law(self.drop_next, interval, self.rec_inv_sqrt);
                        verdict(Verdict::Marked, &w, self.decision(now, at, &w));
                        return Some(w);
                    }
                    let next = queue.pop();
                    let stays = should_drop(next.as_ref(), self, params, queue.backlog_bytes(), at);
                    if stays {
                        self.drop_next = control_law(self.drop_next, interval, self.rec_inv_sqrt);
                    } else {
                        self.dropping = false;
                    }
                    verdict(Verdict::Dropped, &w, self.decision(now, at, &w));
                    match next {
                        Some(n) => w = n,
                        None => return None,
                    }
                }
            }
        } else if drop {
            let mut out = Some(w);
            let mut dropped = None;
            match out.as_mut() {
                Some(m) if params.ecn && m.ect => m.ce = true,
                _ => {
                    dropped = out.take();
                    out = queue.pop();
                    // Only to follow the sojourn of the packet now at the head (`ldelay`,
                    // `first_above_time`): the decision is taken.
                    should_drop(out.as_ref(), self, params, queue.backlog_bytes(), at);
                }
            }
            self.dropping = true;
            // Re-entering soon after the last dropping state: start from the drop rate that
            // controlled the queue then, rather than from one (RFC 8289 §5.6, Linux's
            // `delta > 1` within 16 intervals).
            let delta = self.count.wrapping_sub(self.lastcount);
            if delta > 1
                && at
                    .minus(self.drop_next)
                    .before(CodelTime(interval.0.wrapping_mul(16)))
            {
                self.count = delta;
                newton_step(self);
            } else {
                self.count = 1;
                self.rec_inv_sqrt = (u32::MAX >> REC_INV_SQRT_SHIFT) as u16;
            }
            self.lastcount = self.count;
            self.drop_next = control_law(at, interval, self.rec_inv_sqrt);
            match (&dropped, &out) {
                (Some(d), _) => verdict(Verdict::Dropped, d, self.decision(now, at, d)),
                (None, Some(m)) => verdict(Verdict::Marked, m, self.decision(now, at, m)),
                (None, None) => {}
            }
            return out;
        }
        Some(w)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Fifo;
    use super::*;

    const MS: u64 = 1_000_000;

    /// A 1500-byte packet that joined the queue at `enqueued`.
    fn waiting(enqueued: Instant, ect: bool) -> Waiting<()> {
        Waiting {
            packet: (),
            bytes: 1500,
            enqueued,
            flow: 0,
            ect,
            ce: false,
        }
    }

    /// What a run of CoDel over an overloaded link did.
    #[derive(Default)]
    struct Seen {
        drops: Vec<(Instant, CodelDecision)>,
        marks: Vec<(Instant, CodelDecision)>,
        /// Each packet sent on: when it left, and how long it had waited.
        sent: Vec<(Instant, Duration)>,
    }

    /// Packets of 1500 bytes arrive every `every` ns and the link takes `serve` ns for each,
    /// until `until` ns: CoDel at the head, the link asking whenever it is free.
    fn overload(every: u64, serve: u64, until: u64, params: CodelParams, ect: bool) -> Seen {
        let mut q = Fifo::new();
        let mut v = CodelVars::default();
        let mut seen = Seen::default();
        let (mut next_arrival, mut link_free) = (0u64, 0u64);
        while next_arrival < until || !q.is_empty() {
            if next_arrival < until && (next_arrival <= link_free || q.is_empty()) {
                q.push(waiting(Instant(next_arrival), ect));
                link_free = link_free.max(next_arrival);
                next_arrival += every;
                continue;
            }
            let now = Instant(link_free);
            let mut verdict = |what, _: &Waiting<()>, d: CodelDecision| match what {
                Verdict::Dropped => seen.drops.push((now, d)),
                Verdict::Marked => seen.marks.push((now, d)),
            };
            if let Some(w) = v.dequeue(&params, now, &mut q, &mut verdict) {
                seen.sent
                    .push((now, now.saturating_duration_since(w.enqueued)));
                link_free += serve;
            }
        }
        seen
    }

    /// Twice the link's rate for two seconds: 1500 bytes every 60 us into a 100 Mbit/s link.
    fn twice_the_rate(params: CodelParams, ect: bool) -> Seen {
        overload(60_000, 120_000, 2_000 * MS, params, ect)
    }

    #[test]
    fn rfc8289_5_4_the_first_drop_waits_an_interval_above_target() {
        let p = CodelParams::default();
        let seen = twice_the_rate(p, false);
        let above = seen
            .sent
            .iter()
            .find(|(_, sojourn)| *sojourn >= p.target)
            .map(|(t, _)| *t)
            .expect("the queue builds");
        let (first, d) = seen.drops[0];
        let waited = first.saturating_duration_since(above);
        // An interval, then the next dequeue: one packet's time and CoDel's 1024 ns clock.
        assert!(waited > p.interval, "{waited:?}");
        assert!(
            waited <= p.interval + Duration(120_000 + 2_048),
            "{waited:?}"
        );
        assert_eq!(d.count, 1);
        assert!(d.sojourn > p.target);
        // Through that interval every packet sent had waited at least the target: the
        // sojourn never fell below it, which would have restarted the wait.
        let through: Vec<_> = seen
            .sent
            .iter()
            .filter(|(t, _)| *t >= above && *t < first)
            .collect();
        assert!(through.len() > 500, "{} packets", through.len());
        assert!(through.iter().all(|(_, sojourn)| *sojourn >= p.target));
    }

    #[test]
    fn rfc8289_5_5_drops_come_interval_over_sqrt_count_apart() {
        let p = CodelParams::default();
        let seen = twice_the_rate(p, false);
        assert!(seen.drops.len() >= 20, "{} drops", seen.drops.len());
        for pair in seen.drops.windows(2).take(30) {
            let count = pair[0].1.count;
            let gap = pair[1].0.saturating_duration_since(pair[0].0).as_secs_f64() * 1e3;
            // Linux's 1/sqrt(count) is one Newton step a drop from 1: 0.5 at count 2 (not
            // 0.707), within 1.3 % from count 5 and 0.5 % from count 9 (see below).
            let law = match count {
                1 => 100.0,
                2 => 50.0,
                n => 100.0 / f64::from(n).sqrt(),
            };
            let slack = if count < 5 { 0.03 } else { 0.013 };
            // Each drop waits for the first dequeue at or after its time: a packet's 0.12 ms.
            assert!(
                (gap - law).abs() < slack * law + 0.13,
                "after drop {count}: {gap} ms, law {law} ms"
            );
            assert_eq!(pair[1].1.count, count + 1);
            // Each drop says when the next is due: where the next one comes.
            let said = pair[0].1.next.map_or(f64::NAN, Instant::as_millis_f64);
            let came = pair[1].0.as_millis_f64();
            assert!((came - said).abs() < 0.13, "said {said}, came {came}");
        }
    }

    #[test]
    fn below_target_no_packet_is_dropped() {
        // 90 % load: a queue comes and goes, never standing at 5 ms.
        let seen = overload(133_333, 120_000, 2_000 * MS, CodelParams::default(), false);
        assert!(seen.drops.is_empty() && seen.marks.is_empty());
        assert!(seen.sent.iter().all(|(_, s)| *s < Duration::from_millis(5)));
    }

    #[test]
    fn a_queue_of_one_mtu_is_never_dropped_from() {
        // One packet at a time on a slow link: each waits long (120 ms) but alone.
        let seen = overload(
            130 * MS,
            120 * MS,
            2_000 * MS,
            CodelParams::default(),
            false,
        );
        assert!(seen.drops.is_empty());
        let mut v = CodelVars {
            first_above_time: CodelTime(1),
            ..CodelVars::default()
        };
        let w = waiting(Instant(0), false);
        let p = CodelParams::default();
        let now = CodelTime::of(Instant(1_000 * MS));
        assert!(!should_drop(Some(&w), &mut v, &p, 1514, now));
        v.first_above_time = CodelTime(1);
        assert!(should_drop(Some(&w), &mut v, &p, 1515, now));
    }

    #[test]
    fn rfc8289_5_3_with_ecn_a_capable_packet_is_marked_not_dropped() {
        let p = CodelParams {
            ecn: true,
            ..CodelParams::default()
        };
        let marked = twice_the_rate(p, true);
        assert!(marked.drops.is_empty());
        assert!(marked.marks.len() >= 20);
        // Up to the first action the two runs are one: the first mark where the first drop was.
        let dropped = twice_the_rate(CodelParams::default(), true);
        assert_eq!(marked.marks[0].0, dropped.drops[0].0);
        // A packet that is not ECN-capable is dropped even with ECN on.
        let plain = twice_the_rate(p, false);
        assert!(plain.marks.is_empty() && !plain.drops.is_empty());
    }

    #[test]
    fn rfc8289_5_6_re_entering_soon_resumes_the_last_drop_rate() {
        let p = CodelParams::default();
        let head = |q: &mut Fifo<()>| {
            for _ in 0..10 {
                q.push(waiting(Instant(0), false));
            }
        };
        let now = Instant(1_000 * MS);
        let at = CodelTime::of(now);
        let mut ignore = |_, _: &Waiting<()>, _| {};
        for (since_last, count) in [(50u64, 6u32), (1_700, 1)] {
            let mut v = CodelVars {
                count: 10,
                lastcount: 4,
                // Above target for more than an interval already.
                first_above_time: at.minus(CodelTime(1000)),
                drop_next: at.minus(CodelTime::span(Duration::from_millis(since_last))),
                ..CodelVars::default()
            };
            let mut q = Fifo::new();
            head(&mut q);
            v.dequeue(&p, now, &mut q, &mut ignore);
            assert!(v.dropping);
            assert_eq!(v.count, count, "{since_last} ms after the last drop");
        }
    }

    #[test]
    fn newton_s_step_follows_one_over_the_square_root() {
        let mut v = CodelVars {
            count: 1,
            rec_inv_sqrt: u16::MAX,
            ..CodelVars::default()
        };
        for n in 2..=2_000u32 {
            v.count = n;
            newton_step(&mut v);
            let got = f64::from(v.rec_inv_sqrt) / 65_536.0;
            let want = 1.0 / f64::from(n).sqrt();
            match n {
                // Linux's first steps from 1: far off, then quadratically closer.
                2 => assert_eq!(v.rec_inv_sqrt, 32_769),
                3 => assert_eq!(v.rec_inv_sqrt, 36_864),
                4 => assert!((got - want).abs() / want < 0.025, "count {n}: {got}"),
                5..=8 => assert!((got - want).abs() / want < 0.013, "count {n}: {got}"),
                _ => assert!((got - want).abs() / want < 0.005, "count {n}: {got}"),
            }
        }
        // The control law of a 100 ms interval at count 4: 50 ms, in CoDel's clock.
        v.count = 4;
        v.rec_inv_sqrt = 1 << 15;
        let next = control_law(
            CodelTime(0),
            CodelTime::span(Duration::from_millis(100)),
            v.rec_inv_sqrt,
        );
        assert_eq!(next.0, ((100 * MS) >> SHIFT) as u32 / 2);
    }
}
