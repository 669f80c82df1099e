//! Undoing a window reduction that proves spurious, as Linux does (`tcp_try_undo_recovery`,
//! `tcp_try_undo_dsack`, `tcp_try_undo_loss`, `tcp_undo_cwnd_reduction`): a reduction is
//! spurious when every retransmission it made was reported as a duplicate by D-SACK
//! (RFC 2883, RFC 3708), or when an ACK echoes a timestamp older than the first retransmission,
//! so that the original, not the retransmission, reached the receiver (the Eifel detection of
//! RFC 3522, Linux `tcp_packet_delayed`). The window and ssthresh of before the reduction come
//! back. A path that never reorders or delays makes few such reductions: a timeout while the
//! queue held the window, or a probe or retransmission racing its original.

use crate::packet::SackBlock;

/// One reduction's undo state. While `marker` is set the reduction may still be undone.
#[derive(Debug, Clone, Default)]
pub struct Undo {
    /// Linux's `undo_marker`: `snd_una` when the reduction began.
    marker: Option<u64>,
    /// Linux's `undo_retrans`: retransmissions not yet reported as duplicates; `None` before
    /// the first (Linux's -1), so that a reduction that resent nothing is not "all DSACKed".
    retrans: Option<u32>,
    /// The window and ssthresh to restore (`prior_cwnd`, `prior_ssthresh`; 0: none).
    prior_cwnd: u32,
    prior_ssthresh: u32,
    /// Linux's `retrans_stamp`: the timestamp value of the episode's first retransmission.
    retrans_stamp: Option<u32>,
}

/// What an undo restores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Restore {
    pub cwnd: u32,
    pub ssthresh: u32,
}

impl Undo {
    /// `tcp_init_undo`, when recovery or a timeout begins: `retrans_out` retransmissions are
    /// already out.
    pub fn begin(&mut self, snd_una: u64, retrans_out: u32, prior_cwnd: u32, prior_ssthresh: u32) {
        self.marker = Some(snd_una);
        self.retrans = (retrans_out > 0).then_some(retrans_out);
        self.prior_cwnd = prior_cwnd;
        self.prior_ssthresh = prior_ssthresh;
    }

    /// `tcp_retransmit_skb`: one more retransmission, stamped `tsval`.
    pub fn on_retransmit(&mut self, tsval: u32) {
        self.retrans_stamp.get_or_insert(tsval);
        if self.marker.is_some() {
            self.retrans = Some(self.retrans.unwrap_or(0) + 1);
        }
    }

    /// `tcp_check_dsack`: a D-SACK for `segs` segments ending at `block.end`; those resent
    /// since the reduction began count against its retransmissions.
    pub fn on_dsack(&mut self, block: SackBlock, segs: u32) {
        if let (Some(marker), Some(n)) = (self.marker, self.retrans) {
            if n > 0 && block.end > marker {
                self.retrans = Some(n.saturating_sub(segs));
            }
        }
    }

    /// Whether every retransmission was reported as a duplicate (`!tp->undo_retrans`).
    pub fn all_dsacked(&self) -> bool {
        self.marker.is_some() && self.retrans == Some(0)
    }

    /// `tcp_packet_delayed`: nothing was retransmitted, or the ACK echoes a timestamp from
    /// before the first retransmission (`ecr` 0: timestamps are off, and nothing is known).
    pub fn packet_delayed(&self, ecr: u32) -> bool {
        match self.retrans_stamp {
            None => true,
            Some(stamp) => ecr != 0 && (ecr.wrapping_sub(stamp) as i32) < 0,
        }
    }

    /// `tcp_may_undo`.
    pub fn may_undo(&self, ecr: u32) -> bool {
        self.marker.is_some() && (self.retrans == Some(0) || self.packet_delayed(ecr))
    }

    pub fn pending(&self) -> bool {
        self.marker.is_some()
    }

    /// `tcp_undo_cwnd_reduction`: ends the reduction's undo state and says what to restore,
    /// if ssthresh was set aside (`prior_ssthresh`).
    pub fn take(&mut self) -> Option<Restore> {
        self.marker = None;
        (self.prior_ssthresh > 0).then_some(Restore {
            cwnd: self.prior_cwnd,
            ssthresh: self.prior_ssthresh,
        })
    }

    /// `tcp_enter_cwr` clears the marker: a reduction without retransmissions is not undone.
    pub fn forget(&mut self) {
        self.marker = None;
    }

    /// Nothing retransmitted is outstanding any more: the next episode stamps afresh.
    pub fn clear_stamp(&mut self) {
        self.retrans_stamp = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reduction_is_undone_once_every_retransmission_is_dsacked() {
        let mut u = Undo::default();
        u.begin(1000, 0, 20, 15);
        assert!(!u.all_dsacked(), "nothing resent yet is not all DSACKed");
        u.on_retransmit(7);
        u.on_retransmit(8);
        u.on_dsack(
            SackBlock {
                start: 1000,
                end: 2000,
            },
            1,
        );
        assert!(!u.all_dsacked());
        // A duplicate of data from before the reduction does not count.
        u.on_dsack(SackBlock { start: 0, end: 500 }, 1);
        assert!(!u.all_dsacked());
        u.on_dsack(
            SackBlock {
                start: 2000,
                end: 3000,
            },
            1,
        );
        assert!(u.all_dsacked() && u.may_undo(0));
        assert_eq!(
            u.take(),
            Some(Restore {
                cwnd: 20,
                ssthresh: 15
            })
        );
        assert!(!u.pending());
    }

    #[test]
    fn an_echo_older_than_the_first_retransmission_shows_the_original_arrived() {
        let mut u = Undo::default();
        u.begin(0, 0, 10, 8);
        u.on_retransmit(500);
        u.on_retransmit(520);
        assert!(
            u.may_undo(499),
            "the ACK answers a segment sent before the retransmission"
        );
        assert!(!u.may_undo(500));
        assert!(!u.may_undo(0), "without timestamps nothing is known");
    }
}
