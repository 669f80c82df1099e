//! Bounded time series: every point up to a cap, then thinned by bins that keep each bin's first,
//! lowest, highest and last point, so a chart of the whole run keeps every peak and trough while
//! memory stays fixed however long the run.

use crate::time::{Duration, Instant};

/// One row: a time and `N` values.
pub type Row<const N: usize> = (Instant, [f64; N]);

#[derive(Debug, Clone, Copy)]
struct Bin<const N: usize> {
    index: u64,
    first: Row<N>,
    min: Row<N>,
    max: Row<N>,
    last: Row<N>,
}

impl<const N: usize> Bin<N> {
    /// Takes in what came later in the same bin: a row (its own lowest, highest and last) or a
    /// neighbouring bin's lowest, highest and last, judged on column `key`.
    #[inline(always)]
    fn absorb(&mut self, min: Row<N>, max: Row<N>, last: Row<N>, key: usize) {
        if min.1[key] < self.min.1[key] {
            self.min = min;
        }
        if max.1[key] > self.max.1[key] {
            self.max = max;
        }
        self.last = last;
    }
}

/// A time series of rows with `N` columns, thinned on column `key` once past `cap` rows.
#[derive(Debug, Clone)]
pub struct Series<const N: usize> {
    cap: usize,
    key: usize,
    raw: Vec<Row<N>>,
    bins: Vec<Bin<N>>,
    /// Bins are 2^shift ns wide, so a row's bin is a shift away, not a division.
    shift: u32,
    thinned: bool,
    pushed: u64,
    /// The time of the latest row: rows are never placed before it. The last row has it too,
    /// but reading it there branches on thinning for every push (2 % of a run, measured).
    latest: Instant,
}

impl<const N: usize> Series<N> {
    pub fn new(cap: usize, key: usize) -> Self {
        Series {
            cap: cap.max(16),
            key: key.min(N.saturating_sub(1)),
            raw: Vec::new(),
            bins: Vec::new(),
            shift: 0,
            thinned: false,
            pushed: 0,
            latest: Instant::ZERO,
        }
    }

    /// The column bins are judged on: a one-column series' is known where the code is built,
    /// so its pushes index nothing.
    #[inline(always)]
    fn key(&self) -> usize {
        if N == 1 {
            0
        } else {
            self.key
        }
    }

    /// Rows pushed in all, kept or not.
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    pub fn is_thinned(&self) -> bool {
        self.thinned
    }

    /// The most recent row.
    pub fn last(&self) -> Option<&Row<N>> {
        if self.thinned {
            self.bins.last().map(|b| &b.last)
        } else {
            self.raw.last()
        }
    }

    /// Appends a row. Rows must come in time order; one from the past is placed at the latest
    /// time seen, so the series never runs backwards.
    ///
    /// Every packet pushes a row or two, so the common cases are kept short and inline: a row
    /// under the cap, or one that falls in the newest bin.
    #[inline(always)]
    pub fn push(&mut self, t: Instant, values: [f64; N]) {
        let t = t.max(self.latest);
        self.latest = t;
        self.pushed += 1;
        if !self.thinned {
            if self.raw.len() == self.raw.capacity() {
                self.reserve_raw();
            }
            self.raw.push((t, values));
            if self.raw.len() > self.cap {
                self.start_thinning();
            }
            return;
        }
        let key = self.key();
        let index = t.0 >> self.shift;
        if let Some(bin) = self.bins.last_mut() {
            if bin.index == index {
                let row = (t, values);
                bin.absorb(row, row, row, key);
                return;
            }
        }
        self.add_to_bins((t, values));
    }

    /// Room for every row up to the cap at once, at a series' first row: growing by doubling
    /// copied the rows again at every step, into fresh memory, a sixth of the instructions a
    /// traced run of 8 flows spent on its traces and more of its time (docs/performance.md,
    /// "The hot path"). A series never pushed to takes nothing.
    #[cold]
    fn reserve_raw(&mut self) {
        self.raw
            .reserve_exact((self.cap + 1).saturating_sub(self.raw.len()));
    }

