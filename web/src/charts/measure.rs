//! How wide a text is drawn on a chart, measured on a canvas of its own.
//!
//! plotters measures text in a browser by putting a `<span>` in the document and reading its
//! `offsetWidth`, which makes the browser lay out the whole page before it answers: a legend
//! that wraps its entries word by word did that dozens of times per chart, a third of the time
//! from a slider's move to its charts drawn (docs/performance.md, "Input to charts drawn"). A
//! canvas's `measureText` answers from the font alone, without a layout, in the font string the
//! canvas backend draws with.

use std::cell::RefCell;

use plotters::style::TextStyle;
use wasm_bindgen::JsCast;
use web_sys::CanvasRenderingContext2d;

thread_local! {
    /// A canvas that is never in the document, and the font last set on it.
    static MEASURE: RefCell<Option<(CanvasRenderingContext2d, String)>> = const { RefCell::new(None) };
}

fn context() -> Option<CanvasRenderingContext2d> {
    crate::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .ok()?
        .get_context("2d")
        .ok()??
        .dyn_into()
        .ok()
}

/// The width in device pixels of `text` drawn in `style`, or `None` where no canvas can
/// measure it (outside a browser).
pub fn text_width(text: &str, style: &TextStyle) -> Option<f64> {
    // The canvas backend's own font string (plotters-canvas `draw_text`).
    let font = format!(
        "{} {}px {}",
        style.font.get_style().as_str(),
        style.font.get_size(),
        style.font.get_name(),
    );
    MEASURE.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.is_none() {
            *cell = context().map(|c| (c, String::new()));
        }
        let (ctx, set) = cell.as_mut()?;
        if *set != font {
            ctx.set_font(&font);
            *set = font;
        }
        ctx.measure_text(text).ok().map(|m| m.width())
    })
}
