//! The frame every time chart shares: the legend above, the time axis below over [0, end], a
//! value axis on the left and the same values in a second unit on the right. The areas beside
//! the plot have fixed widths, so the time axes of the charts line up down the page.

use std::ops::Range;

use plotters::chart::DualCoordChartContext;
use plotters::coord::ranged1d::{BoldPoints, KeyPointHint, NoDefaultFormatting, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

use super::fmt::TimeUnit;
use super::frame::{Frame, Scale};
use super::legend::{self, Item};
use super::style::{Style, AXIS, GRID, INK};
use super::{err, Root};
use crate::i18n::Lang;

pub type Xy = Cartesian2d<RangedCoordf64, RangedCoordf64>;
pub type TimeChart<'a> =
    DualCoordChartContext<'a, super::Backend, Cartesian2d<TimeAxis, RangedCoordf64>, Xy>;

/// A time axis over `[lo, end]` whose ticks are chosen before the chart is built
/// ([`time_ticks`]), where plotters' own would leave the run's end unnamed.
#[derive(Clone)]
pub struct TimeAxis {
    inner: RangedCoordf64,
    ticks: Vec<f64>,
}

impl Ranged for TimeAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        self.inner.map(value, limit)
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        // The light grid stays off (`max_light_lines(0)`): only the labelled ticks are drawn.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.inner.range()
    }
}

impl ValueFormatter<f64> for TimeAxis {
    fn format(value: &f64) -> String {
        RangedCoordf64::format(value)
    }
}

/// The left axis, and the right one as a multiple of it.
pub struct YAxis<'f> {
    /// The axis's lowest value: 0, or what a zoomed chart has in view.
    pub bottom: f64,
    pub top: f64,
    pub desc: String,
    pub tick: &'f dyn Fn(f64) -> String,
    pub right: Option<Right>,
}

/// A second unit for the same values: right = left × factor.
pub struct Right {
    pub factor: f64,
    pub desc: String,
}

/// The end of the shared time axis: the run's end, or 1 ms for a run that has none.
pub fn time_end(end_ms: f64) -> f64 {
    if end_ms.is_finite() && end_ms > 0.0 {
        end_ms
    } else {
        1.0
    }
}

/// The fewest ticks an axis asks for: with three, plotters' steps of 1, 2 and 5 and
/// [`nice_ticks_between`]'s give every span starting at 0 two labelled ticks at least.
pub const MIN_TICKS: i32 = 3;

/// The fewest ticks a time axis asks for. Its labels are short ("0", "20"), and asked for
/// three, plotters labelled a phone's 30 s run 0 and 20 alone, its end unnamed; four name the
/// end of a 3, 6, 15, 30, 60, 300 or 600 s run too, and of every run three did.
pub const MIN_TIME_TICKS: i32 = 4;

/// The ticks of a time axis over `[lo, end]`, about `asked` of them: plotters' own (steps of 1,
/// 2 or 5 times a power of ten, `asked` at most) where they name the axis's end, as they do for
/// most runs; otherwise, for an axis from 0 to a round end, the steps that divide the end
/// exactly: a phone's two-minute run reads 0, 30, 60, 90, 120 rather than 0, 50, 100 and
/// leaves no reader to guess where it stops. A step of 1.5, 2.5 or 3 times a power of ten
/// counts as one tick further from `asked` than 1, 2 or 5; of two as near, the one with more
/// ticks; `fits` says whether a set of ticks' labels fit side by side.
pub fn time_ticks(lo: f64, end: f64, asked: usize, fits: impl Fn(&[f64]) -> bool) -> Vec<f64> {
    let own = RangedCoordf64::from(lo..end).key_points(BoldPoints(asked));
    if lo != 0.0 || own.last() == Some(&end) || !(end.is_finite() && end > 0.0) {
        return own;
    }
    let mag = 10f64.powf(end.log10().floor());
    let mut best: Option<(f64, usize, Vec<f64>)> = None;
    for scale in [mag / 100.0, mag / 10.0, mag] {
        for (m, plain) in [
            (1.0, true),
            (1.5, false),
            (2.0, true),
            (2.5, false),
            (3.0, false),
            (5.0, true),
        ] {
            let step = m * scale;
            let n = end / step;
            let whole = n.round();
            if (n - whole).abs() > 1e-9 * n || whole < 2.0 || whole > (2 * asked) as f64 {
                continue;
            }
            let count = whole as usize + 1;
            let ticks: Vec<f64> = (0..count).map(|i| i as f64 * step).collect();
            if !fits(&ticks) {
                continue;
            }
            let cost = count.abs_diff(asked) as f64 + if plain { 0.0 } else { 1.0 };
            let better = best
                .as_ref()
                .is_none_or(|(c, k, _)| cost < *c || (cost == *c && count > *k));
            if better {
                best = Some((cost, count, ticks));
            }
        }
    }
    match best {
        Some((_, _, ticks)) => ticks,
        None => nearer_the_end(end, asked, own, &fits),
    }
}

