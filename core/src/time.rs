//! Simulated time: an integer count of nanoseconds, so that every platform computes the same
//! schedule bit for bit (floating-point time would round differently as runs grow long).
//!
//! Two types, in the manner of smoltcp's `time.rs`: an [`Instant`] is a point in the run (an
//! event's time, a deadline, a "sent at" stamp) and a [`Duration`] is a span (an RTT, an RTO, a
//! link delay, a timer interval). Only the meaningful arithmetic exists: two instants subtract to
//! a duration, a duration moves an instant, and two instants never add. All of it saturates (at
//! zero below, at `MAX` above) rather than wraps or panics, as the one `Time` type did before.

use std::fmt;
use std::ops::{Add, AddAssign, Div, Mul, Sub, SubAssign};

pub const NANOS_PER_MS: u64 = 1_000_000;
pub const NANOS_PER_S: u64 = 1_000_000_000;

/// A point in simulated time: nanoseconds since the run began (`Instant::ZERO`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Instant(pub u64);

/// A span of simulated time, in nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Duration(pub u64);

impl Duration {
    pub const ZERO: Duration = Duration(0);
    pub const MAX: Duration = Duration(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Duration {
        Duration(ns)
    }

    pub const fn from_micros(us: u64) -> Duration {
        Duration(us.saturating_mul(1_000))
    }

    pub const fn from_millis(ms: u64) -> Duration {
        Duration(ms.saturating_mul(NANOS_PER_MS))
    }

    pub const fn from_secs(s: u64) -> Duration {
        Duration(s.saturating_mul(NANOS_PER_S))
    }

    /// Rounds a (validated, finite, non-negative) number of milliseconds to the nearest ns.
    pub fn from_millis_f64(ms: f64) -> Duration {
        Duration::from_secs_f64(ms / 1e3)
    }

    /// Rounds a (validated, finite, non-negative) number of seconds to the nearest ns.
    pub fn from_secs_f64(s: f64) -> Duration {
        let ns = (s * 1e9).round();
        if ns.is_nan() || ns <= 0.0 {
            Duration::ZERO
        } else if ns >= u64::MAX as f64 {
            Duration::MAX
        } else {
            Duration(ns as u64)
        }
    }

    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// Whole microseconds, truncated: Linux keeps its RTTs so (`rs->rtt_us`, `tcp_min_rtt`).
    pub const fn as_micros(self) -> u64 {
        self.0 / 1_000
    }

    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }

    pub const fn saturating_sub(self, rhs: Duration) -> Duration {
        Duration(self.0.saturating_sub(rhs.0))
    }

    pub const fn saturating_mul(self, k: u64) -> Duration {
        Duration(self.0.saturating_mul(k))
    }
}

impl Instant {
    /// The run's start.
    pub const ZERO: Instant = Instant(0);
    /// Never: the deadline of a timer that is not armed, the key of an empty queue.
    pub const MAX: Instant = Instant(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Instant {
        Instant(ns)
    }

    pub const fn from_millis(ms: u64) -> Instant {
        Instant(Duration::from_millis(ms).0)
    }

    pub const fn from_secs(s: u64) -> Instant {
        Instant(Duration::from_secs(s).0)
    }

    /// Rounds a (validated, finite, non-negative) number of milliseconds to the nearest ns.
    pub fn from_millis_f64(ms: f64) -> Instant {
        Instant(Duration::from_millis_f64(ms).0)
    }

    /// Rounds a (validated, finite, non-negative) number of seconds to the nearest ns.
    pub fn from_secs_f64(s: f64) -> Instant {
        Instant(Duration::from_secs_f64(s).0)
    }

    /// The time elapsed from the run's start to this instant.
    pub const fn since_start(self) -> Duration {
        Duration(self.0)
    }

    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// Whole microseconds since the start, truncated: a stamp of Linux's microsecond clock
    /// (`tcp_mstamp`, `tcp_skb_timestamp_us`), so that an interval is the difference of two
    /// truncated stamps, as `tcp_stamp_us_delta` takes it.
    pub const fn as_micros(self) -> u64 {
        self.0 / 1_000
    }

    /// Whole milliseconds since the start, truncated (BBR's `div_u64(delivered_mstamp,
    /// USEC_PER_MSEC)`).
    pub const fn as_millis(self) -> u64 {
        self.0 / 1_000_000
    }

    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }

