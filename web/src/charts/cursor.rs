//! The cursor layer: a transparent canvas over each chart holding only the cursor line, a dot
//! on each series it crosses and a small readout. Moving the cursor repaints this layer alone.
//!
//! While the step-through player is open, the layer also greys the chart after the player's
//! time, so that the run up to that instant stands out and the bright part grows as it plays,
//! without redrawing the chart itself.

use plotters::prelude::RGBColor;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::frame::Frame;
use super::style::{css, Style, INK};

/// What the cursor shows: where its line goes (in the chart's own horizontal unit: time for a
/// time chart), a heading and one row per value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Readout {
    pub x: Option<f64>,
    pub head: String,
    pub rows: Vec<Row>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub colour: RGBColor,
    pub text: String,
    /// The value on the chart's left axis, to mark with a dot on the cursor line.
    pub y: Option<f64>,
}

impl Readout {
    /// A time chart's readout: the cursor line at `t`, headed by the time.
    pub fn at(t: f64, rows: Vec<Row>) -> Readout {
        Readout {
            x: Some(t),
            head: super::fmt::time(t),
            rows,
        }
    }
}

impl Row {
    pub fn new(colour: RGBColor, text: impl Into<String>, y: Option<f64>) -> Row {
        Row {
            colour,
            text: text.into(),
            y,
        }
    }
}

pub(super) fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// Clears the layer and draws on it the cover after `until` (a time) and `readout`, if any.
/// `size` is the chart's canvas in device pixels. A layer with nothing to show holds no bitmap
/// (0 x 0; its CSS box, which takes the pointer, stays the chart's): the browser copies every
/// canvas's bitmap to the compositor at each frame it draws, so that an idle layer the size of
/// its chart cost as much as the chart at every frame of a dragged slider (docs/performance.md,
/// "The cursor layers' bitmaps").
pub fn paint(
    canvas: &HtmlCanvasElement,
    size: (u32, u32),
    frame: &Frame,
    st: &Style,
    readout: Option<&Readout>,
    look: Look,
) {
    let Look {
        until,
        veil,
        pointed,
    } = look;
    let cover = until.and_then(|t| cover_from(frame, t));
    let line = readout.and_then(|r| {
        let x = r.x.and_then(|v| frame.x.x_px(v))?;
        frame.x.contains_px(x, 0.5).then_some((r, x))
    });
    // What the readout says, as text beside its drawing, for what reads the page without
    // seeing it (the end-to-end tests hold it to the player's readouts).
    let said = line.map(|(r, _)| {
        std::iter::once(r.head.as_str())
            .chain(r.rows.iter().map(|row| row.text.as_str()))
            .collect::<Vec<_>>()
            .join("\n")
    });
    let _ = match said {
        Some(text) => canvas.set_attribute("data-readout", &text),
        None => canvas.remove_attribute("data-readout"),
    };
    let size = if cover.is_none() && line.is_none() {
        (0, 0)
    } else {
        size
    };
    // A new size clears the bitmap; the same size is cleared below.
    let resized = (canvas.width(), canvas.height()) != size;
    if resized {
        canvas.set_width(size.0);
        canvas.set_height(size.1);
    }
    if size == (0, 0) {
        return;
    }
    let Some(ctx) = context(canvas) else {
        return;
    };
    if !resized {
        ctx.clear_rect(0.0, 0.0, f64::from(size.0), f64::from(size.1));
    }
    if let Some(x) = cover {
        ctx.set_fill_style_str(if veil { VEIL } else { COVER });
        ctx.fill_rect(
            x,
            frame.top(),
            frame.right() - x + 1.0,
            frame.bottom() - frame.top(),
        );
    }
    let Some((r, x)) = line else {
        return;
    };
    let d = st.dpr;
    let x = x.round() + 0.5;
    ctx.set_stroke_style_str("rgba(29,36,48,0.65)");
    ctx.set_line_width(d.max(1.0));
    ctx.begin_path();
    ctx.move_to(x, frame.top());
    ctx.line_to(x, frame.bottom());
    ctx.stroke();

    for row in &r.rows {
        let Some(y) = row.y.and_then(|v| frame.y.y_px(v)) else {
            continue;
        };
        if y < frame.top() - 0.5 || y > frame.bottom() + 0.5 {
            continue;
        }
        ctx.begin_path();
        let _ = ctx.arc(x, y, 3.5 * d * st.zoom(), 0.0, std::f64::consts::TAU);
        ctx.set_fill_style_str(&css(row.colour));
        ctx.fill();
        ctx.set_stroke_style_str("#ffffff");
        ctx.set_line_width(1.5 * d);
        ctx.stroke();
    }

    // A phone's chart is too narrow for the box beside the line without hiding most of the
    // plot: there the box is drawn on the chart the finger (or pointer) is on, and the others
    // show the line and its dots, as the player's cursor moves them all.
    if pointed || !st.narrow_plot(frame.right() - frame.left()) {
        label(&ctx, frame, st, x, r);
    }
}

