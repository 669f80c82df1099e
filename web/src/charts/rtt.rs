//! Round-trip time as the sender sees it, as Wireshark's "Round Trip Time" graph shows it: every
//! sample the estimator took (RFC 6298's R), the smoothed RTT and the retransmission timeout
//! it sets (Linux's `tcp_rtt_estimator` and `tcp_set_rto`), over the path's own round trip.

use plotters::prelude::*;

use super::axis::{time_chart, YAxis};
use super::cursor::{Readout, Row};
use super::draw::{self, Pen};
use super::fmt;
use super::frame::{above, top_of, Frame};
use super::legend::{Item, Swatch};
use super::plot::{At, Figure};
use super::series::{clip_x, finite, index_at, max_of, one_per_cell, steps, within};
use super::style::*;
use super::{Ctx, Root};
use crate::i18n::Lang;

#[derive(Debug, Clone, PartialEq)]
pub struct Rtt(pub Ctx);

/// The samples' colour, the smoothed RTT's and the timeout's.
const SAMPLE: RGBColor = RGBColor(0x6c, 0xb4, 0xe4);
const SRTT: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
const RTO: RGBColor = RGBColor(0xc2, 0x6a, 0x00);

pub fn applies(ctx: &Ctx) -> bool {
    ctx.view
        .flows
        .first()
        .is_some_and(|f| !f.rtt.is_empty() || f.window.iter().any(|w| w.srtt_ms.is_some()))
}

impl Rtt {
    fn srtt(&self) -> Vec<(f64, f64)> {
        self.0.view.flows.first().map_or_else(Vec::new, |f| {
            finite(f.window.iter().filter_map(|w| w.srtt_ms.map(|s| (w.t, s))))
        })
    }

    fn rto(&self) -> Vec<(f64, f64)> {
        self.0.view.flows.first().map_or_else(Vec::new, |f| {
            finite(f.window.iter().map(|w| (w.t, w.rto_ms)))
        })
    }

    fn samples(&self) -> Vec<(f64, f64)> {
        self.0
            .view
            .flows
            .first()
            .map_or_else(Vec::new, |f| finite(f.rtt.iter().copied()))
    }

    /// The legend on a chart topped at `top`: the samples and the pings counted over what is in
    /// view and known (see [`Ctx::known`]), and the timeout said to be above the chart only
    /// where a known one is, so that a lesson's pending question sees none yet to come.
    pub fn legend(&self, top: f64) -> Vec<Item> {
        let ctx = &self.0;
        let lang = ctx.lang;
        let (lo, hi) = ctx.span();
        let end = ctx.end_ms;
        let samples = self.samples();
        let samples = within(ctx.known(&samples, |p| p.0), lo, hi).len();
        let rto = self.rto();
        let rto = clip_x(&steps(ctx.known(&rto, |p| p.0), end), lo, hi);
        let rto_max = max_of(rto.iter().map(|p| p.1)).unwrap_or(0.0);
        let path = ctx.view.theory.rtt_ms;
        let full = path + ctx.view.theory.full_queue_ms;
        let probe = ctx.known(&ctx.view.probe, |p| p.0);
        let pings = within(probe, lo, hi);
        let mut items = vec![
            Item::new(
                Swatch::Dot(SAMPLE),
                match lang {
                    Lang::En => format!(
                        "RTT samples ({})",
                        crate::model::format::count(samples as u64)
                    ),
                    Lang::Zh => format!(
                        "RTT 样本（{} 个）",
                        crate::model::format::count(samples as u64)
                    ),
                },
            ),
            Item::new(
                Swatch::Line(SRTT, 1.4),
                lang.pick("smoothed RTT", "平滑 RTT"),
            ),
            Item::new(
                Swatch::Dashed(RTO, 1.4),
                format!(
                    "{}{}",
                    lang.pick("retransmission timeout (RTO)", "重传超时（RTO）"),
                    above(rto_max, top, lang)
                ),
            ),
        ];
        if path.is_finite() && path > 0.0 {
            items.push(Item::new(
                Swatch::Dashed(BDP, 1.0),
                format!(
                    "{} {}{}",
                    lang.pick("path RTT", "路径 RTT"),
                    fmt::ms(path),
                    above(path, top, lang)
                ),
            ));
        }
        if full.is_finite() && full > path {
            items.push(Item::new(
                Swatch::Dashed(QUEUE, 1.0),
                format!(
                    "{} {}{}",
                    lang.pick(
                        "path RTT + a full queue (queue × packet time)",
                        "路径 RTT + 满队列（队长 × 包时间）"
                    ),
                    fmt::ms(full),
                    above(full, top, lang)
                ),
            ));
        }
        // The pings answered, whatever the trace kept of them to draw.
        if let Some(p) = ctx
            .view
            .summary
            .probe
            .as_ref()
            .filter(|_| !pings.is_empty())
        {
            // Zoomed, those in view, as the samples are counted, where the trace holds them all.
            let whole = ctx.view.probe.len() as u64 == p.received;
            let n = if ctx.range.is_some() && whole {
                Some(pings.len() as u64)
            } else {
                ctx.known_count(p.received, ctx.view.probe.len(), probe.len())
            }
            .map(crate::model::format::count);
            items.push(Item::new(
                Swatch::Dot(PING),
                match (lang, n) {
                    (Lang::En, Some(n)) => format!("ping round trips ({n})"),
                    (Lang::Zh, Some(n)) => format!("ping 往返时间（{n} 个）"),
                    (_, None) => lang.pick("ping round trips", "ping 往返时间").to_string(),
                },
            ));
        }
        items
    }
}

