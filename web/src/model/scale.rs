//! How a slider's position maps to a key's value: evenly for short ranges of whole numbers,
//! logarithmically where a range spans decades, and with a stop at zero for a rate (loss) whose
//! interesting values are all small.
//!
//! A range input only knows positions `0..=steps()`; the value it stands for is `value_at`, and
//! the position shown for a value (typed, or from a link) is `position_of`. Values off the grid
//! stay exact: only the thumb rounds.

/// Positions of a logarithmic slider: about 1 % per step over four decades.
pub const STEPS: u32 = 1000;

/// Significant digits a logarithmic slider writes: `28.3`, `2450000`, never `28.347`.
const DIGITS: i32 = 3;

/// The shape of a slider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// Evenly spaced values `min, min + step, …, max`.
    Linear { min: f64, max: f64, step: f64 },
    /// `min · (max/min)^(p/STEPS)`, rounded to three significant digits.
    Log { min: f64, max: f64 },
    /// Position 0 is zero; the others are logarithmic from `low` to `max`.
    LogZero { low: f64, max: f64 },
}

/// A slider for one key: its scale, and whether the key takes whole numbers only.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slider {
    pub scale: Scale,
    pub whole: bool,
}

impl Slider {
    pub fn linear(min: f64, max: f64, step: f64, whole: bool) -> Slider {
        Slider {
            scale: Scale::Linear { min, max, step },
            whole,
        }
    }

    pub fn log(min: f64, max: f64, whole: bool) -> Slider {
        Slider {
            scale: Scale::Log { min, max },
            whole,
        }
    }

    pub fn log_zero(low: f64, max: f64) -> Slider {
        Slider {
            scale: Scale::LogZero { low, max },
            whole: false,
        }
    }

    /// The highest position (the lowest is 0).
    pub fn steps(&self) -> u32 {
        match self.scale {
            Scale::Linear { min, max, step } => {
                let n = ((max - min) / step).round();
                if n.is_finite() && n >= 1.0 {
                    n.min(f64::from(STEPS) * 10.0) as u32
                } else {
                    1
                }
            }
            Scale::Log { .. } | Scale::LogZero { .. } => STEPS,
        }
    }

    pub fn min(&self) -> f64 {
        match self.scale {
            Scale::Linear { min, .. } | Scale::Log { min, .. } => min,
            Scale::LogZero { .. } => 0.0,
        }
    }

    pub fn max(&self) -> f64 {
        match self.scale {
            Scale::Linear { max, .. } | Scale::Log { max, .. } | Scale::LogZero { max, .. } => max,
        }
    }

    /// The value a position stands for, rounded as the slider writes it and inside the range.
    pub fn value_at(&self, position: u32) -> f64 {
        let steps = self.steps();
        let p = position.min(steps);
        let raw = match self.scale {
            Scale::Linear { min, step, .. } => min + f64::from(p) * step,
            Scale::Log { min, max } => log_point(min, max, f64::from(p) / f64::from(steps)),
            Scale::LogZero { low, max } => {
                if p == 0 {
                    return 0.0;
                }
                log_point(low, max, f64::from(p - 1) / f64::from(steps - 1))
            }
        };
        let rounded = match self.scale {
            Scale::Linear { .. } => raw,
            Scale::Log { .. } | Scale::LogZero { .. } => significant(raw, DIGITS),
        };
        let rounded = if self.whole { rounded.round() } else { rounded };
        // The ends are exact whatever the rounding did, so that both stay reachable.
        if p == 0 {
            self.min()
        } else if p == steps {
            self.max()
        } else {
            rounded.clamp(self.min(), self.max())
        }
    }

    /// The position nearest to `value`; values outside the range sit at its ends.
    pub fn position_of(&self, value: f64) -> u32 {
        if !value.is_finite() || value <= self.min() {
            return 0;
        }
        let steps = self.steps();
        if value >= self.max() {
            return steps;
        }
        let fraction = match self.scale {
            Scale::Linear { min, max, .. } => (value - min) / (max - min),
            Scale::Log { min, max } => (value / min).ln() / (max / min).ln(),
            Scale::LogZero { low, max } => {
                if value <= low {
                    return 1.min(steps);
                }
                let f = (value / low).ln() / (max / low).ln();
                return (1.0 + f * f64::from(steps - 1))
                    .round()
                    .clamp(1.0, f64::from(steps)) as u32;
            }
        };
        (fraction * f64::from(steps))
            .round()
            .clamp(0.0, f64::from(steps)) as u32
    }

