//! For the message workload: each message's latency by the time it was sent, head-of-line
//! stalls shaded and each stall's release drawn as the burst it is; and the distribution of
//! latencies on a log axis with its percentiles.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use tcplab::view::{HolView, MsgView};

use super::axis::{self, time_chart, Right, YAxis};
use super::cursor::{Readout, Row};
use super::dash::{DashedPath, Stroke};
use super::draw::{self, Pen};
use super::fmt;
use super::frame::{above, top_of, Frame, Scale};
use super::legend::{Item, Swatch};
use super::plot::{At, Figure};
use super::series::{finite, max_of};
use super::style::*;
use super::{err, Ctx, Root};
use crate::i18n::Lang;

pub fn applies(ctx: &Ctx) -> bool {
    ctx.view.summary.msgs.is_some() || !ctx.view.messages.is_empty()
}

fn latency(m: &MsgView) -> Option<f64> {
    m.read_ms
        .map(|r| r - m.write_ms)
        .filter(|l| l.is_finite() && *l >= 0.0)
}

/// A message's latency once it is known (see [`Ctx::known`]): while a lesson's question waits
/// for its answer, a message read later has no latency yet.
fn known_latency(ctx: &Ctx, m: &MsgView) -> Option<f64> {
    latency(m).filter(|_| m.read_ms.is_some_and(|r| ctx.knows(r)))
}

/// The messages written by now, in order of sending.
fn known_messages(ctx: &Ctx) -> &[MsgView] {
    ctx.known(&ctx.view.messages, |m| m.write_ms)
}

/// The message sent closest to `t` (messages are in order of sending).
fn message_near(ms: &[MsgView], t: f64) -> Option<&MsgView> {
    let i = ms.partition_point(|m| m.write_ms < t);
    let after = ms.get(i);
    let before = i.checked_sub(1).and_then(|j| ms.get(j));
    match (before, after) {
        (Some(b), Some(a)) => Some(if t - b.write_ms <= a.write_ms - t {
            b
        } else {
            a
        }),
        (b, a) => b.or(a),
    }
}

/// The stall at `t`, of those begun by now.
fn stall_at<'a>(ctx: &Ctx, hol: &'a [HolView], t: f64) -> Option<&'a HolView> {
    hol.iter()
        .find(|h| ctx.knows(h.start_ms) && h.start_ms <= t && t <= h.end_ms)
}

fn one_way_ms(ctx: &Ctx) -> f64 {
    ctx.view.theory.rtt_ms / 2.0
}

fn thinned_note(ctx: &Ctx) -> Option<String> {
    let sent = ctx.view.summary.msgs.as_ref()?.sent;
    let kept = ctx.view.messages.len() as u64;
    (kept < sent).then(|| match ctx.lang {
        Lang::En => format!(
            "{} of {} messages drawn: the slowest of each run of neighbours",
            crate::model::format::count(kept),
            crate::model::format::count(sent)
        ),
        Lang::Zh => format!(
            "绘出 {} / {} 条消息：每组相邻消息中最慢的一条",
            crate::model::format::count(kept),
            crate::model::format::count(sent)
        ),
    })
}

#[derive(Debug, Clone, PartialEq)]
pub struct Latency(pub Ctx);

/// The messages the latency chart draws, of those written in view and known (see
/// [`Ctx::known`]): (time written, latency) of those read freely and of those held behind a
/// loss, and the times written of those lost.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Points {
    pub free: Vec<(f64, f64)>,
    pub held: Vec<(f64, f64)>,
    pub lost: Vec<f64>,
}

