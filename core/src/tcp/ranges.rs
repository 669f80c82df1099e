//! A set of disjoint byte ranges, the shape of both the receiver's out-of-order buffer and the
//! sender's SACKed ranges (RFC 2018).
//!
//! The ranges sit in a ring buffer in order of their starts. Nearly every change happens at an
//! end of it: new data and new SACK blocks land at or past the last range, the cumulative ACK
//! takes ranges off the front, and retransmissions fill the oldest holes first. So a change is
//! at an end, a lookup is a binary search, and the rare change in the middle moves the shorter
//! side of the buffer: a large window under random loss holds thousands of holes, and each
//! arriving segment or ACK touches a few of them. (A B-tree, tried first, paid a logarithm and
//! its pointer chasing on every one of these: about a tenth of a lossy BBR run's instructions.)

use std::collections::VecDeque;

use crate::packet::SackBlock;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangeSet {
    /// Ascending; ranges neither overlap nor touch, and none is empty.
    ranges: VecDeque<SackBlock>,
    bytes: u64,
}

impl RangeSet {
    pub fn new() -> Self {
        RangeSet::default()
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// How many ranges.
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// Bytes covered.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// How many ranges start at or before `seq`.
    #[inline(always)]
    fn starting_by(&self, seq: u64) -> usize {
        self.ranges.partition_point(|r| r.start <= seq)
    }

    /// The range holding byte `seq`.
    #[inline(always)]
    pub fn containing(&self, seq: u64) -> Option<SackBlock> {
        // Most questions are about the newest data, at or past the last range.
        let last = *self.ranges.back()?;
        if seq >= last.start {
            return (seq < last.end).then_some(last);
        }
        let i = self.starting_by(seq);
        let r = *self.ranges.get(i.checked_sub(1)?)?;
        (seq < r.end).then_some(r)
    }

    /// The first range starting at or after `seq`.
    pub fn starting_from(&self, seq: u64) -> Option<SackBlock> {
        let i = self.ranges.partition_point(|r| r.start < seq);
        self.ranges.get(i).copied()
    }

    pub fn first(&self) -> Option<SackBlock> {
        self.ranges.front().copied()
    }

    pub fn last(&self) -> Option<SackBlock> {
        self.ranges.back().copied()
    }

    /// Removes and returns the first range.
    pub fn pop_first(&mut self) -> Option<SackBlock> {
        let r = self.ranges.pop_front()?;
        self.bytes -= r.end - r.start;
        Some(r)
    }

    /// Adds `block` (an empty one changes nothing), merging it with every range it overlaps or
    /// touches; returns the range it became part of.
    pub fn insert(&mut self, block: SackBlock) -> SackBlock {
        if block.start >= block.end {
            return block;
        }
        // In-order data behind a hole and the newest SACK block are at or past the last range's
        // start: they grow it in place or follow it, with no search.
        if let Some(last) = self.ranges.back_mut() {
            if last.start <= block.start {
                if block.start > last.end {
                    self.ranges.push_back(block);
                    self.bytes += block.end - block.start;
                    return block;
                }
                if block.end > last.end {
                    self.bytes += block.end - last.end;
                    last.end = block.end;
                }
                return *last;
            }
        }
        // The range starting at or before the block is the only earlier one that can reach
        // it; from there on, every range starting by the merged end joins.
        let i = self.starting_by(block.start);
        let from = match i.checked_sub(1) {
            Some(b) if self.ranges[b].end >= block.start => b,
            _ => i,
        };
        let mut merged = block;
        let mut covered = 0;
        let mut to = from;
        while let Some(r) = self.ranges.get(to).filter(|r| r.start <= merged.end) {
            merged.start = merged.start.min(r.start);
            merged.end = merged.end.max(r.end);
            covered += r.end - r.start;
            to += 1;
        }
        self.bytes = self.bytes + (merged.end - merged.start) - covered;
        if to == from {
            self.ranges.insert(from, merged);
        } else {
            self.ranges[from] = merged;
            self.ranges.drain(from + 1..to);
        }
        merged
    }

    /// Forgets every byte below `seq`: ranges ending at or below it go, one straddling it is cut.
    pub fn remove_below(&mut self, seq: u64) {
        while let Some(first) = self.ranges.front_mut() {
            if first.start >= seq {
                break;
            }
            if first.end > seq {
                self.bytes -= seq - first.start;
                first.start = seq;
                break;
            }
            self.bytes -= first.end - first.start;
            self.ranges.pop_front();
        }
    }

    /// The ranges, ascending.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = SackBlock> + '_ {
        self.ranges.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(start: u64, end: u64) -> SackBlock {
        SackBlock { start, end }
    }

    fn ranges(s: &RangeSet) -> Vec<(u64, u64)> {
        s.iter().map(|r| (r.start, r.end)).collect()
    }

    #[test]
    fn overlapping_and_touching_ranges_merge() {
        let mut s = RangeSet::new();
        s.insert(b(10, 20));
        s.insert(b(30, 40));
        assert_eq!(s.insert(b(20, 30)), b(10, 40), "touching on both sides");
        assert_eq!(s.bytes(), 30);
        s.insert(b(5, 12));
        s.insert(b(50, 60));
        assert_eq!(ranges(&s), [(5, 40), (50, 60)]);
        assert_eq!(s.insert(b(0, 100)), b(0, 100));
        assert_eq!((s.len(), s.bytes()), (1, 100));
        assert_eq!(s.insert(b(7, 7)), b(7, 7), "an empty block is nothing");
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn lookups_find_the_range_holding_a_byte() {
        let mut s = RangeSet::new();
        s.insert(b(10, 20));
        s.insert(b(30, 40));
        assert_eq!(s.containing(10), Some(b(10, 20)));
        assert_eq!(s.containing(19), Some(b(10, 20)));
        assert_eq!(s.containing(20), None);
        assert_eq!(s.starting_from(11), Some(b(30, 40)));
        assert_eq!((s.first(), s.last()), (Some(b(10, 20)), Some(b(30, 40))));
    }

    #[test]
    fn removing_below_cuts_the_straddling_range() {
        let mut s = RangeSet::new();
        s.insert(b(10, 20));
        s.insert(b(30, 40));
        s.remove_below(35);
        assert_eq!(ranges(&s), [(35, 40)]);
        assert_eq!(s.bytes(), 5);
        assert_eq!(s.pop_first(), Some(b(35, 40)));
        assert!(s.is_empty() && s.bytes() == 0);
    }
}
