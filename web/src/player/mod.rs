//! The step-through player: every event of a run, one at a time, each said in words with its
//! numbers, the sender's state beside it and the packets on the path at that instant.
//!
//! The worker records the run's steps only while the player is open (or a link names a step);
//! they arrive as bytes from a worker of their own (`crate::worker::protocol::encode_steps`),
//! each packet's trip over the path among them. [`nav`] moves over them, [`state`] is the
//! player's part of the page's state, and the components show one step: [`log`] (the sentence
//! and the steps before it), [`readouts`] (the sender's state) and [`path`] (the packets in
//! flight). The charts draw up to the player's time and put their cursor there.

pub mod log;
pub mod nav;
pub mod path;
pub mod readouts;
pub mod state;

use std::cell::{Cell, RefCell};
use std::ops::Deref;
use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use tcplab::player::Steps;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use crate::i18n::Lang;
use crate::model::format;
use nav::{Dir, Move};
pub use state::{Action, State, FOLLOW, SPEEDS};

/// A run's steps, compared by identity.
#[derive(Debug, Clone)]
pub struct StepsRef(pub Rc<Steps>);

impl PartialEq for StepsRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for StepsRef {
    type Target = Steps;
    fn deref(&self) -> &Steps {
        &self.0
    }
}

#[derive(Properties, PartialEq, Clone)]
pub struct PlayerProps {
    pub state: State,
    /// The steps of the run on show, once recorded.
    pub steps: Option<StepsRef>,
    /// The step on show.
    pub index: Option<usize>,
    /// The player's time (the playhead while playing).
    pub time_ms: Option<f64>,
    /// The end of the run, ms: the scrubber's span.
    pub end_ms: f64,
    /// While a lesson's question waits: the scrubber's span instead of the run's, and its marks
    /// only those of what has happened by the player's time (`Page::horizon_ms`).
    #[prop_or_default]
    pub horizon_ms: Option<f64>,
    /// The path's round trip without queueing, ms.
    pub rtt_ms: f64,
    /// The bottleneck's queue limit, packets.
    pub queue_limit: u32,
    pub flows: usize,
    /// The run on show failed: no steps are coming.
    #[prop_or_default]
    pub failed: bool,
    /// Why the steps of the run on show could not be recorded.
    #[prop_or_default]
    pub trouble: Option<String>,
    pub lang: Lang,
    pub on_action: Callback<Action>,
}

#[derive(Properties, PartialEq)]
pub struct PlayerButtonProps {
    pub lang: Lang,
    pub on_action: Callback<Action>,
}

thread_local! {
    /// The element to give the focus to once it is drawn: the button a reader pressed to open
    /// or close the player is replaced by what it opened or closed, and the focus would be
    /// left on nothing (the next Tab starting again from the top of the page).
    static HAND_FOCUS_TO: std::cell::Cell<Option<&'static str>> = const { std::cell::Cell::new(None) };
}

/// Gives the focus to the element `id`, if the focus is handed to it.
fn take_focus(id: &'static str) {
    if HAND_FOCUS_TO.with(|h| h.get()) != Some(id) {
        return;
    }
    HAND_FOCUS_TO.with(|h| h.set(None));
    let element = crate::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(e) = element {
        let _ = e.focus();
    }
}

/// Opens the player.
#[function_component]
pub fn PlayerButton(props: &PlayerButtonProps) -> Html {
    let on_action = props.on_action.clone();
    let lang = props.lang;
    use_effect_with((), |_| take_focus("player-open"));
    html! {
        <button type="button" class="player-open" id="player-open"
            title={lang.pick("Step through the run, event by event, each explained",
                "逐个事件单步播放这次运行，每一步都有解释")}
            onclick={Callback::from(move |_: MouseEvent| {
                HAND_FOCUS_TO.with(|h| h.set(Some("player")));
                on_action.emit(Action::Open);
            })}>
            { lang.pick("▶ Step through", "▶ 单步播放") }
        </button>
    }
}

