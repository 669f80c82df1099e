//! The page's own keys beside the scenario's: which view is on show (`view=`), a sweep's knob,
//! values, seeds and metric (`key=`, `values=`, `seeds=`, `metric=`), a matrix's other two
//! knobs (`key2=`, `values2=`, `key3=`, `values3=`), and the scenarios a comparison sets beside
//! the page's own (`b=`, `c=`). docs/scenario.md, "The page's own keys", is their reference.
//!
//! Every value goes through the scenario's own rules: a sweep value is set with
//! `Scenario::set` on the scenario on show (so units work and a bad value names its range) and
//! written back as the canonical query writes it; a compared scenario is a whole query.

use tcplab::diagnose::Measured;
use tcplab::scenario::{shown, Key};
use tcplab::Scenario;

use super::address::{quoted, BadLink};
use crate::i18n::Lang;

/// The page's views.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum View {
    /// One run: the cards and the charts.
    #[default]
    Lab,
    Sweep,
    Matrix,
    Compare,
    /// A capture explained, and "my number, explained".
    Diagnose,
}

impl View {
    pub const ALL: [View; 5] = [
        View::Lab,
        View::Sweep,
        View::Matrix,
        View::Compare,
        View::Diagnose,
    ];

    pub fn name(self) -> &'static str {
        match self {
            View::Lab => "lab",
            View::Sweep => "sweep",
            View::Matrix => "matrix",
            View::Compare => "compare",
            View::Diagnose => "diagnose",
        }
    }

    pub fn from_name(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }

    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            View::Lab => lang.pick("One run", "单次运行"),
            View::Sweep => lang.pick("Sweep", "扫描"),
            View::Matrix => lang.pick("Matrix", "矩阵"),
            View::Compare => lang.pick("Compare", "对比"),
            View::Diagnose => lang.pick("Diagnose", "诊断"),
        }
    }
}

/// What a sweep or a matrix plots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Metric {
    #[default]
    Goodput,
    Completion,
    P99,
    Retrans,
    /// One flow's part of the flows' goodput: the swept flow's, else flow 1's.
    Share,
    /// Jain's index over the flows' goodputs.
    Jain,
}

impl Metric {
    pub const ALL: [Metric; 6] = [
        Metric::Goodput,
        Metric::Completion,
        Metric::P99,
        Metric::Retrans,
        Metric::Share,
        Metric::Jain,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Metric::Goodput => "goodput",
            Metric::Completion => "completion",
            Metric::P99 => "p99",
            Metric::Retrans => "retrans",
            Metric::Share => "share",
            Metric::Jain => "jain",
        }
    }

    pub fn from_name(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Metric::Goodput => lang.pick("goodput", "有效吞吐量"),
            Metric::Completion => lang.pick("completion time", "完成时间"),
            Metric::P99 => lang.pick("p99 message latency", "p99 消息时延"),
            Metric::Retrans => lang.pick("retransmitted", "重传比例"),
            Metric::Share => lang.pick("flow's share of the goodput", "该流占有效吞吐的份额"),
            Metric::Jain => lang.pick("fairness (Jain's index)", "公平性（Jain 指数）"),
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            Metric::Goodput => "MB/s",
            Metric::Completion | Metric::P99 => "ms",
            Metric::Retrans => "%",
            Metric::Share | Metric::Jain => "",
        }
    }

    /// A fraction from 0 to 1, drawn on a linear axis.
    pub fn is_fraction(self) -> bool {
        matches!(self, Metric::Share | Metric::Jain)
    }

    /// The metric of one run's summary; `flow` (0-based) is the flow whose share counts.
    pub fn of(self, s: &tcplab::Summary, flow: usize) -> Option<f64> {
        match self {
            Metric::Goodput => s.goodput_MBps,
            Metric::Completion => s.completion_ms,
            Metric::P99 => s.msgs.as_ref().and_then(|m| m.p99_ms),
            Metric::Retrans => s.retrans_bytes_pct,
            Metric::Share => tcplab::sweep::share_of(&s.per_flow_goodput_MBps, flow),
            Metric::Jain => s.jain_fairness,
        }
        .filter(|v| v.is_finite())
    }
}

/// The knobs a sweep or a matrix can turn: loss, RTT, initial window, body size, bandwidth,
/// receive window, flows, connections, and the bottleneck's buffer (BBR against CUBIC turns on
/// it).
pub const SWEEP_KEYS: [Key; 9] = [
    Key::Loss,
    Key::Rtt,
    Key::Iw,
    Key::Body,
    Key::Bw,
    Key::Rwnd,
    Key::Flows,
    Key::Conns,
    Key::Queue,
];

