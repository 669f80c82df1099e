//! Packets waiting at the bottleneck, the delay they add, and every drop: queue overflows and a
//! discipline's drops on the queue line, random losses along the floor; with them each packet's
//! own wait (its sojourn, what CoDel judges), the discipline's target, and its CE marks.

use plotters::prelude::*;
use tcplab::link::DropCause;
use tcplab::player::Step;

use super::axis::{time_chart, Right, YAxis};
use super::cursor::{Readout, Row};
use super::draw::{self, Pen};
use super::fmt;
use super::frame::{above, top_of, Frame};
use super::legend::{Item, Swatch};
use super::plot::{At, Figure};
use super::series::{self, clip_x, finite, max_of, one_per_cell, steps, value_at};
use super::style::*;
use super::{Ctx, Root};
use crate::i18n::Lang;

#[derive(Debug, Clone, PartialEq)]
pub struct Queue(pub Ctx);

pub fn applies(ctx: &Ctx) -> bool {
    !ctx.view.queue.is_empty() || !ctx.view.drops.is_empty()
}

/// Where a kind of drop is marked.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Place {
    /// A triangle on the queue line: the queue was full.
    OnQueue,
    /// Ticks standing on the floor: losses of data on the path, not in the queue.
    Floor,
    /// Ticks hanging from the top: losses of ACKs on the way back.
    Ceiling,
}

/// The kinds of drop, in legend order: cause, colour, name, where it is marked.
fn kinds(lang: Lang) -> [(DropCause, RGBColor, &'static str, Place); 6] {
    [
        (
            DropCause::Queue,
            DROP_QUEUE,
            lang.pick("queue overflow", "队列溢出丢包"),
            Place::OnQueue,
        ),
        (
            DropCause::Aqm,
            DROP_AQM,
            lang.pick(
                "AQM drop, before the queue was full",
                "AQM 丢包：队列未满时",
            ),
            Place::OnQueue,
        ),
        (
            DropCause::Data,
            DROP_DATA,
            lang.pick("random loss, data", "随机丢包：数据"),
            Place::Floor,
        ),
        (
            DropCause::Staged,
            DROP_STAGED,
            lang.pick("scheduled drop (drop=)", "指定丢包（drop=）"),
            Place::Floor,
        ),
        (
            DropCause::Policer,
            DROP_POLICER,
            lang.pick("policer drop, over its rate", "限速器丢包：超出其速率"),
            Place::Floor,
        ),
        (
            DropCause::Ack,
            DROP_ACK,
            lang.pick("random loss, ACK", "随机丢包：ACK"),
            Place::Ceiling,
        ),
    ]
}

/// Where the legend says a kind of drop is marked.
fn where_marked(place: Place, lang: Lang) -> &'static str {
    match place {
        Place::OnQueue => "",
        Place::Floor => lang.pick(", ticks on the floor", "，底部刻线"),
        Place::Ceiling => lang.pick(", ticks from the top", "，顶部刻线"),
    }
}

impl Queue {
    /// Milliseconds one queued packet adds at the link's rate: the right axis's scale.
    fn ms_per_packet(&self) -> Option<f64> {
        let v = self.0.view.theory.packet_ms;
        (v.is_finite() && v > 0.0).then_some(v)
    }

    /// Each packet's sojourn in the left axis's unit (packets' worth of delay), clipped.
    fn sojourn(&self, lo: f64, hi: f64) -> Vec<(f64, f64)> {
        let Some(f) = self.ms_per_packet() else {
            return Vec::new();
        };
        let points = self.0.view.sojourn.iter().map(|&(t, ms)| (t, ms / f));
        clip_x(&finite(points), lo, hi)
    }