/// The open player: the transport, the step in words, the path, the sender's state and the
/// log.
#[function_component]
pub fn Player(props: &PlayerProps) -> Html {
    let lang = props.lang;
    use_keys(
        props.state.open && props.steps.is_some(),
        props.on_action.clone(),
    );
    use_effect_with(props.state.open, |open| {
        if *open {
            take_focus("player");
        }
    });
    if !props.state.open {
        return Html::default();
    }
    let close = {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| {
            HAND_FOCUS_TO.with(|h| h.set(Some("player-open")));
            on_action.emit(Action::Close);
        })
    };
    let body = match (&props.steps, props.index) {
        (Some(steps), Some(index)) => html! {
            <Stage steps={steps.clone()} {index} time_ms={props.time_ms.unwrap_or(0.0)}
                state={props.state.clone()} end_ms={props.end_ms} horizon_ms={props.horizon_ms}
                rtt_ms={props.rtt_ms}
                queue_limit={props.queue_limit} flows={props.flows} {lang}
                on_action={props.on_action.clone()} />
        },
        (Some(_), None) => html! {
            <p class="player-note">{ lang.pick("This run has no steps to show.", "这次运行没有可显示的步骤。") }</p>
        },
        (None, _) if props.failed => Html::default(),
        (None, _) => match &props.trouble {
            Some(why) => html! {
                <p class="player-note" id="player-pending" role="alert">
                    { lang.pick("The steps could not be recorded: ", "无法记录步骤：") }{ why }
                </p>
            },
            None => html! {
                <p class="player-note busy" id="player-pending">
                    { pending_text(props.time_ms.unwrap_or(0.0), lang) }
                </p>
            },
        },
    };
    // While a lesson's question waits, nothing of how long the run goes on: its steps' count
    // or the time to its end would say whether it ends soon.
    let recorded = props
        .steps
        .as_ref()
        .filter(|_| props.horizon_ms.is_none())
        .map(|s| recorded_text(s, lang));
    html! {
        <section class="player" id="player" tabindex="-1" aria-label={lang.pick("Step-through player", "单步播放器")}
            data-steps={props.steps.as_ref().map(|s| s.steps.len().to_string()).unwrap_or_default()}>
            <header class="player-head">
                <h2>{ lang.pick("Step through the run", "单步播放") }</h2>
                if let Some(r) = recorded {
                    <span class="player-count">{ r }</span>
                }
                <button type="button" class="mini player-close" id="player-close" onclick={close}
                    title={lang.pick("Close the player and show the whole run", "关闭播放器，显示整个运行")}>
                    { lang.pick("Close", "关闭") }
                </button>
            </header>
            { body }
        </section>
    }
}

/// What the player says while a part of the run is being recorded.
fn pending_text(t_ms: f64, lang: Lang) -> String {
    if t_ms <= 0.0 {
        return lang
            .pick(
                "Recording every step of the run…",
                "正在记录这次运行的每一步…",
            )
            .to_string();
    }
    let t = format::duration(t_ms);
    match lang {
        Lang::En => format!("Recording the steps around {t}…"),
        Lang::Zh => format!("正在记录 {t} 前后的步骤…"),
    }
}

/// How much of the run the record holds: all of it, or the part from one instant to another
/// (a long run has millions of steps; the player keeps 100 000 around its cursor).
pub fn recorded_text(s: &Steps, lang: Lang) -> String {
    let n = format::count(s.steps.len() as u64);
    if !s.truncated && !s.starts_late() {
        return match lang {
            Lang::En => format!("{n} steps"),
            Lang::Zh => format!("共 {n} 步"),
        };
    }
    let last = s.steps.last().map_or(s.from_ms, |st| st.t_ms);
    let (from, to) = format::span(s.from_ms, last);
    let to = if s.truncated {
        to
    } else {
        lang.pick("the end", "结束").to_string()
    };
    match lang {
        Lang::En => format!("{n} steps, {from} to {to} (more are recorded as you go)"),
        Lang::Zh => format!("{n} 步，{from} 至 {to}（随播放继续记录）"),
    }
}

