//! The sender's record of every segment sent and not yet cumulatively acknowledged: which were
//! SACKed, which are deemed lost, which were retransmitted (RFC 6675's scoreboard, with Linux's
//! counters so that the data in flight is known without a walk: `tcp_packets_in_flight`).
//!
//! Segments keep the boundaries they were first sent with (no repacketisation), so every ACK and
//! SACK edge falls on a segment boundary.

use std::collections::{BTreeSet, VecDeque};

use crate::tcp::ranges::RangeSet;

use crate::packet::SackBlock;
use crate::time::Instant;

/// RFC 6675's DupThresh (Linux's initial `tp->reordering`): the third duplicate ACK, or three
/// segments SACKed, after which RACK allows no reordering window (`tcp_rack_reo_wnd`).
pub const DUP_THRESH: usize = 3;

/// Segments a walk may visit as part of the event that asked for it, before the rest is
/// charged to the budget as work: ordinary recovery stays within it, so an ordinary run's
/// budget is counted in events alone.
const FREE_WALK: u64 = 32;

/// One segment in flight or awaiting its cumulative ACK.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seg {
    pub seq: u64,
    pub len: u32,
    /// Time of the latest transmission.
    pub sent_at: Instant,
    pub sacked: bool,
    /// Deemed lost (Linux's `TCPCB_LOST`). It stays set when the segment is retransmitted, so
    /// "awaiting retransmission" is `lost && !retrans`; only a SACK or the cumulative ACK clears
    /// it.
    pub lost: bool,
    /// Retransmitted since it was last deemed lost.
    pub retrans: bool,
    /// Retransmitted at least once: Karn's rule (RFC 6298 §3) takes no RTT sample from its
    /// delivery's timing (Linux's `TCPCB_RETRANS`; the timestamp echo may still give one).
    pub ever_retrans: bool,
    /// Delivery-rate state when it was sent (Linux `tcp_rate_skb_sent`).
    pub tx: TxSnapshot,
}

impl Seg {
    /// A segment just sent for the first time: neither SACKed, lost nor retransmitted.
    pub fn sent(seq: u64, len: u32, sent_at: Instant, tx: TxSnapshot) -> Seg {
        Seg {
            seq,
            len,
            sent_at,
            sacked: false,
            lost: false,
            retrans: false,
            ever_retrans: false,
            tx,
        }
    }

    pub fn end(&self) -> u64 {
        self.seq + u64::from(self.len)
    }

    /// Its place in the order segments were sent ([`send_order`]).
    fn send_order(&self) -> (Instant, u64) {
        send_order(self.sent_at, self.end())
    }
}

/// The sender's delivery counters when a segment left, for rate samples (`tcp_rate.c`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TxSnapshot {
    pub delivered: u64,
    pub delivered_time: Instant,
    pub first_tx_time: Instant,
    pub app_limited: bool,
}

/// Linux's `tcp_skb_sent_after`, as a key: sent later, or at the same instant (segments of one
/// burst) and ending higher. RACK (`tcp_rack_advance`) and the rate sample
/// (`tcp_rate_skb_delivered`) each keep the delivered segment sent last in this order.
fn send_order(sent_at: Instant, end: u64) -> (Instant, u64) {
    (sent_at, end)
}

/// The most recently sent of the segments an ACK delivered: RACK's and the rate sampler's clue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeliveredSeg {
    pub sent_at: Instant,
    pub end: u64,
    pub ever_retrans: bool,
    pub tx: TxSnapshot,
}

impl DeliveredSeg {
    fn of(seg: &Seg) -> Self {
        DeliveredSeg {
            sent_at: seg.sent_at,
            end: seg.end(),
            ever_retrans: seg.ever_retrans,
            tx: seg.tx,
        }
    }

    /// Sent after `other` ([`send_order`]).
    pub fn sent_after(&self, other: &DeliveredSeg) -> bool {
        send_order(self.sent_at, self.end) > send_order(other.sent_at, other.end)
    }

    /// Keeps whichever of `slot` and `seg` was sent last ([`DeliveredSeg::sent_after`]).
    fn latest(slot: &mut Option<DeliveredSeg>, seg: &Seg) {
        let d = DeliveredSeg::of(seg);
        if slot.is_none_or(|s| d.sent_after(&s)) {
            *slot = Some(d);
        }
    }
}

