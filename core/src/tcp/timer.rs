//! The sender's deadlines, one table of them (after quinn-proto's `connection/timer.rs`): each
//! kind of timer is armed, moved and stopped here, and the engine is asked to wake the sender
//! at the earliest.

use crate::time::Instant;

/// A kind of sender timer. The order is the one in which `Sender::on_timer` serves timers that
/// are due together, and the one [`TimerTable::next_expiry`] breaks ties in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Timer {
    /// Tail loss probe: RFC 8985 §7.2, Linux `tcp_schedule_loss_probe`. Before the RTO: Linux
    /// arms one timer for both, and a probe due by the RTO's deadline goes first.
    Tlp,
    /// Retransmission timeout: RFC 6298 §5, Linux `tcp_rearm_rto`.
    Rto,
    /// RACK's reordering window: RFC 8985 §6.2 step 5, Linux `tcp_rack_reo_timeout`.
    RackReorder,
    /// The pacer's release of the next packet: Linux `tcp_pacing_check` (the pacing hrtimer).
    Pacing,
}

impl Timer {
    pub const ALL: [Timer; 4] = [Timer::Tlp, Timer::Rto, Timer::RackReorder, Timer::Pacing];
    const COUNT: usize = Timer::ALL.len();

    const fn index(self) -> usize {
        self as usize
    }
}

/// Each timer's deadline, or `None` when it is stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TimerTable {
    deadlines: [Option<Instant>; Timer::COUNT],
}

impl TimerTable {
    /// Arms `timer` for `at`, replacing any earlier deadline.
    pub fn set(&mut self, timer: Timer, at: Instant) {
        self.deadlines[timer.index()] = Some(at);
    }

    /// Disarms `timer`.
    pub fn stop(&mut self, timer: Timer) {
        self.deadlines[timer.index()] = None;
    }

    pub fn get(&self, timer: Timer) -> Option<Instant> {
        self.deadlines[timer.index()]
    }

    /// Whether `timer` is armed for `now` or earlier.
    pub fn is_due(&self, timer: Timer, now: Instant) -> bool {
        self.get(timer).is_some_and(|d| d <= now)
    }

    /// The earliest deadline and its timer; of timers due at the same instant, the first in
    /// [`Timer`]'s order. (Called on every ACK: a plain loop over four entries.)
    pub fn next_expiry(&self) -> Option<(Timer, Instant)> {
        let mut next: Option<(Timer, Instant)> = None;
        for timer in Timer::ALL {
            if let Some(at) = self.get(timer) {
                if next.is_none_or(|(_, best)| at < best) {
                    next = Some((timer, at));
                }
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kinds_index_the_table_in_their_order() {
        for (i, timer) in Timer::ALL.into_iter().enumerate() {
            assert_eq!(timer.index(), i);
        }
    }

    #[test]
    fn the_earliest_deadline_wins_across_kinds() {
        let mut t = TimerTable::default();
        assert_eq!(t.next_expiry(), None);
        t.set(Timer::Rto, Instant(300));
        t.set(Timer::Pacing, Instant(100));
        t.set(Timer::Tlp, Instant(200));
        assert_eq!(t.next_expiry(), Some((Timer::Pacing, Instant(100))));
        t.set(Timer::RackReorder, Instant(50));
        assert_eq!(t.next_expiry(), Some((Timer::RackReorder, Instant(50))));
        // Setting again moves a deadline, later as well as earlier.
        t.set(Timer::RackReorder, Instant(400));
        assert_eq!(t.next_expiry(), Some((Timer::Pacing, Instant(100))));
        assert_eq!(t.get(Timer::RackReorder), Some(Instant(400)));
    }

    #[test]
    fn a_stopped_timer_is_gone() {
        let mut t = TimerTable::default();
        t.set(Timer::Rto, Instant(300));
        t.set(Timer::Tlp, Instant(200));
        t.stop(Timer::Tlp);
        assert_eq!(t.get(Timer::Tlp), None);
        assert!(!t.is_due(Timer::Tlp, Instant::MAX));
        assert_eq!(t.next_expiry(), Some((Timer::Rto, Instant(300))));
        t.stop(Timer::Rto);
        t.stop(Timer::Rto);
        assert_eq!(t.next_expiry(), None);
        assert_eq!(t, TimerTable::default());
    }

    #[test]
    fn ties_go_to_the_first_kind_in_order() {
        let mut t = TimerTable::default();
        t.set(Timer::Pacing, Instant(7));
        t.set(Timer::RackReorder, Instant(7));
        assert_eq!(t.next_expiry(), Some((Timer::RackReorder, Instant(7))));
        t.set(Timer::Rto, Instant(7));
        assert_eq!(t.next_expiry(), Some((Timer::Rto, Instant(7))));
        t.set(Timer::Tlp, Instant(7));
        assert_eq!(t.next_expiry(), Some((Timer::Tlp, Instant(7))));
    }

    #[test]
    fn a_timer_is_due_at_its_deadline_and_after() {
        let mut t = TimerTable::default();
        t.set(Timer::Rto, Instant(10));
        assert!(!t.is_due(Timer::Rto, Instant(9)));
        assert!(t.is_due(Timer::Rto, Instant(10)));
        assert!(t.is_due(Timer::Rto, Instant(11)));
        assert!(!t.is_due(Timer::Tlp, Instant(11)));
    }
}
