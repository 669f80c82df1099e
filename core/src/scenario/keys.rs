//! The key table of the spec: every query key, in canonical order, with what it accepts.
//!
//! The parser, the printer and the validator all read this one table, so a range or a unit can
//! only ever be stated once.

use std::fmt;
use std::str::FromStr;

use super::print::fmt_decimal;
use super::units::{read_decimal, Dimension};
use super::{App, Aqm, CcAlgo, LinkKind, Scenario};

/// One query key. `Key::ALL` is the order of the canonical form; serde writes its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Key {
    Preset,
    Cc,
    Rtt,
    Bw,
    Link,
    Loss,
    Ackloss,
    Ackagg,
    Drop,
    Burst,
    Police,
    PoliceBurst,
    Sched,
    Queue,
    Aqm,
    Ecn,
    CodelTarget,
    CodelInterval,
    FqQuantum,
    PieTarget,
    PieTupdate,
    PieAlpha,
    PieBeta,
    RedMin,
    RedMax,
    RedMaxp,
    RedWq,
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
    Think,
    Dur,
    Flows,
    Start,
    Msg,
    Every,
    Count,
    Conns,
    Probe,
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
    /// A comma-separated list of `T:KEY:VALUE` changes of the path (`super::sched`).
    Schedule,
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
    pub const ALL: [Key; 49] = [
        Key::Preset,
        Key::Cc,
        Key::Rtt,
        Key::Bw,
        Key::Link,
        Key::Loss,
        Key::Ackloss,
        Key::Ackagg,
        Key::Drop,
        Key::Burst,
        Key::Police,
        Key::PoliceBurst,
        Key::Sched,
        Key::Queue,
        Key::Aqm,
        Key::Ecn,
        Key::CodelTarget,
        Key::CodelInterval,
        Key::FqQuantum,
        Key::PieTarget,
        Key::PieTupdate,
        Key::PieAlpha,
        Key::PieBeta,
        Key::RedMin,
        Key::RedMax,
        Key::RedMaxp,
        Key::RedWq,
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
        Key::Think,
        Key::Dur,
        Key::Flows,
        Key::Start,
        Key::Msg,
        Key::Every,
        Key::Count,
        Key::Conns,
        Key::Probe,
        Key::Seed,
        Key::At,
    ];

    /// Everything about the key, from [`KEYS`].
    pub fn def(self) -> &'static KeyDef {
        &KEYS[self as usize]
    }

    /// The key as written in a query.
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// The key named `name` exactly (keys are lower case).
    pub fn from_name(name: &str) -> Option<Key> {
        Key::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the key takes a comma list, one value per flow (`super::per_flow`).
    pub fn per_flow(self) -> bool {
        matches!(self, Key::Cc | Key::Rtt | Key::Iw | Key::Start)
    }

    /// The bounds of a numeric key in its query unit, for sliders. `rwnd`'s lower bound is
    /// really `2 * mss` and `at`'s upper bound is really `dur`; this gives the widest case.
    pub fn bounds(self) -> Option<(f64, f64)> {
        match self.kind() {
            Kind::Real(r) => Some((r.min, r.max)),
            // Every whole-number bound is exact in an f64 except seed's, where rounding does
            // a slider no harm.
            Kind::Whole(r) => Some((r.min as f64, r.max as f64)),
            Kind::Preset | Kind::Choice(_) | Kind::Flag | Kind::DropList | Kind::Schedule => None,
        }
    }

    /// What the key accepts, as in the spec's table. `rwnd` and `at` are further bounded by
    /// `mss` and `dur`, which only `Scenario::validate` can see.
    pub(crate) fn kind(self) -> Kind {
        self.def().kind
    }
}

/// Everything about one key in one place, as ripgrep defines its flags: its name in a query,
/// what it means and in what unit (docs/scenario.md's key table is this table, checked by a
/// test), what it accepts, and where its value lives in a [`Scenario`]. The parser, the
/// printer, the validator, the runner's help and the page's controls all read it; adding a key
/// is a row here and the code that uses its value.
pub struct KeyDef {
    pub key: Key,
    pub name: &'static str,
    /// What the key sets, as the key table's "meaning" column says it.
    pub meaning: &'static str,
    /// The unit of a plain number, or the values a choice takes, as the key table says it.
    pub unit: &'static str,
    pub(crate) kind: Kind,
    /// The "allowed" column where the range alone does not say it (a bound that follows
    /// another key, a list's own limits).
    allowed: Option<&'static str>,
    get: fn(&Scenario) -> Value,
    /// Stores a value the parser has checked against `kind` (a name from its choices, a
    /// number in its range).
    put: fn(&mut Scenario, Value),
}