/// What a cumulative ACK removed from the scoreboard.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Acked {
    /// Bytes acknowledged that had not been SACKed before: newly delivered.
    pub newly_delivered: u64,
    /// Bytes acknowledged in all.
    pub bytes: u64,
    /// Segments acknowledged in all, and those of them not SACKed before.
    pub segs: u64,
    pub newly_delivered_segs: u64,
    /// Send times of the oldest and the newest newly acknowledged segments, if no
    /// retransmitted segment was among them: Karn's rule (RFC 6298 §3) as Linux's
    /// `tcp_clean_rtx_queue` applies it (`first_ackt`, `last_ackt`, none once
    /// `FLAG_RETRANS_DATA_ACKED`). The first times the RTT estimator's sample, the last the
    /// congestion controller's.
    pub rtt_sent_at: Option<Instant>,
    pub last_sent_at: Option<Instant>,
    /// The most recently sent segment delivered.
    pub latest: Option<DeliveredSeg>,
    /// The end of the first newly delivered segment never retransmitted: with Linux's
    /// `high_seq`, its `FLAG_ORIG_SACK_ACKED`, F-RTO's proof that a timeout was spurious.
    pub first_orig_end: Option<u64>,
}

/// Bytes and segments of one kind on the scoreboard: Linux counts packets (`packets_out`,
/// `sacked_out`, `lost_out`, `retrans_out`), the charts count bytes, and a segment shorter than
/// the MSS makes the two differ.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub bytes: u64,
    pub segs: u64,
}

impl Tally {
    fn add(&mut self, len: u32) {
        self.bytes += u64::from(len);
        self.segs += 1;
    }

    fn sub(&mut self, len: u32) {
        self.bytes -= u64::from(len);
        self.segs -= 1;
    }

    /// What `self` counts beyond `earlier`, an older reading of the same counter.
    pub fn since(self, earlier: Tally) -> Tally {
        Tally {
            bytes: self.bytes - earlier.bytes,
            segs: self.segs - earlier.segs,
        }
    }

    fn of<'a>(segs: impl Iterator<Item = &'a Seg>) -> Tally {
        segs.fold(Tally::default(), |mut t, s| {
            t.add(s.len);
            t
        })
    }
}

/// What SACK blocks newly covered.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Sacked {
    pub newly: Tally,
    /// The most recently sent segment newly SACKed.
    pub latest: Option<DeliveredSeg>,
    /// Send times of the first and the last never-retransmitted segments newly SACKed: RTT
    /// samples by timing, as from the cumulative ACK (`tcp_sacktag_one`).
    pub rtt_sent_at: Option<Instant>,
    pub last_sent_at: Option<Instant>,
    /// The lowest end of a never-retransmitted segment newly SACKed (as [`Acked`]'s).
    pub first_orig_end: Option<u64>,
}

#[derive(Debug, Default)]
pub struct Scoreboard {
    segs: VecDeque<Seg>,
    /// SACKed ranges above the cumulative ACK.
    sacked_ranges: RangeSet,
    /// The segments deemed lost and not retransmitted since, by first byte: NextSeg's
    /// candidates, found in a logarithm of the window instead of a walk over it.
    to_retransmit: BTreeSet<u64>,
    out: Tally,
    sacked: Tally,
    lost: Tally,
    /// Bytes and segments ever marked lost: the difference across an ACK is what it revealed.
    lost_marked: Tally,
    retrans: Tally,
    /// Segments visited since the last `take_work` by the walks that may revisit segments
    /// (a timeout's over the whole window, an undo's): what the engine's budget charges
    /// beside its events, so that a run's time stays bounded by it whatever the losses make
    /// these walks cost. The other walks touch each segment a bounded number of times over its
    /// life (acknowledged once, SACKed once), so the events already bound them.
    work: u64,
}

impl Scoreboard {
    pub fn new() -> Self {
        Scoreboard {
            segs: VecDeque::with_capacity(1024),
            ..Default::default()
        }
    }

    pub fn push(&mut self, seg: Seg) {
        self.out.add(seg.len);
        self.segs.push_back(seg);
    }

    pub fn is_empty(&self) -> bool {
        self.segs.is_empty()
    }

    /// Charges a walk of `visited` segments: the first `FREE_WALK` of each walk are what any
    /// event may do, and only the rest is work beyond the event's own (see `work`).
    fn charge(&mut self, visited: u64) {
        self.work += visited.saturating_sub(FREE_WALK);
    }

