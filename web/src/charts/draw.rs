//! Drawing series on a time chart: lines clipped to the frame and thinned to the pixel width,
//! dashed theory lines, markers.

use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;

use super::axis::TimeChart;
use super::dash::{DashedPath, Stroke};
use super::err;
use super::frame::Frame;
use super::series::{clip_x, clip_y, decimate, envelope, one_per_cell};
use super::style::Style;

/// How a line is stroked; a dash of `Some((on, off))` CSS pixels marks a theory line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pen {
    pub colour: RGBColor,
    pub width: f64,
    pub dash: Option<(f64, f64)>,
    pub alpha: f64,
}

impl Pen {
    pub fn solid(colour: RGBColor, width: f64) -> Pen {
        Pen {
            colour,
            width,
            dash: None,
            alpha: 1.0,
        }
    }

    pub fn dashed(colour: RGBColor, width: f64) -> Pen {
        Pen {
            colour,
            width,
            dash: Some((7.0, 5.0)),
            alpha: 1.0,
        }
    }

    pub fn dotted(colour: RGBColor, width: f64) -> Pen {
        Pen {
            colour,
            width,
            dash: Some((2.0, 3.0)),
            alpha: 1.0,
        }
    }

    pub fn alpha(self, alpha: f64) -> Pen {
        Pen { alpha, ..self }
    }

    fn style(&self, st: &Style) -> ShapeStyle {
        self.colour
            .mix(self.alpha)
            .stroke_width(st.stroke(self.width))
    }
}

/// The plotting area's width in CSS pixels, which series are thinned and binned for: on a
/// time chart, [`axis::plot_columns`](super::axis::plot_columns) as it was before the layout.
pub fn plot_width(frame: &Frame, st: &Style) -> f64 {
    ((frame.right() - frame.left()) / st.dpr).max(1.0)
}

/// Pixel columns of the plotting area: how many points a line needs at most.
pub fn columns(frame: &Frame, st: &Style) -> usize {
    plot_width(frame, st) as usize
}

/// Points per pixel column above which a solid line is drawn as its envelope and mean: a
/// line that changes many times within a pixel is otherwise a solid smear of its own width.
const DENSE: usize = 3;

/// Whether [`line`] draws these points as a band and its mean at this many columns.
pub fn is_dense(points: &[(f64, f64)], columns: usize) -> bool {
    points.len() > columns.max(1) * DENSE
}

/// Draws a polyline (already in time order), thinned to the frame's width and cut where it
/// leaves the frame's value range.
pub fn line(
    chart: &mut TimeChart,
    st: &Style,
    frame: &Frame,
    points: &[(f64, f64)],
    pen: Pen,
) -> Result<(), String> {
    // Only the part in view: a zoomed chart draws its range, cut at the edges.
    let points = &clip_x(points, frame.x.lo, frame.x.hi);
    let cols = columns(frame, st);
    if pen.dash.is_none() && is_dense(points, cols) {
        return dense(chart, st, frame, points, pen);
    }
    let thin = decimate(points, frame.x.lo, frame.x.hi, cols);
    for piece in clip_y(&thin, frame.y.lo, frame.y.hi) {
        let style = pen.style(st);
        match pen.dash {
            None => chart
                .draw_series(LineSeries::new(piece, style))
                .map(|_| ())
                .map_err(err)?,
            Some((on, off)) => chart
                .draw_series(std::iter::once(DashedPath::new(
                    piece,
                    Stroke::new(style, st.stroke(on), st.stroke(off)),
                )))
                .map(|_| ())
                .map_err(err)?,
        }
    }
    Ok(())
}

/// A dense line: its range in each pixel column as a light band, its mean as the line.
fn dense(
    chart: &mut TimeChart,
    st: &Style,
    frame: &Frame,
    points: &[(f64, f64)],
    pen: Pen,
) -> Result<(), String> {
    let cols = envelope(points, frame.x.lo, frame.x.hi, columns(frame, st));
    let clamp = |v: f64| v.clamp(frame.y.lo, frame.y.hi);
    let mut band: Vec<(f64, f64)> = cols.iter().map(|c| (c.x, clamp(c.hi))).collect();
    band.extend(cols.iter().rev().map(|c| (c.x, clamp(c.lo))));
    if band.len() > 2 {
        chart
            .draw_series(std::iter::once(Polygon::new(
                band,
                pen.colour.mix(0.22 * pen.alpha).filled(),
            )))
            .map_err(err)?;
    }
    let mean: Vec<(f64, f64)> = cols.iter().map(|c| (c.x, c.mean)).collect();
    let style = pen.style(st);
    for piece in clip_y(&mean, frame.y.lo, frame.y.hi) {
        chart
            .draw_series(LineSeries::new(piece, style))
            .map_err(err)?;
    }
    Ok(())
}

