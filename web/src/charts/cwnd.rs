//! The congestion window over time, with ssthresh, the bytes in flight and the receive window,
//! the path's BDP, CUBIC's predicted curve and BBR's mode.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use tcplab::cc::bbr::BbrMode;
use tcplab::player::Step;
use tcplab::view::{BbrPoint, WindowPoint};

use super::axis::{self, time_chart, Right, YAxis};
use super::cursor::{Readout, Row};
use super::draw::{self, Pen};
use super::fmt::{self, ByteUnit};
use super::frame::{above, top_of, Frame};
use super::legend::{self, Item, Swatch};
use super::plot::{At, Figure};
use super::series::{clip_x, finite, index_at, max_of, steps};
use super::style::*;
use super::{Ctx, Root};
use crate::i18n::Lang;

#[derive(Debug, Clone, PartialEq)]
pub struct Cwnd(pub Ctx);

pub fn applies(ctx: &Ctx) -> bool {
    ctx.view.flows.iter().any(|f| !f.window.is_empty())
}

/// A BBR mode's colour and its name in the page's language.
pub fn bbr_mode(mode: BbrMode, lang: Lang) -> (RGBColor, &'static str) {
    match mode {
        BbrMode::Startup => (BBR_STARTUP, lang.pick("Startup", "启动 Startup")),
        BbrMode::Drain => (BBR_DRAIN, lang.pick("Drain", "排空 Drain")),
        BbrMode::ProbeBw => (BBR_PROBE_BW, lang.pick("ProbeBW", "带宽探测 ProbeBW")),
        BbrMode::ProbeRtt => (BBR_PROBE_RTT, lang.pick("ProbeRTT", "RTT 探测 ProbeRTT")),
    }
}

/// Runs of one BBR mode: (from ms, to ms, mode).
pub fn bbr_runs(points: &[BbrPoint], end: f64) -> Vec<(f64, f64, BbrMode)> {
    let mut runs: Vec<(f64, f64, BbrMode)> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let to = points.get(i + 1).map_or(end, |n| n.t);
        match runs.last_mut() {
            Some(last) if last.2 == p.mode => last.1 = to,
            _ => runs.push((p.t, to, p.mode)),
        }
    }
    runs.retain(|r| r.0.is_finite() && r.1.is_finite() && r.1 >= r.0);
    runs
}

/// CUBIC's window W(t) = 0.4 (t − K)³ + W_max in segments, t in s since the epoch began.
pub fn cubic_w(k_s: f64, w_max: f64, since_s: f64) -> f64 {
    0.4 * (since_s - k_s).powi(3) + w_max
}

fn window_series(
    window: &[WindowPoint],
    end: f64,
    value: impl Fn(&WindowPoint) -> f64,
) -> Vec<(f64, f64)> {
    steps(&finite(window.iter().map(|w| (w.t, value(w)))), end)
}

/// The advertised receive window, from the first advertisement (before the handshake the
/// sender has heard none, and the trace says 0).
fn rwnd_series(window: &[WindowPoint], end: f64) -> Vec<(f64, f64)> {
    let from = window
        .iter()
        .position(|w| w.rwnd > 0.0)
        .unwrap_or(window.len());
    steps(&finite(window[from..].iter().map(|w| (w.t, w.rwnd))), end)
}

/// One of BBR's traced values as steps, from its first value on.
fn bbr_series(
    bbr: &[BbrPoint],
    end: f64,
    value: impl Fn(&BbrPoint) -> Option<f64>,
) -> Vec<(f64, f64)> {
    let from = bbr
        .iter()
        .position(|b| value(b).is_some())
        .unwrap_or(bbr.len());
    steps(
        &finite(
            bbr[from..]
                .iter()
                .map(|b| (b.t, value(b).unwrap_or(f64::NAN))),
        ),
        end,
    )
}

fn ssthresh_series(window: &[WindowPoint], end: f64) -> Vec<(f64, f64)> {
    // Before the first loss ssthresh is unbounded: the line starts where it gets a value.
    let from = window
        .iter()
        .position(|w| w.ssthresh.is_some())
        .unwrap_or(window.len());
    steps(
        &finite(
            window[from..]
                .iter()
                .map(|w| (w.t, w.ssthresh.unwrap_or(f64::NAN))),
        ),
        end,
    )
}

