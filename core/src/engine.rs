//! The discrete-event engine: a time-ordered queue of events with insertion-order tie-break.
//!
//! Ties are broken by a sequence number so that two events at the same nanosecond always run in
//! the order they were scheduled, on every platform: this, integer time and one seeded generator
//! are what make a run reproducible bit for bit.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::time::Instant;

struct Entry<E> {
    at: Instant,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && self.seq == other.seq
    }
}

impl<E> Eq for Entry<E> {}

impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Entry<E> {
    // BinaryHeap is a max-heap: the earliest (time, seq) must compare greatest.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .at
            .cmp(&self.at)
            .then_with(|| other.seq.cmp(&self.seq))
    }
}

/// Why [`Scheduler::pop`] returned nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// No event is left.
    Idle,
    /// The hard event budget was spent.
    Budget,
}

/// A time-ordered event queue with a hard budget on the events it will hand out and the work
/// charged beside them.
pub struct Scheduler<E> {
    heap: BinaryHeap<Entry<E>>,
    now: Instant,
    next_seq: u64,
    executed: u64,
    /// Work charged beside the events (segments walked by the loss bookkeeping).
    work: u64,
    budget: u64,
}

impl<E> Scheduler<E> {
    pub fn new(budget: u64) -> Self {
        Scheduler {
            // The heap holds a handful of events per flow: timers and the heads of the delay
            // lines. Reserving up front keeps the hot path free of reallocation.
            heap: BinaryHeap::with_capacity(256),
            now: Instant::ZERO,
            next_seq: 0,
            executed: 0,
            work: 0,
            budget,
        }
    }

    pub fn now(&self) -> Instant {
        self.now
    }

    /// Events handed out so far.
    pub fn executed(&self) -> u64 {
        self.executed
    }

    /// Schedules `event` at `at`; an instant in the past is clamped to now, so time never goes
    /// back.
    pub fn schedule(&mut self, at: Instant, event: E) {
        let at = at.max(self.now);
        let seq = self.next_seq();
        self.heap.push(Entry { at, seq, event });
    }

    /// The next event, advancing the clock to its time.
    pub fn pop(&mut self) -> Result<(Instant, E), Halt> {
        if self.exhausted() {
            return Err(Halt::Budget);
        }
        let entry = self.heap.pop().ok_or(Halt::Idle)?;
        self.executed += 1;
        self.now = entry.at;
        Ok((entry.at, entry.event))
    }

    /// The (time, sequence number) of the next event in the heap.
    pub fn peek_key(&self) -> Option<(Instant, u64)> {
        self.heap.peek().map(|e| (e.at, e.seq))
    }

    /// A sequence number for an event kept outside the heap (a packet on a wire), so that it
    /// ties with the heap's events in the order it was scheduled.
    pub fn next_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    /// Runs an event kept outside the heap at `at`: advances the clock and counts it against
    /// the budget.
    pub fn advance(&mut self, at: Instant) -> Result<Instant, Halt> {
        if self.exhausted() {
            return Err(Halt::Budget);
        }
        self.executed += 1;
        self.now = self.now.max(at);
        Ok(self.now)
    }

    /// Charges `units` of work beside the events: the budget bounds events and work together,
    /// so a run whose events grow costly (a walk over thousands of holes) still stops in time.
    pub fn charge(&mut self, units: u64) {
        self.work = self.work.saturating_add(units);
    }

    /// Work charged so far.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Whether the budget is spent.
    pub fn exhausted(&self) -> bool {
        self.executed.saturating_add(self.work) >= self.budget
    }
}

/// The deadline of a timer that keeps at most one event pending in the engine: an earlier
/// deadline needs an event of its own, a later one is looked at again when the pending event
/// fires. A timer re-armed on every packet then costs no event per packet.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pending(Option<Instant>);

impl Pending {
    /// Arms the timer for `deadline`; returns whether an event must be scheduled for it.
    pub fn arm(&mut self, deadline: Instant) -> bool {
        if self.0.is_none_or(|armed| deadline < armed) {
            self.0 = Some(deadline);
            return true;
        }
        false
    }

    /// An event for this timer ran at `now`: if it was the one pending, none is now.
    pub fn fired(&mut self, now: Instant) {
        if self.0 == Some(now) {
            self.0 = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_come_out_in_time_order_and_ties_in_insertion_order() {
        let mut s = Scheduler::new(100);
        s.schedule(Instant(30), "c");
        s.schedule(Instant(10), "a1");
        s.schedule(Instant(20), "b");
        s.schedule(Instant(10), "a2");
        let order: Vec<_> = std::iter::from_fn(|| s.pop().ok().map(|(_, e)| e)).collect();
        assert_eq!(order, ["a1", "a2", "b", "c"]);
    }

    #[test]
    fn the_past_is_clamped_to_now() {
        let mut s = Scheduler::new(100);
        s.schedule(Instant(50), 1);
        assert_eq!(s.pop(), Ok((Instant(50), 1)));
        s.schedule(Instant(10), 2);
        assert_eq!(s.pop(), Ok((Instant(50), 2)));
    }

    #[test]
    fn the_budget_is_hard() {
        let mut s = Scheduler::new(2);
        for i in 0..5 {
            s.schedule(Instant(i), i);
        }
        assert!(s.pop().is_ok());
        assert!(s.pop().is_ok());
        assert_eq!(s.pop(), Err(Halt::Budget));
        assert_eq!(s.executed(), 2);
    }

    #[test]
    fn an_empty_queue_is_idle() {
        let mut s: Scheduler<()> = Scheduler::new(10);
        assert_eq!(s.pop(), Err(Halt::Idle));
    }

    #[test]
    fn a_timer_keeps_one_event_pending_for_its_earliest_deadline() {
        let mut t = Pending::default();
        assert!(t.arm(Instant(100)));
        // Later deadlines wait for the pending event; an earlier one needs its own.
        assert!(!t.arm(Instant(150)));
        assert!(t.arm(Instant(50)));
        // The event at 100 is no longer the pending one: its firing changes nothing.
        t.fired(Instant(100));
        assert!(!t.arm(Instant(80)));
        t.fired(Instant(50));
        assert!(t.arm(Instant(80)));
    }
}
