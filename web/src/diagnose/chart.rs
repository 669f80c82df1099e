//! A capture's curves drawn over the page's run of the same path: the data sent (the
//! time-sequence graph), the bytes in flight over the run's congestion window, the round trips
//! and the goodput, on the same axes. The capture is ink; the simulation is pale beneath it.

use std::rc::Rc;

use plotters::prelude::*;
use tcplab::capture::analyze::Curves;
use tcplab::view::RunView;

use crate::charts::canvas::Drawing;
use crate::charts::fmt::TimeUnit;
use crate::charts::legend::{Item, Swatch};
use crate::charts::series::decimate;
use crate::charts::style::{Style, ACCENT};
use crate::charts::xy::{self, Axis};
use crate::charts::Root;
use crate::i18n::Lang;

/// The simulation's colour under the capture's.
const SIMULATED: RGBColor = RGBColor(0xe0, 0x6c, 0x00);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    Sent,
    InFlight,
    Rtt,
    Goodput,
}

impl What {
    pub const ALL: [What; 4] = [What::Sent, What::InFlight, What::Rtt, What::Goodput];

    pub fn id(self) -> &'static str {
        match self {
            What::Sent => "capture-sent",
            What::InFlight => "capture-inflight",
            What::Rtt => "capture-rtt-chart",
            What::Goodput => "capture-goodput-chart",
        }
    }

    pub fn title(self, lang: Lang) -> &'static str {
        match self {
            What::Sent => lang.pick(
                "Data sent: the capture over the simulation",
                "已发送数据：抓包与模拟",
            ),
            What::InFlight => lang.pick(
                "Bytes in flight (capture, at most cwnd) and the simulated cwnd",
                "在途字节（抓包，不超过 cwnd）与模拟的 cwnd",
            ),
            What::Rtt => lang.pick("Round trips", "往返时间"),
            What::Goodput => lang.pick("Goodput", "有效吞吐"),
        }
    }

    fn y_desc(self, lang: Lang) -> &'static str {
        match self {
            What::Sent => lang.pick("highest byte sent (MB)", "已发送最高字节（MB）"),
            What::InFlight => lang.pick("bytes (kB)", "字节（kB）"),
            What::Rtt => lang.pick("RTT (ms)", "RTT（ms）"),
            What::Goodput => lang.pick("goodput (MB/s)", "有效吞吐（MB/s）"),
        }
    }

    /// The y value as drawn (MB, kB, ms, MB/s).
    fn scale(self) -> f64 {
        match self {
            What::Sent => 1e-6,
            What::InFlight => 1e-3,
            What::Rtt | What::Goodput => 1.0,
        }
    }

    /// The capture's lines, then the simulation's, with their names.
    fn lines(self, c: &Curves, twin: Option<&RunView>, lang: Lang) -> Vec<Line> {
        let flow = twin.and_then(|v| v.flows.first());
        let capture = lang.pick("capture", "抓包").to_string();
        let simulated = lang.pick("simulated", "模拟").to_string();
        let (mine, theirs): (Points, Option<(String, Points)>) = match self {
            What::Sent => (c.sent.clone(), flow.map(|f| (simulated, f.sends.clone()))),
            What::InFlight => (
                c.in_flight.clone(),
                flow.map(|f| {
                    (
                        lang.pick("simulated cwnd", "模拟 cwnd").to_string(),
                        f.window.iter().map(|w| (w.t, w.cwnd)).collect(),
                    )
                }),
            ),
            What::Rtt => (c.rtt.clone(), flow.map(|f| (simulated, f.rtt.clone()))),
            What::Goodput => (
                c.goodput.clone(),
                flow.map(|f| {
                    let averaged =
                        as_the_capture_averages(&f.goodput, f.bin_ms, c.goodput_window_ms);
                    (simulated, averaged)
                }),
            ),
        };
        let name = if self == What::InFlight {
            lang.pick("capture: in flight", "抓包：在途").to_string()
        } else {
            capture
        };
        let mut out = vec![Line::new(name, mine, false)];
        if let Some((n, pts)) = theirs {
            out.push(Line::new(n, pts, true));
        }
        out
    }
}

type Points = Vec<(f64, f64)>;

