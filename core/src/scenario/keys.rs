//! The key table of the spec: every query key, in canonical order, with what it accepts.
//!
//! The parser, the printer and the validator all read this one table, so a range or a unit can
//! only ever be stated once.

use std::fmt;
use std::str::FromStr;

use super::print::fmt_decimal;
use super::units::{read_decimal, Dimension};
use super::{App, CcAlgo, Scenario};

/// One query key. `Key::ALL` is the order of the canonical form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    Preset,
    Cc,
    Rtt,
    Bw,
    Loss,
    Ackloss,
    Drop,
    Burst,
    Queue,
    Mss,
    Iw,
    Rwnd,
    Hystart,
    Sack,
    Ts,
    Autotune,
    Delack,
    Minrto,
    App,
    Body,
    Dur,
    Flows,
    Msg,
    Every,
    Count,
    Conns,
    Seed,
    At,
}

/// What values a key takes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Kind {
    /// A preset name.
    Preset,
    /// One of a fixed set of names.
    Choice(&'static [&'static str]),
    /// Exactly `0` or `1`.
    Flag,
    /// A decimal number in `min..=max` of the key's unit.
    Real(Range<f64>),
    /// A whole number in `min..=max` of the key's unit.
    Whole(Range<u64>),
    /// A comma-separated list of 1-based packet numbers.
    DropList,
}

/// An inclusive range, with the unit its numbers are in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Range<T> {
    pub min: T,
    pub max: T,
    pub dim: Dimension,
}

const fn real(min: f64, max: f64, dim: Dimension) -> Kind {
    Kind::Real(Range { min, max, dim })
}

const fn whole(min: u64, max: u64, dim: Dimension) -> Kind {
    Kind::Whole(Range { min, max, dim })
}

/// Most entries `drop` may list.
pub const MAX_DROPS: usize = 1000;

/// The largest receive window (bytes): the most a window-scaled TCP can advertise.
pub const MAX_RWND: u64 = 1 << 30;

impl Key {
    /// Every key, in the order of the spec's table and of the canonical form.
    pub const ALL: [Key; 28] = [
        Key::Preset,
        Key::Cc,
        Key::Rtt,
        Key::Bw,
        Key::Loss,
        Key::Ackloss,
        Key::Drop,
        Key::Burst,
        Key::Queue,
        Key::Mss,
        Key::Iw,
        Key::Rwnd,
        Key::Hystart,
        Key::Sack,
        Key::Ts,
        Key::Autotune,
        Key::Delack,
        Key::Minrto,
        Key::App,
        Key::Body,
        Key::Dur,
        Key::Flows,
        Key::Msg,
        Key::Every,
        Key::Count,
        Key::Conns,
        Key::Seed,
        Key::At,
    ];

