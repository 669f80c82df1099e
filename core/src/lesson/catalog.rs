//! The lessons. Each part's sentences name the run's figures by slot ([`super::slots`]) and
//! each question finds its answer in the run (the `find` functions below), so a lesson opened
//! with other keys (`lesson=slow-start&iw=4`) stays true.

use super::moment::{next, Find, Moment};
use super::question::{Form, Found, Given, Question, Tolerance, Unit, THE_RUN};
use super::{Evidence, Lesson, Part, Text};
use crate::player::{SlowStartEnd, Step, StepKind, StepTag, Steps};
use crate::scenario::{Post, Source};

const fn t(en: &'static str, zh: &'static str) -> Text {
    Text { en, zh }
}

/// A quantity that cannot be below zero, in this unit: every number a lesson asks for so far
/// (a window, a time, a rate, a count).
const fn unsigned(en: &'static str, zh: &'static str) -> Unit {
    Unit {
        name: t(en, zh),
        signed: false,
    }
}

const MSS_UNIT: Unit = unsigned("MSS", "MSS");
const MS_UNIT: Unit = unsigned("ms", "ms");
const MBIT_UNIT: Unit = unsigned("Mbit/s", "Mbit/s");
const RTT_UNIT: Unit = unsigned("round trips", "个往返");
const MESSAGES_UNIT: Unit = unsigned("messages", "条消息");

fn steps<'a>(ev: &Evidence<'a>) -> Option<&'a Steps> {
    ev.steps
}

/// The first step from `from` on, of the first flow, that `pick` names, with its index.
fn first_of(steps: &Steps, from: usize, pick: impl Fn(&Step) -> bool) -> Option<(usize, &Step)> {
    steps
        .steps
        .iter()
        .enumerate()
        .skip(from)
        .find(|(_, s)| s.flow == 0 && pick(s))
}

/// The last data to reach the first flow's receiver: where a transfer ends (a body's
/// completion is its last byte delivered).
fn last_delivery(steps: &Steps) -> Option<usize> {
    steps
        .steps
        .iter()
        .rposition(|s| s.flow == 0 && s.kind.tag() == StepTag::DataArrived)
}

fn in_mss(bytes: u64, steps: &Steps) -> f64 {
    bytes as f64 / f64::from(steps.mss.max(1))
}

fn number(value: f64, show: Option<usize>) -> Option<Found> {
    value.is_finite().then_some(Found {
        value: Given::Number(value),
        show,
    })
}

fn choice(i: usize, show: Option<usize>) -> Option<Found> {
    Some(Found {
        value: Given::Choice(i),
        show,
    })
}

/// The window after the next ACK of new data.
fn cwnd_after_next_ack(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let i = next(s, at? + 1, Find::NewAck)?;
    match s.steps[i].kind {
        StepKind::AckArrived { cwnd_after, .. } => number(in_mss(cwnd_after, s), Some(i)),
        _ => None,
    }
}

/// The window once the initial window's last segment is acknowledged: a round trip of ACKs.
fn cwnd_after_first_round(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let (_, up) = first_of(s, 0, |st| st.kind.tag() == StepTag::Established)?;
    let flight = up.state.cwnd;
    let (i, step) = first_of(
        s,
        at?,
        |st| matches!(st.kind, StepKind::AckArrived { ack, acked, .. } if acked > 0 && ack >= flight),
    )?;
    number(in_mss(step.state.cwnd, s), Some(i))
}

/// How slow start ends, from `at` on: 0 it does not (the transfer ends first), 1 on a loss,
/// 2 by HyStart or at ssthresh without one.
fn how_slow_start_ends(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let end = first_of(s, at?, |st| {
        matches!(
            st.kind,
            StepKind::SlowStartExit { .. }
                | StepKind::DataLost { .. }
                | StepKind::FastRetransmit { .. }
                | StepKind::Timeout { .. }
        )
    });
    match end {
        None if s.truncated => None,
        // The last byte's arrival would show the POST's length in round trips, which the
        // next part asks the class to work out: its reveal shows the end, cwnd still doubling.
        None => choice(0, None),
        Some((i, st)) => match st.kind {
            StepKind::SlowStartExit {
                reason: SlowStartEnd::HyStartAckTrain | SlowStartEnd::HyStartDelay,
                ..
            } => choice(2, Some(i)),
            _ => choice(1, Some(i)),
        },
    }
}

fn completion_rtts(ev: &Evidence, _: Option<usize>) -> Option<Found> {
    let show = ev.steps.and_then(last_delivery);
    number(ev.summary?.completion_rtts?, show)
}

/// What the sender does on the duplicate ACK it is about to get: 0 a fast retransmit on it,
/// 1 a timeout or probe first, 2 a fast retransmit later.
fn on_third_dupack(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let from = at? + 1;
    let (_, dup_step) = first_of(s, from, |st| st.kind.tag() == StepTag::DuplicateAck)?;
    let (i, st) = first_of(s, from, |st| {
        matches!(
            st.kind.tag(),
            StepTag::FastRetransmit | StepTag::Timeout | StepTag::LossProbe
        )
    })?;
    match st.kind.tag() {
        StepTag::FastRetransmit if st.t_ms <= dup_step.t_ms => choice(0, Some(i)),
        StepTag::FastRetransmit => choice(2, Some(i)),
        _ => choice(1, Some(i)),
    }
}

