//! The one line that says what limited a run, in both languages. Which limit it was is the
//! simulator's verdict (`tcplab::theory::verdict`); this only words it, with the numbers that
//! support it.

use tcplab::rate::MBytePerS;
use tcplab::theory::verdict::{Limit, FULL};
use tcplab::view::RunView;

use super::format::{bits_per_s, count, counted, duration, mbytes_per_s, number, percent};
use crate::i18n::Lang;
use crate::worker::PAGE_MAX_EVENTS;

/// The verdict's short name: what a card or a class is called.
pub fn limit_name(limit: Limit) -> &'static str {
    match limit {
        Limit::LinkRate => "link-rate",
        Limit::ReceiveWindow => "receive-window",
        Limit::SlowStart => "slow-start",
        Limit::Loss => "loss",
        Limit::Policer => "policer",
        Limit::HeadOfLine => "head-of-line",
        Limit::WindowGrowth => "window-growth",
        Limit::Unfinished => "unfinished",
        Limit::Application => "application",
    }
}

/// The verdict's title: "Limited by loss".
pub fn title(lang: Lang, limit: Limit) -> &'static str {
    match limit {
        Limit::LinkRate => lang.pick("Limited by the link rate", "瓶颈：链路速率"),
        Limit::ReceiveWindow => lang.pick("Limited by the receive window", "瓶颈：接收窗口"),
        Limit::SlowStart => lang.pick("Limited by slow start", "瓶颈：慢启动"),
        Limit::Loss => lang.pick("Limited by loss", "瓶颈：丢包"),
        Limit::Policer => lang.pick("Limited by a policer", "瓶颈：限速器（监管）"),
        Limit::HeadOfLine => lang.pick("Limited by head-of-line blocking", "瓶颈：队头阻塞"),
        Limit::WindowGrowth => lang.pick("Limited by window growth", "瓶颈：窗口增长"),
        Limit::Unfinished => lang.pick("Unfinished run", "运行未完成"),
        Limit::Application => lang.pick("Limited by the application", "瓶颈：应用程序"),
    }
}

fn share(part: MBytePerS, whole: MBytePerS) -> String {
    if whole.0 > 0.0 && part.is_finite() {
        percent(100.0 * (part / whole))
    } else {
        "—".to_string()
    }
}

/// The sentence after the title: why, in numbers; for a run that stopped early but plainly held
/// by the link or the window, a note that it is unfinished.
pub fn detail(lang: Lang, view: &RunView) -> String {
    let mut text = reason(lang, view);
    let v = &view.verdict;
    if let Some(q) = v.standing_queue_ms {
        let q = duration(q);
        // Bufferbloat is a buffer deeper than the path needs: one that holds more than a round
        // trip of the link's data. A shallower one can still stand partly full under a
        // window that overshoots it; that delay is worth telling, under no such name.
        let bloated = view.theory.full_queue_ms > view.theory.rtt_ms;
        text.push_str(&match (lang, bloated) {
            (Lang::En, true) => format!(
                " Limited by the queue too: {q} of standing queue, which every packet waits behind (bufferbloat)."
            ),
            (Lang::Zh, true) => {
                format!("同时受限于队列：{q} 的常驻队列，每个包都要在它后面等待（缓冲膨胀）。")
            }
            (Lang::En, false) => format!(
                " Every packet also waits {q} in a standing queue, though the buffer holds less than a round trip."
            ),
            (Lang::Zh, false) => {
                format!("每个包还要在常驻队列中等待 {q}，尽管缓冲区容量不到一个往返的数据量。")
            }
        });
    }
    if v.unfinished && v.limit != Limit::Unfinished {
        let at = duration(view.end_ms);
        text.push_str(&match (lang, view.summary.budget_exhausted) {
            (Lang::En, true) => format!(
                " Unfinished: the run stopped at the page's event budget, at {at} of simulated time."
            ),
            (Lang::Zh, true) => format!("（未完成：模拟到 {at} 时用完了页面的事件预算。）"),
            (Lang::En, false) => {
                format!(" Unfinished: the workload was still going at the time limit of {at}.")
            }
            (Lang::Zh, false) => format!("（未完成：到时长上限 {at} 时负载仍在进行。）"),
        });
    }
    text
}

