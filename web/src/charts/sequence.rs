//! The time-sequence (Stevens) graph of flow 1: each new data segment at the byte it reaches,
//! retransmissions in red, the cumulative ACK as a line and the highest SACKed byte, with the
//! slope the link allows.

use super::axis::{time_chart, Right, YAxis};
use super::cursor::{Readout, Row};
use super::draw::{self, Pen};
use super::fmt::{self, ByteUnit};
use super::frame::{top_of, Frame};
use super::legend::{self, Item, Swatch};
use super::plot::{At, Figure};
use super::series::{clip_x, finite, index_at, max_of, steps, value_at, within};
use super::style::*;
use super::{Ctx, Root};
use crate::i18n::Lang;

#[derive(Debug, Clone, PartialEq)]
pub struct Sequence(pub Ctx);

pub fn applies(ctx: &Ctx) -> bool {
    ctx.view.flows.first().is_some_and(|f| !f.sends.is_empty())
}

impl Sequence {
    /// The legend: what is drawn, with the retransmissions counted over what is in view and
    /// known (see [`Ctx::known`]): a lesson's pending question sees none yet to come.
    pub fn legend(&self) -> Vec<Item> {
        let ctx = &self.0;
        let lang = ctx.lang;
        let (lo, hi) = ctx.span();
        let f = ctx.view.flows.first();
        let shown = |s: &[(f64, f64)]| {
            let known = ctx.known(s, |p| p.0).iter().copied();
            within(&finite(known), lo, hi).len()
        };
        let rtx = f.map_or(0, |f| shown(&f.retransmits));
        let sacks = f.map_or(0, |f| shown(&f.sacks));
        let per_ms = ctx.view.theory.link_mbps.0 * 1000.0;
        let mut items = vec![Item::new(
            Swatch::Dot(SENT),
            lang.pick("data sent (highest byte)", "发送数据（最高字节）"),
        )];
        if rtx > 0 {
            items.push(Item::new(
                Swatch::Cross(RETRANSMIT),
                format!(
                    "{} ({})",
                    lang.pick("retransmission", "重传"),
                    crate::model::format::count(rtx as u64)
                ),
            ));
        }
        items.push(Item::new(
            Swatch::Line(ACKED, 1.6),
            lang.pick("cumulative ACK", "累计确认 ACK"),
        ));
        if sacks > 0 {
            items.push(Item::new(
                Swatch::Dot(SACKED),
                lang.pick("SACK (highest SACKed byte)", "SACK（最高选择确认字节）"),
            ));
        }
        // The slope is drawn wherever the link has a rate (see `draw`).
        if per_ms.is_finite() && per_ms > 0.0 {
            items.push(Item::new(
                Swatch::Dashed(LINK, 1.2),
                format!(
                    "{} {}",
                    lang.pick("slope of the", "斜率："),
                    legend::link_rate(&ctx.view.theory, lang)
                ),
            ));
        }
        items
    }
}

