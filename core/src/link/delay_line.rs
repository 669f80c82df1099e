//! A wire with a fixed propagation delay.
//!
//! Packets enter in time order and all take the same delay, so they leave in the order they
//! entered: a FIFO suffices, and the engine reads the packet at its head as its next event
//! beside those of its heap, instead of keeping one heap event per packet in flight.

use std::collections::VecDeque;

use crate::packet::Packet;
use crate::time::{Duration, Instant};

pub struct DelayLine {
    delay: Duration,
    /// (arrival, the engine's sequence number, packet).
    wire: VecDeque<(Instant, u64, Packet)>,
    /// The arrival of the packet put on the wire last, kept beside the queue (read at every
    /// push, it is a field instead of a read of the ring's tail).
    last: Instant,
}

impl DelayLine {
    pub fn new(delay: Duration) -> Self {
        DelayLine {
            delay,
            wire: VecDeque::with_capacity(1024),
            last: Instant::ZERO,
        }
    }

    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// Puts `packet` on the wire at `now`; `seq` orders it among events at the same instant.
    pub fn push(&mut self, now: Instant, seq: u64, packet: Packet) {
        self.push_at(now + self.delay, seq, packet);
    }

    /// Puts `packet` on the wire to arrive at `arrives`, or with the packet ahead of it if that
    /// arrives later: when the path's delay shrinks (a schedule's `rtt`), nothing overtakes.
    pub fn push_at(&mut self, arrives: Instant, seq: u64, packet: Packet) {
        let arrives = if self.wire.is_empty() {
            arrives
        } else {
            self.last.max(arrives)
        };
        self.last = arrives;
        self.wire.push_back((arrives, seq, packet));
    }

    /// The arrival time and sequence number of the head packet.
    pub fn front_key(&self) -> Option<(Instant, u64)> {
        self.wire.front().map(|(t, s, _)| (*t, *s))
    }

    /// The head packet, read in place.
    #[inline(always)]
    pub fn front(&self) -> Option<&Packet> {
        self.wire.front().map(|e| &e.2)
    }

    /// Drops the head packet, once read with [`DelayLine::front`].
    #[inline(always)]
    pub fn discard_front(&mut self) {
        self.wire.pop_front();
    }

    /// Takes the head packet off the wire: [`DelayLine::front`], then
    /// [`DelayLine::discard_front`], as the engine does.
    pub fn pop(&mut self) -> Option<Packet> {
        let p = *self.front()?;
        self.discard_front();
        Some(p)
    }

    pub fn len(&self) -> usize {
        self.wire.len()
    }

    pub fn is_empty(&self) -> bool {
        self.wire.is_empty()
    }
}

/// One direction's wires, one per delay the flows take (`rtt=20,80`): each keeps its packets
/// in order, and the earliest head among them is the direction's next arrival.
pub struct Wires {
    lines: Vec<DelayLine>,
    /// The key of the packet to arrive first ([`EMPTY`] when the wires are empty). The engine
    /// reads it before every event; it changes only when a lane's head does, so it is kept
    /// instead of read from a lane's queue (two reads of a ring buffer's head per event were
    /// a fortieth of a bulk flow's instructions) or searched for over the lanes (a tenth of a
    /// two-RTT run's time in WebAssembly).
    next: Key,
    /// The lane of `next`.
    head: usize,
    /// Each lane's head key ([`EMPTY`] for an empty lane), kept with several lanes only: the
    /// earliest is found among them, not by reading every lane's queue again after each
    /// arrival (a twentieth of a run of two RTTs, `preset=rtt-unfairness`).
    heads: Vec<Key>,
    /// Packets on all the wires: read after every event (the packet budget).
    len: usize,
}

/// A packet's arrival time and the engine's sequence number: the order of arrivals.
pub type Key = (Instant, u64);

/// The key of empty wires: after every packet's.
pub const EMPTY: Key = (Instant::MAX, u64::MAX);

impl Wires {
    /// A wire for each of `delays`, in order: lane `i` is `delays[i]`'s.
    pub fn new(delays: impl IntoIterator<Item = Duration>) -> Wires {
        let mut lines: Vec<DelayLine> = delays.into_iter().map(DelayLine::new).collect();
        if lines.is_empty() {
            lines.push(DelayLine::new(Duration::ZERO));
        }
        let heads = if lines.len() > 1 {
            vec![EMPTY; lines.len()]
        } else {
            Vec::new()
        };
        Wires {
            lines,
            next: EMPTY,
            head: 0,
            heads,
            len: 0,
        }
    }

    /// Puts `packet` on lane `lane`'s wire, as [`DelayLine::push_at`] (lane 0 for a lane the
    /// wires do not have).
    #[inline(always)]
    pub fn push_at(&mut self, lane: usize, arrives: Instant, seq: u64, packet: Packet) {
        let i = if lane < self.lines.len() { lane } else { 0 };
        let was_empty = self.lines[i].is_empty();
        self.lines[i].push_at(arrives, seq, packet);
        self.len += 1;
        // Behind a packet, it changes no head; on an empty lane it is that lane's head (and,
        // on an empty lane, `arrives` is its arrival: nothing is ahead of it to wait for).
        if was_empty {
            let key = (arrives, seq);
            if self.lines.len() > 1 {
                self.heads[i] = key;
            }
            if key < self.next {
                (self.next, self.head) = (key, i);
            }
        }
    }