    /// The legend on a chart topped at `top` with the queue's limit `limit`: the marks and each
    /// kind of drop counted over what is known (see [`Ctx::known`]), so that a lesson's pending
    /// question sees none yet to come.
    pub fn legend(&self, top: f64, limit: Option<f64>) -> Vec<Item> {
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let (lo, hi) = ctx.span();
        let sojourn = self.ms_per_packet().is_some_and(|_| {
            let known = ctx.known(&v.sojourn, |p| p.0);
            !clip_x(&finite(known.iter().copied()), lo, hi).is_empty()
        });
        let target = v.theory.queue_target_ms;
        let marks = ctx.known(&v.marks, |m| m.t);
        let drops = ctx.known(&v.drops, |d| d.t);
        let mut items = vec![Item::new(
            Swatch::Line(QUEUE, 1.6),
            lang.pick("packets queued", "排队的包"),
        )];
        if sojourn {
            items.push(Item::new(
                Swatch::Line(SOJOURN, 1.0),
                lang.pick(
                    "each packet's wait (sojourn, ms on the right)",
                    "每个包的排队时间（逗留时间，右轴 ms）",
                ),
            ));
        }
        if let Some(ms) = target.filter(|_| self.ms_per_packet().is_some()) {
            let name = crate::controls::aqm_label(v.theory.aqm);
            items.push(Item::new(
                Swatch::Dashed(SOJOURN, 1.2),
                match lang {
                    Lang::En => format!("{name} target {}", fmt::ms(ms)),
                    Lang::Zh => format!("{name} 目标 {}", fmt::ms(ms)),
                },
            ));
        }
        if !marks.is_empty() {
            let n = ctx
                .known_count(v.summary.ecn_marks, v.marks.len(), marks.len())
                .map(crate::model::format::count);
            items.push(Item::new(
                Swatch::Dot(MARK_CE),
                match (lang, n) {
                    (Lang::En, Some(n)) => format!("CE marks instead of drops ({n})"),
                    (Lang::Zh, Some(n)) => format!("CE 标记代替丢包（{n}）"),
                    (_, None) => lang
                        .pick("CE marks instead of drops", "CE 标记代替丢包")
                        .to_string(),
                },
            ));
        }
        if let Some(l) = limit {
            let note = above(l, top, lang);
            items.push(Item::new(
                Swatch::Dashed(BDP, 1.2),
                match lang {
                    Lang::En => format!("queue limit {} packets{note}", fmt::trim(l, 0)),
                    Lang::Zh => format!("队列上限 {} 个包{note}", fmt::trim(l, 0)),
                },
            ));
        }
        for (cause, colour, name, place) in kinds(lang) {
            let n = drops.iter().filter(|d| d.cause == cause).count();
            if n > 0 {
                let swatch = if place == Place::OnQueue {
                    Swatch::Triangle(colour)
                } else {
                    Swatch::Tick(colour)
                };
                items.push(Item::new(
                    swatch,
                    format!(
                        "{name} ({}{})",
                        crate::model::format::count(n as u64),
                        where_marked(place, lang)
                    ),
                ));
            }
        }
        items
    }
}

