//! Reading a query string into a scenario, and checking a scenario against the key table.
//!
//! A query is `&`-separated `key=value` pairs, percent-decoded as a browser's `URLSearchParams`
//! encodes them (`+` is a space, a `%` not followed by two hex digits is itself). `preset` is
//! applied first wherever it appears, then the other keys in the order written, except that
//! `rwnd`, `red_max` and `at` come last: their ranges depend on `mss`, `red_min` and `dur`.

use std::str::FromStr;

use super::error::{Conflict, Problem, ScenarioError};
use super::keys::{Bounds, Key, Kind, Value, MAX_DROPS};
use super::presets::Preset;
use super::print::fmt_decimal;
use super::units::{read_decimal, read_whole, Dimension, NumberError};
use super::Scenario;

/// A query read as far as it is good ([`Scenario::parse_lenient`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Lenient {
    /// The good keys over the preset, or the defaults.
    pub scenario: Scenario,
    /// What was wrong, one message a bad pair, in the order met.
    pub errors: Vec<ScenarioError>,
}

/// How a message states what `drop` takes.
const DROP_ALLOWED: &str = "allowed packet numbers from 1, comma-separated, at most 1000";

impl Scenario {
    /// Reads a query string (with or without its leading `?`); the empty query is the defaults.
    /// The error is the first [`Scenario::parse_lenient`] finds.
    pub fn parse(query: &str) -> Result<Scenario, ScenarioError> {
        let Lenient { scenario, errors } = Scenario::parse_lenient(query);
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(scenario),
        }
    }

    /// Reads a query string as far as it is good: every bad pair (an unknown or repeated key, a
    /// value out of its range) is reported, in the order [`Scenario::parse`] would meet them, and
    /// left out, so the scenario is the query's good keys over the preset or the defaults. A
    /// hand-edited link with three mistakes gets three messages and keeps the rest.
    pub fn parse_lenient(query: &str) -> Lenient {
        let (pairs, mut errors) = resolve(query);
        let base = match pairs.iter().find(|(key, _)| *key == Key::Preset) {
            Some((_, name)) => match find_preset(name).and_then(Preset::scenario) {
                Ok(s) => s,
                Err(e) => {
                    errors.push(e);
                    Scenario::default()
                }
            },
            None => Scenario::default(),
        };
        let scenario = base.with_pairs_lenient(&pairs, &mut errors);
        Lenient { scenario, errors }
    }

    /// Reads a query for a run over a Mahimahi trace (`link=trace`): the query as
    /// [`Scenario::parse`] reads it, less any `link=trace` of its own (the canonical form of
    /// such a run carries one), then the trace as its link.
    pub fn parse_with_trace(
        query: &str,
        trace: crate::link::opportunity::LinkTrace,
    ) -> Result<Scenario, ScenarioError> {
        let (kept, _) = without_trace(query);
        let s = Scenario::parse(&kept)?;
        if s.link != super::LinkKind::Fixed {
            return Err(ScenarioError::new(
                "link",
                Problem::Conflict(Conflict::TraceIsTheLink {
                    link: s.link.name(),
                }),
            ));
        }
        let s = s.with_link_trace(trace);
        s.validate()?;
        Ok(s)
    }

    /// Reads a query as [`Scenario::parse_lenient`] does; where it says `link=trace` and a
    /// trace is at hand (the file the page holds), that trace is the link. Without one,
    /// `link=trace` is reported as needing it.
    pub fn parse_lenient_with_trace(
        query: &str,
        trace: Option<std::sync::Arc<crate::link::opportunity::LinkTrace>>,
    ) -> Lenient {
        let Some(trace) = trace else {
            return Scenario::parse_lenient(query);
        };
        let (kept, asked) = without_trace(query);
        let mut read = Scenario::parse_lenient(&kept);
        if asked && read.scenario.link == super::LinkKind::Fixed {
            read.scenario = read.scenario.with_shared_trace(trace);
        }
        read
    }

    /// Reads a query over `self` as far as it is good, as [`Scenario::parse_lenient`] reads one
    /// over the defaults: how a lesson's link changes the lesson's own scenario
    /// (`lesson=slow-start&iw=4`). `preset` is refused here, with the reason: the scenario
    /// under the keys is already chosen.
    pub fn with_query_lenient(self, query: &str, why_no_preset: Conflict) -> Lenient {
        let (pairs, mut errors) = resolve(query);
        if pairs.iter().any(|(key, _)| *key == Key::Preset) {
            errors.push(ScenarioError::new(
                "preset",
                Problem::Conflict(why_no_preset),
            ));
        }
        let scenario = self.with_pairs_lenient(&pairs, &mut errors);
        Lenient { scenario, errors }
    }

    /// Applies a query that may not name a preset over `self`: how a preset is built.
    pub fn with_query(self, query: &str) -> Result<Scenario, ScenarioError> {
        let (pairs, errors) = resolve(query);
        if let Some(e) = errors.into_iter().next() {
            return Err(e);
        }
        if pairs.iter().any(|(key, _)| *key == Key::Preset) {
            return Err(ScenarioError::new("preset", Problem::PresetNotSettable));
        }
        let mut errors = Vec::new();
        let s = self.with_pairs_lenient(&pairs, &mut errors);
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(s),
        }
    }

    /// Sets one key from its query value, as a sweep does, with the same checks as
    /// [`Scenario::parse`]. On error `self` is unchanged.
    ///
    /// `preset` cannot be set this way: it would silently reset every other key.
    pub fn set(&mut self, key: Key, value: &str) -> Result<(), ScenarioError> {
        if key == Key::Preset {
            return Err(ScenarioError::new(key.name(), Problem::PresetNotSettable));
        }
        let mut next = self.clone();
        next.apply(key, value)?;
        next.validate()?;
        *self = next;
        Ok(())
    }

    /// Checks every key against its range, including the ranges that depend on other keys:
    /// `rwnd >= 2 * mss`, `at <= dur`, and at most 1000 ascending `drop` entries.
    ///
    /// Everything [`Scenario::parse`] returns passes; this is for scenarios built in code.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        for key in Key::ALL {
            let fail = |problem| Err(ScenarioError::new(key.name(), problem));
            match (self.value(key), self.bounds(key)) {
                (Value::Name(name), _) if key == Key::Preset => {
                    find_preset(name)?;
                }
                (Value::Real(v), Some(Bounds::Real { min, max, allowed }))
                    if !(min <= v && v <= max) =>
                {
                    let value = fmt_decimal(v);
                    return fail(Problem::OutOfRange { value, allowed });
                }
                (Value::Whole(v), Some(Bounds::Whole { min, max, allowed }))
                    if !(min <= v && v <= max) =>
                {
                    let value = v.to_string();
                    return fail(Problem::OutOfRange { value, allowed });
                }
                (Value::Each(values), _) => {
                    let count = self.connections();
                    if values.len() != count {
                        return fail(Problem::PerFlowCount {
                            given: values.len(),
                            count,
                            connections: self.app == super::App::Msgs,
                        });
                    }
                    for v in values {
                        let out = match (v, self.bounds(key)) {
                            (Value::Real(v), Some(Bounds::Real { min, max, allowed }))
                                if !(min <= v && v <= max) =>
                            {
                                Some((fmt_decimal(v), allowed))
                            }
                            (Value::Whole(v), Some(Bounds::Whole { min, max, allowed }))
                                if !(min <= v && v <= max) =>
                            {
                                Some((v.to_string(), allowed))
                            }
                            _ => None,
                        };
                        if let Some((value, allowed)) = out {
                            return fail(Problem::OutOfRange { value, allowed });
                        }
                    }
                }
                (Value::Drops(drops), _) => {
                    if drops.len() > MAX_DROPS {
                        return fail(Problem::TooManyDrops { count: drops.len() });
                    }
                    if drops.first() == Some(&0) {
                        let allowed = DROP_ALLOWED.to_owned();
                        return fail(Problem::OutOfRange {
                            value: "0".into(),
                            allowed,
                        });
                    }
                    if drops.windows(2).any(|w| w[0] >= w[1]) {
                        return fail(Problem::DropNotAscending);
                    }
                }
                _ => {}
            }
        }
        if self.link == super::LinkKind::Trace && self.link_trace.is_none() {
            return Err(ScenarioError::new("link", Problem::NeedsTrace));
        }
        if self.link != super::LinkKind::Fixed
            && self
                .sched
                .iter()
                .any(|c| matches!(c.setting, super::sched::Setting::Bw(_)))
        {
            return Err(ScenarioError::new(
                "sched",
                Problem::Conflict(Conflict::BwNeedsFixedLink {
                    link: self.link.name(),
                }),
            ));
        }
        Ok(())
    }

    /// Applies `pairs` over `self`, each bad one reported in `errors` and left out. A range
    /// that depends on other keys and still fails at the end (`at` past `dur`, say) puts that
    /// key back to `self`'s value.
    fn with_pairs_lenient(self, pairs: &[(Key, String)], errors: &mut Vec<ScenarioError>) -> Self {
        let base = self.clone();
        let mut s = self;
        let depends_on_others = |key: Key| matches!(key, Key::Rwnd | Key::RedMax | Key::At);
        let first = pairs.iter().filter(|(k, _)| !depends_on_others(*k));
        let last = pairs.iter().filter(|(k, _)| depends_on_others(*k));
        for (key, value) in first.chain(last) {
            if *key != Key::Preset {
                if let Err(e) = s.apply(*key, value) {
                    errors.push(e);
                }
            }
        }
        // Each round puts one key back; a key can fail only once.
        for _ in 0..Key::ALL.len() {
            let Err(e) = s.validate() else {
                return s;
            };
            // Putting back a value that is already the base's (a preset's per-flow list that
            // `flows` no longer fits) would fail again the same way.
            let restored = Key::from_name(e.key()).is_some_and(|key| {
                s.value(key) != base.value(key) && s.apply(key, &base.value_text(key)).is_ok()
            });
            errors.push(e);
            if !restored {
                break;
            }
        }
        if s.validate().is_ok() {
            s
        } else {
            base
        }
    }

    /// Reads `raw` as the value of `key` and stores it, or says why not.
    fn apply(&mut self, key: Key, raw: &str) -> Result<(), ScenarioError> {
        let fail = |problem| ScenarioError::new(key.name(), problem);
        if key.per_flow() && raw.contains(',') {
            return self.apply_each(key, raw);
        }
        match key.kind() {
            Kind::Preset => return Err(fail(Problem::PresetNotSettable)),
            Kind::Choice(names) => {
                let unknown = || {
                    let allowed = names.join(", ");
                    if raw.is_empty() {
                        fail(Problem::Empty {
                            allowed: format!("allowed {allowed}"),
                        })
                    } else {
                        fail(Problem::UnknownValue {
                            value: raw.into(),
                            allowed,
                        })
                    }
                };
                let name = names.iter().find(|n| **n == raw).ok_or_else(unknown)?;
                self.put(key, Value::Name(name));
            }
            Kind::Flag => {
                let on = match raw {
                    "0" => false,
                    "1" => true,
                    "" => {
                        return Err(fail(Problem::Empty {
                            allowed: "allowed 0, 1".into(),
                        }))
                    }
                    _ => {
                        let value = raw.into();
                        return Err(fail(Problem::UnknownValue {
                            value,
                            allowed: "0, 1".into(),
                        }));
                    }
                };
                self.put(key, Value::Flag(on));
            }
            Kind::Real(range) => {
                let Some(Bounds::Real { min, max, allowed }) = self.bounds(key) else {
                    return Err(fail(Problem::UnknownKey));
                };
                let v = read_decimal(raw, range.dim)
                    .map_err(|e| fail(number_problem(e, raw, allowed.clone(), range.dim, false)))?;
                if !(min <= v && v <= max) {
                    return Err(fail(Problem::OutOfRange {
                        value: raw.into(),
                        allowed,
                    }));
                }
                self.put(key, Value::Real(v));
            }
            Kind::Whole(range) => {
                let Some(Bounds::Whole { min, max, allowed }) = self.bounds(key) else {
                    return Err(fail(Problem::UnknownKey));
                };
                let v = read_whole(raw, range.dim)
                    .map_err(|e| fail(number_problem(e, raw, allowed.clone(), range.dim, true)))?;
                if !(min <= v && v <= max) {
                    return Err(fail(Problem::OutOfRange {
                        value: raw.into(),
                        allowed,
                    }));
                }
                self.put(key, Value::Whole(v));
            }
            Kind::DropList => self.put(key, Value::Drops(read_drops(raw).map_err(fail)?)),
            Kind::Schedule => {
                self.put(key, Value::Schedule(super::sched::read(raw).map_err(fail)?))
            }
        }
        Ok(())
    }
}

