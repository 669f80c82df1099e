//! BBR's own model of the path (Linux's `tcp_bbr.c`): the bottleneck-bandwidth estimate
//! (`bbr_max_bw`, a windowed max over ten round trips), the pacing rate it sets from it
//! (`bbr_set_pacing_rate`), the min-RTT estimate (`bbr_update_min_rtt`, over ten seconds) on the
//! right axis, and a band of its mode and ProbeBW's gain phase (`bbr_pacing_gain[]`: 1.25 to
//! probe, 0.75 to drain what probing queued, 1 to cruise).
//!
//! The model is one flow's, and flows sharing a bottleneck estimate it apart (a longer RTT keeps
//! a longer min RTT, a later start sees a fuller queue): a run with several BBR flows gets a
//! choice of the flow to draw in the chart's caption, its first BBR flow until one is chosen.

use plotters::prelude::*;
use tcplab::view::{BbrPoint, RunView};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::axis::{self, time_chart, Right, YAxis};
use super::cursor::{Readout, Row};
use super::cwnd::{bbr_mode, bbr_runs};
use super::draw::{self, Pen};
use super::fmt;
use super::frame::{top_of, Frame};
use super::legend::{self, Item, Swatch};
use super::plot::{At, Figure};
use super::series::{clip_x, finite, index_at, max_of, steps};
use super::style::*;
use super::{Ctx, Root};
use crate::i18n::Lang;
use tcplab::cc::bbr::BbrMode;

/// BBR's model of one flow of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct Bbr {
    pub ctx: Ctx,
    /// The flow drawn, an index into the run's flows.
    pub flow: usize,
    /// Its name where the run has several flows, else `None` (one flow needs no name).
    pub name: Option<String>,
}

const PACING: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
const MIN_RTT: RGBColor = RGBColor(0xc2, 0x6a, 0x00);
/// ProbeBW's phases by their gain: probing up, draining, cruising.
const PROBE_UP: RGBColor = RGBColor(0x2e, 0x9e, 0x44);
const PROBE_DRAIN: RGBColor = RGBColor(0x9b, 0xd3, 0xa8);
const CRUISE: RGBColor = RGBColor(0xd8, 0xee, 0xdc);

/// The flows with BBR's variables to draw, by index.
pub fn bbr_flows(view: &RunView) -> Vec<usize> {
    view.flows
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.bbr.is_empty())
        .map(|(i, _)| i)
        .collect()
}

/// The flow to draw: the one `chosen` if it has BBR's variables in this run, else the run's
/// first that has them; `None` for a run without BBR.
pub fn flow_to_draw(view: &RunView, chosen: Option<usize>) -> Option<usize> {
    // A choice comes from a `<select>` the page may have rebuilt for another run: it is checked
    // against the run, never trusted to index it.
    chosen
        .filter(|&i| view.flows.get(i).is_some_and(|f| !f.bbr.is_empty()))
        .or_else(|| bbr_flows(view).first().copied())
}

/// A ProbeBW phase's colour and name by its gain.
fn phase_of(p: &BbrPoint, lang: Lang) -> (RGBColor, String) {
    match p.phase {
        Some(0) => (PROBE_UP, lang.pick("probe ×1.25", "探测 ×1.25").to_string()),
        Some(1) => (
            PROBE_DRAIN,
            lang.pick("drain ×0.75", "排空 ×0.75").to_string(),
        ),
        _ => (CRUISE, lang.pick("cruise ×1", "巡航 ×1").to_string()),
    }
}

impl Bbr {
    /// The chart of `flow`, named from the run's flow names `names`.
    pub fn new(ctx: Ctx, flow: usize, names: &[String]) -> Bbr {
        let name = (ctx.view.flows.len() > 1).then(|| name_of(&ctx, names, flow));
        Bbr { ctx, flow, name }
    }