#[derive(Properties, PartialEq)]
struct StageProps {
    steps: StepsRef,
    index: usize,
    time_ms: f64,
    state: State,
    end_ms: f64,
    horizon_ms: Option<f64>,
    rtt_ms: f64,
    queue_limit: u32,
    flows: usize,
    lang: Lang,
    on_action: Callback<Action>,
}

/// The player with its steps in.
#[function_component]
fn Stage(props: &StageProps) -> Html {
    let steps = &props.steps;
    let bounds = use_memo(props.steps.clone(), |s| path::Bounds::of(s));
    let speed = SPEEDS
        .get(props.state.speed)
        .map_or(SPEEDS[state::DEFAULT_SPEED].0, |s| s.0);
    use_playback(
        props.state.playing,
        speed,
        props.time_ms,
        props.on_action.clone(),
    );
    let lang = props.lang;
    let Some(step) = steps.steps.get(props.index) else {
        return Html::default();
    };
    // The scrubber spans the whole run (to the horizon, veiled); a part of it is recorded.
    let last = steps.steps.last().map_or(0.0, |s| s.t_ms);
    let end_ms = props.horizon_ms.unwrap_or_else(|| props.end_ms.max(last));
    let known_until = props.horizon_ms.map(|_| props.time_ms);
    html! {
        <>
            <Transport steps={steps.clone()} index={props.index} time_ms={props.time_ms}
                playing={props.state.playing} speed={props.state.speed} follow={props.state.follow}
                rtt_ms={props.rtt_ms} veiled={props.horizon_ms.is_some()}
                {lang} on_action={props.on_action.clone()} />
            <Scrubber steps={steps.clone()} time_ms={props.time_ms} {end_ms} {known_until} {lang}
                on_action={props.on_action.clone()} />
            <div class="player-body">
                <div class="player-main">
                    <log::Explanation steps={steps.clone()} index={props.index} flows={props.flows} {lang} />
                    <path::PathView steps={steps.clone()} bounds={*bounds} t_ms={props.time_ms}
                        queue={step.state.queue} limit={props.queue_limit} flows={props.flows} {lang} />
                    <readouts::Readouts state={step.state} mss={steps.mss} {lang} />
                </div>
                <log::EventLog steps={steps.clone()} index={props.index} flows={props.flows} {lang}
                    on_action={props.on_action.clone()} />
            </div>
            <p class="player-keys" id="player-keys">
                { keys_help(lang) }
            </p>
        </>
    }
}

