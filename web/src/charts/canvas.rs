//! A canvas that draws a [`Drawing`] at the device's pixel ratio and the page's text size, and
//! draws it again when what it shows (its `stamp`), its width or the text size changes. The
//! sweep, matrix and comparison charts are drawn on it; the lab's time charts have their own
//! (`crate::charts::plot`), with a cursor these do not need.

use std::rc::Rc;

use gloo_events::EventListener;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::style::{root_font, Style, MATHIS, PAPER};
use super::Root;

/// What a canvas draws.
pub trait Drawing {
    fn draw(&self, root: &Root, st: &Style) -> Result<(), String>;
    /// The height the drawing needs at a width of `css_w` CSS pixels, in CSS pixels at the
    /// default text size (`zoom` is the text size's factor), when it depends on the width: a
    /// heatmap stacks its panels on a narrow screen. `None`: the canvas's own height.
    fn height(&self, _css_w: f64, _zoom: f64) -> Option<f64> {
        None
    }
}

#[derive(Properties, Clone)]
pub struct CanvasProps {
    pub id: String,
    /// What the chart shows, for screen readers.
    pub label: String,
    /// CSS pixels at the default text size.
    pub height: f64,
    /// Names what is drawn: a new stamp draws again, the same stamp does not.
    pub stamp: String,
    pub drawing: Rc<dyn Drawing>,
}

impl PartialEq for CanvasProps {
    fn eq(&self, other: &Self) -> bool {
        (&self.id, &self.label, self.height, &self.stamp)
            == (&other.id, &other.label, other.height, &other.stamp)
    }
}

fn paint(canvas: &HtmlCanvasElement, props: &CanvasProps) -> Result<(), String> {
    let dpr = crate::window().map_or(1.0, |w| w.device_pixel_ratio());
    let st = Style::new(dpr, root_font());
    let css_w = match canvas.client_width() {
        w if w > 0 => f64::from(w),
        _ => 960.0,
    };
    let height = props
        .drawing
        .height(css_w, st.zoom())
        .unwrap_or(props.height);
    let css_h = (height * st.zoom()).round();
    canvas.set_width((css_w * st.dpr).round().max(1.0) as u32);
    canvas.set_height((css_h * st.dpr).round().max(1.0) as u32);
    let _ = canvas.style().set_property("height", &format!("{css_h}px"));
    let root = super::canvas_root(canvas)?;
    root.fill(&PAPER).map_err(|e| e.to_string())?;
    if let Err(message) = props.drawing.draw(&root, &st) {
        let _ = root.fill(&PAPER);
        let _ = root.draw(&Text::new(
            message,
            (st.px(12.0), st.px(20.0)),
            st.text(1.0, MATHIS),
        ));
    }
    root.present().map_err(|e| e.to_string())
}

#[function_component]
pub fn Canvas(props: &CanvasProps) -> Html {
    let canvas = use_node_ref();
    // Bumped when the window's size or the text size may have changed the layout.
    let resized = use_state_eq(|| 0u32);
    {
        let resized = resized.clone();
        use_effect_with((), move |_| {
            let listener = crate::window().map(|w| {
                EventListener::new(&w, "resize", move |_| resized.set(resized.wrapping_add(1)))
            });
            move || drop(listener)
        });
    }
    {
        let canvas = canvas.clone();
        let props = props.clone();
        use_effect_with((props.clone(), *resized, root_font()), move |_| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let drawn = paint(&c, &props);
                let _ = c.set_attribute("data-drawn", &props.stamp);
                if let Err(e) = drawn {
                    web_sys::console::warn_1(&format!("chart {}: {e}", props.id).into());
                }
            }
        });
    }
    html! {
        <canvas ref={canvas} id={props.id.clone()} class="sweep-canvas" role="img"
            aria-label={props.label.clone()}
            style={format!("display:block;width:100%;height:{}px", props.height)} />
    }
}