/// How the cursor layer is painted beyond the cursor: the player's time (the chart greyed
/// after it), the lesson's veil over it, and whether the pointer is on this chart.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Look {
    pub until: Option<f64>,
    pub veil: bool,
    pub pointed: bool,
}

/// The wash over what has not happened yet: the whole run stays readable (a lesson link opens
/// on a drawn chart, not a blank one), dimmed so that the cursor's instant and what came
/// before it stand out.
const COVER: &str = "rgba(244,246,249,0.74)";

/// The same while a lesson's question waits for its answer: what comes next is not shown.
const VEIL: &str = "rgb(236,239,243)";

/// Where the cover starts: the pixel of `t`, clamped to the plotting area; `None` once `t`
/// is past its end.
pub fn cover_from(frame: &Frame, t: f64) -> Option<f64> {
    let x = frame.x.x_px(t)?;
    (x < frame.right()).then(|| x.max(frame.left()).ceil())
}

/// The readout's box beside the line, on whichever side has room.
fn label(ctx: &CanvasRenderingContext2d, frame: &Frame, st: &Style, x: f64, r: &Readout) {
    let d = st.dpr;
    let size = st.font_css * d;
    let line_h = size * 1.35;
    let pad = 6.0 * d;
    let swatch = 10.0 * d;
    let bold = format!("600 {size}px sans-serif");
    let plain = format!("{size}px sans-serif");
    let width = |font: &str, text: &str| {
        ctx.set_font(font);
        ctx.measure_text(text).map(|m| m.width()).unwrap_or(0.0)
    };
    let mut w = width(&bold, &r.head);
    for row in &r.rows {
        w = w.max(swatch + 5.0 * d + width(&plain, &row.text));
    }
    let box_w = w + 2.0 * pad;
    let box_h = line_h * (1 + r.rows.len()) as f64 + pad * 2.0 - (line_h - size);
    let gap = 10.0 * d;
    let bx = if x + gap + box_w <= frame.right() {
        x + gap
    } else {
        (x - gap - box_w).max(0.0)
    };
    let by = frame.top() + 4.0 * d;

    ctx.set_fill_style_str("rgba(255,255,255,0.93)");
    ctx.fill_rect(bx, by, box_w, box_h);
    ctx.set_stroke_style_str("#c9d0da");
    ctx.set_line_width(d.max(1.0));
    ctx.stroke_rect(bx.round() + 0.5, by.round() + 0.5, box_w, box_h);

    ctx.set_text_baseline("top");
    let mut y = by + pad;
    ctx.set_fill_style_str(&css(INK));
    ctx.set_font(&bold);
    let _ = ctx.fill_text(&r.head, bx + pad, y);
    y += line_h;
    ctx.set_font(&plain);
    for row in &r.rows {
        ctx.set_fill_style_str(&css(row.colour));
        ctx.fill_rect(bx + pad, y + size * 0.3, swatch, size * 0.45);
        ctx.set_fill_style_str(&css(INK));
        let _ = ctx.fill_text(&row.text, bx + pad + swatch + 5.0 * d, y);
        y += line_h;
    }
}
