//! What the path does to each packet, in one place: the simulator's world and the kernel twin's
//! router both ask it, so the same scenario drops the same packets and schedules the same
//! departures in both engines.
//!
//! Data direction: a staged drop (`drop=`, counted over data packets only), then the policer
//! (`police`, a token bucket that drops what exceeds its rate), then the bottleneck's
//! drop-tail queue, then random loss on the wire after the packet has used the link, then the
//! one-way delay. ACK direction: random loss, then the delay, no rate limit. One generator,
//! seeded from the scenario, draws both directions' random losses in the order packets are
//! offered.

use crate::metrics::trace::DropCause;
use crate::rng::SimRng;
use crate::scenario::Scenario;
use crate::time::{Duration, Instant};

use super::schedule::{AckAggregation, Changes, Delays, Rates};
use super::{Bottleneck, Enqueued, LossModel, StagedDrops};
use crate::scenario::sched::Setting;

/// The two directions of the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Sender to receiver: data (and the SYN), through the bottleneck.
    Data,
    /// Receiver to sender: ACKs (and the SYN-ACK), delay only.
    Ack,
}

/// What becomes of one packet offered to the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// It leaves the path's far end at `arrives`; on the data direction it went onto the
    /// bottleneck's link at `starts` (its sojourn in the queue ended) and left it at
    /// `departs` (on the ACK direction both are the time it was offered).
    Delivered {
        starts: Instant,
        departs: Instant,
        arrives: Instant,
    },
    Dropped(DropCause),
}

/// The path's fixed figures, derived from a scenario once for both engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathShape {
    /// Bottleneck rate, bits per second (at least 1).
    pub bits_per_s: u64,
    /// Drop-tail queue, packets waiting (not counting the one on the link).
    pub queue: usize,
    /// One-way delays: `rtt / 2` on the data direction, the rest of `rtt` on the ACK direction.
    pub data_delay: Duration,
    pub ack_delay: Duration,
}

impl PathShape {
    pub fn of(s: &Scenario) -> PathShape {
        let rtt = Duration::from_millis_f64(s.rtt_ms);
        let data_delay = rtt / 2;
        // A link of opportunities is its mean rate to whatever asks for one (CoDel's and
        // RED's packet time, the twin's figures).
        let bits_per_s = s
            .link_model()
            .map_or(s.bw_mbps * 1e6, |m| m.mean_bits_per_s());
        PathShape {
            bits_per_s: bits_per_s.round().max(1.0) as u64,
            queue: s.queue as usize,
            data_delay,
            ack_delay: rtt - data_delay,
        }
    }
}

pub struct Path {
    shape: PathShape,
    /// The schedule's changes of loss and queue, met as packets are offered.
    changes: Changes,
    /// The delays of each lane: the flows of one RTT share a lane (`rtt=20,80` makes two).
    delays: Vec<Delays>,
    /// Each flow's lane; a packet of a flow past the list (the probe's) takes lane 0, flow 1's.
    lane_of: Vec<usize>,
    ack_aggregation: Option<AckAggregation>,
    burst: f64,
    rng: SimRng,
    bottleneck: Bottleneck,
    data_loss: LossModel,
    ack_loss: LossModel,
    staged: StagedDrops,
    policer: Option<super::policer::Policer>,
}

impl Path {
    pub fn new(s: &Scenario) -> Path {
        let shape = PathShape::of(s);
        // Lane 0 is the scenario's RTT (flow 1's), then each other RTT in order of its flow.
        let mut rtts = vec![s.rtt_ms];
        let lane_of = s
            .flow_specs()
            .iter()
            .map(|f| match rtts.iter().position(|&r| r == f.rtt_ms) {
                Some(i) => i,
                None => {
                    rtts.push(f.rtt_ms);
                    rtts.len() - 1
                }
            })
            .collect();
        Path {
            shape,
            changes: Changes::of(s),
            delays: rtts.iter().map(|&r| Delays::of(s, r)).collect(),
            lane_of,
            ack_aggregation: AckAggregation::of(s),
            burst: s.burst,
            rng: SimRng::new(s.seed),
            bottleneck: Bottleneck::with_rates(Rates::of(s), shape.queue),
            data_loss: LossModel::new(s.loss_pct / 100.0, s.burst),
            ack_loss: LossModel::new(s.ackloss_pct / 100.0, s.burst),
            staged: StagedDrops::new(s.drop.clone()),
            policer: (s.police_mbps > 0.0).then(|| {
                let rate = (s.police_mbps * 1e6).round().max(1.0) as u64;
                let frame = s.mss + crate::packet::header_bytes(s.ts);
                let burst = if s.police_burst > 0 {
                    s.police_burst
                } else {
                    super::policer::Policer::default_burst(rate, frame)
                };
                super::policer::Policer::new(rate, burst)
            }),
        }
    }

    pub fn shape(&self) -> PathShape {
        self.shape
    }