impl KeyDef {
    /// The key table's "allowed" column: the range in the key's unit, or what else bounds it.
    pub fn allowed(&self) -> String {
        if let Some(text) = self.allowed {
            return text.to_string();
        }
        match self.kind {
            Kind::Real(r) => format!("{} to {}", fmt_decimal(r.min), fmt_decimal(r.max)),
            Kind::Whole(r) => format!("{} to {}", r.min, r.max),
            Kind::Preset | Kind::Choice(_) | Kind::Flag | Kind::DropList | Kind::Schedule => {
                String::new()
            }
        }
    }

    /// The key table's "default" column: the value of the defaults, or "none" for a key that
    /// is unset unless given.
    pub fn default_text(&self) -> String {
        let v = (self.get)(&Scenario::default());
        match (&v, self.kind) {
            (Value::Absent, _) => "none".to_string(),
            (Value::Drops(d), _) if d.is_empty() => "none".to_string(),
            (Value::Schedule(c), _) if c.is_empty() => "none".to_string(),
            (Value::Name(_), Kind::Choice(_)) => format!("`{}`", v.text().unwrap_or_default()),
            _ => v.text().unwrap_or_default(),
        }
    }
}

/// The key table as docs/scenario.md shows it (a test holds the document to it): a Markdown
/// table in canonical order.
pub fn table_markdown() -> String {
    let mut out = String::from(
        "| key | meaning | unit / values | default | allowed |\n|---|---|---|---|---|\n",
    );
    for d in &KEYS {
        let allowed = d.allowed();
        let allowed = if allowed.is_empty() {
            String::new()
        } else {
            format!(" {allowed}")
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |{allowed} |\n",
            d.name,
            d.meaning,
            d.unit,
            d.default_text(),
        ));
    }
    out
}

/// The key table as the runner's help prints it: a line a key, its name, unit and range.
pub fn table_text() -> String {
    let mut out = String::new();
    for d in &KEYS {
        let range = match d.key {
            Key::Preset => super::PRESETS
                .iter()
                .map(|p| p.name)
                .collect::<Vec<_>>()
                .join(", "),
            _ => d.allowed(),
        };
        let unit = d.unit.replace('`', "");
        let tail = if range.is_empty() {
            unit
        } else {
            format!("{unit}; {}", range.replace('`', ""))
        };
        out.push_str(&format!(
            "  {:<14} {} ({tail})\n",
            d.name,
            d.meaning.replace('`', "")
        ));
    }
    out
}