fn keys_help(lang: Lang) -> Html {
    let keys: [(&str, &str, &str, &str); 5] = [
        ("Space", "空格", "play / pause", "播放 / 暂停"),
        ("← →", "← →", "one step", "一步"),
        ("Shift + ← →", "Shift + ← →", "one round trip", "一个往返"),
        (
            "N P",
            "N P",
            "next / previous loss, ECN echo, recovery, timeout, release or end of slow start",
            "下一个 / 上一个丢包、ECN 回显、恢复、超时、释放或慢启动结束",
        ),
        (
            "Home End",
            "Home End",
            "first / last step",
            "第一步 / 最后一步",
        ),
    ];
    html! {
        <>
            <span class="keys-title">{ lang.pick("Keys:", "快捷键：") }</span>
            { for keys.iter().map(|(k_en, k_zh, en, zh)| html! {
                <span class="key-item"><kbd>{ lang.pick(k_en, k_zh) }</kbd>{ " " }{ lang.pick(en, zh) }</span>
            }) }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct TransportProps {
    steps: StepsRef,
    index: usize,
    time_ms: f64,
    playing: bool,
    speed: usize,
    follow: usize,
    rtt_ms: f64,
    /// A lesson's question waits: the position says no count of the steps to come.
    veiled: bool,
    lang: Lang,
    on_action: Callback<Action>,
}

/// Play, pause, the moves, the speed, and where the player stands.
#[function_component]
fn Transport(props: &TransportProps) -> Html {
    let lang = props.lang;
    let steps = &props.steps.steps;
    let i = props.index;
    let button = |id: &str, text: &str, title: &str, mv: Move| {
        let on_action = props.on_action.clone();
        let enabled = nav::can(steps, i, mv, props.rtt_ms);
        html! {
            <button type="button" class="mini" id={id.to_string()} title={title.to_string()}
                aria-label={title.to_string()} disabled={!enabled}
                onclick={Callback::from(move |_: MouseEvent| on_action.emit(Action::Go(mv)))}>
                { text.to_string() }
            </button>
        }
    };
    let play = {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(Action::Toggle))
    };
    let on_follow = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(f) = select.value().parse::<usize>() {
                on_action.emit(Action::Follow(f));
            }
        })
    };
    let on_speed = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Ok(s) = select.value().parse::<usize>() {
                on_action.emit(Action::Speed(s));
            }
        })
    };
    let (at_instant, rank) = nav::instant(steps, i);
    let (here, all) = (
        format::count(i as u64 + 1),
        format::count(steps.len() as u64),
    );
    let position = match (lang, props.veiled) {
        (Lang::En, false) => format!("step {here} of {all}"),
        (Lang::Zh, false) => format!("第 {here} 步，共 {all} 步"),
        (Lang::En, true) => format!("step {here}"),
        (Lang::Zh, true) => format!("第 {here} 步"),
    };
    let shared = (at_instant > 1).then(|| match lang {
        Lang::En => format!("{} of {at_instant} at this instant", rank + 1),
        Lang::Zh => format!("此刻 {at_instant} 步中的第 {}", rank + 1),
    });
    html! {
        <div class="player-transport" role="toolbar" aria-label={lang.pick("Player controls", "播放控制")}>
            <button type="button" class="player-play" id="player-play" onclick={play}
                aria-pressed={props.playing.to_string()}>
                // Both labels take their place, the one not in use hidden: the button is as
                // wide playing as paused, and nothing beside it moves.
                <span class={classes!("play-label", props.playing.then_some("off"))}>
                    { lang.pick("▶ Play", "▶ 播放") }
                </span>
                <span class={classes!("play-label", (!props.playing).then_some("off"))}>
                    { lang.pick("❚❚ Pause", "❚❚ 暂停") }
                </span>
            </button>
            <span class="transport-group">
                { button("player-start", "|◂", lang.pick("First step (Home)", "第一步（Home）"), Move::Start) }
                { button("player-back-landmark", lang.pick("◂ key event", "◂ 关键事件"),
                    lang.pick("Previous loss, ECN echo, recovery, timeout, release or end of slow start (P)", "上一个丢包、ECN 回显、恢复、超时、释放或慢启动结束（P）"),
                    Move::Landmark(Dir::Back)) }
                { button("player-back-rtt", "« RTT", lang.pick("One round trip back (Shift+←)", "后退一个往返（Shift+←）"),
                    Move::RoundTrip(Dir::Back)) }
                { button("player-back", "‹", lang.pick("One step back (←)", "后退一步（←）"), Move::Step(Dir::Back)) }
                { button("player-forward", "›", lang.pick("One step forward (→)", "前进一步（→）"), Move::Step(Dir::Forward)) }
                { button("player-forward-rtt", "RTT »", lang.pick("One round trip forward (Shift+→)", "前进一个往返（Shift+→）"),
                    Move::RoundTrip(Dir::Forward)) }
                { button("player-forward-landmark", lang.pick("key event ▸", "关键事件 ▸"),
                    lang.pick("Next loss, ECN echo, recovery, timeout, release or end of slow start (N)", "下一个丢包、ECN 回显、恢复、超时、释放或慢启动结束（N）"),
                    Move::Landmark(Dir::Forward)) }
                { button("player-end", "▸|", lang.pick("Last step (End)", "最后一步（End）"), Move::End) }
            </span>
            <label class="player-speed">
                <span>{ lang.pick("Speed", "速度") }</span>
                <select id="player-speed" onchange={on_speed}
                    title={lang.pick("Simulated time per real second", "每秒真实时间对应的模拟时间")}>
                    { for SPEEDS.iter().enumerate().map(|(k, (_, label))| html! {
                        <option value={k.to_string()} selected={k == props.speed}>{ *label }</option>
                    }) }
                </select>
            </label>
            <label class="player-speed">
                <span>{ lang.pick("Charts", "图表") }</span>
                <select id="player-follow" onchange={on_follow}
                    title={lang.pick("The time the charts show: the whole run, or a window around the player that follows it",
                        "图表显示的时间范围：整个运行，或随播放移动的窗口")}>
                    { for FOLLOW.iter().enumerate().map(|(k, (_, en, zh))| html! {
                        <option value={k.to_string()} selected={k == props.follow}>{ lang.pick(en, zh) }</option>
                    }) }
                </select>
            </label>
            <span class="player-where">
                <span class="player-time" id="player-time" data-t={props.time_ms.to_string()}
                    data-index={i.to_string()}>{ log::time(props.time_ms) }</span>
                <span class="player-position" id="player-position">
                    { position }
                    if let Some(s) = shared {
                        { " · " }{ s }
                    }
                </span>
            </span>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ScrubberProps {
    steps: StepsRef,
    time_ms: f64,
    end_ms: f64,
    /// Veiled: only the landmarks by this time are marked.
    known_until: Option<f64>,
    lang: Lang,
    on_action: Callback<Action>,
}

/// Positions of the scrubber: fine enough for a step of a few microseconds in a short run.
const SCRUB: f64 = 10_000.0;

/// The scrubber's element id: its arrow keys are the player's ([`focus_of`]).
const SCRUB_ID: &str = "player-scrub";

/// Marks on the scrubber at most: past this, a long run's landmarks would be a smear.
const MARKS: usize = 400;

/// Simulated time as a slider, with the run's landmarks marked under it.
#[function_component]
fn Scrubber(props: &ScrubberProps) -> Html {
    let end = props.end_ms.max(1e-9);
    // The marks change with the record, not with the cursor: drawn once per record, as the
    // player plays across them.
    let until = props.known_until.map(f64::to_bits);
    let marks = use_memo(
        (props.steps.clone(), end.to_bits(), until),
        move |(s, _, until)| {
            let until = until.map_or(f64::INFINITY, f64::from_bits);
            let all: Vec<&tcplab::player::Step> = s
                .steps
                .iter()
                .filter(|st| st.kind.is_landmark() && st.t_ms <= until)
                .collect();
            let every = all.len().div_ceil(MARKS).max(1);
            html! {
                { for all.into_iter().step_by(every).map(|st| {
                    let pct = (st.t_ms / end * 100.0).clamp(0.0, 100.0);
                    html! {
                        <span class={classes!("scrub-mark", log::Tone::of(&st.kind).class())}
                            data-kind={st.kind.name()} style={format!("left:{pct:.3}%")}></span>
                    }
                }) }
            }
        },
    );
    let on_input = {
        let on_action = props.on_action.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Ok(p) = input.value().parse::<f64>() {
                on_action.emit(Action::Seek(p / SCRUB * end));
            }
        })
    };
    let position = (props.time_ms / end * SCRUB).round().clamp(0.0, SCRUB);
    let lang = props.lang;
    let s = &props.steps;
    let part = (s.starts_late() || s.truncated).then(|| {
        let to = if s.truncated {
            s.steps.last().map_or(s.from_ms, |st| st.t_ms)
        } else {
            end
        };
        let left = (s.from_ms / end * 100.0).clamp(0.0, 100.0);
        let width = ((to - s.from_ms) / end * 100.0).clamp(0.0, 100.0 - left);
        format!("left:{left:.3}%;width:{width:.3}%")
    });
    html! {
        <div class="player-scrub">
            <input type="range" id={SCRUB_ID} min="0" max={SCRUB.to_string()} step="1"
                value={position.to_string()} oninput={on_input}
                aria-label={lang.pick("Simulated time", "模拟时间")}
                aria-valuetext={log::time(props.time_ms)} />
            <div class="scrub-marks" aria-hidden="true">
                if let Some(style) = part {
                    <span class="scrub-recorded" id="scrub-recorded" {style}
                        title={lang.pick("The part of the run recorded step by step", "逐步记录的运行部分")}></span>
                }
                { (*marks).clone() }
            </div>
        </div>
    }
}

