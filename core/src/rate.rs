//! Rates with their units in the type. The spec writes a link's rate in Mbit/s (`bw`) and a
//! goodput in MB/s (10^6 bytes a second, the runner's `*_MBps`): a factor of eight that is now
//! the compiler's to keep apart, not the reader's. Both serialize as their bare number, so the
//! JSON keeps the spec's fields.

use std::ops::{Add, Div, Mul};

use serde::{Deserialize, Serialize};

/// Megabits (10^6 bits) a second: a link's rate as `bw=` writes it.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MbitPerS(pub f64);

/// Megabytes (10^6 bytes) a second: a goodput, a window's limit, Mathis's rate.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MBytePerS(pub f64);

impl MbitPerS {
    /// The same rate in bytes.
    pub fn bytes(self) -> MBytePerS {
        MBytePerS(self.0 / 8.0)
    }
}

impl MBytePerS {
    /// The same rate in bits.
    pub fn bits(self) -> MbitPerS {
        MbitPerS(self.0 * 8.0)
    }

    /// A window of `bytes` sent once per `seconds`.
    pub fn of(bytes: f64, seconds: f64) -> MBytePerS {
        MBytePerS(bytes / seconds / 1e6)
    }

    pub fn min(self, other: MBytePerS) -> MBytePerS {
        MBytePerS(self.0.min(other.0))
    }

    pub fn max(self, other: MBytePerS) -> MBytePerS {
        MBytePerS(self.0.max(other.0))
    }

    pub fn is_finite(self) -> bool {
        self.0.is_finite()
    }
}

/// A share of a rate: one flow's part of a link.
impl Div<f64> for MBytePerS {
    type Output = MBytePerS;
    fn div(self, n: f64) -> MBytePerS {
        MBytePerS(self.0 / n)
    }
}

/// How many times one rate is another: measured over theory.
impl Div for MBytePerS {
    type Output = f64;
    fn div(self, other: MBytePerS) -> f64 {
        self.0 / other.0
    }
}

/// Several flows' rate together.
impl Mul<f64> for MBytePerS {
    type Output = MBytePerS;
    fn mul(self, n: f64) -> MBytePerS {
        MBytePerS(self.0 * n)
    }
}

impl Add for MBytePerS {
    type Output = MBytePerS;
    fn add(self, other: MBytePerS) -> MBytePerS {
        MBytePerS(self.0 + other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_bits_a_byte() {
        assert_eq!(MbitPerS(1000.0).bytes(), MBytePerS(125.0));
        assert_eq!(MBytePerS(125.0).bits(), MbitPerS(1000.0));
        assert_eq!(
            serde_json::to_string(&MBytePerS(12.5)).ok().as_deref(),
            Some("12.5")
        );
        assert_eq!(MBytePerS::of(4_194_304.0, 0.02), MBytePerS(209.7152));
    }
}
