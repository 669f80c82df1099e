//! RACK (RFC 8985 §6), time-based loss detection as Linux runs it by default
//! (`tcp_recovery.c`): a segment is lost once a segment sent after it has been delivered and a
//! reordering window has passed. Unlike counting duplicate ACKs it also finds lost
//! retransmissions and losses at the tail of a small window.

use std::collections::VecDeque;

use crate::time::{Duration, Instant};

use super::scoreboard::{DeliveredSeg, Scoreboard};

#[derive(Debug, Default)]
pub struct Rack {
    /// Send time and end of the most recently sent segment known delivered.
    xmit_ts: Option<Instant>,
    end_seq: u64,
    /// RTT of that segment.
    rtt: Duration,
    /// Every transmission, in send order: (time, first byte). Entries for segments since
    /// delivered or resent are skipped when they reach the front.
    sent: VecDeque<(Instant, u64)>,
}

impl Rack {
    pub fn new() -> Self {
        Rack {
            sent: VecDeque::with_capacity(1024),
            ..Default::default()
        }
    }

    pub fn on_transmit(&mut self, now: Instant, seq: u64) {
        self.sent.push_back((now, seq));
    }

    /// RFC 8985 §6.2 step 2 (`tcp_rack_advance`): remember the most recently sent segment
    /// delivered. A retransmission acknowledged sooner than the minimum RTT may be the
    /// original's ACK, so it is not trusted.
    pub fn on_delivered(&mut self, now: Instant, seg: DeliveredSeg, min_rtt: Option<Duration>) {
        let rtt = now.saturating_duration_since(seg.sent_at);
        if seg.ever_retrans && min_rtt.is_some_and(|m| rtt < m) {
            return;
        }
        let later = match self.xmit_ts {
            None => true,
            Some(t) => seg.sent_at > t || (seg.sent_at == t && seg.end > self.end_seq),
        };
        if later {
            self.rtt = rtt;
            self.xmit_ts = Some(seg.sent_at);
            self.end_seq = seg.end;
        }
    }

    /// Drops the entries of segments acknowledged since, as [`Rack::detect`] does first: on an
    /// ACK that runs no loss detection the list still stays as long as the window.
    pub fn forget_acked(&mut self, board: &Scoreboard) {
        // `acked`, with the scoreboard's first byte read once.
        let una = board.front().map_or(u64::MAX, |f| f.seq);
        while self.sent.front().is_some_and(|&(_, seq)| seq < una) {
            self.sent.pop_front();
        }
    }

    /// RFC 8985 §6.2 step 5 (`tcp_rack_detect_loss`): marks lost every segment sent before the
    /// most recently delivered one whose RTT plus `reo_wnd` has passed; returns the bytes newly
    /// marked and when the first one still waiting is lost (the reordering timer's deadline).
    pub fn detect(
        &mut self,
        now: Instant,
        reo_wnd: Duration,
        board: &mut Scoreboard,
    ) -> (u64, Option<Instant>) {
        let Some(xmit_ts) = self.xmit_ts else {
            return (0, None);
        };
        let mut marked = 0;
        let mut deadline = None;
        while let Some(&(t, seq)) = self.sent.front() {
            // Cheap tests first: this runs on every ACK.
            if acked(board, seq) {
                self.sent.pop_front();
                continue;
            }
            // Sent after the most recently delivered segment (or with it, later in the burst):
            // not judged yet. Checked before the lookup, as most ACKs stop here.
            if t > xmit_ts || (t == xmit_ts && seq >= self.end_seq) {
                break;
            }
            let Some(seg) = board.get(seq) else {
                self.sent.pop_front();
                continue;
            };
            let awaiting_retransmit = seg.lost && !seg.retrans;
            if seg.sacked || seg.sent_at != t || awaiting_retransmit {
                self.sent.pop_front();
                continue;
            }
            if t > xmit_ts || (t == xmit_ts && seg.end() >= self.end_seq) {
                break;
            }
            let expires = t + self.rtt + reo_wnd;
            if expires > now {
                deadline = Some(expires);
                break;
            }
            let len = u64::from(seg.len);
            if board.mark_lost(seq) {
                marked += len;
            }
            self.sent.pop_front();
        }
        (marked, deadline)
    }