    /// The lane of `flow`'s packets, whose wires carry its own delays.
    pub fn lane(&self, flow: u16) -> usize {
        self.lane_of.get(usize::from(flow)).copied().unwrap_or(0)
    }

    /// Each lane's delays at the start of the run (data direction, ACK direction), in lane order.
    pub fn lanes(&self) -> Vec<(Duration, Duration)> {
        self.delays
            .iter()
            .map(|d| (d.data(Instant::ZERO), d.ack(Instant::ZERO)))
            .collect()
    }

    /// Offers a packet of `wire_bytes` (IP length, headers included) at `now`; `is_data` says
    /// whether it carries payload (a TCP segment with data, or a UDP datagram), which is what
    /// staged drops count.
    #[inline(always)]
    pub fn offer(
        &mut self,
        dir: Direction,
        flow: u16,
        now: Instant,
        wire_bytes: u32,
        is_data: bool,
    ) -> Fate {
        if let Some(queue) = self.changes_until(now) {
            self.bottleneck.set_capacity(queue);
        }
        match dir {
            Direction::Data => {
                if self.staged_drop(is_data) {
                    return Fate::Dropped(DropCause::Staged);
                }
                if !self.policed(now, wire_bytes) {
                    return Fate::Dropped(DropCause::Policer);
                }
                let departs = match self.bottleneck.offer(now, wire_bytes) {
                    Enqueued::Departs(t) => t,
                    Enqueued::Dropped => return Fate::Dropped(DropCause::Queue),
                };
                if self.lost_on_wire() {
                    return Fate::Dropped(DropCause::Data);
                }
                Fate::Delivered {
                    starts: departs - self.bottleneck.last_serialisation(),
                    departs,
                    arrives: departs + self.data_delay(flow, departs),
                }
            }
            Direction::Ack => {
                if self.ack_loss.lose(&mut self.rng) {
                    return Fate::Dropped(DropCause::Ack);
                }
                let departs = self.ack_release(now);
                Fate::Delivered {
                    starts: now,
                    departs,
                    arrives: departs + self.ack_delay(flow, departs),
                }
            }
        }
    }

    /// Applies the schedule's changes due by `now` (each once, in order); returns the queue
    /// limit the last of them set, for the bottleneck to take. Loss rates change here.
    #[inline(always)]
    pub fn changes_until(&mut self, now: Instant) -> Option<usize> {
        let mut queue = None;
        while let Some(setting) = self.changes.due(now) {
            match setting {
                Setting::Loss(pct) => self.data_loss = LossModel::new(pct / 100.0, self.burst),
                Setting::Ackloss(pct) => self.ack_loss = LossModel::new(pct / 100.0, self.burst),
                Setting::Queue(n) => queue = Some(n as usize),
                // The rate and the delays are read by instant, not applied (`super::schedule`).
                Setting::Bw(_) | Setting::Rtt(_) => {}
            }
        }
        queue
    }

    /// The data direction's delay for a packet of `flow` leaving the bottleneck at `departs`.
    pub fn data_delay(&self, flow: u16, departs: Instant) -> Duration {
        self.delays[self.lane(flow)].data(departs)
    }

    /// The ACK direction's delay for a packet of `flow` entering its wire at `at`.
    pub fn ack_delay(&self, flow: u16, at: Instant) -> Duration {
        self.delays[self.lane(flow)].ack(at)
    }

    /// When a packet offered to the ACK direction at `now` goes onto its wire: at once, or on
    /// the aggregation's next release (`ackagg`).
    pub fn ack_release(&self, now: Instant) -> Instant {
        self.ack_aggregation.map_or(now, |a| a.release(now))
    }

    /// Whether the data packet offered now is one the lesson drops (`drop=` counts packets
    /// with payload only). A managed bottleneck (`super::managed`), which takes the drop-tail
    /// queue's place in the simulator, asks this before its queue.
    pub fn staged_drop(&mut self, is_data: bool) -> bool {
        is_data && self.staged.lose_next()
    }

    /// Whether the policer lets a packet of `wire_bytes` offered at `now` through (always, with
    /// none): a managed bottleneck asks this after the staged drop, before its queue.
    pub fn policed(&mut self, now: Instant, wire_bytes: u32) -> bool {
        self.policer
            .as_mut()
            .is_none_or(|p| p.pass(now, wire_bytes))
    }

    /// Whether random loss strikes a data packet on the wire, after it has used the link: a
    /// managed bottleneck asks as each packet leaves it, in the order they leave.
    pub fn lost_on_wire(&mut self) -> bool {
        self.data_loss.lose(&mut self.rng)
    }

    /// Packets waiting in the bottleneck's queue at `now` (forgetting those that have left).
    pub fn queued(&mut self, now: Instant) -> usize {
        self.bottleneck.queued(now)
    }