/// The flows' fair shares of the path as windows: the link's rate over the `n` flows times
/// each flow's own round trip, since a flow of 100 ms needs ten times the window of one of
/// 10 ms for the same rate (`rtt=10,100`); one value where the flows' round trips are alike,
/// none for a single flow.
#[derive(Debug, Clone, PartialEq)]
enum Fair {
    None,
    Alike(f64),
    /// (flow, its round trip ms, its share) for each flow.
    Each(Vec<(usize, f64, f64)>),
}

impl Fair {
    fn of(ctx: &Ctx) -> Fair {
        let th = &ctx.view.theory;
        let n = ctx.view.flows.len();
        if n < 2 {
            return Fair::None;
        }
        let rtts: Vec<f64> = match ctx.scenario() {
            Some(s) => (0..n).map(|i| s.flow(i).rtt_ms).collect(),
            None => vec![th.rtt_ms; n],
        };
        let share = |rtt: f64| {
            if th.rtt_ms > 0.0 {
                th.bdp_bytes * rtt / th.rtt_ms / n as f64
            } else {
                th.bdp_bytes / n as f64
            }
        };
        if rtts.iter().all(|r| *r == rtts[0]) {
            Fair::Alike(share(rtts[0]))
        } else {
            Fair::Each(
                rtts.iter()
                    .enumerate()
                    .map(|(i, r)| (i, *r, share(*r)))
                    .collect(),
            )
        }
    }

    fn values(&self) -> Vec<f64> {
        match self {
            Fair::None => Vec::new(),
            Fair::Alike(v) => vec![*v],
            Fair::Each(each) => each.iter().map(|e| e.2).collect(),
        }
    }
}

impl Cwnd {
    fn bbr(&self) -> &[BbrPoint] {
        self.0.view.flows.first().map_or(&[], |f| &f.bbr[..])
    }

    fn band_height(st: &Style) -> i32 {
        st.px(12.0)
    }

