//! The headline: what limited the run in one line, and the numbers the seed posts lead with
//! (goodput; completion in ms and in round trips; retransmitted share; measured against
//! Mathis; p99 message latency). Each number keeps the runner's exact value in `data-raw`.

use crate::charts::ViewRef;
use tcplab::rate::MBytePerS;

use tcplab::theory::verdict::Limit;
use tcplab::view::RunView;
use tcplab::App;
use yew::prelude::*;

use crate::i18n::Lang;
use crate::model::format::{
    bits_per_s, count, duration, mbytes_per_s, number, percent, unbroken, MICROSECONDS_UNDER_MS,
};
use crate::model::path_words;
use crate::model::verdict;
use crate::worker::PAGE_MAX_EVENTS;

#[derive(Properties, PartialEq)]
pub struct HeadlineProps {
    pub view: Option<ViewRef>,
    pub lang: Lang,
    /// The view is for an older scenario: a newer run is going.
    pub running: bool,
    /// The run of the scenario on show failed.
    #[prop_or_default]
    pub failure: Option<String>,
    /// The workload of the scenario on show (a card that does not apply says so).
    pub app: App,
    /// Show the run beside the same under the FIFO, CoDel and FQ-CoDel.
    pub on_compare: Callback<()>,
}

/// A number, its unit, and its exact value for machines.
struct Shown {
    num: String,
    unit: &'static str,
    raw: Option<f64>,
}

fn shown(raw: Option<f64>, unit: &'static str, digits: i32) -> Shown {
    Shown {
        num: raw.map_or("—".to_string(), |v| number(v, digits)),
        unit: if raw.is_some() { unit } else { "" },
        raw,
    }
}

/// A rate in MB/s, in kB/s below a tenth of one, as [`crate::model::format::mbytes_per_s`]
/// writes it; `data-raw` keeps the MB/s.
fn shown_rate(raw: Option<f64>) -> Shown {
    match raw {
        Some(r) if r > 0.0 && r < 0.1 => Shown {
            num: number(r * 1000.0, 3),
            unit: "kB/s",
            raw,
        },
        _ => shown(raw, "MB/s", 3),
    }
}

/// The completion time in its parts, which add up to it: the handshake, the first byte's
/// way to the receiver (the transfer is timed from its arrival), and the body; where the parts
/// do not add up (several connections, each its own), the body and the handshake alone.
fn parts(lang: Lang, completion: Option<f64>, handshake: Option<f64>, body: f64) -> String {
    let Some(h) = handshake else {
        return format!(
            "{} {}",
            lang.pick("the body alone", "仅正文"),
            duration(body)
        );
    };
    match completion.map(|c| c - h - body) {
        Some(trip) if trip >= 0.0 => match lang {
            Lang::En => format!(
                "handshake {} + first byte's trip {} + the body {}",
                duration(h),
                duration(trip),
                duration(body)
            ),
            Lang::Zh => format!(
                "握手 {} + 首字节送达 {} + 正文 {}",
                duration(h),
                duration(trip),
                duration(body)
            ),
        },
        _ => format!(
            "{} {} · {} {}",
            lang.pick("the body alone", "仅正文"),
            duration(body),
            lang.pick("handshake", "握手"),
            duration(h)
        ),
    }
}

/// A duration in ms shown in ms or s.
fn shown_ms(raw: Option<f64>) -> Shown {
    match raw {
        Some(ms) if ms >= 1000.0 => Shown {
            num: number(ms / 1000.0, 3),
            unit: "s",
            raw,
        },
        // As `format::duration` writes it.
        Some(ms) if ms > 0.0 && ms < MICROSECONDS_UNDER_MS => Shown {
            num: number(ms * 1000.0, 3),
            unit: "µs",
            raw,
        },
        Some(ms) => Shown {
            num: number(ms, 4),
            unit: "ms",
            raw,
        },
        None => shown(None, "", 0),
    }
}

