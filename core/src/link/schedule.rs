//! The path's settings over a run: the scenario's values, then its schedule's changes
//! (`sched`), each taking effect at its instant exactly.
//!
//! The bottleneck's rate applies to a packet by the instant it goes onto the link, so a packet
//! already waiting when the rate falls leaves at the new rate; the packet on the link at that
//! instant finishes at the old one, as a real interface finishes the frame it is clocking out.
//! The delays apply by the instant a packet enters the wire; a packet never overtakes the one
//! ahead of it on the same wire when the delay shrinks (`DelayLine::push_at`). Loss rates and
//! the queue's limit apply to the packets offered from their instant on.

use crate::scenario::sched::{Change, Setting};
use crate::scenario::Scenario;
use crate::time::{serialisation_time, Duration, Instant};

/// The instant of a change `at_s` seconds into the run.
fn instant(c: &Change) -> Instant {
    Instant::from_secs_f64(c.at_s)
}

fn bits_per_s(mbps: f64) -> u64 {
    (mbps * 1e6).round().max(1.0) as u64
}

/// The bottleneck's rate over the run, read at instants that never go back (a FIFO link's
/// starts ascend).
#[derive(Debug, Clone)]
pub struct Rates {
    now: u64,
    /// Changes still to come, in order.
    changes: Vec<(Instant, u64)>,
    next: usize,
    /// The latest packet size at the latest rate, and its time on the link: most packets are
    /// one size, and the exact time takes a 128-bit division.
    last: (u32, u64, Duration),
    /// A link of delivery opportunities (`link`: a trace, `lte`, `wifi`) in place of the rate.
    opportunities: Option<super::opportunity::Opportunities>,
}

impl Rates {
    pub fn constant(bits_per_s: u64) -> Rates {
        Rates {
            now: bits_per_s,
            changes: Vec::new(),
            next: 0,
            last: (0, bits_per_s, Duration::ZERO),
            opportunities: None,
        }
    }

    /// The scenario's rate, then its schedule's `bw` changes; or its link's opportunities,
    /// which a schedule's `bw` does not change (the scenario refuses the two together).
    pub fn of(s: &Scenario) -> Rates {
        let mut r = Rates::constant(bits_per_s(s.bw_mbps));
        if let Some(model) = s.link_model() {
            r.now = (model.mean_bits_per_s().round() as u64).max(1);
            r.opportunities = Some(super::opportunity::Opportunities::new(&model));
            return r;
        }
        r.changes = s
            .sched
            .iter()
            .filter_map(|c| match c.setting {
                Setting::Bw(mbps) => Some((instant(c), bits_per_s(mbps))),
                _ => None,
            })
            .collect();
        r
    }

    /// The rate in force at `t`.
    pub fn at(&mut self, t: Instant) -> u64 {
        while let Some(&(when, rate)) = self.changes.get(self.next) {
            if when > t {
                break;
            }
            self.now = rate;
            self.next += 1;
        }
        self.now
    }

    /// How long `bytes` take on the link when they go onto it at `start`: on a link of
    /// opportunities, until the one that delivers their last byte.
    #[inline(always)]
    pub fn serialisation(&mut self, start: Instant, bytes: u32) -> Duration {
        if let Some(o) = self.opportunities.as_mut() {
            return o.depart(start, bytes) - start;
        }
        let rate = self.at(start);
        if (self.last.0, self.last.1) != (bytes, rate) {
            self.last = (bytes, rate, serialisation_time(u64::from(bytes), rate));
        }
        self.last.2
    }
}

/// The settings offered packets meet: a change applies to every packet offered at or after
/// its instant.
#[derive(Debug, Clone)]
pub struct Changes {
    changes: Vec<(Instant, Setting)>,
    next: usize,
}

impl Changes {
    /// The schedule's changes other than the rate's, which [`Rates`] carries.
    pub fn of(s: &Scenario) -> Changes {
        Changes {
            changes: s
                .sched
                .iter()
                .filter(|c| !matches!(c.setting, Setting::Bw(_)))
                .map(|c| (instant(c), c.setting))
                .collect(),
            next: 0,
        }
    }

