//! Numbers with unit suffixes: `28ms`, `1gbit`, `20Mb`, `4MiB`, `0.1%`.
//!
//! Numbers are plain decimals, `digits` or `digits.digits`, never exponents, `inf` or `NaN`, so a
//! value in a link reads the same to a person as to the parser. Scaling by a unit is done on
//! the decimal digits, not on a rounded `f64`: `0.0283s` is exactly the `f64` nearest to 28.3 ms,
//! and `2.5MB` is exactly 2 500 000 bytes.

/// The unit a key's plain number is in, which also decides the suffixes it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dimension {
    /// Milliseconds; accepts `us`, `ms`, `s`.
    Millis,
    /// Seconds; accepts `us`, `ms`, `s`.
    Seconds,
    /// Megabits per second; accepts `kbit`, `mbit`, `gbit` and their spellings.
    Mbps,
    /// Percent; accepts a trailing `%`.
    Percent,
    /// Bytes; accepts `B`, `KB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`, and bits `Kb`, `Mb`, `Gb`.
    Bytes,
    Packets,
    Segments,
    Flows,
    Messages,
    Connections,
    /// A bare number.
    Plain,
}

/// Longest number accepted, suffix included. Long enough for the shortest round-trip decimal of
/// any `f64` the ranges allow (the tiniest loss rate prints as 0.000…5 with 323 zeros), short
/// enough that a pasted wall of digits is refused at once.
pub(crate) const MAX_NUMBER_LEN: usize = 400;

/// Why a value is not a number of the wanted kind. The caller adds the key and the range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberError {
    Empty,
    TooLong,
    NotANumber,
    /// Written with an exponent (`1e3`), which the contract leaves out: the digits in full.
    Exponent,
    UnknownUnit,
    /// Has a fraction where a whole number is needed (after applying the unit).
    NotWhole,
    /// Well formed but below zero (negative zero included) or too large to represent: out of
    /// every range the table has.
    OutOfRange,
}

impl Dimension {
    /// The unit as written after a range in a message: "0.1 to 2000 ms".
    pub(crate) fn word(self) -> &'static str {
        match self {
            Dimension::Millis => "ms",
            Dimension::Seconds => "s",
            Dimension::Mbps => "Mbit/s",
            Dimension::Percent => "%",
            Dimension::Bytes => "bytes",
            Dimension::Packets => "packets",
            Dimension::Segments => "segments",
            Dimension::Flows => "flows",
            Dimension::Messages => "messages",
            Dimension::Connections => "connections",
            Dimension::Plain => "",
        }
    }

    /// The suffixes accepted, for a message; empty for bare numbers.
    pub(crate) fn suffixes(self) -> &'static str {
        match self {
            Dimension::Millis | Dimension::Seconds => "us, ms, s",
            Dimension::Mbps => "kbit, Mbit, Gbit (also kbps, Mbps, Gbps)",
            Dimension::Percent => "%",
            Dimension::Bytes => "B, KB, MB, GB, KiB, MiB, GiB, Kb, Mb, Gb",
            _ => "",
        }
    }

    /// Power of ten that turns a number with `suffix` into this unit, for decimal keys.
    fn decimal_shift(self, suffix: &str) -> Option<i32> {
        let shift = match (self, suffix) {
            (_, "") => 0,
            (Dimension::Millis, "us") => -3,
            (Dimension::Millis, "ms") => 0,
            (Dimension::Millis, "s") => 3,
            (Dimension::Seconds, "us") => -6,
            (Dimension::Seconds, "ms") => -3,
            (Dimension::Seconds, "s") => 0,
            (Dimension::Mbps, "kbit" | "Kbit" | "kbit/s" | "Kbit/s" | "kbps" | "Kbps") => -3,
            (Dimension::Mbps, "mbit" | "Mbit" | "mbit/s" | "Mbit/s" | "mbps" | "Mbps") => 0,
            (Dimension::Mbps, "gbit" | "Gbit" | "gbit/s" | "Gbit/s" | "gbps" | "Gbps") => 3,
            (Dimension::Percent, "%") => 0,
            _ => return None,
        };
        Some(shift)
    }

    /// The factor `num / den` that turns a number with `suffix` into this unit, for
    /// whole-number keys. Bits (`b`) divide by 8, so only `B` and `b` are case-sensitive.
    fn whole_factor(self, suffix: &str) -> Option<(u128, u128)> {
        const K: u128 = 1000;
        const KI: u128 = 1024;
        let factor = match (self, suffix) {
            (_, "") => (1, 1),
            (Dimension::Bytes, s) => match s {
                "B" => (1, 1),
                "kB" | "KB" => (K, 1),
                "MB" => (K * K, 1),
                "GB" => (K * K * K, 1),
                "KiB" => (KI, 1),
                "MiB" => (KI * KI, 1),
                "GiB" => (KI * KI * KI, 1),
                "kb" | "Kb" => (K, 8),
                "Mb" => (K * K, 8),
                "Gb" => (K * K * K, 8),
                _ => return None,
            },
            _ => return None,
        };
        Some(factor)
    }
}

