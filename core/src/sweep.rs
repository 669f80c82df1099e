//! Sweeps: one knob over several values, several seeds each, summarised as seed 000's table:
//! the median and spread of each value's runs beside the theory for that knob. The runner's
//! `sweep --table` and the page's sweep view both build their rows here, so they agree.

use serde::{Deserialize, Serialize};

use crate::metrics::stats::quantile;
use crate::metrics::summary::Summary;
use crate::rate::MBytePerS;
use crate::scenario::{App, Key, Scenario};
use crate::sim::Stop;
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

/// The median of a value's completion times over its seeds. A run that reached `dur` before
/// its workload was done took longer than `dur` (from its first SYN), and every run that
/// finished took less, so an unfinished run counts as longer than any finished one: leaving it
/// out would give the median of the lucky seeds alone (one finished run of three read as the
/// median).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeMedian {
    /// The median lands on finished runs: their time, ms.
    Ms(f64),
    /// The median lands on an unfinished run, or halfway between the slowest finished run and
    /// an unfinished one (an even count): it is more than this, ms.
    MoreThan(f64),
}

impl TimeMedian {
    /// The median of the `finished` times (ms) and of `unfinished` runs that each took more
    /// than `limit_ms`; `None` without a run.
    pub fn of(
        finished: impl IntoIterator<Item = f64>,
        unfinished: usize,
        limit_ms: f64,
    ) -> Option<TimeMedian> {
        let mut v: Vec<f64> = finished.into_iter().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        let n = v.len() + unfinished;
        if n == 0 {
            return None;
        }
        // The ranks of the median in all the runs, the unfinished ones last.
        let (lo, hi) = ((n - 1) / 2, n / 2);
        match (v.get(lo), v.get(hi)) {
            (Some(a), Some(b)) => Some(TimeMedian::Ms((a + b) / 2.0)),
            // The upper middle did not finish: it took more than the limit, so the mean of the
            // two is more than their mean with the limit in its place.
            (Some(a), None) => Some(TimeMedian::MoreThan((a + limit_ms.max(*a)) / 2.0)),
            _ => Some(TimeMedian::MoreThan(limit_ms)),
        }
    }
}

/// What a run that reached `dur` with its workload undone took at least, ms: its completion
/// time counts from the first SYN, sent as the first flow starts.
pub fn unfinished_at_least_ms(s: &Scenario) -> f64 {
    let first = s
        .flow_specs()
        .iter()
        .map(|f| f.start_s)
        .fold(f64::INFINITY, f64::min);
    let first = if first.is_finite() { first } else { 0.0 };
    ((s.dur_s - first) * 1e3).max(0.0)
}

/// Whether the scenario's workload can finish (a body, or messages over connections), so that
/// its runs either finish or reach `dur` unfinished; a bulk flow, or datagrams, run to `dur`.
pub fn has_an_end(s: &Scenario) -> bool {
    match s.app {
        App::Body => true,
        App::Msgs => s.conns > 0,
        App::Bulk => false,
    }
}

/// One row of the table: a value of the knob over its seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepRow {
    /// The value as the canonical query writes it.
    pub value: String,
    pub runs: usize,
    pub goodput_mbps: Option<Spread>,
    /// The completion time's median ([`TimeMedian`]), where it lands on finished runs, and the
    /// least and most of the finished runs; `None` where it lands on an unfinished run
    /// (`completion_median_exceeds_ms` then bounds it) or no run has a completion time.
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
    /// Runs whose workload finished within `dur`; `None` for a workload without an end
    /// (`app=bulk`, datagrams).
    #[serde(default)]
    pub finished: Option<usize>,
    /// What a run that did not finish took at least, ms ([`unfinished_at_least_ms`]); given
    /// with `finished`.
    #[serde(default)]
    pub time_limit_ms: Option<f64>,
    /// Where the completion median lands on an unfinished run: it is more than this, ms.
    #[serde(default)]
    pub completion_median_exceeds_ms: Option<f64>,
    /// That bound over the prediction, where the prediction is a completion time: the ratio
    /// is more than this.
    #[serde(default)]
    pub measured_over_theory_exceeds: Option<f64>,
}

/// The figures of one run that a sweep's row is made of: all a table keeps of a run, so that a
/// sweep's memory grows by these few numbers per seed, not by whole summaries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunFigures {
    pub goodput_mbps: Option<f64>,
    pub completion_ms: Option<f64>,
    /// The run reached `dur` before its workload was done (the summary's
    /// `time_limit_reached`): it has no completion time, but took longer than `dur`.
    pub unfinished: bool,
    pub p99_ms: Option<f64>,
    pub retrans_pct: Option<f64>,
    pub share: Option<f64>,
    pub jain: Option<f64>,
}

