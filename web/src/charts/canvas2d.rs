//! The browser's 2D canvas as the figures' backend: plotters' canvas backend, and the canvas's
//! own dashes for the theory lines.
//!
//! plotters draws a dashed line as one stroke per dash, each with its colour formatted and set
//! again: a level line across a wide chart is fifty strokes, and the time charts draw several
//! on every run (a drag draws them every frame). The canvas dashes a path itself
//! (`setLineDash`), so a theory line is one stroke whatever its length.

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::dash::{Dashes, Stroke};

/// The error plotters' canvas backend reports.
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;

/// A canvas to draw on: everything but dashed lines through plotters' backend, which draws
/// on the same context at once (it keeps nothing back), so the two keep their order.
pub struct Canvas2d {
    plotters: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl Canvas2d {
    pub fn new(canvas: &HtmlCanvasElement) -> Option<Canvas2d> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        let plotters = CanvasBackend::with_canvas_object(canvas.clone())?;
        Some(Canvas2d { plotters, context })
    }
}

fn colour(c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    format!("rgba({r},{g},{b},{})", c.alpha)
}

impl Dashes for Canvas2d {
    fn dashed_path(
        &mut self,
        path: &[BackendCoord],
        stroke: Stroke,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        let Some((first, rest)) = path.split_first() else {
            return Ok(());
        };
        if stroke.colour.alpha == 0.0 {
            return Ok(());
        }
        let ctx = &self.context;
        let pattern = js_sys::Array::of2(&stroke.on.into(), &stroke.off.into());
        // The dash pattern is the context's state: it is set for this path only, so every
        // other line (drawn by plotters, which never sets one) stays solid.
        ctx.set_line_dash(&pattern).map_err(drawing_error)?;
        ctx.set_stroke_style_str(&colour(stroke.colour));
        ctx.set_line_width(f64::from(stroke.width));
        ctx.begin_path();
        ctx.move_to(f64::from(first.0), f64::from(first.1));
        for p in rest {
            ctx.line_to(f64::from(p.0), f64::from(p.1));
        }
        ctx.stroke();
        ctx.set_line_dash(&js_sys::Array::new())
            .map_err(drawing_error)
    }
}

/// What the canvas threw, as a drawing error: plotters' canvas error cannot be made outside its
/// crate, so the message travels as the kind that carries any error.
fn drawing_error(e: JsValue) -> DrawingErrorKind<CanvasError> {
    let message = e
        .as_string()
        .unwrap_or_else(|| "the canvas refused a dash pattern".to_string());
    DrawingErrorKind::FontError(message.into())
}

/// Everything else is plotters' canvas backend's.
impl DrawingBackend for Canvas2d {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.plotters.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        colour: BackendColor,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.draw_pixel(point, colour)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters
            .draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<CanvasError>> {
        self.plotters.estimate_text_size(text, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<CanvasError>> {
        self.plotters.blit_bitmap(pos, size, src)
    }
}