impl Latency {
    /// The messages to draw. While a lesson's question waits for its answer, a message read
    /// later has no latency yet, and none is lost: it may still be on its way.
    pub fn points(&self) -> Points {
        let ctx = &self.0;
        let (lo, hi) = ctx.span();
        // Zoomed, the messages written in view, and the latency axis fitted to them.
        let shown = known_messages(ctx)
            .iter()
            .filter(|m| m.write_ms >= lo && m.write_ms <= hi);
        let read = |held: bool| {
            finite(
                shown
                    .clone()
                    .filter(|m| m.held_by.is_some() == held)
                    .filter_map(|m| Some((m.write_ms, known_latency(ctx, m)?))),
            )
        };
        let lost = if ctx.knows_the_end() {
            shown
                .clone()
                .filter(|m| m.read_ms.is_none() && m.write_ms.is_finite())
                .map(|m| m.write_ms)
                .collect()
        } else {
            Vec::new()
        };
        Points {
            free: read(false),
            held: read(true),
            lost,
        }
    }

    /// The run's 99th percentile, once the run is known to its end.
    fn p99(&self) -> Option<f64> {
        let ctx = &self.0;
        let stats = ctx.view.summary.msgs.as_ref();
        stats.and_then(|s| s.p99_ms).filter(|_| ctx.knows_the_end())
    }

    /// The legend for `points` on a chart topped at `top`: the stalls counted of those begun
    /// by now, the lost of those known lost.
    pub fn legend(&self, points: &Points, top: f64) -> Vec<Item> {
        let ctx = &self.0;
        let lang = ctx.lang;
        let stalls = ctx
            .view
            .hol
            .iter()
            .filter(|h| ctx.knows(h.start_ms))
            .count();
        let one_way = one_way_ms(ctx);
        let mut items = vec![Item::new(Swatch::Dot(MSG), lang.pick("message", "消息"))];
        if !points.held.is_empty() || stalls > 0 {
            items.push(Item::new(
                Swatch::Dot(HELD),
                lang.pick(
                    "held behind a loss (released in a burst)",
                    "因丢包被扣留（成批释放）",
                ),
            ));
            items.push(Item::new(
                Swatch::Block(HOL_SHADE),
                format!(
                    "{} ({})",
                    lang.pick("head-of-line stall", "队头阻塞"),
                    crate::model::format::count(stalls as u64)
                ),
            ));
        }
        if !points.lost.is_empty() {
            items.push(Item::new(
                Swatch::Cross(LOST),
                format!(
                    "{} ({})",
                    lang.pick("lost, never read", "丢失，未被读取"),
                    crate::model::format::count(points.lost.len() as u64)
                ),
            ));
        }
        items.push(Item::new(
            Swatch::Dashed(BDP, 1.2),
            format!(
                "{} RTT/2 = {}",
                lang.pick("one-way delay", "单向时延"),
                fmt::ms(one_way)
            ),
        ));
        if let Some(p) = self.p99() {
            items.push(Item::new(
                Swatch::Dashed(MATHIS, 1.2),
                format!("p99 = {}{}", fmt::ms(p), above(p, top, lang)),
            ));
        }
        items
    }
}