/// Where no round step divides the run's end (805 ms): plotters' ticks, or, where they leave
/// more than a quarter of the axis unlabelled after the last (0 and 500 alone on a phone), the
/// fewest more of its steps that come within a quarter of the end and fit (0, 200, ... 800).
fn nearer_the_end(
    end: f64,
    asked: usize,
    own: Vec<f64>,
    fits: &impl Fn(&[f64]) -> bool,
) -> Vec<f64> {
    let tail = |t: &[f64]| end - t.last().copied().unwrap_or(0.0);
    if tail(&own) <= 0.25 * end {
        return own;
    }
    (asked + 1..=2 * asked)
        .map(|k| RangedCoordf64::from(0.0..end).key_points(BoldPoints(k)))
        .find(|t| tail(t) <= 0.25 * end && fits(t))
        .unwrap_or(own)
}

/// Whether the labels of `ticks` fit side by side on a plot `plot_w` device pixels wide.
/// Estimated rather than measured, so that the first screen rendered when the page is built and
/// the page's own charts choose the same ticks: a digit is about 0.55 em wide.
fn labels_fit(ticks: &[f64], plot_w: i32, st: &Style, label: &dyn Fn(&f64) -> String) -> bool {
    let chars = ticks.iter().map(|v| label(v).chars().count()).max();
    let width = chars.unwrap_or(0) as f64 * 0.55 * 0.95 * st.font_css * st.dpr;
    ticks.len() as f64 * (width + f64::from(st.px(14.0))) <= f64::from(plot_w)
}

/// Device pixels between the canvas's top and the legend.
fn legend_top(st: &Style) -> i32 {
    st.px(4.0)
}

/// Lays out the legend, the axes and the grid, and returns the chart to draw series on with
/// where its plotting area landed. `band` reserves that many device pixels between the legend
/// and the plot for a strip such as BBR's modes; it ends `gap(st)` above the plot.
pub fn time_chart<'a>(
    root: &'a Root,
    st: &Style,
    lang: Lang,
    (lo, end): (f64, f64),
    y: &YAxis,
    items: &[Item],
    band: i32,
) -> Result<(TimeChart<'a>, Frame), String> {
    let end = if end > lo { end } else { time_end(end) };
    let top = if y.top.is_finite() && y.top > 0.0 {
        y.top
    } else {
        1.0
    };
    let bottom = if y.bottom.is_finite() && y.bottom >= 0.0 && y.bottom < top {
        y.bottom
    } else {
        0.0
    };
    let (w, h) = root.dim_in_pixel();
    let legend_h = legend_above(root, st, items)?;
    let margin_top = legend_top(st) + legend_h + st.px(8.0) + band;

    let unit = TimeUnit::for_span(end - lo);
    let (x0, x1) = plot_edges(w as i32, st);
    let plot_w = (x1 - x0).max(1);
    let plot_h = (h as i32 - margin_top - st.bottom_area() as i32).max(1);
    // Three at least on either axis: asked for two, plotters may give a single tick (0) and no
    // scale at all, as it did on a phone's time axis for a run of 4.03 s (0 to 4030 ms).
    let x_labels = (plot_w / st.px(90.0).max(1)).clamp(MIN_TIME_TICKS, 14) as usize;
    let y_labels = (plot_h / st.px(42.0).max(1)).clamp(MIN_TICKS, 8) as usize;
    let span = end - lo;
    let time_tick = |v: &f64| unit.tick_within(*v, span);
    let x = TimeAxis {
        inner: (lo..end).into(),
        ticks: time_ticks(lo, end, x_labels, |t| labels_fit(t, plot_w, st, &time_tick)),
    };
    let mut chart = builder(root, st, margin_top)
        .build_cartesian_2d(x, bottom..top)
        .map_err(err)?;
    let y_tick = |v: &f64| (y.tick)(*v);
    mesh(
        &mut chart,
        st,
        Ticks {
            count: x_labels,
            label: &time_tick,
            desc: unit.desc(lang),
        },
        Ticks {
            count: y_labels,
            label: &y_tick,
            desc: &y.desc,
        },
    )?;

    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let frame = Frame {
        x: Scale {
            lo,
            hi: end,
            log: false,
            px: xr,
        },
        y: Scale {
            lo: bottom,
            hi: top,
            log: false,
            px: yr,
        },
        size: (w, h),
    };

    if let Some(right) = &y.right {
        right_axis(root, st, &frame, right, y_labels)?;
    }
    let dual = chart.set_secondary_coord(lo..end, bottom..top);
    Ok((dual, frame))
}