    fn start_thinning(&mut self) {
        let first = self.raw.first().map_or(0, |r| r.0 .0);
        let last = self.raw.last().map_or(0, |r| r.0 .0);
        let span = (last - first).max(1);
        let width = (span / (self.max_bins() as u64 / 2).max(1))
            .max(1)
            .next_power_of_two();
        self.shift = width.trailing_zeros();
        self.thinned = true;
        let raw = std::mem::take(&mut self.raw);
        self.bins.reserve(self.max_bins() + 1);
        // The width makes about half the bins the cap allows, so the rows need no coarsening
        // as they go: one pass, each row into the newest bin or a new one, without
        // `add_to_bins`' call and check per row (the cap's worth of rows at once, 3 % of a
        // short lossy run's instructions). Merging neighbours later gives the same bins.
        for row in raw {
            self.bin_row(row);
        }
        while self.bins.len() > self.max_bins() {
            self.coarsen();
        }
    }

    /// Puts a row into the newest bin, or a new one after it.
    #[inline(always)]
    fn bin_row(&mut self, row: Row<N>) {
        let index = row.0 .0 >> self.shift;
        let key = self.key();
        match self.bins.last_mut() {
            Some(bin) if bin.index == index => bin.absorb(row, row, row, key),
            _ => self.bins.push(Bin {
                index,
                first: row,
                min: row,
                max: row,
                last: row,
            }),
        }
    }

    fn max_bins(&self) -> usize {
        self.cap / 4
    }

    #[cold]
    fn add_to_bins(&mut self, row: Row<N>) {
        self.bin_row(row);
        if self.bins.len() > self.max_bins() {
            self.coarsen();
        }
    }

    /// Doubles the bin width, merging neighbours.
    fn coarsen(&mut self) {
        self.shift = (self.shift + 1).min(63);
        let key = self.key();
        let mut merged: Vec<Bin<N>> = Vec::with_capacity(self.bins.capacity());
        for mut bin in self.bins.drain(..) {
            bin.index /= 2;
            match merged.last_mut() {
                Some(m) if m.index == bin.index => m.absorb(bin.min, bin.max, bin.last, key),
                _ => merged.push(bin),
            }
        }
        self.bins = merged;
    }

    /// The kept rows in time order.
    pub fn rows(&self) -> Vec<Row<N>> {
        if !self.thinned {
            return self.raw.clone();
        }
        // A bin's first, lowest, highest and last are often one row, written once. Compared by
        // their bits, as a column that is NaN (ssthresh while unbounded, SRTT before a sample)
        // is never `==` itself: by value a bin of one row came out four times.
        let same = |a: &Row<N>, b: &Row<N>| {
            a.0 == b.0
                && a.1
                    .iter()
                    .zip(&b.1)
                    .all(|(x, y)| x.to_bits() == y.to_bits())
        };
        let mut out = Vec::with_capacity(self.bins.len() * 4);
        for bin in &self.bins {
            let mut four = [bin.first, bin.min, bin.max, bin.last];
            four.sort_by_key(|r| r.0);
            for row in four {
                if out.last().is_none_or(|l: &Row<N>| !same(l, &row)) {
                    out.push(row);
                }
            }
        }
        out
    }
}

/// Bytes counted into time bins whose width doubles whenever the count of bins passes a cap:
/// a rate over time with bounded memory.
#[derive(Debug, Clone)]
pub struct RateBins {
    bin_ns: u64,
    bytes: Vec<u64>,
    cap: usize,
    /// The bin the latest bytes went to, and its span in ns: times mostly come in order, so
    /// the next bytes usually land in it without a division.
    current: usize,
    current_span: (u64, u64),
}

impl RateBins {
    pub fn new(initial_bin: Duration, cap: usize) -> Self {
        RateBins {
            bin_ns: initial_bin.as_nanos().max(1),
            bytes: Vec::new(),
            cap: cap.max(4),
            current: 0,
            current_span: (0, 0),
        }
    }

    #[inline]
    pub fn add(&mut self, t: Instant, bytes: u64) {
        let ns = t.as_nanos();
        let (start, end) = self.current_span;
        if start <= ns && ns < end {
            self.bytes[self.current] += bytes;
            return;
        }
        self.add_to_new_bin(ns, bytes);
    }

    #[cold]
    fn add_to_new_bin(&mut self, ns: u64, bytes: u64) {
        let mut i = (ns / self.bin_ns) as usize;
        while i >= self.cap {
            self.bin_ns = self.bin_ns.saturating_mul(2);
            let halved: Vec<u64> = self.bytes.chunks(2).map(|c| c.iter().sum()).collect();
            self.bytes = halved;
            i = (ns / self.bin_ns) as usize;
        }
        if self.bytes.len() <= i {
            self.bytes.resize(i + 1, 0);
        }
        self.bytes[i] += bytes;
        self.current = i;
        let start = i as u64 * self.bin_ns;
        self.current_span = (start, start.saturating_add(self.bin_ns));
    }

