//! The slow-start chart: segments sent after k round trips of ideal slow start, drawn by
//! plotters on a `<canvas>`.
//!
//! The axes do not follow the data: a fixed frame is what makes a change of IW visible as a
//! moving curve rather than as relabelled ticks.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use tcplab::theory::slow_start::{rounds_to_send, segments_after_rounds, segments_for};
use tcplab::Scenario;
use web_sys::HtmlCanvasElement;

/// Round trips on the horizontal axis: IW 1 sends the default 2.5 MB body in 11.
pub const ROUNDS: u32 = 12;
/// The initial window drawn for comparison: RFC 6928's, and the scenario default.
pub const REFERENCE_IW: u32 = 10;
/// The CSS size used when the canvas is not laid out (detached, or hidden).
const FALLBACK_SIZE: (u32, u32) = (880, 440);

const INK: RGBColor = RGBColor(0x1d, 0x24, 0x30);
const AXIS: RGBColor = RGBColor(0x4a, 0x52, 0x60);
const GRID: RGBColor = RGBColor(0xe3, 0xe7, 0xed);
const ACCENT: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
const REFERENCE: RGBColor = RGBColor(0x9a, 0xa3, 0xad);
const BODY: RGBColor = RGBColor(0xc2, 0x6a, 0x00);

/// What the chart shows, taken from a scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlowStart {
    pub iw: u32,
    pub mss: u32,
    pub body: u64,
}

impl SlowStart {
    pub fn of(scenario: &Scenario) -> Self {
        SlowStart {
            iw: scenario.iw,
            mss: scenario.mss,
            body: scenario.body,
        }
    }

    pub fn body_segments(&self) -> u64 {
        segments_for(self.body, self.mss)
    }

    /// Round trips until the whole body has been sent.
    pub fn rounds_for_body(&self) -> u32 {
        rounds_to_send(self.iw, self.body_segments())
    }

    /// `(k, segments sent after k round trips)` for k = 1..=ROUNDS; k = 0 (nothing sent yet)
    /// has no place on a log axis.
    pub fn curve(iw: u32) -> Vec<(u32, u64)> {
        (1..=ROUNDS)
            .map(|k| (k, segments_after_rounds(iw, k)))
            .collect()
    }

    /// The top of the vertical axis: a power of ten that holds every curve the slider can draw
    /// (IW 1000 sends 4.1 million segments in 12 round trips) and the body line.
    pub fn y_max(&self) -> f64 {
        let highest = segments_after_rounds(1000, ROUNDS).max(self.body_segments()) as f64;
        let mut top = 10.0;
        while top <= highest {
            top *= 10.0;
        }
        top
    }
}

/// Draws `chart` on `canvas`, sized to its layout box at the device's pixel ratio.
pub fn draw(canvas: &HtmlCanvasElement, chart: &SlowStart) -> Result<(), String> {
    let ratio = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0);
    let (css_w, css_h) = match (canvas.client_width(), canvas.client_height()) {
        (w, h) if w > 0 && h > 0 => (w as u32, h as u32),
        _ => FALLBACK_SIZE,
    };
    canvas.set_width((f64::from(css_w) * ratio).round() as u32);
    canvas.set_height((f64::from(css_h) * ratio).round() as u32);
    let backend = CanvasBackend::with_canvas_object(canvas.clone())
        .ok_or("the browser gave no 2D context for the chart")?;
    plot(backend.into_drawing_area(), chart, ratio).map_err(|e| format!("chart: {e}"))
}