impl Figure for Latency {
    fn kind(&self) -> &'static str {
        "latency"
    }

    fn ctx(&self) -> &Ctx {
        &self.0
    }

    fn title(&self) -> String {
        self.0
            .pick("Message latency by send time", "按发送时间的消息时延")
            .to_string()
    }

    fn note(&self) -> Option<String> {
        thinned_note(&self.0)
    }

    fn height(&self) -> f64 {
        280.0
    }

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let points = self.points();
        let one_way = one_way_ms(ctx);
        let p99 = self.p99();
        let data_max = max_of(points.free.iter().chain(&points.held).map(|p| p.1));
        let mut refs = vec![one_way];
        refs.extend(p99);
        let top = top_of(data_max, &refs, 2.5).max(1.0);
        // Lost messages have no latency: they get a row of their own above the rest.
        let top = if points.lost.is_empty() {
            top
        } else {
            top * 1.1
        };
        let items = self.legend(&points, top);
        let Points { free, held, lost } = points;

        let tick = fmt::tick_for(top);
        let rtt = v.theory.rtt_ms;
        let y = YAxis {
            bottom: 0.0,
            top,
            desc: lang.pick("latency (ms)", "时延（ms）").to_string(),
            tick: &tick,
            right: (rtt.is_finite() && rtt > 0.0).then(|| Right {
                factor: 1.0 / rtt,
                desc: lang.pick("latency (RTTs)", "时延（RTT 数）").to_string(),
            }),
        };
        let (mut chart, frame) = time_chart(root, st, lang, ctx.span(), &y, &items, 0)?;
        for h in v.hol.iter().filter(|h| ctx.knows(h.start_ms)) {
            draw::span(&mut chart, &frame, h.start_ms, h.end_ms, HOL_SHADE)?;
        }
        draw::level(&mut chart, st, &frame, one_way, Pen::dashed(BDP, 1.2))?;
        if let Some(p) = p99 {
            draw::level(&mut chart, st, &frame, p, Pen::dashed(MATHIS, 1.2))?;
        }
        draw::dots(&mut chart, st, &frame, &free, 1.8, MSG)?;
        draw::dots(&mut chart, st, &frame, &held, 2.2, HELD)?;
        self.bursts(&mut chart, root, st, &frame)?;
        let lost_at: Vec<(f64, f64)> = lost.iter().map(|&t| (t, top * 0.97)).collect();
        draw::crosses(&mut chart, st, &frame, &lost_at, 3.0, Pen::solid(LOST, 1.4))?;
        Ok(frame)
    }

    fn readout(&self, at: At, _: &Frame, _: &Style) -> Option<Readout> {
        let t = at.t_ms;
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let mut rows = Vec::new();
        if let Some(m) = message_near(known_messages(ctx), t) {
            let latency = known_latency(ctx, m);
            let colour = if m.held_by.is_some() && latency.is_some() {
                HELD
            } else {
                MSG
            };
            let text = match (latency, lang) {
                (Some(l), Lang::En) => format!(
                    "message {} sent at {}: latency {}",
                    m.id + 1,
                    fmt::time(m.write_ms),
                    fmt::ms(l)
                ),
                (Some(l), Lang::Zh) => format!(
                    "消息 {}，发送于 {}：时延 {}",
                    m.id + 1,
                    fmt::time(m.write_ms),
                    fmt::ms(l)
                ),
                (None, Lang::En) if ctx.knows_the_end() => format!("message {} lost", m.id + 1),
                (None, Lang::Zh) if ctx.knows_the_end() => format!("消息 {} 丢失", m.id + 1),
                (None, Lang::En) => format!("message {} not read yet", m.id + 1),
                (None, Lang::Zh) => format!("消息 {} 尚未被读取", m.id + 1),
            };
            rows.push(Row::new(colour, text, latency));
        }
        if let Some(h) = stall_at(ctx, &v.hol, t) {
            rows.push(Row::new(
                HELD,
                match lang {
                    // A stall not yet over: when it ends and what it held is still to come.
                    Lang::En if !ctx.knows(h.end_ms) => {
                        format!("stall since {}: not released yet", fmt::time(h.start_ms))
                    }
                    Lang::Zh if !ctx.knows(h.end_ms) => {
                        format!("阻塞自 {} 起：尚未释放", fmt::time(h.start_ms))
                    }
                    Lang::En => format!(
                        "stall {}–{}: {} held, worst {}",
                        fmt::time(h.start_ms),
                        fmt::time(h.end_ms),
                        h.held,
                        fmt::ms(h.worst_ms)
                    ),
                    Lang::Zh => format!(
                        "阻塞 {}–{}：扣留 {} 条，最长 {}",
                        fmt::time(h.start_ms),
                        fmt::time(h.end_ms),
                        h.held,
                        fmt::ms(h.worst_ms)
                    ),
                },
                None,
            ));
        }
        Some(Readout::at(t, rows))
    }
}