impl Figure for Queue {
    fn kind(&self) -> &'static str {
        "queue"
    }

    fn ctx(&self) -> &Ctx {
        &self.0
    }

    fn title(&self) -> String {
        self.0
            .pick("Bottleneck queue and drops", "瓶颈队列与丢包")
            .to_string()
    }

    fn height(&self) -> f64 {
        230.0
    }

    /// What the discipline aims at, in words beside the title: the dashed line's meaning, or
    /// for the drop-tail FIFO the most a full queue makes a packet wait.
    fn note(&self) -> Option<String> {
        // While a lesson's question waits, no word of what the queue makes a packet wait: a
        // full FIFO's wait, or the discipline's target, is the ping's round trip it asks for.
        if self.0.veiled() {
            return None;
        }
        let th = &self.0.view.theory;
        let name = crate::controls::aqm_label(th.aqm);
        let lang = self.0.lang;
        Some(match (th.queue_target_ms, lang) {
            (Some(t), Lang::En) => format!(
                "{name} holds each packet's wait near its {} target",
                fmt::ms(t)
            ),
            (Some(t), Lang::Zh) => format!("{name} 把每个包的排队时间压在 {} 目标附近", fmt::ms(t)),
            (None, Lang::En) => format!(
                "{name}: a full queue makes a packet wait {}",
                crate::model::format::duration(th.full_queue_ms)
            ),
            (None, Lang::Zh) => format!(
                "{name}：满队列让一个包等待 {}",
                crate::model::format::duration(th.full_queue_ms)
            ),
        })
    }

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let end = ctx.end_ms;
        let (lo, hi) = ctx.drawn_span();
        let queue = clip_x(&steps(&finite(v.queue.iter().copied()), end), lo, hi);
        let limit = ctx.scenario().map(|s| f64::from(s.queue));
        let sojourn = self.sojourn(lo, hi);
        let target = v
            .theory
            .queue_target_ms
            .zip(self.ms_per_packet())
            .map(|(ms, f)| (ms, ms / f));
        let data_max = max_of(queue.iter().chain(&sojourn).map(|p| p.1));
        let levels: Vec<f64> = limit.into_iter().chain(target.map(|t| t.1)).collect();
        let top = top_of(data_max, &levels, 2.5).max(4.0);

        let items = self.legend(top, limit);

        let tick = fmt::tick_for(top);
        let y = YAxis {
            bottom: 0.0,
            top,
            desc: lang.pick("queue (packets)", "队列（包）").to_string(),
            tick: &tick,
            right: self.ms_per_packet().map(|f| Right {
                factor: f,
                desc: lang
                    .pick("queueing delay (ms)", "排队时延（ms）")
                    .to_string(),
            }),
        };
        let (mut chart, frame) = time_chart(root, st, lang, ctx.span(), &y, &items, 0)?;
        draw::area(&mut chart, st, &frame, &queue, QUEUE, 0.14)?;
        draw::line(&mut chart, st, &frame, &queue, Pen::solid(QUEUE, 1.6))?;
        if let Some(l) = limit {
            draw::level(&mut chart, st, &frame, l, Pen::dashed(BDP, 1.2))?;
        }
        // A wait is known only for a packet: where the queue emptied, or none went onto the
        // link for longer than a round trip (an idle link, a timeout's stall), the line breaks
        // rather than ramp through time nothing waited, and a lone packet's wait is a dot. A
        // thinned trace keeps a few rows a bin, so the gap allowed is at least two bins of the
        // longest run.
        let gap = v.theory.rtt_ms.max(v.end_ms / 512.0);
        let (lone, runs): (Vec<_>, Vec<_>) = series::runs_apart_or_empty(&sojourn, gap, &v.queue)
            .into_iter()
            .partition(|r| r.len() == 1);
        for run in runs {
            draw::line(&mut chart, st, &frame, run, Pen::solid(SOJOURN, 1.0))?;
        }
        let lone: Vec<(f64, f64)> = lone.into_iter().flatten().copied().collect();
        draw::dots(&mut chart, st, &frame, &lone, 1.5, SOJOURN)?;
        if let Some((_, level)) = target {
            draw::level(&mut chart, st, &frame, level, Pen::dashed(SOJOURN, 1.2))?;
        }
        // CE marks sit on the queue line, as the drops they replace do.
        let marks: Vec<(f64, f64)> = v
            .marks
            .iter()
            .filter(|m| m.t.is_finite() && m.t >= lo && m.t <= hi)
            .map(|m| (m.t, value_at(&v.queue, m.t).unwrap_or(0.0).min(top)))
            .collect();
        draw::dots(&mut chart, st, &frame, &marks, 2.5, MARK_CE)?;

        let r = st.px(3.5).max(2);
        let tick = st.px(7.0).max(3);
        for (cause, colour, _, place) in kinds(lang) {
            let times = v
                .drops
                .iter()
                .filter(|d| d.cause == cause && d.t.is_finite());
            if place == Place::OnQueue {
                let at: Vec<(f64, f64)> = times
                    .map(|d| (d.t, value_at(&v.queue, d.t).unwrap_or(0.0).min(top)))
                    .collect();
                let cells = (draw::columns(&frame, st), 64);
                let at = one_per_cell(&at, (frame.x.lo, frame.x.hi), (0.0, top), cells);
                chart
                    .draw_series(
                        at.into_iter()
                            .map(|p| TriangleMarker::new(p, r + 1, colour.filled())),
                    )
                    .map_err(|e| e.to_string())?;
                continue;
            }
            // One tick per device pixel column: a thousand losses in one column are one tick.
            let mut columns: Vec<i32> = times
                .filter_map(|d| frame.x.x_px(d.t))
                .filter(|x| frame.x.contains_px(*x, 0.5))
                .map(|x| x.round() as i32)
                .collect();
            columns.dedup();
            let (y0, y1) = match place {
                Place::Ceiling => (frame.top() as i32, frame.top() as i32 + tick),
                _ => (frame.bottom() as i32 - tick, frame.bottom() as i32),
            };
            let style = st.line(colour, 1.0);
            for x in columns {
                root.draw(&PathElement::new(vec![(x, y0), (x, y1)], style))
                    .map_err(|e| e.to_string())?;
            }
        }
        Ok(frame)
    }

    fn readout(&self, at: At, _: &Frame, _: &Style) -> Option<Readout> {
        self.read(at.t_ms, at.step)
    }
}