/// The player's keys on the whole page while it is open: space, the arrows (with shift for a
/// round trip), N and P, Home and End. A key typed into a field, an arrow on a slider, Space or
/// an arrow on a check box or a radio button, and Space on a button stay there, as the browser
/// would have them: only on the player's own transport does Space play or pause instead of
/// pressing the button again (a teacher who clicked Step and then presses Space means Play).
#[hook]
fn use_keys(active: bool, on_action: Callback<Action>) {
    let latest = use_mut_ref(|| on_action.clone());
    *latest.borrow_mut() = on_action;
    use_effect_with(active, move |active| {
        let listeners = active.then(web_sys::window).flatten().map(|w| {
            let down = EventListener::new_with_options(
                &w,
                "keydown",
                EventListenerOptions::enable_prevent_default(),
                move |e| {
                    let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    if let Some(action) = key_action(e) {
                        e.prevent_default();
                        // Cloned first: the action renders the page at once.
                        let on_action = latest.borrow().clone();
                        on_action.emit(action);
                    }
                },
            );
            // A button is pressed by Space on its release: the release is the player's too.
            let up = EventListener::new_with_options(
                &w,
                "keyup",
                EventListenerOptions::enable_prevent_default(),
                move |e| {
                    if let Some(e) = e.dyn_ref::<KeyboardEvent>() {
                        if is_space(e) && focus_of(e) == Focus::Transport {
                            e.prevent_default();
                        }
                    }
                },
            );
            (down, up)
        });
        move || drop(listeners)
    });
}

