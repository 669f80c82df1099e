//! A set of disjoint byte ranges, the shape of both the receiver's out-of-order buffer and the
//! sender's SACKed ranges (RFC 2018). Kept in a B-tree keyed by start, so that every operation
//! costs a logarithm of the number of ranges: a large window under random loss holds thousands
//! of holes, and each arriving segment or ACK touches a few of them.

use std::collections::BTreeMap;
use std::ops::Bound::{Excluded, Included};

use crate::packet::SackBlock;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangeSet {
    /// start -> end; ranges neither overlap nor touch.
    map: BTreeMap<u64, u64>,
    bytes: u64,
}

impl RangeSet {
    pub fn new() -> Self {
        RangeSet::default()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// How many ranges.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Bytes covered.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The range holding byte `seq`.
    pub fn containing(&self, seq: u64) -> Option<SackBlock> {
        // Most questions are about the newest data, at or past the last range: its key is a
        // walk down the tree's right edge, with no search.
        let (&start, &end) = self.map.last_key_value()?;
        if seq >= start {
            return (seq < end).then_some(SackBlock { start, end });
        }
        self.map
            .range(..=seq)
            .next_back()
            .filter(|(_, &end)| seq < end)
            .map(|(&start, &end)| SackBlock { start, end })
    }

    /// The first range starting at or after `seq`.
    pub fn starting_from(&self, seq: u64) -> Option<SackBlock> {
        self.map
            .range(seq..)
            .next()
            .map(|(&start, &end)| SackBlock { start, end })
    }

    pub fn first(&self) -> Option<SackBlock> {
        self.map
            .first_key_value()
            .map(|(&start, &end)| SackBlock { start, end })
    }

    pub fn last(&self) -> Option<SackBlock> {
        self.map
            .last_key_value()
            .map(|(&start, &end)| SackBlock { start, end })
    }

    /// Removes and returns the first range.
    pub fn pop_first(&mut self) -> Option<SackBlock> {
        let (start, end) = self.map.pop_first()?;
        self.bytes -= end - start;
        Some(SackBlock { start, end })
    }

    /// Adds `block` (an empty one changes nothing), merging it with every range it overlaps or
    /// touches; returns the range it became part of.
    pub fn insert(&mut self, block: SackBlock) -> SackBlock {
        if block.start >= block.end {
            return block;
        }
        // The range starting at or before the block, the only one that can reach back to it.
        // In-order data behind a hole and the newest SACK block are at or past the last range's
        // start: that one is read off the tree's right edge, with no search.
        let last = self.map.last_key_value().map(|(&s, &e)| (s, e));
        let (before, is_last) = match last {
            Some((s, e)) if s <= block.start => (Some((s, e)), true),
            _ => (
                self.map
                    .range(..=block.start)
                    .next_back()
                    .map(|(&s, &e)| (s, e)),
                false,
            ),
        };
        // A block that grows that range and reaches no later one (in-order data, a
        // retransmission beside what arrived): the range's end moves in place, instead of a
        // removal and an insertion.
        if let Some((start, end)) = before.filter(|&(_, e)| e >= block.start) {
            if block.end <= end {
                return SackBlock { start, end };
            }
            let reaches_next = !is_last
                && self
                    .map
                    .range((Excluded(block.start), Included(block.end)))
                    .next()
                    .is_some();
            if !reaches_next {
                if let Some(e) = self.map.get_mut(&start) {
                    *e = block.end;
                }
                self.bytes += block.end - end;
                return SackBlock {
                    start,
                    end: block.end,
                };
            }
        }
        let mut merged = block;
        let mut covered = 0;
        // Ranges are disjoint, so only the range starting at or before the block can reach it.
        if let Some((start, end)) = before {
            if end >= block.start {
                self.map.remove(&start);
                covered += end - start;
                merged.start = start;
                merged.end = merged.end.max(end);
            }
        }
        while let Some((&start, &end)) = self.map.range(merged.start..=merged.end).next() {
            self.map.remove(&start);
            covered += end - start;
            merged.end = merged.end.max(end);
        }
        self.bytes = self.bytes + (merged.end - merged.start) - covered;
        self.map.insert(merged.start, merged.end);
        merged
    }

    /// Forgets every byte below `seq`: ranges ending at or below it go, one straddling it is cut.
    pub fn remove_below(&mut self, seq: u64) {
        while let Some(entry) = self.map.first_entry() {
            let (start, end) = (*entry.key(), *entry.get());
            if start >= seq {
                break;
            }
            entry.remove();
            self.bytes -= end - start;
            if end > seq {
                self.map.insert(seq, end);
                self.bytes += end - seq;
                break;
            }
        }
    }

    /// The ranges, ascending.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = SackBlock> + '_ {
        self.map
            .iter()
            .map(|(&start, &end)| SackBlock { start, end })
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