impl Queue {
    /// The readout at `t`; the queue as the player's `step` left it, when the player stands on
    /// a step at `t` (the series holds the queue after the instant's last event).
    fn read(&self, t: f64, step: Option<&Step>) -> Option<Readout> {
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let mut rows = Vec::new();
        let queued = value_at(&v.queue, t).map(|q| step.map_or(q, |s| f64::from(s.state.queue)));
        if let Some(q) = queued {
            let delay = self
                .ms_per_packet()
                .map(|f| format!(" ≈ {}", fmt::ms(q * f)))
                .unwrap_or_default();
            rows.push(Row::new(
                QUEUE,
                match lang {
                    Lang::En => format!("{} packets queued{delay}", fmt::trim(q, 0)),
                    Lang::Zh => format!("排队 {} 个包{delay}", fmt::trim(q, 0)),
                },
                Some(q),
            ));
        }
        // The latest packet to leave by the pointer, and how long it had waited.
        let left = &v.sojourn[..v.sojourn.partition_point(|p| p.0 <= t)];
        if let Some(&(_, ms)) = left.last() {
            let over = v
                .theory
                .queue_target_ms
                .filter(|&target| ms > target)
                .map(|target| match lang {
                    Lang::En => format!(", above the {} target", fmt::ms(target)),
                    Lang::Zh => format!("，高于 {} 目标", fmt::ms(target)),
                })
                .unwrap_or_default();
            rows.push(Row::new(
                SOJOURN,
                match lang {
                    Lang::En => format!("the packet leaving waited {}{over}", fmt::ms(ms)),
                    Lang::Zh => format!("正在离开的包排队了 {}{over}", fmt::ms(ms)),
                },
                None,
            ));
        }
        let marked = v.marks.partition_point(|m| m.t <= t);
        if marked > 0 {
            rows.push(Row::new(
                MARK_CE,
                match lang {
                    Lang::En => format!(
                        "CE marks: {} so far",
                        crate::model::format::count(marked as u64)
                    ),
                    Lang::Zh => format!(
                        "CE 标记：{}（截至此刻）",
                        crate::model::format::count(marked as u64)
                    ),
                },
                None,
            ));
        }
        // The drops are in time order: only those up to the pointer are counted.
        let upto = &v.drops[..v.drops.partition_point(|d| d.t <= t)];
        for (cause, colour, name, _) in kinds(lang) {
            let n = upto.iter().filter(|d| d.cause == cause).count();
            if n > 0 {
                rows.push(Row::new(
                    colour,
                    format!(
                        "{name}: {} {}",
                        crate::model::format::count(n as u64),
                        lang.pick("so far", "（截至此刻）")
                    ),
                    None,
                ));
            }
        }
        Some(Readout::at(t, rows))
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::worker::protocol::{run_steps, run_view};

    /// Each step of the default run's first flight puts one more segment in the queue; at each
    /// the readout says what the player says, and away from the player the instant's end.
    #[test]
    fn at_the_players_step_the_queue_is_the_steps() {
        let view = Rc::new(run_view(""));
        let steps = run_steps("", 0.0);
        let t = steps
            .steps
            .iter()
            .find(|s| s.kind.name() == "established")
            .map(|s| s.t_ms)
            .expect("the handshake's step");
        let queue = Queue(Ctx::new(view, Lang::En));
        let first_row = |step: Option<&Step>| {
            queue
                .read(t, step)
                .and_then(|r| r.rows.into_iter().next())
                .map(|row| row.text)
                .unwrap_or_default()
        };
        let at: Vec<&Step> = steps.steps.iter().filter(|s| s.t_ms == t).collect();
        assert!(at.len() > 2);
        for s in &at {
            let n = s.state.queue;
            let says = first_row(Some(s));
            assert!(
                says.starts_with(&format!("{n} packets queued")),
                "{n}: {says}"
            );
        }
        let end = at.last().map_or(0, |s| s.state.queue);
        assert!(first_row(None).starts_with(&format!("{end} packets queued")));
    }
}
