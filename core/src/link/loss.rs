//! Loss models: independent (Bernoulli), bursty (Gilbert-Elliott) and staged.

use crate::rng::SimRng;

/// Random loss on one direction of the path.
#[derive(Debug, Clone, PartialEq)]
pub enum LossModel {
    None,
    /// Each packet is lost with probability `p`, independently.
    Bernoulli {
        p: f64,
    },
    /// Gilbert-Elliott's two-state chain: every packet sent in the Bad state is lost, none in the
    /// Good state. `p_bad` (Good -> Bad) and `p_good` (Bad -> Good) are set so that the mean burst
    /// is `1 / p_good` packets and the stationary loss rate `p_bad / (p_bad + p_good)` equals the
    /// configured rate.
    GilbertElliott {
        p_bad: f64,
        p_good: f64,
        bad: bool,
    },
}

impl LossModel {
    /// The model for an average loss rate `p` (a fraction) and a mean burst length in packets;
    /// a burst of 1 means independent losses.
    pub fn new(p: f64, mean_burst: f64) -> Self {
        if p <= 0.0 {
            return LossModel::None;
        }
        if mean_burst <= 1.0 {
            return LossModel::Bernoulli { p };
        }
        let p_good = 1.0 / mean_burst;
        let p_bad = (p * p_good / (1.0 - p)).min(1.0);
        LossModel::GilbertElliott {
            p_bad,
            p_good,
            bad: false,
        }
    }

    /// Whether the next packet is lost. Draws from `rng` only when loss is possible, so a
    /// loss-free direction leaves the random stream untouched.
    pub fn lose(&mut self, rng: &mut SimRng) -> bool {
        match self {
            LossModel::None => false,
            LossModel::Bernoulli { p } => rng.chance(*p),
            LossModel::GilbertElliott { p_bad, p_good, bad } => {
                let flip = if *bad { *p_good } else { *p_bad };
                if rng.chance(flip) {
                    *bad = !*bad;
                }
                *bad
            }
        }
    }
}

/// The staged loss of a lesson: these data packets, counted from 1 in order of transmission on
/// the data direction, are lost.
#[derive(Debug, Clone, Default)]
pub struct StagedDrops {
    /// Ascending packet numbers still to come.
    pending: Vec<u64>,
    next: usize,
    sent: u64,
}

impl StagedDrops {
    pub fn new(mut numbers: Vec<u64>) -> Self {
        numbers.sort_unstable();
        numbers.dedup();
        StagedDrops {
            pending: numbers,
            next: 0,
            sent: 0,
        }
    }

    /// Counts one more data packet transmitted; true if it is one to drop.
    pub fn lose_next(&mut self) -> bool {
        self.sent += 1;
        match self.pending.get(self.next) {
            Some(&n) if n == self.sent => {
                self.next += 1;
                true
            }
            _ => false,
        }
    }

    /// Data packets counted so far.
    pub fn counted(&self) -> u64 {
        self.sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rate_and_mean_burst(model: &mut LossModel, n: usize) -> (f64, f64) {
        let mut rng = SimRng::new(11);
        let (mut lost, mut bursts, mut in_burst) = (0usize, 0usize, false);
        for _ in 0..n {
            let l = model.lose(&mut rng);
            lost += usize::from(l);
            if l && !in_burst {
                bursts += 1;
            }
            in_burst = l;
        }
        (lost as f64 / n as f64, lost as f64 / bursts.max(1) as f64)
    }

    #[test]
    fn bernoulli_keeps_its_rate() {
        let (rate, burst) = rate_and_mean_burst(&mut LossModel::new(0.02, 1.0), 500_000);
        assert!((rate - 0.02).abs() < 0.001, "{rate}");
        // Independent losses still touch now and then: mean run 1 / (1 - p).
        assert!((burst - 1.0 / 0.98).abs() < 0.01, "{burst}");
    }

    #[test]
    fn gilbert_elliott_keeps_the_rate_and_makes_bursts() {
        let (rate, burst) = rate_and_mean_burst(&mut LossModel::new(0.02, 5.0), 2_000_000);
        assert!((rate - 0.02).abs() < 0.002, "{rate}");
        assert!((burst - 5.0).abs() < 0.3, "{burst}");
    }

    #[test]
    fn no_loss_draws_nothing() {
        let mut rng = SimRng::new(5);
        let mut reference = SimRng::new(5);
        assert!(!LossModel::new(0.0, 3.0).lose(&mut rng));
        assert_eq!(rng.next_u64(), reference.next_u64());
    }

    #[test]
    fn staged_drops_hit_exactly_the_listed_packets() {
        let mut d = StagedDrops::new(vec![5, 2, 2]);
        let lost: Vec<u64> = (1..=6u64).filter(|_| d.lose_next()).collect();
        assert_eq!(lost, [2, 5]);
    }
}
