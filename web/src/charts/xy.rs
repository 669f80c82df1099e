//! A value-against-value frame with linear or logarithmic axes, drawn in device pixels: the
//! legend above (as on the time charts), round ticks (1, 2 and 5 per decade on a log axis),
//! the grid, the axes' names; and lines, dashed lines, dots and whiskers placed through it.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

use super::axis::{nice_ticks, MIN_TICKS};
use super::frame::{Frame, Scale};
use super::legend::{self, Item};
use super::style::{Style, AXIS, GRID, INK};
use super::{err, Root};

/// One axis: its range, whether it is logarithmic, its name and how a tick reads.
pub struct Axis<'a> {
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
    pub desc: String,
    pub tick: &'a dyn Fn(f64) -> String,
}

/// The least a log axis spans, top over bottom.
const MIN_LOG_SPAN: f64 = 1.5;

/// A range that holds every value, padded, for a log axis (positive values only, spanning a
/// factor of [`MIN_LOG_SPAN`] at least) or a linear one from zero.
pub fn range(values: impl IntoIterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        if v.is_finite() && (!log || v > 0.0) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return if log { (1.0, 10.0) } else { (0.0, 1.0) };
    }
    if log {
        if hi <= lo * 1.0001 {
            (lo / 2.0, hi * 2.0)
        } else {
            let pad = (hi / lo).powf(0.06);
            let (lo, hi) = (lo / pad, hi * pad);
            // Values within a few per cent of each other are not spread over the whole height,
            // where a 1 % step would read as a cliff and no round value would fall to label.
            let short = (MIN_LOG_SPAN / (hi / lo)).sqrt();
            if short > 1.0 {
                (lo / short, hi * short)
            } else {
                (lo, hi)
            }
        }
    } else {
        (0.0, if hi > 0.0 { hi * 1.08 } else { 1.0 })
    }
}

/// Round ticks in `lo..=hi`.
pub fn ticks(lo: f64, hi: f64, log: bool, n: usize) -> Vec<f64> {
    if !log {
        return nice_ticks(hi, n).into_iter().filter(|v| *v >= lo).collect();
    }
    if !(lo > 0.0 && hi > lo && lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    let decades = (lo.log10().floor() as i32)..=(hi.log10().ceil() as i32);
    let pick = |ms: &[f64]| -> Vec<f64> {
        decades
            .clone()
            .flat_map(|k| ms.iter().map(move |m| m * 10f64.powi(k)))
            .filter(|v| *v >= lo * 0.999_999 && *v <= hi * 1.000_001)
            .collect()
    };
    let mut t = pick(&[1.0, 2.0, 5.0]);
    if t.len() > n + 2 {
        t = pick(&[1.0]);
    }
    if t.len() < 3 {
        t = pick(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
        if t.len() > n + 2 {
            t = pick(&[1.0, 3.0]);
        }
    }
    // Within a decade's part (9.1 to 12.3), evenly stepped round values, as on a linear axis:
    // 9, 10, 11, 12 rather than 10 alone.
    if t.len() < 3 {
        t = super::axis::nice_ticks_between(lo, hi, n.max(3))
            .into_iter()
            .filter(|v| *v > 0.0)
            .collect();
    }
    t
}

/// Lays out the legend, the frame, ticks and names; returns where the plot landed.
pub fn frame(root: &Root, st: &Style, items: &[Item], x: &Axis, y: &Axis) -> Result<Frame, String> {
    let (w, h) = root.dim_in_pixel();
    let x0 = (st.margin_left() + st.left_area()) as i32;
    let x1 = w as i32 - st.px(24.0);
    let (l0, l1) = legend::span(st, w as i32, (x0, x1));
    let legend_h = legend::height(st, items, l0, l1);
    legend::draw(root, st, items, l0, l1, st.px(4.0))?;
    let y0 = st.px(4.0) + legend_h + st.px(10.0);
    let y1 = h as i32 - st.bottom_area() as i32 - st.px(4.0);
    let frame = Frame {
        x: Scale {
            lo: x.lo,
            hi: x.hi,
            log: x.log,
            px: x0..x1.max(x0 + 1),
        },
        y: Scale {
            lo: y.lo,
            hi: y.hi,
            log: y.log,
            px: y0..y1.max(y0 + 1),
        },
        size: (w, h),
    };
    let (top, bottom) = (frame.top() as i32, frame.bottom() as i32);
    let (left, right) = (frame.left() as i32, frame.right() as i32);
    let label = st.text(0.95, AXIS);
    let nx = ((right - left) / st.px(70.0).max(1)).clamp(MIN_TICKS, 12) as usize;
    let ny = ((bottom - top) / st.px(40.0).max(1)).clamp(MIN_TICKS, 8) as usize;
    for v in ticks(x.lo, x.hi, x.log, nx) {
        let Some(px) = frame.x.x_px(v) else { continue };
        let px = px.round() as i32;
        root.draw(&PathElement::new(
            vec![(px, top), (px, bottom)],
            GRID.stroke_width(st.stroke(1.0)),
        ))
        .map_err(err)?;
        root.draw(&PathElement::new(
            vec![(px, bottom), (px, bottom + st.px(5.0))],
            st.line(AXIS, 1.0),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            (x.tick)(v),
            (px, bottom + st.px(8.0)),
            label.pos(Pos::new(HPos::Center, VPos::Top)),
        ))
        .map_err(err)?;
    }
    for v in ticks(y.lo, y.hi, y.log, ny) {
        let Some(py) = frame.y.y_px(v) else { continue };
        let py = py.round() as i32;
        root.draw(&PathElement::new(
            vec![(left, py), (right, py)],
            GRID.stroke_width(st.stroke(1.0)),
        ))
        .map_err(err)?;
        root.draw(&PathElement::new(
            vec![(left - st.px(5.0), py), (left, py)],
            st.line(AXIS, 1.0),
        ))
        .map_err(err)?;
        root.draw(&Text::new(
            (y.tick)(v),
            (left - st.px(8.0), py),
            label.pos(Pos::new(HPos::Right, VPos::Center)),
        ))
        .map_err(err)?;
    }
    root.draw(&PathElement::new(
        vec![(left, top), (left, bottom), (right, bottom)],
        st.line(AXIS, 1.0),
    ))
    .map_err(err)?;
    let desc = st.text(1.0, INK);
    root.draw(&Text::new(
        x.desc.clone(),
        ((left + right) / 2, h as i32 - st.px(4.0)),
        desc.pos(Pos::new(HPos::Center, VPos::Bottom)),
    ))
    .map_err(err)?;
    root.draw(&Text::new(
        y.desc.clone(),
        (st.px(4.0), (top + bottom) / 2),
        desc.transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Top)),
    ))
    .map_err(err)?;
    Ok(frame)
}

