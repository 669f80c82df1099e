//! Statistics over a run's values: quantiles, Jain's fairness index, and a histogram of
//! delays too many to keep one by one.

use crate::time::Duration;

/// The `q`-quantile of sorted values, by linear interpolation between closest ranks.
pub fn quantile(sorted: &[f64], q: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let frac = pos - lo as f64;
    Some(sorted[lo] + (sorted[hi] - sorted[lo]) * frac)
}

/// Jain's fairness index: (sum x)^2 / (n * sum x^2); 1 when all are equal.
pub fn jain(xs: &[f64]) -> Option<f64> {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    (sq > 0.0).then(|| sum * sum / (xs.len() as f64 * sq))
}

/// Sub-buckets per power of two: values are kept to 1/64 of themselves (1.6 %), exactly below
/// 128 ns, in at most 3 776 counters whatever the range (HdrHistogram's layout).
const SUB_BITS: u32 = 6;
const SUB: u64 = 1 << SUB_BITS;

/// Durations counted in log-linear buckets: a quantile within 1.6 % of the exact one, in
/// bounded memory, for the sojourn of every packet of a long run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DelayHistogram {
    counts: Vec<u64>,
    total: u64,
}

impl DelayHistogram {
    fn index(ns: u64) -> usize {
        if ns < 2 * SUB {
            return ns as usize;
        }
        let shift = 64 - ns.leading_zeros() - (SUB_BITS + 1);
        (u64::from(shift) * SUB + (ns >> shift)) as usize
    }

    /// The middle of bucket `i`, in nanoseconds.
    fn middle(i: usize) -> u64 {
        let i = i as u64;
        if i < 2 * SUB {
            return i;
        }
        let shift = i / SUB - 1;
        let low = (i - shift * SUB) << shift;
        low + (1 << shift) / 2
    }

    #[inline(always)]
    pub fn add(&mut self, d: Duration) {
        let i = Self::index(d.as_nanos());
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
        self.total += 1;
    }

    pub fn len(&self) -> u64 {
        self.total
    }

    /// The histogram of every value counted in any of `parts`: the buckets are the same for
    /// all, so each count is the sum of the parts' and every quantile is what one histogram fed
    /// all the values would give.
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a DelayHistogram>) -> DelayHistogram {
        let mut all = DelayHistogram::default();
        for part in parts {
            if part.counts.len() > all.counts.len() {
                all.counts.resize(part.counts.len(), 0);
            }
            for (a, &n) in all.counts.iter_mut().zip(&part.counts) {
                *a += n;
            }
            all.total += part.total;
        }
        all
    }

    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The `q`-quantile (the value of rank ceil(q n)), to the bucket's middle.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        if self.total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (i, &n) in self.counts.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return Some(Duration(Self::middle(i)));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_keeps_each_value_within_a_sixty_fourth() {
        for ns in (0..200_000u64).chain([1 << 40, u64::MAX / 3, u64::MAX]) {
            let mid = DelayHistogram::middle(DelayHistogram::index(ns));
            let err = mid.abs_diff(ns) as f64;
            assert!(err <= ns as f64 / 64.0, "{ns} ns read as {mid}");
        }
        // Buckets are contiguous: each index follows the last, none skipped.
        let mut last = 0;
        for ns in 0..100_000u64 {
            let i = DelayHistogram::index(ns);
            assert!(i == last || i == last + 1, "{ns}: {last} -> {i}");
            last = i;
        }
    }

    #[test]
    fn histogram_quantiles_are_ranks() {
        let mut h = DelayHistogram::default();
        assert_eq!(h.quantile(0.5), None);
        for us in 1..=100u64 {
            h.add(Duration::from_micros(us));
        }
        let q = |q: f64| h.quantile(q).map(|d| d.as_nanos() as f64 / 1e3);
        // The 50th of 100 values (50 us) and the 99th, each within 1.6 %.
        assert!(q(0.5).is_some_and(|v| (v - 50.0).abs() <= 50.0 / 64.0));
        assert!(q(0.99).is_some_and(|v| (v - 99.0).abs() <= 99.0 / 64.0));
        assert!(q(1.0).is_some_and(|v| (v - 100.0).abs() <= 100.0 / 64.0));
        assert_eq!(h.len(), 100);
    }

    #[test]
    fn a_sum_of_histograms_is_the_histogram_of_all_their_values() {
        let mut odd = DelayHistogram::default();
        let mut even = DelayHistogram::default();
        let mut all = DelayHistogram::default();
        for us in 1..=1_000u64 {
            let d = Duration::from_micros(us * us % 977);
            let part = if us % 2 == 1 { &mut odd } else { &mut even };
            part.add(d);
            all.add(d);
        }
        let summed = DelayHistogram::sum([&odd, &even]);
        assert_eq!(summed, all);
        assert_eq!(DelayHistogram::sum([&all]), all);
        assert_eq!(DelayHistogram::sum([]), DelayHistogram::default());
    }

    #[test]
    fn quantiles_interpolate() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&v, 0.5), Some(2.5));
        assert_eq!(quantile(&v, 1.0), Some(4.0));
        assert_eq!(quantile(&[], 0.5), None);
    }

    #[test]
    fn jain_is_one_for_equal_shares_and_one_over_n_for_a_monopoly() {
        assert_eq!(jain(&[3.0, 3.0, 3.0]), Some(1.0));
        assert_eq!(jain(&[1.0, 0.0, 0.0, 0.0]), Some(0.25));
    }
}