/// The most runs one sweep or matrix asks for (values × seeds): at a tenth of a second to a
/// few seconds a run, more would keep four workers busy for minutes.
pub const MAX_RUNS: usize = 400;
/// The most values of one knob.
pub const MAX_VALUES: usize = 40;
/// The most seeds per point.
pub const MAX_SEEDS: u32 = 50;

/// A knob's values when a link names none.
pub fn default_values(key: Key) -> &'static str {
    match key {
        Key::Loss => "0.1,0.2,0.5,1,2,5",
        Key::Rtt => "5,10,20,50,100,200",
        Key::Iw => "1,2,4,10,20,40",
        Key::Body => "10000,100000,1000000,10000000",
        Key::Bw => "1,10,100,1000",
        Key::Rwnd => "16384,65536,262144,1048576,4194304",
        Key::Flows => "1,2,4,8,16",
        Key::Conns => "1,2,4,8,16",
        Key::Queue => "10,30,100,300,1000",
        _ => "1",
    }
}

/// One knob and its values, each as the canonical query writes it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Axis {
    pub key: Key,
    /// For a key of one value per flow (`rtt`, `iw`, ...): the flow (0-based) whose value alone
    /// the axis sets, the others keeping theirs, as `tcplab sweep --flow N` does; `None`: every
    /// flow's.
    pub flow: Option<usize>,
    pub values: Vec<String>,
}

impl Axis {
    /// Reads `values` (comma-separated, units allowed) for `key` over `base`. Errors name
    /// `values_key`, the page key they came from.
    pub fn parse(
        key: Key,
        values: &str,
        base: &Scenario,
        values_key: &str,
    ) -> Result<Axis, BadLink> {
        Axis::parse_for(key, None, values, base, values_key)
    }

    /// The same for one flow's value alone (`flow` 0-based), where `flow` is given.
    pub fn parse_for(
        key: Key,
        flow: Option<usize>,
        values: &str,
        base: &Scenario,
        values_key: &str,
    ) -> Result<Axis, BadLink> {
        let bad = |problem: String, zh: String| BadLink::new(values_key, problem, zh);
        if values.trim().is_empty() {
            return Err(bad(
                format!(
                    "empty value (allowed values of {}, comma-separated)",
                    key.name()
                ),
                format!("值为空（允许 {} 的值，以逗号分隔）", key.name()),
            ));
        }
        let mut out: Vec<String> = Vec::new();
        // Every value at fault is named, not the first alone: one fixing a list by hand
        // fixes it in one go.
        // Each fault in English and in Chinese.
        let mut faults: Vec<(String, String)> = Vec::new();
        for (i, v) in values.split(',').enumerate() {
            let v = v.trim();
            if v.is_empty() {
                faults.push((
                    format!("value {} is empty", i + 1),
                    format!("第 {} 个值为空", i + 1),
                ));
                continue;
            }
            let mut s = base.clone();
            s.at_ms = None;
            if let Err(e) = s.set_for(key, flow, v) {
                faults.push((
                    e.to_string(),
                    format!(
                        "{}：{}",
                        tcplab::scenario::shown(e.key()),
                        crate::i18n::problem_zh(e.problem())
                    ),
                ));
                continue;
            }
            let text = s.value_text_for(key, flow);
            if out.contains(&text) {
                return Err(bad(
                    format!("{text} is given twice"),
                    format!("{text} 出现了两次"),
                ));
            }
            out.push(text);
            if out.len() > MAX_VALUES {
                return Err(bad(
                    format!("more than {MAX_VALUES} values"),
                    format!("超过 {MAX_VALUES} 个值"),
                ));
            }
        }
        if !faults.is_empty() {
            const SHOWN: usize = 3;
            let more = faults.len().saturating_sub(SHOWN);
            let shown = &faults[..faults.len().min(SHOWN)];
            let mut said = shown
                .iter()
                .map(|f| f.0.as_str())
                .collect::<Vec<_>>()
                .join("; ");
            let mut said_zh = shown
                .iter()
                .map(|f| f.1.as_str())
                .collect::<Vec<_>>()
                .join("；");
            if more > 0 {
                said.push_str(&format!("; and {more} more"));
                said_zh.push_str(&format!("；另有 {more} 个"));
            }
            return Err(bad(said, said_zh));
        }
        Ok(Axis {
            key,
            flow,
            values: out,
        })
    }