    /// The key as written in a query.
    pub fn name(self) -> &'static str {
        match self {
            Key::Preset => "preset",
            Key::Cc => "cc",
            Key::Rtt => "rtt",
            Key::Bw => "bw",
            Key::Loss => "loss",
            Key::Ackloss => "ackloss",
            Key::Drop => "drop",
            Key::Burst => "burst",
            Key::Queue => "queue",
            Key::Mss => "mss",
            Key::Iw => "iw",
            Key::Rwnd => "rwnd",
            Key::Hystart => "hystart",
            Key::Sack => "sack",
            Key::Ts => "ts",
            Key::Autotune => "autotune",
            Key::Delack => "delack",
            Key::Minrto => "minrto",
            Key::App => "app",
            Key::Body => "body",
            Key::Dur => "dur",
            Key::Flows => "flows",
            Key::Msg => "msg",
            Key::Every => "every",
            Key::Count => "count",
            Key::Conns => "conns",
            Key::Seed => "seed",
            Key::At => "at",
        }
    }

    /// The key named `name` exactly (keys are lower case).
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The bounds of a numeric key in its query unit, for sliders. `rwnd`'s lower bound is
    /// really `2 * mss` and `at`'s upper bound is really `dur`; this gives the widest case.
    pub fn bounds(self) -> Option<(f64, f64)> {
        match self.kind() {
            Kind::Real(r) => Some((r.min, r.max)),
            // Every whole-number bound is exact in an f64 except seed's, where rounding does
            // a slider no harm.
            Kind::Whole(r) => Some((r.min as f64, r.max as f64)),
            Kind::Preset | Kind::Choice(_) | Kind::Flag | Kind::DropList => None,
        }
    }

    /// What the key accepts, as in the spec's table. `rwnd` and `at` are further bounded by
    /// `mss` and `dur`, which only `Scenario::validate` can see.
    pub(crate) fn kind(self) -> Kind {
        use Dimension as D;
        match self {
            Key::Preset => Kind::Preset,
            Key::Cc => Kind::Choice(&["reno", "cubic", "bbr"]),
            Key::Rtt => real(0.1, 2000.0, D::Millis),
            Key::Bw => real(0.01, 100_000.0, D::Mbps),
            Key::Loss | Key::Ackloss => real(0.0, 50.0, D::Percent),
            Key::Drop => Kind::DropList,
            Key::Burst => real(1.0, 100.0, D::Packets),
            Key::Queue => whole(1, 1_000_000, D::Packets),
            Key::Mss => whole(64, 65_000, D::Bytes),
            Key::Iw => whole(1, 1000, D::Segments),
            Key::Rwnd => whole(2 * 64, MAX_RWND, D::Bytes),
            Key::Hystart | Key::Sack | Key::Ts | Key::Autotune => Kind::Flag,
            Key::Delack => real(0.0, 500.0, D::Millis),
            Key::Minrto => real(1.0, 5000.0, D::Millis),
            Key::App => Kind::Choice(&["body", "bulk", "msgs"]),
            Key::Body => whole(1, 10_000_000_000, D::Bytes),
            Key::Dur => real(0.001, 600.0, D::Seconds),
            Key::Flows => whole(1, 64, D::Flows),
            Key::Msg => whole(1, 65_000, D::Bytes),
            Key::Every => real(0.1, 10_000.0, D::Millis),
            Key::Count => whole(1, 1_000_000, D::Messages),
            Key::Conns => whole(0, 64, D::Connections),
            Key::Seed => whole(0, u64::MAX, D::Plain),
            Key::At => real(0.0, 600_000.0, D::Millis),
        }
    }
}

/// A key's value in a scenario, for printing and validating.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// An optional key that is not set (`preset`, `at`).
    Absent,
    Name(&'static str),
    Flag(bool),
    Real(f64),
    Whole(u64),
    Drops(Vec<u64>),
}

/// The bounds a numeric key has in one scenario, and how a message states them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bounds {
    Real { min: f64, max: f64, allowed: String },
    Whole { min: u64, max: u64, allowed: String },
}

impl Scenario {
    /// The value of `key`, the inverse of parsing it.
    pub(crate) fn value(&self, key: Key) -> Value {
        match key {
            Key::Preset => self.preset.map_or(Value::Absent, Value::Name),
            Key::Cc => Value::Name(self.cc.name()),
            Key::Rtt => Value::Real(self.rtt_ms),
            Key::Bw => Value::Real(self.bw_mbps),
            Key::Loss => Value::Real(self.loss_pct),
            Key::Ackloss => Value::Real(self.ackloss_pct),
            Key::Drop => Value::Drops(self.drop.clone()),
            Key::Burst => Value::Real(self.burst),
            Key::Queue => Value::Whole(self.queue.into()),
            Key::Mss => Value::Whole(self.mss.into()),
            Key::Iw => Value::Whole(self.iw.into()),
            Key::Rwnd => Value::Whole(self.rwnd),
            Key::Hystart => Value::Flag(self.hystart),
            Key::Sack => Value::Flag(self.sack),
            Key::Ts => Value::Flag(self.ts),
            Key::Autotune => Value::Flag(self.autotune),
            Key::Delack => Value::Real(self.delack_ms),
            Key::Minrto => Value::Real(self.minrto_ms),
            Key::App => Value::Name(self.app.name()),
            Key::Body => Value::Whole(self.body),
            Key::Dur => Value::Real(self.dur_s),
            Key::Flows => Value::Whole(self.flows.into()),
            Key::Msg => Value::Whole(self.msg.into()),
            Key::Every => Value::Real(self.every_ms),
            Key::Count => Value::Whole(self.count.into()),
            Key::Conns => Value::Whole(self.conns.into()),
            Key::Seed => Value::Whole(self.seed),
            Key::At => self.at_ms.map_or(Value::Absent, Value::Real),
        }
    }

