//! A chart drawn as SVG, outside a browser: the first screen that is rendered as the page is
//! built (`src/bin/prerender.rs`) shows the default run's charts before the page's module has
//! come, drawn by the same figures as the canvases that replace them.
//!
//! plotters' own SVG backend writes into a borrowed buffer, so it cannot be the one backend type
//! the figures draw on (`charts::Root`); this one owns its text.

use std::cell::RefCell;
use std::fmt::Write;
use std::rc::Rc;

use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform,
};

use super::dash::{Dashes, Stroke};

/// An SVG drawing of `size` pixels, its elements in the order drawn. plotters keeps a backend
/// to itself once it draws on it, so what was drawn reaches [`Drawing`] when it is dropped.
#[derive(Debug)]
pub struct Svg {
    size: (u32, u32),
    body: String,
    out: Rc<RefCell<String>>,
}

/// What an [`Svg`] drew, once it is dropped.
#[derive(Debug, Clone)]
pub struct Drawing {
    size: (u32, u32),
    body: Rc<RefCell<String>>,
}

impl Drop for Svg {
    fn drop(&mut self) {
        *self.out.borrow_mut() = std::mem::take(&mut self.body);
    }
}

impl Drawing {
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The drawing as an SVG document, `label` naming it for assistive technology.
    pub fn document(&self, label: &str) -> String {
        let (w, h) = self.size;
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-label="{}" font-family="sans-serif">{}</svg>"#,
            escaped(label),
            self.body.borrow()
        )
    }
}

thread_local! {
    /// The charts drawn as files while a first screen was rendered: (file name, document).
    static FILES: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `document` as a file named by `stem` and its content, and returns that name: the
/// first screen's `<img>` fetches it, and a browser never pairs a cached chart with a newer page.
pub fn keep(stem: &str, document: String) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    document.hash(&mut h);
    let name = format!("{stem}-{:016x}.svg", h.finish());
    FILES.with(|f| f.borrow_mut().push((name.clone(), document)));
    name
}

/// The files kept since the last call, in the order drawn.
pub fn take_files() -> Vec<(String, String)> {
    FILES.with(|f| std::mem::take(&mut *f.borrow_mut()))
}

/// Never returned: writing to a `String` cannot fail.
#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("unreachable")
    }
}

impl std::error::Error for Never {}

type Drawn = Result<(), DrawingErrorKind<Never>>;

