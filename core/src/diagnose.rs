//! "My number, explained": an engineer measured a goodput (or the time one body took) on a
//! path they know a little of; which single cause, on that path, would give that number?
//!
//! Each cause is a knob of the scenario, and each is found by simulation: a bisection over the
//! knob (the loss rate, the receive window, the bottleneck's rate, the server's think time)
//! until the run gives the measured number, then the run itself as the proof. A cause no value
//! of its knob can produce is ruled out, with the closest it came; so is the path alone, when
//! the path as known is faster than what was measured.

use serde::{Deserialize, Serialize};

use crate::scenario::{App, Scenario};
use crate::sim::{run, RunOptions};

/// What was measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measured {
    /// A goodput, MB/s: payload bytes over the time from the first data byte to the last.
    Goodput(f64),
    /// How long one body took, ms, from the connection's SYN to its last byte read.
    Time(f64),
}

impl Measured {
    /// The run's number: a run that delivered nothing has no goodput, one whose body did
    /// not finish took longer than any time.
    fn of(self, summary: &crate::Summary) -> f64 {
        match self {
            Measured::Goodput(_) => summary.goodput_MBps.unwrap_or(0.0),
            Measured::Time(_) => summary.completion_ms.unwrap_or(f64::INFINITY),
        }
    }

    fn value(self) -> f64 {
        match self {
            Measured::Goodput(v) | Measured::Time(v) => v,
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Measured::Goodput(_) => "MB/s",
            Measured::Time(_) => "ms",
        }
    }
}

/// A single cause the lab tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// Random loss on the path.
    Loss,
    /// The receiver's window, fixed.
    ReceiveWindow,
    /// A slower bottleneck than the link as known.
    Bottleneck,
    /// A policer on the path, dropping what exceeds its rate.
    Policer,
    /// The server paused before it answered.
    ThinkTime,
    /// Nothing but the path as known: slow start for a body, the link for a longer flow.
    PathAlone,
}

impl Cause {
    fn key(self) -> &'static str {
        match self {
            Cause::Loss => "loss",
            Cause::ReceiveWindow => "rwnd",
            Cause::Bottleneck => "bw",
            Cause::Policer => "police",
            Cause::ThinkTime => "think",
            Cause::PathAlone => "",
        }
    }
}

/// A cause that reproduces the number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub cause: Cause,
    pub key: String,
    pub value: f64,
    /// The path with this cause: the link that shows it.
    pub scenario: String,
    /// What that scenario's run gives, in the measured number's unit.
    pub result: f64,
    /// Over the path's seeds, where it loses at random: the median at this value, which one
    /// seed's run may stand apart from.
    pub median: Option<f64>,
    pub text: String,
}

/// A cause that cannot give the number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuledOut {
    pub cause: Cause,
    pub why: String,
}

/// The answer `tcplab explain` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    /// The path as known.
    pub path: String,
    pub measured: f64,
    pub unit: String,
    /// What the path as known gives.
    pub baseline: f64,
    pub candidates: Vec<Candidate>,
    pub ruled_out: Vec<RuledOut>,
}

/// Why the question cannot be asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExplainError {
    #[error("--time: the time one body took applies to app=body only (this path has app={0})")]
    TimeNeedsBody(&'static str),
    #[error("{flag}: {value} is out of range (allowed {range})")]
    OutOfRange {
        flag: &'static str,
        value: String,
        range: &'static str,
    },
}

/// A number reproduced within this share counts as reproduced.
pub const TOLERANCE: f64 = 0.05;

/// Seeds each trial runs where the path loses packets at random, its median taken: a body of
/// a few thousand segments loses a handful, and whether one of them costs a timeout swings its
/// goodput by a factor of ten from seed to seed. A path without random loss runs once.
const LOSSY_SEEDS: u64 = 9;

/// Bisection steps at most: a factor of 5e4 narrowed to well under 1 %.
const STEPS: usize = 24;

/// The most simulated time one trial may take, so that an explanation stays quick: a bulk flow
/// is explained over its first 10 s.
const MAX_DUR_S: f64 = 10.0;

