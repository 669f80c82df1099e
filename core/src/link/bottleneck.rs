//! The bottleneck: a link of fixed rate fed by a drop-tail FIFO queue.
//!
//! A packet is serialised at the link rate, headers included; while the link is busy, arriving
//! packets wait, and a packet that finds `capacity` packets already waiting is dropped
//! (drop-tail, as a router's FIFO or Linux's pfifo).
//!
//! The link is FIFO and work-conserving, so a packet's departure is known the moment it is
//! queued: the queue is kept as the start times of the packets still waiting, and no event is
//! needed when the link frees up.

use std::collections::VecDeque;

use super::schedule::Rates;
use crate::time::{Duration, Instant};

/// What became of a packet offered to the bottleneck.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enqueued {
    /// It will have left the link (been serialised) at this time.
    Departs(Instant),
    /// The queue was full.
    Dropped,
}

pub struct Bottleneck {
    /// The link's rate, by the instant a packet goes onto it (`super::schedule`).
    rates: Rates,
    capacity: usize,
    /// When the link finishes the last packet accepted.
    free_at: Instant,
    /// Transmission start times of the packets waiting, ascending.
    waiting: VecDeque<Instant>,
    /// The time on the link of the packet accepted last.
    last: Duration,
}

impl Bottleneck {
    pub fn new(bits_per_s: u64, capacity: usize) -> Self {
        Bottleneck::with_rates(Rates::constant(bits_per_s), capacity)
    }

    pub fn with_rates(rates: Rates, capacity: usize) -> Self {
        Bottleneck {
            rates,
            capacity,
            free_at: Instant::ZERO,
            // Sized for the common case; a huge configured queue grows only if it fills.
            waiting: VecDeque::with_capacity(capacity.min(4096)),
            last: Duration::ZERO,
        }
    }

    /// The queue's limit from now on (a schedule's `queue`): packets already waiting stay.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
    }

    pub fn offer(&mut self, now: Instant, wire_bytes: u32) -> Enqueued {
        let start = self.free_at.max(now);
        if start > now {
            if self.queued(now) >= self.capacity {
                return Enqueued::Dropped;
            }
            self.waiting.push_back(start);
        } else {
            // An idle link: every packet that waited has gone onto it.
            self.waiting.clear();
        }
        self.last = self.rates.serialisation(start, wire_bytes);
        self.free_at = start + self.last;
        Enqueued::Departs(self.free_at)
    }

    /// Packets waiting at `now`, not counting the one being serialised.
    pub fn queued(&mut self, now: Instant) -> usize {
        self.leave_until(now, |_, _| {});
        self.waiting.len()
    }

    /// Forgets the packets that went onto the link by `now`, telling `left` when each went and
    /// how many still waited behind it: the queue falls between arrivals, though no event
    /// marks it (the link is FIFO and work-conserving, so the times are known).
    pub fn leave_until(&mut self, now: Instant, mut left: impl FnMut(Instant, usize)) {
        while let Some(&s) = self.waiting.front().filter(|&&s| s <= now) {
            self.waiting.pop_front();
            left(s, self.waiting.len());
        }
    }

    /// Packets waiting at `now`, without forgetting those that have left (for observers).
    pub fn waiting_at(&self, now: Instant) -> usize {
        self.waiting.len() - self.waiting.partition_point(|&s| s <= now)
    }

    /// How long the packet accepted last takes on the link: it went onto it that long before
    /// it departs.
    pub fn last_serialisation(&self) -> Duration {
        self.last
    }

    /// When the link will have sent everything accepted so far.
    pub fn free_at(&self) -> Instant {
        self.free_at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GBIT: u64 = 1_000_000_000;

    #[test]
    fn an_idle_link_serialises_at_once() {
        let mut b = Bottleneck::new(GBIT, 2);
        assert_eq!(
            b.offer(Instant(0), 1500),
            Enqueued::Departs(Instant(12_000))
        );
        assert_eq!(b.queued(Instant(0)), 0);
    }

    #[test]
    fn packets_leave_back_to_back_in_order() {
        let mut b = Bottleneck::new(GBIT, 10);
        assert_eq!(
            b.offer(Instant(0), 1500),
            Enqueued::Departs(Instant(12_000))
        );
        assert_eq!(
            b.offer(Instant(0), 1500),
            Enqueued::Departs(Instant(24_000))
        );
        assert_eq!(
            b.offer(Instant(30_000), 1500),
            Enqueued::Departs(Instant(42_000))
        );
    }

    #[test]
    fn the_queue_falls_as_each_packet_goes_onto_the_link() {
        let mut b = Bottleneck::new(GBIT, 10);
        for _ in 0..4 {
            b.offer(Instant(0), 1500);
        }
        // Three wait behind the first; they go onto the link at 12, 24 and 36 us.
        let mut seen = Vec::new();
        b.leave_until(Instant(30_000), |at, left| seen.push((at.0, left)));
        assert_eq!(seen, [(12_000, 2), (24_000, 1)]);
        b.leave_until(Instant(100_000), |at, left| seen.push((at.0, left)));
        assert_eq!(seen, [(12_000, 2), (24_000, 1), (36_000, 0)]);
        assert_eq!(b.queued(Instant(100_000)), 0);
    }

    #[test]
    fn a_full_queue_drops_the_tail() {
        let mut b = Bottleneck::new(GBIT, 2);
        b.offer(Instant(0), 1500);
        assert!(matches!(b.offer(Instant(0), 1500), Enqueued::Departs(_)));
        assert!(matches!(b.offer(Instant(0), 1500), Enqueued::Departs(_)));
        assert_eq!(b.offer(Instant(0), 1500), Enqueued::Dropped);
        assert_eq!(b.queued(Instant(0)), 2);
    }

    #[test]
    fn the_queue_drains_at_the_link_rate() {
        let mut b = Bottleneck::new(GBIT, 10);
        for _ in 0..4 {
            b.offer(Instant(0), 1500);
        }
        assert_eq!(b.queued(Instant(0)), 3);
        assert_eq!(b.queued(Instant(12_000)), 2);
        assert_eq!(b.queued(Instant(36_000)), 0);
    }

    #[test]
    fn each_size_takes_its_own_time_whatever_came_before() {
        let mut b = Bottleneck::new(GBIT, 10);
        // 1500 B = 12 us, 40 B = 320 ns, 1 B = 8 ns (rounded up: 1 byte at 3 bit/s below).
        assert_eq!(
            b.offer(Instant(0), 1500),
            Enqueued::Departs(Instant(12_000))
        );
        assert_eq!(b.offer(Instant(0), 40), Enqueued::Departs(Instant(12_320)));
        assert_eq!(
            b.offer(Instant(0), 1500),
            Enqueued::Departs(Instant(24_320))
        );
        assert_eq!(
            b.offer(Instant(0), 1500),
            Enqueued::Departs(Instant(36_320))
        );
        let mut slow = Bottleneck::new(3, 10);
        assert_eq!(
            slow.offer(Instant(0), 1),
            Enqueued::Departs(Instant(2_666_666_667))
        );
    }
}
