//! The path at the cursor's instant: the sender, the bottleneck's queue, the link and the
//! receiver, with the data packets and ACKs in flight placed by how far they have gone, and a
//! red mark where a packet was just lost.
//!
//! Where a packet is comes from its trip as the simulator's path decided it
//! (`tcplab::player::Trip`): when it left its sender, left the queue onto the wire, arrived or
//! was lost. The page derives nothing of the link; it only places what it is given.

use tcplab::player::{Cargo, DropCause, OneWay, Steps, Trip, TripEnd};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, ResizeObserver};
use yew::prelude::*;

use super::StepsRef;
use crate::charts::style::{colour_of, css, ACKED, INK, MUTED, RETRANSMIT};
use crate::i18n::Lang;

/// What the picture reads of a record beyond its trips, found once per recording.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// The longest trip, to bound the search for those under way.
    pub longest: f64,
    /// The most packets ever queued, to scale the queue.
    pub max_queue: u32,
}

impl Bounds {
    pub fn of(steps: &Steps) -> Bounds {
        let end = steps.steps.last().map_or(0.0, |s| s.t_ms);
        Bounds {
            // A trip still queued when the record ended lasts to the record's end.
            longest: steps
                .trips
                .iter()
                .map(|t| t.over_ms().min(end) - t.sent_ms)
                .fold(0.0, f64::max),
            max_queue: steps.steps.iter().map(|s| s.state.queue).max().unwrap_or(0),
        }
    }
}

/// What is on the path at `t`: data packets on the wire (with how far along, 0 to 1), ACKs
/// (from the receiver, 0, to the sender, 1), and the losses of the last moment.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    pub wire: Vec<(Trip, f64)>,
    pub acks: Vec<(Trip, f64)>,
    /// Data packets waiting at the bottleneck or being put on the link.
    pub queued: usize,
    /// Why each packet lost in the last moment was lost: where its mark goes.
    pub lost: Vec<DropCause>,
}

/// How long a loss stays marked: long enough to see while playing in slow motion.
fn linger(steps: &Steps) -> f64 {
    (steps.one_way.data_ms / 2.0).max(0.05)
}

/// How far along `from..to` the instant `t` is, 0 to 1.
fn along(t: f64, from: f64, to: f64) -> f64 {
    ((t - from) / (to - from).max(1e-9)).clamp(0.0, 1.0)
}

/// The trips under way at `t`, and the losses of the moment before it: the trips are in order
/// of sending, and none lasts longer than `bounds.longest`.
pub fn snapshot(steps: &Steps, bounds: &Bounds, t: f64) -> Snapshot {
    let mut s = Snapshot::default();
    let trips = &steps.trips;
    let end = trips.partition_point(|f| f.sent_ms <= t);
    let lo = t - bounds.longest.max(linger(steps));
    let lost_from = t - linger(steps);
    for trip in trips[..end].iter().rev().take_while(|f| f.sent_ms >= lo) {
        match trip.end {
            // Dropped from a managed queue after waiting: queued until then.
            TripEnd::Lost { at_ms, .. } if at_ms > t => s.queued += 1,
            TripEnd::Lost { at_ms, cause } => {
                if at_ms >= lost_from {
                    s.lost.push(cause);
                }
            }
            TripEnd::Queued => s.queued += 1,
            TripEnd::Arrived { arrives_ms, .. } if arrives_ms <= t => {}
            TripEnd::Arrived {
                departs_ms,
                arrives_ms,
            } => {
                if trip.cargo.is_ack_direction() {
                    s.acks.push((*trip, along(t, departs_ms, arrives_ms)));
                } else if t < departs_ms {
                    s.queued += 1;
                } else {
                    s.wire.push((*trip, along(t, departs_ms, arrives_ms)));
                }
            }
        }
    }
    s
}

#[derive(Properties, PartialEq)]
pub struct PathProps {
    pub steps: StepsRef,
    pub bounds: Bounds,
    pub t_ms: f64,
    /// Packets waiting at the bottleneck after the step on show.
    pub queue: u32,
    /// The scenario's queue limit.
    pub limit: u32,
    pub flows: usize,
    pub lang: Lang,
}