pub fn explain(path: &Scenario, measured: Measured) -> Result<Explanation, ExplainError> {
    let v = measured.value();
    match measured {
        Measured::Goodput(g) if !(g > 0.0 && g <= 100_000.0) => {
            return Err(ExplainError::OutOfRange {
                flag: "--goodput",
                value: g.to_string(),
                range: "above 0 to 100000 MB/s",
            })
        }
        Measured::Time(t) if !(t > 0.0 && t <= 3_600_000.0) => {
            return Err(ExplainError::OutOfRange {
                flag: "--time",
                value: t.to_string(),
                range: "above 0 to 3600000 ms",
            })
        }
        Measured::Time(_) if path.app != App::Body => {
            return Err(ExplainError::TimeNeedsBody(path.app.name()))
        }
        _ => {}
    }
    let mut base = path.clone();
    base.dur_s = match measured {
        Measured::Goodput(_) => base.dur_s.min(MAX_DUR_S),
        // Long enough for the body to take three times what was measured.
        Measured::Time(t) => (t / 1e3 * 3.0).clamp(1.0, 600.0),
    };
    let trial = Trial {
        base: &base,
        measured,
    };
    let baseline = trial.median(&base);
    let mut candidates = Vec::new();
    let mut ruled_out = Vec::new();

    // The path alone.
    let alone = if base.app == App::Body {
        "slow start alone"
    } else {
        "the path alone"
    };
    if close(baseline, v) {
        candidates.push(Candidate {
            cause: Cause::PathAlone,
            key: String::new(),
            value: 0.0,
            scenario: base.to_query(),
            result: baseline,
            median: None,
            text: format!(
                "{alone} gives {} {}: nothing else is needed",
                fmt(baseline),
                measured.unit()
            ),
        });
    } else {
        ruled_out.push(RuledOut {
            cause: Cause::PathAlone,
            why: format!(
                "{alone} gives {} {}, not {} {}: something on the path costs the rest",
                fmt(baseline),
                measured.unit(),
                fmt(v),
                measured.unit()
            ),
        });
    }
    // Slower than the path alone: each cause can only make things slower.
    let slower = |x: f64| match measured {
        Measured::Goodput(_) => x < baseline,
        Measured::Time(_) => x > baseline,
    };
    for knob in [Knob::Loss, Knob::Rwnd, Knob::Bw, Knob::Police, Knob::Think] {
        let cause = knob.cause();
        if knob == Knob::Think && matches!(measured, Measured::Goodput(_)) {
            ruled_out.push(RuledOut {
                cause,
                why: "a goodput counts from the first data byte, which a pause before it does \
                      not change: give the body's time (--time) to try a think time"
                    .into(),
            });
            continue;
        }
        if !slower(v) {
            ruled_out.push(RuledOut {
                cause,
                why: format!(
                    "{} {} is no worse than the path alone gives ({} {}): no cost on it is \
                     needed",
                    fmt(v),
                    measured.unit(),
                    fmt(baseline),
                    measured.unit()
                ),
            });
            continue;
        }
        match trial.bisect(knob) {
            Ok((value, scenario, result)) => {
                let lossy = scenario.loss_pct > 0.0 || scenario.ackloss_pct > 0.0;
                let median = lossy.then(|| trial.median(&knob.set(&base, value)));
                let mut text = knob.text(value, result, measured);
                if let Some(m) = median.filter(|&m| !close(m, v)) {
                    text.push_str(&format!(
                        " in this seed's run; over {LOSSY_SEEDS} seeds the median is {} {} (whether \
                         a loss costs a timeout varies)",
                        fmt(m),
                        measured.unit()
                    ));
                }
                candidates.push(Candidate {
                    cause,
                    key: cause.key().to_string(),
                    value,
                    text,
                    scenario: scenario.to_query(),
                    result,
                    median,
                })
            }
            Err(why) => ruled_out.push(RuledOut { cause, why }),
        }
    }
    Ok(Explanation {
        path: path.to_query(),
        measured: v,
        unit: measured.unit().to_string(),
        baseline,
        candidates,
        ruled_out,
    })
}

fn close(a: f64, b: f64) -> bool {
    b != 0.0 && ((a - b) / b).abs() <= TOLERANCE
}