    /// The span from `earlier` to `self`, zero if `earlier` is later.
    pub const fn saturating_duration_since(self, earlier: Instant) -> Duration {
        Duration(self.0.saturating_sub(earlier.0))
    }
}

impl Sub for Instant {
    type Output = Duration;
    /// Saturates at zero: an instant before `rhs` is no time after it.
    fn sub(self, rhs: Instant) -> Duration {
        self.saturating_duration_since(rhs)
    }
}

impl Add<Duration> for Instant {
    type Output = Instant;
    /// Saturates at `Instant::MAX` ("never" stays never).
    fn add(self, rhs: Duration) -> Instant {
        Instant(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign<Duration> for Instant {
    fn add_assign(&mut self, rhs: Duration) {
        *self = *self + rhs;
    }
}

impl Sub<Duration> for Instant {
    type Output = Instant;
    /// Saturates at the run's start.
    fn sub(self, rhs: Duration) -> Instant {
        Instant(self.0.saturating_sub(rhs.0))
    }
}

impl Add for Duration {
    type Output = Duration;
    fn add(self, rhs: Duration) -> Duration {
        Duration(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Duration {
    fn add_assign(&mut self, rhs: Duration) {
        *self = *self + rhs;
    }
}

impl Sub for Duration {
    type Output = Duration;
    fn sub(self, rhs: Duration) -> Duration {
        self.saturating_sub(rhs)
    }
}

impl SubAssign for Duration {
    fn sub_assign(&mut self, rhs: Duration) {
        *self = *self - rhs;
    }
}

impl Mul<u64> for Duration {
    type Output = Duration;
    /// Saturates at `Duration::MAX`, as `saturating_mul`.
    fn mul(self, k: u64) -> Duration {
        self.saturating_mul(k)
    }
}

impl Div<u64> for Duration {
    type Output = Duration;
    /// Rounds down to a whole nanosecond.
    fn div(self, k: u64) -> Duration {
        Duration(self.0 / k)
    }
}

impl fmt::Display for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3} ms", self.as_millis_f64())
    }
}

impl fmt::Display for Duration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3} ms", self.as_millis_f64())
    }
}

