//! Goodput over time beside what should bound it: the link rate, the receive window over the
//! RTT, Mathis' loss formula and ideal slow start; BBR's own estimate of the bandwidth.

use tcplab::rate::MBytePerS;
use tcplab::scenario::sched::Setting;
use tcplab::view::FlowView;

use super::axis::{self, time_chart, Right, YAxis};
use super::cursor::{Readout, Row};
use super::draw::{self, Pen};
use super::fmt;
use super::frame::{above, top_of, Frame};
use super::legend::{self, Item, Swatch};
use super::plot::{At, Figure};
use super::series::{clip_x, finite, index_at, max_of, steps, value_at};
use super::style::*;
use super::{Ctx, Root};
use crate::i18n::Lang;

/// The narrowest bin drawn, in CSS pixels: thinner bins are merged, so the line reads as a
/// rate rather than as noise.
const MIN_BIN_CSS: f64 = 3.0;

/// How far above the link's rate a smoothed line must rise to be a release of held data rather
/// than the smoothing's rounding.
const RELEASE_ABOVE: f64 = 1.05;

#[derive(Debug, Clone, PartialEq)]
pub struct Goodput(pub Ctx);

pub fn applies(ctx: &Ctx) -> bool {
    ctx.view.flows.iter().any(|f| !f.goodput.is_empty())
}

/// The rate smoothed over `m` bins each way: a sliding mean over the last `m` bins, then over
/// the next `m` of those, which centres it on each bin and weighs neighbours triangularly. TCP
/// delivers in bursts about a round trip apart; a plain window that is not a whole number of
/// them would alias the bursts into a comb, and the second pass flattens that comb.
/// Before the first bin nothing was delivered: a window reaching back past it counts zeros.
/// Nor does the line rise before the first bytes arrive: centred, the window would lead them by
/// its half width, and show goodput before the connection was open.
pub fn smooth(bins: &[(f64, f64)], bin_ms: f64, m: usize) -> Vec<(f64, f64)> {
    let m = m.max(1);
    let rates: Vec<f64> = bins
        .iter()
        .map(|b| if b.1.is_finite() { b.1 } else { 0.0 })
        .collect();
    let first = rates.iter().position(|r| *r > 0.0).unwrap_or(rates.len());
    let mut trailing = Vec::with_capacity(rates.len());
    let mut sum = 0.0;
    for i in 0..rates.len() {
        sum += rates[i];
        if i >= m {
            sum -= rates[i - m];
        }
        trailing.push(sum / m as f64);
    }
    // The leading pass near the end averages what there is: the run has no later bins.
    let mut out = Vec::with_capacity(bins.len());
    let mut sum = 0.0;
    let n = trailing.len();
    for i in (0..n).rev() {
        sum += trailing[i];
        if i + m < n {
            sum -= trailing[i + m];
        }
        let count = m.min(n - i);
        let rate = if i < first {
            0.0
        } else {
            (sum / count as f64).max(0.0)
        };
        out.push((bins[i].0 + bin_ms / 2.0, rate));
    }
    out.reverse();
    out
}

/// A typical round trip of the run: flow 1's median smoothed RTT (queueing included), or the
/// path's RTT before any sample. Of the run known (see [`Ctx::known`]): a lesson's pending
/// question reads no round trip yet to come in the smoothing's width.
pub fn round_trip_ms(ctx: &Ctx) -> f64 {
    let mut srtt: Vec<f64> = ctx
        .view
        .flows
        .first()
        .map(|f| {
            ctx.known(&f.window, |w| w.t)
                .iter()
                .filter_map(|w| w.srtt_ms)
                .filter(|v| v.is_finite())
                .collect()
        })
        .unwrap_or_default();
    srtt.sort_by(f64::total_cmp);
    srtt.get(srtt.len() / 2)
        .copied()
        .unwrap_or(ctx.view.theory.rtt_ms)
}

