//! The event log: the step on show explained in a sentence with its numbers, and the steps that
//! led to it, one line each. The log shows only what has happened: a teacher pauses and asks
//! what comes next.

use std::rc::Rc;

use tcplab::player::{explain, Step, StepKind, Steps};
use yew::prelude::*;

use super::state::Action;
use crate::i18n::Lang;
use crate::model::format;

/// Lines of the log: the step on show and the ones before it.
pub const LINES: usize = 7;

/// What kind of thing a step is, for its colour in the log and on the scrubber
/// (`assets/style.css`'s `.tone-*`), and for hiding the many of a round trip from the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Loss,
    Repair,
    Timeout,
    Recovered,
    Warning,
    Ack,
    Arrive,
    Handshake,
    Send,
    Phase,
}

impl Tone {
    pub fn of(kind: &StepKind) -> Tone {
        match kind {
            StepKind::DataLost { .. }
            | StepKind::DatagramLost { .. }
            | StepKind::AckLost { .. } => Tone::Loss,
            StepKind::FastRetransmit { .. }
            | StepKind::Retransmitted { .. }
            | StepKind::EcnEcho { .. } => Tone::Repair,
            StepKind::Timeout { .. } => Tone::Timeout,
            StepKind::RecoveryDone { .. } | StepKind::HolRelease { .. } => Tone::Recovered,
            StepKind::DuplicateAck { .. }
            | StepKind::LossProbe { .. }
            | StepKind::CeMarked { .. } => Tone::Warning,
            StepKind::AckArrived { .. } | StepKind::AckSent { .. } => Tone::Ack,
            StepKind::DataArrived { .. } | StepKind::DatagramArrived { .. } => Tone::Arrive,
            StepKind::SynSent { .. } | StepKind::SynReceived | StepKind::Established { .. } => {
                Tone::Handshake
            }
            StepKind::Sent { .. } | StepKind::MessageWritten { .. } => Tone::Send,
            StepKind::SlowStartExit { .. } | StepKind::StateChange { .. } => Tone::Phase,
        }
    }

    /// Its name in the style sheet's `tone-NAME` and the log's `log-show-NAME` boxes.
    pub fn name(self) -> &'static str {
        match self {
            Tone::Loss => "loss",
            Tone::Repair => "repair",
            Tone::Timeout => "timeout",
            Tone::Recovered => "recovered",
            Tone::Warning => "warning",
            Tone::Ack => "ack",
            Tone::Arrive => "arrive",
            Tone::Handshake => "handshake",
            Tone::Send => "send",
            Tone::Phase => "phase",
        }
    }

    /// Its style sheet class, `tone-NAME`.
    pub fn class(self) -> &'static str {
        match self {
            Tone::Loss => "tone-loss",
            Tone::Repair => "tone-repair",
            Tone::Timeout => "tone-timeout",
            Tone::Recovered => "tone-recovered",
            Tone::Warning => "tone-warning",
            Tone::Ack => "tone-ack",
            Tone::Arrive => "tone-arrive",
            Tone::Handshake => "tone-handshake",
            Tone::Send => "tone-send",
            Tone::Phase => "tone-phase",
        }
    }

    /// Its place in a [`Hidden`] set.
    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// The tones hidden from the log, as a set of bits: the log asks it of thousands of steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Hidden(u16);

impl Hidden {
    pub fn contains(self, tone: Tone) -> bool {
        self.0 & tone.bit() != 0
    }

    pub fn toggled(self, tone: Tone) -> Hidden {
        Hidden(self.0 ^ tone.bit())
    }
}