/// Time to serialise `bytes` at `bits_per_s`, rounded up to a whole nanosecond so that a busy
/// link never runs faster than its rate.
pub fn serialisation_time(bytes: u64, bits_per_s: u64) -> Duration {
    if bits_per_s == 0 {
        return Duration::MAX;
    }
    // 64 bits hold any packet's bits in nanoseconds (Linux's pacing divides a u64 the same
    // way, `tcp_update_skb_after_send`); the 128-bit arithmetic, library calls on wasm32 (as
    // is a checked 64-bit multiply), is only for sizes past 2 GB.
    const FITS: u64 = u64::MAX / (8 * NANOS_PER_S);
    if bytes <= FITS {
        return Duration((bytes * 8 * NANOS_PER_S).div_ceil(bits_per_s));
    }
    let bits = u128::from(bytes) * 8 * u128::from(NANOS_PER_S);
    let ns = bits.div_ceil(u128::from(bits_per_s));
    Duration(u64::try_from(ns).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_1500_byte_packet_at_1_gbit_takes_12_us() {
        assert_eq!(serialisation_time(1500, 1_000_000_000), Duration(12_000));
    }

    #[test]
    fn serialisation_rounds_up() {
        // 1 byte at 3 bit/s: 8/3 s, which must not be shortened.
        assert_eq!(serialisation_time(1, 3), Duration(2_666_666_667));
        assert_eq!(serialisation_time(1, 0), Duration::MAX);
        assert_eq!(serialisation_time(u64::MAX, 1), Duration::MAX);
    }

    #[test]
    fn the_64_bit_division_agrees_with_128_bits_on_both_sides_of_its_edge() {
        let edge = u64::MAX / (8 * NANOS_PER_S);
        for bytes in [1, 1500, 65_535, edge - 1, edge, edge + 1, edge * 3] {
            for rate in [1, 3, 999_999_937, 1_000_000_000, 10_000_000_000, u64::MAX] {
                let exact =
                    (u128::from(bytes) * 8 * u128::from(NANOS_PER_S)).div_ceil(u128::from(rate));
                let want = Duration(u64::try_from(exact).unwrap_or(u64::MAX));
                assert_eq!(
                    serialisation_time(bytes, rate),
                    want,
                    "{bytes} B at {rate} bit/s"
                );
            }
        }
    }

    #[test]
    fn conversions_round_to_nearest_nanosecond() {
        assert_eq!(Duration::from_millis_f64(31.537), Duration(31_537_000));
        assert_eq!(Duration::from_millis_f64(0.1), Duration(100_000));
        assert_eq!(Duration::from_secs_f64(1.4e-9), Duration(1));
        assert_eq!(Duration::from_secs_f64(1.6e-9), Duration(2));
        assert_eq!(Duration::from_secs_f64(-1.0), Duration::ZERO);
        assert_eq!(Duration::from_secs_f64(f64::NAN), Duration::ZERO);
        assert_eq!(Duration::from_secs_f64(1e30), Duration::MAX);
        assert_eq!(Duration::from_millis(2).as_millis_f64(), 2.0);
        assert_eq!(Instant::from_millis_f64(31.537), Instant(31_537_000));
        assert_eq!(Instant::from_secs_f64(2.5), Instant(2_500_000_000));
        assert_eq!(Duration::from_micros(3), Duration(3_000));
        assert_eq!(Duration::from_secs(u64::MAX), Duration::MAX);
    }

    #[test]
    fn an_instant_minus_a_later_one_is_no_time() {
        assert_eq!(Instant(30) - Instant(10), Duration(20));
        assert_eq!(Instant(10) - Instant(30), Duration::ZERO);
        assert_eq!(Instant(7) - Instant(7), Duration::ZERO);
        assert_eq!(Instant::MAX - Instant::ZERO, Duration::MAX);
    }

    #[test]
    fn moving_an_instant_saturates_at_either_end() {
        assert_eq!(Instant(10) + Duration(5), Instant(15));
        assert_eq!(Instant(u64::MAX - 1) + Duration(5), Instant::MAX);
        assert_eq!(Instant::MAX + Duration::MAX, Instant::MAX);
        assert_eq!(Instant(10) - Duration(4), Instant(6));
        assert_eq!(Instant(10) - Duration(40), Instant::ZERO);
        let mut t = Instant(1);
        t += Duration(2);
        assert_eq!(t, Instant(3));
        assert_eq!(Instant(42).since_start(), Duration(42));
    }

    #[test]
    fn durations_add_subtract_and_scale_saturating() {
        assert_eq!(Duration(3) + Duration(4), Duration(7));
        assert_eq!(Duration::MAX + Duration(1), Duration::MAX);
        assert_eq!(Duration(3) - Duration(4), Duration::ZERO);
        assert_eq!(Duration(9) - Duration(4), Duration(5));
        assert_eq!(Duration(6) * 7, Duration(42));
        assert_eq!(Duration(u64::MAX / 2 + 1) * 2, Duration::MAX);
        assert_eq!(Duration(6).saturating_mul(u64::MAX), Duration::MAX);
        assert_eq!(Duration(7) / 2, Duration(3));
        let mut d = Duration(5);
        d += Duration(1);
        d -= Duration(10);
        assert_eq!(d, Duration::ZERO);
    }

    #[test]
    fn both_print_as_milliseconds() {
        assert_eq!(Instant(1_234_567).to_string(), "1.235 ms");
        assert_eq!(Duration(31_537_000).to_string(), "31.537 ms");
    }
}