    /// The axis a link without values gets for `key`.
    pub fn default_for(key: Key, base: &Scenario) -> Axis {
        Axis::parse(key, default_values(key), base, "values").unwrap_or(Axis {
            key,
            flow: None,
            values: Vec::new(),
        })
    }

    /// The same knob for one flow alone (`flow` 0-based) or for every flow, its values read
    /// again (a flow's own values may be refused where every flow's were not).
    pub fn for_flow(&self, flow: Option<usize>, base: &Scenario) -> Result<Axis, BadLink> {
        Axis::parse_for(self.key, flow, &self.text(), base, "values")
    }

    /// The flow whose share a sweep over this axis reports: the swept one, else flow 1.
    pub fn share_flow(&self) -> usize {
        tcplab::sweep::share_flow(self.flow)
    }

    pub fn text(&self) -> String {
        self.values.join(",")
    }

    /// The scenario at value `i`, over `base` (without the cursor, which no run depends on).
    pub fn point(&self, base: &Scenario, i: usize) -> Result<Scenario, String> {
        let v = self.values.get(i).ok_or("no such value")?;
        let mut s = base.clone();
        s.at_ms = None;
        s.set_for(self.key, self.flow, v)
            .map_err(|e| e.to_string())?;
        Ok(s)
    }

    /// Each value as a number in the key's query unit (for the axis).
    pub fn numbers(&self) -> Vec<Option<f64>> {
        self.values.iter().map(|v| v.parse::<f64>().ok()).collect()
    }
}

/// A sweep: one knob, several seeds per value, one metric.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SweepSpec {
    pub axis: Axis,
    pub seeds: u32,
    pub metric: Metric,
}

impl SweepSpec {
    pub fn default_for(base: &Scenario) -> SweepSpec {
        SweepSpec {
            axis: Axis::default_for(Key::Loss, base),
            seeds: 3,
            metric: Metric::Goodput,
        }
    }

    pub fn runs(&self) -> usize {
        self.axis.values.len() * self.seeds as usize
    }
}

/// Seed 004's A/B matrix: rows × columns × panels of one metric.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MatrixSpec {
    pub rows: Axis,
    pub cols: Axis,
    pub panels: Option<Axis>,
    pub seeds: u32,
    pub metric: Metric,
}

impl MatrixSpec {
    /// Seed 004's matrix: flows 1/4/8/16 × delay 10/50/100 ms × loss 0/0.1/1 %.
    pub fn default_for(base: &Scenario) -> MatrixSpec {
        let axis = |key, values| {
            Axis::parse(key, values, base, "values")
                .unwrap_or_else(|_| Axis::default_for(key, base))
        };
        MatrixSpec {
            rows: axis(Key::Flows, "1,4,8,16"),
            cols: axis(Key::Rtt, "10,50,100"),
            panels: Some(axis(Key::Loss, "0,0.1,1")),
            seeds: 1,
            metric: Metric::Goodput,
        }
    }

    pub fn cells(&self) -> usize {
        self.rows.values.len()
            * self.cols.values.len()
            * self.panels.as_ref().map_or(1, |p| p.values.len().max(1))
    }

    pub fn runs(&self) -> usize {
        self.cells() * self.seeds as usize
    }
}

/// Every page key but `lang`, read.
#[derive(Debug, Clone, PartialEq)]
pub struct PageKeys {
    pub view: View,
    pub sweep: SweepSpec,
    pub matrix: MatrixSpec,
    /// The scenarios compared beside the page's own (`b=`, `c=`).
    pub others: Vec<Scenario>,
    /// Whether the others were chosen (by a link, a recipe or an edit), or are still the
    /// default that follows the page's own scenario ([`default_other`]) until then.
    pub others_chosen: bool,
    /// The number "My number, explained" asks about on the page's path (`my_goodput=`,
    /// `my_time=`), which the diagnosis explains and its address carries.
    pub explain: Option<Measured>,
}

impl PageKeys {
    pub fn default_for(base: &Scenario) -> PageKeys {
        PageKeys {
            view: View::Lab,
            sweep: SweepSpec::default_for(base),
            matrix: MatrixSpec::default_for(base),
            others: vec![default_other(base)],
            others_chosen: false,
            explain: None,
        }
    }