    /// The next change due by `now`, if any; each is given once, in order.
    pub fn due(&mut self, now: Instant) -> Option<Setting> {
        let &(when, setting) = self.changes.get(self.next)?;
        if when > now {
            return None;
        }
        self.next += 1;
        Some(setting)
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

/// The one-way delays over the run: a flow's RTT, then the schedule's `rtt` changes (which
/// set every flow's), split as [`super::PathShape`] splits it.
#[derive(Debug, Clone)]
pub struct Delays {
    /// (from, data direction, ACK direction), the first from zero.
    spans: Vec<(Instant, Duration, Duration)>,
}

impl Delays {
    /// The delays of a flow whose own RTT is `rtt_ms` (the scenario's, or its per-flow list's).
    pub fn of(s: &Scenario, rtt_ms: f64) -> Delays {
        let split = |rtt_ms: f64| {
            let rtt = Duration::from_millis_f64(rtt_ms);
            let data = rtt / 2;
            (data, rtt - data)
        };
        let (d, a) = split(rtt_ms);
        let mut spans = vec![(Instant::ZERO, d, a)];
        for c in &s.sched {
            if let Setting::Rtt(ms) = c.setting {
                let (d, a) = split(ms);
                spans.push((instant(c), d, a));
            }
        }
        Delays { spans }
    }

    #[inline(always)]
    fn span(&self, t: Instant) -> (Instant, Duration, Duration) {
        // Asked for every packet: a path whose delays never change is answered without a search.
        if let [only] = self.spans[..] {
            return only;
        }
        let i = self.spans.partition_point(|s| s.0 <= t);
        self.spans[i.saturating_sub(1)]
    }

    /// The data direction's delay for a packet entering its wire at `t`.
    pub fn data(&self, t: Instant) -> Duration {
        self.span(t).1
    }

    /// The ACK direction's delay for a packet entering its wire at `t`.
    pub fn ack(&self, t: Instant) -> Duration {
        self.span(t).2
    }

    /// Whether the delays ever change.
    pub fn changing(&self) -> bool {
        self.spans.len() > 1
    }
}

/// ACK aggregation (`ackagg`): what the ACK direction holds is released together on a grid
/// of `every` from the start of the run, as a Wi-Fi station's block ACK or a cellular uplink's
/// scheduling grant releases what queued since the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AckAggregation {
    pub every: Duration,
}

impl AckAggregation {
    pub fn of(s: &Scenario) -> Option<AckAggregation> {
        let every = Duration::from_millis_f64(s.ackagg_ms);
        (every > Duration::ZERO).then_some(AckAggregation { every })
    }

    /// When a packet offered at `now` is released: the next instant of the grid, `now` itself
    /// if it is on it.
    pub fn release(self, now: Instant) -> Instant {
        let every = self.every.as_nanos();
        Instant(now.as_nanos().div_ceil(every) * every)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(q: &str) -> Scenario {
        Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"))
    }

    #[test]
    fn the_rate_changes_at_its_instant_exactly() {
        let mut r = Rates::of(&scenario("bw=100&sched=1:bw:10,2:bw:1000"));
        let s = Instant::from_secs_f64;
        assert_eq!(r.serialisation(s(0.5), 1500), Duration(120_000));
        assert_eq!(
            r.serialisation(Instant(999_999_999), 1500),
            Duration(120_000)
        );
        assert_eq!(r.serialisation(s(1.0), 1500), Duration(1_200_000));
        assert_eq!(r.serialisation(s(2.0), 1500), Duration(12_000));
    }

    #[test]
    fn delays_follow_the_rtt_changes_split_as_the_shape() {
        let s = scenario("rtt=20&sched=5:rtt:100.000001");
        let d = Delays::of(&s, s.rtt_ms);
        assert_eq!(
            d.data(Instant::from_secs_f64(4.9)),
            Duration::from_millis(10)
        );
        let at = Instant::from_secs_f64(5.0);
        assert_eq!(d.data(at), Duration(50_000_000));
        assert_eq!(d.ack(at), Duration(50_000_001));
        assert!(d.changing());
        assert!(!Delays::of(&scenario("rtt=20"), 20.0).changing());
        // Another flow's own RTT, until the schedule sets every flow's.
        let other = Delays::of(&s, 80.0);
        assert_eq!(
            other.data(Instant::from_secs_f64(4.9)),
            Duration::from_millis(40)
        );
        assert_eq!(other.data(at), Duration(50_000_000));
    }

    #[test]
    fn other_changes_come_once_each_in_order() {
        let mut c = Changes::of(&scenario("sched=1:loss:2,1:queue:5,3:bw:1,4:ackloss:1"));
        let s = Instant::from_secs_f64;
        assert_eq!(c.due(s(0.9)), None);
        assert_eq!(c.due(s(1.0)), Some(Setting::Loss(2.0)));
        assert_eq!(c.due(s(1.0)), Some(Setting::Queue(5)));
        assert_eq!(c.due(s(3.5)), None);
        assert_eq!(c.due(s(9.0)), Some(Setting::Ackloss(1.0)));
        assert_eq!(c.due(s(9.0)), None);
    }

    #[test]
    fn acks_are_released_on_the_grid() {
        let agg = AckAggregation::of(&scenario("ackagg=4")).expect("on");
        assert_eq!(agg.release(Instant(0)), Instant(0));
        assert_eq!(agg.release(Instant(1)), Instant(4_000_000));
        assert_eq!(agg.release(Instant(4_000_000)), Instant(4_000_000));
        assert_eq!(agg.release(Instant(7_999_999)), Instant(8_000_000));
        assert_eq!(AckAggregation::of(&scenario("")), None);
    }
}
