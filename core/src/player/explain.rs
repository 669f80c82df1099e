//! Every step said in words, with its numbers, in English and Chinese: what the teacher reads
//! out. Sequence numbers are relative, as Wireshark shows them (the first data byte is 1);
//! windows are in MSS.

use super::step::{CaLabel, DropCauseLabel, Growth, Step, StepKind, Steps};
use crate::cc::INFINITE_SSTHRESH_BYTES;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    En,
    Zh,
}

/// A window in MSS as the explanations and the player's readouts write it: whole where it is
/// whole, else one decimal.
pub fn mss(bytes: u64, mss: u32) -> String {
    let v = bytes as f64 / f64::from(mss.max(1));
    if (v - v.round()).abs() < 0.05 {
        format!("{}", v.round() as u64)
    } else {
        format!("{v:.1}")
    }
}

/// A duration in ms: one decimal below 100 ms, whole above (an RTO of seconds fits its box).
pub fn ms(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The relative sequence number of byte offset `seq`.
fn rel(seq: u64) -> u64 {
    seq + 1
}

fn segments(bytes: u64, mss: u32) -> String {
    let n = bytes.div_ceil(u64::from(mss.max(1)));
    n.to_string()
}

/// The algorithm's reduction on loss, as a formula.
fn reduction(cc: &str, lang: Language) -> &'static str {
    match (cc, lang) {
        ("reno", Language::En) => "cwnd × 0.5 (Reno)",
        ("reno", Language::Zh) => "cwnd × 0.5（Reno）",
        ("cubic", Language::En) => "cwnd × 717/1024 (CUBIC)",
        ("cubic", Language::Zh) => "cwnd × 717/1024（CUBIC）",
        (_, Language::En) => "left to BBR's model",
        (_, Language::Zh) => "由 BBR 的模型决定",
    }
}

fn backed_off(n: u32, lang: Language) -> String {
    match (n, lang) {
        (0, Language::En) => String::new(),
        (1, Language::En) => " (backed off once)".into(),
        (2, Language::En) => " (backed off twice)".into(),
        (n, Language::En) => format!(" (backed off {n} times)"),
        (0, Language::Zh) => String::new(),
        (n, Language::Zh) => format!("（已退避 {n} 次）"),
    }
}

