//! The legend, laid out in rows above the plotting area rather than in a box over the data.

use plotters::prelude::*;

use super::style::{flow_colour, Style, INK, MANY_FLOWS, NAMED_FLOWS};
use super::Root;
use crate::i18n::Lang;

/// How a legend entry draws its sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Swatch {
    /// A solid line of the given CSS width.
    Line(RGBColor, f64),
    /// A dashed line: a theory line.
    Dashed(RGBColor, f64),
    /// A round marker.
    Dot(RGBColor),
    /// A cross marker.
    Cross(RGBColor),
    /// A filled block (a shaded span, a band).
    Block(RGBColor),
    /// An upward triangle marker.
    Triangle(RGBColor),
    /// A short vertical tick: an event along the time axis.
    Tick(RGBColor),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub swatch: Swatch,
    pub label: String,
}

impl Item {
    pub fn new(swatch: Swatch, label: impl Into<String>) -> Item {
        Item {
            swatch,
            label: label.into(),
        }
    }
}

/// The entries of `n` flows drawn in their own colours ([`super::style::colour_of`]): one each
/// while there are few enough to tell apart, else flow 1 and the rest as one quiet entry.
/// `widths` are flow 1's line and the others'.
pub fn flow_items(n: usize, lang: Lang, (first, others): (f64, f64)) -> Vec<Item> {
    let named = if n > NAMED_FLOWS { 1 } else { n };
    let mut items: Vec<Item> = (0..named)
        .map(|i| {
            Item::new(
                Swatch::Line(flow_colour(i), if i == 0 { first } else { others }),
                format!("{} {}", lang.pick("flow", "流"), i + 1),
            )
        })
        .collect();
    if named < n {
        items.push(Item::new(
            Swatch::Line(MANY_FLOWS, others),
            format!("{} 2–{n}", lang.pick("flows", "流")),
        ));
    }
    items
}

/// Entries placed in rows: (item index, x, row).
struct Placement {
    at: Vec<(usize, i32, i32)>,
    rows: i32,
}

fn sample_w(st: &Style) -> i32 {
    st.px(22.0)
}

fn place(root: &Root, st: &Style, items: &[Item], x0: i32, x1: i32) -> Placement {
    let gap = st.px(16.0);
    let text_gap = st.px(5.0);
    let style = st.text(1.0, INK);
    let mut at = Vec::with_capacity(items.len());
    let (mut x, mut row) = (x0, 0);
    for (i, item) in items.iter().enumerate() {
        let tw = root
            .estimate_text_size(&item.label, &style)
            .map(|(w, _)| w as i32)
            // Without a measurement, an average glyph is about 0.55 em wide.
            .unwrap_or_else(|_| {
                (item.label.chars().count() as f64 * st.font_css * 0.55 * st.dpr) as i32
            });
        let w = sample_w(st) + text_gap + tw;
        if x > x0 && x + w > x1 {
            row += 1;
            x = x0;
        }
        at.push((i, x, row));
        x += w + gap;
    }
    Placement {
        at,
        rows: if items.is_empty() { 0 } else { row + 1 },
    }
}

pub fn row_height(st: &Style) -> i32 {
    st.px(17.0)
}

/// The height the legend needs at this width, in device pixels.
pub fn height(root: &Root, st: &Style, items: &[Item], x0: i32, x1: i32) -> i32 {
    place(root, st, items, x0, x1).rows * row_height(st)
}

/// Draws the legend's rows from `top`, between `x0` and `x1`.
pub fn draw(
    root: &Root,
    st: &Style,
    items: &[Item],
    x0: i32,
    x1: i32,
    top: i32,
) -> Result<(), String> {
    let placement = place(root, st, items, x0, x1);
    let rh = row_height(st);
    let sw = sample_w(st);
    let text = st.text(1.0, INK);
    for (i, x, row) in placement.at {
        let item = &items[i];
        let y = top + row * rh + rh / 2;
        let r = st.px(3.5);
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        match item.swatch {
            Swatch::Line(c, w) => root
                .draw(&PathElement::new(vec![(x, y), (x + sw, y)], st.line(c, w)))
                .map_err(e)?,
            Swatch::Dashed(c, w) => {
                let dash = st.px(5.0).max(2);
                let mut sx = x;
                while sx < x + sw {
                    let ex = (sx + dash).min(x + sw);
                    root.draw(&PathElement::new(vec![(sx, y), (ex, y)], st.line(c, w)))
                        .map_err(e)?;
                    sx += dash + st.px(3.0).max(2);
                }
            }
            Swatch::Dot(c) => root
                .draw(&Circle::new((x + sw / 2, y), r, c.filled()))
                .map_err(e)?,
            Swatch::Cross(c) => root
                .draw(&Cross::new((x + sw / 2, y), r, st.line(c, 1.6)))
                .map_err(e)?,
            Swatch::Triangle(c) => root
                .draw(&TriangleMarker::new((x + sw / 2, y), r + 1, c.filled()))
                .map_err(e)?,
            Swatch::Tick(c) => root
                .draw(&PathElement::new(
                    vec![(x + sw / 2, y - rh / 3), (x + sw / 2, y + rh / 3)],
                    st.line(c, 1.4),
                ))
                .map_err(e)?,
            Swatch::Block(c) => root
                .draw(&Rectangle::new(
                    [(x, y - rh / 3), (x + sw, y + rh / 3)],
                    c.filled(),
                ))
                .map_err(e)?,
        }
        root.draw(&Text::new(
            item.label.clone(),
            (x + sw + st.px(5.0), y),
            text.pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Left,
                plotters::style::text_anchor::VPos::Center,
            )),
        ))
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}
