//! Random Early Detection (Floyd and Jacobson, "Random Early Detection Gateways for Congestion
//! Avoidance", 1993), with Floyd's gentle variant (2000): an exponentially weighted average of
//! the queue in packets, and a drop (or ECN mark) probability that rises from 0 at `min_th`
//! to `max_p` at `max_th`, then, gently, on to 1 at twice `max_th`. Decisions are taken as
//! packets arrive, as in the paper's Figure 2.
//!
//! Linux's `sch_red` differs: it works in bytes, through tc's `Wlog`/`Plog` scaling, and has
//! no gentle region; the lab follows the paper, in packets, which is what a class meets in a
//! textbook. The idle-time damping `(1 - w_q)^m` is taken by repeated squaring of exact
//! products so that every platform computes the same average.

use crate::time::{Duration, Instant};

/// RED's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RedParams {
    /// The average queue (packets) below which nothing is dropped (the paper's `min_th`;
    /// Floyd's recommendation: 5).
    pub min_th: f64,
    /// The average at which the probability reaches `max_p` (`max_th`; recommended 3 x
    /// `min_th`).
    pub max_th: f64,
    /// The probability at `max_th` (Floyd's revised recommendation: 0.1).
    pub max_p: f64,
    /// The weight of the newest queue length in the average (`w_q`: 0.002).
    pub w_q: f64,
    /// The time to send a typical packet, by which an idle period counts as that many
    /// arrivals of an empty queue (the paper's `s`).
    pub typical: Duration,
    /// Mark ECN-capable packets instead of dropping them below the forced region.
    pub ecn: bool,
}

impl RedParams {
    /// Floyd's recommended settings (min_th 5, max_th 15 packets, max_p 0.1, w_q 0.002), on a
    /// link whose typical packet takes `typical`, dropping rather than marking.
    pub fn floyd(typical: Duration) -> RedParams {
        RedParams {
            min_th: 5.0,
            max_th: 15.0,
            max_p: 0.1,
            w_q: 0.002,
            typical,
            ecn: false,
        }
    }
}