    /// The legend: the lines, then the band's colours.
    fn legend(&self, (lo, hi): (f64, f64)) -> Vec<Item> {
        let ctx = &self.ctx;
        let lang = ctx.lang;
        let mut items = vec![
            Item::new(
                Swatch::Line(BBR_BW, 2.0),
                lang.pick("bandwidth estimate (max filter)", "带宽估计（最大值滤波）"),
            ),
            Item::new(
                Swatch::Dashed(PACING, 1.4),
                lang.pick("pacing rate", "发送节奏速率"),
            ),
            Item::new(
                Swatch::Line(MIN_RTT, 1.4),
                lang.pick("min RTT estimate (right axis)", "最小 RTT 估计（右轴）"),
            ),
            Item::new(
                Swatch::Dashed(LINK, 1.2),
                legend::link_rate(&ctx.view.theory, lang),
            ),
        ];
        // The band's colours: the modes other than ProbeBW that it shows in view (Startup,
        // Drain, ProbeRTT), then ProbeBW's phases.
        let runs = bbr_runs(self.points(), self.ctx.end_ms);
        for mode in [BbrMode::Startup, BbrMode::Drain, BbrMode::ProbeRtt] {
            if runs.iter().any(|r| r.2 == mode && r.1 >= lo && r.0 <= hi) {
                let (c, name) = bbr_mode(mode, lang);
                items.push(Item::new(Swatch::Block(c), name));
            }
        }
        for (c, name) in [
            (
                PROBE_UP,
                lang.pick("ProbeBW probe ×1.25", "ProbeBW 探测 ×1.25"),
            ),
            (PROBE_DRAIN, lang.pick("drain ×0.75", "排空 ×0.75")),
            (CRUISE, lang.pick("cruise ×1", "巡航 ×1")),
        ] {
            items.push(Item::new(Swatch::Block(c), name));
        }
        items
    }

    fn points(&self) -> &[BbrPoint] {
        self.ctx
            .view
            .flows
            .get(self.flow)
            .map_or(&[], |f| &f.bbr[..])
    }

    fn series(&self, value: impl Fn(&BbrPoint) -> Option<f64>) -> Vec<(f64, f64)> {
        finite(
            self.points()
                .iter()
                .map(|b| (b.t, value(b).unwrap_or(f64::NAN))),
        )
    }
}