/// A horizontal line at `v` across the whole time axis, if `v` is in the frame.
pub fn level(
    chart: &mut TimeChart,
    st: &Style,
    frame: &Frame,
    v: f64,
    pen: Pen,
) -> Result<(), String> {
    if !(v.is_finite() && v >= frame.y.lo && v <= frame.y.hi) {
        return Ok(());
    }
    line(chart, st, frame, &[(frame.x.lo, v), (frame.x.hi, v)], pen)
}

/// Round markers, one per pixel cell.
pub fn dots(
    chart: &mut TimeChart,
    st: &Style,
    frame: &Frame,
    points: &[(f64, f64)],
    radius_css: f64,
    colour: RGBColor,
) -> Result<(), String> {
    let style = colour.filled();
    markers(chart, st, frame, points, radius_css, |p, r| {
        Circle::new(p, r, style)
    })
}

/// Cross markers, one per pixel cell.
pub fn crosses(
    chart: &mut TimeChart,
    st: &Style,
    frame: &Frame,
    points: &[(f64, f64)],
    radius_css: f64,
    pen: Pen,
) -> Result<(), String> {
    let style = pen.style(st);
    markers(chart, st, frame, points, radius_css, |p, r| {
        Cross::new(p, r, style)
    })
}

/// The markers `marker` makes at a point with a radius in device pixels, one per pixel cell
/// about a marker's size, those in the frame's value range only.
fn markers<E>(
    chart: &mut TimeChart,
    st: &Style,
    frame: &Frame,
    points: &[(f64, f64)],
    radius_css: f64,
    marker: impl Fn((f64, f64), i32) -> E,
) -> Result<(), String>
where
    for<'b> &'b E: PointCollection<'b, (f64, f64)>,
    E: Drawable<super::Backend>,
{
    let cells = cells(frame, st, radius_css);
    let r = ((radius_css * st.dpr).round() as i32).max(1);
    let kept = one_per_cell(
        points,
        (frame.x.lo, frame.x.hi),
        (frame.y.lo, frame.y.hi),
        cells,
    );
    chart
        .draw_series(
            kept.into_iter()
                .filter(|p| p.1 >= frame.y.lo && p.1 <= frame.y.hi)
                .map(|p| marker(p, r)),
        )
        .map(|_| ())
        .map_err(err)
}

/// Cells about a marker's size: finer would only overdraw, coarser would hide real gaps.
fn cells(frame: &Frame, st: &Style, radius_css: f64) -> (usize, usize) {
    let size = (radius_css * st.dpr).max(1.0);
    (
        ((frame.right() - frame.left()) / size).max(1.0) as usize,
        ((frame.bottom() - frame.top()) / size).max(1.0) as usize,
    )
}

/// A filled span of time across the whole height, behind the data.
pub fn span(
    chart: &mut TimeChart,
    frame: &Frame,
    from: f64,
    to: f64,
    colour: RGBColor,
) -> Result<(), String> {
    let (a, b) = (from.max(frame.x.lo), to.min(frame.x.hi));
    if !(a.is_finite() && b.is_finite() && b >= a) {
        return Ok(());
    }
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(a, frame.y.lo), (b, frame.y.hi)],
            colour.filled(),
        )))
        .map(|_| ())
        .map_err(err)
}

/// The area under a step line, filled lightly.
pub fn area(
    chart: &mut TimeChart,
    st: &Style,
    frame: &Frame,
    points: &[(f64, f64)],
    colour: RGBColor,
    alpha: f64,
) -> Result<(), String> {
    let points = clip_x(points, frame.x.lo, frame.x.hi);
    let thin = decimate(&points, frame.x.lo, frame.x.hi, columns(frame, st));
    let (Some(first), Some(last)) = (thin.first(), thin.last()) else {
        return Ok(());
    };
    let mut outline: Vec<(f64, f64)> = Vec::with_capacity(thin.len() + 2);
    outline.push((first.0, frame.y.lo));
    outline.extend(
        thin.iter()
            .map(|&(x, y)| (x, y.clamp(frame.y.lo, frame.y.hi))),
    );
    outline.push((last.0, frame.y.lo));
    chart
        .draw_series(std::iter::once(Polygon::new(
            outline,
            colour.mix(alpha).filled(),
        )))
        .map(|_| ())
        .map_err(err)
}