impl Figure for Sequence {
    fn kind(&self) -> &'static str {
        "sequence"
    }

    fn ctx(&self) -> &Ctx {
        &self.0
    }

    fn title(&self) -> String {
        self.0
            .pick("Time–sequence graph", "时间–序号图（Stevens 图）")
            .to_string()
    }

    fn note(&self) -> Option<String> {
        Some(match (self.0.flow_one_of(), self.0.lang) {
            (Some(one), Lang::En) => format!("{one}; bytes from the start of its stream"),
            (Some(one), Lang::Zh) => format!("{one}；纵轴为该流字节流的偏移"),
            (None, Lang::En) => "bytes from the start of the stream".to_string(),
            (None, Lang::Zh) => "纵轴为字节流的偏移".to_string(),
        })
    }

    fn height(&self) -> f64 {
        300.0
    }

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let end = ctx.end_ms;
        let mss = f64::from(v.theory.mss.max(1));
        let empty = Vec::new();
        let (sends, rtx, acks, sacks) = v
            .flows
            .first()
            .map_or((&empty, &empty, &empty, &empty), |f| {
                (&f.sends, &f.retransmits, &f.acks, &f.sacks)
            });
        // Zoomed, only what is in view, and the sequence axis fitted to it: a late round trip's
        // segments read one by one instead of as a line near the top.
        let span = ctx.span();
        let (lo, hi) = ctx.drawn_span();
        let sends = within(&finite(sends.iter().copied()), lo, hi).to_vec();
        let rtx = within(&finite(rtx.iter().copied()), lo, hi).to_vec();
        let acks = clip_x(&steps(&finite(acks.iter().copied()), end), lo, hi);
        let sacks = within(&finite(sacks.iter().copied()), lo, hi).to_vec();
        let in_view = || {
            sends
                .iter()
                .chain(&rtx)
                .chain(&acks)
                .chain(&sacks)
                .map(|p| p.1)
        };
        let data_max = max_of(in_view());
        let top = top_of(data_max, &[], 1.0);
        let bottom = match (
            ctx.range,
            in_view().filter(|v| v.is_finite()).reduce(f64::min),
        ) {
            (Some(_), Some(low)) if low < top => (low - (top - low) * 0.04).max(0.0),
            _ => 0.0,
        };

        // The steepest the stream can climb: the link's rate from the first byte on.
        let t0 = ctx.first_send_ms();
        let per_ms = v.theory.link_mbps.0 * 1000.0;
        let slope = if per_ms.is_finite() && per_ms > 0.0 {
            let t1 = (t0 + top / per_ms).min(end);
            vec![(t0, 0.0), (t1, (t1 - t0) * per_ms)]
        } else {
            Vec::new()
        };

        let items = self.legend();

        let unit = ByteUnit::for_top(top);
        let tick = |v: f64| unit.tick(v);
        let y = YAxis {
            bottom,
            top,
            desc: format!("{} ({})", lang.pick("sequence", "序号"), unit.name()),
            tick: &tick,
            right: Some(Right {
                factor: 1.0 / mss,
                desc: lang.pick("segments", "段").to_string(),
            }),
        };
        let (mut chart, frame) = time_chart(root, st, lang, span, &y, &items, 0)?;
        draw::line(&mut chart, st, &frame, &slope, Pen::dashed(LINK, 1.2))?;
        draw::line(&mut chart, st, &frame, &acks, Pen::solid(ACKED, 1.6))?;
        draw::dots(&mut chart, st, &frame, &sacks, 1.6, SACKED)?;
        draw::dots(&mut chart, st, &frame, &sends, 1.5, SENT)?;
        draw::crosses(
            &mut chart,
            st,
            &frame,
            &rtx,
            2.6,
            Pen::solid(RETRANSMIT, 1.2),
        )?;
        Ok(frame)
    }

    fn readout(&self, at: At, _: &Frame, _: &Style) -> Option<Readout> {
        let t = at.t_ms;
        let y = at.y;
        let ctx = &self.0;
        let lang = ctx.lang;
        let f = ctx.view.flows.first()?;
        let mut rows = Vec::new();
        let sent = value_at(&f.sends, t);
        let acked = value_at(&f.acks, t);
        if let Some(s) = sent {
            rows.push(Row::new(
                SENT,
                format!("{} {}", lang.pick("sent up to", "已发送至"), fmt::bytes(s)),
                Some(s),
            ));
        }
        if let Some(a) = acked {
            rows.push(Row::new(
                ACKED,
                format!("{} {}", lang.pick("ACKed up to", "已确认至"), fmt::bytes(a)),
                Some(a),
            ));
        }
        if let Some(s) = value_at(&f.sacks, t).filter(|&s| acked.is_none_or(|a| s > a)) {
            rows.push(Row::new(
                SACKED,
                format!("{} {}", lang.pick("SACKed up to", "SACK 至"), fmt::bytes(s)),
                Some(s),
            ));
        }
        if let (Some(s), Some(a)) = (sent, acked) {
            rows.push(Row::new(
                MUTED,
                format!(
                    "{} {}",
                    lang.pick("sent, not yet ACKed", "已发未确认"),
                    fmt::bytes((s - a).max(0.0))
                ),
                None,
            ));
        }
        let retransmitted = index_at(&f.retransmits, t, |p| p.0).map_or(0, |i| i + 1);
        if retransmitted > 0 {
            rows.push(Row::new(
                RETRANSMIT,
                match lang {
                    Lang::En => crate::model::format::counted(
                        retransmitted as u64,
                        "retransmission so far",
                        "retransmissions so far",
                    ),
                    Lang::Zh => format!(
                        "{} 次重传（截至此刻）",
                        crate::model::format::count(retransmitted as u64)
                    ),
                },
                None,
            ));
        }
        rows.extend(segment_rows(ctx, f, t, y));
        Some(Readout::at(t, rows))
    }
}