/// What RED does with an arriving packet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RedAdmit {
    Enqueue,
    /// Marked CE: it joins the queue (RFC 3168 §5).
    Mark {
        average: f64,
        probability: f64,
    },
    /// Dropped early, with the average and the probability it was dropped with (1 in the
    /// forced region, past twice `max_th`).
    Drop {
        average: f64,
        probability: f64,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Red {
    params: RedParams,
    /// The average queue (`avg`), packets.
    average: f64,
    /// Packets since the last drop or mark while the average was in the probabilistic
    /// region (`count`; `None` is the paper's -1: below `min_th`).
    count: Option<u32>,
    /// When the queue last went empty (`q_time`), if it is empty.
    idle_since: Option<Instant>,
}

impl Red {
    pub fn new(params: RedParams) -> Red {
        Red {
            params,
            average: 0.0,
            count: None,
            idle_since: Some(Instant::ZERO),
        }
    }

    pub fn average(&self) -> f64 {
        self.average
    }

    /// A packet arrives at `now` to a queue of `qlen` packets; `uniform` draws from [0, 1).
    pub fn admit(
        &mut self,
        now: Instant,
        qlen: usize,
        ect: bool,
        uniform: &mut impl FnMut() -> f64,
    ) -> RedAdmit {
        let p = self.params;
        self.average = match self.idle_since.take().filter(|_| qlen == 0) {
            // An idle queue decays the average as if `m` empty arrivals had come meanwhile.
            Some(since) => {
                let idle = now.saturating_duration_since(since).as_nanos();
                let m = idle / p.typical.as_nanos().max(1);
                self.average * pow(1.0 - p.w_q, m)
            }
            None => (1.0 - p.w_q) * self.average + p.w_q * qlen as f64,
        };
        let avg = self.average;
        let pb = if avg < p.min_th {
            self.count = None;
            return RedAdmit::Enqueue;
        } else if avg < p.max_th {
            p.max_p * (avg - p.min_th) / (p.max_th - p.min_th)
        } else if avg < 2.0 * p.max_th {
            // Gentle RED: from max_p at max_th to 1 at twice it.
            p.max_p + (1.0 - p.max_p) * (avg - p.max_th) / p.max_th
        } else {
            // The forced region drops whatever the packet: ECN's safety limit.
            self.count = Some(0);
            return RedAdmit::Drop {
                average: avg,
                probability: 1.0,
            };
        };
        // Uniform spacing of drops (the paper's §7): pa = pb / (1 - count * pb), the count
        // since the last drop making each next one likelier.
        let count = self.count.map_or(0, |c| c + 1);
        let pa = if count as f64 * pb >= 1.0 {
            1.0
        } else {
            pb / (1.0 - count as f64 * pb)
        };
        if count > 0 && uniform() < pa {
            self.count = Some(0);
            if p.ecn && ect {
                return RedAdmit::Mark {
                    average: avg,
                    probability: pa,
                };
            }
            return RedAdmit::Drop {
                average: avg,
                probability: pa,
            };
        }
        self.count = Some(count);
        RedAdmit::Enqueue
    }

    /// The queue went empty at `now` (the paper's `q_time`).
    pub fn emptied(&mut self, now: Instant) {
        self.idle_since = Some(now);
    }
}

/// `x^n` by repeated squaring: exact IEEE products, the same on every platform (`powi` and
/// `powf` are not guaranteed to be).
fn pow(x: f64, mut n: u64) -> f64 {
    let (mut base, mut acc) = (x, 1.0);
    while n > 0 {
        if n & 1 == 1 {
            acc *= base;
        }
        base *= base;
        n >>= 1;
        // Past about 2^60 of damping the average is 0 to the last bit.
        if acc == 0.0 || base == 0.0 && n > 0 {
            return 0.0;
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> RedParams {
        RedParams::floyd(Duration::from_micros(120))
    }

    /// A draw that never drops: only the forced region drops.
    fn never() -> impl FnMut() -> f64 {
        || 0.999_999
    }

    #[test]
    fn the_average_is_an_ewma_of_the_queue_in_packets() {
        let mut red = Red::new(params());
        // The first arrival finds the queue empty since the start: a decay of 0 stays 0.
        red.admit(Instant(0), 0, false, &mut never());
        let mut avg = 0.0;
        for q in 1..=200usize {
            red.admit(Instant(q as u64), q, false, &mut never());
            avg = 0.998 * avg + 0.002 * q as f64;
            assert_eq!(red.average(), avg, "after an arrival to {q} packets");
        }
    }

    #[test]
    fn an_idle_queue_decays_the_average_by_the_arrivals_it_could_have_had() {
        let mut red = Red::new(params());
        for i in 0..5000u64 {
            red.admit(Instant(i), 10, false, &mut never());
        }
        let before = red.average();
        red.emptied(Instant(1_000_000));
        // 12 ms idle at 120 us a packet: 100 empty arrivals.
        red.admit(Instant(13_000_000), 0, false, &mut never());
        let want = before * 0.998f64.powi(100);
        assert!((red.average() - want).abs() < 1e-12 * want);
    }

    #[test]
    fn pow_is_exact_repeated_products() {
        assert_eq!(pow(0.5, 10), 1.0 / 1024.0);
        assert_eq!(pow(0.998, 0), 1.0);
        assert_eq!(pow(0.998, 3), 0.998 * 0.998 * 0.998);
        assert_eq!(pow(0.5, u64::MAX), 0.0);
    }

    /// The probability before the count's spacing, at a steady average `avg`.
    fn pb(avg: f64) -> Option<f64> {
        let mut red = Red::new(params());
        red.average = avg;
        red.idle_since = None;
        red.count = Some(0);
        // w_q = 1 holds the average at the queue given; a draw of 0 drops if pa > 0.
        red.params.w_q = 1.0;
        let q = avg as usize;
        match red.admit(Instant(0), q, false, &mut || 0.0) {
            RedAdmit::Drop { probability, .. } => Some(probability),
            _ => None,
        }
    }

    #[test]
    fn the_probability_rises_linearly_then_gently_then_is_forced() {
        // count = 1 after the first packet: pa = pb / (1 - pb).
        let pa = |pb: f64| pb / (1.0 - pb);
        assert_eq!(pb(4.0), None, "below min_th nothing is dropped");
        assert_eq!(pb(10.0), Some(pa(0.05)), "halfway to max_th: max_p / 2");
        // Gentle region: max_p at max_th, half-way to 1 at 1.5 max_th.
        assert_eq!(pb(15.0), Some(pa(0.1)));
        let mid = 0.1 + 0.9 * 7.0 / 15.0;
        assert_eq!(pb(22.0), Some(pa(mid)));
        assert_eq!(pb(30.0), Some(1.0), "twice max_th: forced");
    }

    #[test]
    fn drops_are_spaced_by_the_count_and_come_at_the_rate_pb() {
        // At a steady pb = 0.05, pa = pb / (1 - count pb) makes the gap between drops uniform
        // over 1..1/pb - 1 packets (the product of the misses telescopes to pb / (1 - pb) for
        // each gap): one drop every 1 / (2 pb) = 10 on average, never more than 19 apart.
        let mut red = Red::new(RedParams {
            w_q: 1.0,
            ..params()
        });
        let mut rng = crate::rng::SimRng::new(7);
        let mut gaps = Vec::new();
        let mut since = 0u32;
        for i in 0..200_000u64 {
            since += 1;
            if let RedAdmit::Drop { .. } = red.admit(Instant(i), 10, false, &mut || rng.uniform()) {
                gaps.push(since);
                since = 0;
            }
        }
        let mean = gaps.iter().map(|&g| f64::from(g)).sum::<f64>() / gaps.len() as f64;
        assert!((mean - 10.0).abs() < 0.2, "mean gap {mean}");
        assert!(
            gaps.iter().skip(1).all(|&g| (1..=19).contains(&g)),
            "{gaps:?}"
        );
        let longest = gaps.iter().skip(1).filter(|&&g| g == 19).count();
        assert!(
            longest > gaps.len() / 40,
            "gaps of 19 as often as any: {longest}"
        );
    }

    #[test]
    fn ecn_capable_packets_are_marked_below_the_forced_region_only() {
        let mut red = Red::new(RedParams {
            w_q: 1.0,
            ecn: true,
            ..params()
        });
        red.admit(Instant(0), 10, true, &mut || 0.0);
        assert!(matches!(
            red.admit(Instant(1), 10, true, &mut || 0.0),
            RedAdmit::Mark { .. }
        ));
        assert!(matches!(
            red.admit(Instant(2), 10, false, &mut || 0.0),
            RedAdmit::Drop { .. }
        ));
        assert!(matches!(
            red.admit(Instant(3), 40, true, &mut || 0.0),
            RedAdmit::Drop {
                probability: 1.0,
                ..
            }
        ));
    }
}