/// A step's kind in a few words.
pub fn kind_label(kind: &StepKind, lang: Lang) -> &'static str {
    let (en, zh) = match kind {
        StepKind::SynSent { .. } => ("SYN sent", "发送 SYN"),
        StepKind::SynReceived => ("SYN received", "收到 SYN"),
        StepKind::Established { .. } => ("Connected", "连接建立"),
        StepKind::Sent { .. } => ("Sent", "发送"),
        StepKind::Retransmitted { .. } => ("Retransmitted", "重传"),
        StepKind::LossProbe { .. } => ("Tail loss probe", "尾部丢失探测"),
        StepKind::DataLost { .. } => ("Segment lost", "报文段丢失"),
        StepKind::DatagramLost { .. } => ("Datagram lost", "数据报丢失"),
        StepKind::AckLost { .. } => ("ACK lost", "ACK 丢失"),
        StepKind::CeMarked { .. } => ("CE mark (ECN)", "CE 标记（ECN）"),
        StepKind::DataArrived { .. } => ("Segment arrives", "报文段到达"),
        StepKind::DatagramArrived { .. } => ("Datagram arrives", "数据报到达"),
        StepKind::AckSent { .. } => ("ACK sent", "发送 ACK"),
        StepKind::AckArrived { .. } => ("ACK arrives", "ACK 到达"),
        StepKind::DuplicateAck { .. } => ("Duplicate ACK", "重复 ACK"),
        StepKind::FastRetransmit { .. } => ("Fast retransmit", "快速重传"),
        StepKind::EcnEcho { .. } => ("ECN echo: window cut", "ECN 回显：降窗"),
        StepKind::RecoveryDone { .. } => ("Recovery done", "恢复完成"),
        StepKind::Timeout { .. } => ("Timeout (RTO)", "超时（RTO）"),
        StepKind::MessageWritten { .. } => ("Message written", "写入消息"),
        StepKind::HolRelease { .. } => ("Head-of-line release", "队头阻塞解除"),
        StepKind::SlowStartExit { .. } => ("Slow start ends", "慢启动结束"),
        StepKind::StateChange { .. } => ("State change", "状态变化"),
    };
    lang.pick(en, zh)
}

/// A time to the microsecond, which tells apart the steps of a burst: `84.158 ms`,
/// `1,234.567 ms`.
pub fn time(t_ms: f64) -> String {
    if !t_ms.is_finite() {
        return "—".to_string();
    }
    let us = (t_ms * 1000.0).round().max(0.0) as u64;
    format!("{}.{:03} ms", format::count(us / 1000), us % 1000)
}

/// The sentence for step `i`, as the log says it: a change of a number (`cwnd 24 -> 23`) kept
/// on one line, its arrow drawn.
pub fn sentence(step: &Step, steps: &Steps, lang: Lang) -> String {
    tcplab::lesson::question::as_the_log_writes(&explain(step, steps, lang.language()))
}

/// "flow 2: " before a step of a run with several flows.
fn flow_prefix(step: &Step, flows: usize, lang: Lang) -> String {
    if flows > 1 {
        format!("{} {} · ", lang.pick("flow", "流"), step.flow + 1)
    } else {
        String::new()
    }
}

#[derive(Properties, PartialEq)]
pub struct ExplanationProps {
    pub steps: super::StepsRef,
    pub index: usize,
    pub flows: usize,
    pub lang: Lang,
}

