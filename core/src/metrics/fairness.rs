//! How flows share the bottleneck over a run: each flow's goodput in windows of equal length,
//! its share of what all flows got, and Jain's fairness index of each window (Jain, Chiu and
//! Hawe, DEC-TR-301, 1984: (Σx)² / (n·Σx²), 1 when all get the same, 1/n when one gets it all).
//!
//! A flow that has not started or has finished counts as getting nothing: a late flow joining
//! shows as the index rising towards 1, which is the convergence to watch.

use super::series::RateBins;
use super::stats::jain;
use crate::time::{Duration, Instant};

/// One window of the run, `window` long from `start`.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    pub start: Instant,
    /// Bytes each flow delivered in the window.
    pub bytes: Vec<u64>,
}

impl Window {
    /// Jain's index over the flows' bytes; `None` when no flow delivered anything.
    pub fn jain(&self) -> Option<f64> {
        let xs: Vec<f64> = self.bytes.iter().map(|&b| b as f64).collect();
        jain(&xs)
    }

    /// Each flow's share of the window's bytes (0 to 1); `None` when there were none.
    pub fn shares(&self) -> Option<Vec<f64>> {
        let total: u64 = self.bytes.iter().sum();
        (total > 0).then(|| {
            self.bytes
                .iter()
                .map(|&b| b as f64 / total as f64)
                .collect()
        })
    }
}

/// The flows' bytes in windows of at least `at_least`, from the start of the run up to the
/// last bin with data. The window is a whole number of the widest bin, so that every bin of
/// every flow (each a power-of-two multiple of the first width) falls inside one window.
/// Returns the window's length and the windows.
pub fn windows(flows: &[&RateBins], at_least: Duration) -> (Duration, Vec<Window>) {
    let widest = flows
        .iter()
        .map(|f| f.bin_width().as_nanos())
        .max()
        .unwrap_or(1)
        .max(1);
    let width = at_least.as_nanos().div_ceil(widest).max(1) * widest;
    let end = flows
        .iter()
        .filter_map(|f| {
            f.bins()
                .filter(|&(_, b)| b > 0)
                .last()
                .map(|(t, _)| t.as_nanos() + f.bin_width().as_nanos())
        })
        .max()
        .unwrap_or(0);
    let count = end.div_ceil(width) as usize;
    let mut out: Vec<Window> = (0..count)
        .map(|k| Window {
            start: Instant(k as u64 * width),
            bytes: vec![0; flows.len()],
        })
        .collect();
    for (i, f) in flows.iter().enumerate() {
        for (t, b) in f.bins() {
            if let Some(w) = out.get_mut((t.as_nanos() / width) as usize) {
                w.bytes[i] += b;
            }
        }
    }
    (Duration(width), out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bins(width_ms: u64, per_bin: &[(u64, u64)]) -> RateBins {
        let mut r = RateBins::new(Duration::from_millis(width_ms), 1 << 16);
        for &(t_ms, b) in per_bin {
            r.add(Instant(t_ms * 1_000_000), b);
        }
        r
    }

    #[test]
    fn windows_gather_every_flow_s_bins_and_rate_their_fairness() {
        // Flow 1 sends 100 bytes a 10 ms bin from 0; flow 2 joins at 1 s.
        let a = bins(10, &(0..200).map(|i| (i * 10, 100)).collect::<Vec<_>>());
        let b = bins(10, &(100..200).map(|i| (i * 10, 100)).collect::<Vec<_>>());
        let (width, w) = windows(&[&a, &b], Duration::from_millis(495));
        assert_eq!(width, Duration::from_millis(500));
        assert_eq!(w.len(), 4);
        assert_eq!(w[0].bytes, [5000, 0]);
        assert_eq!(w[0].jain(), Some(0.5));
        assert_eq!(w[0].shares(), Some(vec![1.0, 0.0]));
        assert_eq!(w[3].bytes, [5000, 5000]);
        assert_eq!(w[3].jain(), Some(1.0));
        // 3:1 gives (4)² / (2·10) = 0.8.
        let c = bins(10, &[(0, 300)]);
        let d = bins(10, &[(0, 100)]);
        assert_eq!(
            windows(&[&c, &d], Duration::from_millis(10)).1[0].jain(),
            Some(0.8)
        );
    }

    #[test]
    fn wider_bins_set_the_window() {
        let a = bins(10, &[(0, 1), (15, 1)]);
        let b = bins(40, &[(50, 1)]);
        let (width, w) = windows(&[&a, &b], Duration::from_millis(30));
        assert_eq!(width, Duration::from_millis(40));
        assert_eq!(
            w.iter().map(|w| w.bytes.clone()).collect::<Vec<_>>(),
            [vec![2, 0], vec![0, 1]]
        );
        assert_eq!(windows(&[], Duration::from_millis(30)).1, []);
    }
}