fn fmt(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// The knobs, each with its range and which way it moves the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Knob {
    Loss,
    Rwnd,
    Bw,
    Police,
    Think,
}

impl Knob {
    fn cause(self) -> Cause {
        match self {
            Knob::Loss => Cause::Loss,
            Knob::Rwnd => Cause::ReceiveWindow,
            Knob::Bw => Cause::Bottleneck,
            Knob::Police => Cause::Policer,
            Knob::Think => Cause::ThinkTime,
        }
    }

    /// The knob's range on `s`, searched on a log scale where the knob spans decades.
    fn range(self, s: &Scenario) -> (f64, f64, bool) {
        match self {
            Knob::Loss => (0.001, 50.0, true),
            Knob::Rwnd => (2.0 * f64::from(s.mss), s.rwnd as f64, true),
            Knob::Bw => (0.01, s.bw_mbps, true),
            Knob::Police => (0.01, s.bw_mbps, true),
            Knob::Think => (0.0, 60_000.0, false),
        }
    }

    /// Whether raising the knob makes things worse (a lower goodput, a longer time).
    fn worse_upward(self) -> bool {
        matches!(self, Knob::Loss | Knob::Think)
    }

    fn set(self, s: &Scenario, x: f64) -> Scenario {
        let mut s = s.clone();
        match self {
            Knob::Loss => s.loss_pct = round_sig(x),
            Knob::Rwnd => {
                s.rwnd = (x.round() as u64).max(2 * u64::from(s.mss));
                s.autotune = false;
            }
            Knob::Bw => s.bw_mbps = round_sig(x).max(0.01),
            Knob::Police => s.police_mbps = round_sig(x).max(0.01),
            Knob::Think => s.think_ms = round_sig(x),
        }
        s
    }

    fn value(self, s: &Scenario) -> f64 {
        match self {
            Knob::Loss => s.loss_pct,
            Knob::Rwnd => s.rwnd as f64,
            Knob::Bw => s.bw_mbps,
            Knob::Police => s.police_mbps,
            Knob::Think => s.think_ms,
        }
    }

    fn text(self, value: f64, result: f64, m: Measured) -> String {
        let got = format!("{} {}", fmt(result), m.unit());
        match self {
            Knob::Loss => format!("{}% random loss gives {got}", fmt(value)),
            Knob::Rwnd => format!(
                "a receive window of {} bytes ({} KB) gives {got}",
                value as u64,
                fmt(value / 1024.0)
            ),
            Knob::Bw => format!("a bottleneck of {} Mbit/s gives {got}", fmt(value)),
            Knob::Police => format!(
                "a policer at {} Mbit/s (a bucket of 20 ms) gives {got}",
                fmt(value)
            ),
            Knob::Think => format!(
                "the server pausing {} ms before it answers gives {got}",
                fmt(value)
            ),
        }
    }
}

/// Four significant digits: enough for 5 %, and a readable link.
fn round_sig(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let d = 3 - x.abs().log10().floor() as i32;
    let f = 10f64.powi(d);
    (x * f).round() / f
}

struct Trial<'a> {
    base: &'a Scenario,
    measured: Measured,
}

