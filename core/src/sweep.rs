//! Sweeps: one knob over several values, several seeds each, summarised as seed 000's table:
//! the median and spread of each value's runs beside the theory for that knob. The runner's
//! `sweep --table` and the page's sweep view both build their rows here, so they agree.

use serde::{Deserialize, Serialize};

use crate::metrics::stats::quantile;
use crate::metrics::summary::Summary;
use crate::rate::MBytePerS;
use crate::scenario::{App, Key, Scenario};
use crate::theory::path::{mathis, Limits};
use crate::theory::slow_start::ideal_completion_ms;

/// What the theory column predicts for a point, and in which unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Prediction {
    /// Goodput, MB/s, of all the flows: each at Mathis's rate under loss or its window limit,
    /// whichever is less, together at most the link's rate.
    GoodputMbps(MBytePerS),
    /// Completion of one body on an ideal path, ms.
    CompletionMs(f64),
}

/// The theory for one point of a sweep over `key`: Mathis where there is loss, the ideal path's
/// completion time for a body, otherwise the smaller of the link rate and window/RTT.
pub fn prediction(s: &Scenario) -> Prediction {
    let limits = Limits::of(s);
    if s.app == App::Body {
        return Prediction::CompletionMs(ideal_completion_ms(
            s.iw,
            s.mss,
            s.body,
            s.rtt_ms,
            limits.share(),
            s.rwnd as f64,
        ));
    }
    let per_conn = match mathis(s.mss, s.rtt_ms, s.loss_pct / 100.0) {
        Some(m) => m.min(limits.window_each),
        None => limits.window_each,
    };
    Prediction::GoodputMbps((per_conn * limits.conns).min(limits.link))
}

/// One share of a sweep's points, so that a large grid can be spread over machines
/// (`tcplab sweep --shard K/N`): shard K of N runs the points from ⌊(K−1)·P/N⌋ up to ⌊K·P/N⌋, a
/// contiguous run of whole points (a table's row needs all its seeds). Concatenating the shards'
/// outputs in order gives the whole sweep's output, as one invocation prints it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub index: u64,
    pub of: u64,
}

/// Most shards a sweep can be cut into.
pub const MAX_SHARDS: u64 = 1_000_000;

impl Shard {
    /// Reads `K/N`, with 1 <= K <= N <= [`MAX_SHARDS`].
    pub fn parse(text: &str) -> Option<Shard> {
        let (k, n) = text.split_once('/')?;
        let whole = |t: &str| {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u64>().ok())
                .flatten()
        };
        let (index, of) = (whole(k)?, whole(n)?);
        (1..=of).contains(&index).then_some(())?;
        (of <= MAX_SHARDS).then_some(Shard { index, of })
    }

    /// The points of `points` this shard runs.
    pub fn range(self, points: usize) -> std::ops::Range<usize> {
        let p = points as u128;
        let at =
            |k: u64| usize::try_from(p * u128::from(k) / u128::from(self.of)).unwrap_or(points);
        at(self.index - 1)..at(self.index)
    }

    /// Whether this shard writes a table's header: the first does, so that the shards
    /// concatenate to one table.
    pub fn writes_header(self) -> bool {
        self.index == 1
    }
}

/// The spread of one metric over a point's seeds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// `None` when no run had the metric.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Spread> {
        let mut v: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        Some(Spread {
            median: quantile(&v, 0.5)?,
            min: *v.first()?,
            max: *v.last()?,
        })
    }
}

/// One row of the table: a value of the knob over its seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    /// The value as the canonical query writes it.
    pub value: String,
    pub runs: usize,
    pub goodput_mbps: Option<Spread>,
    pub completion_ms: Option<Spread>,
    pub p99_ms: Option<Spread>,
    pub retrans_pct: Option<Spread>,
    /// One flow's share of the flows' goodput (the swept flow's, else flow 1's), where the run
    /// has two flows or more: how a competition sweep reads (BBR's share against the buffer).
    pub share: Option<Spread>,
    /// Jain's index over the flows' goodputs.
    pub jain: Option<Spread>,
    pub prediction: Prediction,
    /// The median over the prediction, in the prediction's unit.
    pub measured_over_theory: Option<f64>,
}

