//! The legend, laid out in rows above the plotting area rather than in a box over the data.

use plotters::prelude::*;

use super::dash::{DashedPath, Stroke};
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

/// The link's dashed line, named for what it is: a fixed link's rate, or a varying link's mean
/// over the run (`Theory::link_varies`), which the verdict's "of the link" is also read against.
pub fn link_rate(theory: &tcplab::view::Theory, lang: Lang) -> String {
    let name = if theory.link_varies {
        lang.pick("link's mean this run", "本次运行的链路平均速率")
    } else {
        lang.pick("link rate", "链路速率")
    };
    format!("{name} {}", super::fmt::rate(theory.link_mbps))
}

/// The entries of the flows named `names` drawn in their own colours
/// ([`super::style::colour_of`]): one each while there are few enough to tell apart, else flow
/// 1 and the rest as one quiet entry. `widths` are flow 1's line and the others'.
pub fn flow_items(names: &[String], lang: Lang, (first, others): (f64, f64)) -> Vec<Item> {
    let n = names.len();
    let named = if n > NAMED_FLOWS { 1 } else { n };
    let mut items: Vec<Item> = names[..named]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            Item::new(
                Swatch::Line(flow_colour(i), if i == 0 { first } else { others }),
                name.clone(),
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

/// Entries placed in rows: (item index, x, first row, the label's lines).
struct Placement {
    at: Vec<(usize, i32, i32, Vec<String>)>,
    rows: i32,
}

fn sample_w(st: &Style) -> i32 {
    st.px(22.0)
}

/// Device pixels a text takes on a row of the legend.
fn text_w(st: &Style, text: &str) -> i32 {
    super::measure::text_width(text, &st.text(1.0, INK))
        .map(|w| w.ceil() as i32)
        // Without a measurement, an average glyph is about 0.55 em wide.
        .unwrap_or_else(|| (text.chars().count() as f64 * st.font_css * 0.55 * st.dpr) as i32)
}

/// A label's words, a number kept with the unit after it ("210 MB/s", "530 ms)"): a line
/// that ends in a number leaves its reader to guess the unit on the next.
fn words(label: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in label.split(' ') {
        let unit = word
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '%');
        match out.last_mut() {
            Some(last) if unit && last.ends_with(|c: char| c.is_ascii_digit()) => {
                last.push(' ');
                last.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// Chinese and its full-width punctuation: a line may break between two such characters, as
/// it may at a space in English.
fn ideographic(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303f}' | '\u{3400}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}')
        || matches!(c, '“' | '”' | '‘' | '’')
}

/// Punctuation no line starts with (a closing one) or ends with (an opening one): Chinese's
/// line-breaking rules, which keep "（" with what it opens and "）" with what it closes.
fn closes(c: char) -> bool {
    "，。、；：？！）」』】》”’),.:;!?%".contains(c)
}

fn opens(c: char) -> bool {
    "（「『【《“‘(".contains(c)
}

/// The pieces a label may break between, each with whether a space comes before it: its
/// words ([`words`]), and within a word of Chinese, each character (its punctuation kept with
/// its neighbour).
fn pieces(label: &str) -> Vec<(bool, String)> {
    let mut out: Vec<(bool, String)> = Vec::new();
    for word in words(label) {
        let mut piece = String::new();
        let mut spaced = true;
        for c in word.chars() {
            // A space inside a word keeps a number with its unit ("30 个包").
            let breaks = piece.chars().last().is_some_and(|before| {
                (ideographic(before) || ideographic(c))
                    && !closes(c)
                    && !opens(before)
                    && before != ' '
            });
            if breaks {
                out.push((spaced, std::mem::take(&mut piece)));
                spaced = false;
            }
            piece.push(c);
        }
        out.push((spaced, piece));
    }
    out
}

/// A label broken into lines no wider than `room`, at its spaces and between Chinese
/// characters (a piece longer than that keeps its own line): a phone's narrow chart shows the
/// whole of a long entry.
fn lines(st: &Style, label: &str, room: i32) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for (spaced, piece) in pieces(label) {
        let wider = if line.is_empty() {
            piece.clone()
        } else if spaced {
            format!("{line} {piece}")
        } else {
            format!("{line}{piece}")
        };
        if !line.is_empty() && text_w(st, &wider) > room {
            out.push(std::mem::take(&mut line));
            line = piece;
        } else {
            line = wider;
        }
    }
    out.push(line);
    out
}

fn place(st: &Style, items: &[Item], x0: i32, x1: i32) -> Placement {
    let gap = st.px(16.0);
    let text_gap = st.px(5.0);
    let room = (x1 - x0 - sample_w(st) - text_gap).max(1);
    let mut at = Vec::with_capacity(items.len());
    let (mut x, mut row) = (x0, 0);
    for (i, item) in items.iter().enumerate() {
        let tw = text_w(st, &item.label);
        if tw <= room {
            let w = sample_w(st) + text_gap + tw;
            if x > x0 && x + w > x1 {
                row += 1;
                x = x0;
            }
            at.push((i, x, row, vec![item.label.clone()]));
            x += w + gap;
        } else {
            // Wider than the legend: on rows of its own.
            if x > x0 {
                row += 1;
            }
            let broken = lines(st, &item.label, room);
            let n = broken.len() as i32;
            at.push((i, x0, row, broken));
            row += n;
            x = x0;
            if i + 1 == items.len() {
                row -= 1;
            }
        }
    }
    Placement {
        at,
        rows: if items.is_empty() { 0 } else { row + 1 },
    }
}

/// Where a legend's rows go, for a plot from `x0` to `x1` on a canvas `w` device pixels wide:
/// over the plot, lined up with it, unless the plot is a phone's, when they take the canvas's
/// whole width. A 390 px phone's chart has 200 px of plot between its two axes' labels, where
/// the cwnd chart's legend wrapped onto seven rows and left its plot 170 px.
pub fn span(st: &Style, w: i32, (x0, x1): (i32, i32)) -> (i32, i32) {
    if !st.narrow_plot(f64::from(x1 - x0)) {
        (x0, x1)
    } else {
        (st.px(12.0), w - st.px(8.0))
    }
}

pub fn row_height(st: &Style) -> i32 {
    st.px(17.0)
}

/// The height the legend needs at this width, in device pixels.
pub fn height(st: &Style, items: &[Item], x0: i32, x1: i32) -> i32 {
    place(st, items, x0, x1).rows * row_height(st)
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
    let placement = place(st, items, x0, x1);
    let rh = row_height(st);
    let sw = sample_w(st);
    let text = st.text(1.0, INK);
    for (i, x, row, lines) in placement.at {
        let item = &items[i];
        let y = top + row * rh + rh / 2;
        let r = st.px(3.5);
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        match item.swatch {
            Swatch::Line(c, w) => root
                .draw(&PathElement::new(vec![(x, y), (x + sw, y)], st.line(c, w)))
                .map_err(e)?,
            Swatch::Dashed(c, w) => {
                let (on, off) = (st.px(5.0).max(2), st.px(3.0).max(2));
                let stroke = Stroke::new(st.line(c, w), on.unsigned_abs(), off.unsigned_abs());
                root.draw(&DashedPath::new([(x, y), (x + sw, y)], stroke))
                    .map_err(e)?
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
        for (k, line) in lines.into_iter().enumerate() {
            root.draw(&Text::new(
                line,
                (x + sw + st.px(5.0), y + k as i32 * rh),
                text.clone().pos(plotters::style::text_anchor::Pos::new(
                    plotters::style::text_anchor::HPos::Left,
                    plotters::style::text_anchor::VPos::Center,
                )),
            ))
            .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::charts::cwnd::Cwnd;
    use crate::charts::Ctx;
    use crate::worker::protocol::run_view;

    /// A canvas `css_w` CSS pixels wide, and its plot's edges as the time charts lay it out.
    fn plot_edges(st: &Style, css_w: f64) -> (i32, i32, i32) {
        let w = st.px(css_w);
        let (x0, x1) = crate::charts::axis::plot_edges(w, st);
        (w, x0, x1)
    }

    fn rows(st: &Style, items: &[Item], (x0, x1): (i32, i32)) -> i32 {
        place(st, items, x0, x1).rows
    }

    #[test]
    fn a_phones_legend_takes_the_charts_width_and_a_laptops_lines_up_with_its_plot() {
        let st = Style::new(1.0, 16.0);
        let view = Rc::new(run_view("cc=cubic&bw=10&rtt=40&dur=20"));
        let items = Cwnd(Ctx::new(view, Lang::En)).legend(5e6, false);
        assert!(items.len() >= 6, "the cwnd legend: {items:?}");

        // The chart of a 390 px phone: 345 CSS px of canvas, 200 of them plot.
        let (w, x0, x1) = plot_edges(&st, 345.0);
        let (l0, l1) = span(&st, w, (x0, x1));
        assert!(
            l0 < x0 && l1 > x1,
            "{l0}..{l1} against the plot's {x0}..{x1}"
        );
        assert!(l1 <= w && l0 >= 0);
        let (over_plot, spanning) = (rows(&st, &items, (x0, x1)), rows(&st, &items, (l0, l1)));
        assert!(
            spanning <= 4 && spanning + 2 <= over_plot,
            "{spanning} rows across the canvas, {over_plot} over the plot alone"
        );

        // Broken however narrow, no line ends in a number whose unit is on the next.
        let label = "rwnd/RTT = 210 MB/s (above the chart), smoothed over ±530 ms";
        for room in (40..400).step_by(10) {
            let broken = lines(&st, label, st.px(f64::from(room)));
            assert_eq!(broken.join(" "), label);
            for line in &broken[..broken.len() - 1] {
                assert!(!line.ends_with(|c: char| c.is_ascii_digit()), "{broken:?}");
            }
        }

        // Chinese breaks between its characters, never before a closing mark or after an
        // opening one, and loses nothing.
        for label in [
            "无理论曲线：请求体的理论是其完成时间（指标选“完成时间”）",
            "队列上限 1,000 个包（超出图表上方）",
        ] {
            for room in (40..400).step_by(10) {
                let room = st.px(f64::from(room));
                let broken = lines(&st, label, room);
                // Nothing lost or repeated but the spaces lines break at.
                assert_eq!(broken.concat().replace(' ', ""), label.replace(' ', ""));
                for line in &broken {
                    // Wider than the room only where it cannot break.
                    assert!(
                        text_w(&st, line) <= room || pieces(line).len() == 1,
                        "{room}: {broken:?}"
                    );
                    assert!(!line.starts_with(closes), "{broken:?}");
                    assert!(!line.ends_with(opens), "{broken:?}");
                    // A number keeps its unit: no line ends on it, or on the space after it.
                    assert!(
                        !line.ends_with(|c: char| c.is_ascii_digit() || c == ' '),
                        "{broken:?}"
                    );
                }
            }
        }

        // A laptop's: the legend starts where the plot does.
        let (w, x0, x1) = plot_edges(&st, 960.0);
        assert_eq!(span(&st, w, (x0, x1)), (x0, x1));
    }
}
