//! How several flows share the bottleneck, window by window (core's `metrics::fairness`): each
//! flow's share of their goodput in its own colour, and Jain's fairness index over them, which
//! is 1 when every flow gets the same and 1/n when one gets it all.

use plotters::prelude::*;

use super::axis::{time_chart, YAxis};
use super::cursor::{Readout, Row};
use super::draw::{self, Pen};
use super::fmt;
use super::frame::Frame;
use super::legend::{self, Item, Swatch};
use super::plot::{At, Figure};
use super::series::{clip_x, index_at, steps};
use super::style::*;
use super::{Ctx, Root};
use crate::i18n::Lang;

#[derive(Debug, Clone, PartialEq)]
pub struct Sharing(pub Ctx);

/// Jain's index: the ink of totals, dashed apart from the flows.
const JAIN: RGBColor = TOTAL;

pub fn applies(ctx: &Ctx) -> bool {
    ctx.view.flows.len() > 1 && ctx.view.fairness.iter().any(|p| p.jain.is_some())
}

impl Sharing {
    /// The windows known whole (see [`Ctx::known`]): a window's share counts what it delivered
    /// to its end, and while a lesson's question waits for its answer nothing later is known.
    fn windows(&self) -> &[tcplab::view::FairnessPoint] {
        let w = self.0.view.fairness_window_ms;
        self.0.known(&self.0.view.fairness, |p| p.t + w)
    }

    /// Flow `i`'s share per window, as a step line from each window's start.
    fn share(&self, i: usize) -> Vec<(f64, f64)> {
        self.windows()
            .iter()
            .filter_map(|p| Some((p.t, *p.shares.as_ref()?.get(i)?)))
            .collect()
    }

    fn jain(&self) -> Vec<(f64, f64)> {
        self.windows()
            .iter()
            .filter_map(|p| Some((p.t, p.jain?)))
            .collect()
    }

    /// Where the last window ends: its step holds to there.
    fn end(&self) -> f64 {
        self.windows()
            .last()
            .map_or(self.0.end_ms, |p| p.t + self.0.view.fairness_window_ms)
    }
}

impl Figure for Sharing {
    fn kind(&self) -> &'static str {
        "sharing"
    }

    fn ctx(&self) -> &Ctx {
        &self.0
    }

    fn title(&self) -> String {
        self.0
            .pick("How the flows share the link", "各流如何分享链路")
            .to_string()
    }

    fn note(&self) -> Option<String> {
        let w = fmt::ms(self.0.view.fairness_window_ms);
        Some(match self.0.lang {
            Lang::En => format!("per {w} of goodput"),
            Lang::Zh => format!("每 {w} 的有效吞吐"),
        })
    }

    fn tip(&self) -> Option<String> {
        Some(
            self.0
                .pick(
                    "Each flow's share of what all the flows delivered in each window, and Jain's \
                     fairness index (Σx)²/(n·Σx²) over them: 1 when every flow gets the same, 1/n \
                     when one gets it all. A flow not yet started counts as getting nothing.",
                    "每个窗口内各流在全部流交付量中所占的份额，以及它们的 Jain 公平指数 (Σx)²/(n·Σx²)：\
                     各流所得相同时为 1，一条流独占时为 1/n。尚未开始的流按零计。",
                )
                .to_string(),
        )
    }

    fn height(&self) -> f64 {
        230.0
    }

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.0;
        let lang = ctx.lang;
        let (lo, hi) = ctx.span();
        let n = ctx.view.flows.len();
        let end = self.end();
        let fair = 1.0 / n as f64;
        let mut items = legend::flow_items(&ctx.flow_names(), lang, (1.8, 1.2));
        items.push(Item::new(
            Swatch::Dashed(JAIN, 1.8),
            lang.pick("Jain's fairness index", "Jain 公平指数"),
        ));
        items.push(Item::new(
            Swatch::Dashed(MUTED, 1.0),
            match lang {
                Lang::En => format!("fair share 1/{n}"),
                Lang::Zh => format!("公平份额 1/{n}"),
            },
        ));
        let tick = |v: f64| fmt::trim(v, 2);
        let y = YAxis {
            bottom: 0.0,
            top: 1.0,
            desc: lang
                .pick("share · index (0 to 1)", "份额 · 指数（0 到 1）")
                .to_string(),
            tick: &tick,
            right: None,
        };
        let (mut chart, frame) = time_chart(root, st, lang, (lo, hi), &y, &items, 0)?;
        draw::level(&mut chart, st, &frame, fair, Pen::dashed(MUTED, 1.0))?;
        // Flow 1 last, on top, as the other charts draw it.
        for i in (0..n).rev() {
            let width = if i == 0 { 1.8 } else { 1.2 };
            let line = clip_x(&steps(&self.share(i), end), lo, hi);
            draw::line(
                &mut chart,
                st,
                &frame,
                &line,
                Pen::solid(colour_of(i, n), width),
            )?;
        }
        let jain = clip_x(&steps(&self.jain(), end), lo, hi);
        draw::line(&mut chart, st, &frame, &jain, Pen::dashed(JAIN, 1.8))?;
        Ok(frame)
    }

    fn readout(&self, at: At, _: &Frame, _: &Style) -> Option<Readout> {
        let t = at.t_ms;
        let ctx = &self.0;
        let points = self.windows();
        let p = points.get(index_at(points, t, |p| p.t)?)?;
        let mut rows = Vec::new();
        if let Some(j) = p.jain {
            rows.push(Row::new(
                JAIN,
                format!("{} {}", ctx.pick("Jain", "Jain 指数"), fmt::trim(j, 3)),
                Some(j),
            ));
        }
        let names = ctx.flow_names();
        let n = names.len();
        for (i, (name, share)) in names
            .iter()
            .zip(p.shares.iter().flatten())
            .enumerate()
            .take(NAMED_FLOWS)
        {
            rows.push(Row::new(
                colour_of(i, n),
                format!("{name} {}", crate::model::format::percent(100.0 * share)),
                Some(*share),
            ));
        }
        Some(Readout::at(t, rows))
    }
}
