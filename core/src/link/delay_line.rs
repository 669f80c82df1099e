//! A wire with a fixed propagation delay.
//!
//! Packets enter in time order and all take the same delay, so they leave in the order they
//! entered: a FIFO suffices, and the engine needs only one event for the packet at its head
//! instead of one per packet in flight.

use std::collections::VecDeque;

use crate::packet::Packet;
use crate::time::Time;

pub struct DelayLine {
    delay: Time,
    wire: VecDeque<(Time, Packet)>,
}

impl DelayLine {
    pub fn new(delay: Time) -> Self {
        DelayLine {
            delay,
            wire: VecDeque::with_capacity(1024),
        }
    }

    pub fn delay(&self) -> Time {
        self.delay
    }

    /// Puts `packet` on the wire at `now`. Returns its arrival time if it is now the head, so the
    /// caller knows to schedule the head's arrival.
    pub fn push(&mut self, now: Time, packet: Packet) -> Option<Time> {
        let arrival = now + self.delay;
        self.wire.push_back((arrival, packet));
        (self.wire.len() == 1).then_some(arrival)
    }

    /// Takes the head packet off the wire; returns it with the arrival time of the next one.
    pub fn pop(&mut self) -> Option<(Packet, Option<Time>)> {
        let (_, packet) = self.wire.pop_front()?;
        Some((packet, self.wire.front().map(|(t, _)| *t)))
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
        let mut line = DelayLine::new(Time(100));
        assert_eq!(line.push(Time(0), pkt(1)), Some(Time(100)));
        assert_eq!(line.push(Time(5), pkt(2)), None);
        let (p, next) = line.pop().expect("head");
        assert_eq!((p.flow, next), (1, Some(Time(105))));
        let (p, next) = line.pop().expect("head");
        assert_eq!((p.flow, next), (2, None));
        assert!(line.pop().is_none());
    }
}