    /// The legend on a chart topped at `top` (`dense`: a line is drawn as its min–max band).
    /// What it names of flow 1's (ssthresh, the largest rwnd, CUBIC's curve, BBR's target and
    /// modes) is what is in view and known (see [`Ctx::known`]): a lesson's pending question
    /// sees no loss, window or mode yet to come.
    pub fn legend(&self, top: f64, dense: bool) -> Vec<Item> {
        let ctx = &self.0;
        let v = &ctx.view;
        let th = &v.theory;
        let lang = ctx.lang;
        let end = ctx.end_ms;
        let n = v.flows.len();
        let span = ctx.span();
        let view = |s: &[(f64, f64)]| clip_x(s, span.0, span.1);
        let f0 = v.flows.first();
        let detail = f0.filter(|_| n == 1);
        let window = detail.map_or(&[][..], |f| ctx.known(&f.window, |w| w.t));
        let bbr = f0.map_or(&[][..], |f| ctx.known(&f.bbr, |b| b.t));
        let detail_bbr = if detail.is_some() { bbr } else { &[] };
        let ssthresh = !view(&ssthresh_series(window, end)).is_empty();
        let in_flight = !view(&window_series(window, end, |w| w.in_flight)).is_empty();
        let rwnd_max = max_of(view(&rwnd_series(window, end)).iter().map(|p| p.1));
        let bbr_target = !view(&bbr_series(detail_bbr, end, |b| b.target_cwnd_bytes)).is_empty();
        let extra_seen = detail_bbr.iter().any(|b| b.extra_acked_bytes > 0.0);
        let cubic = f0.is_some_and(|f| !ctx.known(&f.cubic, |c| c.start_ms).is_empty());
        let fair = Fair::of(ctx);

        let mut items = if n == 1 {
            vec![Item::new(Swatch::Line(flow_colour(0), 2.2), "cwnd")]
        } else {
            legend::flow_items(&ctx.flow_names(), lang, (2.2, 1.3))
        };
        if ssthresh {
            items.push(Item::new(Swatch::Line(SSTHRESH_BAND, 5.0), "ssthresh"));
        }
        if in_flight {
            items.push(Item::new(
                Swatch::Line(IN_FLIGHT, 1.2),
                lang.pick("in flight", "在途数据"),
            ));
        }
        if let Some(r) = rwnd_max {
            items.push(Item::new(
                Swatch::Line(RWND, 1.2),
                format!(
                    "{} {}{}",
                    lang.pick("rwnd, advertised: up to", "rwnd（通告窗口）最大"),
                    fmt::bytes(r),
                    above(r, top, lang)
                ),
            ));
        }
        // Where the flows' round trips differ, the BDP is the path's at the scenario's RTT,
        // and says which.
        let bdp_rtt = match fair {
            Fair::Each(_) => format!(" ({})", fmt::ms(th.rtt_ms)),
            _ => String::new(),
        };
        items.push(Item::new(
            Swatch::Dashed(BDP, 1.4),
            format!(
                "BDP = bw·RTT{bdp_rtt} = {}{}",
                fmt::bytes(th.bdp_bytes),
                above(th.bdp_bytes, top, lang)
            ),
        ));
        match &fair {
            Fair::None => {}
            Fair::Alike(v) => items.push(Item::new(
                Swatch::Dashed(MUTED, 1.2),
                format!(
                    "{} BDP/{n} = {}{}",
                    lang.pick("fair share", "公平份额"),
                    fmt::bytes(*v),
                    above(*v, top, lang)
                ),
            )),
            Fair::Each(each) => {
                for &(i, rtt, v) in each {
                    let whose = match lang {
                        Lang::En => format!("flow {}'s fair share", i + 1),
                        Lang::Zh => format!("流 {} 的公平份额", i + 1),
                    };
                    items.push(Item::new(
                        Swatch::Dashed(colour_of(i, n), 1.2),
                        format!(
                            "{whose} bw/{n}·{} = {}{}",
                            fmt::ms(rtt),
                            fmt::bytes(v),
                            above(v, top, lang)
                        ),
                    ));
                }
            }
        }
        if dense {
            items.push(Item::new(
                Swatch::Block(RGBColor(0xd5, 0xdc, 0xe6)),
                lang.pick("min–max band", "最小–最大值带"),
            ));
        }
        if bbr_target {
            items.push(Item::new(
                Swatch::Dashed(BBR_TARGET, 1.4),
                lang.pick(
                    "BBR's target: cwnd_gain·bw·min_RTT + extra_acked",
                    "BBR 目标窗口：cwnd_gain·bw·min_RTT + extra_acked",
                ),
            ));
            if extra_seen {
                items.push(Item::new(
                    Swatch::Dashed(BBR_EXTRA, 1.4),
                    lang.pick(
                        "the same without extra_acked (ACK aggregation)",
                        "不计 extra_acked（ACK 聚合）的目标",
                    ),
                ));
            }
        }
        if cubic {
            items.push(Item::new(
                Swatch::Dashed(CUBIC, 1.6),
                lang.pick(
                    "CUBIC W(t) = 0.4·(t − K)³ + W_max",
                    "CUBIC 预测 W(t) = 0.4·(t − K)³ + W_max",
                ),
            ));
        }
        let mut seen: Vec<BbrMode> = Vec::new();
        for r in bbr_runs(bbr, end) {
            if !seen.contains(&r.2) {
                seen.push(r.2);
            }
        }
        for m in &seen {
            let (c, name) = bbr_mode(*m, lang);
            items.push(Item::new(Swatch::Block(c), format!("BBR {name}")));
        }
        items
    }
}