/// What the key's target is, as far as the player's keys go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    /// A field that takes typing, or a box that Space ticks: every key is its own.
    Field,
    /// A slider: the arrows and Home and End are its own, Space is not.
    Slider,
    /// A check box or a radio button: Space ticks it, the arrows move along its group.
    Choice,
    /// A button, a link, a disclosure: Space and Enter press it.
    Control,
    /// A button of the player's transport: Space plays or pauses rather than press it again.
    Transport,
    Other,
}

pub fn focus_of(e: &KeyboardEvent) -> Focus {
    let Some(target) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return Focus::Other;
    };
    let editable = target
        .dyn_ref::<web_sys::HtmlElement>()
        .is_some_and(|h| h.is_content_editable());
    let tag = target.tag_name().to_ascii_uppercase();
    let input_type = target
        .get_attribute("type")
        .unwrap_or_default()
        .to_ascii_lowercase();
    match tag.as_str() {
        _ if editable => Focus::Field,
        // A time chart's cursor layer: its keys move the cursor.
        _ if target.get_attribute("role").as_deref() == Some("slider") => Focus::Slider,
        // The player's own scrubber: its arrows step the player, as the key guide says,
        // rather than move the thumb by a ten-thousandth of the run.
        "INPUT" if input_type == "range" && target.id() == SCRUB_ID => Focus::Other,
        "INPUT" if input_type == "range" => Focus::Slider,
        "INPUT" if matches!(input_type.as_str(), "checkbox" | "radio") => Focus::Choice,
        "INPUT" if input_type != "button" => Focus::Field,
        "TEXTAREA" | "SELECT" => Focus::Field,
        "INPUT" | "BUTTON" | "SUMMARY" | "A" => {
            let transport = target.closest(".player-transport").ok().flatten().is_some();
            if transport {
                Focus::Transport
            } else {
                Focus::Control
            }
        }
        _ => Focus::Other,
    }
}

