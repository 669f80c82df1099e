//! A bottleneck whose queue is managed by an AQM discipline (`super::aqm`): the link asks for
//! the next packet each time it frees, as a qdisc's dequeue runs when the device can send. The
//! drop-tail FIFO (`bottleneck.rs`) knows each departure when the packet arrives; here a packet
//! may be dropped on its way out (CoDel) or overtaken by another flow's (FQ-CoDel), so the link
//! is driven by its own event, [`Managed::next_event`]. `queue` stays the hard limit in
//! packets, as each qdisc's `limit`.

use super::aqm::codel::{CodelDecision, CodelParams, CodelVars};
use super::aqm::fq_codel::{FqCodel, FqCodelParams, FqReason};
use super::aqm::pie::{Admit, Pie, PieParams};
use super::aqm::red::{Red, RedAdmit, RedParams};
use super::aqm::{Fifo, Head, Verdict, Waiting};
use super::schedule::Rates;
use crate::rng::SimRng;
use crate::scenario::{Aqm, Scenario};
use crate::time::{serialisation_time, Duration, Instant};

/// Which discipline manages the queue, with its settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Discipline {
    Red(RedParams),
    Codel(CodelParams),
    FqCodel(FqCodelParams),
    Pie(PieParams),
}

/// Linux's clock tick at `HZ=250` (Debian's kernels): PIE's timer runs in whole jiffies.
const JIFFY: Duration = Duration::from_millis(4);

impl Discipline {
    /// The discipline `aqm` names, with its keys' settings, on a link of `bits_per_s`; `None`
    /// for the drop-tail FIFO. Every discipline marks ECN-capable packets (tc's `ecn` option):
    /// with `ecn=0` none is, and it drops them as without it.
    pub fn of(s: &Scenario, bits_per_s: u64) -> Option<Discipline> {
        let ms = Duration::from_millis_f64;
        let codel = CodelParams {
            target: ms(s.codel_target_ms),
            interval: ms(s.codel_interval_ms),
            ecn: true,
            ..CodelParams::default()
        };
        Some(match s.aqm {
            Aqm::Fifo => return None,
            Aqm::Red => Discipline::Red(RedParams {
                min_th: s.red_min,
                max_th: s.red_max,
                max_p: s.red_maxp_pct / 100.0,
                w_q: s.red_wq,
                // A full-sized packet's time on the link.
                typical: serialisation_time(1500, bits_per_s),
                ecn: true,
            }),
            Aqm::Codel => Discipline::Codel(codel),
            Aqm::FqCodel => Discipline::FqCodel(FqCodelParams {
                codel,
                quantum: s.fq_quantum,
                ..FqCodelParams::default()
            }),
            Aqm::Pie => {
                // `usecs_to_jiffies` rounds up.
                let jiffies = ms(s.pie_tupdate_ms).as_nanos().div_ceil(JIFFY.as_nanos());
                Discipline::Pie(PieParams {
                    target: ms(s.pie_target_ms),
                    tupdate: Duration(jiffies.max(1) * JIFFY.as_nanos()),
                    alpha: s.pie_alpha,
                    beta: s.pie_beta,
                    ecn: true,
                    ..PieParams::default()
                })
            }
        })
    }
}

impl Discipline {
    /// The sojourn the discipline aims at: CoDel's and FQ-CoDel's target, PIE's; none for RED,
    /// whose thresholds are in packets.
    pub fn target(&self) -> Option<Duration> {
        match self {
            Discipline::Codel(p) => Some(p.target),
            Discipline::FqCodel(p) => Some(p.codel.target),
            Discipline::Pie(p) => Some(p.target),
            Discipline::Red(_) => None,
        }
    }

    /// CoDel's settings, where CoDel runs (alone or per flow).
    pub fn codel(&self) -> Option<CodelParams> {
        match self {
            Discipline::Codel(p) => Some(*p),
            Discipline::FqCodel(p) => Some(p.codel),
            Discipline::Pie(_) | Discipline::Red(_) => None,
        }
    }
}

