//! The sweep's chart: the metric against the knob on log axes, every seed's run as a faint dot,
//! the median of each value bold and joined, the spread over the seeds as whiskers, and the
//! theory's curve dashed and named by its formula (or, where there is none, why). A completion
//! time a run never reached (it ran out of `dur`) is an upward triangle at the time limit: the
//! run took more than that, and so does a median that lands on it.

use plotters::prelude::*;
use tcplab::scenario::Key;
use tcplab::Scenario;

use super::data::{self, Point};
use crate::charts::canvas::Drawing;
use crate::charts::fmt;
use crate::charts::legend::{Item, Swatch};
use crate::charts::style::{Style, ACCENT, MATHIS};
use crate::charts::xy::{self, Axis};
use crate::charts::Root;
use crate::i18n::Lang;
use crate::model::knobs::knob_of;
use crate::model::views::Metric;

pub struct SweepChart {
    pub base: Scenario,
    pub key: Key,
    /// The swept flow (0-based), when the knob is one flow's alone.
    pub flow: Option<usize>,
    pub metric: Metric,
    pub points: Vec<Point>,
    pub lang: Lang,
}

/// The knob's name and unit for an axis: `loss (%)`, `body size (bytes)`.
pub fn key_desc(key: Key, lang: Lang) -> String {
    let (label, unit) = knob_of(key).map_or((key.name(), ""), |k| (k.label(lang), k.unit(lang)));
    let unit = match key {
        Key::Body | Key::Rwnd => lang.pick("bytes", "字节"),
        Key::Flows | Key::Conns => "",
        _ => unit,
    };
    if unit.is_empty() {
        label.to_string()
    } else {
        format!("{label} ({unit})")
    }
}

/// A value of the knob as a tick reads it: bytes in kB and MB, the rest in three digits.
pub fn key_tick(key: Key, v: f64) -> String {
    match key {
        Key::Body | Key::Rwnd => fmt::bytes(v),
        _ => fmt::sig(v),
    }
}