    /// Forgets the packets that went onto the bottleneck's link by `now`, telling `left` when
    /// each went and how many still waited ([`super::bottleneck::Bottleneck::leave_until`]).
    pub fn leave_until(&mut self, now: Instant, left: impl FnMut(Instant, usize)) {
        self.bottleneck.leave_until(now, left);
    }

    /// Packets waiting at `now`, for observers that must not change the state.
    pub fn waiting_at(&self, now: Instant) -> usize {
        self.bottleneck.waiting_at(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(query: &str) -> Path {
        match Scenario::parse(query) {
            Ok(s) => Path::new(&s),
            Err(e) => panic!("{query}: {e}"),
        }
    }

    #[test]
    fn the_shape_splits_the_rtt_and_rounds_the_rate() {
        let p = path("rtt=31.537&bw=0.01&queue=7");
        let shape = p.shape();
        assert_eq!(shape.data_delay, Duration(15_768_500));
        assert_eq!(shape.ack_delay, Duration(15_768_500));
        assert_eq!(shape.bits_per_s, 10_000);
        assert_eq!(shape.queue, 7);
        // An odd number of nanoseconds: the ACK direction takes the extra one.
        let odd = path("rtt=0.100001").shape();
        assert_eq!(
            (odd.data_delay, odd.ack_delay),
            (Duration(50_000), Duration(50_001))
        );
    }

    #[test]
    fn data_is_serialised_then_delayed_and_acks_only_delayed() {
        // 100 Mbit/s: 1500 bytes take 120 us; 20 ms RTT.
        let mut p = path("rtt=20&bw=100&queue=10");
        let arrive = |f: Fate| match f {
            Fate::Delivered { arrives, .. } => arrives.as_nanos(),
            Fate::Dropped(c) => panic!("dropped: {c:?}"),
        };
        assert_eq!(
            arrive(p.offer(Direction::Data, 0, Instant(0), 1500, true)),
            10_120_000
        );
        assert_eq!(
            arrive(p.offer(Direction::Data, 0, Instant(0), 1500, true)),
            10_240_000
        );
        assert_eq!(
            arrive(p.offer(Direction::Ack, 0, Instant(5), 52, false)),
            10_000_005
        );
        assert_eq!(p.queued(Instant(0)), 1);
    }

    #[test]
    fn staged_drops_count_data_packets_only() {
        let mut p = path("drop=2");
        let fates: Vec<bool> = [true, false, true, true]
            .into_iter()
            .map(|data| {
                matches!(
                    p.offer(Direction::Data, 0, Instant(0), 100, data),
                    Fate::Dropped(DropCause::Staged)
                )
            })
            .collect();
        assert_eq!(fates, [false, false, true, false]);
    }

    #[test]
    fn the_same_seed_loses_the_same_packets_in_both_directions() {
        let losses = |q: &str| {
            let mut p = path(q);
            (0..2000u64)
                .map(|i| {
                    let dir = if i % 3 == 0 {
                        Direction::Ack
                    } else {
                        Direction::Data
                    };
                    matches!(
                        p.offer(dir, 0, Instant(i * 1_000_000), 100, true),
                        Fate::Dropped(_)
                    )
                })
                .collect::<Vec<bool>>()
        };
        let a = losses("loss=5&ackloss=5&seed=9");
        assert_eq!(a, losses("loss=5&ackloss=5&seed=9"));
        assert_ne!(a, losses("loss=5&ackloss=5&seed=10"));
        let lost = a.iter().filter(|&&l| l).count();
        assert!((60..140).contains(&lost), "{lost} of 2000 at 5 %");
    }

    #[test]
    fn each_flow_takes_its_own_rtt_through_the_one_bottleneck() {
        // 100 Mbit/s: 1500 bytes take 120 us. Flow 2's 80 ms against flow 1's 20 ms, and
        // flow 3 shares flow 1's lane.
        let mut p = path("flows=3&rtt=20,80,20&bw=100");
        assert_eq!((p.lane(0), p.lane(1), p.lane(2), p.lane(3)), (0, 1, 0, 0));
        assert_eq!(
            p.lanes(),
            [
                (Duration::from_millis(10), Duration::from_millis(10)),
                (Duration::from_millis(40), Duration::from_millis(40))
            ]
        );
        let arrives = |f: Fate| match f {
            Fate::Delivered { arrives, .. } => arrives.as_nanos(),
            Fate::Dropped(c) => panic!("dropped: {c:?}"),
        };
        assert_eq!(
            arrives(p.offer(Direction::Data, 1, Instant(0), 1500, true)),
            40_120_000
        );
        // Behind flow 2's packet in the one queue, on its own shorter wire.
        assert_eq!(
            arrives(p.offer(Direction::Data, 0, Instant(0), 1500, true)),
            10_240_000
        );
        assert_eq!(
            arrives(p.offer(Direction::Ack, 1, Instant(0), 52, false)),
            40_000_000
        );
    }
}
