//! A policer in front of the bottleneck: a token bucket, as an ISP's ingress policer or Linux's
//! `tc ... action police rate R burst B conform-exceed drop` runs one. Tokens (bytes) fill at
//! the policed rate up to the burst; a packet that finds enough takes them and passes, one that
//! does not is dropped at once. Nothing waits: unlike the bottleneck's queue, a policer adds no
//! delay, only loss, which is why a flow above it sees a loss rate that no queue explains.

use crate::time::Instant;

#[derive(Debug, Clone)]
pub struct Policer {
    /// Bits per second.
    rate: u64,
    /// The bucket's depth, bytes.
    burst: u64,
    /// Tokens, in bytes × 8 × 10^9 (bit-nanoseconds), so that filling is exact integer work.
    tokens: u128,
    last: Instant,
}

impl Policer {
    /// A bucket of `burst` bytes filling at `rate` bits per second, full at the start.
    pub fn new(rate_bits_per_s: u64, burst: u64) -> Policer {
        let burst = burst.max(1);
        Policer {
            rate: rate_bits_per_s.max(1),
            burst,
            tokens: Self::scaled(burst),
            last: Instant::ZERO,
        }
    }

    fn scaled(bytes: u64) -> u128 {
        u128::from(bytes) * 8 * 1_000_000_000
    }

    /// The default burst for `rate`: 20 ms of it, and at least two full frames of `frame` bytes
    /// (a burst smaller than a packet would drop every packet).
    pub fn default_burst(rate_bits_per_s: u64, frame: u32) -> u64 {
        (rate_bits_per_s / 8 / 50).max(2 * u64::from(frame))
    }

    /// Whether a packet of `bytes` offered at `now` conforms (and takes its tokens).
    pub fn pass(&mut self, now: Instant, bytes: u32) -> bool {
        let elapsed = u128::from(now.saturating_duration_since(self.last).as_nanos());
        self.last = now.max(self.last);
        let full = Self::scaled(self.burst);
        self.tokens = (self.tokens + elapsed * u128::from(self.rate)).min(full);
        let need = Self::scaled(u64::from(bytes));
        if self.tokens >= need {
            self.tokens -= need;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Duration;

    #[test]
    fn a_full_bucket_passes_its_burst_then_the_rate() {
        // 8 Mbit/s: a byte a microsecond; a burst of 3 000 bytes.
        let mut p = Policer::new(8_000_000, 3_000);
        let t0 = Instant::ZERO;
        assert!(p.pass(t0, 1_500));
        assert!(p.pass(t0, 1_500));
        assert!(!p.pass(t0, 1_500), "the burst is spent");
        // 1.5 ms later the bucket holds 1 500 bytes again.
        let t1 = t0 + Duration::from_micros(1_499);
        assert!(!p.pass(t1, 1_500));
        let t2 = t0 + Duration::from_micros(1_500);
        assert!(p.pass(t2, 1_500));
        // Tokens never exceed the burst, however long the wait.
        let t3 = t2 + Duration::from_secs(10);
        assert!(p.pass(t3, 1_500) && p.pass(t3, 1_500) && !p.pass(t3, 1_500));
    }

    #[test]
    fn the_default_burst_is_20_ms_of_the_rate_and_two_frames_at_least() {
        assert_eq!(Policer::default_burst(10_000_000, 1_512), 25_000);
        assert_eq!(Policer::default_burst(100_000, 1_512), 3_024);
    }
}
