//! PIE, Proportional Integral controller Enhanced (RFC 8033), as Linux's `sch_pie.c` runs it:
//! a drop probability, updated every `tupdate` from how far the queueing delay is above
//! `target` and how fast it is moving, applied to packets as they arrive; a burst allowance
//! of 150 ms during which nothing is dropped early; and the de-randomisation of RFC 8033 §5.1
//! that keeps drops from bunching or starving.
//!
//! Linux's fixed-point arithmetic is kept: time in psched ticks of 64 ns, the probability as
//! a fraction of `u64::MAX >> 8` (`MAX_PROB`), alpha and beta in sixteenths scaled down by
//! powers of four while the probability is small (RFC 8033 §4.2's auto-tuning). The queueing
//! delay is each departing packet's own sojourn (Linux's default; the departure-rate estimator
//! of RFC 8033 §4.3 is not modelled). Drops happen on arrival, so PIE needs no event of its
//! own beyond its update timer: the bottleneck reports each departure and tick in time order.

use crate::time::{Duration, Instant};

/// `MAX_PROB`: probability 1.
pub const MAX_PROB: u64 = u64::MAX >> 8;

/// `PSCHED_SHIFT`: Linux's packet-scheduler clock ticks every 64 ns.
const PSCHED_SHIFT: u32 = 6;
const TICKS_PER_SEC: u64 = 1_000_000_000 >> PSCHED_SHIFT;

fn ticks(d: Duration) -> u64 {
    d.as_nanos() >> PSCHED_SHIFT
}

/// PIE's settings (`pie_params_init`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PieParams {
    /// The queueing delay aimed at (RFC 8033 §4.1: 15 ms).
    pub target: Duration,
    /// How often the probability is updated: Linux's 15 ms in whole jiffies, 16 ms at HZ 250
    /// (`usecs_to_jiffies` rounds up).
    pub tupdate: Duration,
    /// Packets held at most (`limit`, 1000).
    pub limit: usize,
    /// The weights of the delay's distance from target and of its trend, in sixteenths
    /// (RFC 8033 §4.2: 0.125 and 1.25 Hz; Linux's 2 and 20).
    pub alpha: u32,
    pub beta: u32,
    /// Mark ECN-capable packets instead of dropping them while the probability is at most
    /// 10 % (RFC 8033 §5.1).
    pub ecn: bool,
    /// Scale the probability by the packet's size against the MTU.
    pub bytemode: bool,
    /// Linux's `psched_mtu`: 1514 bytes on Ethernet.
    pub mtu: u32,
}

impl Default for PieParams {
    fn default() -> Self {
        PieParams {
            target: Duration::from_millis(15),
            tupdate: Duration::from_millis(16),
            limit: 1000,
            alpha: 2,
            beta: 20,
            ecn: false,
            bytemode: false,
            mtu: 1514,
        }
    }
}

/// The burst allowance (RFC 8033 §4.4: 150 ms), in ticks.
const BURST_TICKS: u64 = 150_000_000 >> PSCHED_SHIFT;

/// PIE's state (`struct pie_vars`, without the rate estimator's fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PieVars {
    /// The latest queueing delay, and the one at the previous update, in ticks.
    pub qdelay: u64,
    pub qdelay_old: u64,
    /// Burst allowance left, in ticks.
    pub burst_time: u64,
    /// The last departure, in ticks; `None` before the first.
    pub dq_tstamp: Option<u64>,
    /// The drop probability, of [`MAX_PROB`].
    pub prob: u64,
    /// Probability accumulated since the last drop (RFC 8033 §5.1's de-randomisation).
    pub accu_prob: u64,
}

impl Default for PieVars {
    /// `pie_vars_init`.
    fn default() -> Self {
        PieVars {
            qdelay: 0,
            qdelay_old: 0,
            burst_time: BURST_TICKS,
            dq_tstamp: None,
            prob: 0,
            accu_prob: 0,
        }
    }
}

/// What PIE does with an arriving packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admit {
    Enqueue,
    /// Marked CE and enqueued.
    Mark,
    /// Dropped by the controller (`pie_drop_early`).
    DropEarly,
    /// Dropped for want of room (`limit`).
    Overlimit,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Pie {
    pub params: PieParams,
    pub vars: PieVars,
    /// When the next probability update is due: half a second after start, then every
    /// `tupdate` (`pie_init`'s `mod_timer(jiffies + HZ / 2)`).
    pub next_update: Instant,
}

impl Pie {
    /// The packet limit from now on.
    pub fn set_limit(&mut self, limit: usize) {
        self.params.limit = limit;
    }

    pub fn new(params: PieParams, start: Instant) -> Pie {
        Pie {
            params,
            vars: PieVars::default(),
            next_update: start + Duration::from_millis(500),
        }
    }