/// The key table, in the order of [`Key::ALL`] (`KEYS[k as usize].key == k`, checked by a test).
/// The common shapes take a line each: a decimal, a whole number (`small` for a `u32` field),
/// a 0/1 flag, each stored in the named field of [`Scenario`]; the others are written out.
pub static KEYS: [KeyDef; 49] = {
    use Dimension as D;
    // A key that is a plain field of `Scenario`, bounded by its kind alone.
    macro_rules! plain {
        ($key:ident $name:literal, $meaning:literal, $unit:expr, $kind:expr, $get:expr, $put:expr) => {
            KeyDef {
                key: Key::$key,
                name: $name,
                meaning: $meaning,
                unit: $unit,
                kind: $kind,
                allowed: None,
                get: $get,
                put: $put,
            }
        };
    }
    macro_rules! real {
        ($key:ident $name:literal, $m:literal, $u:literal, $lo:expr, $hi:expr, $d:ident, $f:ident) => {
            plain!($key $name, $m, $u, real($lo, $hi, D::$d), |s| Value::Real(s.$f), |s, v| s.$f = v.real())
        };
    }
    macro_rules! whole {
        ($key:ident $name:literal, $m:literal, $u:literal, $lo:expr, $hi:expr, $d:ident, $f:ident) => {
            plain!($key $name, $m, $u, whole($lo, $hi, D::$d), |s| Value::Whole(s.$f), |s, v| s.$f = v.whole())
        };
    }
    macro_rules! small {
        ($key:ident $name:literal, $m:literal, $u:literal, $lo:expr, $hi:expr, $d:ident, $f:ident) => {
            plain!($key $name, $m, $u, whole($lo, $hi, D::$d), |s| Value::Whole(s.$f.into()), |s, v| s.$f = v.small())
        };
    }
    // One of a fixed set of names, each an enum's value (`CcAlgo`, `App`).
    macro_rules! choice {
        ($key:ident $name:literal, $m:literal, $u:literal, $names:expr, $f:ident: $t:ident) => {
            plain!($key $name, $m, $u, Kind::Choice(&$names), |s| Value::Name(s.$f.name()), |s, v| {
                if let Some(x) = v.name().and_then($t::from_name) {
                    s.$f = x;
                }
            })
        };
    }
    // A key that takes one value for every flow or a list of one per flow (`per_flow`): the
    // plain field holds the one value (flow 1's with a list), `each` the list.
    macro_rules! each {
        ($key:ident $name:literal, $m:literal, $u:literal, $kind:expr, $f:ident, $to:expr, $from:expr) => {
            KeyDef {
                key: Key::$key,
                name: $name,
                meaning: $m,
                unit: $u,
                kind: $kind,
                allowed: None,
                get: |s| super::per_flow::get(&s.each.$f, s.$f, $to),
                put: |s, v| super::per_flow::put(&mut s.each.$f, &mut s.$f, v, $from),
            }
        };
    }
    macro_rules! flag {
        ($key:ident $name:literal, $m:literal, $f:ident) => {
            plain!($key $name, $m, "`0` or `1`", Kind::Flag, |s| Value::Flag(s.$f), |s, v| s.$f = v.flag())
        };
    }
    [
        KeyDef {
            key: Key::Preset,
            name: "preset",
            meaning: "start from a named preset, then apply the other keys",
            unit: "preset name",
            kind: Kind::Preset,
            allowed: Some("a name below"),
            get: |s| s.preset.map_or(Value::Absent, Value::Name),
            // Applied before the other keys, by name (`Scenario::with_query`).
            put: |_, _| {},
        },
        each!(Cc "cc", "congestion control; a comma list gives each flow its own (`bbr,cubic`)", "`reno`, `cubic`, `bbr`", Kind::Choice(&["reno", "cubic", "bbr"]), cc,
            |c: CcAlgo| Value::Name(c.name()), |v: &Value| v.name().and_then(CcAlgo::from_name)),
        each!(Rtt "rtt", "round-trip propagation delay, no queueing; a comma list gives each flow its own through the shared bottleneck (`20,80`)", "ms", real(0.1, 2000.0, D::Millis), rtt_ms,
            Value::Real, |v: &Value| v.number()),
        real!(Bw "bw", "bottleneck rate; with `link=lte` or `wifi`, the link's mean rate", "Mbit/s", 0.01, 100_000.0, Mbps, bw_mbps),
        choice!(Link "link", "the bottleneck's link: a fixed rate; a seeded cellular (Sprout's model) or Wi-Fi (aggregates after contention) link averaging `bw`; or a Mahimahi trace, given as a file (the runner's `--link-trace FILE`, or a file picked or dropped on the page)", "`fixed`, `lte`, `wifi`, `trace`", ["fixed", "lte", "wifi", "trace"], link: LinkKind),
        real!(Loss "loss", "random loss, data direction", "percent", 0.0, 50.0, Percent, loss_pct),
        real!(Ackloss "ackloss", "random loss, ACK direction", "percent", 0.0, 50.0, Percent, ackloss_pct),
        real!(Ackagg "ackagg", "ACK aggregation: ACKs are held and released together every so often (on a grid from the start of the run), as Wi-Fi's block ACKs and a cellular uplink's grants release them; 0 = none", "ms", 0.0, 1000.0, Millis, ackagg_ms),
        KeyDef {
            key: Key::Drop,
            name: "drop",
            meaning: "drop exactly these data packets (1 = the first data packet sent), besides random loss",
            unit: "comma-separated list",
            kind: Kind::DropList,
            allowed: Some("packet numbers from 1 to 2^64-1, at most 1000 entries"),
            get: |s| Value::Drops(s.drop.clone()),
            put: |s, v| {
                if let Value::Drops(d) = v {
                    s.drop = d;
                }
            },
        },
        real!(Burst "burst", "mean loss-burst length (Gilbert-Elliott); 1 = independent", "packets", 1.0, 100.0, Packets, burst),
        real!(Police "police", "a policer before the bottleneck: a token bucket at this rate that drops what exceeds it, adding no delay (an ISP's ingress policer, tc's `police`); 0 = none", "Mbit/s", 0.0, 100_000.0, Mbps, police_mbps),
        whole!(PoliceBurst "police_burst", "the policer's bucket; 0 = 20 ms of its rate, at least two full segments", "bytes", 0, 1_073_741_824, Bytes, police_burst),
        KeyDef {
            key: Key::Sched,
            name: "sched",
            meaning: "changes of the path during the run, each `T:KEY:VALUE` (at T seconds, KEY takes VALUE, in its own units): `10:bw:10,20:loss:2`; `rtt` sets every flow's",
            unit: "comma-separated list",
            kind: Kind::Schedule,
            allowed: Some("KEY one of `bw`, `loss`, `rtt`, `ackloss`, `queue`; T from 0 to 600, ascending; at most 1000 entries"),
            get: |s| Value::Schedule(s.sched.clone()),
            put: |s, v| {
                if let Value::Schedule(c) = v {
                    s.sched = c;
                }
            },
        },
        small!(Queue "queue", "bottleneck queue's hard limit: drop-tail with `aqm=fifo`, the discipline's `limit` otherwise", "packets", 1, 1_000_000, Packets, queue),
        choice!(Aqm "aqm", "queue discipline at the bottleneck: drop-tail, RED (gentle), CoDel (RFC 8289), FQ-CoDel (RFC 8290), PIE (RFC 8033)", "`fifo`, `red`, `codel`, `fq_codel`, `pie`", ["fifo", "red", "codel", "fq_codel", "pie"], aqm: Aqm),
        flag!(Ecn "ecn", "ECN (RFC 3168): data sent ECT(0), the queue marks CE instead of dropping, the receiver echoes ECE until CWR, the sender reduces without retransmitting", ecn),
        real!(CodelTarget "codel_target", "CoDel's acceptable standing sojourn (`codel`, `fq_codel`)", "ms", 0.01, 1000.0, Millis, codel_target_ms),
        real!(CodelInterval "codel_interval", "how long the sojourn stays above target before CoDel drops (`codel`, `fq_codel`)", "ms", 1.0, 10_000.0, Millis, codel_interval_ms),
        small!(FqQuantum "fq_quantum", "bytes a flow sends per deficit round (`fq_codel`)", "bytes", 64, 65_536, Bytes, fq_quantum),
        real!(PieTarget "pie_target", "PIE's target queueing delay (`pie`)", "ms", 0.1, 1000.0, Millis, pie_target_ms),
        real!(PieTupdate "pie_tupdate", "how often PIE updates its probability, rounded up to whole 4 ms jiffies as Linux at HZ 250 (`pie`)", "ms", 1.0, 1000.0, Millis, pie_tupdate_ms),
        small!(PieAlpha "pie_alpha", "PIE's weight of the delay's distance from target, in sixteenths (`pie`)", "1/16", 0, 32, Plain, pie_alpha),
        small!(PieBeta "pie_beta", "PIE's weight of the delay's trend, in sixteenths (`pie`)", "1/16", 0, 32, Plain, pie_beta),
        real!(RedMin "red_min", "RED's minimum threshold on the average queue (`red`)", "packets", 0.0, 1_000_000.0, Packets, red_min),
        KeyDef {
            key: Key::RedMax,
            name: "red_max",
            meaning: "RED's maximum threshold on the average queue; gentle RED ramps from `red_maxp` here to 100 % at twice it (`red`)",
            unit: "packets",
            kind: real(0.0, 1_000_000.0, D::Packets),
            allowed: Some("`red_min` to 1000000"),
            get: |s| Value::Real(s.red_max),
            put: |s, v| s.red_max = v.real(),
        },
        real!(RedMaxp "red_maxp", "RED's drop probability at `red_max` (`red`)", "percent", 0.0, 100.0, Percent, red_maxp_pct),
        real!(RedWq "red_wq", "RED's weight of the newest queue length in its average (`red`)", "fraction", 0.000_001, 1.0, Plain, red_wq),
        small!(Mss "mss", "segment payload", "bytes", 64, 65_000, Bytes, mss),
        each!(Iw "iw", "initial congestion window; a comma list gives each flow its own", "segments", whole(1, 1000, D::Segments), iw,
            |n: u32| Value::Whole(n.into()), |v: &Value| match *v { Value::Whole(n) => u32::try_from(n).ok(), _ => None }),
        KeyDef {
            key: Key::Rwnd,
            name: "rwnd",
            meaning: "largest window the receiver advertises: autotuning's ceiling, or the fixed buffer with `autotune=0`",
            unit: "bytes",
            kind: whole(2 * 64, MAX_RWND, D::Bytes),
            allowed: Some("2*mss to 1073741824"),
            get: |s| Value::Whole(s.rwnd),
            put: |s, v| s.rwnd = v.whole(),
        },
        flag!(Hystart "hystart", "HyStart slow-start exit", hystart),
        flag!(Sack "sack", "selective acknowledgements", sack),
        flag!(Ts "ts", "TCP timestamps (RFC 7323): 12 option bytes on every segment, 3 SACK blocks per ACK instead of 4, and an RTT sample from every ACK that advances, retransmitted data included", ts),
        flag!(Autotune "autotune", "receive-buffer autotuning as Linux's `tcp_moderate_rcvbuf`: the window starts at Linux's default buffer (about 64 KB) and grows each round trip up to `rwnd`; `0` fixes the buffer at `rwnd`, as `SO_RCVBUF` does", autotune),
        real!(Delack "delack", "delayed-ACK timeout; 0 = ACK every segment", "ms", 0.0, 500.0, Millis, delack_ms),
        real!(Minrto "minrto", "minimum retransmission timeout", "ms", 1.0, 5000.0, Millis, minrto_ms),
        choice!(App "app", "workload", "`body`, `bulk`, `msgs`", ["body", "bulk", "msgs"], app: App),
        whole!(Body "body", "size of the one body each flow sends", "bytes", 1, 10_000_000_000, Bytes, body),
        real!(Think "think", "the sending application's pause after its connection is up, before it writes (a server computing its response)", "ms", 0.0, 60_000.0, Millis, think_ms),
        real!(Dur "dur", "simulated time limit", "s", 0.001, 600.0, Seconds, dur_s),
        small!(Flows "flows", "parallel flows sharing the bottleneck", "count", 1, 64, Flows, flows),
        each!(Start "start", "when the flows open their connections; a comma list gives each flow its own (`0,5`)", "s", real(0.0, 600.0, D::Seconds), start_s,
            Value::Real, |v: &Value| v.number()),
        small!(Msg "msg", "message size", "bytes", 1, 65_000, Bytes, msg),
        real!(Every "every", "interval between messages", "ms", 0.1, 10_000.0, Millis, every_ms),
        small!(Count "count", "number of messages", "count", 1, 1_000_000, Messages, count),
        small!(Conns "conns", "connections the messages go round-robin over; 0 = UDP", "count", 0, 64, Connections, conns),
        real!(Probe "probe", "a latency probe: an 84-byte ping (ping's default) every so often through the same bottleneck, beside the workload (flent's RRUL); 0 = none", "ms", 0.0, 10_000.0, Millis, probe_ms),
        whole!(Seed "seed", "random seed", "unsigned 64-bit", 0, u64::MAX, Plain, seed),
        KeyDef {
            key: Key::At,
            name: "at",
            meaning: "the player's cursor; does not change the run",
            unit: "ms of simulated time",
            kind: real(0.0, 600_000.0, D::Millis),
            allowed: Some("0 to `dur`"),
            get: |s| s.at_ms.map_or(Value::Absent, Value::Real),
            put: |s, v| s.at_ms = Some(v.real()),
        },
    ]
};