impl RunFigures {
    /// The figures of run `r`; `flow` (0-based) is the flow whose share is kept.
    pub fn of(r: &Summary, flow: usize) -> RunFigures {
        RunFigures {
            // A run that delivered nothing by `dur` has no goodput in its summary (there is no
            // span to divide by), but its goodput was nothing: left out, it would lift the
            // median to the seeds that got through.
            goodput_mbps: r
                .goodput_MBps
                .or((r.stopped_by == Stop::TimeLimit).then_some(0.0)),
            completion_ms: r.completion_ms,
            unfinished: r.time_limit_reached,
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
        let done = || runs.iter().filter_map(|r| r.completion_ms);
        let unfinished = runs.iter().filter(|r| r.unfinished).count();
        let limit = unfinished_at_least_ms(s);
        let median = TimeMedian::of(done(), unfinished, limit);
        // The finished runs' spread, with the median over every run that finished or ran out
        // of time.
        let completion = match (median, Spread::of(done())) {
            (Some(TimeMedian::Ms(m)), Some(spread)) => Some(Spread {
                median: m,
                ..spread
            }),
            _ => None,
        };
        let exceeds = match median {
            Some(TimeMedian::MoreThan(b)) => Some(b),
            _ => None,
        };
        let ends = has_an_end(s);
        let prediction = prediction(s);
        let finite = |r: f64| Some(r).filter(|r| r.is_finite());
        let (ratio, ratio_exceeds) = match prediction {
            Prediction::GoodputMbps(t) => (goodput.and_then(|g| finite(g.median / t.0)), None),
            Prediction::CompletionMs(t) => (
                completion.and_then(|c| finite(c.median / t)),
                exceeds.and_then(|b| finite(b / t)),
            ),
        };
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
            finished: ends.then(|| done().count()),
            time_limit_ms: ends.then_some(limit),
            completion_median_exceeds_ms: exceeds,
            measured_over_theory_exceeds: ratio_exceeds,
        }
    }
}

