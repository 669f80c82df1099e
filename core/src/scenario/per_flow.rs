//! Settings that may differ from one flow to the next: `cc`, `rtt`, `iw` and `start` take a
//! comma list, one value per flow (`flows=2&cc=bbr,cubic&rtt=20,80`), as ns-3 scripts give
//! each application its own socket settings. One value applies to every flow.
//!
//! A scenario keeps the one value in its plain field (`Scenario::cc`) and a list in
//! [`PerFlow`] only where the flows differ; the plain field is then flow 1's value, so code
//! that asks about "the" RTT (the theory lines, the goodput windows) reads flow 1's.

use super::error::{Conflict, Problem, ScenarioError};
use super::keys::{Key, Value};
use super::{CcAlgo, Scenario};
use crate::player::Language;
use crate::workload::Workload;

/// One value per flow for the keys that take a list; an empty list means every flow takes the
/// scenario's plain field. A list is never of one value, nor of values all equal: the parser
/// stores those as the plain field, so that a scenario has one canonical form.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PerFlow {
    pub cc: Vec<CcAlgo>,
    pub rtt_ms: Vec<f64>,
    pub iw: Vec<u32>,
    pub start_s: Vec<f64>,
}

impl PerFlow {
    /// Whether any key gives the flows different values.
    pub fn any(&self) -> bool {
        !(self.cc.is_empty()
            && self.rtt_ms.is_empty()
            && self.iw.is_empty()
            && self.start_s.is_empty())
    }
}

/// What one flow of a run is given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FlowSpec {
    pub cc: CcAlgo,
    pub rtt_ms: f64,
    pub iw: u32,
    pub start_s: f64,
}

impl FlowSpec {
    /// What sets the flow apart, as a chart's legend says it: "CUBIC, 80 ms", with "from 5 s"
    /// for a flow that starts late.
    pub fn describe(&self, lang: Language) -> String {
        let rtt = super::fmt_decimal(round_to(self.rtt_ms, 3));
        let start = super::fmt_decimal(round_to(self.start_s, 3));
        let late = self.start_s > 0.0;
        match lang {
            Language::En if late => format!("{}, {rtt} ms, from {start} s", self.cc.label()),
            Language::En => format!("{}, {rtt} ms", self.cc.label()),
            Language::Zh if late => format!("{}，{rtt} ms，{start} s 起", self.cc.label()),
            Language::Zh => format!("{}，{rtt} ms", self.cc.label()),
        }
    }
}