fn plot<DB: DrawingBackend>(
    root: DrawingArea<DB, plotters::coord::Shift>,
    chart: &SlowStart,
    scale: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |v: f64| (v * scale).round() as u32;
    let pxi = |v: i32| px(f64::from(v));
    let font = |size: f64| ("sans-serif", size * scale).into_font();
    root.fill(&WHITE)?;

    let y_max = chart.y_max();
    let mut ctx = ChartBuilder::on(&root)
        .margin_top(pxi(18))
        .margin_right(pxi(28))
        .margin_left(pxi(12))
        .margin_bottom(pxi(10))
        .x_label_area_size(pxi(48))
        .y_label_area_size(pxi(72))
        .build_cartesian_2d(
            // Half a round of air on each side keeps the first and last markers whole.
            0.5f64..f64::from(ROUNDS) + 0.5,
            (1f64..y_max).log_scale(),
        )?;

    ctx.configure_mesh()
        // Minor lines only between the decades, where reading a log axis needs them.
        .x_max_light_lines(0)
        .y_max_light_lines(9)
        .light_line_style(GRID.mix(0.45))
        .bold_line_style(GRID)
        .axis_style(AXIS.stroke_width(px(1.0).max(1)))
        // One tick per round trip: twelve labels over twelve rounds make plotters step by one.
        .x_labels(ROUNDS as usize)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| crate::format::si(*v))
        .x_desc("round trips k (1 RTT each)")
        .y_desc("segments sent, cumulative (log scale)")
        .label_style(font(13.0).color(&AXIS))
        .axis_desc_style(font(14.0).color(&INK))
        .draw()?;

    let at = f64::from;
    let line = |colour: RGBColor, width: f64| colour.stroke_width(px(width).max(1));

    let body_segments = chart.body_segments();
    if body_segments > 0 {
        ctx.draw_series(DashedLineSeries::new(
            [
                (0.5, body_segments as f64),
                (f64::from(ROUNDS) + 0.5, body_segments as f64),
            ],
            px(7.0),
            px(5.0),
            line(BODY, 1.5),
        ))?
        .label(format!(
            "body: {} = {} segments of {} B",
            crate::format::bytes(chart.body),
            crate::format::count(body_segments),
            chart.mss
        ))
        .legend(move |(x, y)| {
            PathElement::new(vec![(x, y), (x + px(22.0) as i32, y)], line(BODY, 1.5))
        });
    }

    let series = |iw: u32| {
        SlowStart::curve(iw)
            .into_iter()
            .map(|(k, segs)| (at(k), segs as f64))
            .collect::<Vec<_>>()
    };

    if chart.iw != REFERENCE_IW {
        ctx.draw_series(LineSeries::new(series(REFERENCE_IW), line(REFERENCE, 1.5)))?
            .label(format!("IW {REFERENCE_IW} (RFC 6928 default)"))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + px(22.0) as i32, y)], line(REFERENCE, 1.5))
            });
    }

    let current = series(chart.iw);
    ctx.draw_series(LineSeries::new(current.clone(), line(ACCENT, 2.5)))?
        .label(format!("IW {}: IW × (2^k − 1)", chart.iw))
        .legend(move |(x, y)| {
            PathElement::new(vec![(x, y), (x + px(22.0) as i32, y)], line(ACCENT, 2.5))
        });
    ctx.draw_series(
        current
            .iter()
            .map(|&(k, segs)| Circle::new((k, segs), px(3.5), ACCENT.filled())),
    )?;

    let done = chart.rounds_for_body();
    if body_segments > 0 && (1..=ROUNDS).contains(&done) {
        let sent = segments_after_rounds(chart.iw, done) as f64;
        ctx.draw_series(DashedLineSeries::new(
            [(at(done), 1.0), (at(done), sent)],
            px(4.0),
            px(4.0),
            line(BODY, 1.0),
        ))?;
        // The label sits on the floor of the chart beside the drop line: past the round where
        // the body is done the curve is always above it, and before it the curve is still low
        // only at the far left.
        let (dx, h_pos) = if done <= ROUNDS - 4 {
            (px(6.0) as i32, HPos::Left)
        } else {
            (-(px(6.0) as i32), HPos::Right)
        };
        ctx.draw_series(std::iter::once(
            EmptyElement::at((at(done), sent)) + Circle::new((0, 0), px(7.0), line(BODY, 2.0)),
        ))?;
        ctx.draw_series(std::iter::once(
            EmptyElement::at((at(done), 1.0))
                + Text::new(
                    format!("whole body sent after {done} RTT"),
                    (dx, -(px(6.0) as i32)),
                    font(13.0).color(&BODY).pos(Pos::new(h_pos, VPos::Bottom)),
                ),
        ))?;
    }

    ctx.configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .margin(px(10.0))
        .label_font(font(13.0).color(&INK))
        .background_style(WHITE.mix(0.92))
        .border_style(GRID)
        .draw()?;

    root.present()
}