    /// RACK's RTT: that of the most recently sent segment delivered (zero before any).
    pub fn rtt(&self) -> Duration {
        self.rtt
    }

    /// Takes every segment still awaiting delivery back into the send order, after an undo
    /// made lost segments outstanding again (`rack.advanced = 1` in `tcp_undo_cwnd_reduction`:
    /// RACK judges them all afresh).
    pub fn rebuild(&mut self, board: &Scoreboard) {
        let mut sent: Vec<(Instant, u64)> = board.unsacked_sends().collect();
        sent.sort_unstable();
        self.sent.clear();
        self.sent.extend(sent);
    }
}

/// Whether the segment that starts at `seq` is cumulatively acknowledged: below the
/// scoreboard's first segment, or the scoreboard is empty.
#[inline(always)]
fn acked(board: &Scoreboard, seq: u64) -> bool {
    board.front().is_none_or(|f| seq < f.seq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::SackBlock;
    use crate::tcp::scoreboard::{Seg, TxSnapshot};

    const MS: u64 = 1_000_000;

    fn setup(n: u64) -> (Rack, Scoreboard) {
        let mut rack = Rack::new();
        let mut b = Scoreboard::new();
        for i in 0..n {
            let t = Instant(i * MS);
            b.push(Seg::sent(i * 1000, 1000, t, TxSnapshot::default()));
            rack.on_transmit(t, i * 1000);
        }
        (rack, b)
    }

    #[test]
    fn a_hole_is_lost_once_a_later_segment_is_delivered_and_the_window_passes() {
        let (mut rack, mut b) = setup(4);
        // Segment 1 (sent at 1 ms) is SACKed at 101 ms: RTT 100 ms.
        let latest = b
            .sack(&[SackBlock {
                start: 1000,
                end: 2000,
            }])
            .latest;
        rack.on_delivered(Instant(101 * MS), latest.expect("delivered"), None);
        // With a 25 ms reordering window segment 0 is lost at 0 + 100 + 25 ms, not before.
        assert_eq!(
            rack.detect(Instant(101 * MS), Duration(25 * MS), &mut b),
            (0, Some(Instant(125 * MS)))
        );
        assert_eq!(
            rack.detect(Instant(125 * MS), Duration(25 * MS), &mut b),
            (1000, None)
        );
        assert!(b.head_is_lost());
        // Segments 2 and 3 were sent after the delivered one: not judged.
        assert_eq!(b.lost_bytes(), 1000);
    }

    #[test]
    fn forgetting_the_acknowledged_keeps_the_list_as_long_as_the_window() {
        let (mut rack, mut b) = setup(4);
        b.ack(2000);
        rack.forget_acked(&b);
        assert_eq!(
            rack.sent.iter().map(|&(_, seq)| seq).collect::<Vec<_>>(),
            [2000, 3000]
        );
        b.ack(4000);
        rack.forget_acked(&b);
        assert!(rack.sent.is_empty());
    }

    #[test]
    fn a_lost_retransmission_is_found_again() {
        let (mut rack, mut b) = setup(3);
        b.mark_head_lost();
        b.on_retransmit(0, Instant(10 * MS), TxSnapshot::default());
        rack.on_transmit(Instant(10 * MS), 0);
        // Segment 2 was sent at 2 ms; the retransmission at 10 ms. A SACK for a segment sent
        // after the retransmission proves it lost.
        b.push(Seg::sent(
            3000,
            1000,
            Instant(11 * MS),
            TxSnapshot::default(),
        ));
        rack.on_transmit(Instant(11 * MS), 3000);
        let latest = b
            .sack(&[SackBlock {
                start: 1000,
                end: 4000,
            }])
            .latest;
        rack.on_delivered(Instant(111 * MS), latest.expect("delivered"), None);
        assert_eq!(
            rack.detect(Instant(111 * MS), Duration::ZERO, &mut b),
            (1000, None)
        );
        assert_eq!(b.next_retransmit(), Some((0, 1000)));
    }
}
