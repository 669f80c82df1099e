//! The user-space router between the two namespaces' TUN devices: every IP packet either host
//! sends passes through it and meets the scenario's path, as `tcplab::link::Path` (the
//! simulator's own model) decides: the staged drops, the bottleneck's rate and drop-tail queue,
//! random loss and the one-way delays.
//!
//! [`Schedule`] is the pure part (what leaves when), tested without a kernel; [`run`] is the
//! real-time loop that reads the devices, stamps arrivals and releases each packet at its time:
//! it sleeps in `ppoll` until shortly before the next release, then spins, so that a release is
//! late by the cost of a system call rather than by a timer's wake-up.

use std::collections::VecDeque;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use tcplab::link::{Direction, Fate, Path};
use tcplab::metrics::stats::DelayHistogram;
use tcplab::metrics::trace::DropCause;
use tcplab::time::Instant as SimInstant;

use crate::hol::Delivery;
use crate::ip::{Header, RECEIVER_ADDR, SENDER_ADDR};
use crate::sys::{self, Tun};
use crate::window::WindowCap;

/// What one direction of the router did with the packets offered to it. Every packet read is
/// counted once: `received = forwarded + dropped_staged + dropped_policer + dropped_queue +
/// dropped_random + in_flight_at_stop`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DirCounters {
    pub received: u64,
    pub forwarded: u64,
    pub dropped_staged: u64,
    pub dropped_policer: u64,
    pub dropped_queue: u64,
    pub dropped_random: u64,
    /// Still queued or on the emulated wire when the run ended.
    pub in_flight_at_stop: u64,
    /// Data packets among those received (TCP with payload, or UDP).
    pub data_packets: u64,
}

impl DirCounters {
    pub fn accounted(&self) -> u64 {
        self.forwarded
            + self.dropped_staged
            + self.dropped_policer
            + self.dropped_queue
            + self.dropped_random
            + self.in_flight_at_stop
    }
}

/// A packet waiting for its release.
struct Held {
    release: SimInstant,
    bytes: Vec<u8>,
}

/// What leaves the path when: the path model and a FIFO per direction (each direction's
/// releases are in order, since its queue is FIFO and its delay fixed).
pub struct Schedule {
    path: Path,
    data: VecDeque<Held>,
    ack: VecDeque<Held>,
    pub data_counters: DirCounters,
    pub ack_counters: DirCounters,
    /// How long each data packet waited in the bottleneck's queue.
    pub sojourn: DelayHistogram,
}

impl Schedule {
    pub fn new(path: Path) -> Schedule {
        Schedule {
            path,
            data: VecDeque::new(),
            ack: VecDeque::new(),
            data_counters: DirCounters::default(),
            ack_counters: DirCounters::default(),
            sojourn: DelayHistogram::default(),
        }
    }

    /// Offers a packet that arrived at `now`; what the path did with it.
    pub fn arrive(
        &mut self,
        dir: Direction,
        now: SimInstant,
        header: &Header,
        bytes: Vec<u8>,
    ) -> Fate {
        // Every flow takes flow 1's delays: the twin refuses per-flow RTTs (plan.rs).
        let fate = self
            .path
            .offer(dir, 0, now, header.total_len, header.is_data());
        let (queue, c) = match dir {
            Direction::Data => (&mut self.data, &mut self.data_counters),
            Direction::Ack => (&mut self.ack, &mut self.ack_counters),
        };
        c.received += 1;
        c.data_packets += u64::from(header.is_data());
        match fate {
            Fate::Delivered {
                starts, arrives, ..
            } => {
                if dir == Direction::Data && header.is_data() {
                    self.sojourn.add(starts - now);
                }
                queue.push_back(Held {
                    release: arrives,
                    bytes,
                })
            }
            Fate::Dropped(DropCause::Staged) => c.dropped_staged += 1,
            Fate::Dropped(DropCause::Policer) => c.dropped_policer += 1,
            // The drop-tail path drops only at its limit; a discipline's drop would count here.
            Fate::Dropped(DropCause::Queue | DropCause::Aqm) => c.dropped_queue += 1,
            Fate::Dropped(DropCause::Data | DropCause::Ack) => c.dropped_random += 1,
        }
        fate
    }