fn cwnd_when_recovery_ends(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let (i, st) = first_of(s, at?, |st| st.kind.tag() == StepTag::RecoveryDone)?;
    number(in_mss(st.state.cwnd, s), Some(i))
}

/// What repairs a lost last segment: 0 a tail loss probe, 1 the timer, 2 a fast retransmit.
fn tail_repair(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let (i, st) = first_of(s, at? + 1, |st| {
        matches!(
            st.kind.tag(),
            StepTag::LossProbe | StepTag::Timeout | StepTag::FastRetransmit
        )
    })?;
    match st.kind.tag() {
        StepTag::LossProbe => choice(0, Some(i)),
        StepTag::Timeout => choice(1, Some(i)),
        _ => choice(2, Some(i)),
    }
}

fn ssthresh_at_timeout(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let (i, st) = first_of(s, at? + 1, |st| st.kind.tag() == StepTag::Timeout)?;
    match st.kind {
        StepKind::Timeout { ssthresh, .. } if ssthresh < crate::cc::INFINITE_SSTHRESH_BYTES => {
            number(in_mss(ssthresh, s), Some(i))
        }
        _ => None,
    }
}

/// The timer the sender arms when the next timeout fires and it retransmits: the timer as it
/// stands after that timeout (the player's RTO readout there), doubled once more. Not the
/// timer that fires, which the RTO readout at the part's moment shows already: asking for it
/// would be reading the card.
fn rto_after_next_timeout(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let (i, st) = first_of(s, at? + 1, |st| st.kind.tag() == StepTag::Timeout)?;
    number(st.state.rto_ms, Some(i))
}

/// What the next loss does to the window: 0 halves it, 1 a milder cut, 2 one segment.
fn loss_response(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let (i, st) = first_of(s, at? + 1, |st| {
        matches!(st.kind.tag(), StepTag::FastRetransmit | StepTag::Timeout)
    })?;
    match st.kind {
        StepKind::FastRetransmit {
            cwnd_before,
            ssthresh,
            ..
        } if cwnd_before > 0 => {
            let cut = ssthresh as f64 / cwnd_before as f64;
            choice(if cut < 0.6 { 0 } else { 1 }, Some(i))
        }
        _ => choice(2, Some(i)),
    }
}

fn mathis_mbit(ev: &Evidence, _: Option<usize>) -> Option<Found> {
    number(ev.summary?.mathis_MBps? * 8.0, None)
}

fn goodput_mbit(ev: &Evidence, _: Option<usize>) -> Option<Found> {
    number(ev.summary?.goodput_MBps? * 8.0, None)
}

/// The goodput against the Mathis line: 0 about it, 1 well above, 2 below.
fn against_mathis(ev: &Evidence, _: Option<usize>) -> Option<Found> {
    let s = ev.summary?;
    let ratio = s.goodput_MBps? / s.mathis_MBps?;
    choice(
        if ratio > 1.5 {
            1
        } else if ratio < 0.8 {
            2
        } else {
            0
        },
        None,
    )
}

/// The goodput between the Mathis line and the link: 0 near the link, 1 near Mathis, 2 between.
fn between_mathis_and_link(ev: &Evidence, _: Option<usize>) -> Option<Found> {
    let s = ev.summary?;
    let goodput = s.goodput_MBps? * 8.0;
    let link = ev.scenario.bw_mbps;
    let mathis = s.mathis_MBps? * 8.0;
    choice(
        if goodput > 0.7 * link {
            0
        } else if goodput < 1.5 * mathis {
            1
        } else {
            2
        },
        None,
    )
}

fn messages_released(ev: &Evidence, at: Option<usize>) -> Option<Found> {
    let s = steps(ev)?;
    let (i, st) = first_of(s, at?, |st| st.kind.tag() == StepTag::HolRelease)?;
    match st.kind {
        StepKind::HolRelease { messages, .. } => number(f64::from(messages), Some(i)),
        _ => None,
    }
}

fn ping_p50(ev: &Evidence, _: Option<usize>) -> Option<Found> {
    number(ev.summary?.probe.as_ref()?.p50_ms?, None)
}

/// The ping's round trip: 0 about the path's, 1 hundreds of ms, 2 seconds.
fn ping_scale(ev: &Evidence, _: Option<usize>) -> Option<Found> {
    let p50 = ev.summary?.probe.as_ref()?.p50_ms?;
    let rtt = ev.scenario.rtt_ms;
    choice(
        if p50 <= 1.5 * rtt {
            0
        } else if p50 < 1000.0 {
            1
        } else {
            2
        },
        None,
    )
}