/// The step on show, in words.
#[function_component]
pub fn Explanation(props: &ExplanationProps) -> Html {
    let steps = &props.steps.0;
    let Some(step) = steps.steps.get(props.index) else {
        return Html::default();
    };
    let lang = props.lang;
    html! {
        <div class={classes!("player-explain", Tone::of(&step.kind).class())}
            id="player-explain" aria-live="polite">
            <p class="player-kind" id="player-kind" data-kind={step.kind.name()}>
                { flow_prefix(step, props.flows, lang) }{ kind_label(&step.kind, lang) }
            </p>
            <p class="player-sentence" id="player-sentence">{ sentence(step, steps, lang) }</p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct LogProps {
    pub steps: super::StepsRef,
    pub index: usize,
    pub flows: usize,
    pub lang: Lang,
    pub on_action: Callback<Action>,
}

/// Kinds of step a class may hide from the log, by their tone: the many sends, ACKs and
/// arrivals of a round trip, which bury the losses and repairs a lesson is about.
const HIDEABLE: [(Tone, &str, &str); 3] = [
    (Tone::Send, "sends", "发送"),
    (Tone::Ack, "ACKs", "ACK"),
    (Tone::Arrive, "arrivals", "到达"),
];

/// How far back the log looks for lines to show when kinds are hidden.
const LOOK_BACK: usize = 20_000;

/// The steps up to the one on show, the newest last; a click goes back to one. Sends, ACKs
/// and arrivals can be hidden (the step on show is always listed).
#[function_component]
pub fn EventLog(props: &LogProps) -> Html {
    let steps: &Rc<Steps> = &props.steps.0;
    let lang = props.lang;
    let hidden = use_state_eq(Hidden::default);
    let end = (props.index + 1).min(steps.steps.len());
    let shown: Vec<usize> = {
        let mut out = Vec::with_capacity(LINES);
        for i in (end.saturating_sub(LOOK_BACK)..end).rev() {
            let keep = i == props.index || !hidden.contains(Tone::of(&steps.steps[i].kind));
            if keep {
                out.push(i);
                if out.len() == LINES {
                    break;
                }
            }
        }
        out.reverse();
        out
    };
    let line = |i: usize| {
        let Some(step) = steps.steps.get(i) else {
            return Html::default();
        };
        let current = i == props.index;
        let on_action = props.on_action.clone();
        let text = sentence(step, steps, lang);
        html! {
            <li class={classes!("log-line", Tone::of(&step.kind).class(), current.then_some("current"))}
                data-index={i.to_string()} value={(i + 1).to_string()} aria-current={current.then_some("step")}>
                <button type="button" class="log-go" title={text.clone()}
                    onclick={Callback::from(move |_: MouseEvent| on_action.emit(Action::To(i)))}>
                    <span class="log-time">{ time(step.t_ms) }</span>
                    <span class="log-kind">{ flow_prefix(step, props.flows, lang) }{ kind_label(&step.kind, lang) }</span>
                    <span class="log-text">{ text }</span>
                </button>
            </li>
        }
    };
    let toggles = HIDEABLE.iter().map(|&(tone, en, zh)| {
        let on = !hidden.contains(tone);
        let tone_name = tone.name();
        let hidden = hidden.clone();
        let onchange = Callback::from(move |_: Event| hidden.set(hidden.toggled(tone)));
        html! {
            <label class={classes!("log-filter", tone.class())}>
                <input type="checkbox" id={format!("log-show-{tone_name}")} checked={on} {onchange} />
                { lang.pick(en, zh) }
            </label>
        }
    });
    html! {
        <div class="player-log-wrap">
            <p class="log-filters" id="log-filters">
                <span>{ lang.pick("Show:", "显示：") }</span>
                { for toggles }
            </p>
            <ol class="player-log" id="player-log" aria-label={lang.pick("Event log", "事件日志")}>
                { for shown.into_iter().map(line) }
            </ol>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcplab::player::StepWindow;
    use tcplab::{run, RunOptions, Scenario};

    #[test]
    fn a_change_of_the_window_stays_on_one_line() {
        let s = Scenario::parse("body=30000").unwrap_or_else(|e| panic!("{e}"));
        let steps = run(
            &s,
            &RunOptions {
                record_steps: Some(StepWindow::WHOLE_RUN),
                ..RunOptions::default()
            },
        )
        .steps
        .unwrap_or_default();
        let said: Vec<String> = steps
            .steps
            .iter()
            .map(|st| sentence(st, &steps, Lang::En))
            .collect();
        assert!(
            said.iter()
                .any(|s| s.contains("cwnd 10\u{a0}→\u{a0}11 MSS")),
            "{said:#?}"
        );
        assert!(said.iter().all(|s| !s.contains("->")));
    }
}
