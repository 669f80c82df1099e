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
            What::Sent => lang.pick("Data sent: the capture over the simulation", "已发送数据：抓包与模拟"),
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
    fn lines(self, c: &Curves, twin: Option<&RunView>, lang: Lang) -> Vec<(String, Vec<(f64, f64)>, bool)> {
        let mut out = Vec::new();
        let flow = twin.and_then(|v| v.flows.first());
        match self {
            What::Sent => {
                out.push((lang.pick("capture", "抓包").to_string(), c.sent.clone(), false));
                if let Some(f) = flow {
                    out.push((lang.pick("simulated", "模拟").to_string(), f.sends.clone(), true));
                }
            }
            What::InFlight => {
                out.push((lang.pick("capture: in flight", "抓包：在途").to_string(), c.in_flight.clone(), false));
                if let Some(f) = flow {
                    out.push((
                        lang.pick("simulated cwnd", "模拟 cwnd").to_string(),
                        f.window.iter().map(|w| (w.t, w.cwnd)).collect(),
                        true,
                    ));
                }
            }
            What::Rtt => {
                out.push((lang.pick("capture", "抓包").to_string(), c.rtt.clone(), false));
                if let Some(f) = flow {
                    out.push((lang.pick("simulated", "模拟").to_string(), f.rtt.clone(), true));
                }
            }
            What::Goodput => {
                out.push((lang.pick("capture", "抓包").to_string(), c.goodput.clone(), false));
                if let Some(f) = flow {
                    out.push((lang.pick("simulated", "模拟").to_string(), f.goodput.clone(), true));
                }
            }
        }
        out
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
        let lines: Vec<(String, Vec<(f64, f64)>, bool)> = self
            .what
            .lines(&self.curves, self.twin.as_deref(), lang)
            .into_iter()
            .map(|(n, pts, sim)| {
                let pts = pts
                    .into_iter()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .map(|(t, v)| (t, v * k))
                    .collect();
                (n, pts, sim)
            })
            .collect();
        // The capture's span sets the time axis: the simulation may run on past it.
        let end = lines
            .iter()
            .filter(|l| !l.2)
            .flat_map(|l| l.1.iter().map(|p| p.0))
            .fold(0.0f64, f64::max)
            .max(1.0);
        let top = lines
            .iter()
            .flat_map(|l| l.1.iter().filter(|p| p.0 <= end).map(|p| p.1))
            .fold(0.0f64, f64::max);
        let items: Vec<Item> = lines
            .iter()
            .map(|(n, _, sim)| {
                let c = if *sim { SIMULATED } else { ACCENT };
                Item::new(Swatch::Line(c, 2.0), n.clone())
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
        for (_, pts, sim) in lines.iter().rev() {
            let thin = decimate(pts, 0.0, end, cols);
            let (colour, width) = if *sim { (SIMULATED, 1.6) } else { (ACCENT, 2.0) };
            if self.what == What::Rtt && !*sim {
                for p in &thin {
                    xy::dot(root, &frame, *p, st.px(1.5), colour.filled())?;
                }
            } else {
                xy::line(root, st, &frame, &thin, colour.stroke_width(st.stroke(width)), None)?;
            }
        }
        Ok(())
    }
}