/// Why a managed queue dropped or marked a packet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Why {
    /// The hard limit (`queue` packets) was reached.
    Limit,
    /// CoDel's control law, on the way out.
    Codel(CodelDecision),
    /// FQ-CoDel over its limit, from the fattest flow.
    FattestFlow,
    /// PIE's probability, on the way in.
    Pie { probability: f64 },
    /// RED's average queue (packets) and the probability it acted with, on the way in.
    Red { average: f64, probability: f64 },
}

/// What became of a packet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Outcome<P> {
    /// It went onto the link at `starts` and has left it (been serialised) at `departs`;
    /// marked CE on the way if `w.ce`.
    Sent {
        w: Waiting<P>,
        starts: Instant,
        departs: Instant,
    },
    /// Dropped at `at`.
    Dropped {
        w: Waiting<P>,
        at: Instant,
        why: Why,
    },
    /// Marked CE at `at` (it is sent on, `w.ce` set; its `Sent` follows).
    Marked {
        w: Waiting<P>,
        at: Instant,
        why: Why,
    },
}

impl<P: Copy> Outcome<P> {
    /// What a discipline's verdict on `w` at `at` is, as an outcome.
    fn of(what: Verdict, w: &Waiting<P>, at: Instant, why: Why) -> Outcome<P> {
        match what {
            Verdict::Dropped => Outcome::Dropped { w: *w, at, why },
            Verdict::Marked => Outcome::Marked {
                w: Waiting { ce: true, ..*w },
                at,
                why,
            },
        }
    }
}

impl Why {
    fn of_fq(why: FqReason) -> Why {
        match why {
            FqReason::Codel(d) => Why::Codel(d),
            FqReason::Overlimit => Why::FattestFlow,
        }
    }
}

enum Queue<P> {
    Red {
        fifo: Fifo<P>,
        red: Red,
        rng: SimRng,
    },
    Codel {
        fifo: Fifo<P>,
        vars: CodelVars,
        params: CodelParams,
    },
    FqCodel(FqCodel<P>),
    Pie {
        fifo: Fifo<P>,
        pie: Pie,
        rng: SimRng,
    },
}

pub struct Managed<P> {
    /// The link's rate, by the instant a packet goes onto it (`super::schedule`).
    rates: Rates,
    limit: usize,
    queue: Queue<P>,
    /// When the link finishes the packet on it.
    free_at: Instant,
}

impl<P: Copy> Managed<P> {
    /// `seed` feeds PIE's random drops, apart from the path's loss generator so that a managed
    /// queue leaves the random losses where they were.
    pub fn new(bits_per_s: u64, limit: usize, discipline: Discipline, seed: u64) -> Self {
        Managed::with_rates(Rates::constant(bits_per_s), limit, discipline, seed)
    }

    pub fn with_rates(rates: Rates, limit: usize, discipline: Discipline, seed: u64) -> Self {
        let queue = match discipline {
            Discipline::Red(params) => Queue::Red {
                fifo: Fifo::new(),
                red: Red::new(params),
                rng: SimRng::new(seed),
            },
            Discipline::Codel(params) => Queue::Codel {
                fifo: Fifo::new(),
                vars: CodelVars::default(),
                params,
            },
            Discipline::FqCodel(params) => {
                Queue::FqCodel(FqCodel::new(FqCodelParams { limit, ..params }))
            }
            Discipline::Pie(params) => Queue::Pie {
                fifo: Fifo::new(),
                pie: Pie::new(PieParams { limit, ..params }, Instant::ZERO),
                rng: SimRng::new(seed),
            },
        };
        Managed {
            rates,
            limit,
            queue,
            free_at: Instant::ZERO,
        }
    }