/// A key's value in a scenario, for printing and validating.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An optional key that is not set (`preset`, `at`).
    Absent,
    Name(&'static str),
    Flag(bool),
    Real(f64),
    Whole(u64),
    Drops(Vec<u64>),
    Schedule(Vec<super::sched::Change>),
    /// A per-flow key's values, one per flow (`super::per_flow`), at least two and not all
    /// equal.
    Each(Vec<Value>),
}

/// The bounds a numeric key has in one scenario, and how a message states them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Bounds {
    Real { min: f64, max: f64, allowed: String },
    Whole { min: u64, max: u64, allowed: String },
}

impl Value {
    /// A numeric value in its key's query unit (a slider's position); `None` for the others.
    pub fn number(&self) -> Option<f64> {
        match *self {
            Value::Real(x) => Some(x),
            Value::Whole(n) => Some(n as f64),
            _ => None,
        }
    }

    fn real(&self) -> f64 {
        self.number().unwrap_or(0.0)
    }

    fn whole(&self) -> u64 {
        match *self {
            Value::Whole(n) => n,
            _ => 0,
        }
    }

    /// A whole number the table's range keeps within u32; saturating keeps a bad table entry
    /// from wrapping into a valid-looking value.
    fn small(&self) -> u32 {
        u32::try_from(self.whole()).unwrap_or(u32::MAX)
    }