impl Figure for Bbr {
    fn kind(&self) -> &'static str {
        "bbr"
    }

    fn ctx(&self) -> &Ctx {
        &self.ctx
    }

    fn title(&self) -> String {
        self.ctx
            .pick("BBR's model of the path", "BBR 对路径的模型")
            .to_string()
    }

    fn note(&self) -> Option<String> {
        self.name.clone()
    }

    fn tip(&self) -> Option<String> {
        Some(
            self.ctx
                .pick(
                    "BBR paces at a gain times its bandwidth estimate, the highest delivery rate of \
                     the last ten round trips, and caps what is in flight at twice the estimate \
                     times its min RTT, the lowest RTT of the last ten seconds. In ProbeBW its gain \
                     cycles through eight phases: 1.25 to probe for more, 0.75 to drain the queue \
                     that made, then six at 1 (Linux tcp_bbr.c).",
                    "BBR 以增益乘带宽估计的速率发送（带宽估计为最近十个往返内的最高交付速率），并把在途数据\
                     限制为带宽估计乘最小 RTT（最近十秒内的最低 RTT）的两倍。在 ProbeBW 中增益按八个阶段循环：\
                     1.25 探测更多带宽，0.75 排空由此形成的队列，然后六个阶段为 1（Linux tcp_bbr.c）。",
                )
                .to_string(),
        )
    }

    fn height(&self) -> f64 {
        250.0
    }

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.ctx;
        let lang = ctx.lang;
        let end = ctx.end_ms;
        let (lo, hi) = ctx.drawn_span();
        let bw = clip_x(
            &steps(&self.series(|b| b.bw_mbps.map(|r| r.0)), end),
            lo,
            hi,
        );
        let pacing = clip_x(
            &steps(&self.series(|b| b.pacing_mbps.map(|r| r.0)), end),
            lo,
            hi,
        );
        let rtt = clip_x(&steps(&self.series(|b| b.min_rtt_ms), end), lo, hi);
        let link = ctx.view.theory.link_mbps.0;
        let data_max = max_of(bw.iter().chain(pacing.iter()).map(|p| p.1));
        let top = top_of(data_max, &[link], 2.5);
        // The min RTT on the right axis: its largest value at the top of the chart.
        let rtt_top = max_of(rtt.iter().map(|p| p.1))
            .map_or(1.0, |m| m * 1.25)
            .max(0.001);
        let factor = rtt_top / top;
        let rtt_scaled: Vec<(f64, f64)> = rtt.into_iter().map(|(t, v)| (t, v / factor)).collect();

        let items = self.legend(ctx.span());
        let runs = bbr_runs(self.points(), end);
        let tick = fmt::tick_for(top);
        let y = YAxis {
            bottom: 0.0,
            top,
            desc: lang.pick("rate (MB/s)", "速率（MB/s）").to_string(),
            tick: &tick,
            right: Some(Right {
                factor,
                desc: lang.pick("min RTT (ms)", "最小 RTT（ms）").to_string(),
            }),
        };
        let band = st.px(12.0);
        let (mut chart, frame) =
            time_chart(root, st, lang, ctx.span(), &y, &items, band + axis::gap(st))?;
        // The band above the plot: the mode, and in ProbeBW each phase by its gain.
        let points = self.points();
        let mut spans: Vec<(f64, f64, RGBColor)> = runs
            .into_iter()
            .filter(|r| r.2 != BbrMode::ProbeBw)
            .map(|(a, b, m)| (a, b, bbr_mode(m, lang).0))
            .collect();
        for (i, p) in points.iter().enumerate() {
            if p.phase.is_some() {
                let to = points.get(i + 1).map_or(end, |n| n.t);
                spans.push((p.t, to, phase_of(p, lang).0));
            }
        }
        let y1 = frame.top() as i32 - axis::gap(st);
        let y0 = y1 - band;
        // The band is outside the plotting area the veil covers: it stops at what is drawn.
        let shown = (frame.x.lo, hi.min(frame.x.hi));
        for (from, to, c) in spans {
            if to < shown.0 || from > shown.1 {
                continue;
            }
            let (Some(a), Some(b)) = (
                frame.x.x_px(from.clamp(shown.0, shown.1)),
                frame.x.x_px(to.clamp(shown.0, shown.1)),
            ) else {
                continue;
            };
            root.draw(&Rectangle::new(
                [
                    (a.round() as i32, y0),
                    (b.round().max(a.round() + 1.0) as i32, y1),
                ],
                c.filled(),
            ))
            .map_err(|e| e.to_string())?;
        }
        draw::level(&mut chart, st, &frame, link, Pen::dashed(LINK, 1.2))?;
        draw::line(
            &mut chart,
            st,
            &frame,
            &rtt_scaled,
            Pen::solid(MIN_RTT, 1.4),
        )?;
        draw::line(&mut chart, st, &frame, &pacing, Pen::dashed(PACING, 1.4))?;
        draw::line(&mut chart, st, &frame, &bw, Pen::solid(BBR_BW, 2.0))?;
        Ok(frame)
    }

    fn readout(&self, at: At, _: &Frame, _: &Style) -> Option<Readout> {
        let t = at.t_ms;
        let lang = self.ctx.lang;
        let points = self.points();
        let b = points.get(index_at(points, t, |b| b.t)?)?;
        let (c, mode) = bbr_mode(b.mode, lang);
        let mut rows = vec![Row::new(
            c,
            match b.phase {
                Some(_) => format!(
                    "{mode} · {} · cwnd ×{}",
                    phase_of(b, lang).1,
                    fmt::trim(b.cwnd_gain, 2)
                ),
                None => format!(
                    "{mode} · ×{} · cwnd ×{}",
                    fmt::trim(b.pacing_gain, 3),
                    fmt::trim(b.cwnd_gain, 2)
                ),
            },
            None,
        )];
        if let Some(bw) = b.bw_mbps {
            rows.push(Row::new(
                BBR_BW,
                format!("{} {}", lang.pick("bandwidth", "带宽"), fmt::rate(bw)),
                Some(bw.0),
            ));
        }
        if let Some(p) = b.pacing_mbps {
            rows.push(Row::new(
                PACING,
                format!("{} {}", lang.pick("pacing", "发送节奏"), fmt::rate(p)),
                Some(p.0),
            ));
        }
        if let Some(r) = b.min_rtt_ms {
            rows.push(Row::new(
                MIN_RTT,
                format!("{} {}", lang.pick("min RTT", "最小 RTT"), fmt::ms(r)),
                None,
            ));
        }
        let mut readout = Readout::at(t, rows);
        // Where the flow drawn was chosen, the readout says which it is, as the caption does.
        if let Some(name) = self
            .name
            .as_ref()
            .filter(|_| bbr_flows(&self.ctx.view).len() > 1)
        {
            readout.head = format!("{} · {name}", readout.head);
        }
        Some(readout)
    }
}

