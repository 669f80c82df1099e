//! Numbers as the page writes them: grouped digits, and short axis labels.

use tcplab::player::explain::group_digits as group;
use tcplab::rate::MBytePerS;

/// `1713` -> `"1,713"`.
pub fn count(n: u64) -> String {
    group(&n.to_string())
}

/// A decimal number's text with its whole part's digits grouped: `-12345.5` -> `-12,345.5`.
pub use tcplab::player::explain::grouped_decimal as grouped;

/// A count with its noun, as a person writes it: `1 fast retransmit`, `1,024 segments`.
pub use tcplab::player::explain::counted;

/// A label at the start of a sentence: `goodput` -> `Goodput`.
pub use tcplab::player::explain::capitalised;

/// A short label for a log-scale axis: `1`, `10`, `100`, `1k`, `10k`, `100k`, `1M`, `10M`.
pub fn si(v: f64) -> String {
    let (scaled, suffix) = if v >= 1e9 {
        (v / 1e9, "G")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    // Log-axis ticks are powers of ten, so one decimal is only ever needed off the grid.
    if (scaled - scaled.round()).abs() < 1e-9 {
        format!("{}{suffix}", scaled.round())
    } else {
        format!("{scaled:.1}{suffix}")
    }
}

/// Bytes in decimal units, as the spec counts them (MB = 10^6 bytes): `2.5 MB`, `64 kB`.
pub fn bytes(b: u64) -> String {
    let v = b as f64;
    let (scaled, unit) = if b >= 1_000_000_000 {
        (v / 1e9, "GB")
    } else if b >= 1_000_000 {
        (v / 1e6, "MB")
    } else if b >= 1_000 {
        (v / 1e3, "kB")
    } else {
        return format!("{b} B");
    };
    let text = format!("{scaled:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} {unit}")
}

/// Bytes as people write a buffer's size: in binary units when the size is a whole number of
/// KiB (`4 MiB` for 4194304, `64 KiB`), else in decimal units as [`bytes`] writes them.
pub fn buffer(b: u64) -> String {
    if b >= 1024 && b.is_multiple_of(1024) {
        let (scaled, unit) = if b >= 1 << 30 {
            (b as f64 / f64::from(1u32 << 30), "GiB")
        } else if b >= 1 << 20 {
            (b as f64 / f64::from(1u32 << 20), "MiB")
        } else {
            (b as f64 / 1024.0, "KiB")
        };
        format!("{} {unit}", number(scaled, 3))
    } else {
        bytes(b)
    }
}

/// Milliseconds without noise: `224 ms`, `0.5 ms`, `1.25 s`.
pub fn millis(ms: f64) -> String {
    if ms >= 1000.0 {
        let text = format!("{:.2}", ms / 1000.0);
        format!("{} s", text.trim_end_matches('0').trim_end_matches('.'))
    } else {
        let text = format!("{ms:.1}");
        format!("{} ms", text.trim_end_matches('0').trim_end_matches('.'))
    }
}

/// A measurement to `digits` significant digits (`11.6`, `0.00997`, `1,162,631`).
pub use tcplab::player::explain::number;

/// A rate in megabytes per second, as the runner reports it: `11.6 MB/s`; in kilobytes below a
/// tenth of one, where three digits after zeros are hard to read (`1.18 kB/s`, not
/// `0.00118 MB/s`).
pub fn mbytes_per_s(v: MBytePerS) -> String {
    if v.0 > 0.0 && v.0 < 0.1 {
        format!("{} kB/s", number(v.0 * 1000.0, 3))
    } else {
        format!("{} MB/s", number(v.0, 3))
    }
}

/// A rate in bits per second: `92.8 Mbit/s`, `1.2 Gbit/s`.
pub fn bits_per_s(rate: MBytePerS) -> String {
    let mbit = rate.bits().0;
    if mbit >= 1000.0 {
        format!("{} Gbit/s", number(mbit / 1000.0, 3))
    } else if mbit > 0.0 && mbit < 1.0 {
        format!("{} kbit/s", number(mbit * 1000.0, 3))
    } else {
        format!("{} Mbit/s", number(mbit, 3))
    }
}

/// Under this many milliseconds a duration is written in microseconds: a queue's wait of
/// 37.6 µs reads beside a median of 2.54 µs in one unit, not as `0.03763 ms`.
pub const MICROSECONDS_UNDER_MS: f64 = 0.1;

/// A duration given in milliseconds: four significant digits below a second (`243.5 ms`,
/// `0.142 ms`), three above (`1.25 s`, `30 s`); in microseconds under a tenth of a millisecond,
/// where the zeros would hide the digits (`0.362 µs`, not `0.000362 ms`).
pub fn duration(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{} s", number(ms / 1000.0, 3))
    } else if ms > 0.0 && ms < MICROSECONDS_UNDER_MS {
        format!("{} µs", number(ms * 1000.0, 3))
    } else {
        format!("{} ms", number(ms, 4))
    }
}

/// The two ends of a span of time, in one unit and as many decimals as tell them apart:
/// `129.17 s`/`129.87 s`, `0 ms`/`705.3 ms`, `2.4 s`/`8.1 s`.
pub fn span(from_ms: f64, to_ms: f64) -> (String, String) {
    let (scale, unit) = if to_ms >= 1000.0 {
        (1000.0, "s")
    } else {
        (1.0, "ms")
    };
    let width = ((to_ms - from_ms) / scale).abs();
    let decimals = if width > 0.0 && width.is_finite() {
        (1.0 - width.log10().floor()).clamp(0.0, 3.0) as usize
    } else {
        1
    };
    let end = |ms: f64| {
        let v = ms / scale;
        let text = if v == v.trunc() {
            format!("{v:.0}")
        } else {
            format!("{v:.decimals$}")
        };
        format!("{} {unit}", grouped(&text))
    };
    (end(from_ms), end(to_ms))
}