    fn flag(&self) -> bool {
        matches!(self, Value::Flag(true))
    }

    pub(crate) fn name(&self) -> Option<&'static str> {
        match *self {
            Value::Name(n) => Some(n),
            _ => None,
        }
    }
}

impl Scenario {
    /// The value of `key`, the inverse of parsing it.
    pub fn value(&self, key: Key) -> Value {
        (key.def().get)(self)
    }

    /// Stores a value of `key` the parser has checked.
    pub(crate) fn put(&mut self, key: Key, value: Value) {
        (key.def().put)(self, value)
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
            (Key::RedMax, Kind::Real(r)) => {
                let min_text = format!("red_min = {}", fmt_decimal(self.red_min));
                let allowed = allowed(&min_text, &fmt_decimal(r.max), r.dim);
                Some(Bounds::Real {
                    min: self.red_min,
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
            (_, Kind::Preset | Kind::Choice(_) | Kind::Flag | Kind::DropList | Kind::Schedule) => {
                None
            }
        }
    }
}

impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Key::from_name(&name)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown key {name:?}")))
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

impl Aqm {
    pub const ALL: [Aqm; 5] = [Aqm::Fifo, Aqm::Red, Aqm::Codel, Aqm::FqCodel, Aqm::Pie];

    /// The value of `aqm` that selects this discipline.
    pub fn name(self) -> &'static str {
        match self {
            Aqm::Fifo => "fifo",
            Aqm::Red => "red",
            Aqm::Codel => "codel",
            Aqm::FqCodel => "fq_codel",
            Aqm::Pie => "pie",
        }
    }

    pub fn from_name(name: &str) -> Option<Aqm> {
        Aqm::ALL.into_iter().find(|a| a.name() == name)
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
    fn the_table_is_in_key_order() {
        for (i, k) in Key::ALL.into_iter().enumerate() {
            assert_eq!(KEYS[i].key, k, "row {i}");
            // The variant's name in snake case: `CodelTarget` is `codel_target`.
            let snake =
                format!("{k:?}")
                    .chars()
                    .enumerate()
                    .fold(String::new(), |mut s, (j, c)| {
                        if c.is_uppercase() && j > 0 {
                            s.push('_');
                        }
                        s.push(c.to_ascii_lowercase());
                        s
                    });
            assert_eq!(KEYS[i].name, snake, "row {i}");
        }
    }

    #[test]
    fn every_key_reads_back_what_it_stored() {
        // A value put through the table comes back through it, for every key: the getter and
        // the setter name the same field.
        let mut s = Scenario::default();
        for k in Key::ALL {
            let v = match k.kind() {
                Kind::Real(r) => Value::Real((r.min + r.max) / 3.0),
                Kind::Whole(r) => Value::Whole(r.min + (r.max - r.min) / 3),
                Kind::Flag => Value::Flag(!matches!(s.value(k), Value::Flag(true))),
                Kind::Choice(names) => Value::Name(names[names.len() - 1]),
                Kind::DropList => Value::Drops(vec![3, 7]),
                Kind::Schedule => Value::Schedule(vec![super::super::sched::Change {
                    at_s: 2.5,
                    setting: super::super::sched::Setting::Queue(9),
                }]),
                Kind::Preset => continue,
            };
            s.put(k, v.clone());
            assert_eq!(s.value(k), v, "{k}");
        }
    }

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
        let Kind::Choice(aqm) = Key::Aqm.kind() else {
            panic!("aqm is a choice")
        };
        assert_eq!(aqm, Aqm::ALL.map(Aqm::name));
        let Kind::Choice(link) = Key::Link.kind() else {
            panic!("link is a choice")
        };
        assert_eq!(link, LinkKind::ALL.map(LinkKind::name));
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