    /// The hard limit from now on (a schedule's `queue`): packets already waiting stay.
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
        match &mut self.queue {
            Queue::FqCodel(q) => q.set_limit(limit),
            Queue::Pie { pie, .. } => pie.set_limit(limit),
            Queue::Red { .. } | Queue::Codel { .. } => {}
        }
    }

    /// Packets waiting, not counting the one on the link.
    pub fn len(&self) -> usize {
        match &self.queue {
            Queue::Red { fifo, .. } | Queue::Codel { fifo, .. } | Queue::Pie { fifo, .. } => {
                fifo.len()
            }
            Queue::FqCodel(q) => q.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn backlog(&self) -> u64 {
        match &self.queue {
            Queue::Red { fifo, .. } | Queue::Codel { fifo, .. } | Queue::Pie { fifo, .. } => {
                fifo.backlog_bytes()
            }
            Queue::FqCodel(q) => q.backlog_bytes(),
        }
    }

    /// A packet arrives at `now`; what becomes of it (and of others) goes to `out`.
    pub fn offer(&mut self, now: Instant, w: Waiting<P>, out: &mut Vec<Outcome<P>>) {
        self.catch_up(now, out);
        let (len, backlog) = (self.len(), self.backlog());
        match &mut self.queue {
            Queue::Red { fifo, red, rng } => {
                if len >= self.limit {
                    out.push(Outcome::Dropped {
                        w,
                        at: now,
                        why: Why::Limit,
                    });
                } else {
                    match red.admit(now, len, w.ect, &mut || rng.uniform()) {
                        RedAdmit::Enqueue => fifo.push(w),
                        RedAdmit::Mark {
                            average,
                            probability,
                        } => {
                            let w = Waiting { ce: true, ..w };
                            let why = Why::Red {
                                average,
                                probability,
                            };
                            out.push(Outcome::Marked { w, at: now, why });
                            fifo.push(w);
                        }
                        RedAdmit::Drop {
                            average,
                            probability,
                        } => out.push(Outcome::Dropped {
                            w,
                            at: now,
                            why: Why::Red {
                                average,
                                probability,
                            },
                        }),
                    }
                }
            }
            Queue::Codel { fifo, .. } => {
                if len >= self.limit {
                    out.push(Outcome::Dropped {
                        w,
                        at: now,
                        why: Why::Limit,
                    });
                } else {
                    fifo.push(w);
                }
            }
            Queue::FqCodel(q) => {
                let mut said = |what, d: &Waiting<P>, why: FqReason| {
                    out.push(Outcome::of(what, d, now, Why::of_fq(why)));
                };
                q.enqueue(w, &mut said);
            }
            Queue::Pie { fifo, pie, rng } => {
                let probability = pie.probability();
                let mut random = || rng.next_u64();
                match pie.admit(len, backlog, w.bytes, w.ect, &mut random) {
                    Admit::Enqueue => fifo.push(w),
                    Admit::Mark => {
                        let w = Waiting { ce: true, ..w };
                        out.push(Outcome::Marked {
                            w,
                            at: now,
                            why: Why::Pie { probability },
                        });
                        fifo.push(w);
                    }
                    Admit::DropEarly => out.push(Outcome::Dropped {
                        w,
                        at: now,
                        why: Why::Pie { probability },
                    }),
                    Admit::Overlimit => out.push(Outcome::Dropped {
                        w,
                        at: now,
                        why: Why::Limit,
                    }),
                }
            }
        }
        // An idle link takes the packet at once.
        if self.free_at <= now {
            self.serve(now, out);
        }
    }

    /// When the link next frees with packets waiting, or PIE's next update: when
    /// [`Managed::run_until`] must run next. `None`: nothing is pending.
    pub fn next_event(&self) -> Option<Instant> {
        match (self.link_due(), self.timer_due()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn link_due(&self) -> Option<Instant> {
        (!self.is_empty()).then_some(self.free_at)
    }

    fn timer_due(&self) -> Option<Instant> {
        match &self.queue {
            Queue::Pie { pie, .. } => Some(pie.next_update),
            _ => None,
        }
    }

    /// Runs every link departure and timer due by `now`, in time order (a departure before
    /// an update due at the same instant).
    pub fn run_until(&mut self, now: Instant, out: &mut Vec<Outcome<P>>) {
        self.catch_up(now, out);
    }

    fn catch_up(&mut self, now: Instant, out: &mut Vec<Outcome<P>>) {
        loop {
            let link = self.link_due().filter(|&t| t <= now);
            let timer = self.timer_due().filter(|&t| t <= now);
            match (link, timer) {
                (Some(l), Some(t)) if t < l => self.tick(),
                (Some(l), _) => self.serve(l, out),
                (None, Some(_)) => self.tick(),
                (None, None) => return,
            }
        }
    }

    /// PIE's periodic update (its `adapt_timer`).
    fn tick(&mut self) {
        let backlog = self.backlog();
        if let Queue::Pie { pie, .. } = &mut self.queue {
            pie.update(backlog);
        }
    }

    /// The link is free at `now`: the discipline's next packet goes onto it.
    fn serve(&mut self, now: Instant, out: &mut Vec<Outcome<P>>) {
        let bits_per_s = self.rates.at(now);
        let next = match &mut self.queue {
            Queue::Red { fifo, red, .. } => {
                let w = fifo.pop();
                if let (Some(w), true) = (&w, fifo.is_empty()) {
                    // The queue is empty once this packet is out: RED's idle time starts.
                    red.emptied(now + serialisation_time(u64::from(w.bytes), bits_per_s));
                }
                w
            }
            Queue::Codel { fifo, vars, params } => {
                let mut said = |what, w: &Waiting<P>, d: CodelDecision| {
                    out.push(Outcome::of(what, w, now, Why::Codel(d)));
                };
                vars.dequeue(params, now, fifo, &mut said)
            }
            Queue::FqCodel(q) => {
                let mut said = |what, w: &Waiting<P>, why: FqReason| {
                    out.push(Outcome::of(what, w, now, Why::of_fq(why)));
                };
                q.dequeue(now, &mut said)
            }
            Queue::Pie { fifo, pie, .. } => {
                let w = fifo.pop();
                if let Some(w) = &w {
                    pie.departed(now, w.enqueued, fifo.backlog_bytes());
                }
                w
            }
        };
        if let Some(w) = next {
            let departs = now + self.rates.serialisation(now, w.bytes);
            self.free_at = departs;
            out.push(Outcome::Sent {
                w,
                starts: now,
                departs,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Duration;

    const MS: u64 = 1_000_000;

    fn waiting(id: u32, flow: u16, bytes: u32, at: u64) -> Waiting<u32> {
        Waiting {
            packet: id,
            bytes,
            enqueued: Instant(at),
            flow,
            ect: false,
            ce: false,
        }
    }

    /// Offers `arrivals` (time, flow, bytes) to a 100 Mbit/s link under `d`, running the
    /// link's own events between them, and returns every outcome in order.
    fn run(d: Discipline, limit: usize, arrivals: &[(u64, u16, u32)]) -> Vec<Outcome<u32>> {
        let mut m = Managed::new(100_000_000, limit, d, 1);
        let mut out = Vec::new();
        for (i, &(at, flow, bytes)) in arrivals.iter().enumerate() {
            // The world runs the link's event when it is due, before a later arrival.
            while let Some(t) = m.next_event().filter(|&t| t.as_nanos() < at) {
                m.run_until(t, &mut out);
            }
            m.offer(Instant(at), waiting(i as u32, flow, bytes, at), &mut out);
        }
        let end = arrivals.last().map_or(0, |a| a.0) + 10_000 * MS;
        while let Some(t) = m.next_event().filter(|&t| t.as_nanos() < end) {
            m.run_until(t, &mut out);
        }
        assert!(m.is_empty());
        out
    }

    fn red() -> RedParams {
        RedParams::floyd(Duration::from_micros(120))
    }

    /// Twice the link's rate for `secs` seconds: a 1500-byte packet every 60 us.
    fn flood(flow: u16, secs: u64) -> Vec<(u64, u16, u32)> {
        (0..secs * 1_000_000 / 60)
            .map(|i| (i * 60_000, flow, 1500))
            .collect()
    }

    fn check_conserved(out: &[Outcome<u32>], offered: usize) {
        let mut fate = vec![0u8; offered];
        let mut last_departs = Instant::ZERO;
        for o in out {
            match *o {
                Outcome::Sent { w, starts, departs } => {
                    fate[w.packet as usize] += 1;
                    // One packet at a time on the link, at its rate: 1500 bytes in 120 us.
                    assert!(starts >= last_departs && starts >= w.enqueued);
                    assert_eq!(
                        departs.saturating_duration_since(starts).as_nanos(),
                        u64::from(w.bytes) * 80
                    );
                    last_departs = departs;
                }
                Outcome::Dropped { w, .. } => fate[w.packet as usize] += 1,
                Outcome::Marked { .. } => {}
            }
        }
        assert!(
            fate.iter().all(|&f| f == 1),
            "each packet sent or dropped once"
        );
    }

    #[test]
    fn every_packet_is_sent_or_dropped_once_and_the_link_runs_at_its_rate() {
        let arrivals = flood(0, 2);
        for d in [
            Discipline::Red(red()),
            Discipline::Codel(CodelParams::default()),
            Discipline::FqCodel(FqCodelParams::default()),
            Discipline::Pie(PieParams::default()),
        ] {
            let out = run(d, 1000, &arrivals);
            check_conserved(&out, arrivals.len());
            let dropped = out
                .iter()
                .filter(|o| matches!(o, Outcome::Dropped { .. }))
                .count();
            // Twice the rate: about half must go, by the discipline or at the limit.
            assert!(dropped > arrivals.len() / 3, "{d:?}: {dropped}");
        }
    }

    #[test]
    fn the_hard_limit_holds() {
        let out = run(Discipline::Codel(CodelParams::default()), 10, &flood(0, 1));
        assert!(out.iter().any(|o| matches!(
            o,
            Outcome::Dropped {
                why: Why::Limit,
                ..
            }
        )));
        // Never more than 10 waiting: no packet sent waited longer than 11 packet times.
        for o in &out {
            if let Outcome::Sent { w, starts, .. } = o {
                assert!(starts.saturating_duration_since(w.enqueued).as_nanos() <= 11 * 120_000);
            }
        }
    }

    #[test]
    fn with_fq_codel_a_sparse_flow_passes_a_flood() {
        let mut arrivals = flood(0, 3);
        arrivals.extend((0..300).map(|i| (i * 10 * MS + 5_000, 1, 100)));
        arrivals.sort_by_key(|a| a.0);
        let worst = |d| {
            run(d, 1000, &arrivals)
                .iter()
                .filter_map(|o| match o {
                    Outcome::Sent { w, starts, .. } if w.flow == 1 => {
                        Some(starts.saturating_duration_since(w.enqueued).as_nanos())
                    }
                    _ => None,
                })
                .max()
                .unwrap_or(0)
        };
        // Behind CoDel's single queue the ping waits with the flood. FQ-CoDel sends it once
        // the packet on the link is out, or (the first ping, while the flood is itself still a
        // new flow with quantum left) after one more: two packet times at most.
        assert!(worst(Discipline::Codel(CodelParams::default())) > 5 * MS);
        let fq = worst(Discipline::FqCodel(FqCodelParams::default()));
        assert!(fq <= 2 * 120_000, "{fq} ns");
    }

    #[test]
    fn pie_updates_on_its_timer_while_the_link_runs() {
        let out = run(Discipline::Pie(PieParams::default()), 1000, &flood(0, 3));
        let early = out
            .iter()
            .filter(|o| {
                matches!(
                    o,
                    Outcome::Dropped {
                        why: Why::Pie { .. },
                        ..
                    }
                )
            })
            .count();
        assert!(
            early > 1000,
            "PIE drops early once its probability rises: {early}"
        );
    }
}