impl Figure for Cwnd {
    fn kind(&self) -> &'static str {
        "cwnd"
    }

    fn ctx(&self) -> &Ctx {
        &self.0
    }

    fn title(&self) -> String {
        self.0.pick("Congestion window", "拥塞窗口").to_string()
    }

    fn note(&self) -> Option<String> {
        self.0.flows_note(
            "; the cursor reads flow 1's details",
            "；光标读数为流 1 的详情",
        )
    }

    fn tip(&self) -> Option<String> {
        Some(
            self.0
                .lang
                .pick(
                    "Where a line moves faster than one pixel column can show, the min–max band shades \
                     it from its lowest to its highest value within that column.",
                    "曲线在一个像素列内变化过快时，最小–最大值带给出它在该列中从最低到最高的取值范围。",
                )
                .to_string(),
        )
    }

    fn height(&self) -> f64 {
        if self.bbr().is_empty() {
            300.0
        } else {
            318.0
        }
    }

    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String> {
        let ctx = &self.0;
        let v = &ctx.view;
        let th = &v.theory;
        let lang = ctx.lang;
        let end = ctx.end_ms;
        let mss = f64::from(th.mss.max(1));
        let n = v.flows.len();

        let cwnds: Vec<Vec<(f64, f64)>> = v
            .flows
            .iter()
            .map(|f| window_series(&f.window, end, |w| w.cwnd))
            .collect();
        let f0 = v.flows.first();
        // With several flows their windows are the story; flow 1's details stay in the readout.
        let detail = f0.filter(|_| n == 1);
        let in_flight =
            detail.map_or_else(Vec::new, |f| window_series(&f.window, end, |w| w.in_flight));
        let ssthresh = detail.map_or_else(Vec::new, |f| ssthresh_series(&f.window, end));
        let rwnd = detail.map_or_else(Vec::new, |f| rwnd_series(&f.window, end));
        // BBR steers cwnd toward cwnd_gain BDPs of its model plus what it allows for ACKs that
        // come in bunches (`bbr_set_cwnd`); drawn with and without that allowance, so that
        // aggregation's share (`extra_acked`) shows as the gap between them.
        let bbr_target = detail.map_or_else(Vec::new, |f| {
            bbr_series(&f.bbr, end, |b| b.target_cwnd_bytes)
        });
        let bbr_model = detail.map_or_else(Vec::new, |f| {
            bbr_series(&f.bbr, end, |b| {
                b.target_cwnd_bytes.map(|t| t - b.extra_acked_bytes)
            })
        });
        let extra_seen = detail.is_some_and(|f| f.bbr.iter().any(|b| b.extra_acked_bytes > 0.0));
        let fair = Fair::of(ctx);
        // Zoomed, the axes fit what is in view: slow start from 10 to 90 segments is not a
        // flat line under a 4 MB BDP.
        let span = ctx.span();
        let drawn = ctx.drawn_span();
        let view = |s: &[(f64, f64)]| clip_x(s, drawn.0, drawn.1);
        let cwnds: Vec<Vec<(f64, f64)>> = cwnds.iter().map(|c| view(c)).collect();
        let (in_flight, ssthresh, rwnd) = (view(&in_flight), view(&ssthresh), view(&rwnd));
        let (bbr_target, bbr_model) = (view(&bbr_target), view(&bbr_model));

        let data_max = max_of(
            cwnds
                .iter()
                .flatten()
                .chain(in_flight.iter())
                .chain(ssthresh.iter())
                .map(|p| p.1),
        );
        let rwnd_max = max_of(rwnd.iter().map(|p| p.1));
        let mut lines = vec![th.bdp_bytes];
        lines.extend(rwnd_max);
        lines.extend(fair.values());
        let top = top_of(data_max, &lines, 2.5);

        let columns = axis::plot_columns(root, st) as usize;
        let dense = cwnds
            .iter()
            .chain([&in_flight, &rwnd])
            .any(|c| draw::is_dense(c, columns));
        let items = self.legend(top, dense);
        let cubic = f0.map_or(&[][..], |f| &f.cubic[..]);
        let runs = bbr_runs(self.bbr(), end);

        // On a log scale every value goes through `yv`, from half a segment up: slow start's
        // doubling is then a straight line, and a window of 10 segments reads beside one of
        // 10 000.
        let log = ctx.window_log;
        let floor = mss / 2.0;
        let yv = |v: f64| if log { v.max(floor).log10() } else { v };
        let on_axis =
            |s: &[(f64, f64)]| -> Vec<(f64, f64)> { s.iter().map(|&(t, v)| (t, yv(v))).collect() };
        let (cwnds, in_flight, ssthresh, rwnd, bbr_target, bbr_model) = if log {
            (
                cwnds.iter().map(|c| on_axis(c)).collect(),
                on_axis(&in_flight),
                on_axis(&ssthresh),
                on_axis(&rwnd),
                on_axis(&bbr_target),
                on_axis(&bbr_model),
            )
        } else {
            (cwnds, in_flight, ssthresh, rwnd, bbr_target, bbr_model)
        };
        let unit = ByteUnit::for_top(top);
        let linear_tick = |v: f64| unit.tick(v);
        let log_tick = |v: f64| fmt::bytes(10f64.powf(v));
        let y = YAxis {
            bottom: if log { yv(floor) } else { 0.0 },
            top: yv(top),
            desc: if log {
                format!(
                    "{} ({})",
                    lang.pick("bytes", "字节"),
                    lang.pick("log scale", "对数坐标")
                )
            } else {
                format!("{} ({})", lang.pick("bytes", "字节"), unit.name())
            },
            tick: if log { &log_tick } else { &linear_tick },
            right: (!log).then(|| Right {
                factor: 1.0 / mss,
                desc: match lang {
                    Lang::En => {
                        format!(
                            "segments of {} B",
                            crate::model::format::count(u64::from(th.mss))
                        )
                    }
                    Lang::Zh => format!(
                        "段（每段 {} B）",
                        crate::model::format::count(u64::from(th.mss))
                    ),
                },
            }),
        };
        let band = if runs.is_empty() {
            0
        } else {
            Self::band_height(st) + axis::gap(st)
        };
        let (mut chart, frame) = time_chart(root, st, lang, span, &y, &items, band)?;

        draw::line(
            &mut chart,
            st,
            &frame,
            &in_flight,
            Pen::solid(IN_FLIGHT, 1.2),
        )?;
        draw::line(&mut chart, st, &frame, &rwnd, Pen::solid(RWND, 1.2))?;
        draw::level(
            &mut chart,
            st,
            &frame,
            yv(th.bdp_bytes),
            Pen::dashed(BDP, 1.4),
        )?;
        match &fair {
            Fair::None => {}
            Fair::Alike(v) => {
                draw::level(&mut chart, st, &frame, yv(*v), Pen::dashed(MUTED, 1.2))?;
            }
            // Drawn over the windows (below), where a flow's share runs through another's.
            Fair::Each(_) => {}
        }
        for (i, c) in cwnds.iter().enumerate().skip(1).rev() {
            draw::line(
                &mut chart,
                st,
                &frame,
                c,
                Pen::solid(colour_of(i, n), 1.3).alpha(0.85),
            )?;
        }
        // A wide pale band under cwnd: after a loss the two often coincide, and both must
        // stay visible.
        draw::line(
            &mut chart,
            st,
            &frame,
            &ssthresh,
            Pen::solid(SSTHRESH_BAND, 5.0),
        )?;
        if let Some(c) = cwnds.first() {
            draw::line(&mut chart, st, &frame, c, Pen::solid(ACCENT, 2.2))?;
        }
        if let Fair::Each(each) = &fair {
            for &(i, _, v) in each {
                let pen = Pen::dashed(colour_of(i, n), 1.6);
                draw::level(&mut chart, st, &frame, yv(v), pen)?;
            }
        }
        // BBR's target over cwnd, as CUBIC's prediction is: in ProbeBW cwnd sits on it.
        if extra_seen {
            draw::line(
                &mut chart,
                st,
                &frame,
                &bbr_model,
                Pen::dashed(BBR_EXTRA, 1.4),
            )?;
        }
        draw::line(
            &mut chart,
            st,
            &frame,
            &bbr_target,
            Pen::dashed(BBR_TARGET, 1.4),
        )?;
        // CUBIC's prediction last: where cwnd follows it, the dashes ride on the line.
        let cols = draw::columns(&frame, st) as f64;
        for (i, e) in cubic.iter().enumerate() {
            let from = e.start_ms.max(span.0);
            let to = cubic.get(i + 1).map_or(end, |n| n.start_ms).min(drawn.1);
            if !(from.is_finite() && to.is_finite() && to > from) {
                continue;
            }
            let samples = ((to - from) / (span.1 - span.0) * cols).clamp(2.0, 600.0) as usize;
            let curve: Vec<(f64, f64)> = (0..=samples)
                .map(|j| {
                    let t = from + (to - from) * j as f64 / samples as f64;
                    (
                        t,
                        yv(cubic_w(e.k_s, e.w_max, (t - e.start_ms) / 1000.0) * mss),
                    )
                })
                .collect();
            draw::line(
                &mut chart,
                st,
                &frame,
                &finite(curve),
                Pen::dashed(CUBIC, 1.6),
            )?;
        }

        if !runs.is_empty() {
            let y1 = frame.top() as i32 - axis::gap(st);
            let y0 = y1 - Self::band_height(st);
            // Outside the plotting area the veil covers: the band stops at what is drawn.
            let shown = (frame.x.lo, drawn.1.min(frame.x.hi));
            for (from, to, mode) in &runs {
                if *to < shown.0 || *from > shown.1 {
                    continue;
                }
                let (Some(a), Some(b)) = (
                    frame.x.x_px(from.clamp(shown.0, shown.1)),
                    frame.x.x_px(to.clamp(shown.0, shown.1)),
                ) else {
                    continue;
                };
                let (c, _) = bbr_mode(*mode, lang);
                root.draw(&Rectangle::new(
                    [
                        (a.round() as i32, y0),
                        (b.round().max(a.round() + 1.0) as i32, y1),
                    ],
                    c.filled(),
                ))
                .map_err(|e| e.to_string())?;
            }
            root.draw(&Text::new(
                "BBR",
                (frame.left() as i32 - st.px(6.0), (y0 + y1) / 2),
                st.text(0.95, INK).pos(Pos::new(HPos::Right, VPos::Center)),
            ))
            .map_err(|e| e.to_string())?;
        }
        Ok(frame)
    }

    fn readout(&self, at: At, _: &Frame, _: &Style) -> Option<Readout> {
        self.read(at.t_ms, at.step)
    }
}