/// The left and right edges of the plotting area in device pixels, on a canvas `w` device
/// pixels wide, known before the chart is laid out.
pub(super) fn plot_edges(w: i32, st: &Style) -> (i32, i32) {
    let x0 = (st.margin_left() + st.left_area()) as i32;
    let x1 = w - (st.margin_right() + st.right_area()) as i32;
    (x0, x1)
}

/// Draws the legend's rows from the canvas's top ([`legend::span`]); returns its height in
/// device pixels.
pub fn legend_above(root: &Root, st: &Style, items: &[Item]) -> Result<i32, String> {
    let (w, _) = root.dim_in_pixel();
    let (x0, x1) = legend::span(st, w as i32, plot_edges(w as i32, st));
    let height = legend::height(st, items, x0, x1);
    legend::draw(root, st, items, x0, x1, legend_top(st))?;
    Ok(height)
}

/// A chart builder with the margins and label areas every chart of the run shares, so that
/// their plots line up down the page; the plot starts `margin_top` device pixels down.
pub fn builder<'a, 'b>(
    root: &'a Root,
    st: &Style,
    margin_top: i32,
) -> ChartBuilder<'a, 'b, super::Backend> {
    let mut builder = ChartBuilder::on(root);
    builder
        .margin_top(margin_top.max(0) as u32)
        .margin_left(st.margin_left())
        // The right axis is drawn by `right_axis`: plotters would repeat the left one's labels
        // in a right label area too.
        .margin_right(st.margin_right() + st.right_area())
        .margin_bottom(st.upx(4.0))
        .x_label_area_size(st.bottom_area())
        .y_label_area_size(st.left_area());
    builder
}

/// One axis of a [`mesh`]: about how many labelled ticks, how a tick reads, the axis's name.
pub struct Ticks<'f, V> {
    pub count: usize,
    pub label: &'f dyn Fn(&V) -> String,
    pub desc: &'f str,
}

/// The grid and the axes with their ticks and names, drawn alike on every chart of the run.
pub fn mesh<X, Y>(
    chart: &mut ChartContext<'_, super::Backend, Cartesian2d<X, Y>>,
    st: &Style,
    x: Ticks<X::ValueType>,
    y: Ticks<Y::ValueType>,
) -> Result<(), String>
where
    X: Ranged + ValueFormatter<<X as Ranged>::ValueType>,
    Y: Ranged + ValueFormatter<<Y as Ranged>::ValueType>,
{
    chart
        .configure_mesh()
        .x_labels(x.count)
        .y_labels(y.count)
        .max_light_lines(0)
        .bold_line_style(GRID)
        .axis_style(st.line(AXIS, 1.0))
        .x_label_formatter(x.label)
        .y_label_formatter(y.label)
        .x_desc(x.desc)
        .y_desc(y.desc)
        .label_style(st.text(0.95, AXIS))
        .axis_desc_style(st.text(1.0, INK))
        .draw()
        .map_err(err)
}

/// Round values in `0..=hi`, about `n` of them: steps of 1, 2 or 5 times a power of ten.
pub fn nice_ticks(hi: f64, n: usize) -> Vec<f64> {
    nice_ticks_between(0.0, hi, n)
}