/// A well-formed plain decimal split into its parts, and whatever follows it.
struct Decimal<'a> {
    negative: bool,
    int: &'a str,
    frac: &'a str,
    suffix: &'a str,
}

impl<'a> Decimal<'a> {
    fn split(value: &'a str) -> Result<Self, NumberError> {
        if value.is_empty() {
            return Err(NumberError::Empty);
        }
        if value.len() > MAX_NUMBER_LEN {
            return Err(NumberError::TooLong);
        }
        let (negative, rest) = match value.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, value),
        };
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, suffix) = rest.split_at(end);
        let (int, frac) = match number.split_once('.') {
            Some((int, frac)) => (int, frac),
            None => (number, ""),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        // `digits.digits` or `digits`: no `.5`, no `5.`.
        let well_formed = digits(int) && (frac.is_empty() || digits(frac));
        // `1e5` is an exponent, not a unit `e5`: say so rather than list the units.
        let exponent = suffix.starts_with(['e', 'E'])
            && suffix[1..].starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+');
        if well_formed && !number.ends_with('.') && exponent {
            return Err(NumberError::Exponent);
        }
        if !well_formed || number.ends_with('.') || exponent {
            return Err(NumberError::NotANumber);
        }
        Ok(Decimal {
            negative,
            int,
            frac,
            suffix,
        })
    }
}

/// Reads a decimal value of `dim`, e.g. `28`, `28.5ms`, `0.5s` for milliseconds.
///
/// The result may be infinite (a number of 310 digits); the caller's range check refuses it.
pub(crate) fn read_decimal(value: &str, dim: Dimension) -> Result<f64, NumberError> {
    let d = Decimal::split(value)?;
    let shift = dim
        .decimal_shift(d.suffix)
        .ok_or(NumberError::UnknownUnit)?;
    if d.negative {
        return Err(NumberError::OutOfRange);
    }
    // The length cap keeps this far from overflowing an i32.
    let frac_len = i32::try_from(d.frac.len()).map_err(|_| NumberError::TooLong)?;
    // Rust's float parser rounds correctly, so shifting the exponent instead of multiplying
    // gives the f64 nearest the exact value with its unit.
    let exact = format!("{}{}e{}", d.int, d.frac, shift - frac_len);
    exact.parse::<f64>().map_err(|_| NumberError::NotANumber)
}