    /// Reads the page's keys over the scenario `base`; every key at fault is reported, and what
    /// it would have set keeps its default.
    pub fn read(pairs: &[(String, String)], base: &Scenario) -> (PageKeys, Vec<BadLink>) {
        let mut keys = PageKeys::default_for(base);
        let mut bad: Vec<BadLink> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for (k, _) in pairs {
            if seen.contains(&k.as_str()) {
                let repeated = BadLink::new(k, "repeated key".to_string(), "键重复".to_string());
                return (keys, vec![repeated]);
            }
            seen.push(k);
        }
        let get = |k: &str| {
            pairs
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        let mut note = |r: Result<(), BadLink>| {
            if let Err(e) = r {
                // One message a key: an axis's values fail with its key already named.
                if !bad.iter().any(|b| b.key == e.key) {
                    bad.push(e);
                }
            }
        };

        if let Some(v) = get("view") {
            match View::from_name(v) {
                Some(view) => keys.view = view,
                None => note(Err(BadLink::new(
                    "view",
                    format!(
                        "unknown value {} (allowed {})",
                        quoted(v),
                        View::ALL.map(View::name).join(", ")
                    ),
                    format!(
                        "未知的值 {}（允许 {}）",
                        quoted(v),
                        View::ALL.map(View::name).join("、")
                    ),
                ))),
            }
        }
        let metric = match get("metric") {
            None => Ok(Metric::Goodput),
            Some(v) => Metric::from_name(v).ok_or_else(|| {
                let known: Vec<&str> = Metric::ALL.iter().map(|m| m.name()).collect();
                BadLink::new(
                    "metric",
                    format!("unknown value {} (allowed {})", quoted(v), known.join(", ")),
                    format!("未知的值 {}（允许 {}）", quoted(v), known.join("、")),
                )
            }),
        };
        let axis = |key_name: &str,
                    values_name: &str,
                    default: Option<Key>|
         -> Result<Option<Axis>, BadLink> {
            let key = match (get(key_name), default) {
                (Some(k), _) => sweep_key(key_name, k)?,
                (None, Some(d)) => d,
                (None, None) => {
                    if get(values_name).is_some() {
                        return Err(BadLink::new(
                            values_name,
                            format!("needs {key_name}="),
                            format!("需要 {key_name}="),
                        ));
                    }
                    return Ok(None);
                }
            };
            match get(values_name) {
                Some(v) => Axis::parse(key, v, base, values_name).map(Some),
                None => Ok(Some(Axis::default_for(key, base))),
            }
        };

        if keys.view == View::Matrix {
            if get("flow").is_some() {
                note(Err(BadLink::new(
                    "flow",
                    "a matrix sets every flow's value (allowed with view=sweep)".to_string(),
                    "矩阵设置的是所有流的值（可与 view=sweep 一起使用）".to_string(),
                )));
            }
            let d = MatrixSpec::default_for(base);
            let has = |k: &str| get(k).is_some();
            let rows = if has("key") || has("values") {
                axis("key", "values", Some(Key::Flows))
            } else {
                Ok(Some(d.rows.clone()))
            };
            let cols = if has("key2") || has("values2") {
                axis("key2", "values2", Some(Key::Rtt))
            } else {
                Ok(Some(d.cols.clone()))
            };
            let panels = if has("key3") || has("values3") {
                axis("key3", "values3", None)
            } else if has("key") || has("key2") {
                Ok(None)
            } else {
                Ok(d.panels.clone())
            };
            match (rows, cols, panels) {
                (Ok(Some(rows)), Ok(Some(cols)), Ok(panels)) => {
                    let distinct = rows.key != cols.key
                        && panels
                            .as_ref()
                            .is_none_or(|p| p.key != rows.key && p.key != cols.key);
                    if distinct {
                        keys.matrix = MatrixSpec {
                            rows,
                            cols,
                            panels,
                            seeds: 1,
                            metric: Metric::Goodput,
                        };
                    } else {
                        note(Err(BadLink::new(
                            "key2",
                            "the matrix's knobs must differ".to_string(),
                            "矩阵的两个旋钮必须不同".to_string(),
                        )));
                    }
                }
                (r, c, p) => {
                    for e in [r.err(), c.err(), p.err()].into_iter().flatten() {
                        note(Err(e));
                    }
                }
            }
        } else {
            match axis("key", "values", Some(Key::Loss)) {
                Ok(Some(a)) => match get("flow").map(|v| sweep_flow(v, &a, base)) {
                    None => keys.sweep.axis = a,
                    Some(Ok(one)) => keys.sweep.axis = one,
                    Some(Err(e)) => {
                        keys.sweep.axis = a;
                        note(Err(e));
                    }
                },
                Ok(None) => {}
                Err(e) => note(Err(e)),
            }
            // A matrix's other knobs do nothing in this view, and the address drops them, but a
            // bad one still gets the banner (docs/scenario.md: every bad key is named).
            for (k, v) in [("key2", "values2"), ("key3", "values3")] {
                if let Err(e) = axis(k, v, None) {
                    note(Err(e));
                }
            }
        }
        match metric {
            Ok(m) => {
                keys.sweep.metric = m;
                keys.matrix.metric = m;
            }
            Err(e) => note(Err(e)),
        }
        if let Some(v) = get("seeds") {
            let runs = if keys.view == View::Matrix {
                keys.matrix.cells()
            } else {
                keys.sweep.axis.values.len()
            };
            match seeds(v, runs) {
                Ok(n) => {
                    keys.sweep.seeds = n;
                    keys.matrix.seeds = n;
                }
                Err(e) => note(Err(e)),
            }
        } else {
            let runs = if keys.view == View::Matrix {
                keys.matrix.runs()
            } else {
                keys.sweep.runs()
            };
            if runs > MAX_RUNS {
                note(Err(too_many("values", runs)));
            }
        }

        let mut others = Vec::new();
        for k in ["b", "c"] {
            let Some(q) = get(k) else { continue };
            match Scenario::parse(q) {
                Ok(s) => others.push(s),
                // The other scenario's own error, in the page's language as the page's is.
                Err(e) => note(Err(BadLink::new(
                    k,
                    e.to_string(),
                    format!(
                        "{}：{}",
                        tcplab::scenario::shown(e.key()),
                        crate::i18n::problem_zh(e.problem())
                    ),
                ))),
            }
        }
        if get("c").is_some() && get("b").is_none() {
            note(Err(BadLink::new(
                "c",
                "needs b=".to_string(),
                "需要 b=".to_string(),
            )));
        }
        if !others.is_empty() {
            keys.others = others;
            keys.others_chosen = true;
        }
        match super::measured::read(pairs, base) {
            Ok(m) => keys.explain = m,
            Err(bad) => note(Err(bad)),
        }
        (keys, bad)
    }

    /// The keys the address carries for `view`, in canonical order.
    pub fn write(&self, view: View) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        match view {
            View::Lab => {}
            View::Diagnose => {
                out.push(("view", view.name().to_string()));
                out.extend(self.explain.map(super::measured::write));
            }
            View::Sweep => {
                out.push(("view", view.name().to_string()));
                out.push(("key", self.sweep.axis.key.name().to_string()));
                out.push(("values", self.sweep.axis.text()));
                if let Some(f) = self.sweep.axis.flow {
                    out.push(("flow", (f + 1).to_string()));
                }
                out.push(("seeds", self.sweep.seeds.to_string()));
                out.push(("metric", self.sweep.metric.name().to_string()));
            }
            View::Matrix => {
                let m = &self.matrix;
                out.push(("view", view.name().to_string()));
                out.push(("key", m.rows.key.name().to_string()));
                out.push(("values", m.rows.text()));
                out.push(("key2", m.cols.key.name().to_string()));
                out.push(("values2", m.cols.text()));
                if let Some(p) = &m.panels {
                    out.push(("key3", p.key.name().to_string()));
                    out.push(("values3", p.text()));
                }
                out.push(("seeds", m.seeds.to_string()));
                out.push(("metric", m.metric.name().to_string()));
            }
            View::Compare => {
                out.push(("view", view.name().to_string()));
                for (k, s) in ["b", "c"].into_iter().zip(&self.others) {
                    out.push((k, s.to_query()));
                }
            }
        }
        out
    }
}