/// The segment last sent at or before `t`, read as a segment: its number and bytes, when it
/// left, when the cumulative ACK covered it (and after how long), whether it was sent again,
/// and whether SACK reported it first. Hovering or tapping a point of the graph reads it: of a
/// burst sent at one instant, the point nearest the pointer's height `y` (a byte offset).
///
/// Only what is known counts (see [`Ctx::known`]): while a lesson's question waits for its
/// answer, a later SACK, retransmission or ACK of the segment is not yet known, and said so.
fn segment_rows(ctx: &Ctx, f: &tcplab::view::FlowView, t: f64, y: Option<f64>) -> Vec<Row> {
    let (mss, lang) = (ctx.view.theory.mss, ctx.lang);
    let Some(last) = index_at(&f.sends, t, |p| p.0) else {
        return Vec::new();
    };
    let instant = f.sends[last].0;
    let first = f.sends[..last].partition_point(|p| p.0 < instant);
    let i = match y {
        Some(y) => (first..=last)
            .min_by(|&a, &b| {
                let d = |k: usize| (f.sends[k].1 - y).abs();
                d(a).total_cmp(&d(b))
            })
            .unwrap_or(last),
        None => last,
    };
    let (sent_at, end) = f.sends[i];
    let m = f64::from(mss.max(1));
    // A thinned trace keeps a bin's extremes, not every send: a segment is at most an MSS.
    let start = if i > 0 { f.sends[i - 1].1 } else { 0.0 }
        .max(end - m)
        .max(0.0);
    // Named as the player names it: "segment 20 (bytes 27,741–29,200)".
    let name = tcplab::player::explain::segment_name(
        start as u64,
        u32::try_from((end - start) as u64).ok(),
        mss,
        lang.language(),
    );
    let bytes = match lang {
        Lang::En => format!("{name} sent at {}", fmt::time(sent_at)),
        Lang::Zh => format!("{name}于 {} 发出", fmt::time(sent_at)),
    };
    let mut rows = vec![Row::new(SENT, bytes, Some(end))];
    // Every trace is in time order: each is read from the segment's sending on, not from the
    // run's start, on every pointer move.
    let after = |ts: &[(f64, f64)]| ts.partition_point(|p| p.0 < sent_at);
    let acks = ctx.known(&f.acks, |a| a.0);
    let blocks = ctx.known(&f.sack_blocks, |b| b.t_ms);
    let retransmits = ctx.known(&f.retransmits, |r| r.0);
    let acked = acks[after(acks)..].iter().find(|a| a.1 >= end);
    // The SACK blocks that covered the segment before the cumulative ACK did (RFC 2018): the
    // first, and how many ACKs repeated it.
    let from = blocks.partition_point(|b| b.t_ms < sent_at);
    let covering: Vec<&tcplab::view::SackBlockView> = blocks[from..]
        .iter()
        .take_while(|b| acked.is_none_or(|a| b.t_ms < a.0))
        .filter(|b| b.left <= start && b.right >= end)
        .collect();
    if let Some(first) = covering.first() {
        let block = tcplab::player::explain::byte_range(
            first.left as u64,
            first.right as u64,
            lang.language(),
        );
        let more = covering.len() - 1;
        rows.push(Row::new(
            SACKED,
            match lang {
                Lang::En => format!(
                    "SACKed at {} by the block of {block}{}",
                    fmt::time(first.t_ms),
                    match more {
                        0 => String::new(),
                        1 => ", then by 1 more ACK's block".to_string(),
                        n => format!(
                            ", then by {} more ACKs' blocks",
                            crate::model::format::count(n as u64)
                        ),
                    }
                ),
                Lang::Zh => format!(
                    "于 {} 被 SACK 块（{block}）确认{}",
                    fmt::time(first.t_ms),
                    if more > 0 {
                        format!(
                            "，之后又有 {} 个 ACK 的 SACK 块覆盖",
                            crate::model::format::count(more as u64)
                        )
                    } else {
                        String::new()
                    }
                ),
            },
            None,
        ));
    }
    let resent: Vec<f64> = retransmits[after(retransmits)..]
        .iter()
        .filter(|r| r.1 >= start && r.1 < end)
        .map(|r| r.0)
        .collect();
    if let Some(first) = resent.first() {
        rows.push(Row::new(
            RETRANSMIT,
            match lang {
                Lang::En => format!(
                    "retransmitted at {}{}",
                    fmt::time(*first),
                    match resent.len() - 1 {
                        0 => String::new(),
                        1 => " and once more".to_string(),
                        more => format!(" and {more} more times"),
                    }
                ),
                Lang::Zh => format!("于 {} 重传（共 {} 次）", fmt::time(*first), resent.len()),
            },
            None,
        ));
    }
    rows.push(Row::new(
        ACKED,
        match (acked, lang) {
            (Some(a), Lang::En) => format!(
                "ACKed at {}, {} after it left",
                fmt::time(a.0),
                fmt::ms(a.0 - sent_at)
            ),
            (Some(a), Lang::Zh) => format!(
                "于 {} 被确认，发出后 {}",
                fmt::time(a.0),
                fmt::ms(a.0 - sent_at)
            ),
            (None, _) if ctx.knows_the_end() => lang
                .pick("not ACKed by the run's end", "运行结束时仍未确认")
                .to_string(),
            (None, _) => lang.pick("not ACKed yet", "尚未确认").to_string(),
        },
        None,
    ));
    rows
}
