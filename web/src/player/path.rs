//! The path at the cursor's instant: the sender, the bottleneck's queue, the link and the
//! receiver, with the data packets and ACKs in flight placed by how far they have gone, and a
//! red mark where a packet was just lost.
//!
//! Where a packet is comes from the steps: it left the sender when it was sent and reached the
//! receiver when it arrived; the wire takes a fixed half round trip, so it left the bottleneck
//! that long before arriving, and waited in the queue (or was being put on the link) until
//! then. ACKs have no queue: half a round trip from receiver to sender.

use std::collections::{HashMap, VecDeque};

use tcplab::player::{DropCause, Step, StepKind};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, ResizeObserver};
use yew::prelude::*;

use crate::charts::style::{colour_of, css, ACKED, INK, MUTED, RETRANSMIT};
use crate::i18n::Lang;

/// What a packet carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cargo {
    Syn,
    SynAck,
    Data,
    /// A retransmission or a tail loss probe.
    Repair,
    Datagram,
    Ack,
}

/// One packet's trip.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flight {
    pub flow: u16,
    pub cargo: Cargo,
    /// Left the sender (the receiver, for an ACK), ms.
    pub sent: f64,
    /// Left the bottleneck onto the wire; `sent` for an ACK.
    pub leaves: f64,
    pub arrives: f64,
}

/// Where a packet was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LostAt {
    /// The lesson's staged loss, before the bottleneck.
    Staged,
    /// The bottleneck's queue was full.
    Queue,
    /// Random loss on the data wire.
    Wire,
    /// Random loss on the ACK wire.
    AckWire,
}