    /// The earliest release still to come.
    pub fn next_release(&self) -> Option<SimInstant> {
        match (self.data.front(), self.ack.front()) {
            (Some(d), Some(a)) => Some(d.release.min(a.release)),
            (Some(d), None) => Some(d.release),
            (None, Some(a)) => Some(a.release),
            (None, None) => None,
        }
    }

    /// The next packet due at `now`, with the direction it travels and its release time.
    pub fn pop_due(&mut self, now: SimInstant) -> Option<(Direction, SimInstant, Vec<u8>)> {
        let d = self.data.front().map(|h| h.release).filter(|&t| t <= now);
        let a = self.ack.front().map(|h| h.release).filter(|&t| t <= now);
        let dir = match (d, a) {
            (Some(d), Some(a)) if a < d => Direction::Ack,
            (Some(_), _) => Direction::Data,
            (None, Some(_)) => Direction::Ack,
            (None, None) => return None,
        };
        let (queue, c) = match dir {
            Direction::Data => (&mut self.data, &mut self.data_counters),
            Direction::Ack => (&mut self.ack, &mut self.ack_counters),
        };
        let held = queue.pop_front()?;
        c.forwarded += 1;
        Some((dir, held.release, held.bytes))
    }

    /// Ends the run: whatever is still held is counted as in flight.
    pub fn close(&mut self) {
        self.data_counters.in_flight_at_stop += self.data.len() as u64;
        self.ack_counters.in_flight_at_stop += self.ack.len() as u64;
        self.data.clear();
        self.ack.clear();
    }
}

/// A histogram of release lateness: 1 us buckets up to 20 ms, and the exact maximum.
#[derive(Debug, Clone)]
pub struct Lateness {
    buckets: Vec<u64>,
    count: u64,
    max_ns: u64,
}

const LATENESS_BUCKETS: usize = 20_000;

impl Default for Lateness {
    fn default() -> Self {
        Lateness {
            buckets: vec![0; LATENESS_BUCKETS + 1],
            count: 0,
            max_ns: 0,
        }
    }
}

impl Lateness {
    pub fn add(&mut self, late: Duration) {
        let ns = late.as_nanos().min(u128::from(u64::MAX)) as u64;
        let i = ((ns / 1_000) as usize).min(LATENESS_BUCKETS);
        self.buckets[i] += 1;
        self.count += 1;
        self.max_ns = self.max_ns.max(ns);
    }

    /// The upper edge of the bucket holding quantile `q`, in microseconds.
    pub fn quantile_us(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let rank = ((q * self.count as f64).ceil() as u64).clamp(1, self.count);
        let mut seen = 0;
        for (i, &n) in self.buckets.iter().enumerate() {
            seen += n;
            if seen >= rank {
                let edge = (i as f64 + 1.0).min(self.max_ns as f64 / 1e3);
                return Some(edge);
            }
        }
        Some(self.max_ns as f64 / 1e3)
    }

    pub fn summary(&self) -> LatenessSummary {
        LatenessSummary {
            packets: self.count,
            p50_us: self.quantile_us(0.5),
            p99_us: self.quantile_us(0.99),
            p999_us: self.quantile_us(0.999),
            max_us: (self.count > 0).then(|| self.max_ns as f64 / 1e3),
        }
    }
}

/// How late the router released packets after their scheduled times.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatenessSummary {
    pub packets: u64,
    pub p50_us: Option<f64>,
    pub p99_us: Option<f64>,
    pub p999_us: Option<f64>,
    pub max_us: Option<f64>,
}

impl LatenessSummary {
    /// The p99 lateness up to which the router is taken to have kept the path's schedule: under
    /// one packet time of the fastest link the tests use (120 us at 100 Mbit/s), and under 1 %
    /// of their shortest one-way delay.
    pub const KEPT_TIME_P99_US: f64 = 100.0;

    /// Whether the router released packets on time. A virtual machine's stalls (the hypervisor
    /// taking the CPU for a millisecond or more, whatever the router's priority) can spoil a
    /// run; such a run says nothing about the kernel and is taken again, not judged.
    pub fn kept_time(&self) -> bool {
        self.p99_us.is_some_and(|p| p <= Self::KEPT_TIME_P99_US)
    }
}