/// Every lesson, in the order the index lists them.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        name: "slow-start",
        title: t("Slow start: a 2.5 MB POST", "慢启动：一个 2.5 MB 的 POST"),
        summary: t(
            "How a new connection grows its window, and why a 2.5 MB upload on a fast path \
             ends before the link is ever full.",
            "新连接如何增大窗口，以及为什么快速路径上一个 2.5 MB 的上传在链路被占满之前就结束了。",
        ),
        source: Source::Post(Post::SlowPost),
        query: "preset=post-slow-start",
        parts: &[
            Part {
                title: t("The handshake", "握手"),
                keys: "",
                moment: Moment::first(StepTag::Established),
                say: t(
                    "The SYN-ACK is back at {t} ms, one round trip after the SYN. The \
                     sender may now send its initial window, {cwnd} MSS (iw={iw}), before \
                     anything is acknowledged.",
                    "SYN-ACK 在 {t} ms 返回，正好是 SYN 发出后的一个往返。发送方现在可以在\
                     收到任何确认之前发出初始窗口 {cwnd} MSS（iw={iw}）。",
                ),
                question: Some(Question {
                    ask: t(
                        "When the first ACK of new data arrives, what will cwnd be, in MSS?",
                        "第一个确认新数据的 ACK 到达后，cwnd 会是多少 MSS？",
                    ),
                    form: Form::Number {
                        unit: MSS_UNIT,
                        tolerance: Tolerance::Whole,
                    },
                    find: cwnd_after_next_ack,
                    because: t(
                        "In slow start each ACK adds to cwnd what it acknowledges (RFC 5681 §3.1): \
                         {answer}.",
                        "慢启动中每个 ACK 确认多少数据，cwnd 就增加多少（RFC 5681 §3.1）：{answer}。",
                    ),
                }),
            },
            Part {
                title: t("A round trip of ACKs", "一个往返的 ACK"),
                keys: "",
                moment: Moment::On(Find::NewAck, 1),
                say: t(
                    "This ACK took cwnd from {before} to {cwnd} MSS at {t} ms; {inflight} MSS \
                     are in flight. The rest of the first flight's ACKs are on their way.",
                    "这个 ACK 在 {t} ms 把 cwnd 从 {before} 增加到 {cwnd} MSS；在途 {inflight} MSS。\
                     第一批数据的其余 ACK 正在返回。",
                ),
                question: Some(Question {
                    ask: t(
                        "When the ACK of the initial window's last segment arrives, what will cwnd \
                         be, in MSS?",
                        "当初始窗口最后一个报文段的 ACK 到达时，cwnd 会是多少 MSS？",
                    ),
                    form: Form::Number {
                        unit: MSS_UNIT,
                        tolerance: Tolerance::Whole,
                    },
                    find: cwnd_after_first_round,
                    because: t(
                        "A round trip's ACKs acknowledge the whole flight, so slow start doubles \
                         the window each round trip: {answer}.",
                        "一个往返的 ACK 确认了整批数据，所以慢启动每个往返把窗口翻倍：{answer}。",
                    ),
                }),
            },
            Part {
                title: t("Doubling, round after round", "一轮又一轮地翻倍"),
                keys: "",
                moment: Moment::On(Find::NewAck, 30),
                say: t(
                    "At {t} ms cwnd is {cwnd} MSS, with {inflight} MSS in flight, and ssthresh is \
                     {ssthresh} (unbounded until a loss or HyStart sets it). The body is {body_kb} \
                     kB, on a {bw} Mbit/s link.",
                    "{t} ms 时 cwnd 为 {cwnd} MSS，在途 {inflight} MSS，ssthresh 为 {ssthresh}\
                     （在丢包或 HyStart 设定它之前不设上限）。数据体共 {body_kb} kB，链路 {bw} Mbit/s。",
                ),
                question: Some(Question {
                    ask: t(
                        "How does this transfer's slow start end?",
                        "这次传输的慢启动会如何结束？",
                    ),
                    form: Form::Choice(&[
                        t(
                            "It does not: the last byte arrives while cwnd is still doubling",
                            "不会结束：最后一个字节到达时 cwnd 仍在翻倍",
                        ),
                        t(
                            "On a loss, and congestion avoidance follows",
                            "因丢包结束，随后进入拥塞避免",
                        ),
                        t(
                            "HyStart ends it before any loss, seeing the queue build",
                            "HyStart 看到队列增长，在丢包之前结束它",
                        ),
                    ]),
                    find: how_slow_start_ends,
                    because: THE_RUN,
                }),
            },
            Part {
                title: t("Counting round trips", "数往返"),
                keys: "",
                moment: Moment::On(Find::NewAck, 60),
                say: t(
                    "{t} ms: cwnd {cwnd} MSS, {inflight} MSS in flight. Each round trip costs \
                     {rtt} ms however fast the link is.",
                    "{t} ms：cwnd {cwnd} MSS，在途 {inflight} MSS。不管链路多快，每个往返都要 {rtt} ms。",
                ),
                question: Some(Question {
                    ask: t(
                        "From the SYN to the body's last byte at the server, how many round trips \
                         does the whole POST take?",
                        "从 SYN 到数据体的最后一个字节到达服务器，整个 POST 需要多少个往返？",
                    ),
                    form: Form::Number {
                        unit: RTT_UNIT,
                        tolerance: Tolerance::Absolute(1.0),
                    },
                    find: completion_rtts,
                    because: t(
                        "The POST takes {answer}: one for the handshake and about one for each \
                         doubling of the window until the body is sent.",
                        "这个 POST 用了 {answer}：握手一个，之后窗口每翻倍一次大约一个，直到数据体发完。",
                    ),
                }),
            },
            Part {
                title: t("The last byte", "最后一个字节"),
                keys: "",
                moment: Moment::End,
                say: t(
                    "The last byte reaches the server at {completion} ms: {rtts} round trips of \
                     {rtt} ms from the SYN, at {goodput} Mbit/s on a {bw} Mbit/s link; its ACK is \
                     back at {t} ms. Round trips, not the link, set this transfer's time; a larger \
                     initial window (try iw=40) saves some of them.",
                    "最后一个字节在 {completion} ms 到达服务器：从 SYN 起 {rtts} 个 {rtt} ms 的往返，\
                     速率 {goodput} Mbit/s，而链路有 {bw} Mbit/s；它的 ACK 在 {t} ms 回到发送方。\
                     决定这次传输时间的是往返次数，而不是链路；更大的初始窗口（试试 iw=40）能省掉几个往返。",
                ),
                question: None,
            },
        ],
    },
    Lesson {
        name: "fast-retransmit",
        title: t("Fast retransmit and recovery", "快速重传与快速恢复"),
        summary: t(
            "One segment lost in mid-flight: duplicate ACKs reveal it, the sender resends it at \
             once and cuts its window without waiting for a timeout.",
            "一个报文段在途中丢失：重复 ACK 暴露了它，发送方立即重传并降窗，无需等待超时。",
        ),
        source: Source::Other(Text::new(
            "a staged loss",
            "设定的丢包",
        )),
        query: "preset=lesson-fast-retransmit",
        parts: &[
            Part {
                title: t("A segment is lost", "一个报文段丢失"),
                keys: "",
                moment: Moment::first(StepTag::DataLost),
                say: t(
                    "At {t} ms, {segment} is dropped. cwnd is {cwnd} MSS with {inflight} MSS in \
                     flight, and the sender cannot know of the loss for a round trip.",
                    "{t} ms 时，{segment}被丢弃。此时 cwnd 为 {cwnd} MSS，在途 {inflight} MSS，\
                     发送方要过一个往返才可能知道这次丢失。",
                ),
                question: None,
            },
            Part {
                title: t("The first duplicate ACK", "第一个重复 ACK"),
                keys: "",
                moment: Moment::On(Find::DuplicateAck(1), 1),
                say: t(
                    "The segments after the hole arrive, and the receiver can only acknowledge \
                     the byte it still wants: duplicate ACK #{dup}, still asking for {segment}, \
                     with a SACK block for what came past it. cwnd stays {cwnd} MSS.",
                    "空洞之后的报文段到达了，接收方只能继续确认它还缺的那个字节：第 {dup} 个\
                     重复 ACK，仍在索要{segment}，并用 SACK 块报告越过空洞收到的数据。cwnd 仍为 {cwnd} MSS。",
                ),
                question: None,
            },
            Part {
                title: t("The third duplicate ACK", "第三个重复 ACK"),
                keys: "",
                moment: Moment::Before(Find::DuplicateAck(3), 1),
                say: t(
                    "Two duplicate ACKs are in ({t} ms); cwnd is {cwnd} MSS, {inflight} MSS in \
                     flight. The third is on its way.",
                    "已经收到两个重复 ACK（{t} ms）；cwnd 为 {cwnd} MSS，在途 {inflight} MSS。第三个正在路上。",
                ),
                question: Some(Question {
                    ask: t(
                        "What does the sender do when the third duplicate ACK arrives?",
                        "第三个重复 ACK 到达时，发送方会怎么做？",
                    ),
                    form: Form::Choice(&[
                        t(
                            "Resends the missing segment at once and cuts its window: fast retransmit",
                            "立即重传缺失的报文段并降低窗口：快速重传",
                        ),
                        t(
                            "Nothing: it waits for the retransmission timer",
                            "什么也不做：等待重传计时器",
                        ),
                        t(
                            "Sends new data and waits for more duplicate ACKs",
                            "发送新数据，等待更多重复 ACK",
                        ),
                    ]),
                    find: on_third_dupack,
                    because: THE_RUN,
                }),
            },
            Part {
                title: t("The window in recovery", "恢复期间的窗口"),
                keys: "",
                moment: Moment::first(StepTag::FastRetransmit),
                say: t(
                    "Fast retransmit at {t} ms: ssthresh is now {ssthresh} MSS, and {cc} lets cwnd \
                     ({cwnd} MSS) fall toward it as ACKs arrive (proportional rate reduction, RFC \
                     6937).",
                    "{t} ms 快速重传：ssthresh 现在是 {ssthresh} MSS，{cc} 让 cwnd（{cwnd} MSS）随 ACK \
                     的到达逐步降向它（比例降速，RFC 6937）。",
                ),
                question: Some(Question {
                    ask: t(
                        "Recovery lasts until everything sent before the loss is acknowledged. \
                         What will cwnd be then, in MSS?",
                        "恢复一直持续到丢包前发出的数据全部被确认。那时 cwnd 会是多少 MSS？",
                    ),
                    form: Form::Number {
                        unit: MSS_UNIT,
                        tolerance: Tolerance::Whole,
                    },
                    find: cwnd_when_recovery_ends,
                    because: t(
                        "Recovery ends at {t} ms, once everything sent before the loss is \
                         acknowledged.",
                        "恢复在 {t} ms 结束：丢包前发出的数据已全部确认。",
                    ),
                }),
            },
            Part {
                title: t("Recovery done", "恢复完成"),
                keys: "",
                moment: Moment::first(StepTag::RecoveryDone),
                say: t(
                    "At {t} ms the retransmission has filled the hole and recovery is over without \
                     a timeout: cwnd {cwnd} MSS, ssthresh {ssthresh} MSS. From here the window \
                     grows again, one MSS a round trip or on {cc}'s curve.",
                    "{t} ms 时重传填上了空洞，恢复在没有超时的情况下结束：cwnd {cwnd} MSS，ssthresh \
                     {ssthresh} MSS。此后窗口重新增长：每个往返一个 MSS，或按 {cc} 的曲线。",
                ),
                question: None,
            },
        ],
    },
    Lesson {
        name: "timeout",
        title: t("Timeout and backoff", "超时与退避"),
        summary: t(
            "A loss nothing else can repair: a tail loss probe, then the retransmission timer, \
             cwnd back to one segment, and the timer doubling when the retransmission is lost too.",
            "一次别无他法修复的丢包：先是尾部丢失探测，再是重传计时器，cwnd 回到一个报文段，\
             重传再丢时计时器加倍。",
        ),
        source: Source::Other(Text::new(
            "a staged loss",
            "设定的丢包",
        )),
        query: "preset=lesson-timeout",
        parts: &[
            Part {
                title: t("The last segment is lost", "最后一个报文段丢失"),
                keys: "",
                moment: Moment::first(StepTag::DataLost),
                say: t(
                    "At {t} ms the body's last segment, {segment}, is dropped. No segment \
                     follows it, so no duplicate ACK can reveal the loss.",
                    "{t} ms 时，数据体的最后一个报文段——{segment}——被丢弃。它后面没有报文段，\
                     所以不会有重复 ACK 暴露这次丢失。",
                ),
                question: None,
            },
            Part {
                title: t("Silence", "沉默"),
                keys: "",
                moment: Moment::Before(Find::Kind(StepTag::LossProbe), 1),
                say: t(
                    "The other segments' ACKs are in by {t} ms; cwnd is {cwnd} MSS, {inflight} \
                     MSS still unacknowledged, RTO {rto} ms. Nothing more comes back.",
                    "其他报文段的 ACK 在 {t} ms 前都已到达；cwnd 为 {cwnd} MSS，仍有 {inflight} MSS \
                     未确认，RTO 为 {rto} ms。之后再没有任何返回。",
                ),
                question: Some(Question {
                    ask: t(
                        "What does the sender do about the missing last segment?",
                        "对于缺失的最后一个报文段，发送方会怎么做？",
                    ),
                    form: Form::Choice(&[
                        t(
                            "A tail loss probe: after a silence of a few round trips it resends the \
                             last segment",
                            "尾部丢失探测：沉默几个往返之后重发最后一个报文段",
                        ),
                        t(
                            "It waits for the retransmission timer, then resends with cwnd 1",
                            "等待重传计时器到期，然后以 cwnd 1 重传",
                        ),
                        t("Fast retransmit on duplicate ACKs", "靠重复 ACK 触发快速重传"),
                    ]),
                    find: tail_repair,
                    because: THE_RUN,
                }),
            },
            Part {
                title: t("The probe is lost too", "探测也丢了"),
                keys: "",
                moment: Moment::Before(Find::Kind(StepTag::Timeout), 1),
                say: t(
                    "The probe was dropped as well ({t} ms). cwnd is {cwnd} MSS, and the \
                     retransmission timer, {rto} ms, is all that is left.",
                    "探测包也被丢弃了（{t} ms）。cwnd 为 {cwnd} MSS，只剩下 {rto} ms 的重传计时器。",
                ),
                question: Some(Question {
                    ask: t(
                        "When the timer fires, what will ssthresh be, in MSS?",
                        "计时器到期时，ssthresh 会是多少 MSS？",
                    ),
                    form: Form::Number {
                        unit: MSS_UNIT,
                        tolerance: Tolerance::Whole,
                    },
                    find: ssthresh_at_timeout,
                    because: t(
                        "ssthresh becomes {answer}, what {cc} keeps of the window after a loss, and \
                         cwnd restarts from one segment in slow start (RFC 5681 §3.1).",
                        "ssthresh 变为 {answer}，即 {cc} 在丢包后保留的窗口，cwnd 则从一个报文段\
                         重新慢启动（RFC 5681 §3.1）。",
                    ),
                }),
            },
            Part {
                title: t("Backoff", "退避"),
                keys: "",
                moment: Moment::Before(Find::Kind(StepTag::Timeout), 2),
                say: t(
                    "The retransmission was lost as well ({t} ms); cwnd is {cwnd} MSS, nothing is \
                     acknowledged, and the timer waiting for it stands at {rto} ms.",
                    "重传也丢了（{t} ms）；cwnd 为 {cwnd} MSS，什么也没有被确认，\
                     等待它的计时器现在是 {rto} ms。",
                ),
                // Not "when will this timer fire?": the RTO readout beside the question says
                // it. The class predicts the next doubling instead, from the readout.
                question: Some(Question {
                    ask: t(
                        "When this timer fires, the segment is sent again. What will the timer \
                         waiting for that one be, in ms?",
                        "这个计时器到期时，该报文段再次发出。等待它的计时器会是多少 ms？",
                    ),
                    form: Form::Number {
                        unit: MS_UNIT,
                        tolerance: Tolerance::Relative(0.05),
                    },
                    find: rto_after_next_timeout,
                    because: t(
                        "{answer}: each timeout doubles the timer (RFC 6298 §5.5), so a path that \
                         keeps losing is probed ever more gently.",
                        "{answer}：每次超时计时器加倍（RFC 6298 §5.5），持续丢包的路径被越来越轻地试探。",
                    ),
                }),
            },
            Part {
                title: t("Through at last", "终于送达"),
                keys: "",
                moment: Moment::End,
                say: t(
                    "The last segment gets through at {t} ms. This {body_kb} kB body needs about one \
                     round trip of {rtt} ms; {timeouts} timeouts stretched it to {t} ms.",
                    "最后一个报文段在 {t} ms 终于送达。这个 {body_kb} kB 的数据体本来大约只需一个 \
                     {rtt} ms 的往返；{timeouts} 次超时把它拖到了 {t} ms。",
                ),
                question: None,
            },
        ],
    },
    Lesson {
        name: "mathis",
        title: t("Random loss and the Mathis line", "随机丢包与 Mathis 公式"),
        summary: t(
            "Reno under random loss: each loss halves the window, and the rate settles near \
             MSS / RTT × 1.22 / √p however fast the link.",
            "随机丢包下的 Reno：每次丢包窗口减半，无论链路多快，速率都稳定在 MSS / RTT × 1.22 / √p 附近。",
        ),
        source: Source::Post(Post::LossRate),
        query: "preset=loss-sweep",
        parts: &[
            Part {
                title: t("A random loss", "一次随机丢包"),
                keys: "",
                moment: Moment::Before(Find::Kind(StepTag::FastRetransmit), 1),
                say: t(
                    "{loss} % of the data packets are dropped at random. At {t} ms {cc}'s window \
                     is {cwnd} MSS, and a loss is about to be found.",
                    "{loss} % 的数据包被随机丢弃。{t} ms 时 {cc} 的窗口为 {cwnd} MSS，\
                     一次丢包即将被发现。",
                ),
                question: Some(Question {
                    ask: t(
                        "What will {cc} do to its window?",
                        "{cc} 会怎样处理它的窗口？",
                    ),
                    form: Form::Choice(&[
                        t("Halve it", "减半"),
                        t("Cut it by less than half (to about 70 %)", "降得少于一半（约到 70 %）"),
                        t("Drop it to one segment", "降到一个报文段"),
                    ]),
                    find: loss_response,
                    because: THE_RUN,
                }),
            },
            Part {
                title: t("The sawtooth and the formula", "锯齿与公式"),
                keys: "",
                moment: Moment::At(3000.0),
                say: t(
                    "At {t} ms cwnd is {cwnd} MSS: {cc}'s window climbs between losses and is cut \
                     at each, a sawtooth whose average sets the rate. MSS {mss} bytes, RTT {rtt} \
                     ms, loss {loss} %.",
                    "{t} ms 时 cwnd 为 {cwnd} MSS：{cc} 的窗口在两次丢包之间爬升，每次丢包被削减，\
                     这个锯齿的平均值决定了速率。MSS {mss} 字节，RTT {rtt} ms，丢包率 {loss} %。",
                ),
                question: Some(Question {
                    ask: t(
                        "Mathis' formula: rate = MSS / RTT × 1.22 / √p. What rate does it give \
                         here, in Mbit/s?",
                        "Mathis 公式：速率 = MSS / RTT × 1.22 / √p。这里它给出多少 Mbit/s？",
                    ),
                    form: Form::Number {
                        unit: MBIT_UNIT,
                        tolerance: Tolerance::Relative(0.1),
                    },
                    find: mathis_mbit,
                    because: t(
                        "The formula gives {answer}; the run's {cc} gets {goodput} Mbit/s, \
                         {vs_mathis} times it.",
                        "公式给出 {answer}；运行中 {cc} 得到 {goodput} Mbit/s，是它的 {vs_mathis} 倍。",
                    ),
                }),
            },
            Part {
                title: t("Four times the loss", "四倍的丢包"),
                keys: "loss=4&ackloss=4",
                // Before its first loss is answered: at 3 s the goodput chart already showed
                // the rate the question asks for.
                moment: Moment::Before(Find::Kind(StepTag::FastRetransmit), 1),
                say: t(
                    "The same path with {loss} % of the data packets lost. At {t} ms cwnd is \
                     {cwnd} MSS.",
                    "同一条路径，数据包丢失率 {loss} %。{t} ms 时 cwnd 为 {cwnd} MSS。",
                ),
                question: Some(Question {
                    ask: t(
                        "With four times the loss, what goodput will {cc} get, in Mbit/s?",
                        "丢包率变为四倍后，{cc} 能得到多少 Mbit/s 的有效吞吐量？",
                    ),
                    form: Form::Number {
                        unit: MBIT_UNIT,
                        tolerance: Tolerance::Relative(0.3),
                    },
                    find: goodput_mbit,
                    because: t(
                        "The run gives {answer}; the Mathis line is now at {mathis} Mbit/s. The \
                         rate goes as 1/√p: four times the loss, half the rate.",
                        "运行给出 {answer}；Mathis 线现在是 {mathis} Mbit/s。速率与 1/√p 成正比：\
                         丢包四倍，速率减半。",
                    ),
                }),
            },
        ],
    },
    Lesson {
        name: "hol",
        title: t("Head-of-line blocking", "队头阻塞"),
        summary: t(
            "Small messages over one TCP connection: one lost segment holds every later message \
             until its retransmission arrives.",
            "一条 TCP 连接上的小消息：一个报文段丢失，其后的每条消息都要等到它的重传到达。",
        ),
        source: Source::Post(Post::HeadOfLine),
        query: "preset=hol-blocking",
        parts: &[
            Part {
                title: t("A message is lost", "一条消息丢失"),
                keys: "",
                moment: Moment::first(StepTag::DataLost),
                say: t(
                    "At {t} ms a message is lost: {segment}. The application keeps writing a \
                     message every {every} ms, on a path of {rtt} ms.",
                    "{t} ms 时一条消息丢失：{segment}。应用仍每 {every} ms 写入一条消息，路径往返 {rtt} ms。",
                ),
                question: None,
            },
            Part {
                title: t("Held behind the hole", "被扣在空洞之后"),
                keys: "",
                moment: Moment::On(Find::OutOfOrder, 1),
                say: t(
                    "The next message arrives at {t} ms, but TCP delivers bytes in order: \
                     {held} bytes now wait in the receive buffer behind the missing segment.",
                    "下一条消息在 {t} ms 到达，但 TCP 按序交付字节：{held} 字节正在接收缓冲区里\
                     等待那个缺失的报文段。",
                ),
                question: Some(Question {
                    ask: t(
                        "When the retransmission fills the hole, how many messages will reach the \
                         application at once?",
                        "重传填上空洞时，会有多少条消息同时交给应用？",
                    ),
                    form: Form::Number {
                        unit: MESSAGES_UNIT,
                        tolerance: Tolerance::Absolute(2.0),
                    },
                    find: messages_released,
                    because: t(
                        "{answer}: every message written while the hole was open waited for it.",
                        "{answer}：空洞存在期间写入的每条消息都在等它。",
                    ),
                }),
            },
            Part {
                title: t("The release", "释放"),
                keys: "",
                moment: Moment::first(StepTag::HolRelease),
                say: t(
                    "{messages} messages reach the application at {t} ms, the oldest after \
                     waiting {worst} ms. Over UDP (conns=0) the lost message would be gone and \
                     the others on time.",
                    "{t} ms 时 {messages} 条消息同时交给应用，最早的一条等了 {worst} ms。若用 UDP\
                     （conns=0），丢失的消息就丢了，其余的都能按时到达。",
                ),
                question: None,
            },
        ],
    },
    Lesson {
        name: "algorithms",
        title: t("Reno, CUBIC and BBR under loss", "丢包下的 Reno、CUBIC 与 BBR"),
        summary: t(
            "The same lossy path under three algorithms: two that read loss as congestion, and \
             one that models the path.",
            "同一条有损路径上的三种算法：两种把丢包当作拥塞，一种为路径建模。",
        ),
        source: Source::Post(Post::Algorithms),
        query: "preset=random-loss-bbr&dur=20",
        parts: &[
            Part {
                title: t("Reno", "Reno"),
                keys: "cc=reno",
                // Each algorithm's question stands before its first loss is answered: at 10 s
                // of the 20 the goodput chart already showed the rate asked for.
                moment: Moment::Before(Find::Kind(StepTag::FastRetransmit), 1),
                say: t(
                    "{cc} on a {bw} Mbit/s path of {rtt} ms that loses {loss} % of its packets at \
                     random. At {t} ms its window is {cwnd} MSS.",
                    "{cc} 跑在一条 {bw} Mbit/s、{rtt} ms、随机丢包 {loss} % 的路径上。{t} ms 时窗口为 {cwnd} MSS。",
                ),
                question: Some(Question {
                    ask: t(
                        "What goodput will {cc} get, in Mbit/s?",
                        "{cc} 能得到多少 Mbit/s 的有效吞吐量？",
                    ),
                    form: Form::Number {
                        unit: MBIT_UNIT,
                        tolerance: Tolerance::Relative(0.3),
                    },
                    find: goodput_mbit,
                    because: t(
                        "{answer}, near the Mathis line's {mathis} Mbit/s: the loss rate, not \
                         the link, sets it.",
                        "{answer}，接近 Mathis 线的 {mathis} Mbit/s：决定它的是丢包率，而不是链路。",
                    ),
                }),
            },
            Part {
                title: t("CUBIC", "CUBIC"),
                keys: "cc=cubic",
                moment: Moment::Before(Find::Kind(StepTag::FastRetransmit), 1),
                say: t(
                    "{cc} regrows its window on a cubic curve in time, not one MSS a round trip, \
                     and cuts it to 70 % on a loss. At {t} ms its window is {cwnd} MSS.",
                    "{cc} 按时间的三次曲线恢复窗口，而不是每个往返一个 MSS，丢包时降到 70 %。\
                     {t} ms 时窗口为 {cwnd} MSS。",
                ),
                question: Some(Question {
                    ask: t(
                        "Against the Mathis line ({mathis} Mbit/s), what will {cc}'s goodput be?",
                        "与 Mathis 线（{mathis} Mbit/s）相比，{cc} 的有效吞吐量会怎样？",
                    ),
                    form: Form::Choice(&[
                        t("About the same", "差不多"),
                        t("Well above it (more than 1.5 times)", "明显更高（超过 1.5 倍）"),
                        t("Below it", "更低"),
                    ]),
                    find: against_mathis,
                    because: t(
                        "{cc} gets {goodput} Mbit/s, {vs_mathis} times the Mathis line.",
                        "{cc} 得到 {goodput} Mbit/s，是 Mathis 线的 {vs_mathis} 倍。",
                    ),
                }),
            },
            Part {
                title: t("BBR", "BBR"),
                keys: "cc=bbr",
                moment: Moment::Before(Find::Kind(StepTag::FastRetransmit), 1),
                say: t(
                    "{cc} does not read a random loss as congestion: it paces at the bottleneck \
                     rate it measures and keeps about a BDP in flight. At {t} ms its window is \
                     {cwnd} MSS.",
                    "{cc} 不把随机丢包当作拥塞：它按测得的瓶颈速率发送，在途数据保持在约一个 BDP。\
                     {t} ms 时窗口为 {cwnd} MSS。",
                ),
                question: Some(Question {
                    ask: t(
                        "What will {cc}'s goodput be?",
                        "{cc} 的有效吞吐量会是多少？",
                    ),
                    form: Form::Choice(&[
                        t("Near the link's {bw} Mbit/s", "接近链路的 {bw} Mbit/s"),
                        t("Near the Mathis line, {mathis} Mbit/s", "接近 Mathis 线，{mathis} Mbit/s"),
                        t("Between the two", "介于两者之间"),
                    ]),
                    find: between_mathis_and_link,
                    because: t(
                        "{cc} gets {goodput} Mbit/s of the link's {bw}, through {loss} % loss.",
                        "{cc} 在 {loss} % 的丢包下得到链路 {bw} Mbit/s 中的 {goodput} Mbit/s。",
                    ),
                }),
            },
        ],
    },
    Lesson {
        name: "bufferbloat",
        title: t("Bufferbloat, and the queue that cures it", "缓冲膨胀，以及治好它的队列"),
        summary: t(
            "An upload fills a deep drop-tail queue and a ping beside it waits behind it; \
             FQ-CoDel keeps the queue short and the ping fast.",
            "一个上传填满深深的尾部丢弃队列，旁边的 ping 只能排在后面；FQ-CoDel 让队列保持很短，ping 依然很快。",
        ),
        source: Source::Other(Text::new(
            "Gettys and Nichols, 2011; RFC 8290",
            "Gettys 与 Nichols，2011；RFC 8290",
        )),
        query: "preset=bufferbloat",
        parts: &[
            Part {
                title: t("An upload and a ping", "一个上传和一个 ping"),
                keys: "",
                moment: Moment::At(1000.0),
                say: t(
                    "A {cc} upload over a {bw} Mbit/s link with a drop-tail queue of \
                     {queue_limit} packets, and a ping every {probe} ms through the same queue. At \
                     {t} ms {queue} packets are queued.",
                    "一个 {cc} 上传经过 {bw} Mbit/s 的链路，尾部丢弃队列容量 {queue_limit} 个包，\
                     一个 ping 每 {probe} ms 穿过同一个队列。{t} ms 时有 {queue} 个包在排队。",
                ),
                question: Some(Question {
                    ask: t(
                        "The path's round trip is {rtt} ms. What will the ping's median round trip \
                         be over the run, in ms?",
                        "路径的往返是 {rtt} ms。整个运行中 ping 往返时间的中位数会是多少 ms？",
                    ),
                    form: Form::Number {
                        unit: MS_UNIT,
                        tolerance: Tolerance::Relative(0.25),
                    },
                    find: ping_p50,
                    because: t(
                        "Half the pings took {answer} or more, against the path's {rtt} ms: they \
                         wait behind the standing queue the upload keeps full.",
                        "一半的 ping 用了 {answer} 或更久，而路径只有 {rtt} ms：它们排在上传一直填满的常驻队列后面。",
                    ),
                }),
            },
            Part {
                title: t("The queue overflows", "队列溢出"),
                keys: "",
                moment: Moment::first(StepTag::DataLost),
                say: t(
                    "At {t} ms the queue holds {queue} packets and the next is dropped: only now \
                     does {cc} see a loss, after filling the whole buffer.",
                    "{t} ms 时队列里有 {queue} 个包，下一个被丢弃：直到填满整个缓冲区，{cc} 才第一次看到丢包。",
                ),
                question: None,
            },
            Part {
                title: t("FQ-CoDel", "FQ-CoDel"),
                keys: "aqm=fq_codel",
                // Before the first ping comes back: any ping on the chart answers the question.
                moment: Moment::At(20.0),
                say: t(
                    "The same upload through FQ-CoDel (RFC 8290): each flow has its own queue, \
                     CoDel drops once packets wait more than 5 ms, and a sparse flow's packets \
                     go first.",
                    "同样的上传换成 FQ-CoDel（RFC 8290）：每条流有自己的队列，包等待超过 5 ms 时 CoDel \
                     就开始丢包，稀疏流的包优先发送。",
                ),
                question: Some(Question {
                    ask: t("What will the ping's round trip be now?", "现在 ping 的往返时间会是多少？"),
                    form: Form::Choice(&[
                        t("About the path's {rtt} ms", "约为路径的 {rtt} ms"),
                        t("A few hundred ms", "几百 ms"),
                        t("A second or more", "一秒或更久"),
                    ]),
                    find: ping_scale,
                    because: t(
                        "Half the pings took {ping} ms or more, and the upload still gets \
                         {goodput} Mbit/s.",
                        "一半的 ping 用了 {ping} ms 或更久，而上传仍有 {goodput} Mbit/s。",
                    ),
                }),
            },
        ],
    },
];