impl LostAt {
    /// Where a packet of data (a segment, a datagram) lost for `cause` was lost.
    fn of_data(cause: DropCause) -> LostAt {
        match cause {
            DropCause::Staged => LostAt::Staged,
            DropCause::Queue => LostAt::Queue,
            DropCause::Data | DropCause::Ack => LostAt::Wire,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lost {
    pub flow: u16,
    pub t: f64,
    pub at: LostAt,
}

/// Every trip of a run, in order of departure.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Trips {
    pub data: Vec<Flight>,
    pub acks: Vec<Flight>,
    pub lost: Vec<Lost>,
    /// The longest trip, to bound the search for those in flight.
    pub longest: f64,
    /// The most packets ever queued, to scale the queue.
    pub max_queue: u32,
    /// The wire's delay each way, ms.
    pub one_way: f64,
}

/// The trips of `steps` over a path of round trip `rtt_ms`. Packets still out when the record
/// ends are left out: where they went is not known.
pub fn trips(steps: &[Step], rtt_ms: f64) -> Trips {
    let one_way = (rtt_ms / 2.0).max(0.0);
    let mut out = Trips {
        one_way,
        ..Trips::default()
    };
    let mut data: HashMap<(u16, u64), VecDeque<(f64, Cargo)>> = HashMap::new();
    let mut acks: HashMap<u16, VecDeque<f64>> = HashMap::new();
    let mut syn: HashMap<u16, f64> = HashMap::new();
    let mut synack: HashMap<u16, f64> = HashMap::new();
    let mut written: HashMap<u32, f64> = HashMap::new();
    for s in steps {
        let (t, f) = (s.t_ms, s.flow);
        out.max_queue = out.max_queue.max(s.state.queue);
        let arrived = |out: &mut Trips, cargo, sent: f64| {
            out.data.push(Flight {
                flow: f,
                cargo,
                sent,
                leaves: (t - one_way).max(sent),
                arrives: t,
            })
        };
        match s.kind {
            StepKind::SynSent { .. } => {
                syn.insert(f, t);
            }
            StepKind::SynReceived => {
                if let Some(sent) = syn.remove(&f) {
                    arrived(&mut out, Cargo::Syn, sent);
                }
                synack.insert(f, t);
            }
            StepKind::Established { .. } => {
                if let Some(sent) = synack.remove(&f) {
                    out.acks.push(Flight {
                        flow: f,
                        cargo: Cargo::SynAck,
                        sent,
                        leaves: sent,
                        arrives: t,
                    });
                }
            }
            StepKind::Sent { seq, .. } => {
                data.entry((f, seq))
                    .or_default()
                    .push_back((t, Cargo::Data));
            }
            StepKind::Retransmitted { seq, .. } | StepKind::LossProbe { seq, .. } => {
                data.entry((f, seq))
                    .or_default()
                    .push_back((t, Cargo::Repair));
            }
            StepKind::DataLost { seq, cause, .. } => {
                // Recorded as the packet leaves the sender, right after its send.
                data.get_mut(&(f, seq)).and_then(VecDeque::pop_back);
                out.lost.push(Lost {
                    flow: f,
                    t,
                    at: LostAt::of_data(cause),
                });
            }
            StepKind::DataArrived { seq, .. } => {
                if let Some((sent, cargo)) = data.get_mut(&(f, seq)).and_then(VecDeque::pop_front) {
                    arrived(&mut out, cargo, sent);
                }
            }
            StepKind::MessageWritten { id } => {
                written.insert(id, t);
            }
            StepKind::DatagramLost { id, cause } => {
                written.remove(&id);
                out.lost.push(Lost {
                    flow: f,
                    t,
                    at: LostAt::of_data(cause),
                });
            }
            StepKind::DatagramArrived { id } => {
                if let Some(sent) = written.remove(&id) {
                    arrived(&mut out, Cargo::Datagram, sent);
                }
            }
            StepKind::AckSent { .. } => acks.entry(f).or_default().push_back(t),
            StepKind::AckLost { .. } => {
                acks.get_mut(&f).and_then(VecDeque::pop_back);
                out.lost.push(Lost {
                    flow: f,
                    t,
                    at: LostAt::AckWire,
                });
            }
            StepKind::AckArrived { .. } | StepKind::DuplicateAck { .. } => {
                if let Some(sent) = acks.get_mut(&f).and_then(VecDeque::pop_front) {
                    out.acks.push(Flight {
                        flow: f,
                        cargo: Cargo::Ack,
                        sent,
                        leaves: sent,
                        arrives: t,
                    });
                }
            }
            StepKind::FastRetransmit { .. }
            | StepKind::RecoveryDone { .. }
            | StepKind::Timeout { .. }
            | StepKind::HolRelease { .. }
            | StepKind::SlowStartExit { .. }
            | StepKind::StateChange { .. } => {}
        }
    }
    out.data.sort_by(|a, b| a.sent.total_cmp(&b.sent));
    out.acks.sort_by(|a, b| a.sent.total_cmp(&b.sent));
    out.longest = out
        .data
        .iter()
        .chain(&out.acks)
        .map(|f| f.arrives - f.sent)
        .fold(0.0, f64::max);
    out
}

/// The trips under way at `t`: those that left at or before `t` and arrive after it.
fn under_way(list: &[Flight], t: f64, longest: f64) -> impl Iterator<Item = &Flight> {
    let end = list.partition_point(|f| f.sent <= t);
    list[..end]
        .iter()
        .rev()
        .take_while(move |f| f.sent >= t - longest)
        .filter(move |f| f.arrives > t)
}

/// What is on the path at `t`: data packets on the wire (with how far along, 0 to 1), ACKs
/// (from the receiver, 0, to the sender, 1), and the losses of the last moment.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Snapshot {
    pub wire: Vec<(Flight, f64)>,
    pub acks: Vec<(Flight, f64)>,
    /// Data packets waiting at the bottleneck or being put on the link.
    pub queued: usize,
    pub lost: Vec<Lost>,
}

/// How long a loss stays marked: long enough to see while playing in slow motion.
fn linger(trips: &Trips) -> f64 {
    (trips.one_way / 2.0).max(0.05)
}

pub fn snapshot(trips: &Trips, t: f64) -> Snapshot {
    let mut s = Snapshot::default();
    for f in under_way(&trips.data, t, trips.longest) {
        if t < f.leaves {
            s.queued += 1;
        } else {
            let span = (f.arrives - f.leaves).max(1e-9);
            s.wire.push((*f, ((t - f.leaves) / span).clamp(0.0, 1.0)));
        }
    }
    for f in under_way(&trips.acks, t, trips.longest) {
        let span = (f.arrives - f.sent).max(1e-9);
        s.acks.push((*f, ((t - f.sent) / span).clamp(0.0, 1.0)));
    }
    let lo = t - linger(trips);
    let end = trips.lost.partition_point(|l| l.t <= t);
    s.lost = trips.lost[..end]
        .iter()
        .rev()
        .take_while(|l| l.t >= lo)
        .copied()
        .collect();
    s
}

#[derive(Properties, PartialEq)]
pub struct PathProps {
    pub trips: super::TripsRef,
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
    let lost = s.lost.len();
    match lang {
        Lang::En => format!(
            "{} data packets and {} ACKs in flight; {queue} packets queued{}",
            s.wire.len(),
            s.acks.len(),
            if lost > 0 {
                "; a packet was just lost"
            } else {
                ""
            }
        ),
        Lang::Zh => format!(
            "在途数据包 {} 个、ACK {} 个；排队 {queue} 个包{}",
            s.wire.len(),
            s.acks.len(),
            if lost > 0 {
                "；刚有一个包丢失"
            } else {
                ""
            }
        ),
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
    let snap = snapshot(&props.trips.0, props.t_ms);
    {
        let canvas = canvas.clone();
        let snap = snap.clone();
        let (queue, limit, flows, lang) = (props.queue, props.limit, props.flows, props.lang);
        let (max_queue, one_way) = (props.trips.0.max_queue, props.trips.0.one_way);
        use_effect_with((snap, queue, *size, lang), move |(snap, _, _, _)| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                let scene = Scene {
                    snap,
                    queue,
                    limit,
                    max_queue,
                    one_way_ms: one_way,
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
            style={format!("display:block;width:100%;height:{:.3}rem", HEIGHT / ROOT_PX)} />
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
    one_way_ms: f64,
    flows: usize,
    lang: Lang,
}

fn draw(canvas: &HtmlCanvasElement, scene: &Scene) {
    let Scene {
        snap: s,
        queue,
        limit,
        max_queue,
        one_way_ms,
        flows,
        lang,
    } = *scene;
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
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
    let one_way = format!("{one_way_ms:.1} ms");
    let (data_long, acks_long) = match lang {
        Lang::En => (
            format!("data →  the link, then {one_way} on the wire"),
            format!("← ACKs, {one_way} back"),
        ),
        Lang::Zh => (
            format!("数据 →  经过链路，再在线路上走 {one_way}"),
            format!("← ACK，{one_way} 返回"),
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

    // Packets on the wire, the oldest drawn last so that a dense train reads as one bar.
    let colour = |f: &Flight| match f.cargo {
        Cargo::Repair => css(RETRANSMIT),
        Cargo::Ack | Cargo::SynAck if flows <= 1 => css(ACKED),
        _ => css(colour_of(usize::from(f.flow), flows)),
    };
    for (f, p) in &s.wire {
        let x = wire0 + p * (wire1 - wire0);
        ctx.set_fill_style_str(&colour(f));
        let (pw, ph) = if f.cargo == Cargo::Syn {
            (9.0 * z, 14.0 * z)
        } else {
            (6.0 * z, 12.0 * z)
        };
        ctx.fill_rect(x - pw / 2.0, y_data - ph / 2.0, pw, ph);
    }
    for (f, p) in &s.acks {
        let x = rx0 - 4.0 * z - p * (rx0 - sx1 - 8.0 * z);
        ctx.set_fill_style_str(&colour(f));
        let (pw, ph) = if f.cargo == Cargo::SynAck {
            (9.0 * z, 12.0 * z)
        } else {
            (4.0 * z, 9.0 * z)
        };
        ctx.fill_rect(x - pw / 2.0, y_ack - ph / 2.0, pw, ph);
    }

    // Losses of the last moment, as red crosses where they happened.
    for l in &s.lost {
        let (x, y) = match l.at {
            LostAt::Staged => (qx0 - 7.0 * z, y_data),
            LostAt::Queue => (qx0 + 6.0 * z, y_data),
            LostAt::Wire => (wire0 + 0.3 * (wire1 - wire0), y_data),
            LostAt::AckWire => (rx0 - 18.0 * z, y_ack),
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