/// What the router reports at the end of a run.
#[derive(Debug, Clone, Serialize)]
pub struct RouterReport {
    pub data: DirCounters,
    pub ack: DirCounters,
    /// Packets that were not the twin's IPv4 TCP or UDP between its two hosts (dropped).
    pub foreign: u64,
    /// Packets the kernel refused when the router handed them on.
    pub write_errors: u64,
    pub release_lateness: LatenessSummary,
    /// Whether the router ran at real-time priority.
    pub realtime: bool,
    /// Segments from the receiver whose window the router lowered to `rwnd` (window.rs).
    pub windows_capped: u64,
    /// The largest window the receiver's segments carried to the sender (window.rs); the
    /// summary reports it as `kernel.rwnd_seen_bytes`.
    #[serde(skip)]
    pub largest_window: Option<u64>,
    /// Every TCP segment handed to the receiver, when asked for (hol.rs).
    #[serde(skip)]
    pub deliveries: Vec<Delivery>,
    /// How long each data packet waited in the bottleneck's queue (the summary's
    /// `queue_delay_ms`).
    #[serde(skip)]
    pub sojourn: DelayHistogram,
}

/// What the router does besides the path.
pub struct RouterOptions {
    pub cap: WindowCap,
    /// Log each TCP segment handed to the receiver, for the head-of-line replay.
    pub log_deliveries: bool,
}

/// The router's time: nanoseconds since the run's epoch, on the monotonic clock.
pub fn now(epoch: Instant) -> SimInstant {
    SimInstant(epoch.elapsed().as_nanos().min(u128::from(u64::MAX)) as u64)
}

/// How long before a release the router stops sleeping and starts spinning: long enough to
/// absorb a real-time thread's wake-up from `ppoll` (a few microseconds), short enough that the
/// router sleeps most of the time even at full load. A thread that spins without pause is
/// throttled by the kernel (`sched_rt_runtime_us`: 50 ms of every second), which would hold
/// every packet for those 50 ms.
const SPIN_BEFORE: Duration = Duration::from_micros(100);

/// How much of each 100 ms the router may spend spinning: with the little work its system calls
/// do on top (the kernel's part runs on the other CPUs, host.rs), its real-time share stays
/// under the kernel's 95 %, so it is never throttled; past the budget it sleeps until each
/// release and takes the wake-up's lateness instead.
const SPIN_SLOT_NS: u64 = 100_000_000;
const SPIN_BUDGET_NS: u64 = 80_000_000;

/// Counts the time spent spinning in the current 100 ms.
#[derive(Debug, Default)]
struct SpinBudget {
    slot: u64,
    spun_ns: u64,
    /// When the router last chose to spin: the time since then, until it next decides, was
    /// spent busy (spinning, or reading and writing between spins).
    spinning_since: Option<SimInstant>,
}

impl SpinBudget {
    /// Whether the router may spin at `t`.
    fn may_spin(&mut self, t: SimInstant) -> bool {
        if let Some(since) = self.spinning_since.take() {
            self.spun_ns += t.saturating_duration_since(since).as_nanos();
        }
        let slot = t.as_nanos() / SPIN_SLOT_NS;
        if slot != self.slot {
            self.slot = slot;
            self.spun_ns = 0;
        }
        self.spun_ns < SPIN_BUDGET_NS
    }

    fn spin(&mut self, t: SimInstant) {
        self.spinning_since = Some(t);
    }

    /// The router is about to sleep: what it did since its last spin was still busy time.
    fn rest(&mut self, t: SimInstant) {
        let _ = self.may_spin(t);
    }
}
/// The longest sleep with nothing scheduled, so that a stop is noticed.
const IDLE_WAIT: Duration = Duration::from_millis(2);
/// Packets read from one device before the loop turns to releases again.
const READ_BATCH: usize = 64;