/// How many bins the smoothing spans each way: at least [`MIN_BIN_CSS`] pixels and at least
/// `round_trip`. TCP sends about a window per round trip, so over anything shorter goodput is a
/// comb of bursts and gaps rather than a rate.
fn window_bins(f: &FlowView, end: f64, columns: f64, round_trip: f64) -> usize {
    if f.bin_ms <= 0.0 || !f.bin_ms.is_finite() || end <= 0.0 {
        return 1;
    }
    let px_per_bin = f.bin_ms / end * columns;
    let for_pixels = MIN_BIN_CSS / px_per_bin;
    let for_rtt = if round_trip.is_finite() {
        round_trip / f.bin_ms
    } else {
        1.0
    };
    // A window a hair short of the round trip would take one bin more than it needs.
    (for_pixels.max(for_rtt) - 1e-6).ceil().clamp(1.0, 1e6) as usize
}

/// The bins of `bins` (each `bin_ms` wide, the last cut short by the run's end) known whole:
/// the smoothing reaches forward, and while a lesson's question waits for its answer it must
/// not average in what came later.
fn known_bins<'a>(ctx: &Ctx, bins: &'a [(f64, f64)], bin_ms: f64) -> &'a [(f64, f64)] {
    let end = ctx.view.end_ms;
    ctx.known(bins, |b| (b.0 + bin_ms).min(end))
}

/// A flow's goodput smoothed over about a round trip each way, of its bins known; and that
/// span.
fn flow_line(
    ctx: &Ctx,
    f: &FlowView,
    end: f64,
    columns: f64,
    round_trip: f64,
) -> (Vec<(f64, f64)>, f64) {
    let m = window_bins(f, end, columns, round_trip);
    let bins = known_bins(ctx, &f.goodput, f.bin_ms);
    (finite(smooth(bins, f.bin_ms, m)), f.bin_ms * m as f64)
}

/// A link of opportunities' capacity (core's `view::capacity`, in flow 1's bins), smoothed as
/// the goodput is, so that the two read against each other.
fn capacity_line(ctx: &Ctx, end: f64, columns: f64, round_trip: f64) -> Vec<(f64, f64)> {
    let Some(f) = ctx
        .view
        .flows
        .first()
        .filter(|_| !ctx.view.capacity.is_empty())
    else {
        return Vec::new();
    };
    let pts: Vec<(f64, f64)> = ctx.view.capacity.iter().map(|&(t, r)| (t, r.0)).collect();
    let m = window_bins(f, end, columns, round_trip);
    finite(smooth(known_bins(ctx, &pts, f.bin_ms), f.bin_ms, m))
}

/// Ideal slow start's rate as steps on the run's clock, up to one RTT into the step that
/// reaches the link rate (after which it is the link line).
fn slow_start_line(ctx: &Ctx, end: f64) -> Vec<(f64, f64)> {
    // Messages are sent at the application's pace: no window growth limits them.
    if ctx.view.summary.msgs.is_some() {
        return Vec::new();
    }
    let th = &ctx.view.theory;
    let offset = ctx.first_send_ms();
    let pts: Vec<(f64, f64)> = finite(th.slow_start.iter().map(|&(t, r)| (t + offset, r.0)))
        .into_iter()
        .filter(|p| p.0 <= end)
        .collect();
    let stop = pts.last().map_or(end, |l| (l.0 + th.rtt_ms).min(end));
    steps(&pts, stop)
}

/// The bandwidth BBR estimated (its windowed maximum), as steps.
fn bbr_line(f: &FlowView, end: f64) -> Vec<(f64, f64)> {
    steps(
        &finite(
            f.bbr
                .iter()
                .map(|b| (b.t, b.bw_mbps.map_or(f64::NAN, |r| r.0))),
        ),
        end,
    )
}