impl Scenario {
    /// Reads a per-flow key's comma list (`super::per_flow`), each value as the key's one
    /// value is read; values all equal are stored as that one value.
    fn apply_each(&mut self, key: Key, raw: &str) -> Result<(), ScenarioError> {
        let fail = |problem| ScenarioError::new(key.name(), problem);
        let items: Vec<&str> = raw.split(',').collect();
        if items.iter().any(|i| i.is_empty()) {
            return Err(fail(Problem::EmptyEntry {
                value: raw.into(),
                allowed: "one value per flow, comma-separated".into(),
            }));
        }
        // More values than any workload has connections is refused before reading them.
        if items.len() > MAX_PER_FLOW {
            return Err(fail(Problem::PerFlowCount {
                given: items.len(),
                count: self.connections(),
                connections: self.app == super::App::Msgs,
            }));
        }
        let mut values = Vec::with_capacity(items.len());
        let mut one = self.clone();
        for item in items {
            one.apply(key, item)?;
            values.push(one.value(key));
        }
        if values.windows(2).all(|w| w[0] == w[1]) {
            self.put(key, values.swap_remove(0));
        } else {
            self.put(key, Value::Each(values));
        }
        Ok(())
    }
}

/// `query` less its `link=trace` pairs, and whether it had one.
fn without_trace(query: &str) -> (String, bool) {
    let query = query.strip_prefix('?').unwrap_or(query);
    let kept: Vec<&str> = query.split('&').filter(|p| *p != "link=trace").collect();
    let asked = kept.len() != query.split('&').count();
    (kept.join("&"), asked)
}