/// The sentence for one step.
pub fn explain(step: &Step, steps: &Steps, lang: Language) -> String {
    let m = steps.mss;
    let st = &step.state;
    let zh = lang == Language::Zh;
    match step.kind {
        StepKind::SynSent { retry: 0 } => lang_pick(
            lang,
            "SYN sent: the client opens the connection (three-way handshake).".into(),
            "发送 SYN：客户端发起连接（三次握手）。".into(),
        ),
        StepKind::SynSent { retry } => lang_pick(
            lang,
            format!("SYN sent again (try {}): the last one was lost; the timer doubles (RFC 6298).", retry + 1),
            format!("再次发送 SYN（第 {} 次）：上一个丢失了，计时器加倍（RFC 6298）。", retry + 1),
        ),
        StepKind::SynReceived => lang_pick(
            lang,
            "SYN arrives at the server, which answers with a SYN-ACK.".into(),
            "SYN 到达服务器，服务器回复 SYN-ACK。".into(),
        ),
        StepKind::Established { rtt_ms } => {
            let rtt = rtt_ms.map(ms).unwrap_or_else(|| "?".into());
            lang_pick(
                lang,
                format!(
                    "SYN-ACK arrives after {rtt} ms: connected, with a first RTT sample; the sender may now send its initial window of {} MSS.",
                    mss(st.cwnd, m)
                ),
                format!(
                    "SYN-ACK 在 {rtt} ms 后到达：连接建立并得到第一个 RTT 样本；发送方现在可以发出 {} MSS 的初始窗口。",
                    mss(st.cwnd, m)
                ),
            )
        }
        StepKind::Sent { seq, len } => lang_pick(
            lang,
            format!(
                "Sends {}:{} ({len} B): {} of cwnd {} MSS now in flight.",
                rel(seq),
                rel(seq + u64::from(len)),
                mss(st.in_flight, m),
                mss(st.cwnd, m)
            ),
            format!(
                "发送 {}:{}（{len} 字节）：在途 {} MSS，cwnd {} MSS。",
                rel(seq),
                rel(seq + u64::from(len)),
                mss(st.in_flight, m),
                mss(st.cwnd, m)
            ),
        ),
        StepKind::Retransmitted { seq, len } => lang_pick(
            lang,
            format!("Retransmits {} ({len} B).", rel(seq)),
            format!("重传 {}（{len} 字节）。", rel(seq)),
        ),
        StepKind::LossProbe { seq, .. } => lang_pick(
            lang,
            format!(
                "No ACK for about two RTTs: a tail loss probe sends {} to draw an ACK that shows what was lost (RFC 8985).",
                rel(seq)
            ),
            format!("约两个 RTT 没有收到 ACK：尾部丢失探测发送 {}，引出能暴露丢包的 ACK（RFC 8985）。", rel(seq)),
        ),
        StepKind::DataLost { seq, cause } => match (cause, zh) {
            (DropCauseLabel::Random, false) => format!("Segment {} is lost on the link (random loss).", rel(seq)),
            (DropCauseLabel::Random, true) => format!("报文段 {} 在链路上丢失（随机丢包）。", rel(seq)),
            (DropCauseLabel::QueueFull, false) => format!(
                "Segment {} is dropped: the bottleneck's queue is full ({} packets waiting).",
                rel(seq),
                st.queue
            ),
            (DropCauseLabel::QueueFull, true) => {
                format!("报文段 {} 被丢弃：瓶颈队列已满（{} 个包在排队）。", rel(seq), st.queue)
            }
            (DropCauseLabel::Staged, false) => {
                format!("Segment {} is dropped on purpose: the lesson's staged loss.", rel(seq))
            }
            (DropCauseLabel::Staged, true) => format!("报文段 {} 被有意丢弃：本课设定的丢包。", rel(seq)),
        },
        StepKind::DatagramLost { id, .. } => lang_pick(
            lang,
            format!("Datagram {id} is lost; UDP never sends it again."),
            format!("数据报 {id} 丢失；UDP 不会重传它。"),
        ),
        StepKind::AckLost { ack } => lang_pick(
            lang,
            format!("ACK {} is lost on the way back; the next cumulative ACK covers it.", rel(ack)),
            format!("ACK {} 在返回途中丢失；下一个累积 ACK 会覆盖它。", rel(ack)),
        ),
        StepKind::DataArrived { seq, len, in_order, delivered, held } => {
            if !in_order {
                lang_pick(
                    lang,
                    format!(
                        "Segment {} arrives out of order: it waits in the receive buffer ({held} B held behind the hole) and the receiver ACKs at once.",
                        rel(seq)
                    ),
                    format!(
                        "报文段 {} 乱序到达：留在接收缓冲区（空洞之后共 {held} 字节在等待），接收方立即回 ACK。",
                        rel(seq)
                    ),
                )
            } else if delivered > u64::from(len) {
                lang_pick(
                    lang,
                    format!(
                        "Segment {} fills the hole: {delivered} B reach the application at once.",
                        rel(seq)
                    ),
                    format!("报文段 {} 填上空洞：{delivered} 字节一次性交给应用。", rel(seq)),
                )
            } else if delivered == 0 {
                lang_pick(
                    lang,
                    format!("Segment {} arrives again: a duplicate, ACKed at once.", rel(seq)),
                    format!("报文段 {} 重复到达：立即回 ACK。", rel(seq)),
                )
            } else {
                lang_pick(
                    lang,
                    format!("Segment {} arrives in order: {delivered} B go to the application.", rel(seq)),
                    format!("报文段 {} 按序到达：{delivered} 字节交给应用。", rel(seq)),
                )
            }
        }
        StepKind::DatagramArrived { id } => lang_pick(
            lang,
            format!("Datagram {id} arrives and is read at once."),
            format!("数据报 {id} 到达并立即被读取。"),
        ),
        StepKind::AckSent { ack, sack_blocks, delayed } => {
            let (d_en, d_zh) = if delayed {
                (" when the delayed-ACK timer fires", "（延迟 ACK 计时器到期）")
            } else {
                ("", "")
            };
            let (s_en, s_zh) = if sack_blocks > 0 {
                (format!(" with {sack_blocks} SACK block(s)"), format!("，带 {sack_blocks} 个 SACK 块"))
            } else {
                (String::new(), String::new())
            };
            lang_pick(
                lang,
                format!("The receiver sends ACK {}{d_en}{s_en}.", rel(ack)),
                format!("接收方发送 ACK {}{d_zh}{s_zh}。", rel(ack)),
            )
        }
        StepKind::AckArrived { ack, acked, sacked, growth, cwnd_before, cwnd_after } => {
            let k = segments(acked, m);
            let (b, a) = (mss(cwnd_before, m), mss(cwnd_after, m));
            let sack_en = if sacked > 0 {
                format!(" (and SACKs {} more)", segments(sacked, m))
            } else {
                String::new()
            };
            let sack_zh = if sacked > 0 {
                format!("（另有 {} 个被 SACK 确认）", segments(sacked, m))
            } else {
                String::new()
            };
            match (growth, zh) {
                (Growth::SlowStart, false) => format!(
                    "ACK {} acknowledges {k} segment(s){sack_en}: slow start, cwnd {b} -> {a} MSS.",
                    rel(ack)
                ),
                (Growth::SlowStart, true) => {
                    format!("ACK {} 确认 {k} 个报文段{sack_zh}：慢启动，cwnd {b} -> {a} MSS。", rel(ack))
                }
                (Growth::CongestionAvoidance, false) => format!(
                    "ACK {} acknowledges {k} segment(s){sack_en}: congestion avoidance, cwnd {b} -> {a} MSS.",
                    rel(ack)
                ),
                (Growth::CongestionAvoidance, true) => {
                    format!("ACK {} 确认 {k} 个报文段{sack_zh}：拥塞避免，cwnd {b} -> {a} MSS。", rel(ack))
                }
                (Growth::Model, false) => format!(
                    "ACK {} acknowledges {k} segment(s){sack_en}: BBR sets cwnd {b} -> {a} MSS from its bandwidth and RTT estimates.",
                    rel(ack)
                ),
                (Growth::Model, true) => format!(
                    "ACK {} 确认 {k} 个报文段{sack_zh}：BBR 按带宽与 RTT 估计把 cwnd 设为 {b} -> {a} MSS。",
                    rel(ack)
                ),
                (Growth::Held, false) => {
                    let why = if st.ca == CaLabel::Recovery {
                        "in recovery the window does not grow"
                    } else {
                        "the window is not what limits the sender"
                    };
                    format!("ACK {} acknowledges {k} segment(s){sack_en}; cwnd stays {a} MSS: {why}.", rel(ack))
                }
                (Growth::Held, true) => {
                    let why = if st.ca == CaLabel::Recovery {
                        "恢复期间窗口不增长"
                    } else {
                        "窗口不是发送的瓶颈"
                    };
                    format!("ACK {} 确认 {k} 个报文段{sack_zh}；cwnd 保持 {a} MSS：{why}。", rel(ack))
                }
            }
        }
        StepKind::DuplicateAck { ack, count } => lang_pick(
            lang,
            format!(
                "Duplicate ACK #{count} for {}: the receiver is still missing that byte.",
                rel(ack)
            ),
            format!("第 {count} 个重复 ACK（{}）：接收方仍缺这个字节。", rel(ack)),
        ),
        // BBR keeps no ssthresh (it stays Linux's "infinite"): its window comes from its model.
        StepKind::FastRetransmit { seq, cwnd_before, cwnd_after, ssthresh } if ssthresh >= INFINITE_SSTHRESH_BYTES => lang_pick(
            lang,
            format!(
                "Loss detected (duplicate ACKs / SACK): fast retransmit of {}; BBR keeps no ssthresh and sets the window from its model: cwnd {} -> {} MSS.",
                rel(seq),
                mss(cwnd_before, m),
                mss(cwnd_after, m)
            ),
            format!(
                "检测到丢包（重复 ACK / SACK）：快速重传 {}；BBR 不使用 ssthresh，按其模型设定窗口：cwnd {} -> {} MSS。",
                rel(seq),
                mss(cwnd_before, m),
                mss(cwnd_after, m)
            ),
        ),
        StepKind::FastRetransmit { seq, cwnd_before, cwnd_after, ssthresh } => {
            let how = reduction(&steps.cc, lang);
            lang_pick(
                lang,
                format!(
                    "Loss detected (duplicate ACKs / SACK): fast retransmit of {}; ssthresh = {how} = {} MSS. cwnd {} -> {} MSS: what is in flight plus the retransmission, and PRR (RFC 6937) brings it down to ssthresh over the next round trip.",
                    rel(seq),
                    mss(ssthresh, m),
                    mss(cwnd_before, m),
                    mss(cwnd_after, m)
                ),
                format!(
                    "检测到丢包（重复 ACK / SACK）：快速重传 {}；ssthresh = {how} = {} MSS。cwnd {} -> {} MSS：在途数据加上这次重传，PRR（RFC 6937）在下一个往返内把它降到 ssthresh。",
                    rel(seq),
                    mss(ssthresh, m),
                    mss(cwnd_before, m),
                    mss(cwnd_after, m)
                ),
            )
        }
        StepKind::RecoveryDone { cwnd } => lang_pick(
            lang,
            format!(
                "Recovery complete: everything sent before the loss is acknowledged; cwnd = ssthresh = {} MSS, growth resumes.",
                mss(cwnd, m)
            ),
            format!("恢复完成：丢包前发出的数据全部被确认；cwnd = ssthresh = {} MSS，窗口重新增长。", mss(cwnd, m)),
        ),
        StepKind::Timeout { rto_ms, backoff, cwnd_before, ssthresh } if ssthresh >= INFINITE_SSTHRESH_BYTES => {
            let twice = backed_off(backoff.saturating_sub(1), lang);
            lang_pick(
                lang,
                format!(
                    "RTO fired after {} ms{twice}: cwnd {} -> 1 MSS (BBR keeps no ssthresh); everything unacknowledged is resent.",
                    ms(rto_ms),
                    mss(cwnd_before, m)
                ),
                format!(
                    "RTO 在 {} ms 后超时{twice}：cwnd {} -> 1 MSS（BBR 不使用 ssthresh）；未确认的数据全部重发。",
                    ms(rto_ms),
                    mss(cwnd_before, m)
                ),
            )
        }
        StepKind::Timeout { rto_ms, backoff, cwnd_before, ssthresh } => {
            let twice = backed_off(backoff.saturating_sub(1), lang);
            lang_pick(
                lang,
                format!(
                    "RTO fired after {} ms{twice}: cwnd {} -> 1 MSS, ssthresh {} MSS; everything unacknowledged is resent in slow start.",
                    ms(rto_ms),
                    mss(cwnd_before, m),
                    mss(ssthresh, m)
                ),
                format!(
                    "RTO 在 {} ms 后超时{twice}：cwnd {} -> 1 MSS，ssthresh {} MSS；未确认的数据以慢启动重发。",
                    ms(rto_ms),
                    mss(cwnd_before, m),
                    mss(ssthresh, m)
                ),
            )
        }
        StepKind::MessageWritten { id } => lang_pick(
            lang,
            format!("The application writes message {id}."),
            format!("应用写入消息 {id}。"),
        ),
        StepKind::HolRelease { messages, worst_ms, .. } => lang_pick(
            lang,
            format!(
                "The missing segment is in: {messages} held message(s) released to the application at once (the oldest waited {} ms).",
                ms(worst_ms)
            ),
            format!(
                "缺失的报文段到达：{messages} 条被阻塞的消息一次性交给应用（最久的等了 {} ms）。",
                ms(worst_ms)
            ),
        ),
    }
}