/// Round ticks from `lo` to `hi`, about `n` of them.
pub fn nice_ticks_between(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(hi.is_finite() && lo.is_finite() && hi > lo && lo >= 0.0) {
        return vec![0.0];
    }
    let raw = (hi - lo) / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last.min(first + 100))
        .map(|i| i as f64 * step)
        .collect()
}

/// The same values in a second unit on the right edge of the plot: ticks, labels, its name.
fn right_axis(
    root: &Root,
    st: &Style,
    frame: &Frame,
    right: &Right,
    n: usize,
) -> Result<(), String> {
    let factor = right.factor;
    if !(factor.is_finite() && factor > 0.0) {
        return Ok(());
    }
    let x = frame.right().round() as i32;
    let (top, bottom) = (frame.top().round() as i32, frame.bottom().round() as i32);
    root.draw(&PathElement::new(
        vec![(x, top), (x, bottom)],
        st.line(AXIS, 1.0),
    ))
    .map_err(err)?;
    let label = st.text(0.95, AXIS).pos(Pos::new(HPos::Left, VPos::Center));
    let ticks = nice_ticks_between(frame.y.lo * factor, frame.y.hi * factor, n);
    // The gap between ticks, not the second tick's value: a zoomed axis starts above 0.
    let step = match ticks.as_slice() {
        [a, b, ..] => b - a,
        _ => 1.0,
    };
    let last = ticks.last().copied().unwrap_or(0.0);
    for v in ticks {
        let Some(y) = frame.y.y_px(v / factor) else {
            continue;
        };
        let y = y.round() as i32;
        root.draw(&PathElement::new(
            vec![(x, y), (x + st.px(5.0), y)],
            st.line(AXIS, 1.0),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            super::fmt::compact(v, step, last),
            (x + st.px(8.0), y),
            label.clone(),
        ))
        .map_err(err)?;
    }
    let (w, _) = root.dim_in_pixel();
    let desc = st
        .text(1.0, INK)
        .transform(FontTransform::Rotate90)
        .pos(Pos::new(HPos::Center, VPos::Top));
    root.draw(&Text::new(
        right.desc.clone(),
        (
            w as i32 - st.margin_right() as i32 - st.px(16.0),
            (top + bottom) / 2,
        ),
        desc,
    ))
    .map_err(err)?;
    Ok(())
}

/// The plotting area's width in CSS pixels, known before the chart is laid out (the legend
/// changes only its height): the width series are thinned and binned for. Once laid out,
/// [`draw::plot_width`](super::draw::plot_width) reads the same from the frame.
pub fn plot_columns(root: &Root, st: &Style) -> f64 {
    let (w, _) = root.dim_in_pixel();
    let beside = st.margin_left() + st.left_area() + st.margin_right() + st.right_area();
    ((f64::from(w) - f64::from(beside)) / st.dpr).max(1.0)
}