/// The most values a per-flow list may hold: the most flows or connections a run has.
const MAX_PER_FLOW: usize = 64;

impl FromStr for Scenario {
    type Err = ScenarioError;

    fn from_str(query: &str) -> Result<Self, Self::Err> {
        Scenario::parse(query)
    }
}

fn find_preset(name: &str) -> Result<&'static Preset, ScenarioError> {
    Preset::find(name)
        .ok_or_else(|| ScenarioError::new("preset", Problem::UnknownPreset { name: name.into() }))
}

/// Splits and decodes a query into known keys; unknown keys, and every repeat of a key after
/// its first, are reported and left out.
fn resolve(query: &str) -> (Vec<(Key, String)>, Vec<ScenarioError>) {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut seen = [false; Key::ALL.len()];
    let mut twice = [false; Key::ALL.len()];
    let mut pairs = Vec::new();
    let mut errors = Vec::new();
    // Empty segments (`a=1&&b=2`, a trailing `&`) are nothing, as in URLSearchParams.
    for segment in query.split('&').filter(|s| !s.is_empty()) {
        // A key without `=` has an empty value, which every key but `drop` refuses.
        let (key, value) = segment.split_once('=').unwrap_or((segment, ""));
        let key_text = decode(key);
        let Some(key) = Key::from_name(&key_text) else {
            errors.push(ScenarioError::unknown_key(&key_text));
            continue;
        };
        let index = key as usize;
        if seen[index] {
            errors.push(ScenarioError::new(key.name(), Problem::RepeatedKey));
            twice[index] = true;
            continue;
        }
        seen[index] = true;
        pairs.push((key, decode(value)));
    }
    // A key written twice is ignored whole, as the page's own keys are: which of its values
    // the link meant is not for the reader to guess, and the banner says it is ignored.
    pairs.retain(|(key, _)| !twice[*key as usize]);
    (pairs, errors)
}