fn lang_pick(lang: Language, en: String, zh: String) -> String {
    match lang {
        Language::En => en,
        Language::Zh => zh,
    }
}

#[cfg(test)]
mod tests {
    use super::super::step::{FlowState, Step, StepKind};
    use super::*;

    fn state() -> FlowState {
        FlowState {
            cwnd: 20 * 1460,
            ssthresh: None,
            in_flight: 10 * 1460,
            srtt_ms: Some(28.0),
            rto_ms: 228.0,
            ca: CaLabel::Open,
            queue: 3,
        }
    }

    #[test]
    fn every_kind_is_explained_in_both_languages() {
        let steps = Steps::new(1460, "cubic");
        let mut seen = std::collections::BTreeSet::new();
        for kind in StepKind::examples() {
            seen.insert(kind.name());
            let step = Step {
                t_ms: 1.0,
                flow: 0,
                kind,
                state: state(),
            };
            let en = explain(&step, &steps, Language::En);
            let zh = explain(&step, &steps, Language::Zh);
            assert!(en.len() > 20 && en.is_ascii() || en.contains('×'), "{en}");
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
            assert_ne!(en, zh);
            // No window is ever said in the quadrillions (an unset ssthresh).
            assert!(!en.contains("3158689053717389"), "{en}");
        }
        let all: std::collections::BTreeSet<&str> = StepKind::NAMES.into_iter().collect();
        assert_eq!(seen, all, "every kind needs an example and an explanation");
    }