/// The gap between a band reserved by [`time_chart`] and the plotting area.
pub fn gap(st: &Style) -> i32 {
    st.px(4.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::{BoldPoints, Ranged};
    use plotters::coord::types::RangedCoordf64;

    /// Spans from a millisecond to an hour, in steps of a hundredth of a decade.
    fn spans() -> impl Iterator<Item = f64> {
        (0..=660).map(|i| 10f64.powf(i as f64 / 100.0))
    }

    #[test]
    fn a_phones_time_axis_names_the_end_of_more_timed_runs_and_of_none_fewer() {
        let ends_labelled = |n: usize, s: u32| {
            let end = f64::from(s) * 1000.0;
            let axis: RangedCoordf64 = (0.0..end).into();
            axis.key_points(BoldPoints(n)).last() == Some(&end)
        };
        let (n, before) = (MIN_TIME_TICKS as usize, MIN_TICKS as usize);
        for s in [3, 6, 15, 30, 60, 300, 600] {
            assert!(
                ends_labelled(n, s) && !ends_labelled(before, s),
                "0 to {s} s"
            );
        }
        for s in 1..=600 {
            assert!(
                ends_labelled(n, s) || !ends_labelled(before, s),
                "0 to {s} s"
            );
        }
    }

    #[test]
    fn a_time_axis_names_a_round_end_that_plotters_steps_leave_unnamed() {
        // The chart of a 390 px phone: 200 CSS px of plot, asked for the fewest ticks.
        let st = Style::new(1.0, 16.0);
        let (plot_w, asked) = (st.px(200.0), MIN_TIME_TICKS as usize);
        let phone = |lo: f64, end: f64| {
            let label = |v: &f64| TimeUnit::for_span(end - lo).tick_within(*v, end - lo);
            let ticks = time_ticks(lo, end, asked, |t| labels_fit(t, plot_w, &st, &label));
            assert!(labels_fit(&ticks, plot_w, &st, &label), "{ticks:?}");
            ticks
        };
        let plotters =
            |lo: f64, end: f64| RangedCoordf64::from(lo..end).key_points(BoldPoints(asked));
        let seconds = |v: &[u32]| v.iter().map(|s| f64::from(*s) * 1000.0).collect::<Vec<_>>();
        for (s, want) in [
            (5, seconds(&[0, 1, 2, 3, 4, 5])),
            (8, seconds(&[0, 2, 4, 6, 8])),
            (25, seconds(&[0, 5, 10, 15, 20, 25])),
            (45, seconds(&[0, 15, 30, 45])),
            (50, seconds(&[0, 10, 20, 30, 40, 50])),
            (90, seconds(&[0, 30, 60, 90])),
            (120, seconds(&[0, 30, 60, 90, 120])),
        ] {
            let end = f64::from(s) * 1000.0;
            assert_ne!(
                plotters(0.0, end).last(),
                Some(&end),
                "plotters, 0 to {s} s"
            );
            assert_eq!(phone(0.0, end), want, "0 to {s} s");
        }
        let mut named = (0, 0, 0);
        for s in 1..=600 {
            let end = f64::from(s) * 1000.0;
            let (ours, own) = (phone(0.0, end), plotters(0.0, end));
            if own.last() == Some(&end) {
                assert_eq!(
                    ours, own,
                    "0 to {s} s: plotters' ticks kept where they name the end"
                );
                named.0 += 1;
            } else if ours.last() == Some(&end) {
                assert!(ours.len() >= 3 && ours.len() <= 2 * asked + 1, "{ours:?}");
                named.1 += 1;
            } else {
                // No round step divides the end: plotters' ticks, made denser where they
                // left more than a quarter of the axis unlabelled.
                let tail = |t: &[f64]| end - t.last().copied().unwrap_or(0.0);
                if tail(&own) > 0.25 * end && ours != own {
                    assert!(
                        tail(&ours) <= 0.25 * end && ours.len() <= 2 * asked + 1,
                        "0 to {s} s: {ours:?}"
                    );
                    named.2 += 1;
                } else {
                    assert_eq!(ours, own, "0 to {s} s");
                }
            }
        }
        // Of the whole seconds to ten minutes, plotters named 17 ends; as many again now; and
        // where none is named, the ticks come within a quarter of the end on more axes.
        assert_eq!(
            (named.0, named.1),
            (17, 17),
            "ends named by plotters, and besides"
        );
        assert!(named.2 > 0, "{named:?}");
        // An end no round step divides: plotters' ticks if they come near it, else denser
        // ones; a zoomed axis keeps plotters' ticks.
        assert_eq!(phone(0.0, 4_700.0), plotters(0.0, 4_700.0));
        assert_eq!(phone(0.0, 5_500.0), seconds(&[0, 1, 2, 3, 4, 5]));
        assert_eq!(phone(0.0, 805.3), vec![0.0, 200.0, 400.0, 600.0, 800.0]);
        assert_eq!(phone(1_000.0, 9_000.0), plotters(1_000.0, 9_000.0));
    }

    #[test]
    fn asked_for_the_fewest_ticks_every_axis_from_0_gets_two_labels() {
        let n = MIN_TICKS as usize;
        for hi in spans() {
            let axis: RangedCoordf64 = (0.0..hi).into();
            let plotters = axis.key_points(BoldPoints(n));
            assert!(plotters.len() >= 2, "plotters, 0 to {hi}: {plotters:?}");
            let ours = nice_ticks_between(0.0, hi, n);
            assert!(ours.len() >= 2, "nice_ticks_between, 0 to {hi}: {ours:?}");
        }
    }
}