    /// The arrival time and sequence number of the next packet to arrive.
    #[inline(always)]
    pub fn front_key(&self) -> Option<Key> {
        (self.next != EMPTY).then_some(self.next)
    }

    /// [`Wires::front_key`], [`EMPTY`] for none: the engine compares it with its other
    /// sources' keys as it is.
    #[inline(always)]
    pub fn next_key(&self) -> Key {
        self.next
    }

    /// The next packet to arrive, read in place: the engine copies it from the wire and then
    /// drops it ([`Wires::discard_front`]). Taken off as an `Option<Packet>`, a packet was copied
    /// around its enum tag in unaligned pieces that the engine's next read of it stalled on (a
    /// failed store-to-load forward on every arrival; docs/performance.md, "A packet in 64 bytes").
    #[inline(always)]
    pub fn front(&self) -> Option<&Packet> {
        self.lines.get(self.head)?.front()
    }

    /// Drops the next packet to arrive, once read with [`Wires::front`].
    #[inline(always)]
    pub fn discard_front(&mut self) {
        let i = self.head;
        let Some(line) = self.lines.get_mut(i).filter(|l| !l.is_empty()) else {
            return;
        };
        line.discard_front();
        let key = line.front_key().unwrap_or(EMPTY);
        self.len -= 1;
        if self.lines.len() > 1 {
            self.heads[i] = key;
            (self.next, self.head) = self.first_lane();
        } else {
            self.next = key;
        }
    }

    /// Takes the next packet to arrive off its wire: [`Wires::front`], then
    /// [`Wires::discard_front`], as the engine does.
    pub fn pop(&mut self) -> Option<Packet> {
        let p = *self.front()?;
        self.discard_front();
        Some(p)
    }

    /// The earliest head of all the lanes and its lane ([`EMPTY`] and lane 0 if every lane is
    /// empty).
    #[inline(never)]
    fn first_lane(&self) -> (Key, usize) {
        let mut first = (EMPTY, 0);
        for (i, &key) in self.heads.iter().enumerate() {
            if key < first.0 {
                first = (key, i);
            }
        }
        first
    }

    /// Packets on all the wires.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Kind;

    fn pkt(flow: u16) -> Packet {
        Packet {
            flow,
            kind: Kind::Syn,
            wire_bytes: 60,
        }
    }

    #[test]
    fn packets_arrive_after_the_delay_in_order() {
        let mut line = DelayLine::new(Duration(100));
        line.push(Instant(0), 7, pkt(1));
        line.push(Instant(5), 9, pkt(2));
        assert_eq!(line.front_key(), Some((Instant(100), 7)));
        assert_eq!(line.pop().map(|p| p.flow), Some(1));
        assert_eq!(line.front_key(), Some((Instant(105), 9)));
        assert_eq!(line.pop().map(|p| p.flow), Some(2));
        assert!(line.pop().is_none());
        assert_eq!(line.front_key(), None);
    }

    #[test]
    fn wires_of_two_delays_give_the_earliest_head_first() {
        // A 10 ms lane and a 40 ms lane: the short lane's later packet overtakes the long
        // lane's earlier one, and each lane stays in order.
        let ms = |m: u64| Instant(m * 1_000_000);
        let mut w = Wires::new([Duration::from_millis(10), Duration::from_millis(40)]);
        w.push_at(1, ms(40), 1, pkt(2));
        w.push_at(0, ms(15), 2, pkt(1));
        w.push_at(0, ms(15), 3, pkt(3));
        w.push_at(7, ms(16), 4, pkt(4));
        assert_eq!(w.len(), 4);
        let order: Vec<(Option<(Instant, u64)>, u16)> = std::iter::from_fn(|| {
            let key = w.front_key();
            w.pop().map(|p| (key, p.flow))
        })
        .collect();
        assert_eq!(
            order,
            [
                (Some((ms(15), 2)), 1),
                (Some((ms(15), 3)), 3),
                (Some((ms(16), 4)), 4),
                (Some((ms(40), 1)), 2)
            ]
        );
        assert!(w.is_empty());
    }

    /// The earliest head of all the lanes, by a search.
    fn earliest(w: &Wires) -> Option<(Instant, u64)> {
        w.lines.iter().filter_map(DelayLine::front_key).min()
    }

    #[test]
    fn the_kept_head_is_always_the_earliest_of_all_the_lanes() {
        // Pushes and pops interleaved at random over four lanes of different delays, each
        // answer checked against a search of every lane's head.
        let delays = [3, 11, 40, 7].map(Duration::from_millis);
        let mut w = Wires::new(delays);
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut now = 0;
        for seq in 0..20_000 {
            let r = next();
            if r % 3 == 0 {
                let searched = earliest(&w);
                assert_eq!(w.front_key(), searched);
                let popped = w.pop();
                assert_eq!(popped.is_some(), searched.is_some());
            } else {
                now += r % 2_000_000;
                let lane = (r >> 8) as usize % delays.len();
                let arrives = Instant(now) + delays[lane];
                w.push_at(lane, arrives, seq, pkt(lane as u16));
                assert_eq!(w.front_key(), earliest(&w));
            }
        }
    }
}