fn is_space(e: &KeyboardEvent) -> bool {
    matches!(e.key().as_str(), " " | "Spacebar")
}

/// The player's action for a key, unless the key belongs to what has focus.
pub fn key_action(e: &KeyboardEvent) -> Option<Action> {
    if e.default_prevented() || e.ctrl_key() || e.alt_key() || e.meta_key() {
        return None;
    }
    let focus = focus_of(e);
    if focus == Focus::Field {
        return None;
    }
    if is_space(e) {
        if matches!(focus, Focus::Choice | Focus::Control) {
            return None;
        }
        // A held key repeats; one press is one toggle.
        return (!e.repeat()).then_some(Action::Toggle);
    }
    let arrow = e.key().starts_with("Arrow");
    if focus == Focus::Slider || (focus == Focus::Choice && arrow) {
        return None;
    }
    let dir = |shift: bool, d: Dir| {
        if shift {
            Move::RoundTrip(d)
        } else {
            Move::Step(d)
        }
    };
    Some(match e.key().as_str() {
        "ArrowRight" => Action::Go(dir(e.shift_key(), Dir::Forward)),
        "ArrowLeft" => Action::Go(dir(e.shift_key(), Dir::Back)),
        "n" | "N" => Action::Go(Move::Landmark(Dir::Forward)),
        "p" | "P" => Action::Go(Move::Landmark(Dir::Back)),
        "Home" => Action::Go(Move::Start),
        "End" => Action::Go(Move::End),
        _ => return None,
    })
}

/// While playing, moves the playhead on every animation frame by the real time elapsed times
/// the speed.
#[hook]
fn use_playback(playing: bool, speed: f64, time_ms: f64, on_action: Callback<Action>) {
    let now = use_mut_ref(|| time_ms);
    *now.borrow_mut() = time_ms;
    let latest = use_mut_ref(|| on_action.clone());
    *latest.borrow_mut() = on_action;
    use_effect_with((playing, speed.to_bits()), move |(playing, _)| {
        let playback = Rc::new(Playback {
            stopped: Cell::new(!*playing),
            last: Cell::new(None),
            frame: Cell::new(None),
            now,
            on_action: latest,
            speed,
        });
        if *playing {
            next_frame(playback.clone());
        }
        move || {
            playback.stopped.set(true);
            if let (Some(id), Some(w)) = (playback.frame.get(), crate::window()) {
                let _ = w.cancel_animation_frame(id);
            }
        }
    });
}

/// A playback under way: each frame books the next until it is stopped.
struct Playback {
    stopped: Cell<bool>,
    /// The previous frame's timestamp.
    last: Cell<Option<f64>>,
    frame: Cell<Option<i32>>,
    /// The player's time as last rendered.
    now: Rc<RefCell<f64>>,
    on_action: Rc<RefCell<Callback<Action>>>,
    speed: f64,
}

fn next_frame(p: Rc<Playback>) {
    let booked = p.clone();
    // A closure per frame that frees itself once called: nothing to drop while it runs.
    let frame = Closure::once_into_js(move |stamp: f64| {
        if booked.stopped.get() {
            return;
        }
        if let Some(prev) = booked.last.replace(Some(stamp)) {
            // A tab in the background gets no frames: it resumes where it stopped.
            let real = (stamp - prev).clamp(0.0, 100.0);
            let t = *booked.now.borrow() + real * booked.speed;
            // Cloned first: the tick renders the page at once, which replaces the callback.
            let on_action = booked.on_action.borrow().clone();
            on_action.emit(Action::Tick(t));
        }
        if !booked.stopped.get() {
            next_frame(booked);
        }
    });
    let id = crate::window().and_then(|w| w.request_animation_frame(frame.unchecked_ref()).ok());
    p.frame.set(id);
}