impl Cwnd {
    /// The readout at `t`; the first flow's window as the player's `step` left it, when the
    /// player stands on one of that flow's steps at `t`.
    fn read(&self, t: f64, step: Option<&Step>) -> Option<Readout> {
        let ctx = &self.0;
        let v = &ctx.view;
        let lang = ctx.lang;
        let mss = v.theory.mss;
        let f0 = v.flows.first()?;
        // The dots sit where the lines are drawn: on the log scale, at the values' logarithms.
        let floor = f64::from(mss.max(1)) / 2.0;
        let yv = |v: f64| {
            if ctx.window_log {
                v.max(floor).log10()
            } else {
                v
            }
        };
        let mut rows = Vec::new();
        if let Some(i) = index_at(&f0.window, t, |w| w.t) {
            let mut w = f0.window[i].clone();
            if let Some(s) = step.filter(|s| s.flow == 0) {
                let f = &s.state;
                (w.cwnd, w.ssthresh, w.in_flight) = (
                    f.cwnd as f64,
                    f.ssthresh.map(|b| b as f64),
                    f.in_flight as f64,
                );
                (w.srtt_ms, w.rto_ms) = (f.srtt_ms, f.rto_ms);
            }
            let seg = |b: f64| fmt::segments(b, mss, lang);
            rows.push(Row::new(
                ACCENT,
                format!("cwnd {} ({})", fmt::bytes(w.cwnd), seg(w.cwnd)),
                Some(yv(w.cwnd)),
            ));
            rows.push(match w.ssthresh {
                Some(s) => Row::new(
                    SSTHRESH_BAND,
                    format!("ssthresh {} ({})", fmt::bytes(s), seg(s)),
                    Some(yv(s)),
                ),
                None => Row::new(
                    SSTHRESH_BAND,
                    lang.pick("ssthresh ∞ (no loss yet)", "ssthresh ∞（尚无丢包）"),
                    None,
                ),
            });
            rows.push(Row::new(
                IN_FLIGHT,
                format!(
                    "{} {} ({})",
                    lang.pick("in flight", "在途"),
                    fmt::bytes(w.in_flight),
                    seg(w.in_flight)
                ),
                Some(yv(w.in_flight)),
            ));
            if w.rwnd > 0.0 {
                rows.push(Row::new(
                    RWND,
                    format!("rwnd {}", fmt::bytes(w.rwnd)),
                    Some(yv(w.rwnd)),
                ));
            }
            let srtt = w.srtt_ms.map_or("–".to_string(), fmt::ms);
            rows.push(Row::new(
                MUTED,
                format!("srtt {srtt} · RTO {}", fmt::ms(w.rto_ms)),
                None,
            ));
        }
        if v.flows.len() > 1 {
            let total: f64 = v
                .flows
                .iter()
                .filter_map(|f| index_at(&f.window, t, |w| w.t).map(|i| f.window[i].cwnd))
                .sum();
            rows.push(Row::new(
                MUTED,
                format!(
                    "{} {}: Σ cwnd {}",
                    v.flows.len(),
                    lang.pick("flows", "条流"),
                    fmt::bytes(total)
                ),
                None,
            ));
        }
        if let Some(i) = index_at(&f0.cubic, t, |c| c.start_ms) {
            let e = &f0.cubic[i];
            let w = cubic_w(e.k_s, e.w_max, (t - e.start_ms) / 1000.0);
            if w.is_finite() {
                rows.push(Row::new(
                    CUBIC,
                    format!(
                        "CUBIC W(t) {} ({} {}, K {} s)",
                        fmt::segments(w * f64::from(mss.max(1)), mss, lang),
                        "W_max",
                        fmt::sig(e.w_max),
                        fmt::sig(e.k_s)
                    ),
                    Some(yv(w * f64::from(mss.max(1)))),
                ));
            }
        }
        if let Some(i) = index_at(&f0.bbr, t, |b| b.t) {
            let b = &f0.bbr[i];
            let (c, name) = bbr_mode(b.mode, lang);
            let bw = b.bw_mbps.map_or("–".to_string(), fmt::rate);
            let rtt = b.min_rtt_ms.map_or("–".to_string(), fmt::ms);
            rows.push(Row::new(
                c,
                format!(
                    "BBR {name} · bw {bw} · min RTT {rtt} · {} {}",
                    lang.pick("gain", "增益"),
                    fmt::sig(b.pacing_gain)
                ),
                None,
            ));
            if let Some(target) = b.target_cwnd_bytes.filter(|_| v.flows.len() == 1) {
                let seg = |x: f64| fmt::segments(x, mss, lang);
                rows.push(Row::new(
                    BBR_TARGET,
                    format!(
                        "{} {} = {}·BDP {} + extra_acked {}",
                        lang.pick("BBR target", "BBR 目标"),
                        seg(target),
                        fmt::sig(b.cwnd_gain),
                        seg(target - b.extra_acked_bytes),
                        seg(b.extra_acked_bytes)
                    ),
                    Some(yv(target)),
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
    use crate::worker::protocol::run_view;

    /// At an instant of several events (the default run's first flight, ten segments sent as
    /// the handshake completes), the player's first step there has nothing in flight; the
    /// series, and the readout away from the player, hold the instant's end: ten in flight.
    #[test]
    fn at_the_players_step_the_readout_is_the_steps_state() {
        let query = "";
        let view = Rc::new(run_view(query));
        let steps = crate::worker::protocol::run_steps(query, 0.0);
        let first = steps
            .steps
            .iter()
            .find(|s| s.kind.name() == "established")
            .copied()
            .expect("the handshake's step");
        let at = steps.steps.iter().filter(|s| s.t_ms == first.t_ms).count();
        assert!(at > 2, "{at} steps at {}", first.t_ms);
        let cwnd = Cwnd(Ctx::new(view, Lang::En));
        let texts = |r: Option<Readout>| -> Vec<String> {
            r.map(|r| r.rows.into_iter().map(|row| row.text).collect())
                .unwrap_or_default()
        };
        let after = texts(cwnd.read(first.t_ms, None));
        let stepped = texts(cwnd.read(first.t_ms, Some(&first)));
        assert!(
            after.iter().any(|r| r.starts_with("in flight 14.6 kB (10")),
            "{after:?}"
        );
        assert!(
            stepped.iter().any(|r| r == "in flight 0 B (0 seg)"),
            "{stepped:?}"
        );
        let last = steps
            .steps
            .iter()
            .rfind(|s| s.t_ms == first.t_ms)
            .expect("a step");
        assert_eq!(texts(cwnd.read(first.t_ms, Some(last))), after);
    }

    fn legend(query: &str) -> Vec<String> {
        let view = Rc::new(run_view(query));
        Cwnd(Ctx::new(view, Lang::En))
            .legend(1e6, false)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    /// Flows of one round trip share the path's BDP alike; flows of 10 and 100 ms each get the
    /// link's rate over the flows times their own round trip, so that the 100 ms flow's window
    /// is read against 62.5 kB, not against the 10 ms flow's 6.25 kB.
    #[test]
    fn a_fair_share_is_a_window_of_each_flows_own_round_trip() {
        let alike = legend("cc=reno&rtt=40&bw=10&queue=50&app=bulk&dur=2&flows=2");
        assert!(
            alike.iter().any(|l| l == "fair share BDP/2 = 25 kB"),
            "{alike:?}"
        );
        let apart = legend("cc=reno&rtt=10,100&bw=10&queue=50&app=bulk&dur=2&flows=2");
        for want in [
            "BDP = bw·RTT (10 ms) = 12.5 kB",
            "flow 1's fair share bw/2·10 ms = 6.25 kB",
            "flow 2's fair share bw/2·100 ms = 62.5 kB",
        ] {
            assert!(apart.iter().any(|l| l == want), "{want}: {apart:?}");
        }
        assert!(!apart.iter().any(|l| l.contains("BDP/2")), "{apart:?}");
    }
}