    pub fn bin_width(&self) -> Duration {
        Duration(self.bin_ns)
    }

    /// (bin start, bytes) for every bin up to the last one with data.
    pub fn bins(&self) -> impl Iterator<Item = (Instant, u64)> + '_ {
        self.bytes
            .iter()
            .enumerate()
            .map(|(i, &b)| (Instant(i as u64 * self.bin_ns), b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thinned_bin_of_one_row_gives_it_once_even_with_a_nan_column() {
        let mut s: Series<2> = Series::new(16, 0);
        for i in 0..64u64 {
            // Far apart: each bin holds one row, its first, lowest, highest and last at once.
            s.push(Instant(i << 40), [i as f64, f64::NAN]);
        }
        assert!(s.is_thinned());
        let rows = s.rows();
        for pair in rows.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{:?} twice", pair[1]);
        }
    }

    #[test]
    fn under_the_cap_every_row_is_kept() {
        let mut s: Series<1> = Series::new(100, 0);
        for i in 0..50 {
            s.push(Instant(i), [i as f64]);
        }
        assert_eq!(s.rows().len(), 50);
        assert!(!s.is_thinned());
    }

    #[test]
    fn past_the_cap_the_series_stays_bounded_and_keeps_the_extremes() {
        let mut s: Series<1> = Series::new(400, 0);
        for i in 0..1_000_000u64 {
            // A sawtooth with one deep trough and one high peak.
            let v = match i {
                500_000 => -1000.0,
                777_777 => 1e6,
                _ => (i % 1000) as f64,
            };
            s.push(Instant(i * 10), [v]);
        }
        let rows = s.rows();
        assert!(rows.len() <= 400, "{}", rows.len());
        assert!(rows.windows(2).all(|w| w[0].0 <= w[1].0));
        assert!(rows.iter().any(|r| r.1[0] == -1000.0));
        assert!(rows.iter().any(|r| r.1[0] == 1e6));
        assert_eq!(rows.last().map(|r| r.1[0]), Some(999.0));
        assert_eq!(s.pushed(), 1_000_000);
    }

    #[test]
    fn a_row_from_the_past_is_held_at_the_latest_time() {
        let mut s: Series<1> = Series::new(100, 0);
        s.push(Instant(10), [1.0]);
        s.push(Instant(5), [2.0]);
        assert_eq!(s.rows()[1].0, Instant(10));
    }

    #[test]
    fn rate_bins_keep_the_total_when_they_coarsen() {
        let mut r = RateBins::new(Duration(10), 8);
        for t in 0..1000u64 {
            r.add(Instant(t), 3);
        }
        assert_eq!(r.bins().map(|(_, b)| b).sum::<u64>(), 3000);
        assert!(r.bins().count() <= 8);
        assert_eq!(r.bin_width(), Duration(160));
    }

    #[test]
    fn rate_bins_put_a_late_count_in_its_own_bin() {
        let mut r = RateBins::new(Duration(10), 100);
        r.add(Instant(25), 1);
        r.add(Instant(27), 2);
        r.add(Instant(5), 4);
        r.add(Instant(29), 8);
        r.add(Instant(30), 16);
        let bins: Vec<u64> = r.bins().map(|(_, b)| b).collect();
        assert_eq!(bins, vec![4, 0, 11, 16]);
    }

    #[test]
    fn within_one_bin_the_thinned_series_keeps_first_extremes_and_last() {
        let mut s: Series<2> = Series::new(16, 0);
        // Past the cap, so rows go to bins; then five rows inside one far bin.
        for i in 0..17u64 {
            s.push(Instant(i), [0.0, 0.0]);
        }
        assert!(s.is_thinned());
        let base = 1 << 40;
        for (dt, v) in [(0, 5.0), (1, 9.0), (2, 1.0), (3, 7.0), (4, 6.0)] {
            s.push(Instant(base + dt), [v, v * 10.0]);
        }
        let tail: Vec<(u64, [f64; 2])> = s
            .rows()
            .into_iter()
            .filter(|r| r.0 .0 >= base)
            .map(|r| (r.0 .0 - base, r.1))
            .collect();
        assert_eq!(
            tail,
            vec![
                (0, [5.0, 50.0]),
                (1, [9.0, 90.0]),
                (2, [1.0, 10.0]),
                (4, [6.0, 60.0])
            ]
        );
    }
}