impl Figure for Rtt {
    fn kind(&self) -> &'static str {
        "rtt"
    }

    fn ctx(&self) -> &Ctx {
        &self.0
    }

    fn title(&self) -> String {
        self.0
            .pick(
                "Round-trip time and the retransmission timeout",
                "往返时间与重传超时",
            )
            .to_string()
    }

    fn note(&self) -> Option<String> {
        self.0.flow_one_of()
    }

    fn tip(&self) -> Option<String> {
        Some(
            self.0
                .pick(
                    "Each dot is one RTT sample; the smoothed RTT follows them with a gain of 1/8, and \
                     the timeout is the smoothed RTT plus four deviations, at least 200 ms (RFC 6298, \
                     Linux tcp_rtt_estimator).",
                    "每个点是一个 RTT 样本；平滑 RTT 以 1/8 的增益跟随样本，超时为平滑 RTT 加四倍偏差，\
                     至少 200 ms（RFC 6298，Linux tcp_rtt_estimator）。",
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
        let end = ctx.end_ms;
        let (lo, hi) = ctx.drawn_span();
        let samples = within(&self.samples(), lo, hi).to_vec();
        let srtt = clip_x(&steps(&self.srtt(), end), lo, hi);
        let rto = clip_x(&steps(&self.rto(), end), lo, hi);
        let path = ctx.view.theory.rtt_ms;
        // The most a full queue adds: `queue` packets, each its time on the link.
        let full = path + ctx.view.theory.full_queue_ms;
        let pings = within(&ctx.view.probe, lo, hi).to_vec();
        let data_max = max_of(
            samples
                .iter()
                .chain(srtt.iter())
                .chain(pings.iter())
                .map(|p| p.1),
        );
        let rto_max = max_of(rto.iter().map(|p| p.1)).unwrap_or(0.0);
        // The samples decide the scale: a timeout many times the RTT is named above the chart
        // rather than flatten the samples against the floor.
        let top = top_of(data_max, &[rto_max, path], 2.5);

        let items = self.legend(top);

        let tick = fmt::tick_for(top);
        let y = YAxis {
            bottom: 0.0,
            top,
            desc: lang.pick("time (ms)", "时间（ms）").to_string(),
            tick: &tick,
            right: None,
        };
        let (mut chart, frame) = time_chart(root, st, lang, ctx.span(), &y, &items, 0)?;
        if path.is_finite() && path > 0.0 {
            draw::level(&mut chart, st, &frame, path, Pen::dashed(BDP, 1.0))?;
        }
        if full.is_finite() && full > path && full <= top {
            draw::level(&mut chart, st, &frame, full, Pen::dashed(QUEUE, 1.0))?;
        }
        draw::line(&mut chart, st, &frame, &srtt, Pen::solid(SRTT, 1.4))?;
        draw::line(&mut chart, st, &frame, &rto, Pen::dashed(RTO, 1.4))?;
        // One dot per cell: a million samples draw as the cloud they make, not a million dots;
        // over the smoothed line, half see-through, so that both read where they meet.
        let cells = (draw::columns(&frame, st), 96);
        let dots = one_per_cell(&samples, (frame.x.lo, frame.x.hi), (0.0, top), cells);
        let r = st.px(2.0).max(1);
        chart
            .draw_series(
                dots.into_iter()
                    .filter(|p| p.1 <= top)
                    .map(|p| Circle::new(p, r, SAMPLE.mix(0.6).filled())),
            )
            .map_err(|e| e.to_string())?;
        // The pings last: a ping waits behind the same queue as the flow's segments, so its
        // round trips fall on the samples' cloud, which drawn over them hid every one.
        let pings: Vec<(f64, f64)> = pings.into_iter().filter(|p| p.1 <= top).collect();
        draw::dots(&mut chart, st, &frame, &pings, 2.0, PING)?;
        Ok(frame)
    }

    fn readout(&self, at: At, _: &Frame, _: &Style) -> Option<Readout> {
        let t = at.t_ms;
        let lang = self.0.lang;
        let f = self.0.view.flows.first()?;
        let mut rows = Vec::new();
        // Read in place, by a binary search of the time-ordered traces: a pointer move
        // allocates nothing, however many samples the run took.
        let sample = index_at(&f.rtt, t, |p| p.0).map(|i| f.rtt[i].1);
        if let Some(r) = sample.filter(|r| r.is_finite()) {
            rows.push(Row::new(
                SAMPLE,
                format!("{} {}", lang.pick("latest sample", "最近样本"), fmt::ms(r)),
                Some(r),
            ));
        }
        let window = index_at(&f.window, t, |w| w.t).map(|i| &f.window[i]);
        if let Some(s) = window.and_then(|w| w.srtt_ms).filter(|s| s.is_finite()) {
            rows.push(Row::new(
                SRTT,
                format!("{} {}", lang.pick("smoothed RTT", "平滑 RTT"), fmt::ms(s)),
                Some(s),
            ));
        }
        if let Some(o) = window.map(|w| w.rto_ms).filter(|o| o.is_finite()) {
            rows.push(Row::new(RTO, format!("RTO {}", fmt::ms(o)), Some(o)));
        }
        Some(Readout::at(t, rows))
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::Rtt;
    use crate::charts::Ctx;
    use crate::i18n::Lang;
    use crate::worker::protocol::run_view;

    #[test]
    fn zoomed_the_pings_are_counted_in_view_as_the_samples_are() {
        let v = Rc::new(run_view("preset=bufferbloat&dur=4"));
        let all = v.probe.len();
        assert!(all > 100, "{all}");
        let label = |ctx: Ctx| {
            Rtt(ctx)
                .legend(1e6)
                .into_iter()
                .map(|i| i.label)
                .find(|l| l.starts_with("ping round trips"))
                .unwrap_or_default()
        };
        let whole = Ctx::new(v.clone(), Lang::En);
        assert_eq!(label(whole), format!("ping round trips ({all})"));
        let zoomed = Ctx::new(v.clone(), Lang::En).zoomed(Some((1000.0, 2000.0)));
        let (lo, hi) = zoomed.span();
        let in_view = v.probe.iter().filter(|p| p.0 >= lo && p.0 <= hi).count();
        assert!(in_view > 0 && in_view < all, "{in_view} of {all}");
        assert_eq!(label(zoomed), format!("ping round trips ({in_view})"));
    }
}