/// A lossy run's goodput this far above the Mathis rate is explained: the law is a long
/// flow's average, which a short run with few losses beats.
const ABOVE_MATHIS: f64 = 1.5;

fn reason(lang: Lang, view: &RunView) -> String {
    let v = &view.verdict;
    let s = &view.summary;
    let g = mbytes_per_s(v.goodput_mbps);
    let link = mbytes_per_s(v.link_mbps);
    let wl = mbytes_per_s(v.window_limit_mbps);
    // Several connections each have a window: the limit is theirs together.
    let n = v.connections;
    let windows = if n > 1 {
        format!("{n} × rwnd / RTT")
    } else {
        "rwnd / RTT".to_string()
    };
    let of_link = share(v.goodput_mbps, v.link_mbps);
    let full = v.goodput_mbps.0 >= v.link_mbps.0 * FULL;
    let rtt = duration(view.theory.rtt_ms);
    match (v.limit, lang) {
        (Limit::LinkRate, Lang::En) => {
            let how = if full {
                "the bottleneck link is full"
            } else {
                "the link is the limit, though not kept full: for part of the run the window was under what the path holds (its start, or after a loss)"
            };
            format!(
                "Goodput {g} is {of_link} of the link's payload rate, {link} ({}): {how}.",
                bits_per_s(v.link_mbps)
            )
        }
        (Limit::LinkRate, Lang::Zh) => {
            let how = if full {
                "瓶颈链路已跑满"
            } else {
                "限制来自链路，但并未一直跑满：有一段时间窗口小于路径能容纳的量（启动阶段，或丢包之后）"
            };
            format!(
                "有效吞吐 {g}，达到链路净荷速率 {link}（{}）的 {of_link}：{how}。",
                bits_per_s(v.link_mbps)
            )
        }
        (Limit::ReceiveWindow, Lang::En) => format!(
            "The receive window allows {windows} = {wl}, under the link's {link}; goodput {g} sits at that cap."
        ),
        (Limit::ReceiveWindow, Lang::Zh) => format!(
            "接收窗口只允许 {windows} = {wl}，低于链路的 {link}；有效吞吐 {g} 顶在这个上限。"
        ),
        (Limit::SlowStart, _) => {
            let done = s.completion_ms.map_or("—".to_string(), duration);
            let rtts = s.completion_rtts.map_or("—".to_string(), |r| number(r, 3));
            let ideal = v.ideal_completion_ms.map_or("—".to_string(), duration);
            let mut text = match lang {
                Lang::En => format!(
                    "The body was done in {done} ({rtts} RTTs of {rtt}) while the window was still doubling; ideal slow start takes {ideal}. Goodput {g} is {of_link} of the link's {link}."
                ),
                Lang::Zh => format!(
                    "数据在 {done}（{rtts} 个 {rtt} 的往返）内传完，窗口还在翻倍；理想慢启动需 {ideal}。有效吞吐 {g}，只有链路 {link} 的 {of_link}。"
                ),
            };
            // Only BBR loses packets and is still held by its start (the verdict's rule): the
            // losses cost their retransmissions, not a cut window.
            let again = s.retransmitted_segments;
            if again > 0 {
                text.push_str(&match lang {
                    Lang::En => format!(
                        " {} sent again cost it time, but BBR cut no window for them.",
                        counted(again, "segment", "segments")
                    ),
                    Lang::Zh => format!("重传 {again} 个报文段耗了些时间，但 BBR 没有因此降窗。"),
                });
            }
            text
        }
        (Limit::Loss, _) => {
            let retrans = s.retrans_bytes_pct.map_or("—".to_string(), percent);
            let mathis = v.mathis_mbps.map(mbytes_per_s);
            let above = v
                .mathis_mbps
                .is_some_and(|m| v.goodput_mbps.0 > ABOVE_MATHIS * m.0);
            let mut text = match (lang, mathis) {
                (Lang::En, Some(m)) => format!(
                    "{retrans} of the bytes were sent again ({}, {}) and every loss cut the window: goodput {g} against the Mathis rate {m}; the link could carry {link}.",
                    counted(s.fast_retransmits, "fast retransmit", "fast retransmits"),
                    counted(s.timeouts, "timeout", "timeouts")
                ),
                (Lang::En, None) => format!(
                    "{retrans} of the bytes were sent again ({}, {}) and every loss cut the window: goodput {g}; the link could carry {link}.",
                    counted(s.fast_retransmits, "fast retransmit", "fast retransmits"),
                    counted(s.timeouts, "timeout", "timeouts")
                ),
                (Lang::Zh, Some(m)) => format!(
                    "{retrans} 的字节被重传（快速重传 {} 次，超时 {} 次），每次丢包都让窗口缩小：有效吞吐 {g}，Mathis 公式给出 {m}；链路本可承载 {link}。",
                    s.fast_retransmits, s.timeouts
                ),
                (Lang::Zh, None) => format!(
                    "{retrans} 的字节被重传（快速重传 {} 次，超时 {} 次），每次丢包都让窗口缩小：有效吞吐 {g}；链路本可承载 {link}。",
                    s.fast_retransmits, s.timeouts
                ),
            };
            // Mathis et al. (1997) is a long flow's average over many losses, each halving the
            // window; a short run with few of them, much of it still growing, beats it.
            if above {
                let losses = s.fast_retransmits + s.timeouts;
                text.push_str(&match lang {
                    Lang::En => format!(
                        " Above the Mathis rate: that is a long flow's average over many losses, and this run had {}.",
                        counted(losses, "loss event", "loss events")
                    ),
                    Lang::Zh => format!(
                        "高于 Mathis 速率：那是长流经历多次丢包后的平均值，而这次运行只有 {losses} 次丢包事件。"
                    ),
                });
            }
            text
        }
        (Limit::Policer, _) => {
            let police = v.police_mbps.unwrap_or(v.link_mbps);
            let rate = mbytes_per_s(police);
            let of_police = share(v.goodput_mbps, police);
            let retrans = s.retrans_bytes_pct.map_or("—".to_string(), percent);
            let dropped = count(s.policer_drops);
            match lang {
                Lang::En => format!(
                    "A policer at {rate} ({}) dropped {dropped} packets the moment its token bucket ran dry, with no queue to hold a burst: {retrans} of the bytes were sent again and goodput is {g}, {of_police} of its rate. A shaper at the same rate queues the bursts instead and keeps its link near full.",
                    bits_per_s(police)
                ),
                Lang::Zh => format!(
                    "一个 {rate}（{}）的限速器在令牌桶用尽的一刻丢掉了 {dropped} 个包，没有队列来容纳突发：{retrans} 的字节被重传，有效吞吐 {g}，只有它速率的 {of_police}。同样速率的整形器会把突发排进队列，让链路接近跑满。",
                    bits_per_s(police)
                ),
            }
        }
        (Limit::HeadOfLine, _) => {
            let events = s.hol.as_ref().map_or(0, |h| h.events);
            let p99 = s
                .msgs
                .as_ref()
                .and_then(|m| m.p99_ms)
                .map_or("—".to_string(), duration);
            let over = s
                .msgs
                .as_ref()
                .and_then(|m| m.over_80ms_pct)
                .map_or("—".to_string(), percent);
            match lang {
                Lang::En => format!(
                    "{events} times a lost segment held every later message in the receive buffer until its retransmission arrived: p99 latency {p99}, {over} of messages over 80 ms."
                ),
                Lang::Zh => format!(
                    "共 {events} 次：一个报文段丢失，其后的消息都被扣在接收缓冲区里，直到重传到达：p99 时延 {p99}，{over} 的消息超过 80 ms。"
                ),
            }
        }
        (Limit::WindowGrowth, Lang::En) => format!(
            "The congestion window had not grown to the path yet: goodput {g} is {of_link} of the link's {link}."
        ),
        (Limit::WindowGrowth, Lang::Zh) => format!(
            "拥塞窗口还没有增长到路径的容量：有效吞吐 {g}，只有链路 {link} 的 {of_link}。"
        ),
        // A message stream's application writes at its own rate, which the path carried.
        (Limit::Application, _) if v.app_mbps.is_some() => {
            let wrote = v.app_mbps.map_or("—".to_string(), mbytes_per_s);
            let of_app = v
                .app_mbps
                .map_or("—".to_string(), |a| share(v.goodput_mbps, a));
            match lang {
                Lang::En => format!(
                    "The application writes {wrote} of messages and the path carried them: goodput {g}, {of_app} of that, where the link could carry {link}. A faster path would not make it faster; more or larger messages would."
                ),
                Lang::Zh => format!(
                    "应用以 {wrote} 的速率写消息，路径把它们都送到了：有效吞吐 {g}，是其 {of_app}，而链路本可承载 {link}。更快的路径不会让它更快；更多或更大的消息才会。"
                ),
            }
        }
        // A capture's: the sender had nothing to send.
        (Limit::Application, Lang::En) => {
            "The sending application paused with nothing in flight: it had nothing to send.".into()
        }
        (Limit::Application, Lang::Zh) => "发送端应用暂停，网络中没有在途数据：它没有数据可发。".into(),
        (Limit::Unfinished, _) => {
            let at = duration(view.end_ms);
            match (lang, s.budget_exhausted) {
                (Lang::En, true) => format!(
                    "The run spent the page's budget of {} events at {at} of simulated time; the numbers cover only that part.",
                    number(PAGE_MAX_EVENTS as f64, 3)
                ),
                (Lang::Zh, true) => format!(
                    "模拟到 {at} 时用完了页面的 {} 个事件预算；数字只反映这一部分。",
                    number(PAGE_MAX_EVENTS as f64, 3)
                ),
                (Lang::En, false) => format!(
                    "The workload had not finished when the run reached its time limit of {at}: raise the duration to see it through."
                ),
                (Lang::Zh, false) => format!(
                    "到达时长上限 {at} 时负载还没完成：加大时长才能看到结果。"
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tcplab::scenario::PRESETS;

    use crate::i18n::Lang;
    use crate::model::verdict;
    use crate::worker::protocol::run_view;

    /// A message stream is held by what its application writes, and the line says that rate
    /// beside the goodput and the link's.
    #[test]
    fn a_message_stream_is_held_by_its_application() {
        let view = run_view("app=msgs");
        assert_eq!(
            verdict::title(Lang::En, view.verdict.limit),
            "Limited by the application"
        );
        let line = verdict::detail(Lang::En, &view);
        assert!(line.starts_with("The application writes 10 kB/s of messages and the path carried them: goodput 9.99 kB/s, 99.9 % of that"), "{line}");
        assert!(
            line.contains("A faster path would not make it faster"),
            "{line}"
        );
        assert!(verdict::detail(Lang::Zh, &view).starts_with("应用以 10 kB/s 的速率写消息"));
    }

    /// Bufferbloat is named where the buffer is deeper than a round trip of the link, not for
    /// every standing queue.
    #[test]
    fn only_a_deep_buffer_is_called_bufferbloat() {
        let deep = run_view("preset=bufferbloat&dur=5");
        assert!(verdict::detail(Lang::En, &deep).contains("(bufferbloat)"));
        // Half a BDP of buffer under CUBIC and BBR: a standing queue, not a bloated buffer.
        let shallow = run_view("preset=bbr-vs-cubic&dur=5");
        assert!(shallow.verdict.standing_queue_ms.is_some());
        let said = verdict::detail(Lang::En, &shallow);
        assert!(
            !said.contains("bufferbloat") && said.contains("standing queue"),
            "{said}"
        );
    }

    /// The link is called full only where the goodput nearly reaches it: a run held by the
    /// link at three quarters of it says what the rest went to.
    #[test]
    fn a_link_held_run_is_called_full_only_near_the_link() {
        let full = run_view("app=bulk&bw=100&rtt=20");
        let said = verdict::detail(Lang::En, &full);
        assert!(said.contains("the bottleneck link is full"), "{said}");
        let short = run_view("cc=bbr&rtt=80&bw=20&loss=0.5&dur=30");
        assert_eq!(
            verdict::title(Lang::En, short.verdict.limit),
            "Limited by the link rate"
        );
        let of_link = short.verdict.goodput_mbps / short.verdict.link_mbps;
        assert!((0.7..0.9).contains(&of_link), "{of_link}");
        let said = verdict::detail(Lang::En, &short);
        assert!(
            !said.contains("is full") && said.contains("not kept full"),
            "{said}"
        );
        assert!(verdict::detail(Lang::Zh, &short).contains("并未一直跑满"));
    }

    /// BBR's losses cost retransmissions, not a window: its body is told as slow start, with
    /// the segments sent again.
    #[test]
    fn a_short_lossy_run_above_the_mathis_rate_says_why() {
        // A 2.5 MB body at 0.5 % loss over 80 ms: a handful of losses, goodput several times
        // the Mathis rate, which is a long flow's average.
        let v = run_view("rtt=80&bw=100&loss=0.5");
        assert_eq!(v.verdict.limit, tcplab::theory::verdict::Limit::Loss);
        let m = v.verdict.mathis_mbps.expect("a Mathis rate").0;
        assert!(v.verdict.goodput_mbps.0 > 1.5 * m);
        let said = verdict::detail(Lang::En, &v);
        assert!(said.contains("Above the Mathis rate"), "{said}");
        assert!(verdict::detail(Lang::Zh, &v).contains("高于 Mathis 速率"));
        // A long bulk flow at 2 % loss sits near the law: nothing to explain.
        let long = run_view("app=bulk&rtt=40&bw=100&loss=2&dur=60");
        assert_eq!(long.verdict.limit, tcplab::theory::verdict::Limit::Loss);
        let said = verdict::detail(Lang::En, &long);
        assert!(!said.contains("Above the Mathis rate"), "{said}");
    }

    #[test]
    fn a_lossy_bbr_body_is_held_by_its_start() {
        let v = run_view("cc=bbr&loss=1&rtt=80");
        assert_eq!(
            verdict::title(Lang::En, v.verdict.limit),
            "Limited by slow start"
        );
        let said = verdict::detail(Lang::En, &v);
        assert!(
            said.contains("sent again") && !said.contains("Mathis"),
            "{said}"
        );
    }

    #[test]
    fn every_preset_gets_a_verdict_in_both_languages() {
        for p in PRESETS {
            if p.name == "random-loss-bbr" || p.name == "multi-flow" {
                // Long runs: the end-to-end tests cover them.
                continue;
            }
            let view = run_view(&format!("preset={}", p.name));
            // The verdict's name differs in the two languages: each has its own words.
            let titles = Lang::ALL.map(|lang| verdict::title(lang, view.verdict.limit));
            assert_ne!(titles[0], titles[1], "{}", p.name);
            for lang in Lang::ALL {
                let detail = verdict::detail(lang, &view);
                assert!(detail.len() > 20, "{}: {detail}", p.name);
                assert!(
                    !detail.contains("NaN") && !detail.contains("inf"),
                    "{detail}"
                );
            }
        }
    }
}