/// The figures of one run that a sweep's row is made of: all a table keeps of a run, so that a
/// sweep's memory grows by these few numbers per seed, not by whole summaries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunFigures {
    pub goodput_mbps: Option<f64>,
    pub completion_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub retrans_pct: Option<f64>,
    pub share: Option<f64>,
    pub jain: Option<f64>,
}

impl RunFigures {
    /// The figures of run `r`; `flow` (0-based) is the flow whose share is kept.
    pub fn of(r: &Summary, flow: usize) -> RunFigures {
        RunFigures {
            goodput_mbps: r.goodput_MBps,
            completion_ms: r.completion_ms,
            p99_ms: r.msgs.as_ref().and_then(|m| m.p99_ms),
            retrans_pct: r.retrans_bytes_pct,
            share: share_of(&r.per_flow_goodput_MBps, flow),
            jain: r.jain_fairness,
        }
    }
}

/// The flow whose share a sweep reports: the swept one (`sweep --flow N`, 0-based), else
/// flow 1.
pub fn share_flow(swept: Option<usize>) -> usize {
    swept.unwrap_or(0)
}

/// Flow `flow`'s part of the flows' goodput, from 0 to 1; none for a run of one flow, or of
/// flows that carried nothing.
pub fn share_of(per_flow: &[f64], flow: usize) -> Option<f64> {
    let total: f64 = per_flow.iter().sum();
    if per_flow.len() < 2 || total <= 0.0 || !total.is_finite() {
        return None;
    }
    per_flow.get(flow).map(|g| g / total)
}

impl SweepRow {
    /// Summarises the runs of one value (scenario `s`, any of its seeds). `flow` (0-based) is
    /// the swept flow when the knob is one flow's alone (`sweep --flow N`): the row's value is
    /// that flow's, and its share that flow's (else flow 1's).
    pub fn new(key: Key, s: &Scenario, runs: &[Summary], flow: Option<usize>) -> SweepRow {
        let figures: Vec<RunFigures> = runs
            .iter()
            .map(|r| RunFigures::of(r, share_flow(flow)))
            .collect();
        SweepRow::of_figures(key, s, &figures, flow)
    }

    /// The same from each run's figures alone.
    pub fn of_figures(
        key: Key,
        s: &Scenario,
        runs: &[RunFigures],
        flow: Option<usize>,
    ) -> SweepRow {
        let goodput = Spread::of(runs.iter().filter_map(|r| r.goodput_mbps));
        let completion = Spread::of(runs.iter().filter_map(|r| r.completion_ms));
        let prediction = prediction(s);
        let ratio = match prediction {
            Prediction::GoodputMbps(t) => goodput.map(|g| g.median / t.0),
            Prediction::CompletionMs(t) => completion.map(|c| c.median / t),
        }
        .filter(|r| r.is_finite());
        SweepRow {
            value: s.value_text_for(key, flow),
            runs: runs.len(),
            goodput_mbps: goodput,
            completion_ms: completion,
            p99_ms: Spread::of(runs.iter().filter_map(|r| r.p99_ms)),
            retrans_pct: Spread::of(runs.iter().filter_map(|r| r.retrans_pct)),
            share: Spread::of(runs.iter().filter_map(|r| r.share)),
            jain: Spread::of(runs.iter().filter_map(|r| r.jain)),
            prediction,
            measured_over_theory: ratio,
        }
    }
}

/// The table's header line.
pub const TABLE_HEADER: &str =
    "key,value,runs,goodput_median_MBps,goodput_min_MBps,goodput_max_MBps,\
completion_median_ms,p99_median_ms,retrans_median_pct,theory,theory_unit,measured_over_theory,\
share_median,jain_median\n";