/// A percentage: `0 %`, `1.23 %`, `0.0412 %`.
pub fn percent(v: f64) -> String {
    format!("{} %", number(v, 3))
}

/// A sentence with no line break between a number and the word after it (`28 ms`, `9.61 %`,
/// `8.7 round trips`) nor before a `·` separator: each such space becomes a no-break space. A
/// phone's narrow column, Chinese above all, where a line may end at any space, otherwise left
/// `ms` or `%` alone at the start of a line.
pub fn unbroken(sentence: &str) -> String {
    let mut out = String::with_capacity(sentence.len() + 8);
    let mut before = None;
    let mut chars = sentence.chars().peekable();
    while let Some(c) = chars.next() {
        let glue = c == ' '
            && (before.is_some_and(|b: char| b.is_ascii_digit()) || chars.peek() == Some(&'·'));
        out.push(if glue { '\u{a0}' } else { c });
        before = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use crate::model::format;

    #[test]
    fn a_number_keeps_its_unit_and_a_separator_its_word() {
        assert_eq!(
            format::unbroken("在 243.6 ms（8.7 个 28 ms 的往返）· 9.61 %"),
            "在 243.6\u{a0}ms（8.7\u{a0}个 28\u{a0}ms 的往返）· 9.61\u{a0}%"
        );
        assert_eq!(
            format::unbroken("CUBIC · RTT 28 ms"),
            "CUBIC\u{a0}· RTT 28\u{a0}ms"
        );
        assert_eq!(format::unbroken("no numbers here"), "no numbers here");
    }

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(format::count(0), "0");
        assert_eq!(format::count(1713), "1,713");
        assert_eq!(format::count(2_500_000), "2,500,000");
        assert_eq!(format::si(1000.0), "1k");
        assert_eq!(format::bytes(2_500_000), "2.5 MB");
        assert_eq!(format::bytes(999), "999 B");
        assert_eq!(format::millis(224.0), "224 ms");
        assert_eq!(format::duration(0.042), "42 µs");
        assert_eq!(format::duration(0.03763), "37.6 µs");
        assert_eq!(format::duration(0.142), "0.142 ms");
        assert_eq!(format::duration(0.000362), "0.362 µs");
        assert_eq!(format::duration(0.0), "0 ms");
        assert_eq!(format::number(11.601129627050227, 3), "11.6");
        assert_eq!(format::number(0.00997340344895887, 3), "0.00997");
        assert_eq!(format::number(113.49415333511713, 3), "113");
        assert_eq!(format::number(1_162_631.0, 3), "1,162,631");
        assert_eq!(format::number(0.0, 3), "0");
        assert_eq!(format::number(f64::NAN, 3), "—");
        assert_eq!(
            format::mbytes_per_s(tcplab::rate::MBytePerS(11.601129627050227)),
            "11.6 MB/s"
        );
        assert_eq!(
            format::mbytes_per_s(tcplab::rate::MBytePerS(0.00118)),
            "1.18 kB/s"
        );
        assert_eq!(
            format::mbytes_per_s(tcplab::rate::MBytePerS(0.1)),
            "0.1 MB/s"
        );
        assert_eq!(format::mbytes_per_s(tcplab::rate::MBytePerS(0.0)), "0 MB/s");
        assert_eq!(
            format::bits_per_s(tcplab::rate::MBytePerS(11.601129627050227)),
            "92.8 Mbit/s"
        );
        assert_eq!(
            format::bits_per_s(tcplab::rate::MBytePerS(125.0)),
            "1 Gbit/s"
        );
        assert_eq!(
            format::bits_per_s(tcplab::rate::MBytePerS(0.01)),
            "80 kbit/s"
        );
        assert_eq!(format::duration(243.496736), "243.5 ms");
        assert_eq!(format::duration(1250.0), "1.25 s");
        assert_eq!(format::duration(30_000.0), "30 s");
        // Every number on an axis or in a readout keeps its digits grouped.
        assert_eq!(format::grouped("-12345.5"), "-12,345.5");
        assert_eq!(format::grouped("999"), "999");
        // A span's ends, told apart: as many decimals as its width needs.
        let span = |a, b| format::span(a, b);
        assert_eq!(
            span(129_174.5, 129_874.2),
            ("129.17 s".into(), "129.87 s".into())
        );
        assert_eq!(span(0.0, 705.3), ("0 ms".into(), "705 ms".into()));
        assert_eq!(span(2_400.0, 8_100.0), ("2.4 s".into(), "8.1 s".into()));
        assert_eq!(span(0.0, 12.25), ("0 ms".into(), "12 ms".into()));
        assert_eq!(span(3.0, 3.25), ("3 ms".into(), "3.25 ms".into()));
        assert_eq!(
            span(1_000_000.0, 1_600_000.0),
            ("1,000 s".into(), "1,600 s".into())
        );
        assert_eq!(format::buffer(4_194_304), "4 MiB");
        assert_eq!(format::buffer(65_536), "64 KiB");
        assert_eq!(format::buffer(1 << 30), "1 GiB");
        assert_eq!(format::buffer(100_000), "100 kB");
        assert_eq!(format::percent(0.0), "0 %");
        assert_eq!(format::percent(1.23456), "1.23 %");
    }
}