fn card(id: &str, title: &str, value: Shown, sub: Html) -> Html {
    html! {
        <div class="card" id={id.to_string()}>
            <h3>{ title.to_string() }</h3>
            <p class="big">
                <span class="num" data-raw={value.raw.map(|v| v.to_string()).unwrap_or_default()}>
                    { value.num }
                </span>
                if !value.unit.is_empty() {
                    <span class="unit">{ value.unit }</span>
                }
            </p>
            <p class="sub">{ sub }</p>
        </div>
    }
}

/// Why the Mathis formula does not describe this run, if it does not: it models a sender that
/// always has data, whose window only random loss holds (Mathis et al. 1997).
fn mathis_not_applicable(lang: Lang, app: App, view: &RunView) -> Option<&'static str> {
    let s = &view.summary;
    if s.mathis_MBps.is_none() {
        Some(lang.pick(
            "no random loss, no Mathis rate",
            "无随机丢包，不适用 Mathis",
        ))
    } else if s.dropped_data == 0 {
        Some(lang.pick(
            "no segment was lost at random in this run",
            "本次运行没有报文段被随机丢弃",
        ))
    } else if app == App::Msgs {
        // A body, like a bulk flow, has all its data from the start: only messages wait on
        // the application.
        Some(lang.pick(
            "the application, not loss, limits the sender (Mathis assumes it always has data)",
            "限制发送方的是应用而非丢包（Mathis 假设发送方总有数据）",
        ))
    } else if view.verdict.limit == Limit::SlowStart {
        Some(lang.pick(
            "the body was done in slow start, before the sawtooth the formula describes",
            "数据在慢启动中就已传完，还没进入公式描述的锯齿阶段",
        ))
    } else if view.verdict.limit == Limit::ReceiveWindow {
        Some(lang.pick(
            "the receive window, not loss, limits the sender",
            "限制发送方的是接收窗口而非丢包",
        ))
    } else {
        None
    }
}

/// Latency under load: the probe's round trips where a probe runs (what a call or a game feels
/// beside the transfer), else the queue's wait; then how the queue got there, and the
/// comparison of disciplines one click away.
fn latency_under_load(lang: Lang, view: &RunView, on_compare: Callback<()>) -> Html {
    let s = &view.summary;
    let probe = s.probe.as_ref();
    let queue = s.queue_delay_ms.as_ref();
    let (title, big) = match probe {
        Some(p) => (
            lang.pick("Ping p99 under load", "负载下 ping p99"),
            shown_ms(p.p99_ms),
        ),
        None => (
            lang.pick("Queue wait p99", "排队时延 p99"),
            shown_ms(queue.map(|q| q.p99)),
        ),
    };
    let ms = |v: Option<f64>| v.map_or("—".to_string(), duration);
    let aqm = crate::controls::aqm_label(view.theory.aqm);
    let onclick = Callback::from(move |_: MouseEvent| on_compare.emit(()));
    let sub = html! {
        <>
            if let Some(p) = probe {
                <span id="probe-summary" data-p50={p.p50_ms.map(|v| v.to_string()).unwrap_or_default()}
                    data-lost={p.lost.to_string()}>
                    { unbroken(&match lang {
                        Lang::En => format!("ping p50 {} · jitter {} · {} lost, base RTT {}",
                            ms(p.p50_ms), ms(p.jitter_ms), count(p.lost), duration(view.theory.rtt_ms)),
                        Lang::Zh => format!("ping p50 {} · 抖动 {} · 丢失 {}，基础 RTT {}",
                            ms(p.p50_ms), ms(p.jitter_ms), count(p.lost), duration(view.theory.rtt_ms)),
                    }) }
                </span>
                <br />
            }
            <span id="queue-summary">
                { unbroken(&match lang {
                    Lang::En => format!("{aqm}: queue wait p50 {} · p99 {}",
                        ms(queue.map(|q| q.p50)), ms(queue.map(|q| q.p99))),
                    Lang::Zh => format!("{aqm}：排队时延 p50 {} · p99 {}",
                        ms(queue.map(|q| q.p50)), ms(queue.map(|q| q.p99))),
                }) }
                if s.aqm_drops > 0 || s.ecn_marks > 0 {
                    { match lang {
                        Lang::En => format!(" · {} dropped early · {} marked CE", count(s.aqm_drops), count(s.ecn_marks)),
                        Lang::Zh => format!(" · 提前丢弃 {} · CE 标记 {}", count(s.aqm_drops), count(s.ecn_marks)),
                    } }
                }
            </span>
            if probe.is_none() {
                <br />
                <span class="sub-note">{ lang.pick("set “Ping every” to measure a ping beside the load",
                    "设置“Ping 间隔”可测量负载旁的 ping") }</span>
            }
            <br />
            <button type="button" class="mini" id="compare-queues" {onclick}>
                { unbroken(lang.pick("Compare FIFO · CoDel · FQ-CoDel", "对比 FIFO · CoDel · FQ-CoDel")) }
            </button>
        </>
    };
    card("card-latency", title, big, sub)
}