/// A text field as CSV writes it (RFC 4180): in double quotes, its quotes doubled, when it holds
/// a comma, a quote or a line break; as it is otherwise. A `drop` value such as `5,9` needs it.
fn csv_field(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\"")).into()
    } else {
        text.into()
    }
}

/// The rows as CSV, the same columns the page's table shows.
pub fn table_csv(key: Key, rows: &[SweepRow]) -> String {
    let mut out = String::from(TABLE_HEADER);
    for r in rows {
        out.push_str(&table_row(key, r));
    }
    out
}

/// One line of the table, with its newline: the runner writes each as soon as its seeds are
/// done.
pub fn table_row(key: Key, r: &SweepRow) -> String {
    let f = |v: Option<f64>| v.map(|x| format!("{x}")).unwrap_or_default();
    let (theory, unit) = match r.prediction {
        Prediction::GoodputMbps(v) => (v.0, "MBps"),
        Prediction::CompletionMs(v) => (v, "ms"),
    };
    format!(
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
        csv_field(key.name()),
        csv_field(&r.value),
        r.runs,
        f(r.goodput_mbps.map(|s| s.median)),
        f(r.goodput_mbps.map(|s| s.min)),
        f(r.goodput_mbps.map(|s| s.max)),
        f(r.completion_ms.map(|s| s.median)),
        f(r.p99_ms.map(|s| s.median)),
        f(r.retrans_pct.map(|s| s.median)),
        f(Some(theory).filter(|t| t.is_finite())),
        csv_field(unit),
        f(r.measured_over_theory),
        f(r.share.map(|s| s.median)),
        f(r.jain.map(|s| s.median)),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn shards_cut_the_points_into_contiguous_shares_that_cover_them_once() {
        assert_eq!(Shard::parse("2/3"), Some(Shard { index: 2, of: 3 }));
        for bad in [
            "0/3",
            "4/3",
            "1/0",
            "a/2",
            "1/",
            "/2",
            "1/2/3",
            "-1/2",
            "+1/2",
            "1 /2",
            "1/2000000",
        ] {
            assert_eq!(Shard::parse(bad), None, "{bad}");
        }
        for points in [0usize, 1, 2, 5, 7, 40] {
            for of in [1u64, 2, 3, 4, 9] {
                let mut covered = Vec::new();
                for index in 1..=of {
                    covered.extend(Shard { index, of }.range(points));
                }
                assert_eq!(
                    covered,
                    (0..points).collect::<Vec<_>>(),
                    "{points} points in {of}"
                );
            }
        }
        assert_eq!(Shard { index: 2, of: 2 }.range(5), 2..5);
        assert!(
            Shard { index: 1, of: 3 }.writes_header() && !Shard { index: 2, of: 3 }.writes_header()
        );
    }

    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(Spread::of([3.0, 1.0, 2.0]).map(|s| s.median), Some(2.0));
        assert_eq!(
            Spread::of([4.0, 1.0, 2.0, 3.0]).map(|s| s.median),
            Some(2.5)
        );
        assert_eq!(Spread::of([f64::NAN]), None);
        let s = Spread::of([5.0, 1.0, 9.0]).unwrap_or(Spread {
            median: 0.0,
            min: 0.0,
            max: 0.0,
        });
        assert_eq!((s.min, s.max), (1.0, 9.0));
    }

    /// The fields of one CSV line, read as RFC 4180 reads them.
    fn fields(line: &str) -> Vec<String> {
        let (mut out, mut field, mut quoted, mut chars) =
            (Vec::new(), String::new(), false, line.chars().peekable());
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', true) if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                ('"', _) => quoted = !quoted,
                (',', false) => out.push(std::mem::take(&mut field)),
                _ => field.push(c),
            }
        }
        out.push(field);
        out
    }

    #[test]
    fn a_value_with_a_comma_or_a_quote_is_one_quoted_field() {
        let row = |value: &str| SweepRow {
            value: value.to_string(),
            runs: 1,
            goodput_mbps: None,
            completion_ms: Some(Spread {
                median: 210.0,
                min: 210.0,
                max: 210.0,
            }),
            p99_ms: None,
            retrans_pct: None,
            share: None,
            jain: None,
            prediction: Prediction::CompletionMs(100.0),
            measured_over_theory: Some(2.1),
        };
        let csv = table_csv(Key::Drop, &[row("5,9"), row("7"), row("a\"b")]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[1], "drop,\"5,9\",1,,,,210,,,100,ms,2.1,,");
        assert_eq!(lines[2], "drop,7,1,,,,210,,,100,ms,2.1,,");
        assert_eq!(lines[3], "drop,\"a\"\"b\",1,,,,210,,,100,ms,2.1,,");
        let columns = fields(lines[0]).len();
        assert_eq!(columns, 14);
        for (line, value) in lines[1..].iter().zip(["5,9", "7", "a\"b"]) {
            let f = fields(line);
            assert_eq!(f.len(), columns, "{line}");
            assert_eq!(f[1], value);
        }
    }

    #[test]
    fn a_row_of_one_flow_s_value_shows_that_flow_s_value_and_share() {
        let s =
            Scenario::parse("flows=2&cc=reno&rtt=20,80&bw=20&app=bulk&dur=3").unwrap_or_default();
        let runs = [crate::run(&s, &crate::RunOptions::default()).summary];
        let g = &runs[0].per_flow_goodput_MBps;
        let row = SweepRow::new(Key::Rtt, &s, &runs, Some(1));
        assert_eq!(row.value, "80");
        assert_eq!(row.share.map(|x| x.median), Some(g[1] / (g[0] + g[1])));
        let every = SweepRow::new(Key::Rtt, &s, &runs, None);
        assert_eq!(every.value, "20,80");
        assert_eq!(every.share.map(|x| x.median), Some(g[0] / (g[0] + g[1])));
        assert_eq!(every.jain.map(|x| x.median), runs[0].jain_fairness);
    }

    #[test]
    fn a_flow_s_share_needs_two_flows_and_some_goodput() {
        assert_eq!(share_of(&[3.0, 1.0], 0), Some(0.75));
        assert_eq!(share_of(&[3.0, 1.0], 1), Some(0.25));
        assert_eq!(share_of(&[3.0, 1.0], 2), None);
        assert_eq!(share_of(&[3.0], 0), None);
        assert_eq!(share_of(&[0.0, 0.0], 0), None);
    }

    #[test]
    fn the_theory_follows_the_knob() {
        let lossy = Scenario::parse("preset=loss-sweep").unwrap_or_default();
        let Prediction::GoodputMbps(MBytePerS(m)) = prediction(&lossy) else {
            panic!("a rate for a bulk flow");
        };
        assert!(
            (m - 10.0).abs() < 0.05,
            "Mathis at 1 %, 20 ms, MSS 16332: {m}"
        );
        let body = Scenario::default();
        assert!(matches!(prediction(&body), Prediction::CompletionMs(t) if t > 200.0 && t < 300.0));
    }

    #[test]
    fn each_flow_has_its_own_window_and_all_share_the_link() {
        let rate = |q: &str| match prediction(&Scenario::parse(q).unwrap_or_default()) {
            Prediction::GoodputMbps(m) => m.0,
            Prediction::CompletionMs(_) => panic!("{q}: a rate for a bulk flow"),
        };
        // 64 KiB over 100 ms: 0.65536 MB/s a flow, well under the 1 Gbit/s link.
        let one = rate("app=bulk&rtt=100&rwnd=65536");
        assert!((one - 0.65536).abs() < 1e-9, "{one}");
        let four = rate("app=bulk&rtt=100&rwnd=65536&flows=4");
        assert!((four - 4.0 * 0.65536).abs() < 1e-9, "{four}");
        // A 10 Mbit/s link caps the four together.
        let link = rate("app=bulk&rtt=100&rwnd=65536&flows=4&bw=10");
        assert!(link < 4.0 * 0.65536 && (link - rate("app=bulk&bw=10")).abs() < 1e-9);
    }
}
