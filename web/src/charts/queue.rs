//! Packets waiting at the bottleneck, the delay they add, and every drop: queue overflows on
//! the queue line, random losses along the floor.

use plotters::prelude::*;
use tcplab::link::DropCause;

use super::axis::{time_chart, Right, YAxis};
use super::cursor::{Readout, Row};
use super::draw::{self, Pen};
use super::fmt;
use super::frame::{above, top_of, Frame};
use super::legend::{Item, Swatch};
use super::plot::Figure;
use super::series::{clip_x, finite, max_of, one_per_cell, steps, value_at};
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
fn kinds(lang: Lang) -> [(DropCause, RGBColor, &'static str, Place); 5] {
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
    /// Milliseconds one queued packet of payload adds at the link's rate.
    fn ms_per_packet(&self) -> Option<f64> {
        let th = &self.0.view.theory;
        let v = f64::from(th.mss) / (th.link_mbps.0 * 1000.0);
        (v.is_finite() && v > 0.0).then_some(v)
    }
}

impl Figure for Queue {
    const KIND: &'static str = "queue";

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

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let end = ctx.end_ms;
        let (lo, hi) = ctx.span();
        let queue = clip_x(&steps(&finite(v.queue.iter().copied()), end), lo, hi);
        let limit = ctx.scenario().map(|s| f64::from(s.queue));
        let data_max = max_of(queue.iter().map(|p| p.1));
        let top = top_of(data_max, &limit.into_iter().collect::<Vec<_>>(), 2.5).max(4.0);

        let mut items = vec![Item::new(
            Swatch::Line(QUEUE, 1.6),
            lang.pick("packets queued", "排队的包"),
        )];
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
        let kinds = kinds(lang);
        for (cause, colour, name, place) in kinds {
            let n = v.drops.iter().filter(|d| d.cause == cause).count();
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

        let r = st.px(3.5).max(2);
        let tick = st.px(7.0).max(3);
        for (cause, colour, _, place) in kinds {
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

    fn readout(&self, t: f64, _: Option<f64>, _: &Frame, _: &Style) -> Option<Readout> {
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let mut rows = Vec::new();
        if let Some(q) = value_at(&v.queue, t) {
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