/// The simulation's goodput averaged as the capture's is (`capture::analyze`): over the
/// capture's goodput window (`Curves::goodput_window_ms`, about ten round trips), each point at
/// a window's end, so that the two lines are one measure. Drawn as its bins, the simulation's
/// line spiked to 11.7 MB/s on a 2.5 MB/s link beside the capture's even one.
fn as_the_capture_averages(bins: &[(f64, f64)], bin_ms: f64, window_ms: f64) -> Points {
    if !(bin_ms > 0.0 && bin_ms.is_finite() && window_ms > 0.0 && window_ms.is_finite()) {
        return bins.to_vec();
    }
    let k = ((window_ms / bin_ms).round() as usize).max(1);
    let rate = |b: &(f64, f64)| if b.1.is_finite() { b.1 } else { 0.0 };
    let mut sum = 0.0;
    let mut out = Vec::with_capacity(bins.len().saturating_sub(k) + 1);
    for (i, b) in bins.iter().enumerate() {
        sum += rate(b);
        if i >= k {
            sum -= rate(&bins[i - k]);
        }
        if i + 1 >= k {
            out.push((b.0 + bin_ms, sum / k as f64));
        }
    }
    out
}

/// One line of a chart: the capture's or the simulation's.
struct Line {
    name: String,
    points: Vec<(f64, f64)>,
    simulated: bool,
}

impl Line {
    fn new(name: String, points: Vec<(f64, f64)>, simulated: bool) -> Line {
        Line {
            name,
            points,
            simulated,
        }
    }
}

pub struct Overlay {
    pub what: What,
    pub curves: Curves,
    pub twin: Option<Rc<RunView>>,
    pub lang: Lang,
}

impl Drawing for Overlay {
    fn draw(&self, root: &Root, st: &Style) -> Result<(), String> {
        let lang = self.lang;
        let k = self.what.scale();
        let lines: Vec<Line> = self
            .what
            .lines(&self.curves, self.twin.as_deref(), lang)
            .into_iter()
            .map(|l| Line {
                points: l
                    .points
                    .into_iter()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .map(|(t, v)| (t, v * k))
                    .collect(),
                ..l
            })
            .collect();
        // The capture's span sets the time axis, one for the four charts (a goodput window
        // closes before the capture's last segment): the simulation may run on past it.
        let c = &self.curves;
        let end = [&c.sent, &c.in_flight, &c.rtt, &c.goodput]
            .into_iter()
            .flat_map(|l| l.iter().map(|p| p.0))
            .filter(|t| t.is_finite())
            .fold(0.0f64, f64::max)
            .max(1.0);
        let top = lines
            .iter()
            .flat_map(|l| l.points.iter().filter(|p| p.0 <= end).map(|p| p.1))
            .fold(0.0f64, f64::max);
        let items: Vec<Item> = lines
            .iter()
            .map(|l| {
                let c = if l.simulated { SIMULATED } else { ACCENT };
                Item::new(Swatch::Line(c, 2.0), l.name.clone())
            })
            .collect();
        let unit = TimeUnit::for_span(end);
        let xtick = move |v: f64| unit.tick(v);
        let ytick = |v: f64| crate::charts::fmt::sig(v);
        let frame = xy::frame(
            root,
            st,
            &items,
            &Axis {
                lo: 0.0,
                hi: end,
                log: false,
                desc: unit.desc(lang).to_string(),
                tick: &xtick,
            },
            &Axis {
                lo: 0.0,
                hi: if top > 0.0 { top * 1.08 } else { 1.0 },
                log: false,
                desc: self.what.y_desc(lang).to_string(),
                tick: &ytick,
            },
        )?;
        let cols = ((frame.right() - frame.left()) / st.dpr).max(1.0) as usize;
        // The simulation first, so that the capture is drawn over it.
        for l in lines.iter().rev() {
            let thin = decimate(&l.points, 0.0, end, cols);
            let (colour, width) = if l.simulated {
                (SIMULATED, 1.6)
            } else {
                (ACCENT, 2.0)
            };
            if self.what == What::Rtt && !l.simulated {
                for p in &thin {
                    xy::dot(root, &frame, *p, st.px(1.5), colour.filled())?;
                }
            } else {
                xy::line(
                    root,
                    st,
                    &frame,
                    &thin,
                    colour.stroke_width(st.stroke(width)),
                    None,
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::as_the_capture_averages;

    #[test]
    fn the_simulations_goodput_is_averaged_over_the_captures_windows() {
        // Bursts of 4 MB/s every other 10 ms bin, a capture averaging over 100 ms windows: the
        // simulation's line is 2 MB/s at each window's end, from the first whole window on.
        let bins: Vec<(f64, f64)> = (0..50)
            .map(|i| (f64::from(i) * 10.0, if i % 2 == 0 { 4.0 } else { 0.0 }))
            .collect();
        let line = as_the_capture_averages(&bins, 10.0, 100.0);
        assert_eq!(line.first().map(|p| p.0), Some(100.0));
        assert_eq!(line.len(), 41);
        assert!(line.iter().all(|p| (p.1 - 2.0).abs() < 1e-9), "{line:?}");
        // A capture without a goodput window: the bins as they are.
        assert_eq!(as_the_capture_averages(&bins, 10.0, 0.0), bins);
    }
}