    /// The range of a numeric key in this scenario: the table's, except that `rwnd` starts at
    /// `2 * mss` (a window must hold two segments for ACK clocking to start) and `at` ends at
    /// `dur`.
    pub(crate) fn bounds(&self, key: Key) -> Option<Bounds> {
        let allowed = |min: &str, max: &str, dim: Dimension| {
            let sep = if matches!(dim, Dimension::Percent | Dimension::Plain) {
                ""
            } else {
                " "
            };
            format!("allowed {min} to {max}{sep}{}", dim.word())
        };
        match (key, key.kind()) {
            (Key::Rwnd, Kind::Whole(r)) => {
                let min = 2 * u64::from(self.mss);
                let min_text = format!("2*mss = {min}");
                let allowed = allowed(&min_text, &r.max.to_string(), r.dim);
                Some(Bounds::Whole {
                    min,
                    max: r.max,
                    allowed,
                })
            }
            (Key::At, Kind::Real(r)) => {
                // Scaled on the decimal digits, as `at` itself is read, so that
                // `dur=0.0283&at=28.3` is at the end of the run, not past it by a rounding.
                let dur = format!("{}s", fmt_decimal(self.dur_s));
                let max = read_decimal(&dur, Dimension::Millis).unwrap_or(self.dur_s * 1000.0);
                let max_text = format!("dur = {}", fmt_decimal(max));
                let allowed = allowed(&fmt_decimal(r.min), &max_text, r.dim);
                Some(Bounds::Real {
                    min: r.min,
                    max,
                    allowed,
                })
            }
            (_, Kind::Real(r)) => Some(Bounds::Real {
                min: r.min,
                max: r.max,
                allowed: allowed(&fmt_decimal(r.min), &fmt_decimal(r.max), r.dim),
            }),
            (_, Kind::Whole(r)) => Some(Bounds::Whole {
                min: r.min,
                max: r.max,
                allowed: allowed(&r.min.to_string(), &r.max.to_string(), r.dim),
            }),
            (_, Kind::Preset | Kind::Choice(_) | Kind::Flag | Kind::DropList) => None,
        }
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Key {
    type Err = super::ScenarioError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Key::from_name(s).ok_or_else(|| super::ScenarioError::unknown_key(s))
    }
}

impl CcAlgo {
    pub const ALL: [CcAlgo; 3] = [CcAlgo::Reno, CcAlgo::Cubic, CcAlgo::Bbr];

    /// The value of `cc` that selects this algorithm.
    pub fn name(self) -> &'static str {
        match self {
            CcAlgo::Reno => "reno",
            CcAlgo::Cubic => "cubic",
            CcAlgo::Bbr => "bbr",
        }
    }

    pub fn from_name(name: &str) -> Option<CcAlgo> {
        CcAlgo::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl App {
    pub const ALL: [App; 3] = [App::Body, App::Bulk, App::Msgs];

    /// The value of `app` that selects this workload.
    pub fn name(self) -> &'static str {
        match self {
            App::Body => "body",
            App::Bulk => "bulk",
            App::Msgs => "msgs",
        }
    }

    pub fn from_name(name: &str) -> Option<App> {
        App::ALL.into_iter().find(|a| a.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        for (i, k) in Key::ALL.into_iter().enumerate() {
            assert_eq!(Key::from_name(k.name()), Some(k));
            assert_eq!(Key::ALL.iter().position(|&o| o == k), Some(i));
        }
        assert_eq!(Key::from_name("RTT"), None);
        assert_eq!(Key::from_name(""), None);
    }

    #[test]
    fn choices_match_the_enums() {
        let Kind::Choice(cc) = Key::Cc.kind() else {
            panic!("cc is a choice")
        };
        assert_eq!(cc, CcAlgo::ALL.map(CcAlgo::name));
        let Kind::Choice(app) = Key::App.kind() else {
            panic!("app is a choice")
        };
        assert_eq!(app, App::ALL.map(App::name));
    }

    #[test]
    fn bounds_read_like_the_spec() {
        assert_eq!(Key::Rtt.bounds(), Some((0.1, 2000.0)));
        assert_eq!(Key::Bw.bounds(), Some((0.01, 100_000.0)));
        assert_eq!(Key::Rwnd.bounds(), Some((128.0, 1_073_741_824.0)));
        assert_eq!(Key::Body.bounds(), Some((1.0, 1e10)));
        assert_eq!(Key::Cc.bounds(), None);
    }
}