/// The scenario a comparison starts with beside `base`: the same with another algorithm.
pub fn default_other(base: &Scenario) -> Scenario {
    let mut s = base.clone();
    s.at_ms = None;
    s.cc = if s.cc == tcplab::CcAlgo::Reno {
        tcplab::CcAlgo::Cubic
    } else {
        tcplab::CcAlgo::Reno
    };
    s
}

/// The sweep's `flow=N` (1-based): the axis for that flow's value alone. Only a key of one
/// value per flow takes it, and only a flow the scenario has.
fn sweep_flow(text: &str, axis: &Axis, base: &Scenario) -> Result<Axis, BadLink> {
    let n = base.connections();
    if n == 0 {
        return Err(BadLink::new(
            "flow",
            "datagrams have no connections to tell apart (allowed with a TCP workload)".to_string(),
            "数据报没有可区分的连接（可用于 TCP 负载）".to_string(),
        ));
    }
    if !axis.key.per_flow() {
        let each: Vec<&str> = SWEEP_KEYS
            .iter()
            .filter(|k| k.per_flow())
            .map(|k| k.name())
            .collect();
        return Err(BadLink::new(
            "flow",
            format!(
                "{} has one value for every flow (allowed with key={})",
                axis.key.name(),
                each.join(" or ")
            ),
            format!(
                "{} 对所有流只有一个值（可与 key={} 一起使用）",
                axis.key.name(),
                each.join(" 或 ")
            ),
        ));
    }
    let flow = text
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|f| (1..=n).contains(f))
        .ok_or_else(|| {
            BadLink::new(
                "flow",
                format!(
                    "\"{}\" is not a flow of this scenario (allowed 1 to {n})",
                    shown(text)
                ),
                format!("\"{}\" 不是本场景的流（允许 1 至 {n}）", shown(text)),
            )
        })?;
    axis.for_flow(Some(flow - 1), base)
        .map_err(|e| BadLink::new("flow", e.problem, e.problem_zh))
}

