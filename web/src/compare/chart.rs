//! The comparison's charts, the single run's that apply to several scenarios at once: goodput,
//! flow 1's congestion window, its data acknowledged (the time-sequence graph's ACK line), its
//! smoothed round-trip time, the bottleneck's queue, and for messages their latency; every
//! scenario on the same axes in its own colour. Everything about one chart is in [`What`].

use std::rc::Rc;

use plotters::prelude::*;
use tcplab::view::RunView;

use crate::charts::canvas::Drawing;
use crate::charts::fmt::{self, TimeUnit};
use crate::charts::goodput::{round_trip_ms, smooth, summed};
use crate::charts::legend::{Item, Swatch};
use crate::charts::series::{decimate, finite, steps};
use crate::charts::style::{Style, ACCENT};
use crate::charts::xy::{self, Axis};
use crate::charts::{Ctx, Root};
use crate::i18n::Lang;

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
    /// Flow 1's cumulative ACK over time: which scenario's data gets through first.
    Acked,
    /// Flow 1's smoothed RTT (RFC 6298's SRTT) over time: the queue a scenario builds.
    Rtt,
    /// Packets waiting at the bottleneck.
    Queue,
    /// The distribution of message latencies (messages workloads).
    Latency,
}

impl What {
    pub const ALL: [What; 6] = [
        What::Goodput,
        What::Cwnd,
        What::Acked,
        What::Rtt,
        What::Queue,
        What::Latency,
    ];

    /// The canvas's id, which the export and the tests name.
    pub fn id(self) -> &'static str {
        match self {
            What::Goodput => "compare-goodput",
            What::Cwnd => "compare-cwnd",
            What::Acked => "compare-acked",
            What::Rtt => "compare-rtt",
            What::Queue => "compare-queue",
            What::Latency => "compare-latency",
        }
    }

    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            What::Goodput => lang.pick("Goodput over time", "有效吞吐量随时间"),
            What::Cwnd => lang.pick("Congestion window of flow 1", "流 1 的拥塞窗口"),
            What::Acked => lang.pick("Data acknowledged, flow 1", "流 1 已确认的数据"),
            What::Rtt => lang.pick("Smoothed round-trip time, flow 1", "流 1 的平滑往返时间"),
            What::Queue => lang.pick("Bottleneck queue", "瓶颈队列"),
            What::Latency => lang.pick("Message latency, distribution", "消息时延分布"),
        }
    }

    /// What the chart's title tells on hover, as the lab's own chart of the same quantity.
    pub fn tip(self, lang: Lang) -> Option<&'static str> {
        match self {
            What::Goodput => Some(crate::charts::goodput::tip(lang)),
            _ => None,
        }
    }

    /// CSS pixels at the default text size.
    pub fn height(self) -> f64 {
        match self {
            What::Goodput => 300.0,
            _ => 260.0,
        }
    }

    /// Whether the chart has something to show for these runs: message latency for messages,
    /// a TCP flow's charts where there is one, the queue always.
    pub fn applies(self, views: &[Option<Rc<RunView>>]) -> bool {
        let any = |f: &dyn Fn(&RunView) -> bool| views.iter().flatten().any(|v| f(v));
        match self {
            What::Latency => any(&|v| v.summary.msgs.is_some()),
            What::Cwnd | What::Acked | What::Rtt => any(&|v| !v.flows.is_empty()),
            What::Goodput | What::Queue => true,
        }
    }

    fn line(self, view: &Rc<RunView>, lang: Lang) -> Vec<(f64, f64)> {
        let first = view.flows.first();
        match self {
            What::Goodput => goodput(view, lang),
            What::Cwnd => cwnd(view),
            What::Acked => first.map_or_else(Vec::new, |f| finite(f.acks.iter().copied())),
            What::Rtt => first.map_or_else(Vec::new, |f| {
                finite(f.window.iter().filter_map(|w| Some((w.t, w.srtt_ms?))))
            }),
            What::Queue => steps(&finite(view.queue.iter().copied()), view.end_ms),
            What::Latency => latency_cdf(view),
        }
    }

    fn y_desc(self, lang: Lang) -> &'static str {
        match self {
            What::Goodput => lang.pick("goodput, all flows (MB/s)", "有效吞吐量，所有流（MB/s）"),
            What::Cwnd => lang.pick("cwnd, flow 1 (bytes)", "拥塞窗口，流 1（字节）"),
            What::Acked => lang.pick("bytes acknowledged", "已确认字节"),
            What::Rtt => lang.pick("SRTT (ms)", "SRTT（ms）"),
            What::Queue => lang.pick("packets queued", "排队的包"),
            What::Latency => lang.pick("share of messages", "消息占比"),
        }
    }

    fn y_tick(self, v: f64) -> String {
        match self {
            What::Goodput | What::Rtt | What::Queue => fmt::sig(v),
            What::Latency => format!("{}%", fmt::sig(v * 100.0)),
            What::Cwnd | What::Acked => fmt::bytes(v),
        }
    }
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

/// The first line before line `i` that it is drawn exactly over, hiding it (two scenarios that
/// run alike: a setting that changes nothing here): its legend entry says so.
fn same_as(lines: &[Option<Vec<(f64, f64)>>], i: usize) -> Option<usize> {
    let line = lines.get(i)?.as_ref().filter(|l| !l.is_empty())?;
    (0..i).find(|&j| lines[j].as_ref() == Some(line))
}

impl Drawing for Compared {
    fn draw(&self, root: &Root, st: &Style) -> Result<(), String> {
        let lang = self.lang;
        let lines: Vec<Option<Vec<(f64, f64)>>> = self
            .views
            .iter()
            .map(|v| v.as_ref().map(|v| self.what.line(v, lang)))
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
                let label = match (v, same_as(&lines, i)) {
                    (Some(_), Some(j)) => match lang {
                        Lang::En => {
                            format!("{}: {name} (the same line as {})", letter(i), letter(j))
                        }
                        Lang::Zh => format!("{}: {name}（与 {} 的线重合）", letter(i), letter(j)),
                    },
                    (Some(_), None) => format!("{}: {name}", letter(i)),
                    (None, _) => format!(
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
        let ytick = |v: f64| self.what.y_tick(v);
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
                desc: self.what.y_desc(lang).to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_drawn_over_an_earlier_one_names_it() {
        let a = Some(vec![(0.0, 1.0), (1.0, 2.0)]);
        let b = Some(vec![(0.0, 1.0), (1.0, 2.5)]);
        let lines = [a.clone(), b.clone(), a.clone(), None, b, Some(Vec::new())];
        let found: Vec<Option<usize>> = (0..lines.len()).map(|i| same_as(&lines, i)).collect();
        assert_eq!(found, [None, None, Some(0), None, Some(1), None]);
    }
}
