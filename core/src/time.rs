//! Simulated time: an integer count of nanoseconds, so that every platform computes the same
//! schedule bit for bit (floating-point time would round differently as runs grow long).

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in simulated time, or a span of it, in nanoseconds since the run began.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Time(pub u64);

impl Time {
    pub const ZERO: Time = Time(0);
    pub const MAX: Time = Time(u64::MAX);
    pub const NANOS_PER_MS: u64 = 1_000_000;
    pub const NANOS_PER_S: u64 = 1_000_000_000;

    pub const fn from_nanos(ns: u64) -> Time {
        Time(ns)
    }

    pub const fn from_millis(ms: u64) -> Time {
        Time(ms.saturating_mul(Self::NANOS_PER_MS))
    }

    pub const fn from_secs(s: u64) -> Time {
        Time(s.saturating_mul(Self::NANOS_PER_S))
    }

    pub const fn from_micros(us: u64) -> Time {
        Time(us.saturating_mul(1_000))
    }

    /// Rounds a (validated, finite, non-negative) number of milliseconds to the nearest ns.
    pub fn from_millis_f64(ms: f64) -> Time {
        Time::from_secs_f64(ms / 1e3)
    }

    /// Rounds a (validated, finite, non-negative) number of seconds to the nearest ns.
    pub fn from_secs_f64(s: f64) -> Time {
        let ns = (s * 1e9).round();
        if ns.is_nan() || ns <= 0.0 {
            Time::ZERO
        } else if ns >= u64::MAX as f64 {
            Time::MAX
        } else {
            Time(ns as u64)
        }
    }

    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    pub fn as_millis_f64(self) -> f64 {
        self.0 as f64 / 1e6
    }

    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1e9
    }

    pub const fn saturating_sub(self, rhs: Time) -> Time {
        Time(self.0.saturating_sub(rhs.0))
    }

    pub const fn saturating_mul(self, k: u64) -> Time {
        Time(self.0.saturating_mul(k))
    }

    pub fn min(self, other: Time) -> Time {
        if self <= other {
            self
        } else {
            other
        }
    }

    pub fn max(self, other: Time) -> Time {
        if self >= other {
            self
        } else {
            other
        }
    }
}

impl Add for Time {
    type Output = Time;
    fn add(self, rhs: Time) -> Time {
        Time(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for Time {
    fn add_assign(&mut self, rhs: Time) {
        *self = *self + rhs;
    }
}

impl Sub for Time {
    type Output = Time;
    fn sub(self, rhs: Time) -> Time {
        self.saturating_sub(rhs)
    }
}

impl fmt::Display for Time {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.3} ms", self.as_millis_f64())
    }
}

/// Time to serialise `bytes` at `bits_per_s`, rounded up to a whole nanosecond so that a busy
/// link never runs faster than its rate.
pub fn serialisation_time(bytes: u64, bits_per_s: u64) -> Time {
    if bits_per_s == 0 {
        return Time::MAX;
    }
    let bits = u128::from(bytes) * 8 * u128::from(Time::NANOS_PER_S);
    let ns = bits.div_ceil(u128::from(bits_per_s));
    Time(u64::try_from(ns).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_1500_byte_packet_at_1_gbit_takes_12_us() {
        assert_eq!(serialisation_time(1500, 1_000_000_000), Time(12_000));
    }

    #[test]
    fn serialisation_rounds_up() {
        // 1 byte at 3 bit/s: 8/3 s, which must not be shortened.
        assert_eq!(serialisation_time(1, 3), Time(2_666_666_667));
    }

    #[test]
    fn conversions_round_to_nearest_nanosecond() {
        assert_eq!(Time::from_millis_f64(31.537), Time(31_537_000));
        assert_eq!(Time::from_millis_f64(0.1), Time(100_000));
        assert_eq!(Time::from_secs_f64(-1.0), Time::ZERO);
        assert_eq!(Time::from_millis(2).as_millis_f64(), 2.0);
    }
}