/// `c` at opacity `a` over white: a legend's swatch for a translucent mark.
pub fn pale(c: RGBColor, a: f64) -> RGBColor {
    let mix = |v: u8| (255.0 - (255.0 - f64::from(v)) * a).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

pub fn metric_desc(metric: Metric, lang: Lang) -> String {
    match metric.unit() {
        "" => metric.label(lang).to_string(),
        unit => format!("{} ({unit})", metric.label(lang)),
    }
}

/// The swept knob as an axis names it: `RTT (ms)`, or one flow's, `RTT (ms) of flow 2`.
pub fn axis_desc(key: Key, flow: Option<usize>, lang: Lang) -> String {
    let desc = key_desc(key, lang);
    match (flow, lang) {
        (None, _) => desc,
        (Some(f), Lang::En) => format!("{desc} of flow {}", f + 1),
        (Some(f), Lang::Zh) => format!("流 {} 的{desc}", f + 1),
    }
}

/// An upward triangle at `p`: "more than this".
fn more_than(
    root: &Root,
    frame: &crate::charts::frame::Frame,
    p: (f64, f64),
    r: i32,
    style: ShapeStyle,
) -> Result<(), String> {
    match xy::at(frame, p) {
        Some(px) => root
            .draw(&TriangleMarker::new(px, r, style))
            .map_err(|e| e.to_string()),
        None => Ok(()),
    }
}

impl SweepChart {
    /// Where a point's unfinished runs stand on a completion chart: the time they ran out of
    /// (`None` on any other metric, where an unfinished run has its value).
    fn limit(&self, p: &Point) -> Option<f64> {
        (self.metric == Metric::Completion)
            .then(|| p.row.as_ref().and_then(|r| r.time_limit_ms))
            .flatten()
            .filter(|_| p.unfinished.iter().any(|u| *u))
    }

    /// The median that lands on unfinished runs: more than this.
    fn median_bound(&self, p: &Point) -> Option<f64> {
        (self.metric == Metric::Completion)
            .then(|| p.row.as_ref().and_then(|r| r.completion_median_exceeds_ms))
            .flatten()
    }
}

impl Drawing for SweepChart {
    fn draw(&self, root: &Root, st: &Style) -> Result<(), String> {
        let lang = self.lang;
        let xs: Vec<f64> = self
            .points
            .iter()
            .filter_map(|p| p.x)
            .filter(|x| *x > 0.0)
            .collect();
        let (xlo, xhi) = xy::range(xs.iter().copied(), true);
        // The theory speaks of every flow alike: one flow's value alone has no curve.
        let curve = match self.flow {
            None => data::theory_curve(&self.base, self.key, self.metric, xlo, xhi),
            Some(_) => Vec::new(),
        };
        let log_y = self.metric != Metric::Retrans && !self.metric.is_fraction();
        let ys = self
            .points
            .iter()
            .flat_map(|p| p.seeds.iter().flatten().copied().chain(self.limit(p)))
            .chain(curve.iter().map(|c| c.1));
        let (ylo, yhi) = if self.metric.is_fraction() {
            (0.0, 1.0)
        } else {
            xy::range(ys, log_y)
        };

        let mut items = vec![
            Item::new(
                Swatch::Dot(pale(ACCENT, 0.35)),
                lang.pick("each seed's run", "每个种子的运行"),
            ),
            Item::new(
                Swatch::Line(ACCENT, 2.4),
                lang.pick("median over the seeds", "各种子的中位数"),
            ),
            Item::new(
                Swatch::Line(pale(ACCENT, 0.6), 1.2),
                lang.pick("least to most (whiskers)", "最小到最大（须线）"),
            ),
        ];
        let name = data::theory_name(&self.base, self.key, self.metric, lang);
        if let (Some(name), false) = (name, curve.is_empty()) {
            items.push(Item::new(Swatch::Dashed(MATHIS, 1.8), name));
        }
        if self.points.iter().any(|p| self.limit(p).is_some()) {
            items.push(Item::new(
                Swatch::Triangle(pale(ACCENT, 0.35)),
                lang.pick(
                    "a run unfinished at dur: it took more than this",
                    "到 dur 仍未完成的运行：用时超过此值",
                ),
            ));
        }
        if self.points.iter().any(|p| self.median_bound(p).is_some()) {
            items.push(Item::new(
                Swatch::Triangle(ACCENT),
                lang.pick(
                    "median on unfinished runs: more than this",
                    "中位数落在未完成的运行上：超过此值",
                ),
            ));
        }
        if let Some(why) = data::theory_note(&self.base, self.metric, self.flow, lang) {
            items.push(Item::new(Swatch::Block(crate::charts::style::GRID), why));
        }
        let zero = self.points.iter().any(|p| p.x == Some(0.0));
        if zero {
            items.push(Item::new(
                Swatch::Block(crate::charts::style::GRID),
                lang.pick(
                    "0 is in the table, not on the log axis",
                    "0 只在表中，不在对数轴上",
                ),
            ));
        }
        let xtick = |v: f64| key_tick(self.key, v);
        let ytick = |v: f64| fmt::sig(v);
        let frame = xy::frame(
            root,
            st,
            &items,
            &Axis {
                lo: xlo,
                hi: xhi,
                log: true,
                desc: axis_desc(self.key, self.flow, lang),
                tick: &xtick,
            },
            &Axis {
                lo: ylo,
                hi: yhi,
                log: log_y,
                desc: metric_desc(self.metric, lang),
                tick: &ytick,
            },
        )?;

        xy::line(
            root,
            st,
            &frame,
            &curve,
            MATHIS.stroke_width(st.stroke(1.8)),
            Some((6.0, 4.0)),
        )?;
        let faint = ACCENT.mix(0.35).filled();
        let r_seed = st.px(2.6).max(2);
        for p in &self.points {
            let Some(x) = p.x else { continue };
            for y in p.seeds.iter().flatten() {
                xy::dot(root, &frame, (x, *y), r_seed, faint)?;
            }
            let limit = self.limit(p);
            if let Some(l) = limit {
                for _ in p.unfinished.iter().filter(|u| **u) {
                    more_than(root, &frame, (x, l), r_seed + 1, faint)?;
                }
            }
            // The spread runs up to the time limit where a run did not finish.
            let spread = p
                .row
                .as_ref()
                .and_then(|r| data::spread(r, self.metric))
                .map(|s| (s.min, limit.map_or(s.max, |l| l.max(s.max))))
                .or(limit.map(|l| (l, l)));
            let shown = p.seeds.iter().flatten().count() + usize::from(limit.is_some());
            if let (Some(range), true) = (spread, shown > 1) {
                xy::whisker(
                    root,
                    st,
                    &frame,
                    x,
                    range,
                    ACCENT.mix(0.6).stroke_width(st.stroke(1.2)),
                )?;
            }
        }
        let medians: Vec<(f64, f64)> = self
            .points
            .iter()
            .filter_map(|p| {
                let m = p
                    .row
                    .as_ref()
                    .and_then(|r| data::spread(r, self.metric))?
                    .median;
                Some((p.x?, m))
            })
            .collect();
        xy::line(
            root,
            st,
            &frame,
            &medians,
            ACCENT.stroke_width(st.stroke(2.4)),
            None,
        )?;
        let r_med = st.px(4.0).max(3);
        for m in &medians {
            xy::dot(root, &frame, *m, r_med, ACCENT.filled())?;
        }
        for p in &self.points {
            if let (Some(x), Some(b)) = (p.x, self.median_bound(p)) {
                more_than(root, &frame, (x, b), r_med + 1, ACCENT.filled())?;
            }
        }
        Ok(())
    }
}