/// `#rrggbb`, and its opacity as an attribute where it is not 1.
fn paint(attr: &str, c: BackendColor) -> String {
    let (r, g, b) = c.rgb;
    let mut s = format!(r##" {attr}="#{r:02x}{g:02x}{b:02x}""##);
    if c.alpha < 1.0 {
        let _ = write!(s, r#" {attr}-opacity="{:.3}""#, c.alpha);
    }
    s
}

fn stroke(style: &impl BackendStyle) -> String {
    format!(
        r#" fill="none"{} stroke-width="{}""#,
        paint("stroke", style.color()),
        style.stroke_width()
    )
}

/// A shape's paint: filled with the style's colour, or its outline stroked.
fn filled_or_stroked(style: &impl BackendStyle, fill: bool) -> String {
    if fill {
        paint("fill", style.color())
    } else {
        stroke(style)
    }
}

/// The characters SVG text must escape.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// About how wide a glyph is, in ems: the browser lays the text out when it draws it, and the
/// charts only place labels by it (an average Latin glyph of a sans-serif is about 0.55 em, a
/// Chinese one 1 em).
fn glyph_em(c: char) -> f64 {
    if (c as u32) >= 0x2E80 {
        1.0
    } else {
        0.55
    }
}

impl Svg {
    /// A drawing of `size` pixels, and where it is read once the backend is dropped.
    pub fn new(size: (u32, u32)) -> (Svg, Drawing) {
        let out = Rc::new(RefCell::new(String::new()));
        let drawing = Drawing {
            size,
            body: Rc::clone(&out),
        };
        let svg = Svg {
            size,
            body: String::new(),
            out,
        };
        (svg, drawing)
    }

    /// A `<path>` through `points`, its data ending in `close` (`Z` for a filled polygon),
    /// with the attributes `look`.
    fn path(&mut self, points: impl IntoIterator<Item = BackendCoord>, close: &str, look: &str) {
        self.body.push_str(r#"<path d=""#);
        let mut first = true;
        for (x, y) in points {
            let _ = write!(self.body, "{}{x} {y}", if first { "M" } else { "L" });
            first = false;
        }
        let _ = write!(self.body, r#"{close}"{look}/>"#);
    }
}

impl Dashes for Svg {
    fn dashed_path(&mut self, path: &[BackendCoord], s: Stroke) -> Drawn {
        if s.colour.alpha > 0.0 {
            let look = format!(
                r#" fill="none"{} stroke-width="{}" stroke-dasharray="{} {}""#,
                paint("stroke", s.colour),
                s.width,
                s.on,
                s.off
            );
            self.path(path.iter().copied(), "", &look);
        }
        Ok(())
    }
}

impl DrawingBackend for Svg {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        Ok(())
    }

    fn draw_pixel(&mut self, (x, y): BackendCoord, c: BackendColor) -> Drawn {
        if c.alpha > 0.0 {
            let _ = write!(
                self.body,
                r#"<rect x="{x}" y="{y}" width="1" height="1"{}/>"#,
                paint("fill", c)
            );
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, s: &S) -> Drawn {
        if s.color().alpha > 0.0 {
            let _ = write!(
                self.body,
                r#"<line x1="{}" y1="{}" x2="{}" y2="{}"{}/>"#,
                from.0,
                from.1,
                to.0,
                to.1,
                stroke(s)
            );
        }
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        (x0, y0): BackendCoord,
        (x1, y1): BackendCoord,
        s: &S,
        fill: bool,
    ) -> Drawn {
        if s.color().alpha > 0.0 {
            let look = filled_or_stroked(s, fill);
            let _ = write!(
                self.body,
                r#"<rect x="{x0}" y="{y0}" width="{}" height="{}"{look}/>"#,
                x1 - x0,
                y1 - y0
            );
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Drawn {
        if s.color().alpha > 0.0 {
            self.path(
                path,
                "",
                &format!(r#" stroke-linejoin="round"{}"#, stroke(s)),
            );
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        s: &S,
    ) -> Drawn {
        if s.color().alpha > 0.0 {
            self.path(path, "Z", &paint("fill", s.color()));
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        (x, y): BackendCoord,
        r: u32,
        s: &S,
        fill: bool,
    ) -> Drawn {
        if s.color().alpha > 0.0 {
            let look = filled_or_stroked(s, fill);
            let _ = write!(self.body, r#"<circle cx="{x}" cy="{y}" r="{r}"{look}/>"#);
        }
        Ok(())
    }

    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, s: &T, (x, y): BackendCoord) -> Drawn {
        if s.color().alpha == 0.0 {
            return Ok(());
        }
        let anchor = match s.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "middle",
        };
        let baseline = match s.anchor().v_pos {
            VPos::Top => "text-before-edge",
            VPos::Center => "central",
            VPos::Bottom => "text-after-edge",
        };
        let turn = match s.transform() {
            FontTransform::None => 0,
            FontTransform::Rotate90 => 90,
            FontTransform::Rotate180 => 180,
            FontTransform::Rotate270 => 270,
        };
        let _ = write!(
            self.body,
            r#"<text x="{x}" y="{y}" font-size="{}" text-anchor="{anchor}" dominant-baseline="{baseline}"{}"#,
            s.size(),
            paint("fill", s.color())
        );
        if s.style().as_str() != "normal" {
            let _ = write!(self.body, r#" font-style="{}""#, s.style().as_str());
        }
        if turn != 0 {
            let _ = write!(self.body, r#" transform="rotate({turn} {x} {y})""#);
        }
        let _ = write!(self.body, ">{}</text>", escaped(text));
        Ok(())
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        s: &T,
    ) -> Result<(u32, u32), DrawingErrorKind<Never>> {
        let ems: f64 = text.chars().map(glyph_em).sum();
        Ok(((ems * s.size()).ceil() as u32, s.size().ceil() as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::*;

    #[test]
    fn shapes_and_text_are_written_as_svg_elements() {
        let (mut svg, drawing) = Svg::new((200, 100));
        svg.draw_path([(0, 0), (10, 20), (30, 5)], &Color::stroke_width(&RED, 2))
            .ok();
        svg.draw_text(
            "a < b",
            &TextStyle::from(("sans-serif", 12.0).into_font()).color(&BLUE),
            (5, 6),
        )
        .ok();
        drop(svg);
        let out = drawing.document("t");
        assert!(out.contains(r#"viewBox="0 0 200 100""#), "{out}");
        assert!(out.contains(r#"<path d="M0 0L10 20L30 5""#), "{out}");
        assert!(
            out.contains(r##"stroke="#ff0000" stroke-width="2""##),
            "{out}"
        );
        assert!(out.contains(">a &lt; b</text>"), "{out}");
    }

    #[test]
    fn a_text_is_estimated_by_its_glyphs() {
        let (svg, _) = Svg::new((10, 10));
        let style = TextStyle::from(("sans-serif", 10.0).into_font());
        assert_eq!(svg.estimate_text_size("abcd", &style).ok(), Some((22, 10)));
        assert_eq!(svg.estimate_text_size("拥塞", &style).ok(), Some((20, 10)));
    }
}