/// Reads a whole-number value of `dim`, e.g. `1460`, `2.5MB` (2 500 000), `20Mb` (2 500 000).
pub(crate) fn read_whole(value: &str, dim: Dimension) -> Result<u64, NumberError> {
    let d = Decimal::split(value)?;
    let (num, den) = dim.whole_factor(d.suffix).ok_or(NumberError::UnknownUnit)?;
    if d.negative {
        return Err(NumberError::OutOfRange);
    }
    let int = d.int.trim_start_matches('0');
    let frac = d.frac.trim_end_matches('0');
    // Every range ends below 10^20, so a longer integer part is out of range whatever the unit.
    if int.len() > 21 {
        return Err(NumberError::OutOfRange);
    }
    // With the last fractional digit not 0, `frac / 10^len * num` is whole only if 2^len or
    // 5^len divides `num`; no unit's factor exceeds 2^30.
    if frac.len() > 30 {
        return Err(NumberError::NotWhole);
    }
    let int: u128 = parse_digits(int);
    let frac_value: u128 = parse_digits(frac);
    let scale = 10u128.pow(frac.len() as u32);
    // frac / scale * num is whole iff (scale / g) divides frac, with g = gcd(num, scale); the
    // product is then below num, so nothing overflows.
    let g = gcd(num, scale);
    let step = scale / g;
    if !frac_value.is_multiple_of(step) {
        return Err(NumberError::NotWhole);
    }
    let total = int
        .checked_mul(num)
        .and_then(|i| i.checked_add(frac_value / step * (num / g)))
        .ok_or(NumberError::OutOfRange)?;
    if !total.is_multiple_of(den) {
        return Err(NumberError::NotWhole);
    }
    u64::try_from(total / den).map_err(|_| NumberError::OutOfRange)
}

