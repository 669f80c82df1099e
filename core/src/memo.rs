//! The last answer of a pure function, kept with the arguments it was computed from.
//!
//! Some of what a sender or its algorithm derives on every ACK or segment changes only when a
//! slower quantity does: BBR's send quantum and the sender's GSO quantum with the pacing rate, a
//! paced segment's time with the pacing rate and the segment's size. Each such derivation is a
//! floating-point or 64-bit division or two, the costliest instructions on the hot path. A
//! [`Memo`] answers with the function's own earlier result while its arguments are unchanged,
//! so a run is the same to the bit with it or without it.

use std::cell::Cell;

#[derive(Debug, Clone, Default)]
pub(crate) struct Memo<K: Copy + PartialEq, V: Copy>(Cell<Option<(K, V)>>);

impl<K: Copy + PartialEq, V: Copy> Memo<K, V> {
    /// `f()`'s answer for `key`: kept from the last call if that had the same key.
    #[inline(always)]
    pub(crate) fn get(&self, key: K, f: impl FnOnce() -> V) -> V {
        match self.0.get() {
            Some((k, v)) if k == key => v,
            _ => {
                let v = f();
                self.0.set(Some((key, v)));
                v
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memo_computes_once_per_run_of_equal_keys() {
        let memo = Memo::default();
        let calls = Cell::new(0);
        let square = |x: u64| {
            calls.set(calls.get() + 1);
            x * x
        };
        assert_eq!(memo.get(3, || square(3)), 9);
        assert_eq!(memo.get(3, || square(3)), 9);
        assert_eq!(calls.get(), 1);
        assert_eq!(memo.get(4, || square(4)), 16);
        assert_eq!(memo.get(3, || square(3)), 9);
        assert_eq!(calls.get(), 3);
    }

    #[test]
    fn a_float_key_is_compared_by_its_bits() {
        // What callers key on: `f64::to_bits`, so that a NaN rate still finds its answer and
        // 0.0 and -0.0 are told apart, as the function itself might.
        let memo: Memo<u64, u32> = Memo::default();
        assert_eq!(memo.get(f64::NAN.to_bits(), || 1), 1);
        assert_eq!(memo.get(f64::NAN.to_bits(), || 2), 1);
        assert_eq!(memo.get((-0.0f64).to_bits(), || 3), 3);
        assert_eq!(memo.get(0.0f64.to_bits(), || 4), 4);
    }
}