impl Latency {
    /// Each stall's release: the messages it held, read at one instant, as a column of rings
    /// at that instant, with how many there were above it.
    fn bursts(
        &self,
        chart: &mut axis::TimeChart,
        root: &Root,
        st: &Style,
        frame: &Frame,
    ) -> Result<(), String> {
        let ctx = &self.0;
        let v = &ctx.view;
        let ring = st.px(2.6).max(2);
        let mut last_label = f64::NEG_INFINITY;
        // Centred labels this far apart do not touch: "×13" beside "×12" needed more than 30 px.
        let label_gap = st.px(40.0) as f64;
        // Only the releases known by now.
        for h in v.hol.iter().filter(|h| ctx.knows(h.end_ms)) {
            let lat: Vec<f64> = v
                .messages
                .iter()
                .filter(|m| m.held_by == Some(h.id))
                .filter_map(|m| known_latency(ctx, m))
                .filter(|l| *l <= frame.y.hi)
                .collect();
            let (Some(lo), Some(hi)) = (
                lat.iter().copied().reduce(f64::min),
                lat.iter().copied().reduce(f64::max),
            ) else {
                continue;
            };
            let x = h.end_ms;
            draw::line(chart, st, frame, &[(x, lo), (x, hi)], Pen::solid(HELD, 1.2))?;
            chart
                .draw_series(
                    lat.iter()
                        .map(|&l| Circle::new((x, l), ring, st.line(HELD, 1.2))),
                )
                .map_err(|e| e.to_string())?;
            let (Some(px), Some(py)) = (frame.x.x_px(x), frame.y.y_px(hi)) else {
                continue;
            };
            if h.held > 1 && px - last_label >= label_gap {
                last_label = px;
                root.draw(&Text::new(
                    format!("×{}", h.held),
                    (px.round() as i32, py.round() as i32 - st.px(4.0)),
                    st.text(0.9, HELD).pos(Pos::new(HPos::Center, VPos::Bottom)),
                ))
                .map_err(|e| e.to_string())?;
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Distribution(pub Ctx);

/// Round values for a log axis from `lo` to `hi`: 1, 2 and 5 times each power of ten, or every
/// digit when the span is too short for those to be more than a couple.
pub fn log_tick_values(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && hi > lo) {
        return Vec::new();
    }
    let pick = |digits: &[f64]| {
        let mut out = Vec::new();
        let mut mag = 10f64.powf(lo.log10().floor());
        while mag <= hi && out.len() < 100 {
            for d in digits {
                let v = d * mag;
                if v >= lo * (1.0 - 1e-9) && v <= hi * (1.0 + 1e-9) {
                    out.push(v);
                }
            }
            mag *= 10.0;
        }
        out
    };
    let coarse = pick(&[1.0, 2.0, 5.0]);
    if coarse.len() >= 4 {
        coarse
    } else {
        pick(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
    }
}

/// Grid lines and labels of the log latency axis.
fn log_ticks(root: &Root, st: &Style, frame: &Frame) -> Result<(), String> {
    let label = st.text(0.95, AXIS).pos(Pos::new(HPos::Center, VPos::Top));
    let (top, bottom) = (frame.top() as i32, frame.bottom() as i32);
    let mut last_right = f64::NEG_INFINITY;
    for v in log_tick_values(frame.x.lo, frame.x.hi) {
        let Some(x) = frame.x.x_px(v) else {
            continue;
        };
        let xi = x.round() as i32;
        root.draw(&PathElement::new(
            vec![(xi, top), (xi, bottom)],
            GRID.stroke_width(1),
        ))
        .map_err(|e| e.to_string())?;
        root.draw(&PathElement::new(
            vec![(xi, bottom), (xi, bottom + st.px(5.0))],
            st.line(AXIS, 1.0),
        ))
        .map_err(|e| e.to_string())?;
        let text = fmt::sig(v);
        let half = super::measure::text_width(&text, &label).map_or(0.0, |w| w / 2.0);
        // Digits crowd together at the top of each decade: skip a label that would touch.
        if x - half > last_right + f64::from(st.px(6.0)) {
            last_right = x + half;
            root.draw(&Text::new(text, (xi, bottom + st.px(7.0)), label.clone()))
                .map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Latencies of the messages read, of those known (see [`Ctx::known`]), sorted.
fn sorted_latencies(ctx: &Ctx) -> Vec<f64> {
    let mut l: Vec<f64> = known_messages(ctx)
        .iter()
        .filter_map(|m| known_latency(ctx, m))
        .collect();
    l.sort_by(f64::total_cmp);
    l
}

impl Distribution {
    /// The run's percentiles to mark: (latency, colour, label). The run's own figures, so only
    /// once the run is known to its end: a lesson's pending question sees none.
    pub fn marks(&self) -> Vec<(f64, RGBColor, String)> {
        let ctx = &self.0;
        let stats = ctx
            .view
            .summary
            .msgs
            .as_ref()
            .filter(|_| ctx.knows_the_end());
        [
            (stats.and_then(|s| s.p50_ms), INK, "p50"),
            (stats.and_then(|s| s.p99_ms), MATHIS, "p99"),
        ]
        .into_iter()
        .filter_map(|(p, c, name)| Some((p?, c, format!("{name} = {}", fmt::ms(p?)))))
        .collect()
    }

    /// The latencies' span widened to round values (a digit times a power of ten).
    fn range(lat: &[f64]) -> (f64, f64) {
        let lo = lat.iter().copied().find(|l| *l > 0.0);
        let hi = lat.last().copied();
        let (lo, hi) = match (lo, hi) {
            (Some(lo), Some(hi)) if hi > lo => (lo / 1.15, hi * 1.15),
            (Some(lo), _) => (lo / 2.0, lo * 2.0),
            _ => (1.0, 1000.0),
        };
        let mag = |v: f64| 10f64.powf(v.log10().floor());
        let down = (lo / mag(lo)).floor().max(1.0) * mag(lo);
        let up = (hi / mag(hi)).ceil() * mag(hi);
        (down, up)
    }
}

impl Figure for Distribution {
    fn kind(&self) -> &'static str {
        "latency-cdf"
    }
    fn timed(&self) -> bool {
        false
    }

    fn ctx(&self) -> &Ctx {
        &self.0
    }

    fn title(&self) -> String {
        self.0.pick("Latency distribution", "时延分布").to_string()
    }

    fn note(&self) -> Option<String> {
        Some(thinned_note(&self.0).unwrap_or_else(|| {
            self.0
                .pick(
                    "share of messages read within a latency; lost ones never are",
                    "在给定时延内被读取的消息比例；丢失的消息永远不会被读取",
                )
                .to_string()
        }))
    }

    fn height(&self) -> f64 {
        230.0
    }

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.0;
        let lang = ctx.lang;
        let lat = sorted_latencies(ctx);
        // Of the messages written by now: those not read yet are not within any latency.
        let total = known_messages(ctx).len().max(1) as f64;
        let (lo, hi) = Self::range(&lat);
        let one_way = one_way_ms(ctx);

        let mut items = vec![Item::new(
            Swatch::Line(MSG, 2.0),
            lang.pick("share read within the latency", "在此时延内读取的比例"),
        )];
        let marks = self.marks();
        for (_, c, label) in &marks {
            items.push(Item::new(Swatch::Dashed(*c, 1.4), label.clone()));
        }
        items.push(Item::new(
            Swatch::Dashed(MUTED, 1.2),
            format!(
                "{} RTT/2 = {}",
                lang.pick("one-way delay", "单向时延"),
                fmt::ms(one_way)
            ),
        ));

        let legend_h = axis::legend_above(root, st, &items)?;
        let mut chart = axis::builder(root, st, st.px(12.0) + legend_h)
            .build_cartesian_2d((lo..hi).log_scale(), 0.0..1.0)
            .map_err(err)?;
        let x_tick = |_: &f64| String::new();
        let y_tick = |v: &f64| format!("{}%", fmt::trim(v * 100.0, 0));
        axis::mesh(
            &mut chart,
            st,
            // The latency ticks are drawn by `log_ticks`: plotters labels only some decades.
            axis::Ticks {
                count: 0,
                label: &x_tick,
                desc: lang.pick("latency (ms, log scale)", "时延（ms，对数刻度）"),
            },
            axis::Ticks {
                count: 6,
                label: &y_tick,
                desc: lang.pick("messages read", "已读取消息"),
            },
        )?;
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        let frame = Frame {
            x: Scale {
                lo,
                hi,
                log: true,
                px: xr,
            },
            y: Scale {
                lo: 0.0,
                hi: 1.0,
                log: false,
                px: yr,
            },
            size: root.dim_in_pixel(),
        };

        log_ticks(root, st, &frame)?;

        let mut vline = |x: f64, pen: Pen| -> Result<(), String> {
            if !(x.is_finite() && x > lo && x < hi) {
                return Ok(());
            }
            let style = pen.colour.stroke_width(st.stroke(pen.width));
            chart
                .draw_series(std::iter::once(DashedPath::new(
                    [(x, 0.0), (x, 1.0)],
                    Stroke::new(style, st.stroke(6.0), st.stroke(4.0)),
                )))
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        vline(one_way, Pen::dashed(MUTED, 1.2))?;
        for (p, c, _) in &marks {
            vline(*p, Pen::dashed(*c, 1.4))?;
        }

        // One point per pixel column along the log axis, the CDF read there by bisection.
        let cols = ((frame.right() - frame.left()) / st.dpr).max(2.0) as usize;
        let cdf: Vec<(f64, f64)> = (0..=cols)
            .filter_map(|i| {
                let x = frame.x.value_at_x(
                    frame.left() + (frame.right() - frame.left()) * i as f64 / cols as f64,
                )?;
                let n = lat.partition_point(|l| *l <= x);
                Some((x, n as f64 / total))
            })
            .collect();
        if !lat.is_empty() {
            chart
                .draw_series(LineSeries::new(cdf, st.line(MSG, 2.0)))
                .map_err(|e| e.to_string())?;
        }
        Ok(frame)
    }

    fn readout(&self, at: At, _: &Frame, _: &Style) -> Option<Readout> {
        let t = at.t_ms;
        let ctx = &self.0;
        let lang = ctx.lang;
        // The cursor is a time (this chart's axis is latency): of the messages written by then
        // and by now, the nearest, if its latency is known.
        let written = known_messages(ctx);
        let m = message_near(written, t)?;
        let l = known_latency(ctx, m)?;
        let lat = sorted_latencies(ctx);
        let share = lat.partition_point(|x| *x <= l) as f64 / written.len().max(1) as f64;
        let colour = if m.held_by.is_some() { HELD } else { MSG };
        Some(Readout {
            x: Some(l),
            head: match lang {
                Lang::En => format!("message {} sent at {}", m.id + 1, fmt::time(m.write_ms)),
                Lang::Zh => format!("消息 {}，发送于 {}", m.id + 1, fmt::time(m.write_ms)),
            },
            rows: vec![Row::new(
                colour,
                match lang {
                    Lang::En => format!(
                        "latency {}: {}% of messages are read within it",
                        fmt::ms(l),
                        fmt::trim(share * 100.0, 1)
                    ),
                    Lang::Zh => format!(
                        "时延 {}：{}% 的消息在此时延内被读取",
                        fmt::ms(l),
                        fmt::trim(share * 100.0, 1)
                    ),
                },
                Some(share),
            )],
        })
    }
}