    #[test]
    fn the_classroom_sentences_read_as_intended() {
        let steps = Steps::new(1460, "cubic");
        let say = |kind| {
            explain(
                &Step {
                    t_ms: 1.0,
                    flow: 0,
                    kind,
                    state: state(),
                },
                &steps,
                Language::En,
            )
        };
        assert_eq!(
            say(StepKind::AckArrived {
                ack: 29200,
                acked: 2920,
                sacked: 0,
                growth: Growth::SlowStart,
                cwnd_before: 20 * 1460,
                cwnd_after: 22 * 1460
            }),
            "ACK 29201 acknowledges 2 segment(s): slow start, cwnd 20 -> 22 MSS."
        );
        assert_eq!(
            say(StepKind::FastRetransmit {
                seq: 14600,
                cwnd_before: 40 * 1460,
                cwnd_after: 37 * 1460,
                ssthresh: 28 * 1460
            }),
            "Loss detected (duplicate ACKs / SACK): fast retransmit of 14601; ssthresh = cwnd × 717/1024 (CUBIC) = 28 MSS. cwnd 40 -> 37 MSS: what is in flight plus the retransmission, and PRR (RFC 6937) brings it down to ssthresh over the next round trip."
        );
        assert!(say(StepKind::Timeout {
            rto_ms: 412.0,
            backoff: 3,
            cwnd_before: 30 * 1460,
            ssthresh: 15 * 1460
        })
        .starts_with("RTO fired after 412 ms (backed off twice): cwnd 30 -> 1 MSS"));
        assert!(say(StepKind::HolRelease {
            event: 0,
            messages: 19,
            worst_ms: 272.0
        })
        .contains("19 held message(s) released to the application at once"));
    }
}