fn round_to(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

fn nth<T: Copy>(list: &[T], flow: usize, all: T) -> T {
    if list.is_empty() {
        all
    } else {
        list.get(flow).copied().unwrap_or(all)
    }
}

impl Scenario {
    /// The connections the workload opens, which per-flow lists must match one for one:
    /// `flows` for bodies and bulk transfers, `conns` for messages.
    pub fn connections(&self) -> usize {
        Workload::connections(self)
    }

    /// Flow `flow`'s (0-based) settings.
    pub fn flow(&self, flow: usize) -> FlowSpec {
        FlowSpec {
            cc: nth(&self.each.cc, flow, self.cc),
            rtt_ms: nth(&self.each.rtt_ms, flow, self.rtt_ms),
            iw: nth(&self.each.iw, flow, self.iw),
            start_s: nth(&self.each.start_s, flow, self.start_s),
        }
    }

    /// Every connection's settings, in order.
    pub fn flow_specs(&self) -> Vec<FlowSpec> {
        (0..self.connections()).map(|i| self.flow(i)).collect()
    }

    /// Flow `flow`'s (0-based) name: "flow 2 (CUBIC, 80 ms)" where the flows differ, else
    /// "flow 2".
    pub fn flow_name(&self, flow: usize, lang: Language) -> String {
        let n = flow + 1;
        match (self.each.any(), lang) {
            (true, Language::En) => format!("flow {n} ({})", self.flow(flow).describe(lang)),
            (true, Language::Zh) => format!("流 {n}（{}）", self.flow(flow).describe(lang)),
            (false, Language::En) => format!("flow {n}"),
            (false, Language::Zh) => format!("流 {n}"),
        }
    }

    /// Every flow's name, as the summary's `flow_names` gives them; empty for one flow.
    pub fn flow_names(&self) -> Vec<String> {
        let n = self.connections();
        if n < 2 {
            return Vec::new();
        }
        (0..n).map(|i| self.flow_name(i, Language::En)).collect()
    }
}

impl Scenario {
    /// Sets `key` for every flow (`None`), or for flow `flow` alone ([`Scenario::set_flow`]):
    /// a sweep's point, whichever its knob.
    pub fn set_for(
        &mut self,
        key: Key,
        flow: Option<usize>,
        value: &str,
    ) -> Result<(), ScenarioError> {
        match flow {
            Some(f) => self.set_flow(key, f, value),
            None => self.set(key, value),
        }
    }

    /// Sets one flow's value of a per-flow key (`flow` 0-based), the others keeping theirs: how
    /// a sweep varies the second flow's RTT alone. Checked as [`Scenario::set`] checks.
    pub fn set_flow(&mut self, key: Key, flow: usize, value: &str) -> Result<(), ScenarioError> {
        let fail = |c: Conflict| Err(ScenarioError::new(key.name(), Problem::Conflict(c)));
        if !key.per_flow() {
            return fail(Conflict::OneValueForEveryFlow { flow: flow + 1 });
        }
        let n = self.connections();
        if flow >= n {
            return fail(Conflict::NoSuchFlow {
                flow: flow + 1,
                flows: n,
            });
        }
        if value.contains(',') {
            return fail(Conflict::OneFlowNotAList { flow: flow + 1 });
        }
        let mut texts: Vec<String> = match self.value(key) {
            Value::Each(values) => values.iter().filter_map(Value::text).collect(),
            one => vec![one.text().unwrap_or_default(); n],
        };
        texts.resize(n, texts.last().cloned().unwrap_or_default());
        texts[flow] = value.to_string();
        self.set(key, &texts.join(","))
    }
}

/// A per-flow key's value: the plain field's, or the list's.
pub(crate) fn get<T: Copy>(list: &[T], all: T, value: fn(T) -> Value) -> Value {
    if list.is_empty() {
        value(all)
    } else {
        Value::Each(list.iter().map(|&x| value(x)).collect())
    }
}

/// Stores a per-flow key's value the parser has checked: a list, whose first value becomes the
/// plain field's, or one value for every flow.
pub(crate) fn put<T: Copy>(
    list: &mut Vec<T>,
    all: &mut T,
    value: Value,
    read: fn(&Value) -> Option<T>,
) {
    match value {
        Value::Each(values) => {
            *list = values.iter().filter_map(read).collect();
            if let Some(&first) = list.first() {
                *all = first;
            }
        }
        one => {
            list.clear();
            if let Some(x) = read(&one) {
                *all = x;
            }
        }
    }
}

impl CcAlgo {
    /// The algorithm as a legend names it.
    pub fn label(self) -> &'static str {
        match self {
            CcAlgo::Reno => "Reno",
            CcAlgo::Cubic => "CUBIC",
            CcAlgo::Bbr => "BBR",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(q: &str) -> Scenario {
        Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"))
    }

    fn error(q: &str) -> String {
        match Scenario::parse(q) {
            Ok(_) => panic!("{q} was taken"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_list_gives_each_flow_its_value() {
        let s = parsed("flows=3&cc=bbr,cubic,reno&rtt=20,80,10ms&iw=4,10,40&start=0,5,0.5");
        let specs = s.flow_specs();
        assert_eq!(
            specs.iter().map(|f| f.cc).collect::<Vec<_>>(),
            [CcAlgo::Bbr, CcAlgo::Cubic, CcAlgo::Reno]
        );
        assert_eq!(
            specs.iter().map(|f| f.rtt_ms).collect::<Vec<_>>(),
            [20.0, 80.0, 10.0]
        );
        assert_eq!(specs.iter().map(|f| f.iw).collect::<Vec<_>>(), [4, 10, 40]);
        assert_eq!(
            specs.iter().map(|f| f.start_s).collect::<Vec<_>>(),
            [0.0, 5.0, 0.5]
        );
        // The plain fields are flow 1's.
        assert_eq!((s.cc, s.rtt_ms, s.iw), (CcAlgo::Bbr, 20.0, 4));
        assert_eq!(
            s.to_query(),
            "cc=bbr,cubic,reno&rtt=20,80,10&iw=4,10,40&flows=3&start=0,5,0.5"
        );
        assert_eq!(parsed(&s.to_query()), s);
    }

    #[test]
    fn one_value_or_equal_values_apply_to_every_flow() {
        let s = parsed("flows=2&cc=bbr&rtt=30,30ms");
        assert_eq!(s.each, PerFlow::default());
        assert_eq!((s.flow(1).cc, s.flow(1).rtt_ms), (CcAlgo::Bbr, 30.0));
        assert_eq!(s.to_query(), "cc=bbr&rtt=30&flows=2");
        assert!(s.flow_names().iter().all(|n| !n.contains('(')));
    }

    #[test]
    fn a_list_of_another_length_names_its_key() {
        assert_eq!(
            error("flows=3&cc=bbr,cubic"),
            "cc: 2 values for 3 flows (give one value for every flow, or one for each)"
        );
        assert_eq!(
            error("rtt=20,80"),
            "rtt: 2 values for 1 flow (give one value for every flow, or one for each)"
        );
        assert_eq!(
            error("app=msgs&conns=2&start=0,1,2"),
            "start: 3 values for 2 connections (give one value for every flow, or one for each)"
        );
        assert!(error("flows=2&rtt=20,abc").starts_with("rtt: \"abc\" is not a number"));
        assert!(error("flows=2&rtt=20,0").starts_with("rtt: 0 is out of range"));
        assert!(error("flows=2&cc=bbr,vegas").starts_with("cc: unknown value \"vegas\""));
        assert!(error("flows=2&iw=4,").starts_with("iw: \"4,\" has an empty entry"));
    }

    #[test]
    fn one_flow_s_value_can_be_set_alone() {
        let mut s = parsed("flows=3&rtt=20");
        assert_eq!(s.set_flow(Key::Rtt, 1, "80ms"), Ok(()));
        assert_eq!(s.each.rtt_ms, [20.0, 80.0, 20.0]);
        assert_eq!(s.set_flow(Key::Cc, 2, "bbr"), Ok(()));
        assert_eq!(s.to_query(), "cc=cubic,cubic,bbr&rtt=20,80,20&flows=3");
        // Back to one value for all: the list goes.
        assert_eq!(s.set_flow(Key::Rtt, 1, "20"), Ok(()));
        assert!(s.each.rtt_ms.is_empty());
        let err = |r: Result<(), ScenarioError>| r.map_err(|e| e.to_string()).unwrap_err();
        assert_eq!(
            err(s.set_flow(Key::Rtt, 3, "10")),
            "rtt: there is no flow 4 of 3"
        );
        assert_eq!(
            err(s.set_flow(Key::Bw, 0, "10")),
            "bw: one value for every flow (the keys with one for each are cc, rtt, iw and \
             start), not flow 1's"
        );
        assert!(err(s.set_flow(Key::Rtt, 0, "0")).starts_with("rtt: 0 is out of range"));
        assert!(err(s.set_flow(Key::Rtt, 0, "1,2")).starts_with("rtt: one value for flow 1"));
    }

    #[test]
    fn names_tell_differing_flows_apart() {
        let s = parsed("flows=2&cc=bbr,cubic&rtt=20,80&start=0,5");
        assert_eq!(
            s.flow_names(),
            ["flow 1 (BBR, 20 ms)", "flow 2 (CUBIC, 80 ms, from 5 s)"]
        );
        assert_eq!(parsed("flows=2").flow_names(), ["flow 1", "flow 2"]);
        assert_eq!(
            parsed("flows=2&rtt=20,80").flow_name(1, Language::Zh),
            "流 2（CUBIC，80 ms）"
        );
        assert!(parsed("").flow_names().is_empty());
    }

    #[test]
    fn a_lenient_read_keeps_the_other_keys_when_a_list_does_not_fit() {
        let l = Scenario::parse_lenient("flows=3&cc=bbr,cubic&bw=50");
        assert_eq!(l.errors.len(), 1, "{:?}", l.errors);
        assert_eq!(l.errors[0].key(), "cc");
        assert_eq!((l.scenario.flows, l.scenario.bw_mbps), (3, 50.0));
        assert!(l.scenario.each.cc.is_empty());
    }
}