/// Moves packets between `sender` and `receiver` until `stop` is set, then reports.
pub fn run(
    sender: &Tun,
    receiver: &Tun,
    mut schedule: Schedule,
    options: RouterOptions,
    epoch: Instant,
    stop: &AtomicBool,
) -> io::Result<RouterReport> {
    sys::tighten_timer_slack();
    if let Some(cpu) = crate::host::router_cpu(sys::cpu_count()) {
        sys::pin_to_cpu(cpu);
    }
    let realtime = sys::make_realtime(50);
    let RouterOptions {
        mut cap,
        log_deliveries,
    } = options;
    let mut deliveries = Vec::new();
    let mut lateness = Lateness::default();
    let mut spin = SpinBudget::default();
    let mut foreign = 0u64;
    let mut write_errors = 0u64;
    let mut buf = vec![0u8; 65_536];
    let mut spare: Vec<Vec<u8>> = Vec::new();
    let fds = [sender.raw_fd(), receiver.raw_fd()];
    loop {
        for (tun, dir, to) in [
            (sender, Direction::Data, RECEIVER_ADDR),
            (receiver, Direction::Ack, SENDER_ADDR),
        ] {
            for _ in 0..READ_BATCH {
                let n = match tun.read(&mut buf) {
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                let t = now(epoch);
                match Header::parse(&buf[..n]) {
                    Some(h) if h.dst == to => {
                        if dir == Direction::Ack {
                            cap.apply(&mut buf[..n], &h);
                        }
                        let mut bytes = spare.pop().unwrap_or_default();
                        bytes.clear();
                        bytes.extend_from_slice(&buf[..n]);
                        schedule.arrive(dir, t, &h, bytes);
                    }
                    _ => foreign += 1,
                }
            }
        }
        let mut t = now(epoch);
        while let Some((dir, release, bytes)) = schedule.pop_due(t) {
            lateness.add(Duration::from_nanos((t - release).as_nanos()));
            let out = match dir {
                Direction::Data => receiver,
                Direction::Ack => sender,
            };
            if log_deliveries && dir == Direction::Data {
                deliveries.extend(Header::parse(&bytes).and_then(|h| Delivery::of(t, &h)));
            }
            if out.write(&bytes).is_err() {
                write_errors += 1;
            }
            // Released buffers are reused for the next arrivals: no allocation per packet once
            // the path holds its window.
            spare.push(bytes);
            t = now(epoch);
        }
        if stop.load(Ordering::Acquire) {
            break;
        }
        match schedule.next_release() {
            Some(next) => {
                let wait = Duration::from_nanos(next.saturating_duration_since(t).as_nanos());
                if wait > SPIN_BEFORE {
                    spin.rest(t);
                    sys::wait_readable(&fds, Some(wait - SPIN_BEFORE))?;
                } else if spin.may_spin(t) {
                    spin.spin(t);
                    std::hint::spin_loop();
                } else if !wait.is_zero() {
                    sys::wait_readable(&fds, Some(wait))?;
                }
            }
            None => {
                spin.rest(t);
                sys::wait_readable(&fds, Some(IDLE_WAIT))?
            }
        }
    }
    schedule.close();
    Ok(RouterReport {
        data: schedule.data_counters,
        ack: schedule.ack_counters,
        foreign,
        write_errors,
        release_lateness: lateness.summary(),
        realtime,
        windows_capped: cap.capped,
        largest_window: cap.largest,
        deliveries,
        sojourn: std::mem::take(&mut schedule.sojourn),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ip::tests::tcp_packet;
    use tcplab::Scenario;

    fn schedule(query: &str) -> Schedule {
        match Scenario::parse(query) {
            Ok(s) => Schedule::new(Path::new(&s)),
            Err(e) => panic!("{query}: {e}"),
        }
    }

    fn offer(s: &mut Schedule, dir: Direction, at_ns: u64, payload: usize) -> Fate {
        let p = tcp_packet(1, 12, payload, 0x10);
        let h = Header::parse(&p).expect("a well-formed packet");
        s.arrive(dir, SimInstant(at_ns), &h, p)
    }

    fn drain(s: &mut Schedule) -> Vec<(Direction, u64)> {
        let mut out = Vec::new();
        while let Some((dir, release, _)) = s.pop_due(SimInstant::MAX) {
            out.push((dir, release.as_nanos()));
        }
        out
    }

    #[test]
    fn departures_follow_the_rate_the_queue_and_the_delay() {
        // 100 Mbit/s, 1500-byte packets: 120 us each; 10 ms each way; room for 2 waiting.
        let mut s = schedule("rtt=20&bw=100&queue=2");
        for _ in 0..4 {
            offer(&mut s, Direction::Data, 0, 1448);
        }
        // One on the link, two waiting, the fourth dropped at the tail.
        offer(&mut s, Direction::Data, 500_000, 1448);
        offer(&mut s, Direction::Ack, 100_000, 0);
        assert_eq!(
            drain(&mut s),
            [
                (Direction::Ack, 10_100_000),
                (Direction::Data, 10_120_000),
                (Direction::Data, 10_240_000),
                (Direction::Data, 10_360_000),
                (Direction::Data, 10_620_000),
            ]
        );
        assert_eq!(s.data_counters.dropped_queue, 1);
    }

    #[test]
    fn releases_wait_for_their_time_in_order() {
        // 1 Gbit/s: 152 bytes take 1216 ns; 5 ms each way. The ACK, offered later, is due first.
        let mut s = schedule("rtt=10&bw=1000");
        offer(&mut s, Direction::Data, 0, 100);
        offer(&mut s, Direction::Ack, 1_000, 0);
        assert_eq!(s.next_release(), Some(SimInstant(5_001_000)));
        assert!(s.pop_due(SimInstant(5_000_999)).is_none());
        assert!(matches!(
            s.pop_due(SimInstant(5_001_000)),
            Some((Direction::Ack, _, _))
        ));
        assert!(s.pop_due(SimInstant(5_001_215)).is_none());
        assert!(matches!(
            s.pop_due(SimInstant(5_001_216)),
            Some((Direction::Data, _, _))
        ));
        assert_eq!(s.next_release(), None);
    }

    #[test]
    fn the_same_seed_drops_the_same_packets() {
        let run = |seed: u64| {
            let mut s = schedule(&format!("loss=10&ackloss=10&seed={seed}"));
            (0..500u64)
                .map(|i| {
                    let dir = if i % 2 == 0 {
                        Direction::Data
                    } else {
                        Direction::Ack
                    };
                    matches!(offer(&mut s, dir, i * 100_000, 100), Fate::Dropped(_))
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }

    #[test]
    fn staged_drops_hit_the_named_data_packets_only() {
        let mut s = schedule("drop=2,4");
        let mut lost = Vec::new();
        let mut data_number = 0;
        for i in 0..8u64 {
            // Every third packet is a pure ACK-like segment without payload: not counted.
            let payload = if i % 3 == 2 { 0 } else { 1000 };
            data_number += u64::from(payload > 0);
            if let Fate::Dropped(DropCause::Staged) = offer(&mut s, Direction::Data, i, payload) {
                lost.push(data_number);
            }
        }
        assert_eq!(lost, [2, 4]);
        assert_eq!(s.data_counters.dropped_staged, 2);
    }

    #[test]
    fn every_packet_is_counted_once() {
        // Data arrive 1.5 a millisecond at a link that sends 1.19: the queue overflows now and
        // then, and random loss strikes what it lets through.
        let mut s = schedule("loss=5&ackloss=3&queue=3&bw=10&drop=7,9");
        for i in 0..2000u64 {
            let dir = if i % 4 == 3 {
                Direction::Ack
            } else {
                Direction::Data
            };
            offer(&mut s, dir, i * 500_000, 1000);
            if i % 100 == 0 {
                while s.pop_due(SimInstant(i * 500_000)).is_some() {}
            }
        }
        s.close();
        for c in [s.data_counters, s.ack_counters] {
            assert_eq!(c.received, c.accounted(), "{c:?}");
        }
        let d = s.data_counters;
        assert!(d.dropped_queue > 0 && d.dropped_random > 0 && d.dropped_staged == 2);
        assert!(d.forwarded > 0 && d.in_flight_at_stop > 0, "{d:?}");
    }

    #[test]
    fn spinning_stops_when_the_slots_budget_is_spent() {
        let mut b = SpinBudget::default();
        let ms = |m: u64| SimInstant(m * 1_000_000);
        let budget_ms = SPIN_BUDGET_NS / 1_000_000;
        // Spinning from the start of a slot is allowed until the budget is spent.
        for m in 0..budget_ms {
            assert!(b.may_spin(ms(m)), "at {m} ms");
            b.spin(ms(m));
        }
        assert!(!b.may_spin(ms(budget_ms)));
        assert!(!b.may_spin(ms(99)));
        // A new slot, a new budget; sleeping time is not counted.
        assert!(b.may_spin(ms(100)));
        b.spin(ms(100));
        b.rest(ms(101));
        assert!(b.may_spin(ms(190)));
    }

    #[test]
    fn lateness_quantiles_come_from_the_histogram() {
        let mut l = Lateness::default();
        for us in 1..=100u64 {
            l.add(Duration::from_micros(us) - Duration::from_nanos(1));
        }
        let s = l.summary();
        assert_eq!(s.packets, 100);
        assert_eq!(s.p50_us, Some(50.0));
        assert_eq!(s.p99_us, Some(99.0));
        assert_eq!(s.max_us, Some(99.999));
    }
}