/// The summary a screen reader gets, and the tests read.
fn summary(s: &Snapshot, queue: u32, lang: Lang) -> String {
    let (data, acks) = (s.wire.len(), s.acks.len());
    let lost = if s.lost.is_empty() {
        ""
    } else {
        lang.pick("; a packet was just lost", "；刚有一个包丢失")
    };
    match lang {
        Lang::En => {
            format!("{data} data packets and {acks} ACKs in flight; {queue} packets queued{lost}")
        }
        Lang::Zh => format!("在途数据包 {data} 个、ACK {acks} 个；排队 {queue} 个包{lost}"),
    }
}

/// The view's height at the page's default text size, in CSS pixels; it grows with large type.
const HEIGHT: f64 = 128.0;

#[function_component]
pub fn PathView(props: &PathProps) -> Html {
    let canvas = use_node_ref();
    let size = use_state_eq(|| (0, 0));
    {
        // A new size redraws: the window, the panel's column or large type changed it.
        let (canvas, size) = (canvas.clone(), size.clone());
        use_effect_with((), move |_| {
            let measure = {
                let canvas = canvas.clone();
                Closure::<dyn FnMut()>::new(move || {
                    if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                        size.set((c.client_width(), c.client_height()));
                    }
                })
            };
            let observer = ResizeObserver::new(measure.as_ref().unchecked_ref()).ok();
            if let (Some(o), Some(c)) = (&observer, canvas.cast::<Element>()) {
                o.observe(&c);
            }
            move || {
                if let Some(o) = observer {
                    o.disconnect();
                }
                drop(measure);
            }
        });
    }
    let snap = snapshot(&props.steps, &props.bounds, props.t_ms);
    {
        let canvas = canvas.clone();
        let snap = snap.clone();
        let (queue, limit, flows, lang) = (props.queue, props.limit, props.flows, props.lang);
        let (max_queue, one_way) = (props.bounds.max_queue, props.steps.one_way);
        use_effect_with((snap, queue, *size, lang), move |(snap, _, _, _)| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let scene = Scene {
                    snap,
                    queue,
                    limit,
                    max_queue,
                    one_way,
                    flows,
                    lang,
                };
                draw(&c, &scene);
            }
        });
    }
    let lang = props.lang;
    html! {
        <canvas ref={canvas} class="player-path" id="player-path" role="img"
            aria-label={summary(&snap, props.queue, lang)}
            data-wire={snap.wire.len().to_string()} data-acks={snap.acks.len().to_string()}
            data-queue={props.queue.to_string()} data-lost={snap.lost.len().to_string()}
            style={format!(
                // `--path-zoom`: the presenter's mode draws the path larger (assets/style.css).
                "display:block;width:100%;height:calc(var(--path-zoom, 1) * {:.3}rem)",
                HEIGHT / ROOT_PX
            )} />
    }
}

/// The page's root font size in CSS pixels (assets/style.css), what `rem` means.
const ROOT_PX: f64 = 15.0;

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

/// What one drawing of the path shows.
struct Scene<'a> {
    snap: &'a Snapshot,
    /// Packets queued after the step on show, the queue's limit, and the most ever queued.
    queue: u32,
    limit: u32,
    max_queue: u32,
    one_way: OneWay,
    flows: usize,
    lang: Lang,
}

