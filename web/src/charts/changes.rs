//! The path's scheduled changes (`sched`) marked on every time chart: a dashed line at each
//! instant, labelled with the key and its new value, so that a drop in goodput or a jump in
//! RTT can be read against the change that caused it.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use tcplab::scenario::Key;
use tcplab::view::ChangeView;

use super::dash::{DashedPath, Stroke};
use super::frame::Frame;
use super::style::{Style, MUTED};
use super::{err, Root};
use crate::i18n::Lang;

/// A change as its label reads: `bw 10 Mbit/s`, `loss 2 %`.
pub fn label(c: &ChangeView, lang: Lang) -> String {
    let unit = match (c.key, lang) {
        (Key::Bw, _) => " Mbit/s",
        (Key::Loss | Key::Ackloss, _) => " %",
        (Key::Rtt, _) => " ms",
        (Key::Queue, Lang::En) => " packets",
        (Key::Queue, Lang::Zh) => " 个包",
        _ => "",
    };
    format!("{} {}{unit}", c.key, c.value)
}

/// Draws each change inside the chart's time range.
pub fn mark(
    root: &Root,
    frame: &Frame,
    st: &Style,
    changes: &[ChangeView],
    lang: Lang,
) -> Result<(), String> {
    let (top, bottom) = (frame.top().round() as i32, frame.bottom().round() as i32);
    let dash = st.px(4.0).max(1).unsigned_abs();
    let dashes = Stroke::new(st.line(MUTED, 1.0), dash, dash);
    let text = st.text(0.85, MUTED).pos(Pos::new(HPos::Left, VPos::Top));
    // Changes at one instant share a line and stack their labels.
    let mut last: Option<(i32, i32)> = None;
    for c in changes {
        if c.t < frame.x.lo || c.t > frame.x.hi {
            continue;
        }
        let Some(x) = frame.x.x_px(c.t) else {
            continue;
        };
        let x = x.round() as i32;
        let row = match last {
            Some((lx, row)) if (x - lx).abs() < st.px(2.0) => row + 1,
            _ => {
                root.draw(&DashedPath::new([(x, top), (x, bottom)], dashes))
                    .map_err(err)?;
                0
            }
        };
        last = Some((x, row));
        root.draw(&Text::new(
            label(c, lang),
            (x + st.px(3.0), top + st.px(2.0) + row * st.px(13.0)),
            text.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_key_and_its_unit() {
        let c = |key, value: &str| ChangeView {
            t: 1000.0,
            key,
            value: value.into(),
        };
        assert_eq!(label(&c(Key::Bw, "10"), Lang::En), "bw 10 Mbit/s");
        assert_eq!(label(&c(Key::Loss, "2"), Lang::Zh), "loss 2 %");
        assert_eq!(label(&c(Key::Queue, "30"), Lang::Zh), "queue 30 个包");
        assert_eq!(label(&c(Key::Rtt, "80"), Lang::En), "rtt 80 ms");
    }
}