/// Percent-decodes one key or value as `application/x-www-form-urlencoded`: `+` is a space, a
/// `%` without two hex digits after it stays as it is, and bytes that are not UTF-8 become
/// U+FFFD (which no key or value accepts). Exported for the runner's `--values`, where `%2C`
/// writes a comma inside one `drop` list.
pub fn decode(s: &str) -> String {
    if !s.contains(['%', '+']) {
        return s.to_owned();
    }
    let hex = |b: Option<&u8>| b.and_then(|b| char::from(*b).to_digit(16));
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match (b, hex(bytes.get(i + 1)), hex(bytes.get(i + 2))) {
            (b'%', Some(hi), Some(lo)) => {
                // Two hex digits are at most 0xff.
                out.push(u8::try_from(hi * 16 + lo).unwrap_or(b'?'));
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A `drop` list: comma-separated packet numbers from 1, stored ascending without repeats.
fn read_drops(raw: &str) -> Result<Vec<u64>, Problem> {
    if raw.is_empty() {
        return Ok(Vec::new());
    }
    let count = raw.split(',').count();
    if count > MAX_DROPS {
        return Err(Problem::TooManyDrops { count });
    }
    let mut drops = Vec::with_capacity(count);
    for entry in raw.split(',') {
        let allowed = DROP_ALLOWED.to_owned();
        if entry.is_empty() {
            return Err(Problem::EmptyEntry {
                value: raw.into(),
                allowed,
            });
        }
        let n = read_whole(entry, Dimension::Plain)
            .map_err(|e| number_problem(e, entry, allowed.clone(), Dimension::Plain, true))?;
        if n == 0 {
            return Err(Problem::OutOfRange {
                value: entry.into(),
                allowed,
            });
        }
        drops.push(n);
    }
    drops.sort_unstable();
    drops.dedup();
    Ok(drops)
}

/// The problem to report for a value that did not read as a number of `dim`.
fn number_problem(
    e: NumberError,
    raw: &str,
    allowed: String,
    dim: Dimension,
    whole: bool,
) -> Problem {
    let value = raw.to_owned();
    match e {
        NumberError::Empty => Problem::Empty { allowed },
        NumberError::TooLong => Problem::TooLong { value, allowed },
        NumberError::OutOfRange => Problem::OutOfRange { value, allowed },
        NumberError::NotWhole => Problem::NotWhole { value, allowed },
        NumberError::Exponent => Problem::Exponent { value, allowed },
        // For a key without units, "10x" is simply not a number of the key.
        NumberError::UnknownUnit if !dim.suffixes().is_empty() => Problem::UnknownUnit {
            value,
            units: dim.suffixes(),
        },
        NumberError::UnknownUnit | NumberError::NotANumber if whole => {
            Problem::NotWhole { value, allowed }
        }
        NumberError::UnknownUnit | NumberError::NotANumber => {
            Problem::NotANumber { value, allowed }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::{App, CcAlgo};
    use proptest::prelude::*;

    fn err(query: &str) -> String {
        match Scenario::parse(query) {
            Ok(s) => format!("unexpectedly parsed: {s:?}"),
            Err(e) => e.to_string(),
        }
    }

    fn parsed(query: &str) -> Scenario {
        match Scenario::parse(query) {
            Ok(s) => s,
            Err(e) => panic!("{query}: {e}"),
        }
    }

    #[test]
    fn the_empty_query_is_the_defaults() {
        for q in ["", "?", "&", "?&&"] {
            assert_eq!(parsed(q), Scenario::default(), "{q:?}");
        }
    }

    #[test]
    fn every_key_reads_in_its_unit() {
        let s = parsed(
            "?cc=reno&rtt=20&bw=100&link=wifi&loss=1.5&ackloss=0.5&drop=9,3,3&burst=2&queue=50&aqm=fq_codel\
             &ecn=1&codel_target=2.5&codel_interval=50&fq_quantum=300&pie_target=20&pie_tupdate=30\
             &pie_alpha=4&pie_beta=10&red_min=3&red_max=12&red_maxp=2&red_wq=0.01&probe=20&mss=1000\
             &iw=4&rwnd=65536&hystart=0&sack=0&ts=0&autotune=0&delack=0&minrto=1000&app=msgs&body=1000&dur=2.5\
             &flows=3&start=1.5&msg=200&every=0.5&count=10&conns=0&seed=18446744073709551615&at=2500",
        );
        let want = Scenario {
            preset: None,
            cc: CcAlgo::Reno,
            rtt_ms: 20.0,
            bw_mbps: 100.0,
            link: super::super::LinkKind::Wifi,
            link_trace: None,
            loss_pct: 1.5,
            ackloss_pct: 0.5,
            ackagg_ms: 0.0,
            police_mbps: 0.0,
            police_burst: 0,
            sched: Vec::new(),
            drop: vec![3, 9],
            burst: 2.0,
            queue: 50,
            aqm: crate::Aqm::FqCodel,
            ecn: true,
            codel_target_ms: 2.5,
            codel_interval_ms: 50.0,
            fq_quantum: 300,
            pie_target_ms: 20.0,
            pie_tupdate_ms: 30.0,
            pie_alpha: 4,
            pie_beta: 10,
            red_min: 3.0,
            red_max: 12.0,
            red_maxp_pct: 2.0,
            red_wq: 0.01,
            probe_ms: 20.0,
            mss: 1000,
            iw: 4,
            rwnd: 65536,
            hystart: false,
            sack: false,
            ts: false,
            autotune: false,
            delack_ms: 0.0,
            minrto_ms: 1000.0,
            app: App::Msgs,
            body: 1000,
            think_ms: 0.0,
            dur_s: 2.5,
            flows: 3,
            start_s: 1.5,
            each: super::super::PerFlow::default(),
            msg: 200,
            every_ms: 0.5,
            count: 10,
            conns: 0,
            seed: u64::MAX,
            at_ms: Some(2500.0),
        };
        assert_eq!(s, want);
    }

    #[test]
    fn units_as_the_spec_writes_them() {
        assert_eq!(parsed("rtt=28ms").rtt_ms, 28.0);
        assert_eq!(parsed("rtt=0.5s").rtt_ms, 500.0);
        assert_eq!(parsed("rtt=500us").rtt_ms, 0.5);
        assert_eq!(parsed("bw=1gbit").bw_mbps, 1000.0);
        assert_eq!(parsed("bw=512kbit").bw_mbps, 0.512);
        assert_eq!(parsed("body=20Mb").body, 2_500_000);
        assert_eq!(parsed("body=2.5MB").body, 2_500_000);
        assert_eq!(parsed("body=4MiB").body, 4_194_304);
        assert_eq!(parsed("loss=0.1%25").loss_pct, 0.1);
        assert_eq!(parsed("loss=0.1%").loss_pct, 0.1);
        assert_eq!(parsed("dur=1500ms").dur_s, 1.5);
        assert_eq!(parsed("rwnd=64KiB").rwnd, 65536);
        assert_eq!(parsed("at=1s").at_ms, Some(1000.0));
        assert_eq!(parsed("mss=9000B").mss, 9000);
    }

    #[test]
    fn ranges_are_the_spec_table() {
        // (key, lowest, highest, just below, just above)
        let table = [
            ("rtt", "0.1", "2000", "0.09", "2000.01"),
            ("bw", "0.01", "100000", "0.009", "100000.1"),
            ("loss", "0", "50", "-0", "50.001"),
            ("ackloss", "0", "50", "-1", "51"),
            ("burst", "1", "100", "0.99", "100.5"),
            ("queue", "1", "1000000", "0", "1000001"),
            ("codel_target", "0.01", "1000", "0.009", "1000.1"),
            ("codel_interval", "1", "10000", "0.9", "10001"),
            ("fq_quantum", "64", "65536", "63", "65537"),
            ("pie_target", "0.1", "1000", "0.09", "1001"),
            ("pie_tupdate", "1", "1000", "0.9", "1001"),
            ("pie_alpha", "0", "32", "-1", "33"),
            ("pie_beta", "0", "32", "-1", "33"),
            // Up to red_max (15 by default) alone; above it red_max itself is out of range.
            ("red_min", "0", "15", "-1", "1000001"),
            ("red_max", "5", "1000000", "4.9", "1000001"),
            ("red_maxp", "0", "100", "-1", "100.1"),
            ("red_wq", "0.000001", "1", "0.0000009", "1.1"),
            ("probe", "0", "10000", "-1", "10000.1"),
            ("mss", "64", "65000", "63", "65001"),
            ("iw", "1", "1000", "0", "1001"),
            ("rwnd", "2920", "1073741824", "2919", "1073741825"),
            ("delack", "0", "500", "-0.1", "500.1"),
            ("minrto", "1", "5000", "0.9", "5001"),
            ("body", "1", "10000000000", "0", "10000000001"),
            ("dur", "0.001", "600", "0.0009", "600.001"),
            ("flows", "1", "64", "0", "65"),
            ("msg", "1", "65000", "0", "65001"),
            ("every", "0.1", "10000", "0.09", "10000.1"),
            ("count", "1", "1000000", "0", "1000001"),
            ("conns", "0", "64", "-1", "65"),
            (
                "seed",
                "0",
                "18446744073709551615",
                "-1",
                "18446744073709551616",
            ),
            ("at", "0", "10000", "-1", "10000.001"),
        ];
        for (key, lo, hi, below, above) in table {
            for ok in [lo, hi] {
                assert!(
                    Scenario::parse(&format!("{key}={ok}")).is_ok(),
                    "{key}={ok}"
                );
            }
            for bad in [below, above] {
                let m = err(&format!("{key}={bad}"));
                assert!(
                    m.starts_with(&format!("{key}: {bad} is out of range (allowed ")),
                    "{m}"
                );
            }
        }
    }

    #[test]
    fn messages_name_the_key_and_the_range() {
        assert_eq!(
            err("rtt=5000"),
            "rtt: 5000 is out of range (allowed 0.1 to 2000 ms)"
        );
        assert_eq!(
            err("iw=ten"),
            r#"iw: "ten" is not a whole number (allowed 1 to 1000 segments)"#
        );
        assert_eq!(err("loss=1&loss=2"), "loss: repeated key");
        assert_eq!(
            err("cc=vegas"),
            r#"cc: unknown value "vegas" (allowed reno, cubic, bbr)"#
        );
        assert_eq!(err("app="), "app: empty value (allowed body, bulk, msgs)");
        assert_eq!(err("rtt="), "rtt: empty value (allowed 0.1 to 2000 ms)");
        assert_eq!(err("rtt"), "rtt: empty value (allowed 0.1 to 2000 ms)");
        assert_eq!(
            err("sack=yes"),
            r#"sack: unknown value "yes" (allowed 0, 1)"#
        );
        assert_eq!(
            err("hystart=true"),
            r#"hystart: unknown value "true" (allowed 0, 1)"#
        );
        assert_eq!(
            err("loss=50.5%"),
            "loss: 50.5% is out of range (allowed 0 to 50%)"
        );
        assert_eq!(
            err("bw=10GB"),
            r#"bw: "10GB" has an unknown unit (units: kbit, Mbit, Gbit (also kbps, Mbps, Gbps))"#
        );
        assert_eq!(
            err("body=1.5"),
            r#"body: "1.5" is not a whole number (allowed 1 to 10000000000 bytes)"#
        );
        assert_eq!(
            err("seed=1.5"),
            r#"seed: "1.5" is not a whole number (allowed 0 to 18446744073709551615)"#
        );
        assert_eq!(
            err("rtt=abc"),
            r#"rtt: "abc" is not a number (allowed 0.1 to 2000 ms)"#
        );
        assert_eq!(
            err("rtt=1e3"),
            r#"rtt: "1e3" has an exponent: write the number in full digits (allowed 0.1 to 2000 ms)"#
        );
        assert_eq!(
            err("seed=1E400"),
            r#"seed: "1E400" has an exponent: write the number in full digits (allowed 0 to 18446744073709551615)"#
        );
        assert_eq!(
            err("rtt=1.e3"),
            r#"rtt: "1.e3" is not a number (allowed 0.1 to 2000 ms)"#
        );
        assert_eq!(
            err("rtt=5parsec"),
            r#"rtt: "5parsec" has an unknown unit (units: us, ms, s)"#
        );
        assert_eq!(
            err("queue=5x"),
            r#"queue: "5x" is not a whole number (allowed 1 to 1000000 packets)"#
        );
        assert!(err("foo=1").starts_with("foo: unknown key (known keys: preset, cc, rtt, "));
        assert!(
            err("preset=x").starts_with(r#"preset: unknown preset "x" (known: post-slow-start, "#)
        );
        assert!(err("preset=").starts_with(r#"preset: unknown preset "" (known: "#));
    }

    #[test]
    fn the_first_problem_in_the_query_is_reported() {
        assert!(err("foo=1&rtt=abc").starts_with("foo: "));
        assert!(
            err("rtt=abc&foo=1").starts_with("foo: "),
            "keys are checked before values"
        );
        assert!(err("rtt=abc&loss=abc").starts_with("rtt: "));
    }

    #[test]
    fn a_lenient_read_reports_every_bad_pair_and_keeps_the_good_ones() {
        let q = "rtt=50&bogus=1&loss=abc&cc=bbr&rtt=60&mss=9&bw=20";
        let Lenient { scenario, errors } = Scenario::parse_lenient(q);
        let keys: Vec<&str> = errors.iter().map(ScenarioError::key).collect();
        assert_eq!(keys, ["bogus", "rtt", "loss", "mss"]);
        assert_eq!(errors[1].to_string(), "rtt: repeated key");
        let d = Scenario::default();
        assert_eq!(
            (scenario.bw_mbps, scenario.cc),
            (20.0, CcAlgo::Bbr),
            "the good keys are kept"
        );
        // The repeated key is ignored whole, neither of its values taken.
        assert_eq!(
            (scenario.rtt_ms, scenario.loss_pct, scenario.mss),
            (d.rtt_ms, d.loss_pct, d.mss)
        );
        let again = Scenario::parse_lenient("preset=bufferbloat&rtt=80&rtt=90&rtt=100");
        assert_eq!(again.errors.len(), 2);
        assert_eq!(again.scenario.rtt_ms, parsed("preset=bufferbloat").rtt_ms);
        // The strict reading fails on the first of them, with the same message.
        assert_eq!(err(q), errors[0].to_string());
        assert_eq!(Scenario::parse_lenient("rtt=50").errors, vec![]);
    }

    #[test]
    fn a_lenient_read_keeps_a_preset_and_puts_back_a_key_its_neighbours_refuse() {
        let Lenient { scenario, errors } =
            Scenario::parse_lenient("preset=loss-sweep&loss=200&at=5s&dur=2");
        let keys: Vec<&str> = errors.iter().map(ScenarioError::key).collect();
        assert_eq!(keys, ["loss", "at"]);
        let preset = parsed("preset=loss-sweep");
        assert_eq!(scenario.preset, preset.preset);
        assert_eq!(scenario.loss_pct, preset.loss_pct);
        assert_eq!((scenario.dur_s, scenario.at_ms), (2.0, None));
        assert!(scenario.validate().is_ok());
        let unknown = Scenario::parse_lenient("preset=nope&rtt=40");
        assert_eq!(unknown.errors.len(), 1);
        assert_eq!(unknown.scenario.rtt_ms, 40.0);
    }

    #[test]
    fn cross_field_ranges() {
        assert_eq!(
            err("rwnd=2000"),
            "rwnd: 2000 is out of range (allowed 2*mss = 2920 to 1073741824 bytes)"
        );
        // mss is read before rwnd wherever it is written.
        assert_eq!(parsed("rwnd=128&mss=64").rwnd, 128);
        assert_eq!(
            err("at=20s"),
            "at: 20s is out of range (allowed 0 to dur = 10000 ms)"
        );
        assert_eq!(parsed("at=20s&dur=20").at_ms, Some(20_000.0));
        assert_eq!(parsed("dur=0.0283&at=28.3").at_ms, Some(28.3));
    }

    #[test]
    fn drop_lists() {
        assert_eq!(parsed("drop=").drop, Vec::<u64>::new());
        assert_eq!(parsed("drop").drop, Vec::<u64>::new());
        assert_eq!(parsed("drop=5,1,5,3").drop, vec![1, 3, 5]);
        assert_eq!(parsed("drop=5%2C1").drop, vec![1, 5]);
        assert_eq!(parsed("drop=18446744073709551615").drop, vec![u64::MAX]);
        let list: Vec<String> = (1..=1000).map(|i| i.to_string()).collect();
        assert_eq!(parsed(&format!("drop={}", list.join(","))).drop.len(), 1000);
        assert_eq!(
            err(&format!("drop={},1", list.join(","))),
            "drop: 1001 entries (allowed up to 1000)"
        );
        assert_eq!(
            err("drop=0,4"),
            "drop: 0 is out of range (allowed packet numbers from 1, comma-separated, at most 1000)"
        );
        assert_eq!(
            err("drop=1,,2"),
            r#"drop: "1,,2" has an empty entry (allowed packet numbers from 1, comma-separated, at most 1000)"#
        );
        assert!(err("drop=1,").starts_with(r#"drop: "1," has an empty entry"#));
        assert!(err("drop=,").starts_with(r#"drop: "," has an empty entry"#));
        assert!(err("drop=1.5").starts_with(r#"drop: "1.5" is not a whole number"#));
        assert!(err("drop=1 2").starts_with(r#"drop: "1 2" is not a whole number"#));
    }

    #[test]
    fn presets_apply_first_wherever_written() {
        let s = parsed("rtt=50&preset=loss-sweep");
        assert_eq!(s.preset, Some("loss-sweep"));
        assert_eq!((s.cc, s.rtt_ms, s.mss), (CcAlgo::Reno, 50.0, 16332));
        assert_eq!(
            err("preset=bufferbloat&preset=bufferbloat"),
            "preset: repeated key"
        );
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(parsed("%72tt=%32%38").rtt_ms, 28.0);
        assert_eq!(parsed("cc=%62br").cc, CcAlgo::Bbr);
        // `+` is a space, which no value takes.
        assert_eq!(
            err("cc=bb+r"),
            r#"cc: unknown value "bb r" (allowed reno, cubic, bbr)"#
        );
        assert_eq!(decode("a%zz%4"), "a%zz%4");
        assert_eq!(decode("%e4%b8%ad"), "中");
        assert_eq!(decode("%ff"), "\u{fffd}");
        assert_eq!(decode("a%26b%3Dc"), "a&b=c");
        assert!(err("rtt=%ff").starts_with("rtt: \"\u{fffd}\" is not a number"));
    }

    #[test]
    fn hostile_values() {
        for q in [
            "rtt=NaN",
            "rtt=inf",
            "rtt=-inf",
            "rtt=1e3",
            "rtt=+28",
            "rtt=.5",
            "rtt=28.",
            "rtt=２８",
            "rtt=28\u{00a0}",
            "loss=-0",
            "delack=-0",
            "iw=10.5",
            "iw=0x10",
            "iw=1_000",
        ] {
            let m = err(q);
            let key = q.split('=').next().unwrap_or_default();
            assert!(m.starts_with(&format!("{key}: ")), "{q}: {m}");
        }
        let huge = format!("rtt=1{}", "0".repeat(308));
        assert!(err(&huge).contains("is out of range"));
        let wall = format!("body={}", "9".repeat(100_000));
        assert!(err(&wall).contains("is too long"), "{}", err(&wall));
        let key = format!("{}=1", "k".repeat(100_000));
        assert!(err(&key).contains("…: unknown key"));
    }

    #[test]
    fn set_overrides_one_key_with_the_same_checks() {
        let mut s = Scenario::default();
        assert_eq!(s.set(Key::Loss, "2%"), Ok(()));
        assert_eq!(s.loss_pct, 2.0);
        assert_eq!(s.set(Key::Body, "1MiB"), Ok(()));
        assert_eq!(s.body, 1 << 20);
        let before = s.clone();
        let e = s.set(Key::Loss, "70").err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("loss: 70 is out of range (allowed 0 to 50%)")
        );
        assert_eq!(s, before, "a failed set changes nothing");
        assert_eq!(s.set(Key::Rwnd, "100000"), Ok(()));
        let e = s.set(Key::Mss, "65000").err().map(|e| e.to_string());
        assert_eq!(
            e.as_deref(),
            Some("rwnd: 100000 is out of range (allowed 2*mss = 130000 to 1073741824 bytes)")
        );
        // A key is a `Key`: an unknown name cannot reach `set` (the compiler sees to it).
        assert!(s.set(Key::Preset, "bufferbloat").is_err());
    }

    #[test]
    fn validate_catches_what_code_can_build() {
        let ok = Scenario::default();
        assert_eq!(ok.validate(), Ok(()));
        type Spoil = fn(&mut Scenario);
        let cases: [(&str, Spoil); 7] = [
            ("rtt", |s| s.rtt_ms = f64::NAN),
            ("bw", |s| s.bw_mbps = f64::INFINITY),
            ("rwnd", |s| s.rwnd = 100),
            ("at", |s| s.at_ms = Some(10_000.5)),
            ("drop", |s| s.drop = vec![3, 2]),
            ("drop", |s| s.drop = vec![0]),
            ("preset", |s| s.preset = Some("nope")),
        ];
        for (key, spoil) in cases {
            let mut s = Scenario::default();
            spoil(&mut s);
            assert_eq!(
                s.validate().map_err(|e| e.key().to_owned()),
                Err(key.into())
            );
        }
        let s = Scenario {
            drop: (1..=1001).collect(),
            ..Scenario::default()
        };
        assert_eq!(
            s.validate().map_err(|e| e.to_string()),
            Err("drop: 1001 entries (allowed up to 1000)".into())
        );
    }

    /// Keys as typed by someone: known keys, near misses, and noise.
    fn key_strategy() -> impl Strategy<Value = String> {
        prop_oneof![
            proptest::sample::select(Key::ALL.map(Key::name).to_vec()).prop_map(String::from),
            "[a-zA-Z]{0,8}",
            "[^&=%+]{0,12}",
        ]
    }

    fn value_strategy() -> impl Strategy<Value = String> {
        prop_oneof![
            "-?[0-9]{0,25}(\\.[0-9]{0,25})?(us|ms|s|%|B|KB|MB|GB|KiB|MiB|GiB|Kb|Mb|Gb|kbit|gbit|x)?",
            "[0-9,]{0,30}",
            proptest::sample::select(vec![
                "reno", "cubic", "bbr", "body", "bulk", "msgs", "0", "1", "NaN", "inf", "1e309",
                "-0", "post-slow-start", "bufferbloat", "",
            ])
            .prop_map(String::from),
            "[^&=%+]{0,16}",
        ]
    }

    proptest! {
        #[test]
        fn arbitrary_strings_never_panic(query in "\\PC{0,200}") {
            let _ = Scenario::parse(&query);
        }

        #[test]
        fn arbitrary_bytes_never_panic(query in proptest::collection::vec(any::<u8>(), 0..200)) {
            let _ = Scenario::parse(&String::from_utf8_lossy(&query));
        }

        #[test]
        fn key_soups_fail_on_a_key_they_hold(
            pairs in proptest::collection::vec((key_strategy(), value_strategy()), 0..12)
        ) {
            let query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let query = query.join("&");
            match Scenario::parse(&query) {
                Ok(s) => prop_assert_eq!(s.validate(), Ok(())),
                Err(e) => {
                    // The soup holds no `%` or `+`, so decoding changes no key.
                    let named = query.contains(e.key());
                    prop_assert!(
                        named || Key::from_name(e.key()).is_some(),
                        "{} names {:?}", e, e.key()
                    );
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }

        #[test]
        fn set_never_panics(key in key_strategy(), value in value_strategy()) {
            let mut s = Scenario::default();
            let before = s.clone();
            let Some(key) = Key::from_name(&key) else {
                return Ok(());
            };
            if s.set(key, &value).is_err() {
                prop_assert_eq!(s, before);
            } else {
                prop_assert_eq!(s.validate(), Ok(()));
            }
        }
    }
}