impl Figure for Goodput {
    fn kind(&self) -> &'static str {
        "goodput"
    }

    fn ctx(&self) -> &Ctx {
        &self.0
    }

    fn title(&self) -> String {
        self.0.pick("Goodput", "有效吞吐量").to_string()
    }

    fn note(&self) -> Option<String> {
        self.0.flows_note(" and their sum", "及其总和")
    }

    /// Goodput is what the application reads, in order: after a loss the receiver holds what
    /// came behind the hole and hands it over at once when the retransmission fills it, so the
    /// line can rise above the link's rate for a moment (head-of-line blocking).
    fn tip(&self) -> Option<String> {
        Some(tip(self.0.lang).to_string())
    }

    fn height(&self) -> f64 {
        280.0
    }

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.0;
        let v = &ctx.view;
        let th = &v.theory;
        let lang = ctx.lang;
        let end = ctx.end_ms;
        let n = v.flows.len();
        let columns = axis::plot_columns(root, st);

        let rt = round_trip_ms(ctx);
        // Smoothed for the span in view, and cut to it: zoomed, the bins are finer and the
        // axis fits what is shown.
        let span = ctx.span();
        let width = span.1 - span.0;
        let drawn = ctx.drawn_span();
        let view = |s: &[(f64, f64)]| clip_x(s, drawn.0, drawn.1);
        let lines: Vec<(Vec<(f64, f64)>, f64)> = v
            .flows
            .iter()
            .map(|f| flow_line(ctx, f, width, columns, rt))
            .map(|(l, bin)| (view(&l), bin))
            .collect();
        let total = (n > 1).then(|| view(&sum_line(ctx, width, columns, rt)));
        let bbr = view(&v.flows.first().map_or_else(Vec::new, |f| bbr_line(f, end)));
        let slow = view(&slow_start_line(ctx, end));
        let fair = (n > 1).then(|| th.link_mbps / n as f64);
        // While a lesson's question waits (the charts veiled past the player's time), no Mathis
        // line: the formula's rate is the answer to "what will Reno get?" or "what does the
        // formula give?", and is in the reveal.
        let mathis_rate = th.mathis_mbps.filter(|_| !ctx.veiled());
        let (link, window_limit, mathis) = (
            th.link_mbps.0,
            th.window_limit_mbps.0,
            mathis_rate.map(|m| m.0),
        );

        let data_max = max_of(
            lines
                .iter()
                .flat_map(|l| l.0.iter())
                .chain(total.iter().flatten())
                .chain(bbr.iter())
                .map(|p| p.1),
        );
        let mut refs = vec![link, window_limit];
        let capacity = view(&capacity_line(ctx, width, columns, rt));
        refs.extend(max_of(capacity.iter().map(|p| p.1)));
        refs.extend(mathis);
        let top = top_of(data_max, &refs, 2.5);

        let bin = lines.first().map_or(0.0, |l| l.1);
        let bins = match lang {
            Lang::En => format!("smoothed over ±{}", fmt::ms(bin)),
            Lang::Zh => format!("±{} 平滑", fmt::ms(bin)),
        };
        // Over a constant link, a measured line above the link's rate is data held behind a
        // hole and read at once when the retransmission fills it (the chart's tip): the legend
        // says so where it happens, lest the reader take it for the link's speed.
        let measured = match &total {
            Some(t) => max_of(t.iter().map(|p| p.1)),
            None => max_of(lines.iter().flat_map(|l| l.0.iter()).map(|p| p.1)),
        };
        // Judged against the fastest the link runs in the run: a schedule may raise its rate,
        // and a line up to that is the link's.
        let fastest = link
            * ctx.scenario().map_or(1.0, |s| {
                s.sched
                    .iter()
                    .filter_map(|c| match c.setting {
                        Setting::Bw(bw) if s.bw_mbps > 0.0 => Some(bw / s.bw_mbps),
                        _ => None,
                    })
                    .fold(1.0, f64::max)
            });
        let released =
            v.capacity.is_empty() && measured.is_some_and(|m| m > fastest * RELEASE_ABOVE);
        let note = if released {
            lang.pick(
                "; above the link rate where a repaired hole releases the data held behind it",
                "；高出链路速率处：补上空洞后，积压在其后的数据一次交付",
            )
        } else {
            ""
        };
        let mut items = Vec::new();
        if n == 1 {
            items.push(Item::new(
                Swatch::Line(ACCENT, 1.8),
                format!("{} ({bins}{note})", lang.pick("goodput", "有效吞吐量")),
            ));
        } else {
            items.extend(legend::flow_items(&ctx.flow_names(), lang, (2.0, 1.2)));
            items.push(Item::new(
                Swatch::Line(TOTAL, 1.6),
                format!("{} ({bins}{note})", lang.pick("sum of flows", "各流之和")),
            ));
        }
        items.push(Item::new(
            Swatch::Dashed(LINK, 1.4),
            format!("{}{}", legend::link_rate(th, lang), above(link, top, lang)),
        ));
        if let Some(fair) = fair {
            items.push(Item::new(
                Swatch::Dashed(MUTED, 1.2),
                format!(
                    "{} = {}",
                    lang.pick("fair share link/n", "公平份额 链路/n"),
                    fmt::rate(fair)
                ),
            ));
        }
        if !v.capacity.is_empty() {
            items.push(Item::new(
                Swatch::Block(CAPACITY),
                lang.pick(
                    "what the link could carry (its opportunities)",
                    "链路可承载的量（其传输机会）",
                ),
            ));
        }
        items.push(Item::new(
            Swatch::Dashed(RWND, 1.4),
            format!(
                "rwnd/RTT = {}{}",
                fmt::rate(th.window_limit_mbps),
                above(window_limit, top, lang)
            ),
        ));
        if let Some(m) = mathis_rate {
            items.push(Item::new(
                Swatch::Dashed(MATHIS, 1.6),
                format!(
                    "Mathis 1.22·MSS/(RTT·√p) = {}{}",
                    fmt::rate(m),
                    above(m.0, top, lang)
                ),
            ));
        }
        if !slow.is_empty() {
            let iw = ctx.scenario().map_or(10, |s| s.iw);
            let low = slow.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            items.push(Item::new(
                Swatch::Dashed(SLOW_START, 1.4),
                format!(
                    "{} {iw}·2^k·MSS/RTT{}",
                    lang.pick("ideal slow start", "理想慢启动"),
                    above(low, top, lang)
                ),
            ));
        }
        if !bbr.is_empty() {
            items.push(Item::new(
                Swatch::Line(BBR_BW, 1.4),
                lang.pick("BBR bandwidth estimate", "BBR 带宽估计"),
            ));
        }

        let tick = fmt::tick_for(top);
        let y = YAxis {
            bottom: 0.0,
            top,
            desc: lang
                .pick("goodput (MB/s)", "有效吞吐量（MB/s）")
                .to_string(),
            tick: &tick,
            right: Some(Right {
                factor: 8.0,
                desc: lang.pick("Mbit/s", "Mbit/s").to_string(),
            }),
        };
        let (mut chart, frame) = time_chart(root, st, lang, span, &y, &items, 0)?;

        // Under everything: what a trace's or a model's link could carry, bin by bin.
        draw::area(&mut chart, st, &frame, &capacity, CAPACITY, 0.6)?;
        draw::level(&mut chart, st, &frame, link, Pen::dashed(LINK, 1.4))?;
        if let Some(fair) = fair {
            draw::level(&mut chart, st, &frame, fair.0, Pen::dashed(MUTED, 1.2))?;
        }
        draw::level(&mut chart, st, &frame, window_limit, Pen::dashed(RWND, 1.4))?;
        if let Some(m) = mathis {
            draw::level(&mut chart, st, &frame, m, Pen::dashed(MATHIS, 1.6))?;
        }
        draw::line(&mut chart, st, &frame, &slow, Pen::dashed(SLOW_START, 1.4))?;
        for (i, l) in lines.iter().enumerate().skip(1).rev() {
            draw::line(
                &mut chart,
                st,
                &frame,
                &l.0,
                Pen::solid(colour_of(i, n), 1.2).alpha(0.8),
            )?;
        }
        if let Some(first) = lines.first() {
            draw::line(&mut chart, st, &frame, &first.0, Pen::solid(ACCENT, 1.8))?;
        }
        if let Some(total) = &total {
            draw::line(&mut chart, st, &frame, total, Pen::solid(TOTAL, 1.6))?;
        }
        draw::line(&mut chart, st, &frame, &bbr, Pen::solid(BBR_BW, 1.4))?;
        Ok(frame)
    }

    fn readout(&self, at: At, frame: &Frame, st: &Style) -> Option<Readout> {
        let t = at.t_ms;
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let (lo, hi) = ctx.span();
        let end = hi - lo;
        // The bins as drawn: the trace's own finer bin would disagree with the line it sits on,
        // and so would whole columns where the drawing binned for the fractional width.
        let columns = draw::plot_width(frame, st);
        let mut rows = Vec::new();
        let f0 = v.flows.first()?;
        let rt = round_trip_ms(ctx);
        let (l0, width) = flow_line(ctx, f0, end, columns, rt);
        if let Some(g) = value_at(&l0, t) {
            let label = if v.flows.len() > 1 {
                format!("{} 1", lang.pick("flow", "流"))
            } else {
                lang.pick("goodput", "有效吞吐量").to_string()
            };
            rows.push(Row::new(
                ACCENT,
                format!(
                    "{label} {} ({}{})",
                    fmt::rate(MBytePerS(g)),
                    lang.pick("smoothed over ±", "平滑 ±"),
                    fmt::ms(width)
                ),
                Some(g),
            ));
        }
        if v.flows.len() > 1 {
            let total = sum_line(ctx, end, columns, rt);
            if let Some(g) = value_at(&total, t) {
                rows.push(Row::new(
                    TOTAL,
                    format!("{} {}", lang.pick("sum", "总和"), fmt::rate(MBytePerS(g))),
                    Some(g),
                ));
            }
        }
        let slow = slow_start_line(ctx, end);
        if let Some(s) = value_at(&slow, t).filter(|_| slow.last().is_some_and(|l| t <= l.0)) {
            rows.push(Row::new(
                SLOW_START,
                format!(
                    "{} {}",
                    lang.pick("ideal slow start", "理想慢启动"),
                    fmt::rate(MBytePerS(s))
                ),
                Some(s),
            ));
        }
        if let Some(i) = index_at(&f0.bbr, t, |b| b.t) {
            if let Some(bw) = f0.bbr[i].bw_mbps {
                rows.push(Row::new(
                    BBR_BW,
                    format!(
                        "{} {}",
                        lang.pick("BBR estimate", "BBR 估计"),
                        fmt::rate(bw)
                    ),
                    Some(bw.0),
                ));
            }
        }
        Some(Readout::at(t, rows))
    }
}