#[function_component]
pub fn Headline(props: &HeadlineProps) -> Html {
    let lang = props.lang;
    let state = if props.failure.is_some() {
        "failed"
    } else if props.running {
        "running"
    } else {
        "done"
    };
    let Some(view) = &props.view else {
        return html! {
            <section class="headline" id="headline" data-state={state} aria-busy="true">
                <p class="verdict pending">{ if props.failure.is_some() {
                    lang.pick("No run to show.", "没有可显示的运行。")
                } else {
                    lang.pick("The first run is on its way.", "第一次运行正在进行。")
                } }</p>
                if let Some(f) = &props.failure {
                    <p class="run-failure" role="alert">{ f.clone() }</p>
                }
            </section>
        };
    };
    let s = &view.summary;
    let v = &view.verdict;
    let limit = verdict::limit_name(v.limit);

    let goodput = card(
        "card-goodput",
        lang.pick("Goodput", "有效吞吐"),
        shown_rate(s.goodput_MBps),
        html! {
            <>
                { s.goodput_MBps.map(|g| unbroken(&bits_per_s(MBytePerS(g)))).unwrap_or_default() }
                if let Some(g) = s.goodput_MBps {
                    { unbroken(&match lang {
                        Lang::En => format!(" · {} of link", percent(100.0 * (MBytePerS(g) / v.link_mbps))),
                        Lang::Zh => format!(" · 占链路 {}", percent(100.0 * (MBytePerS(g) / v.link_mbps))),
                    }) }
                }
                if let Some(j) = s.jain_fairness {
                    <br />
                    { format!("{} {}", lang.pick("Jain fairness", "Jain 公平指数"), number(j, 3)) }
                }
                <br />
                <span class="sub-note">{ lang.pick("from the first data byte: the handshake is not counted",
                    "从第一个数据字节算起：不含握手") }</span>
            </>
        },
    );
    let completion = card(
        "card-completion",
        lang.pick("Completion", "完成时间"),
        shown_ms(s.completion_ms),
        match s.completion_rtts {
            Some(r) => html! {
                <>
                    <span class="num2" data-raw={r.to_string()}>{ number(r, 3) }</span>
                    { lang.pick(" RTTs, with the handshake (as curl times it)", " 个 RTT，含握手（与 curl 的计时相同）") }
                    if let Some(t) = s.transfer_ms {
                        <br />
                        <span class="sub-note" id="card-transfer" data-raw={t.to_string()}>
                            { unbroken(&parts(lang, s.completion_ms, s.handshake_ms, t)) }
                        </span>
                    }
                </>
            },
            None if props.app == App::Bulk => {
                html! { lang.pick("bulk: sends for the whole duration", "持续发送：没有完成时间") }
            }
            None if s.time_limit_reached || s.budget_exhausted => {
                html! { lang.pick("not finished", "未完成") }
            }
            None => html! { lang.pick("n/a", "不适用") },
        },
    );
    let retrans = card(
        "card-retrans",
        lang.pick("Retransmitted", "重传"),
        shown(s.retrans_bytes_pct, "%", 3),
        html! {
            { format!("{} / {} {}", count(s.retransmitted_segments), count(s.data_segments_sent),
                lang.pick("segments", "段")) }
        },
    );
    let why_not = mathis_not_applicable(lang, props.app, view);
    let ratio = match (s.goodput_MBps, s.mathis_MBps, why_not) {
        (Some(g), Some(m), None) if m > 0.0 => Some(g / m),
        _ => None,
    };
    let mathis = card(
        "card-mathis",
        lang.pick("Measured / Mathis", "实测 / Mathis"),
        shown(ratio, "×", 3),
        match (why_not, s.mathis_MBps) {
            (None, Some(m)) => html! { format!("Mathis {}", mbytes_per_s(MBytePerS(m))) },
            (Some(why), _) => html! { <span class="why-not">{ why }</span> },
            (None, None) => Html::default(),
        },
    );
    let p99 = s.msgs.as_ref().and_then(|m| m.p99_ms);
    let latency = card(
        "card-p99",
        lang.pick("p99 latency", "p99 时延"),
        shown_ms(p99),
        match &s.msgs {
            Some(m) => html! {
                <>
                    { format!("p50 {}", m.p50_ms.map_or("—".to_string(), duration)) }
                    { match lang {
                        Lang::En => format!(" · {} lost", count(m.lost)),
                        Lang::Zh => format!(" · 丢失 {}", count(m.lost)),
                    } }
                </>
            },
            None => html! { lang.pick("messages workload only", "仅消息负载") },
        },
    );

    let under_load = latency_under_load(lang, view, props.on_compare.clone());

    let command = format!("tcplab run '{}'", view.query);
    let scenario = crate::model::link_trace::scenario_of(&view.query);
    html! {
        <section class={classes!("headline", props.running.then_some("stale"))} id="headline"
            data-state={state} data-query={view.query.clone()} aria-busy={props.running.to_string()}>
            if let Some(s) = &scenario {
                <p class="scenario-line" id="scenario-line">
                    if let Some(p) = path_words::preset_shown(s, &view.query) {
                        <span class="preset-said"><strong>{ p.name }</strong>{ ": " }{ unbroken(lang.pick(p.en, p.zh)) }</span>
                        { " " }
                    }
                    <span class="path-words">{ unbroken(&path_words::path_words(s, lang)) }</span>
                </p>
            }
            <p class={classes!("verdict", format!("limit-{limit}"))} id="verdict" data-limit={limit}>
                <strong>{ verdict::title(lang, v.limit) }</strong>
                { " " }
                <span class="verdict-detail">{ unbroken(&verdict::detail(lang, view)) }</span>
            </p>
            if s.budget_exhausted {
                <p class="notice" id="budget" role="alert">
                    { match lang {
                        Lang::En => format!("This run needs more than the page's {} events, so it stopped early. Shorten the duration or lower the rate, or run it in full on the command line: ",
                            number(PAGE_MAX_EVENTS as f64, 3)),
                        Lang::Zh => format!("这次运行超过了页面的 {} 个事件预算，已提前停止。请缩短时长或降低速率，或在命令行完整运行：",
                            number(PAGE_MAX_EVENTS as f64, 3)),
                    } }
                    <code>{ command }</code>
                </p>
            }
            if let Some(f) = &props.failure {
                <p class="run-failure" role="alert">{ f.clone() }</p>
            }
            <div class="cards">
                { goodput }{ completion }{ retrans }{ mathis }
                // Message latency where messages are sent; otherwise latency under the load
                // takes its place (it stays for messages too: a probe beside them).
                if props.app == App::Msgs {
                    { latency }
                }
                { under_load }
            </div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct PeekProps {
    pub view: Option<ViewRef>,
    pub lang: Lang,
    pub running: bool,
}

/// The run's verdict and its numbers in one line at the foot of the screen while the settings
/// are in view on a narrow screen, where the results are above them: a reader moving a slider
/// there sees what it did without scrolling up. The headline above says it in full (for screen
/// readers too: this line repeats it, so it is hidden from them).
#[function_component]
pub fn Peek(props: &PeekProps) -> Html {
    let lang = props.lang;
    let Some(view) = &props.view else {
        return Html::default();
    };
    let s = &view.summary;
    let mut numbers = Vec::new();
    if let Some(g) = s.goodput_MBps {
        numbers.push(mbytes_per_s(MBytePerS(g)));
    }
    if let Some(ms) = s.completion_ms {
        numbers.push(duration(ms));
    }
    html! {
        <p class={classes!("run-peek", format!("limit-{}", verdict::limit_name(view.verdict.limit)))}
            id="run-peek" aria-hidden="true" data-running={props.running.to_string()}>
            <strong>{ verdict::title(lang, view.verdict.limit) }</strong>
            { for numbers.into_iter().map(|n| html! { <>{ " · " }<span class="peek-num">{ n }</span></> }) }
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcplab::Scenario;

    fn view(query: &str) -> RunView {
        let s = Scenario::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"));
        tcplab_wire::page_view(&s)
    }

    /// The card and the verdict above it speak of one run: where the verdict says loss held
    /// the window and cites the Mathis rate, the card compares with that rate too.
    #[test]
    fn a_lossy_body_is_compared_with_mathis_as_the_verdict_does() {
        let v = view("rtt=50&bw=20&loss=0.5");
        assert_eq!(v.verdict.limit, Limit::Loss);
        assert!(v.verdict.mathis_mbps.is_some());
        assert_eq!(mathis_not_applicable(Lang::En, App::Body, &v), None);
    }

    #[test]
    fn the_completion_parts_add_up() {
        let v = view("rtt=28");
        let s = &v.summary;
        let (c, h, t) = (
            s.completion_ms.unwrap_or(f64::NAN),
            s.handshake_ms.unwrap_or(f64::NAN),
            s.transfer_ms.unwrap_or(f64::NAN),
        );
        let said = parts(Lang::En, s.completion_ms, s.handshake_ms, t);
        // 28 ms of handshake, the first segment's 14 ms one way, then the body.
        assert!((c - h - t - 14.0).abs() < 1.0, "{c} {h} {t}");
        assert!(
            said.starts_with("handshake 28 ms + first byte's trip 14"),
            "{said}"
        );
        assert_eq!(
            parts(Lang::En, None, None, t),
            format!("the body alone {}", duration(t))
        );
    }

    #[test]
    fn a_trickle_reads_in_kilobytes_as_the_verdict_writes_it() {
        let r = shown_rate(Some(0.00118));
        assert_eq!((r.num.as_str(), r.unit), ("1.18", "kB/s"));
        assert_eq!(
            crate::model::format::mbytes_per_s(MBytePerS(0.00118)),
            format!("{} {}", r.num, r.unit)
        );
        let r = shown_rate(Some(11.6));
        assert_eq!((r.num.as_str(), r.unit), ("11.6", "MB/s"));
        assert_eq!(shown_rate(None).unit, "");
    }

    #[test]
    fn messages_wait_on_the_application_so_mathis_does_not_apply() {
        let v = view("app=msgs&rtt=50&bw=20&loss=0.5&dur=10");
        assert!(v.summary.dropped_data > 0);
        let why = mathis_not_applicable(Lang::En, App::Msgs, &v);
        assert!(why.is_some_and(|w| w.contains("application")), "{why:?}");
    }
}