    /// The next value the slider can write above (`up`) or below `value`: what an arrow key
    /// does. A whole-number key always moves by at least one, where a log step is less.
    /// `big` jumps a tenth of the range (Page Up, Page Down).
    pub fn step(&self, value: f64, up: bool, big: bool) -> f64 {
        let steps = self.steps();
        let stride = if big { (steps / 10).max(1) } else { 1 };
        let here = self.position_of(value);
        if up {
            let mut p = here.saturating_sub(1);
            let mut skipped = 0;
            while p < steps {
                p += 1;
                let v = self.value_at(p);
                if v > value {
                    skipped += 1;
                    if skipped >= stride || p == steps {
                        return v;
                    }
                }
            }
            self.max().max(value.min(self.max()))
        } else {
            let mut p = (here + 1).min(steps);
            let mut skipped = 0;
            while p > 0 {
                p -= 1;
                let v = self.value_at(p);
                if v < value {
                    skipped += 1;
                    if skipped >= stride || p == 0 {
                        return v;
                    }
                }
            }
            self.min().min(value.max(self.min()))
        }
    }
}

fn log_point(min: f64, max: f64, fraction: f64) -> f64 {
    min * (max / min).powf(fraction)
}

/// `v` rounded to `digits` significant digits, computed so that the result is the `f64`
/// nearest to the decimal it prints as (`28.3`, not `28.300000000000001`).
pub fn significant(v: f64, digits: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let magnitude = v.abs().log10().floor() as i32;
    let shift = digits - 1 - magnitude;
    if shift > 0 {
        let f = 10f64.powi(shift);
        (v * f).round() / f
    } else {
        let f = 10f64.powi(-shift);
        (v / f).round() * f
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tcplab::scenario::fmt_decimal as decimal;

    use super::{significant, Slider};

    #[test]
    fn log_sliders_span_their_range_and_write_round_values() {
        let rtt = Slider::log(0.1, 2000.0, false);
        assert_eq!(rtt.value_at(0), 0.1);
        assert_eq!(rtt.value_at(rtt.steps()), 2000.0);
        for p in 0..=rtt.steps() {
            let v = rtt.value_at(p);
            assert!((0.1..=2000.0).contains(&v), "{p}: {v}");
            // Three significant digits, printed without noise.
            assert!(decimal(v).len() <= 6, "{p}: {}", decimal(v));
            // The thumb lands back where it was.
            assert!(rtt.position_of(v).abs_diff(p) <= 1, "{p}: {v}");
        }
        // Values are monotonic.
        for p in 1..=rtt.steps() {
            assert!(rtt.value_at(p) >= rtt.value_at(p - 1));
        }
        assert_eq!(rtt.position_of(1e9), rtt.steps());
        assert_eq!(rtt.position_of(-1.0), 0);
        assert_eq!(rtt.position_of(f64::NAN), 0);
        assert_eq!(significant(28.347, 3), 28.3);
        assert_eq!(significant(2_449_999.0, 3), 2_450_000.0);
        assert_eq!(decimal(significant(0.028347, 3)), "0.0283");
    }

    #[test]
    fn arrow_keys_move_whole_numbers_by_at_least_one() {
        let iw = Slider::log(1.0, 1000.0, true);
        assert_eq!(iw.step(10.0, true, false), 11.0);
        assert_eq!(iw.step(10.0, false, false), 9.0);
        assert_eq!(iw.step(1.0, false, false), 1.0);
        assert_eq!(iw.step(1000.0, true, false), 1000.0);
        assert!(iw.step(10.0, true, true) > 11.0, "Page Up jumps further");
        // Off-grid values step to the next grid value.
        let rtt = Slider::log(0.1, 2000.0, false);
        let up = rtt.step(28.0, true, false);
        assert!(up > 28.0 && up < 29.0, "{up}");
        let flows = Slider::linear(1.0, 64.0, 1.0, true);
        assert_eq!(flows.steps(), 63);
        assert_eq!(flows.step(8.0, true, false), 9.0);
    }
}