fn sweep_key(page_key: &str, name: &str) -> Result<Key, BadLink> {
    Key::from_name(name)
        .filter(|k| SWEEP_KEYS.contains(k))
        .ok_or_else(|| {
            let known: Vec<&str> = SWEEP_KEYS.iter().map(|k| k.name()).collect();
            BadLink::new(
                page_key,
                format!("unknown value \"{name}\" (allowed {})", known.join(", ")),
                format!("未知的值 \"{name}\"（允许 {}）", known.join("、")),
            )
        })
}

fn too_many(page_key: &str, runs: usize) -> BadLink {
    BadLink::new(
        page_key,
        format!("{runs} runs is too many (at most {MAX_RUNS} values × seeds)"),
        format!("{runs} 次运行太多（值 × 种子最多 {MAX_RUNS} 次）"),
    )
}

/// Reads `seeds=` for `points` points: a whole number from 1 to [`MAX_SEEDS`], and at most
/// [`MAX_RUNS`] runs in all.
pub fn seeds(v: &str, points: usize) -> Result<u32, BadLink> {
    let n = match v.parse::<u32>() {
        Ok(n) if (1..=MAX_SEEDS).contains(&n) && !v.starts_with('+') => n,
        // A whole number, but not one the range has (however long): say that, not that it is
        // not one.
        _ if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
            let shown = tcplab::scenario::shown(v);
            return Err(BadLink::new(
                "seeds",
                format!("{shown} is out of range (allowed 1 to {MAX_SEEDS})"),
                format!("{shown} 超出范围（允许 1 至 {MAX_SEEDS}）"),
            ));
        }
        _ => {
            return Err(BadLink::new(
                "seeds",
                format!(
                    "{} is not a whole number (allowed 1 to {MAX_SEEDS})",
                    super::address::quoted(v)
                ),
                format!(
                    "{} 不是整数（允许 1 至 {MAX_SEEDS}）",
                    super::address::quoted(v)
                ),
            ))
        }
    };
    let runs = points * n as usize;
    if runs > MAX_RUNS {
        return Err(too_many("seeds", runs));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tcplab::scenario::Key;

    use super::{Metric, View};
    use crate::model::page::test_page;

    #[test]
    fn the_page_keys_read_and_write_canonically() {
        let p =
            test_page("?preset=loss-sweep&view=sweep&key=loss&values=0.1,1%25,2&seeds=3&lang=en");
        assert_eq!(p.banner, vec![]);
        assert_eq!(p.keys.view, View::Sweep);
        assert_eq!(p.keys.sweep.axis.values, ["0.1", "1", "2"]);
        assert_eq!(
            p.search(),
            "?preset=loss-sweep&view=sweep&key=loss&values=0.1,1,2&seeds=3&metric=goodput&lang=en"
        );
        // Units are applied and written back in the key's own unit.
        let p = test_page("?view=sweep&key=body&values=10kB,1MB&metric=completion");
        assert_eq!(p.keys.sweep.axis.values, ["10000", "1000000"]);
        assert_eq!(p.keys.sweep.metric, Metric::Completion);
        // The matrix's defaults are seed 004's.
        let p = test_page("?preset=multi-flow&view=matrix");
        assert_eq!(
            p.search(),
            "?preset=multi-flow&view=matrix&key=flows&values=1,4,8,16&key2=rtt&values2=10,50,100\
         &key3=loss&values3=0,0.1,1&seeds=1&metric=goodput"
        );
        // A comparison's scenarios are whole queries, percent-encoded.
        let p = test_page("?cc=reno&view=compare&b=cc%3Dbbr%26rtt%3D50&c=rtt%3D50&lang=en");
        assert_eq!(p.banner, vec![]);
        assert_eq!(p.compared().len(), 3);
        assert_eq!(p.keys.others[0].to_query(), "cc=bbr&rtt=50");
        assert_eq!(
            p.search(),
            "?cc=reno&view=compare&b=cc%3Dbbr%26rtt%3D50&c=rtt%3D50&lang=en"
        );
        let again = test_page(&p.search());
        assert_eq!(again.keys, p.keys);
        // One run writes none of them.
        assert_eq!(test_page("?rtt=50&key=rtt&values=1,2").search(), "?rtt=50");
    }

    #[test]
    fn a_sweep_can_turn_one_flow_s_value_alone() {
        let q = "?flows=2&cc=bbr,cubic&rtt=20&app=bulk&dur=10\
                 &view=sweep&key=rtt&values=10,40,160&flow=2&metric=share&lang=en";
        let p = test_page(q);
        assert_eq!(p.banner, vec![]);
        let axis = &p.keys.sweep.axis;
        assert_eq!((axis.key, axis.flow), (Key::Rtt, Some(1)));
        assert_eq!(axis.values, ["10", "40", "160"]);
        assert_eq!(p.keys.sweep.metric, Metric::Share);
        // Each point sets the second flow's RTT alone; the first keeps its 20 ms.
        let base = p.scenario.clone();
        let points: Vec<String> = (0..3)
            .map(|i| axis.point(&base, i).map(|s| s.value_text(Key::Rtt)))
            .collect::<Result<_, _>>()
            .unwrap_or_default();
        assert_eq!(points, ["20,10", "20,40", "20,160"]);
        assert_eq!(axis.share_flow(), 1);
        // The address keeps the flow, after the values, and reads back the same.
        assert!(
            p.search().contains("&key=rtt&values=10,40,160&flow=2&"),
            "{}",
            p.search()
        );
        assert_eq!(test_page(&p.search()).keys.sweep, p.keys.sweep);
        // Every flow's again: no flow key written.
        let every = axis.for_flow(None, &base).map(|a| a.flow);
        assert_eq!(every, Ok(None));
    }

    #[test]
    fn a_flow_the_scenario_has_not_or_a_key_of_one_value_is_refused_naming_flow() {
        let (k, m) = bad("?flows=2&view=sweep&key=rtt&values=10,20&flow=3");
        assert_eq!(k, "flow");
        assert!(
            m.contains("\"3\" is not a flow of this scenario (allowed 1 to 2)"),
            "{m}"
        );
        let (k, m) = bad("?flows=2&view=sweep&key=loss&values=1,2&flow=2");
        assert_eq!(k, "flow");
        assert!(m.contains("loss has one value for every flow"), "{m}");
        let (k, _) = bad("?flows=2&view=sweep&key=rtt&values=10,20&flow=x");
        assert_eq!(k, "flow");
        let (k, m) = bad("?flows=2&view=matrix&flow=2");
        assert_eq!(k, "flow");
        assert!(m.contains("view=sweep"), "{m}");
        // A refused flow leaves the knob for every flow.
        let p = test_page("?flows=2&view=sweep&key=rtt&values=10,20&flow=9");
        assert_eq!(p.keys.sweep.axis.flow, None);
    }

    #[test]
    fn share_and_jain_are_read_off_the_flows_goodputs() {
        let q = "flows=2&cc=bbr,cubic&rtt=10&bw=20&app=bulk&dur=2";
        let s = tcplab::Scenario::parse(q).unwrap_or_default();
        let r = tcplab::run(&s, &tcplab::RunOptions::default()).summary;
        let g = r.per_flow_goodput_MBps.clone();
        assert_eq!(g.len(), 2);
        let share = |f: usize| Metric::Share.of(&r, f).unwrap_or(f64::NAN);
        assert!((share(0) - g[0] / (g[0] + g[1])).abs() < 1e-12, "{g:?}");
        assert!((share(0) + share(1) - 1.0).abs() < 1e-12);
        assert_eq!(Metric::Jain.of(&r, 1), r.jain_fairness);
        assert!(Metric::Share.is_fraction() && !Metric::Goodput.is_fraction());
        for m in Metric::ALL {
            assert_eq!(Metric::from_name(m.name()), Some(m));
        }
    }

    fn bad(search: &str) -> (String, String) {
        let b = test_page(search)
            .banner
            .into_iter()
            .next()
            .expect("a banner");
        (b.key, b.message)
    }

    #[test]
    fn a_bad_page_key_is_named() {
        let (k, m) = bad("?view=graph");
        assert_eq!(k, "view");
        assert!(m.contains("lab, sweep, matrix, compare, diagnose"), "{m}");
        let (k, m) = bad("?view=sweep&key=loss&values=1,2&seeds=450");
        assert_eq!(k, "seeds");
        assert_eq!(m, "seeds: 450 is out of range (allowed 1 to 50)");
        let (_, m) = bad("?view=sweep&key=loss&values=1,2&seeds=99999999999999999999");
        assert_eq!(
            m,
            "seeds: 99999999999999999999 is out of range (allowed 1 to 50)"
        );
        let (_, m) = bad("?view=sweep&key=loss&values=1,2&seeds=2.5");
        assert_eq!(m, "seeds: \"2.5\" is not a whole number (allowed 1 to 50)");
        let (k, m) = bad("?view=sweep&key=mtu");
        assert_eq!(k, "key");
        assert!(
            m.contains("loss, rtt, iw, body, bw, rwnd, flows, conns"),
            "{m}"
        );
        let (k, m) = bad("?view=sweep&key=loss&values=1,,2");
        assert_eq!(
            (k.as_str(), m.as_str()),
            ("values", "values: value 2 is empty")
        );
        let (k, m) = bad("?view=sweep&key=loss&values=1,70");
        assert_eq!(k, "values");
        assert!(m.contains("0 to 50%"), "the scenario's own range: {m}");
        let (_, m) = bad("?view=sweep&key=loss&values=0.1,70,abc");
        assert_eq!(
            m,
            "values: loss: 70 is out of range (allowed 0 to 50%); \
             loss: \"abc\" is not a number (allowed 0 to 50%)"
        );
        let (_, m) = bad("?view=sweep&key=loss&values=60,70,80,90,abc");
        assert!(m.ends_with("; and 2 more"), "{m}");
        let (k, m) = bad("?view=sweep&key=loss&values=1,1");
        assert_eq!(k, "values");
        assert!(m.contains("twice"), "{m}");
        let (k, _) = bad("?view=sweep&seeds=0");
        assert_eq!(k, "seeds");
        let (k, m) = bad("?view=sweep&key=loss&values=0.1,0.2,0.5,1,2,5,10,20,30&seeds=50");
        assert_eq!(k, "seeds");
        assert!(m.contains("450 runs") && m.contains("400"), "{m}");
        let (k, _) = bad("?view=sweep&metric=speed");
        assert_eq!(k, "metric");
        let (k, m) = bad("?view=compare&b=rtt%3Dabc");
        assert_eq!(k, "b");
        assert!(m.contains("rtt") && m.contains("0.1 to 2000 ms"), "{m}");
        // In Chinese, as the page's own scenario's error is.
        let zh = |search: &str| {
            test_page(search)
                .banner
                .into_iter()
                .next()
                .map(|b| b.problem_in(crate::i18n::Lang::Zh).to_string())
                .unwrap_or_default()
        };
        let own = zh("?rtt=5000");
        let other = zh("?view=compare&b=rtt%3D5000");
        assert!(!own.is_empty() && own != "rtt: 5000 is out of range (allowed 0.1 to 2000 ms)");
        assert_eq!(other, format!("rtt：{own}"));
        assert_eq!(
            zh("?view=graph"),
            "未知的值 \"graph\"（允许 lab、sweep、matrix、compare、diagnose）"
        );
        assert_eq!(zh("?view=compare&c=rtt%3D5"), "需要 b=");
        let (k, _) = bad("?view=compare&c=rtt%3D5");
        assert_eq!(k, "c");
        let (k, m) = bad("?view=sweep&seeds=2&seeds=3");
        assert_eq!((k.as_str(), m.as_str()), ("seeds", "seeds: repeated key"));
        let (k, _) = bad("?view=matrix&key=rtt&key2=rtt");
        assert_eq!(k, "key2");
        // A matrix's knobs are checked in every view, though only the matrix uses them.
        let (k, m) = bad("?key2=zzz");
        assert_eq!(k, "key2");
        assert!(m.contains("unknown value \"zzz\""), "{m}");
        let (k, m) = bad("?view=sweep&values3=zzz");
        assert_eq!(
            (k.as_str(), m.as_str()),
            ("values3", "values3: needs key3=")
        );
        let (k, _) = bad("?view=sweep&key3=rtt&values3=zzz");
        assert_eq!(k, "values3");
        // The scenario still runs; the view keeps its defaults.
        let p = test_page("?rtt=50&view=sweep&key=mtu");
        assert_eq!(p.scenario.rtt_ms, 50.0);
        assert_eq!(p.keys.sweep.axis.key, Key::Loss);
    }
}
