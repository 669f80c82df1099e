//! The comparison's charts: each scenario's goodput, and flow 1's congestion window, over time,
//! every scenario on the same axes in its own colour.

use std::rc::Rc;

use plotters::prelude::*;
use tcplab::view::RunView;

use crate::charts::fmt::{self, TimeUnit};
use crate::charts::goodput::{round_trip_ms, smooth, summed};
use crate::charts::legend::{Item, Swatch};
use crate::charts::series::{decimate, finite, steps};
use crate::charts::style::{Style, ACCENT};
use crate::charts::{Ctx, Root};
use crate::i18n::Lang;
use crate::sweep::canvas::Drawing;
use crate::sweep::xy::{self, Axis};

/// A, B, C: the accent blue, then orange and green, as flows 1 to 3 are drawn elsewhere.
pub const COLOURS: [RGBColor; 3] = [
    ACCENT,
    RGBColor(0xe0, 0x6c, 0x00),
    RGBColor(0x3b, 0x8f, 0x3f),
];

/// The letter of scenario `i`.
pub fn letter(i: usize) -> char {
    char::from(b'A' + (i as u8).min(25))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    Goodput,
    Cwnd,
    /// The distribution of message latencies (messages workloads).
    Latency,
}

pub struct Compared {
    pub what: What,
    /// Each scenario's view, when it is back.
    pub views: Vec<Option<Rc<RunView>>>,
    /// What tells each scenario apart ([`super::labels::labels`]).
    pub labels: Rc<Vec<String>>,
    pub lang: Lang,
}

/// The sum of every flow's goodput, smoothed over a round trip each way (as the lab's goodput
/// chart draws it).
fn goodput(view: &Rc<RunView>, lang: Lang) -> Vec<(f64, f64)> {
    let Some(f0) = view.flows.first() else {
        return Vec::new();
    };
    let rt = round_trip_ms(&Ctx::new(view.clone(), lang));
    let m = if f0.bin_ms > 0.0 && rt.is_finite() {
        ((rt / f0.bin_ms).ceil() as usize).clamp(1, 100_000)
    } else {
        1
    };
    finite(smooth(&summed(&view.flows), f0.bin_ms, m))
}

/// Each delivered message's latency against the share of messages at most that late.
pub fn latency_cdf(view: &RunView) -> Vec<(f64, f64)> {
    let mut l: Vec<f64> = view
        .messages
        .iter()
        .filter_map(|m| Some(m.read_ms? - m.write_ms))
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    l.sort_by(f64::total_cmp);
    let n = view.messages.len().max(1) as f64;
    let mut out = Vec::with_capacity(l.len() * 2);
    for (i, v) in l.iter().enumerate() {
        out.push((*v, i as f64 / n));
        out.push((*v, (i + 1) as f64 / n));
    }
    out
}

fn cwnd(view: &RunView) -> Vec<(f64, f64)> {
    let Some(f0) = view.flows.first() else {
        return Vec::new();
    };
    let pts = finite(f0.window.iter().map(|w| (w.t, w.cwnd)));
    steps(&pts, view.end_ms)
}

impl Drawing for Compared {
    fn draw(&self, root: &Root, st: &Style) -> Result<(), String> {
        let lang = self.lang;
        let lines: Vec<Option<Vec<(f64, f64)>>> = self
            .views
            .iter()
            .map(|v| {
                v.as_ref().map(|v| match self.what {
                    What::Goodput => goodput(v, lang),
                    What::Cwnd => cwnd(v),
                    What::Latency => latency_cdf(v),
                })
            })
            .collect();
        let end = self
            .views
            .iter()
            .flatten()
            .map(|v| crate::charts::axis_end(v))
            .fold(1.0, f64::max);
        let (_, top) = xy::range(lines.iter().flatten().flatten().map(|p| p.1), false);
        let latency = self.what == What::Latency;
        let (xlo, xhi) = if latency {
            xy::range(lines.iter().flatten().flatten().map(|p| p.0), true)
        } else {
            (0.0, end)
        };
        let items: Vec<Item> = self
            .views
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let name = self.labels.get(i).cloned().unwrap_or_default();
                let label = match v {
                    Some(_) => format!("{}: {name}", letter(i)),
                    None => format!(
                        "{}: {name} ({})",
                        letter(i),
                        lang.pick("running…", "运行中…")
                    ),
                };
                Item::new(Swatch::Line(COLOURS[i % COLOURS.len()], 2.0), label)
            })
            .collect();
        let unit = TimeUnit::for_span(end);
        let xtick = move |v: f64| if latency { fmt::sig(v) } else { unit.tick(v) };
        let ytick = |v: f64| match self.what {
            What::Goodput => fmt::sig(v),
            What::Latency => format!("{}%", fmt::sig(v * 100.0)),
            What::Cwnd => fmt::bytes(v),
        };
        let frame = xy::frame(
            root,
            st,
            &items,
            &Axis {
                lo: xlo,
                hi: xhi,
                log: latency,
                desc: if latency {
                    lang.pick("message latency (ms)", "消息时延（ms）")
                        .to_string()
                } else {
                    unit.desc(lang).to_string()
                },
                tick: &xtick,
            },
            &Axis {
                lo: 0.0,
                hi: if latency { 1.0 } else { top },
                log: false,
                desc: match self.what {
                    What::Goodput => {
                        lang.pick("goodput, all flows (MB/s)", "有效吞吐量，所有流（MB/s）")
                    }
                    What::Cwnd => lang.pick("cwnd, flow 1 (bytes)", "拥塞窗口，流 1（字节）"),
                    What::Latency => lang.pick("share of messages", "消息占比"),
                }
                .to_string(),
                tick: &ytick,
            },
        )?;
        let cols = ((frame.right() - frame.left()) / st.dpr).max(1.0) as usize;
        for (i, line) in lines.iter().enumerate().rev() {
            let Some(line) = line else { continue };
            let thin = if latency {
                line.clone()
            } else {
                decimate(line, 0.0, end, cols)
            };
            xy::line(
                root,
                st,
                &frame,
                &thin,
                COLOURS[i % COLOURS.len()].stroke_width(st.stroke(if i == 0 { 2.0 } else { 1.6 })),
                None,
            )?;
        }
        Ok(())
    }
}
