//! Numbers as the charts print them: tick labels in one unit per axis, readouts with three
//! significant digits.

use crate::i18n::Lang;

/// `v` with `decimals` decimals, trailing zeros dropped and the whole part's digits grouped as
/// the page writes counts: `1.50` -> `1.5`, `2.00` -> `2`, `10000` -> `10,000`.
pub fn trim(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" {
        return "0".to_string();
    }
    crate::model::format::grouped(&s)
}

/// A tick label of an axis whose ticks are `step` apart and reach `top`, short enough for the
/// narrow room beside a plot: past 9,999 in thousands (`300k`), millions (`1.5M`) or billions,
/// so that a label stays within five characters and clear of the axis's name beside it.
pub fn compact(v: f64, step: f64, top: f64) -> String {
    let (unit, suffix) = if top.abs() >= 1e9 {
        (1e9, "G")
    } else if top.abs() >= 1e6 {
        (1e6, "M")
    } else if top.abs() >= 1e4 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    let decimals = if step > 0.0 && step.is_finite() {
        (-(step / unit).log10().floor()).clamp(0.0, 9.0) as usize
    } else {
        0
    };
    let n = trim(v / unit, decimals);
    if n == "0" {
        n
    } else {
        format!("{n}{suffix}")
    }
}

/// Decimals enough to tell apart ticks about a sixth of `top` apart.
pub fn decimals_for(top: f64) -> usize {
    if !(top.is_finite() && top > 0.0) {
        return 0;
    }
    (1.0 - (top / 6.0).log10().floor()).clamp(0.0, 9.0) as usize
}

/// A value axis's tick labels from 0 to `top`: the decimals [`decimals_for`] gives, no more.
pub fn tick_for(top: f64) -> impl Fn(f64) -> String {
    let decimals = decimals_for(top);
    move |v| trim(v, decimals)
}

/// Three significant digits, no exponent: `0.103`, `12.1`, `121`, `1,246`.
pub fn sig(v: f64) -> String {
    if !v.is_finite() {
        return "–".to_string();
    }
    let a = v.abs();
    if a >= 1000.0 {
        let r = v.round();
        let sign = if r < 0.0 { "-" } else { "" };
        return format!("{sign}{}", crate::model::format::count(r.abs() as u64));
    }
    let decimals = if a >= 100.0 {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 1.0 {
        2
    } else if a >= 0.1 {
        3
    } else if a > 0.0 {
        (-a.log10().floor()) as usize + 2
    } else {
        0
    };
    trim(v, decimals.min(9))
}

/// The time axis in ms up to two seconds, in s beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUnit {
    Ms,
    S,
}

impl TimeUnit {
    pub fn for_span(end_ms: f64) -> TimeUnit {
        if end_ms >= 2000.0 {
            TimeUnit::S
        } else {
            TimeUnit::Ms
        }
    }

    pub fn tick(self, ms: f64) -> String {
        self.tick_within(ms, f64::INFINITY)
    }

    /// A tick on an axis `span_ms` wide: enough decimals that a zoomed axis's ticks differ.
    pub fn tick_within(self, ms: f64, span_ms: f64) -> String {
        let d = |span: f64, base: usize| {
            if span < 1.0 {
                base + 2
            } else if span < 10.0 {
                base + 1
            } else {
                base
            }
        };
        match self {
            TimeUnit::Ms => trim(ms, d(span_ms, 1)),
            TimeUnit::S => trim(ms / 1000.0, d(span_ms / 10.0, 2)),
        }
    }

    pub fn desc(self, lang: Lang) -> &'static str {
        match self {
            TimeUnit::Ms => lang.pick("time (ms)", "时间（ms）"),
            TimeUnit::S => lang.pick("time (s)", "时间（s）"),
        }
    }
}

/// A readout's time: `123.4 ms`, `12.35 s`.
pub fn time(ms: f64) -> String {
    if ms.abs() >= 1000.0 {
        format!("{} s", trim(ms / 1000.0, 3))
    } else {
        format!("{} ms", trim(ms, 1))
    }
}

/// Milliseconds with three significant digits, for latencies: `50 ms`, `175 ms`, `0.35 ms`.
pub fn ms(v: f64) -> String {
    if v.abs() >= 10_000.0 {
        format!("{} s", sig(v / 1000.0))
    } else {
        format!("{} ms", sig(v))
    }
}

/// Bytes in decimal units for an axis whose top is `top`: every tick in the same unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ByteUnit {
    div: f64,
    name: &'static str,
}

impl ByteUnit {
    pub fn for_top(top: f64) -> ByteUnit {
        let (div, name) = if top >= 2e9 {
            (1e9, "GB")
        } else if top >= 2e6 {
            (1e6, "MB")
        } else if top >= 2e3 {
            (1e3, "kB")
        } else {
            (1.0, "B")
        };
        ByteUnit { div, name }
    }

    pub fn tick(self, v: f64) -> String {
        trim(v / self.div, 2)
    }

    pub fn name(self) -> &'static str {
        self.name
    }
}

/// A readout's byte count: `1.87 MB`, `14.6 kB`, `512 B`.
pub fn bytes(v: f64) -> String {
    if !v.is_finite() {
        return "–".to_string();
    }
    let a = v.abs();
    if a >= 1e9 {
        format!("{} GB", sig(v / 1e9))
    } else if a >= 1e6 {
        format!("{} MB", sig(v / 1e6))
    } else if a >= 1e3 {
        format!("{} kB", sig(v / 1e3))
    } else {
        format!("{} B", trim(v, 0))
    }
}

/// A rate in MB/s: `12.1 MB/s`.
pub fn rate(rate: tcplab::rate::MBytePerS) -> String {
    format!("{} MB/s", sig(rate.0))
}

/// A count of segments of `mss` bytes: `1,280 seg`.
pub fn segments(bytes: f64, mss: u32, lang: Lang) -> String {
    let n = bytes / f64::from(mss.max(1));
    format!("{} {}", sig(n), lang.pick("seg", "段"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_axis_label_stays_within_five_characters() {
        // Segments of a long run, as the time-sequence graph's right axis counts them.
        let ticks = [0.0, 100_000.0, 200_000.0, 300_000.0];
        let labels: Vec<String> = ticks
            .iter()
            .map(|v| compact(*v, 100_000.0, 300_000.0))
            .collect();
        assert_eq!(labels, ["0", "100k", "200k", "300k"]);
        assert_eq!(compact(1_500_000.0, 500_000.0, 1.5e7), "1.5M");
        assert_eq!(compact(12_000.0, 2_000.0, 12_000.0), "12k");
        assert_eq!(compact(25_000.0, 500.0, 25_000.0), "25k");
        assert_eq!(compact(10_500.0, 500.0, 25_000.0), "10.5k");
        // Below ten thousand the number is written out, grouped as every other axis is.
        assert_eq!(compact(2_000.0, 500.0, 2_000.0), "2,000");
        assert_eq!(compact(0.25, 0.05, 0.5), "0.25");
        for top in [
            9_999.0, 99_000.0, 950_000.0, 9.9e6, 9.5e7, 9.9e8, 9.9e9, 9.9e11,
        ] {
            let label = compact(top, top / 5.0, top);
            assert!(label.chars().count() <= 5, "{top}: {label}");
        }
    }
}