/// A point in device pixels, if it is on the frame's axes (a log axis has no zero).
pub fn at(frame: &Frame, (x, y): (f64, f64)) -> Option<(i32, i32)> {
    let px = frame.x.x_px(x)?;
    let py = frame.y.y_px(y)?;
    let inside = px >= frame.left() - 0.5
        && px <= frame.right() + 0.5
        && py >= frame.top() - 0.5
        && py <= frame.bottom() + 0.5;
    inside.then(|| (px.round() as i32, py.round() as i32))
}

/// A polyline through the points that are on the frame; `dash` in CSS pixels marks theory.
pub fn line(
    root: &Root,
    st: &Style,
    frame: &Frame,
    points: &[(f64, f64)],
    style: ShapeStyle,
    dash: Option<(f64, f64)>,
) -> Result<(), String> {
    let px: Vec<(i32, i32)> = points.iter().filter_map(|p| at(frame, *p)).collect();
    if px.len() < 2 {
        return Ok(());
    }
    match dash {
        None => root.draw(&PathElement::new(px, style)).map_err(err),
        Some((on, off)) => {
            let (on, off) = (f64::from(st.px(on).max(2)), f64::from(st.px(off).max(2)));
            // Walks the polyline, drawing `on` pixels and skipping `off`, across its corners.
            let mut drawing = true;
            let mut left = on;
            let mut piece = vec![px[0]];
            for pair in px.windows(2) {
                let (a, b) = (
                    (f64::from(pair[0].0), f64::from(pair[0].1)),
                    (f64::from(pair[1].0), f64::from(pair[1].1)),
                );
                let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
                let mut done = 0.0;
                while len - done > left {
                    done += left;
                    let f = done / len;
                    let p = (
                        (a.0 + (b.0 - a.0) * f).round() as i32,
                        (a.1 + (b.1 - a.1) * f).round() as i32,
                    );
                    if drawing {
                        piece.push(p);
                        root.draw(&PathElement::new(std::mem::take(&mut piece), style))
                            .map_err(err)?;
                    } else {
                        piece = vec![p];
                    }
                    drawing = !drawing;
                    left = if drawing { on } else { off };
                }
                left -= len - done;
                if drawing {
                    piece.push(pair[1]);
                }
            }
            if drawing && piece.len() > 1 {
                root.draw(&PathElement::new(piece, style)).map_err(err)?;
            }
            Ok(())
        }
    }
}

pub fn dot(
    root: &Root,
    frame: &Frame,
    p: (f64, f64),
    r: i32,
    style: ShapeStyle,
) -> Result<(), String> {
    match at(frame, p) {
        Some(px) => root.draw(&Circle::new(px, r, style)).map_err(err),
        None => Ok(()),
    }
}

/// A vertical whisker from `lo` to `hi` at `x`, with caps.
pub fn whisker(
    root: &Root,
    st: &Style,
    frame: &Frame,
    x: f64,
    (lo, hi): (f64, f64),
    style: ShapeStyle,
) -> Result<(), String> {
    let (Some(a), Some(b)) = (at(frame, (x, lo)), at(frame, (x, hi))) else {
        return Ok(());
    };
    let cap = st.px(4.0);
    root.draw(&PathElement::new(vec![a, b], style))
        .map_err(err)?;
    for p in [a, b] {
        root.draw(&PathElement::new(
            vec![(p.0 - cap, p.1), (p.0 + cap, p.1)],
            style,
        ))
        .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{range, ticks};

    #[test]
    fn a_log_axis_over_close_values_is_labelled_and_spans_a_factor_of_one_and_a_half() {
        // A sweep's goodput from 9.24 to 12.1 MB/s: four labels, not one.
        let (lo, hi) = range([9.24, 11.9, 12.1], true);
        assert!(hi / lo >= 1.5 - 1e-9 && lo < 9.24 && hi > 12.1, "{lo} {hi}");
        assert_eq!(ticks(lo, hi, true, 5), vec![9.0, 10.0, 11.0, 12.0]);
        // Medians 1 % apart: drawn nearly flat, with labels.
        let (lo, hi) = range([12.0, 12.1], true);
        assert!((hi / lo - 1.5).abs() < 1e-9, "{lo} {hi}");
        assert!(
            ticks(lo, hi, true, 5).len() >= 3,
            "{:?}",
            ticks(lo, hi, true, 5)
        );
        // Decades keep their 1, 2 and 5.
        let (lo, hi) = range([5.0, 200.0], true);
        assert_eq!(
            ticks(lo, hi, true, 6),
            vec![5.0, 10.0, 20.0, 50.0, 100.0, 200.0]
        );
    }
}