/// The choice of the flow to draw, in the chart's title line, where the run has several BBR
/// flows (`drawn` is the one drawn); none where it has one. `on_pick` gets the chosen index.
pub fn picker(ctx: &Ctx, names: &[String], drawn: usize, on_pick: Callback<usize>) -> Option<Html> {
    let flows = bbr_flows(&ctx.view);
    if flows.len() < 2 {
        return None;
    }
    let on_change = Callback::from(move |e: Event| {
        let select: Option<HtmlSelectElement> = e.target_dyn_into();
        if let Some(i) = select.and_then(|s| s.value().parse::<usize>().ok()) {
            on_pick.emit(i);
        }
    });
    Some(html! {
        <label class="chart-pick">
            <span>{ ctx.pick("BBR flow", "BBR 流") }</span>
            // Keyed by the run: a new run's list is a new element, so the browser shows its
            // first flow rather than keeping the last run's choice on screen.
            <select id="bbr-flow" key={ctx.view.query.clone()} onchange={on_change}>
                { for flows.iter().map(|&i| html! {
                    <option value={i.to_string()} selected={i == drawn}>{ name_of(ctx, names, i) }</option>
                }) }
            </select>
        </label>
    })
}

/// Flow `i`'s name as the legends give it (`names`, the run's), or "flow N".
fn name_of(ctx: &Ctx, names: &[String], i: usize) -> String {
    names
        .get(i)
        .cloned()
        .unwrap_or_else(|| format!("{} {}", ctx.pick("flow", "流"), i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::run_view;

    /// Every colour of the band above the plot is named: BBR's modes other than ProbeBW where
    /// the band shows them (Startup and Drain at the start of a run, not in a window after
    /// it), and ProbeBW's phases.
    #[test]
    fn the_legend_names_the_bands_modes_in_view() {
        let ctx = Ctx::new(
            std::rc::Rc::new(run_view("cc=bbr&app=bulk&dur=3")),
            Lang::En,
        );
        let end = ctx.end_ms;
        let bbr = Bbr::new(ctx, 0, &[]);
        let names =
            |span| -> Vec<String> { bbr.legend(span).into_iter().map(|i| i.label).collect() };
        let whole = names((0.0, end));
        for want in [
            "Startup",
            "Drain",
            "ProbeBW probe ×1.25",
            "drain ×0.75",
            "cruise ×1",
        ] {
            assert!(whole.iter().any(|l| l == want), "{want}: {whole:?}");
        }
        let late = names((end - 500.0, end));
        assert!(
            !late.iter().any(|l| l == "Startup" || l == "Drain"),
            "{late:?}"
        );
    }

    #[test]
    fn the_bbr_flows_are_those_with_bbr_s_variables() {
        let view = run_view("flows=3&cc=bbr,cubic,bbr&app=bulk&dur=1");
        assert_eq!(bbr_flows(&view), [0, 2]);
        assert!(bbr_flows(&run_view("cc=cubic&app=bulk&dur=1")).is_empty());
    }

    #[test]
    fn the_flow_drawn_is_the_choice_while_it_runs_bbr_else_the_first_bbr_flow() {
        let view = run_view("flows=3&cc=cubic,bbr,bbr&app=bulk&dur=1");
        assert_eq!(flow_to_draw(&view, None), Some(1));
        assert_eq!(flow_to_draw(&view, Some(2)), Some(2));
        // Flow 1 runs CUBIC, and a choice from a run with more flows names none of these.
        assert_eq!(flow_to_draw(&view, Some(0)), Some(1));
        assert_eq!(flow_to_draw(&view, Some(3)), Some(1));
        assert_eq!(flow_to_draw(&view, Some(usize::MAX)), Some(1));
        let cubic = run_view("cc=cubic&app=bulk&dur=1");
        assert_eq!(flow_to_draw(&cubic, Some(0)), None);
        assert_eq!(flow_to_draw(&cubic, None), None);
    }
}