    /// Whether to drop an arriving packet early (`pie_drop_early`, RFC 8033 §4.1 and §5.1).
    /// `random` draws 64 random bits.
    fn drop_early(&mut self, backlog: u64, bytes: u32, random: &mut impl FnMut() -> u64) -> bool {
        let (p, v) = (&self.params, &mut self.vars);
        // Within the burst allowance: nothing (RFC 8033 §4.4).
        if v.burst_time > 0 {
            return false;
        }
        // Well under target with a small probability: nothing (RFC 8033 §5.1).
        if v.qdelay < ticks(p.target) / 2 && v.prob < MAX_PROB / 5 {
            return false;
        }
        // Fewer than two MTUs queued: nothing, like RED's min_th.
        if backlog < 2 * u64::from(p.mtu) {
            return false;
        }
        let local = if p.bytemode && bytes <= p.mtu {
            u64::from(bytes).wrapping_mul(v.prob / u64::from(p.mtu))
        } else {
            v.prob
        };
        if local == 0 {
            v.accu_prob = 0;
        } else {
            v.accu_prob = v.accu_prob.wrapping_add(local);
        }
        // De-randomised: never before 0.85 accumulated, always by 8.5 (RFC 8033 §5.1).
        if v.accu_prob < (MAX_PROB / 100) * 85 {
            return false;
        }
        if v.accu_prob >= (MAX_PROB / 2) * 17 {
            return true;
        }
        if (random() >> 8) < local {
            v.accu_prob = 0;
            return true;
        }
        false
    }

    /// An arriving packet (`pie_qdisc_enqueue`), with `qlen` packets and `backlog` bytes
    /// already waiting.
    pub fn admit(
        &mut self,
        qlen: usize,
        backlog: u64,
        bytes: u32,
        ect: bool,
        random: &mut impl FnMut() -> u64,
    ) -> Admit {
        let verdict = if qlen >= self.params.limit {
            Admit::Overlimit
        } else if !self.drop_early(backlog, bytes, random) {
            return Admit::Enqueue;
        } else if self.params.ecn && self.vars.prob <= MAX_PROB / 10 && ect {
            return Admit::Mark;
        } else {
            Admit::DropEarly
        };
        self.vars.accu_prob = 0;
        verdict
    }

    /// A packet left at `now`, having waited since `enqueued`, leaving `backlog` bytes
    /// (`pie_process_dequeue`, the timestamp way).
    pub fn departed(&mut self, now: Instant, enqueued: Instant, backlog: u64) {
        let v = &mut self.vars;
        let at = now.as_nanos() >> PSCHED_SHIFT;
        v.qdelay = at.wrapping_sub(enqueued.as_nanos() >> PSCHED_SHIFT);
        let dtime = v.dq_tstamp.map_or(0, |t| at.wrapping_sub(t));
        v.dq_tstamp = Some(at);
        if backlog == 0 {
            v.qdelay = 0;
        }
        // The burst allowance runs down with the time between departures.
        v.burst_time = v.burst_time.saturating_sub(dtime);
    }

    /// The periodic update (`pie_calculate_probability`, RFC 8033 §4.2), with `backlog` bytes
    /// waiting; the next is `tupdate` later.
    pub fn update(&mut self, backlog: u64) {
        self.next_update += self.params.tupdate;
        let (p, v) = (&self.params, &mut self.vars);
        let (qdelay, qdelay_old) = (v.qdelay, v.qdelay_old);
        // A delay of zero with a backlog means a tiny queue: no update this round.
        let mut update_prob = !(qdelay == 0 && backlog != 0);
        let mut alpha = (u64::from(p.alpha) * (MAX_PROB / TICKS_PER_SEC)) >> 4;
        let mut beta = (u64::from(p.beta) * (MAX_PROB / TICKS_PER_SEC)) >> 4;
        // Auto-tuning: gentler steps while the probability is small (RFC 8033 §4.2).
        if v.prob < MAX_PROB / 10 {
            alpha >>= 1;
            beta >>= 1;
            let mut power = 100u64;
            while v.prob < MAX_PROB / power && power <= 1_000_000 {
                alpha >>= 2;
                beta >>= 2;
                power *= 10;
            }
        }
        let target = ticks(p.target);
        let mut delta = (alpha as i64).wrapping_mul(qdelay.wrapping_sub(target) as i64);
        delta =
            delta.wrapping_add((beta as i64).wrapping_mul(qdelay.wrapping_sub(qdelay_old) as i64));
        let old = v.prob;
        // Steps of at most 2 % once the probability is 10 % or more.
        if delta > (MAX_PROB / 50) as i64 && v.prob >= MAX_PROB / 10 {
            delta = ((MAX_PROB / 100) * 2) as i64;
        }
        // Over 250 ms of delay: 2 % more at once.
        if qdelay > 250_000_000 >> PSCHED_SHIFT {
            delta = delta.wrapping_add((MAX_PROB / 50) as i64);
        }
        v.prob = v.prob.wrapping_add(delta as u64);
        if delta > 0 {
            if v.prob < old {
                v.prob = MAX_PROB;
                update_prob = false;
            }
        } else if v.prob > old {
            v.prob = 0;
        }
        // No delay two updates running: the probability decays by 1/64.
        if qdelay == 0 && qdelay_old == 0 && update_prob {
            v.prob -= v.prob / 64;
        }
        v.qdelay = qdelay;
        // Low delay two updates running and nothing to drop: start afresh, burst allowance
        // included.
        if v.qdelay < target / 2 && v.qdelay_old < target / 2 && v.prob == 0 {
            *v = PieVars::default();
        }
        v.qdelay_old = qdelay;
    }