    /// The work done since the last call (see `work`).
    pub fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }

    pub fn len(&self) -> usize {
        self.segs.len()
    }

    pub fn front(&self) -> Option<&Seg> {
        self.segs.front()
    }

    pub fn last(&self) -> Option<&Seg> {
        self.segs.back()
    }

    pub fn out_bytes(&self) -> u64 {
        self.out.bytes
    }

    pub fn sacked_bytes(&self) -> u64 {
        self.sacked.bytes
    }

    pub fn lost_bytes(&self) -> u64 {
        self.lost.bytes
    }

    /// Bytes and segments marked lost since the connection began.
    pub fn lost_marked(&self) -> Tally {
        self.lost_marked
    }

    /// Retransmitted segments in flight (Linux's `retrans_out`).
    pub fn retrans_segs(&self) -> u64 {
        self.retrans.segs
    }

    pub fn retrans_bytes(&self) -> u64 {
        self.retrans.bytes
    }

    /// Bytes in the network by RFC 6675's reckoning (Linux `tcp_packets_in_flight`): sent, less
    /// what was SACKed or deemed lost, plus what was retransmitted.
    pub fn pipe(&self) -> u64 {
        (self.out.bytes + self.retrans.bytes).saturating_sub(self.sacked.bytes + self.lost.bytes)
    }

    /// Segments in the network, the same reckoning in packets: Linux's
    /// `packets_out - (sacked_out + lost_out) + retrans_out`, what the congestion window limits.
    pub fn pipe_segs(&self) -> u64 {
        (self.out.segs + self.retrans.segs).saturating_sub(self.sacked.segs + self.lost.segs)
    }

    /// Segments sent and not yet cumulatively acknowledged (Linux's `packets_out`).
    pub fn out_segs(&self) -> u64 {
        self.out.segs
    }

    /// Segments deemed lost (Linux's `lost_out`).
    pub fn lost_segs(&self) -> u64 {
        self.lost.segs
    }

    pub fn sacked_ranges(&self) -> Vec<SackBlock> {
        self.sacked_ranges.iter().collect()
    }

    /// Keeps `to_retransmit` in step with one segment's flags, after any change to them.
    fn track(to_retransmit: &mut BTreeSet<u64>, seg: &Seg) {
        if seg.lost && !seg.retrans && !seg.sacked {
            to_retransmit.insert(seg.seq);
        } else if !to_retransmit.is_empty() {
            // Outside recovery the set is empty, and most calls come there: no search.
            to_retransmit.remove(&seg.seq);
        }
    }

    #[inline(always)]
    fn index_of(&self, seq: u64) -> Option<usize> {
        let i = self.partition_near(seq, |s| s.end() <= seq);
        (i < self.segs.len() && self.segs[i].seq <= seq).then_some(i)
    }

    /// `partition_point(pred)` for a predicate that turns false near byte `seq`. A flow's
    /// segments are nearly all one size, so the index the first one's size gives is nearly
    /// always the answer, checked against its neighbours; the binary search is for the rest.
    #[inline(always)]
    fn partition_near(&self, seq: u64, pred: impl Fn(&Seg) -> bool) -> usize {
        let n = self.segs.len();
        if let Some(first) = self.segs.front() {
            if let Some(off) = seq.checked_sub(first.seq) {
                let g = usize::try_from(off / u64::from(first.len.max(1))).map_or(n, |g| g.min(n));
                let below = g == 0 || pred(&self.segs[g - 1]);
                let at = g == n || !pred(&self.segs[g]);
                if below && at {
                    return g;
                }
            }
        }
        self.segs.partition_point(pred)
    }

    /// Send time and first byte of every segment not SACKed.
    pub fn unsacked_sends(&self) -> impl Iterator<Item = (Instant, u64)> + '_ {
        self.segs
            .iter()
            .filter(|s| !s.sacked)
            .map(|s| (s.sent_at, s.seq))
    }

    #[inline(always)]
    pub fn get(&self, seq: u64) -> Option<&Seg> {
        self.index_of(seq).map(|i| &self.segs[i])
    }

    /// Removes every segment below the cumulative ACK `ack`.
    pub fn ack(&mut self, ack: u64) -> Acked {
        let mut out = Acked::default();
        let mut retrans_acked = false;
        // The segments acknowledged are a prefix of the window: walked in place, then dropped
        // at once (taking them off one by one copied each out of the ring).
        let n = self.partition_near(ack, |s| s.end() <= ack);
        // The first and last never-retransmitted segments, and the one sent last: read once the
        // walk is over.
        let (mut first_orig, mut last_orig, mut latest) =
            (None::<&Seg>, None::<&Seg>, None::<&Seg>);
        for seg in self.segs.range(..n) {
            if !self.to_retransmit.is_empty() {
                self.to_retransmit.remove(&seg.seq);
            }
            let len = u64::from(seg.len);
            out.bytes += len;
            out.segs += 1;
            self.out.sub(seg.len);
            if seg.sacked {
                self.sacked.sub(seg.len);
            } else {
                out.newly_delivered += len;
                out.newly_delivered_segs += 1;
                if seg.ever_retrans {
                    retrans_acked = true;
                } else {
                    first_orig.get_or_insert(seg);
                    last_orig = Some(seg);
                }
                if latest.is_none_or(|l| seg.send_order() > l.send_order()) {
                    latest = Some(seg);
                }
            }
            if seg.lost {
                self.lost.sub(seg.len);
            }
            if seg.retrans {
                self.retrans.sub(seg.len);
            }
        }
        out.first_orig_end = first_orig.map(Seg::end);
        // Karn's rule (RFC 6298 §3): no sample from timing once a retransmitted segment is
        // covered.
        if !retrans_acked {
            out.rtt_sent_at = first_orig.map(|s| s.sent_at);
            out.last_sent_at = last_orig.map(|s| s.sent_at);
        }
        out.latest = latest.map(DeliveredSeg::of);
        self.segs.drain(..n);
        self.sacked_ranges.remove_below(ack);
        out
    }

    /// Marks the segments inside `blocks` as SACKed. Only the parts of each block not SACKed
    /// before are walked, so a block that grows by one segment per ACK costs one segment.
    pub fn sack(&mut self, blocks: &[SackBlock]) -> Sacked {
        let mut out = Sacked::default();
        let (Some(first), Some(last)) = (self.segs.front(), self.segs.back()) else {
            return out;
        };
        let (lo, hi) = (first.seq, last.end());
        for b in blocks {
            let (start, end) = (b.start.max(lo), b.end.min(hi));
            if start >= end {
                continue;
            }
            // Walk the gaps of [start, end) not yet covered by a SACKed range.
            let mut cursor = start;
            let mut gaps = false;
            while cursor < end {
                if let Some(r) = self.sacked_ranges.containing(cursor) {
                    cursor = r.end;
                    continue;
                }
                let gap_end = self
                    .sacked_ranges
                    .starting_from(cursor)
                    .map_or(end, |r| r.start.min(end));
                self.mark_sacked(cursor, gap_end, &mut out);
                cursor = gap_end;
                gaps = true;
            }
            // An ACK repeats the older blocks it has room for (RFC 2018 §4): a block with no
            // gap is in the ranges already.
            if gaps {
                self.sacked_ranges.insert(SackBlock { start, end });
            }
        }
        out
    }

    fn mark_sacked(&mut self, start: u64, end: u64, out: &mut Sacked) {
        let mut i = self.partition_near(start, |s| s.end() <= start);
        while let Some(seg) = self.segs.get_mut(i) {
            if seg.seq >= end {
                break;
            }
            i += 1;
            // A block covers whole segments; a segment only partly inside was not received whole.
            if seg.seq < start || seg.end() > end || seg.sacked {
                continue;
            }
            seg.sacked = true;
            out.newly.add(seg.len);
            DeliveredSeg::latest(&mut out.latest, seg);
            if !seg.ever_retrans {
                // Linux's `first_sackt` and `last_sackt`, in the order the blocks are walked.
                out.rtt_sent_at.get_or_insert(seg.sent_at);
                out.last_sent_at = Some(seg.sent_at);
                let end = seg.end();
                out.first_orig_end = Some(out.first_orig_end.map_or(end, |e| e.min(end)));
            }
            if seg.lost {
                seg.lost = false;
                self.lost.sub(seg.len);
            }
            if seg.retrans {
                seg.retrans = false;
                self.retrans.sub(seg.len);
            }
            Self::track(&mut self.to_retransmit, seg);
            self.sacked.add(seg.len);
        }
    }

    /// Marks the segment at `seq` lost, a retransmission of it included (RACK, RFC 8985 §6.2).
    /// Returns whether it was newly marked.
    pub fn mark_lost(&mut self, seq: u64) -> bool {
        let Some(i) = self.index_of(seq) else {
            return false;
        };
        let seg = &self.segs[i];
        if seg.sacked || (seg.lost && !seg.retrans) {
            return false;
        }
        self.deem_lost(i);
        true
    }

    /// Deems the segment at index `i` lost and not (any more) retransmitted, and counts it among
    /// those ever marked lost: the step every way of marking a loss shares.
    fn deem_lost(&mut self, i: usize) {
        let seg = &mut self.segs[i];
        if seg.retrans {
            seg.retrans = false;
            self.retrans.sub(seg.len);
        }
        if !seg.lost {
            seg.lost = true;
            self.lost.add(seg.len);
        }
        Self::track(&mut self.to_retransmit, seg);
        self.lost_marked.add(seg.len);
    }

    /// Marks the first unacknowledged segment lost (fast retransmit, and NewReno's partial ACK,
    /// RFC 6582 §3.2 step 5). Returns whether it was newly marked.
    pub fn mark_head_lost(&mut self) -> bool {
        let Some(seg) = self.segs.front() else {
            return false;
        };
        if seg.sacked || seg.lost {
            return false;
        }
        self.deem_lost(0);
        true
    }

    /// After a timeout every segment not SACKed is deemed lost, retransmitted or not, except
    /// those sent after `spare_after`, the head always included (Linux `tcp_timeout_mark_lost`:
    /// RACK does not yet call lost a segment sent within its RTT, `tcp_rack_skb_timeout > 0`).
    pub fn mark_all_lost(&mut self, spare_after: Option<Instant>) {
        self.charge(self.segs.len() as u64);
        for i in 0..self.segs.len() {
            let seg = &self.segs[i];
            if seg.sacked {
                continue;
            }
            if i > 0 && spare_after.is_some_and(|t| seg.sent_at > t) {
                continue;
            }
            self.deem_lost(i);
        }
    }

    /// A reduction proved spurious (Linux `tcp_undo_cwnd_reduction` with `unmark_loss`):
    /// nothing is deemed lost any more, retransmissions in flight stay counted in the pipe, and
    /// every segment is judged afresh (RACK re-examines them, `rack.advanced = 1`).
    pub fn clear_lost(&mut self) {
        self.charge(self.segs.len() as u64);
        for seg in self.segs.iter_mut() {
            seg.lost = false;
        }
        self.lost = Tally::default();
        self.to_retransmit.clear();
    }

    /// RFC 6675 NextSeg() rule 1: the lowest segment deemed lost and not yet retransmitted,
    /// the first of `to_retransmit`. Asked before every segment sent, and nearly always with
    /// none waiting (nothing lost, or every lost segment resent already): an empty set's answer.
    #[inline(always)]
    pub fn next_retransmit(&self) -> Option<(u64, u32)> {
        let &seq = self.to_retransmit.first()?;
        self.get(seq).map(|s| (s.seq, s.len))
    }

    /// Records the retransmission of the segment at `seq`.
    pub fn on_retransmit(&mut self, seq: u64, now: Instant, tx: TxSnapshot) {
        let Some(i) = self.index_of(seq) else {
            return;
        };
        let seg = &mut self.segs[i];
        if !seg.retrans {
            seg.retrans = true;
            self.retrans.add(seg.len);
        }
        seg.ever_retrans = true;
        seg.sent_at = now;
        seg.tx = tx;
        Self::track(&mut self.to_retransmit, seg);
    }

    /// Checks every counter and index against the segments themselves, for tests: the byte
    /// and segment counts, the SACKed ranges' cover, and the retransmission queue. `Err` names
    /// the first that disagrees.
    pub fn audit(&self) -> Result<(), String> {
        let sum = |f: fn(&Seg) -> bool| Tally::of(self.segs.iter().filter(|s| f(s)));
        let checks = [
            ("out", self.out, sum(|_| true)),
            ("sacked", self.sacked, sum(|s| s.sacked)),
            ("lost", self.lost, sum(|s| s.lost)),
            ("retrans", self.retrans, sum(|s| s.retrans)),
        ];
        for (name, kept, counted) in checks {
            if kept != counted {
                return Err(format!("{name}: kept {kept:?}, counted {counted:?}"));
            }
        }
        let queued: Vec<u64> = self.to_retransmit.iter().copied().collect();
        let due: Vec<u64> = self
            .segs
            .iter()
            .filter(|s| s.lost && !s.retrans && !s.sacked)
            .map(|s| s.seq)
            .collect();
        if queued != due {
            return Err(format!("to_retransmit {queued:?}, segments {due:?}"));
        }
        for seg in self.segs.iter().filter(|s| s.sacked) {
            if self
                .sacked_ranges
                .containing(seg.seq)
                .is_none_or(|r| r.end < seg.end())
            {
                return Err(format!("SACKed segment {} outside every range", seg.seq));
            }
        }
        Ok(())
    }

    /// Whether the head segment is deemed lost (by RACK, a timeout or the third duplicate ACK).
    pub fn head_is_lost(&self) -> bool {
        self.segs.front().is_some_and(|s| s.lost)
    }

    /// The SACKed segments above the cumulative ACK.
    pub fn sacked_segments(&self) -> usize {
        self.sacked.segs as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    fn board(n: u64) -> Scoreboard {
        let mut b = Scoreboard::new();
        for i in 0..n {
            b.push(Seg::sent(
                i * u64::from(MSS),
                MSS,
                Instant(i),
                TxSnapshot::default(),
            ));
        }
        b
    }

    fn block(start: u64, end: u64) -> SackBlock {
        SackBlock {
            start: start * 1000,
            end: end * 1000,
        }
    }

    #[test]
    fn pipe_counts_what_is_in_the_network() {
        let mut b = board(10);
        assert_eq!(b.pipe(), 10_000);
        assert_eq!(b.sack(&[block(2, 5)]).newly.bytes, 3_000);
        assert_eq!(b.pipe_segs(), 7);
        assert_eq!(b.pipe(), 7_000);
    }

    #[test]
    fn a_growing_block_only_counts_its_new_part() {
        let mut b = board(10);
        b.sack(&[block(2, 4)]);
        assert_eq!(b.sack(&[block(2, 5)]).newly.bytes, 1_000);
        assert_eq!(b.sack(&[block(2, 5)]).newly.bytes, 0);
        assert_eq!(b.sacked_ranges(), &[block(2, 5)]);
    }

    #[test]
    fn a_block_bridging_two_ranges_merges_them() {
        let mut b = board(10);
        b.sack(&[block(2, 3), block(5, 6)]);
        assert_eq!(b.sack(&[block(2, 6)]).newly.bytes, 2_000);
        assert_eq!(b.sacked_ranges(), &[block(2, 6)]);
    }

    #[test]
    fn two_holes_are_retransmitted_lowest_first() {
        let mut b = board(10);
        b.sack(&[block(1, 2), block(3, 7)]);
        assert!(b.mark_lost(2_000));
        assert!(b.mark_lost(0));
        assert_eq!(b.next_retransmit(), Some((0, MSS)));
        b.on_retransmit(0, Instant(9), TxSnapshot::default());
        assert_eq!(b.next_retransmit(), Some((2_000, MSS)));
    }

    #[test]
    fn the_cumulative_ack_clears_counters_and_samples_rtt_by_karn() {
        let mut b = board(4);
        b.mark_head_lost();
        b.on_retransmit(0, Instant(99), TxSnapshot::default());
        let acked = b.ack(2_000);
        assert_eq!((acked.bytes, acked.newly_delivered), (2_000, 2_000));
        // A retransmitted segment was among those acknowledged: no RTT sample.
        assert_eq!(acked.rtt_sent_at, None);
        assert_eq!((b.lost_bytes(), b.retrans_bytes(), b.pipe()), (0, 0, 2_000));
        let acked = b.ack(4_000);
        assert_eq!(acked.rtt_sent_at, Some(Instant(2)));
        assert!(b.is_empty());
    }

    #[test]
    fn a_timeout_marks_all_but_the_sacked_lost() {
        let mut b = board(5);
        b.sack(&[block(3, 4)]);
        b.mark_all_lost(None);
        assert_eq!(b.lost_bytes(), 4_000);
        assert_eq!(b.pipe(), 0);
        assert_eq!(b.next_retransmit(), Some((0, MSS)));
    }

    #[test]
    fn sacked_then_acked_bytes_are_not_delivered_twice() {
        let mut b = board(3);
        b.sack(&[block(1, 2)]);
        let acked = b.ack(3_000);
        assert_eq!((acked.bytes, acked.newly_delivered), (3_000, 2_000));
        assert_eq!(b.sacked_bytes(), 0);
    }
}