/// The value of a string of at most 38 ASCII digits (checked by the callers).
fn parse_digits(digits: &str) -> u128 {
    digits
        .bytes()
        .fold(0, |acc, b| acc * 10 + u128::from(b - b'0'))
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::Dimension as D;
    use super::NumberError as E;
    use super::*;

    #[test]
    fn time_suffixes() {
        assert_eq!(read_decimal("28", D::Millis), Ok(28.0));
        assert_eq!(read_decimal("28ms", D::Millis), Ok(28.0));
        assert_eq!(read_decimal("500us", D::Millis), Ok(0.5));
        assert_eq!(read_decimal("0.0283s", D::Millis), Ok(28.3));
        assert_eq!(read_decimal("1.5", D::Seconds), Ok(1.5));
        assert_eq!(read_decimal("1500ms", D::Seconds), Ok(1.5));
        assert_eq!(read_decimal("1us", D::Seconds), Ok(0.000_001));
        assert_eq!(read_decimal("28MS", D::Millis), Err(E::UnknownUnit));
        assert_eq!(read_decimal("28 ms", D::Millis), Err(E::UnknownUnit));
    }

    #[test]
    fn rate_suffixes_are_bits() {
        for (v, want) in [
            ("1000", 1000.0),
            ("1gbit", 1000.0),
            ("1Gbit", 1000.0),
            ("1gbps", 1000.0),
            ("1Gbit/s", 1000.0),
            ("10mbit", 10.0),
            ("10Mbps", 10.0),
            ("64kbit", 0.064),
            ("64Kbit", 0.064),
            ("64kbps", 0.064),
        ] {
            assert_eq!(read_decimal(v, D::Mbps), Ok(want), "{v}");
        }
        assert_eq!(read_decimal("1GB", D::Mbps), Err(E::UnknownUnit));
        assert_eq!(read_decimal("1g", D::Mbps), Err(E::UnknownUnit));
    }

    #[test]
    fn percent_takes_an_optional_sign() {
        assert_eq!(read_decimal("0.1", D::Percent), Ok(0.1));
        assert_eq!(read_decimal("0.1%", D::Percent), Ok(0.1));
        assert_eq!(read_decimal("0.1%%", D::Percent), Err(E::UnknownUnit));
        assert_eq!(read_decimal("5ms", D::Percent), Err(E::UnknownUnit));
    }

    #[test]
    fn byte_suffixes() {
        for (v, want) in [
            ("2500000", 2_500_000),
            ("2500000B", 2_500_000),
            ("2.5MB", 2_500_000),
            ("20Mb", 2_500_000),
            ("4MiB", 4_194_304),
            ("4KiB", 4096),
            ("1.5KB", 1500),
            ("1.5kB", 1500),
            ("8Kb", 1000),
            ("10GB", 10_000_000_000),
            ("1GiB", 1_073_741_824),
            ("1Gb", 125_000_000),
            ("0.5KiB", 512),
            ("1460.000", 1460),
            ("007", 7),
        ] {
            assert_eq!(read_whole(v, D::Bytes), Ok(want), "{v}");
        }
    }

    #[test]
    fn byte_values_must_be_whole() {
        assert_eq!(read_whole("1.5", D::Bytes), Err(E::NotWhole));
        assert_eq!(read_whole("1Kb", D::Bytes), Ok(125));
        assert_eq!(read_whole("1b", D::Bytes), Err(E::UnknownUnit));
        assert_eq!(read_whole("0.001KB", D::Bytes), Ok(1));
        assert_eq!(read_whole("0.0001KB", D::Bytes), Err(E::NotWhole));
        assert_eq!(read_whole("0.1KiB", D::Bytes), Err(E::NotWhole));
        assert_eq!(read_whole("0.125KiB", D::Bytes), Ok(128));
        assert_eq!(read_whole("0.001Kb", D::Bytes), Err(E::NotWhole));
        assert_eq!(read_whole("0.008Kb", D::Bytes), Ok(1));
        let tiny = format!("0.{}1GiB", "0".repeat(60));
        assert_eq!(read_whole(&tiny, D::Bytes), Err(E::NotWhole));
    }

    #[test]
    fn bare_whole_numbers() {
        assert_eq!(read_whole("10", D::Segments), Ok(10));
        assert_eq!(read_whole("10.0", D::Segments), Ok(10));
        assert_eq!(read_whole("10.5", D::Segments), Err(E::NotWhole));
        assert_eq!(read_whole("10KB", D::Segments), Err(E::UnknownUnit));
        assert_eq!(read_whole("18446744073709551615", D::Plain), Ok(u64::MAX));
        assert_eq!(
            read_whole("18446744073709551616", D::Plain),
            Err(E::OutOfRange)
        );
        assert_eq!(read_whole(&"9".repeat(300), D::Plain), Err(E::OutOfRange));
        assert_eq!(read_whole(&"9".repeat(300), D::Bytes), Err(E::OutOfRange));
    }

    #[test]
    fn only_plain_decimals() {
        for v in [
            "ten", "inf", "NaN", "+5", ".5", "5.", "1.2.3", "-", "--1", "ms", "1.e5",
        ] {
            let got = read_decimal(v, D::Millis);
            assert!(
                matches!(got, Err(E::NotANumber | E::UnknownUnit)),
                "{v}: {got:?}"
            );
        }
        for v in ["1e5", "2.5E-3", "1e400", "1e+2ms"] {
            assert_eq!(read_decimal(v, D::Millis), Err(E::Exponent), "{v}");
        }
        assert_eq!(read_whole("1e3", D::Bytes), Err(E::Exponent));
        assert_eq!(read_decimal("", D::Millis), Err(E::Empty));
        assert_eq!(read_whole("", D::Bytes), Err(E::Empty));
        assert_eq!(read_decimal("٣", D::Millis), Err(E::NotANumber));
        assert_eq!(read_decimal("５", D::Millis), Err(E::NotANumber));
    }

    #[test]
    fn negative_numbers_and_negative_zero_are_out_of_range() {
        assert_eq!(read_decimal("-5", D::Percent), Err(E::OutOfRange));
        assert_eq!(read_decimal("-0", D::Percent), Err(E::OutOfRange));
        assert_eq!(read_whole("-0", D::Plain), Err(E::OutOfRange));
    }

    #[test]
    fn huge_numbers() {
        // 10^309 is beyond f64: infinite, for the range check to refuse.
        let big = format!("1{}", "0".repeat(309));
        assert_eq!(read_decimal(&big, D::Millis), Ok(f64::INFINITY));
        let long = "1".repeat(MAX_NUMBER_LEN + 1);
        assert_eq!(read_decimal(&long, D::Millis), Err(E::TooLong));
        assert_eq!(read_whole(&long, D::Plain), Err(E::TooLong));
    }

    #[test]
    fn shortest_decimals_of_tiny_floats_read_back() {
        for x in [5e-324, 1e-300, 0.1 + 0.2, 49.999_999_999_999_99] {
            let s = format!("{x}");
            assert!(s.len() <= MAX_NUMBER_LEN);
            assert_eq!(read_decimal(&s, D::Percent), Ok(x));
        }
    }
}
