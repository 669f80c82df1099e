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
}

impl DelayLine {
    pub fn new(delay: Duration) -> Self {
        DelayLine {
            delay,
            wire: VecDeque::with_capacity(1024),
        }
    }

    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// Puts `packet` on the wire at `now`; `seq` orders it among events at the same instant.
    pub fn push(&mut self, now: Instant, seq: u64, packet: Packet) {
        self.wire.push_back((now + self.delay, seq, packet));
    }

    /// Puts `packet` on the wire to arrive at `arrives`, or with the packet ahead of it if that
    /// arrives later: when the path's delay shrinks (a schedule's `rtt`), nothing overtakes.
    pub fn push_at(&mut self, arrives: Instant, seq: u64, packet: Packet) {
        let arrives = self.wire.back().map_or(arrives, |b| b.0.max(arrives));
        self.wire.push_back((arrives, seq, packet));
    }

    /// The arrival time and sequence number of the head packet.
    pub fn front_key(&self) -> Option<(Instant, u64)> {
        self.wire.front().map(|(t, s, _)| (*t, *s))
    }

    /// Takes the head packet off the wire.
    pub fn pop(&mut self) -> Option<Packet> {
        self.wire.pop_front().map(|(_, _, p)| p)
    }

    pub fn len(&self) -> usize {
        self.wire.len()
    }

    pub fn is_empty(&self) -> bool {
        self.wire.is_empty()
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
}