/// The sum of every flow's goodput, bin by bin (the flows share one bin width), unsmoothed.
pub fn summed(flows: &[FlowView]) -> Vec<(f64, f64)> {
    let len = flows.iter().map(|f| f.goodput.len()).max().unwrap_or(0);
    (0..len)
        .map(|i| {
            let t = flows
                .iter()
                .find_map(|f| f.goodput.get(i).map(|b| b.0))
                .unwrap_or(f64::NAN);
            let g: f64 = flows
                .iter()
                .filter_map(|f| f.goodput.get(i).map(|b| b.1))
                .filter(|v| v.is_finite())
                .sum();
            (t, g)
        })
        .collect()
}

/// The sum of every flow's goodput, smoothed as [`flow_line`] smooths one flow's.
fn sum_line(ctx: &Ctx, end: f64, columns: f64, round_trip: f64) -> Vec<(f64, f64)> {
    let flows = &ctx.view.flows;
    let Some(f0) = flows.first() else {
        return Vec::new();
    };
    let m = window_bins(f0, end, columns, round_trip);
    let sum = summed(flows);
    finite(smooth(known_bins(ctx, &sum, f0.bin_ms), f0.bin_ms, m))
}

/// Why a goodput line can rise above the link's rate, for the title's tooltip: the lab's chart
/// and the comparison's say it alike.
pub fn tip(lang: Lang) -> &'static str {
    lang.pick(
        "Bytes the application read, in order. After a loss the receiver holds what \
         arrived behind the hole and hands it all over when the retransmission fills \
         it: the line can then rise above the link rate for a moment.",
        "应用按序读到的字节。丢包后，接收方扣住缺口之后到达的数据，等重传补上缺口时一次交付：\
         此时曲线会短暂高于链路速率。",
    )
}

// Drawn as SVG text, which the page's first screen is rendered with natively.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::worker::protocol::run_view;

    /// The chart drawn as the page's first screen draws it, as SVG text.
    fn drawn(query: &str) -> String {
        let ctx = Ctx::new(Rc::new(run_view(query)), Lang::En);
        crate::charts::plot::svg(&Goodput(ctx), 1200.0).document("goodput")
    }

    /// A lossy BBR body whose held data comes out at once above the link's 2.41 MB/s: the
    /// legend says what that is; a clean flow's does not.
    #[test]
    fn a_line_above_the_link_is_named_as_held_data_released() {
        assert!(drawn("cc=bbr&rtt=80&bw=20&loss=0.5&dur=30").contains("repaired"));
        assert!(!drawn("app=bulk&bw=20&rtt=80&dur=3").contains("repaired"));
        // A link whose schedule doubles its rate carries the line above the first rate itself.
        assert!(!drawn("app=bulk&bw=20&rtt=80&dur=6&sched=3:bw:40").contains("repaired"));
    }
}