/// The table's header line.
pub const TABLE_HEADER: &str =
    "key,value,runs,goodput_median_MBps,goodput_min_MBps,goodput_max_MBps,\
completion_median_ms,p99_median_ms,retrans_median_pct,theory,theory_unit,measured_over_theory,\
share_median,jain_median,finished,completion_median_exceeds_ms,measured_over_theory_exceeds\n";

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
        "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
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
        r.finished.map(|n| n.to_string()).unwrap_or_default(),
        f(r.completion_median_exceeds_ms),
        f(r.measured_over_theory_exceeds),
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
            finished: Some(1),
            time_limit_ms: Some(10_000.0),
            completion_median_exceeds_ms: None,
            measured_over_theory_exceeds: None,
        };
        let csv = table_csv(Key::Drop, &[row("5,9"), row("7"), row("a\"b")]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[1], "drop,\"5,9\",1,,,,210,,,100,ms,2.1,,,1,,");
        assert_eq!(lines[2], "drop,7,1,,,,210,,,100,ms,2.1,,,1,,");
        assert_eq!(lines[3], "drop,\"a\"\"b\",1,,,,210,,,100,ms,2.1,,,1,,");
        let columns = fields(lines[0]).len();
        assert_eq!(columns, 17);
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
    fn an_unfinished_run_counts_as_longer_than_every_finished_one() {
        let of = |done: &[f64], unfinished| TimeMedian::of(done.iter().copied(), unfinished, 10e3);
        // One finished run of three: the median is an unfinished run's, not the lucky one's.
        assert_eq!(of(&[9137.0], 2), Some(TimeMedian::MoreThan(10e3)));
        // Two of three: the slower finished run is the middle one.
        assert_eq!(of(&[9137.0, 4000.0], 1), Some(TimeMedian::Ms(9137.0)));
        // Two of four: halfway between 9 s and an unfinished run is more than 9.5 s.
        assert_eq!(of(&[9000.0, 4000.0], 2), Some(TimeMedian::MoreThan(9500.0)));
        assert_eq!(of(&[3.0, 1.0, 2.0, 4.0], 0), Some(TimeMedian::Ms(2.5)));
        assert_eq!(of(&[], 3), Some(TimeMedian::MoreThan(10e3)));
        assert_eq!(of(&[], 0), None);
        let late = Scenario::parse("flows=2&start=2,0.5&dur=10").unwrap_or_default();
        assert_eq!(unfinished_at_least_ms(&late), 9500.0);
    }

    /// Seeds 1 to 3 of a 1 MB body under 1 % loss, with `dur` at `dur_s`.
    fn three_seeds(dur_s: f64) -> (Scenario, Vec<Summary>) {
        let mut s =
            Scenario::parse("rtt=150&bw=100&rwnd=65536&body=1MB&loss=1").unwrap_or_default();
        s.dur_s = dur_s;
        let runs = (0..3)
            .map(|k| {
                let mut seed = s.clone();
                seed.seed += k;
                crate::run(&seed, &crate::RunOptions::summary_only()).summary
            })
            .collect();
        (s, runs)
    }

    #[test]
    fn a_sweep_with_a_short_dur_counts_the_seeds_that_ran_out_of_time() {
        // The seeds' times with time to spare; a shorter `dur` cuts the same runs short.
        let (_, full) = three_seeds(60.0);
        let mut t: Vec<f64> = full.iter().filter_map(|r| r.completion_ms).collect();
        t.sort_by(f64::total_cmp);
        assert_eq!(t.len(), 3, "every seed finishes in 60 s");
        assert!(t[0] < t[1] && t[1] < t[2], "{t:?}");
        let ideal = match prediction(&three_seeds(1.0).0) {
            Prediction::CompletionMs(ms) => ms,
            Prediction::GoodputMbps(_) => panic!("a body's theory is a time"),
        };

        // Only the fastest seed finishes: the median is an unfinished run, more than dur.
        let dur = (t[0] + t[1]) / 2e3;
        let (s, runs) = three_seeds(dur);
        let row = SweepRow::new(Key::Loss, &s, &runs, None);
        assert_eq!(row.finished, Some(1));
        assert_eq!(row.completion_ms, None, "not the one finished run's time");
        assert_eq!(row.completion_median_exceeds_ms, Some(dur * 1e3));
        assert_eq!(row.measured_over_theory, None);
        assert_eq!(row.measured_over_theory_exceeds, Some(dur * 1e3 / ideal));
        assert!(
            row.goodput_mbps.is_some(),
            "an unfinished run has a goodput"
        );
        let line = table_row(Key::Loss, &row);
        let f = fields(line.trim_end());
        let head = fields(TABLE_HEADER.trim_end());
        let col = |name: &str| {
            head.iter()
                .position(|h| h == name)
                .and_then(|i| f.get(i))
                .cloned()
                .unwrap_or_default()
        };
        assert_eq!(f.len(), head.len());
        assert_eq!(col("runs"), "3");
        assert_eq!(col("finished"), "1");
        assert_eq!(col("completion_median_ms"), "");
        assert_eq!(
            col("completion_median_exceeds_ms"),
            format!("{}", dur * 1e3)
        );
        assert_eq!(col("measured_over_theory"), "");

        // Two of three: the median is the slower finished seed, not the mean of the two.
        let (s, runs) = three_seeds((t[1] + t[2]) / 2e3);
        let row = SweepRow::new(Key::Loss, &s, &runs, None);
        assert_eq!(row.finished, Some(2));
        assert_eq!(
            row.completion_ms.map(|c| (c.median, c.min, c.max)),
            Some((t[1], t[0], t[1]))
        );
        assert_eq!(row.completion_median_exceeds_ms, None);
        assert_eq!(row.measured_over_theory, Some(t[1] / ideal));

        // None finishes: the row says so (0 finished), and its median is more than dur.
        let dur = t[0] / 2e3;
        let (s, runs) = three_seeds(dur);
        let row = SweepRow::new(Key::Loss, &s, &runs, None);
        assert_eq!(row.finished, Some(0));
        assert_eq!(row.time_limit_ms, Some(dur * 1e3));
        assert_eq!(row.completion_median_exceeds_ms, Some(dur * 1e3));

        // The runner's path (a run's figures alone) gives the same row.
        let figures: Vec<RunFigures> = runs.iter().map(|r| RunFigures::of(r, 0)).collect();
        assert_eq!(SweepRow::of_figures(Key::Loss, &s, &figures, None), row);
    }

    #[test]
    fn a_run_that_delivered_nothing_by_dur_has_a_goodput_of_nothing() {
        // The handshake alone takes 150 ms.
        let s = Scenario::parse("rtt=150&dur=0.1").unwrap_or_default();
        let r = crate::run(&s, &crate::RunOptions::summary_only()).summary;
        assert_eq!(r.goodput_MBps, None);
        let f = RunFigures::of(&r, 0);
        assert_eq!((f.goodput_mbps, f.unfinished), (Some(0.0), true));
        let bulk = SweepRow::new(
            Key::Rtt,
            &Scenario::parse("app=bulk").unwrap_or_default(),
            &[],
            None,
        );
        assert_eq!(
            (bulk.finished, bulk.time_limit_ms),
            (None, None),
            "a bulk flow has no end"
        );
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