fn draw(canvas: &HtmlCanvasElement, scene: &Scene) {
    let Scene {
        snap: s,
        queue,
        limit,
        max_queue,
        one_way,
        flows,
        lang,
    } = *scene;
    let dpr = crate::window().map_or(1.0, |w| w.device_pixel_ratio());
    let css_w = f64::from(canvas.client_width().max(1));
    let css_h = f64::from(canvas.client_height().max(1));
    canvas.set_width((css_w * dpr).round() as u32);
    canvas.set_height((css_h * dpr).round() as u32);
    let Some(ctx) = context(canvas) else {
        return;
    };
    let _ = ctx.scale(dpr, dpr);
    let (w, h) = (css_w, css_h);
    // Everything drawn grows with the view, which grows with large type.
    let z = h / HEIGHT;
    let font = |px: f64, weight: &str| format!("{weight} {:.1}px sans-serif", px * z);

    // Boxes at each end, the queue before the link, the data wire above, the ACK wire below.
    let end_w = (w * 0.1).clamp(56.0 * z, 84.0 * z);
    let (sx0, sx1) = (4.0, 4.0 + end_w);
    let (rx0, rx1) = (w - 4.0 - end_w, w - 4.0);
    let (top, bottom) = (20.0 * z, h - 22.0 * z);
    let y_data = top + (bottom - top) * 0.3;
    let y_ack = top + (bottom - top) * 0.78;
    let qw = (w * 0.16).clamp(70.0 * z, 150.0 * z);
    let (qx0, qx1) = (sx1 + 14.0 * z, sx1 + 14.0 * z + qw);
    let (wire0, wire1) = (qx1 + 4.0 * z, rx0 - 4.0 * z);

    ctx.set_text_baseline("middle");
    ctx.set_text_align("center");
    for (x0, x1, en, zh) in [
        (sx0, sx1, "Sender", "发送方"),
        (rx0, rx1, "Receiver", "接收方"),
    ] {
        ctx.set_fill_style_str("#f4f6f9");
        ctx.fill_rect(x0, top, x1 - x0, bottom - top);
        ctx.set_stroke_style_str("#8a93a0");
        ctx.set_line_width(1.0);
        ctx.stroke_rect(x0 + 0.5, top + 0.5, x1 - x0 - 1.0, bottom - top - 1.0);
        ctx.set_fill_style_str(&css(INK));
        ctx.set_font(&font(12.0, "600"));
        let _ = ctx.fill_text(lang.pick(en, zh), (x0 + x1) / 2.0, (top + bottom) / 2.0);
    }

    // The wires.
    ctx.set_stroke_style_str("#c9d0da");
    ctx.set_line_width(2.0);
    ctx.begin_path();
    ctx.move_to(sx1, y_data);
    ctx.line_to(qx0, y_data);
    ctx.move_to(wire0, y_data);
    ctx.line_to(rx0, y_data);
    ctx.move_to(rx0, y_ack);
    ctx.line_to(sx1, y_ack);
    ctx.stroke();
    ctx.set_font(&font(11.0, "400"));
    ctx.set_fill_style_str(&css(MUTED));
    ctx.set_text_align("left");
    let (there, back) = (
        format!("{:.1} ms", one_way.data_ms),
        format!("{:.1} ms", one_way.ack_ms),
    );
    let (data_long, acks_long) = match lang {
        Lang::En => (
            format!("data →  the link, then {there} on the wire"),
            format!("← ACKs, {back} back"),
        ),
        Lang::Zh => (
            format!("数据 →  经过链路，再在线路上走 {there}"),
            format!("← ACK，{back} 返回"),
        ),
    };
    let fits = |text: &str, room: f64| {
        ctx.measure_text(text)
            .map(|m| m.width() <= room)
            .unwrap_or(false)
    };
    for (long, short, x, y, room) in [
        (
            data_long,
            lang.pick("data →", "数据 →"),
            wire0 + 4.0 * z,
            top - 9.0 * z,
            rx0 - wire0,
        ),
        (
            acks_long,
            lang.pick("← ACKs", "← ACK"),
            sx1 + 8.0 * z,
            bottom + 11.0 * z,
            rx0 - sx1,
        ),
    ] {
        let text = if fits(&long, room) {
            long.as_str()
        } else {
            short
        };
        let _ = ctx.fill_text(text, x, y);
    }

    // The queue: filled from its head (next to the link) by the packets waiting.
    let qh = 18.0 * z;
    let scale = f64::from(limit.min(max_queue.max(8)).max(1));
    let full = queue >= limit;
    ctx.set_fill_style_str("#ffffff");
    ctx.fill_rect(qx0, y_data - qh / 2.0, qw, qh);
    let fill = (f64::from(queue) / scale).min(1.0) * qw;
    ctx.set_fill_style_str(if full { "#f3b1ab" } else { "#b9cfee" });
    ctx.fill_rect(qx1 - fill, y_data - qh / 2.0, fill, qh);
    ctx.set_stroke_style_str(if full { "#d62728" } else { "#5b6472" });
    ctx.set_line_width(1.0);
    ctx.stroke_rect(qx0 + 0.5, y_data - qh / 2.0 + 0.5, qw - 1.0, qh - 1.0);
    ctx.set_fill_style_str(&css(INK));
    ctx.set_font(&font(11.0, "400"));
    ctx.set_text_align("center");
    let q_text = match lang {
        Lang::En => format!("queue {queue} / {limit}"),
        Lang::Zh => format!("队列 {queue} / {limit}"),
    };
    let _ = ctx.fill_text(&q_text, (qx0 + qx1) / 2.0, y_data + qh / 2.0 + 10.0 * z);

    // Packets on the wire, the oldest drawn last so that a dense train reads as one bar. A
    // full pipe is hundreds of packets: each colour is written out once, and set only when it
    // changes from the packet before.
    let colour = |f: &Trip| match f.cargo {
        Cargo::Repair => RETRANSMIT,
        // The latency probe's pings, apart from every flow's colour.
        Cargo::Probe | Cargo::ProbeReply => INK,
        Cargo::Ack | Cargo::SynAck | Cargo::HandshakeAck if flows <= 1 => ACKED,
        _ => colour_of(usize::from(f.flow), flows),
    };
    let mut pen: Option<plotters::style::RGBColor> = None;
    let mut fill = |c: plotters::style::RGBColor| {
        if pen != Some(c) {
            ctx.set_fill_style_str(&css(c));
            pen = Some(c);
        }
    };
    for (f, p) in &s.wire {
        let x = wire0 + p * (wire1 - wire0);
        fill(colour(f));
        let (pw, ph) = match f.cargo {
            Cargo::Syn => (9.0 * z, 14.0 * z),
            // The handshake's last segment carries no data: drawn as small as an ACK.
            Cargo::HandshakeAck => (4.0 * z, 9.0 * z),
            // A ping is a small packet: a dot.
            Cargo::Probe => (4.0 * z, 4.0 * z),
            _ => (6.0 * z, 12.0 * z),
        };
        ctx.fill_rect(x - pw / 2.0, y_data - ph / 2.0, pw, ph);
    }
    for (f, p) in &s.acks {
        let x = rx0 - 4.0 * z - p * (rx0 - sx1 - 8.0 * z);
        fill(colour(f));
        let (pw, ph) = match f.cargo {
            Cargo::SynAck => (9.0 * z, 12.0 * z),
            Cargo::ProbeReply => (4.0 * z, 4.0 * z),
            _ => (4.0 * z, 9.0 * z),
        };
        ctx.fill_rect(x - pw / 2.0, y_ack - ph / 2.0, pw, ph);
    }

    // Losses of the last moment, as red crosses where they happened.
    for cause in &s.lost {
        // Where each cause strikes (`tcplab::link::path`): a staged loss before the queue, a
        // full queue at its tail, a queue discipline's drop at its head (CoDel drops there;
        // RED and PIE on arrival, but the mark stays apart from overflow's), random loss on the
        // wire after the link.
        let (x, y) = match cause {
            DropCause::Staged => (qx0 - 7.0 * z, y_data),
            DropCause::Policer => (qx0 - 14.0 * z, y_data),
            DropCause::Queue => (qx0 + 6.0 * z, y_data),
            DropCause::Aqm => (qx1 - 6.0 * z, y_data),
            DropCause::Data => (wire0 + 0.3 * (wire1 - wire0), y_data),
            DropCause::Ack => (rx0 - 18.0 * z, y_ack),
        };
        let r = 6.5 * z;
        ctx.set_stroke_style_str(&css(RETRANSMIT));
        ctx.set_line_width(2.5);
        ctx.begin_path();
        ctx.move_to(x - r, y - r);
        ctx.line_to(x + r, y + r);
        ctx.move_to(x + r, y - r);
        ctx.line_to(x - r, y + r);
        ctx.stroke();
        ctx.set_fill_style_str(&css(RETRANSMIT));
        ctx.set_font(&font(11.0, "600"));
        let _ = ctx.fill_text(lang.pick("lost", "丢失"), x, y - r - 7.0 * z);
    }
}