impl Trial<'_> {
    /// The scenario's number over its seeds: the median, with the seed that gave it.
    fn runs(&self, s: &Scenario) -> Vec<(f64, u64)> {
        let seeds = if s.loss_pct > 0.0 || s.ackloss_pct > 0.0 {
            LOSSY_SEEDS
        } else {
            1
        };
        let mut out: Vec<(f64, u64)> = (0..seeds)
            .map(|i| {
                let mut t = s.clone();
                t.seed = s.seed.wrapping_add(i);
                let r = run(&t, &RunOptions::summary_only());
                (self.measured.of(&r.summary), t.seed)
            })
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    fn median(&self, s: &Scenario) -> f64 {
        let r = self.runs(s);
        r[r.len() / 2].0
    }

    /// The knob's value that gives the measured number, with the one run that shows it.
    fn bisect(&self, knob: Knob) -> Result<(f64, Scenario, f64), String> {
        let target = self.measured.value();
        let (lo0, hi0, log) = knob.range(self.base);
        if lo0 >= hi0 {
            return Err(format!(
                "the path leaves {} no room to vary",
                knob.cause().key()
            ));
        }
        // Whether a number is worse than measured.
        let worse = |y: f64| match self.measured {
            Measured::Goodput(_) => y < target,
            Measured::Time(_) => y > target,
        };
        let mid = |a: f64, b: f64| if log { (a * b).sqrt() } else { (a + b) / 2.0 };
        // The worst end must be worse than measured, or no value of the knob gives it.
        let worst = if knob.worse_upward() { hi0 } else { lo0 };
        let at_worst = self.median(&knob.set(self.base, worst));
        if !worse(at_worst) {
            let y = format!("{} {}", fmt(at_worst), self.measured.unit());
            return Err(format!(
                "even {}={} gives {y}, better than {} {}",
                knob.cause().key(),
                fmt(knob.value(&knob.set(self.base, worst))),
                fmt(target),
                self.measured.unit()
            ));
        }
        let (mut good, mut bad) = if knob.worse_upward() {
            (lo0, hi0)
        } else {
            (hi0, lo0)
        };
        // The closest single run seen, with the median of its value's seeds.
        let mut best: Option<(f64, Scenario, f64, f64)> = None;
        for _ in 0..STEPS {
            let m = mid(good, bad);
            let s = knob.set(self.base, m);
            let runs = self.runs(&s);
            let median = runs[runs.len() / 2].0;
            if let Some(&(y, seed)) = runs
                .iter()
                .min_by(|a, b| (a.0 - target).abs().total_cmp(&(b.0 - target).abs()))
            {
                let mut shown = s.clone();
                shown.seed = seed;
                // The median close too: the cause does not hang on one seed's luck.
                if close(y, target) && close(median, target) {
                    return Ok((knob.value(&s), shown, y));
                }
                if best
                    .as_ref()
                    .is_none_or(|b| (y - target).abs() < (b.2 - target).abs())
                {
                    best = Some((knob.value(&s), shown, y, median));
                }
            }
            if worse(median) {
                bad = m;
            } else {
                good = m;
            }
            if (good - bad).abs() <= f64::EPSILON * good.abs().max(1.0) {
                break;
            }
        }
        // Where the seeds' median jumps across the number (a loss that costs a timeout in
        // some seeds and not in others), a run of that value that gives it still shows it.
        if let Some((value, shown, y, _)) = best.clone().filter(|b| close(b.2, target)) {
            return Ok((value, shown, y));
        }
        // Each seed's number is a staircase in the knob (a loss rate drops a growing set of
        // packets): bisect each seed's own, around where the median crossed.
        let (lo, hi) = if good < bad { (good, bad) } else { (bad, good) };
        let (lo, hi) = if log {
            ((lo / 4.0).max(lo0), (hi * 4.0).min(hi0))
        } else {
            (lo0, hi0)
        };
        for i in 0..LOSSY_SEEDS {
            let mut seeded = self.base.clone();
            seeded.seed = self.base.seed.wrapping_add(i);
            let one = |x: f64| -> (f64, Scenario) {
                let t = knob.set(&seeded, x);
                let r = run(&t, &RunOptions::summary_only());
                (self.measured.of(&r.summary), t)
            };
            let (mut g, mut b) = if knob.worse_upward() {
                (lo, hi)
            } else {
                (hi, lo)
            };
            for _ in 0..STEPS {
                let m = mid(g, b);
                let (y, t) = one(m);
                if close(y, target) {
                    return Ok((knob.value(&t), t, y));
                }
                if worse(y) {
                    b = m;
                } else {
                    g = m;
                }
            }
        }
        let s = knob.set(self.base, mid(good, bad));
        let y = self.median(&s);
        Err(format!(
            "no value of {} gives {} {}: the closest, {}={}, gives {} {} (the number jumps \
             there, as whole round trips come and go)",
            knob.cause().key(),
            fmt(target),
            self.measured.unit(),
            knob.cause().key(),
            fmt(knob.value(&s)),
            fmt(y),
            self.measured.unit()
        ))
    }
}