    /// The drop probability, 0 to 1.
    pub fn probability(&self) -> f64 {
        self.vars.prob as f64 / MAX_PROB as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SimRng;

    const MS: u64 = 1_000_000;

    fn ms_ticks(ms: u64) -> u64 {
        (ms * MS) >> PSCHED_SHIFT
    }

    fn pie_with(prob: u64, qdelay_ms: u64, qdelay_old_ms: u64) -> Pie {
        let mut pie = Pie::new(PieParams::default(), Instant(0));
        pie.vars.prob = prob;
        pie.vars.qdelay = ms_ticks(qdelay_ms);
        pie.vars.qdelay_old = ms_ticks(qdelay_old_ms);
        pie
    }

    #[test]
    fn rfc8033_4_2_the_probability_follows_the_delay_s_distance_and_trend() {
        // 10 ms above target, steady: up. 10 ms below, steady: down.
        let mut up = pie_with(MAX_PROB / 5, 25, 25);
        up.update(100_000);
        assert!(up.vars.prob > MAX_PROB / 5);
        let mut down = pie_with(MAX_PROB / 5, 5, 5);
        down.update(100_000);
        assert!(down.vars.prob < MAX_PROB / 5);
        // At target but rising: up, by beta's share.
        let mut rising = pie_with(MAX_PROB / 5, 15, 10);
        rising.update(100_000);
        assert!(rising.vars.prob > MAX_PROB / 5);
        // alpha = 0.125 per second of delay: 10 ms above for one update adds 0.125 * 0.01.
        let step = (up.vars.prob - MAX_PROB / 5) as f64 / MAX_PROB as f64;
        assert!((step - 0.00125).abs() < 0.00002, "{step}");
    }

    #[test]
    fn rfc8033_4_2_small_probabilities_take_smaller_steps() {
        // The same delays from 20 % and from 0.5 %: the step is 2 * 4 = 8 times smaller
        // (alpha halved, then quartered once, below 1 %).
        let step = |prob: u64| {
            let mut p = pie_with(prob, 25, 25);
            p.update(100_000);
            p.vars.prob - prob
        };
        let big = step(MAX_PROB / 5);
        let small = step(MAX_PROB / 200);
        let ratio = big as f64 / small as f64;
        assert!((ratio - 8.0).abs() < 0.01, "{ratio}");
    }

    #[test]
    fn rfc8033_4_2_steps_are_capped_and_a_huge_delay_pushes_harder() {
        // Far above target from 50 %: at most 2 % a step.
        let mut p = pie_with(MAX_PROB / 2, 200, 100);
        p.update(100_000);
        let step = (p.vars.prob - MAX_PROB / 2) as f64 / MAX_PROB as f64;
        assert!((step - 0.02).abs() < 1e-9, "{step}");
        // Over 250 ms: the capped 2 % and 2 % more.
        let mut q = pie_with(MAX_PROB / 2, 300, 200);
        q.update(100_000);
        let step = (q.vars.prob - MAX_PROB / 2) as f64 / MAX_PROB as f64;
        assert!((step - 0.04).abs() < 1e-9, "{step}");
    }

    #[test]
    fn no_delay_two_updates_running_decays_the_probability_then_starts_afresh() {
        let mut p = pie_with(MAX_PROB / 4, 0, 0);
        p.vars.burst_time = 0;
        p.update(0);
        // The controller's own step down, then 1/64 less.
        assert!(p.vars.prob < MAX_PROB / 4 - MAX_PROB / 4 / 64);
        let mut idle = pie_with(0, 0, 0);
        idle.vars.burst_time = 0;
        idle.update(0);
        assert_eq!(idle.vars, PieVars::default(), "the burst allowance is back");
    }

    #[test]
    fn rfc8033_4_4_nothing_is_dropped_early_within_the_burst_allowance() {
        let mut p = pie_with(MAX_PROB / 2, 100, 100);
        let mut rng = SimRng::new(1);
        let mut random = || rng.next_u64();
        for _ in 0..1000 {
            assert_eq!(
                p.admit(10, 100_000, 1500, false, &mut random),
                Admit::Enqueue
            );
        }
        // Departures 1 ms apart for 150 ms use the allowance up.
        for i in 1..=151 {
            p.departed(Instant(i * MS), Instant(0), 100_000);
        }
        assert_eq!(p.vars.burst_time, 0);
        let drops = (0..1000)
            .filter(|_| p.admit(10, 100_000, 1500, false, &mut random) == Admit::DropEarly)
            .count();
        // One packet that cannot be, then each with the chance 1/2: one in three.
        assert!((280..400).contains(&drops), "{drops} of 1000 at 50 %");
    }

    #[test]
    fn rfc8033_5_1_drops_are_de_randomised() {
        // At 10 %, drops come no closer than every 9th packet and no further than the 85th.
        let mut p = pie_with(MAX_PROB / 10, 30, 30);
        p.vars.burst_time = 0;
        let mut rng = SimRng::new(7);
        let mut random = || rng.next_u64();
        let mut gaps = Vec::new();
        let mut since = 0;
        for _ in 0..20_000 {
            since += 1;
            if p.admit(10, 100_000, 1500, false, &mut random) == Admit::DropEarly {
                gaps.push(since);
                since = 0;
            }
        }
        assert!(gaps.len() > 1000);
        assert!(
            gaps.iter().all(|g| (9..=85).contains(g)),
            "{:?}",
            gaps.iter().min()
        );
        let mean = gaps.iter().sum::<usize>() as f64 / gaps.len() as f64;
        // Eight packets that cannot be dropped, then each with the chance p: 8 + 1/p = 18.
        assert!((17.0..19.0).contains(&mean), "{mean}");
    }

    #[test]
    fn little_queues_and_full_ones() {
        let mut p = pie_with(MAX_PROB / 2, 100, 100);
        p.vars.burst_time = 0;
        let mut random = || u64::MAX;
        // Under two MTUs: never dropped early.
        assert_eq!(p.admit(1, 3_000, 1500, false, &mut random), Admit::Enqueue);
        // At the limit: dropped, whatever the controller says.
        assert_eq!(
            p.admit(1000, 3_000, 1500, false, &mut random),
            Admit::Overlimit
        );
        // ECN-capable at a probability of 10 % or less: marked, not dropped.
        let mut m = pie_with(MAX_PROB / 10, 30, 30);
        m.params.ecn = true;
        m.vars.burst_time = 0;
        m.vars.accu_prob = (MAX_PROB / 2) * 17;
        assert_eq!(m.admit(10, 100_000, 1500, true, &mut random), Admit::Mark);
        m.vars.accu_prob = (MAX_PROB / 2) * 17;
        assert_eq!(
            m.admit(10, 100_000, 1500, false, &mut random),
            Admit::DropEarly
        );
    }

    #[test]
    fn rfc8033_4_an_overloaded_link_s_delay_is_held_near_target() {
        // Twice the link's rate, unresponsive, for 20 s: 1500 bytes every 60 us into a link
        // that takes 120 us each. PIE raises its probability until the queue stops growing.
        let mut pie = Pie::new(PieParams::default(), Instant(0));
        let mut rng = SimRng::new(3);
        let mut random = || rng.next_u64();
        let mut queue: std::collections::VecDeque<u64> = Default::default();
        let (mut next_arrival, mut link_free) = (0u64, 0u64);
        let mut sojourns = Vec::new();
        while next_arrival < 20_000 * MS {
            let next_tick = pie.next_update.as_nanos();
            let departure = if queue.is_empty() {
                u64::MAX
            } else {
                link_free
            };
            if next_tick <= next_arrival.min(departure) {
                let backlog = 1500 * queue.len() as u64;
                pie.update(backlog);
            } else if departure <= next_arrival {
                let enqueued = queue.pop_front().unwrap_or(departure);
                pie.departed(
                    Instant(departure),
                    Instant(enqueued),
                    1500 * queue.len() as u64,
                );
                if departure > 5_000 * MS {
                    sojourns.push(departure - enqueued);
                }
                link_free = departure + 120_000;
            } else {
                let backlog = 1500 * queue.len() as u64;
                if pie.admit(queue.len(), backlog, 1500, false, &mut random) == Admit::Enqueue {
                    if queue.is_empty() {
                        link_free = link_free.max(next_arrival);
                    }
                    queue.push_back(next_arrival);
                }
                next_arrival += 60_000;
            }
        }
        sojourns.sort_unstable();
        let median = sojourns[sojourns.len() / 2] as f64 / 1e6;
        assert!((10.0..25.0).contains(&median), "median sojourn {median} ms");
        // Half the packets must go: the probability has found about that.
        assert!(pie.probability() > 0.3, "{}", pie.probability());
    }
}
