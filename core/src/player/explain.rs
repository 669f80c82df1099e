//! Every step said in words, with its numbers, in English and Chinese: what the teacher reads
//! out. Sequence numbers are relative, as Wireshark shows them (the first data byte is 1);
//! windows are in MSS.

use super::step::{CaLabel, DropCause, Growth, QueueWhy, SlowStartEnd, Step, StepKind, Steps};
use crate::cc::INFINITE_SSTHRESH_BYTES;
use crate::scenario::CcAlgo;
use crate::tcp::receiver::AckTiming;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    En,
    Zh,
}

/// Words in both of the lab's languages: a lesson's sentence (where `{name}` marks a figure
/// read from the run, `lesson::slots`), a source's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Text {
    pub en: &'static str,
    pub zh: &'static str,
}

impl Text {
    pub const fn new(en: &'static str, zh: &'static str) -> Text {
        Text { en, zh }
    }

    pub fn get(self, lang: Language) -> &'static str {
        match lang {
            Language::En => self.en,
            Language::Zh => self.zh,
        }
    }
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
        // Grouped as the player's clock and log write it ("9,991"), for the class to match.
        group_digits(&format!("{v:.0}"))
    } else {
        format!("{v:.1}")
    }
}

/// A probability in percent as the explanations write it: two significant digits.
fn pct(p: f64) -> String {
    if p >= 10.0 {
        format!("{p:.0} %")
    } else if p >= 1.0 {
        format!("{p:.1} %")
    } else {
        format!("{p:.2} %")
    }
}

/// What the queue discipline decided about `what` (a segment or datagram, titled) and why:
/// dropped, or marked CE instead (`marked`).
fn queue_decision(why: QueueWhy, what: &str, marked: bool, lang: Language) -> String {
    let zh = lang == Language::Zh;
    match (why, zh) {
        (QueueWhy::Codel { sojourn_ms, count, next_in_ms, target_ms, interval_ms }, false) => {
            let act = if marked { format!("CE mark #{count} instead of a drop (ECN)") } else { format!("drop #{count}") };
            let next = match next_in_ms {
                Some(n) => format!("the next in {} ms if it stays above (the control law, interval/√{count} after this one was due)", ms(n)),
                None => "the packet behind it waited less than the target, so CoDel stops dropping".to_string(),
            };
            format!(
                "CoDel: {what} waited {} ms, and the sojourn has been above the {} ms target for {} ms: {act}; {next}.",
                ms(sojourn_ms), ms(target_ms), ms(interval_ms)
            )
        }
        (QueueWhy::Codel { sojourn_ms, count, next_in_ms, target_ms, interval_ms }, true) => {
            let act = if marked { format!("第 {count} 次以 CE 标记代替丢弃（ECN）") } else { format!("第 {count} 次丢弃") };
            let next = match next_in_ms {
                Some(n) => format!("若仍高于目标，下一次在 {} ms 后（控制律：从本次应到时刻起 interval/√{count}）", ms(n)),
                None => "其后的包排队时间已低于目标，CoDel 停止丢包".to_string(),
            };
            format!(
                "CoDel：{what}排队 {} ms，逗留时间已超过 {} ms 目标达 {} ms：{act}；{next}。",
                ms(sojourn_ms), ms(target_ms), ms(interval_ms)
            )
        }
        (QueueWhy::Pie { probability_pct, target_ms }, false) => {
            let act = if marked { "marked CE instead of dropped (ECN)" } else { "dropped on arrival" };
            format!(
                "PIE: the queueing delay is above its {} ms target, so each arriving packet is dropped with probability {}: {what} is {act}.",
                ms(target_ms), pct(probability_pct)
            )
        }
        (QueueWhy::Pie { probability_pct, target_ms }, true) => {
            let act = if marked { "被标记 CE 代替丢弃（ECN）" } else { "在到达时被丢弃" };
            format!(
                "PIE：排队时延高于 {} ms 目标，每个到达的包以 {} 的概率被丢弃：{what}{act}。",
                ms(target_ms), pct(probability_pct)
            )
        }
        (QueueWhy::Red { average, probability_pct }, false) => {
            let act = if marked { "marked CE instead of dropped (ECN)" } else { "dropped on arrival" };
            format!(
                "RED: the average queue is {average:.1} packets, so the probability is {}: {what} is {act}.",
                pct(probability_pct)
            )
        }
        (QueueWhy::Red { average, probability_pct }, true) => {
            let act = if marked { "被标记 CE 代替丢弃（ECN）" } else { "在到达时被丢弃" };
            format!("RED：平均队列为 {average:.1} 个包，概率为 {}：{what}{act}。", pct(probability_pct))
        }
        (QueueWhy::FattestFlow { limit }, false) => format!(
            "FQ-CoDel is over its limit of {limit} packets: {what} is dropped from the head of the fattest flow's queue, not the newcomer."
        ),
        (QueueWhy::FattestFlow { limit }, true) => {
            format!("FQ-CoDel 超过 {limit} 个包的上限：{what}从最胖流的队首被丢弃，而不是新到的包。")
        }
        (QueueWhy::Limit { limit }, false) => {
            format!("{what} is dropped: the bottleneck's queue is full ({limit} packets).")
        }
        (QueueWhy::Limit { limit }, true) => format!("{what}被丢弃：瓶颈队列已满（{limit} 个包）。"),
    }
}

/// The relative sequence number of byte offset `seq`.
fn rel(seq: u64) -> u64 {
    seq + 1
}

/// An ACK number as a class reads it: the next byte wanted, counted from 1, grouped.
fn ack_no(ack: u64) -> String {
    grouped(rel(ack))
}

/// Digits in groups of three, as the page writes counts: `27,741`.
fn grouped(n: u64) -> String {
    group_digits(&n.to_string())
}

/// A decimal number's text with its whole part's digits grouped: `-12345.5` -> `-12,345.5`.
pub fn grouped_decimal(text: &str) -> String {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text),
    };
    match rest.split_once('.') {
        Some((whole, fraction)) => format!("{sign}{}.{fraction}", group_digits(whole)),
        None => format!("{sign}{}", group_digits(rest)),
    }
}

/// A measurement to `digits` significant digits, never in exponent form, whole parts grouped,
/// trailing zeros dropped: `11.6`, `0.00997`, `113`, `1,162,631`, `2.5`, `1`. Numbers past the
/// digits keep their whole part (`1,235`, not `1,230`).
pub fn number(v: f64, digits: i32) -> String {
    if !v.is_finite() {
        return "—".to_string();
    }
    if v == 0.0 {
        return "0".to_string();
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (digits - 1 - magnitude).clamp(0, 12) as usize;
    let text = format!("{:.*}", decimals, v.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction = fraction.trim_end_matches('0');
    let sign = if v < 0.0 && text.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
        "-"
    } else {
        ""
    };
    if fraction.is_empty() {
        grouped_decimal(&format!("{sign}{whole}"))
    } else {
        grouped_decimal(&format!("{sign}{whole}.{fraction}"))
    }
}

/// The digits of a whole number written as text, in groups of three: `"1234567"` ->
/// `"1,234,567"` (the explanations' and the page's one way of writing a count).
pub fn group_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A segment as a class counts them: its number in MSS-sized segments from 1, and its bytes in
/// relative sequence numbers ("segment 20 (bytes 27,741–29,200)"; "from byte 27,741" where the
/// step does not say its length). A segment that does not start on an MSS boundary (a message
/// workload's short writes) is named by its bytes alone.
pub fn segment_name(seq: u64, len: Option<u32>, mss: u32, lang: Language) -> String {
    let m = u64::from(mss.max(1));
    let bytes = match (len, lang) {
        (Some(len), _) => byte_range(seq, seq + u64::from(len.max(1)), lang),
        (None, Language::En) => format!("from byte {}", grouped(rel(seq))),
        (None, Language::Zh) => format!("从字节 {} 起", grouped(rel(seq))),
    };
    match (seq.is_multiple_of(m), lang) {
        (true, Language::En) => format!("segment {} ({bytes})", grouped(seq / m + 1)),
        (true, Language::Zh) => format!("第 {} 个报文段（{bytes}）", grouped(seq / m + 1)),
        (false, Language::En) => format!("the segment of {bytes}"),
        (false, Language::Zh) => format!("{bytes}的报文段"),
    }
}

/// The bytes from offset `start` up to `end`, numbered from 1 as a class counts them: offsets
/// 27 740 to 29 200 are "bytes 27,741–29,200". A SACK block's edges (RFC 2018: left edge, and
/// the byte after its right edge) read the same way.
pub fn byte_range(start: u64, end: u64, lang: Language) -> String {
    let (a, b) = (grouped(rel(start)), grouped(end.max(start + 1)));
    match lang {
        Language::En => format!("bytes {a}–{b}"),
        Language::Zh => format!("字节 {a}–{b}"),
    }
}

/// The same at the start of a sentence.
fn segment_title(seq: u64, len: Option<u32>, mss: u32, lang: Language) -> String {
    capitalised(segment_name(seq, len, mss, lang))
}

/// `goodput` -> `Goodput`, at the start of a sentence. The words are the lab's own, English or
/// Chinese, so ASCII's case is the only one there is to change (and neither the page nor the
/// worker carries Unicode's case tables for it).
pub fn capitalised(mut s: String) -> String {
    if let Some(first) = s.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    s
}

fn segments(bytes: u64, mss: u32) -> String {
    segment_count(bytes, mss).to_string()
}

fn segment_count(bytes: u64, mss: u32) -> u64 {
    bytes.div_ceil(u64::from(mss.max(1)))
}

/// `n` with its noun as a person writes it: "1 segment", "2 segments", "1,024 segments" (the
/// explanations' and the page's one rule).
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

/// The algorithm's reduction on loss, as a formula, from the algorithm's own constants.
fn reduction(cc: CcAlgo, lang: Language) -> String {
    use crate::cc::{cubic, reno};
    let halving = 1.0 / f64::from(1u32 << reno::REDUCTION_SHIFT);
    match (cc, lang) {
        (CcAlgo::Reno, Language::En) => format!("cwnd × {halving} (Reno)"),
        (CcAlgo::Reno, Language::Zh) => format!("cwnd × {halving}（Reno）"),
        (CcAlgo::Cubic, Language::En) => {
            format!("cwnd × {}/{} (CUBIC)", cubic::BETA, cubic::BETA_SCALE)
        }
        (CcAlgo::Cubic, Language::Zh) => {
            format!("cwnd × {}/{}（CUBIC）", cubic::BETA, cubic::BETA_SCALE)
        }
        (CcAlgo::Bbr, Language::En) => "left to BBR's model".to_string(),
        (CcAlgo::Bbr, Language::Zh) => "由 BBR 的模型决定".to_string(),
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

/// Where `step` is in `steps`, if it is one of them (by identity: steps at one instant may be
/// alike).
fn index_of(step: &Step, steps: &Steps) -> Option<usize> {
    let from = steps.steps.partition_point(|s| s.t_ms < step.t_ms);
    steps.steps[from..]
        .iter()
        .take_while(|s| s.t_ms <= step.t_ms)
        .position(|s| std::ptr::eq(s, step))
        .map(|i| from + i)
}

/// How far back the explanations look for what led to a step: a round trip's steps and more.
const LOOK_BACK: usize = 20_000;

/// The steps of the same flow before `step`, newest first, within [`LOOK_BACK`].
fn earlier<'a>(step: &Step, steps: &'a Steps) -> impl Iterator<Item = &'a Step> + 'a {
    let flow = step.flow;
    let end = index_of(step, steps).unwrap_or(0);
    steps.steps[end.saturating_sub(LOOK_BACK)..end]
        .iter()
        .rev()
        .filter(move |s| s.flow == flow)
}

/// How long the tail loss probe waited: since the flow last sent or heard an ACK, when its timer
/// was armed (RFC 8985 §7.2), in ms and in round trips.
fn tlp_wait(step: &Step, steps: &Steps, lang: Language) -> String {
    let armed = earlier(step, steps).find(|s| {
        matches!(
            s.kind,
            StepKind::Sent { .. }
                | StepKind::Retransmitted { .. }
                | StepKind::AckArrived { .. }
                | StepKind::DuplicateAck { .. }
        )
    });
    let Some(armed) = armed else {
        return lang_pick(lang, "about two RTTs".into(), "约两个 RTT ".into());
    };
    let waited = step.t_ms - armed.t_ms;
    match (step.state.srtt_ms.filter(|r| *r > 0.0), lang) {
        (Some(rtt), Language::En) => format!("{} ms ({:.1} RTTs)", ms(waited), waited / rtt),
        (Some(rtt), Language::Zh) => format!("{} ms（{:.1} 个 RTT）", ms(waited), waited / rtt),
        (None, Language::En) => format!("{} ms", ms(waited)),
        (None, Language::Zh) => format!("{} ms ", ms(waited)),
    }
}

/// What showed the loss a fast retransmit repairs: three duplicate ACKs, or with SACK fewer,
/// since RFC 6675 counts SACKed segments and RACK counts time.
fn detection(step: &Step, steps: &Steps, lang: Language) -> String {
    let dupacks = earlier(step, steps)
        .take_while(|s| !matches!(s.kind, StepKind::AckArrived { acked, .. } if acked > 0))
        .find_map(|s| match s.kind {
            StepKind::DuplicateAck { count, .. } => Some(count),
            _ => None,
        })
        .unwrap_or(0);
    match (dupacks, lang) {
        (3.., Language::En) => {
            format!("{dupacks} duplicate ACKs: the DupThresh of RFC 5681 and RFC 6675")
        }
        (3.., Language::Zh) => format!("{dupacks} 个重复 ACK：达到 RFC 5681 与 RFC 6675 的 DupThresh"),
        (1..=2, Language::En) => format!(
            "only {}, but with SACK loss is counted in segments SACKed above the hole, not in duplicate ACKs (RFC 6675), and in time since a later segment arrived (RACK, RFC 8985)",
            counted(u64::from(dupacks), "duplicate ACK", "duplicate ACKs")
        ),
        (1..=2, Language::Zh) => format!(
            "只有 {dupacks} 个重复 ACK，但有 SACK 时丢包按空洞之上被 SACK 的报文段计数，而非按重复 ACK（RFC 6675），也按后发报文段到达后的时间判断（RACK，RFC 8985）"
        ),
        (_, Language::En) => {
            "RACK: a segment sent after it was delivered, and the reordering window has passed (RFC 8985)".to_string()
        }
        (_, Language::Zh) => "RACK：在它之后发出的报文段已送达，且重排序窗口已过（RFC 8985）".to_string(),
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
                "Sends {}: {} of cwnd {} MSS now in flight.",
                segment_name(seq, Some(len), m, lang),
                mss(st.in_flight, m),
                mss(st.cwnd, m)
            ),
            format!(
                "发送{}：在途 {} MSS，cwnd {} MSS。",
                segment_name(seq, Some(len), m, lang),
                mss(st.in_flight, m),
                mss(st.cwnd, m)
            ),
        ),
        StepKind::Retransmitted { seq, len } => lang_pick(
            lang,
            format!("Retransmits {}.", segment_name(seq, Some(len), m, lang)),
            format!("重传{}。", segment_name(seq, Some(len), m, lang)),
        ),
        StepKind::LossProbe { seq, len } => {
            let waited = tlp_wait(step, steps, lang);
            lang_pick(
                lang,
                format!(
                    "No ACK for {waited}: a tail loss probe sends {} to draw an ACK that shows what was lost (RFC 8985).",
                    segment_name(seq, Some(len), m, lang)
                ),
                format!(
                    "{waited}没有收到 ACK：尾部丢失探测发送{}，引出能暴露丢包的 ACK（RFC 8985）。",
                    segment_name(seq, Some(len), m, lang)
                ),
            )
        }
        StepKind::DataLost { seq, len, cause, why } => {
            let seg = segment_title(seq, Some(len), m, lang);
            match (cause, why, zh) {
                (_, Some(why), _) => queue_decision(why, &seg, false, lang),
                (DropCause::Data | DropCause::Ack, _, false) => format!("{seg} is lost on the link (random loss)."),
                (DropCause::Data | DropCause::Ack, _, true) => format!("{seg}在链路上丢失（随机丢包）。"),
                (DropCause::Policer, _, false) => format!(
                    "{seg} is dropped by the policer before the bottleneck: its bucket holds too few tokens (it adds no delay, only loss)."
                ),
                (DropCause::Policer, _, true) => {
                    format!("{seg}被瓶颈前的限速器（policer）丢弃：令牌桶中的令牌不足（它不增加时延，只丢包）。")
                }
                (DropCause::Queue | DropCause::Aqm, None, false) => format!(
                    "{seg} is dropped: the bottleneck's queue is full ({} packets waiting).",
                    st.queue
                ),
                (DropCause::Queue | DropCause::Aqm, None, true) => {
                    format!("{seg}被丢弃：瓶颈队列已满（{} 个包在排队）。", st.queue)
                }
                (DropCause::Staged, None, false) => {
                    format!("{seg} is dropped on purpose: the lesson's staged loss.")
                }
                (DropCause::Staged, None, true) => format!("{seg}被有意丢弃：本课设定的丢包。"),
            }
        }
        StepKind::DatagramLost { id, why: Some(why), .. } => {
            let name = lang_pick(lang, format!("Datagram {id}"), format!("数据报 {id} "));
            let gone = lang_pick(lang, " UDP never sends it again.".into(), "UDP 不会重传它。".into());
            format!("{}{gone}", queue_decision(why, &name, false, lang))
        }
        StepKind::DatagramLost { id, .. } => lang_pick(
            lang,
            format!("Datagram {id} is lost; UDP never sends it again."),
            format!("数据报 {id} 丢失；UDP 不会重传它。"),
        ),
        StepKind::CeMarked { seq, len, why } => {
            queue_decision(why, &segment_title(seq, Some(len), m, lang), true, lang)
        }
        StepKind::AckLost { ack } => lang_pick(
            lang,
            format!("ACK {} is lost on the way back; the next cumulative ACK covers it.", ack_no(ack)),
            format!("ACK {} 在返回途中丢失；下一个累积 ACK 会覆盖它。", ack_no(ack)),
        ),
        StepKind::DataArrived { seq, len, in_order, delivered, held } => {
            let seg = segment_title(seq, Some(len), m, lang);
            if !in_order {
                lang_pick(
                    lang,
                    format!(
                        "{seg} arrives out of order: it waits in the receive buffer ({held} B held behind the hole), and the receiver's ACK reports it in a SACK block."
                    ),
                    format!("{seg}乱序到达：留在接收缓冲区（空洞之后共 {held} 字节在等待），接收方的 ACK 以 SACK 块报告它。"),
                )
            } else if delivered > u64::from(len) {
                lang_pick(
                    lang,
                    format!("{seg} fills the hole: {delivered} B reach the application at once."),
                    format!("{seg}填上空洞：{delivered} 字节一次性交给应用。"),
                )
            } else if delivered == 0 {
                lang_pick(
                    lang,
                    format!("{seg} arrives again: a duplicate, ACKed at once."),
                    format!("{seg}重复到达：立即回 ACK。"),
                )
            } else {
                lang_pick(
                    lang,
                    format!("{seg} arrives in order: {delivered} B go to the application."),
                    format!("{seg}按序到达：{delivered} 字节交给应用。"),
                )
            }
        }
        StepKind::DatagramArrived { id } => lang_pick(
            lang,
            format!("Datagram {id} arrives and is read at once."),
            format!("数据报 {id} 到达并立即被读取。"),
        ),
        StepKind::AckSent { ack, sack_blocks, timing } => {
            let (d_en, d_zh) = match timing {
                AckTiming::Now => ("", ""),
                AckTiming::Delayed => (" when the delayed-ACK timer fires", "（延迟 ACK 计时器到期）"),
                AckTiming::Compressed => (
                    ", held back to report the segments after it too (Linux's SACK compression: \
                     after three ACKs for one hole it waits up to 1 ms, or 5 % of the RTT, for more)",
                    "，推迟发出以一并报告其后的报文段（Linux 的 SACK 压缩：同一空洞的三个 ACK 之后，\
                     最多等待 1 毫秒或 RTT 的 5%）",
                ),
            };
            let (s_en, s_zh) = if sack_blocks > 0 {
                (
                    format!(" with {}", counted(u64::from(sack_blocks), "SACK block", "SACK blocks")),
                    format!("，带 {sack_blocks} 个 SACK 块"),
                )
            } else {
                (String::new(), String::new())
            };
            lang_pick(
                lang,
                format!("The receiver sends ACK {}{s_en}{d_en}.", ack_no(ack)),
                format!("接收方发送 ACK {}{s_zh}{d_zh}。", ack_no(ack)),
            )
        }
        StepKind::AckArrived { ack, acked, sacked, growth, cwnd_before, cwnd_after } => {
            let k = segments(acked, m);
            let k_en = counted(segment_count(acked, m), "segment", "segments");
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
                    "ACK {} acknowledges {k_en}{sack_en}: slow start, cwnd {b} -> {a} MSS.",
                    ack_no(ack)
                ),
                (Growth::SlowStart, true) => {
                    format!("ACK {} 确认 {k} 个报文段{sack_zh}：慢启动，cwnd {b} -> {a} MSS。", ack_no(ack))
                }
                (Growth::CongestionAvoidance, false) => format!(
                    "ACK {} acknowledges {k_en}{sack_en}: congestion avoidance, cwnd {b} -> {a} MSS.",
                    ack_no(ack)
                ),
                (Growth::CongestionAvoidance, true) => {
                    format!("ACK {} 确认 {k} 个报文段{sack_zh}：拥塞避免，cwnd {b} -> {a} MSS。", ack_no(ack))
                }
                (Growth::Model, false) => format!(
                    "ACK {} acknowledges {k_en}{sack_en}: BBR sets cwnd {b} -> {a} MSS from its bandwidth and RTT estimates.",
                    ack_no(ack)
                ),
                (Growth::Model, true) => format!(
                    "ACK {} 确认 {k} 个报文段{sack_zh}：BBR 按带宽与 RTT 估计把 cwnd 设为 {b} -> {a} MSS。",
                    ack_no(ack)
                ),
                (Growth::Held, false) => {
                    let why = if st.ca == CaLabel::Recovery {
                        "in recovery the window does not grow"
                    } else {
                        "the window is not what limits the sender"
                    };
                    format!("ACK {} acknowledges {k_en}{sack_en}; cwnd stays {a} MSS: {why}.", ack_no(ack))
                }
                (Growth::Held, true) => {
                    let why = if st.ca == CaLabel::Recovery {
                        "恢复期间窗口不增长"
                    } else {
                        "窗口不是发送的瓶颈"
                    };
                    format!("ACK {} 确认 {k} 个报文段{sack_zh}；cwnd 保持 {a} MSS：{why}。", ack_no(ack))
                }
            }
        }
        StepKind::DuplicateAck { ack, count } => lang_pick(
            lang,
            format!(
                "Duplicate ACK #{count} for {}: the receiver is still missing {}.",
                ack_no(ack),
                segment_name(ack, None, m, lang)
            ),
            format!(
                "第 {count} 个重复 ACK（{}）：接收方仍缺{}。",
                ack_no(ack),
                segment_name(ack, None, m, lang)
            ),
        ),
        // BBR keeps no ssthresh (it stays Linux's "infinite"): its window comes from its model.
        StepKind::FastRetransmit { seq, cwnd_before, cwnd_after, ssthresh } if ssthresh >= INFINITE_SSTHRESH_BYTES => lang_pick(
            lang,
            format!(
                "Loss detected (duplicate ACKs / SACK): fast retransmit of {}; BBR keeps no ssthresh and sets the window from its model: cwnd {} -> {} MSS.",
                segment_name(seq, None, m, lang),
                mss(cwnd_before, m),
                mss(cwnd_after, m)
            ),
            format!(
                "检测到丢包（重复 ACK / SACK）：快速重传{}；BBR 不使用 ssthresh，按其模型设定窗口：cwnd {} -> {} MSS。",
                segment_name(seq, None, m, lang),
                mss(cwnd_before, m),
                mss(cwnd_after, m)
            ),
        ),
        StepKind::FastRetransmit { seq, cwnd_before, cwnd_after, ssthresh } => {
            let how = reduction(steps.cc_of(step.flow), lang);
            let why = detection(step, steps, lang);
            lang_pick(
                lang,
                format!(
                    "Loss detected ({why}): fast retransmit of {}; ssthresh = {how} = {} MSS. cwnd {} -> {} MSS: what is in flight plus the retransmission, and PRR (RFC 6937) brings it down to ssthresh over the next round trip.",
                    segment_name(seq, None, m, lang),
                    mss(ssthresh, m),
                    mss(cwnd_before, m),
                    mss(cwnd_after, m)
                ),
                format!(
                    "检测到丢包（{why}）：快速重传{}；ssthresh = {how} = {} MSS。cwnd {} -> {} MSS：在途数据加上这次重传，PRR（RFC 6937）在下一个往返内把它降到 ssthresh。",
                    segment_name(seq, None, m, lang),
                    mss(ssthresh, m),
                    mss(cwnd_before, m),
                    mss(cwnd_after, m)
                ),
            )
        }
        StepKind::EcnEcho { cwnd_before, ssthresh } if ssthresh >= INFINITE_SSTHRESH_BYTES => lang_pick(
            lang,
            format!(
                "CE mark echoed (ECE): the sender enters CWR, but BBR sets its window from its model and ignores the mark (as Linux's BBR v1 does): cwnd stays {} MSS, nothing retransmitted.",
                mss(cwnd_before, m)
            ),
            format!(
                "收到 CE 标记回显（ECE）：发送方进入 CWR，但 BBR 按其模型设定窗口、忽略该标记（同 Linux 的 BBR v1）：cwnd 保持 {} MSS，没有重传。",
                mss(cwnd_before, m)
            ),
        ),
        StepKind::EcnEcho { cwnd_before, ssthresh } => {
            let how = reduction(steps.cc_of(step.flow), lang);
            lang_pick(
                lang,
                format!(
                    "CE mark echoed (ECE): a queue marked a segment instead of dropping it. The sender reduces as for one loss, ssthresh = {how} = {} MSS, cwnd {} -> {} MSS over the next round trip (PRR), and retransmits nothing; its next new segment carries CWR (RFC 3168 §6.1.2, Linux tcp_enter_cwr).",
                    mss(ssthresh, m),
                    mss(cwnd_before, m),
                    mss(ssthresh, m)
                ),
                format!(
                    "收到 CE 标记回显（ECE）：队列标记了一个报文段而不是丢弃它。发送方按一次丢包降窗：ssthresh = {how} = {} MSS，cwnd 在下一个往返内 {} -> {} MSS（PRR），不重传任何数据；下一个新报文段带 CWR（RFC 3168 §6.1.2，Linux tcp_enter_cwr）。",
                    mss(ssthresh, m),
                    mss(cwnd_before, m),
                    mss(ssthresh, m)
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
                "The missing segment is in: {} released to the application at once (the oldest waited {} ms).",
                counted(u64::from(messages), "held message", "held messages"),
                ms(worst_ms)
            ),
            format!(
                "缺失的报文段到达：{messages} 条被阻塞的消息一次性交给应用（最久的等了 {} ms）。",
                ms(worst_ms)
            ),
        ),
        StepKind::SlowStartExit { reason, cwnd, ssthresh } => {
            let (w, t) = (mss(cwnd, m), mss(ssthresh, m));
            match (reason, zh) {
                (SlowStartEnd::Ssthresh, false) => format!(
                    "Slow start ends: cwnd {w} MSS has reached ssthresh {t} MSS, set by the last loss. Congestion avoidance begins: about one MSS more per round trip (RFC 5681 §3.1)."
                ),
                (SlowStartEnd::Ssthresh, true) => format!(
                    "慢启动结束：cwnd {w} MSS 已达到上次丢包设定的 ssthresh {t} MSS。进入拥塞避免：每个往返约增加一个 MSS（RFC 5681 §3.1）。"
                ),
                (SlowStartEnd::HyStartAckTrain, false) => format!(
                    "Slow start ends before any loss: HyStart saw this round's ACKs spread over more than half the minimum RTT, so the window of {w} MSS already fills the path; ssthresh = cwnd = {t} MSS, and congestion avoidance begins (Linux hystart_ack_train)."
                ),
                (SlowStartEnd::HyStartAckTrain, true) => format!(
                    "慢启动在丢包前结束：HyStart 发现本轮 ACK 的间隔超过最小 RTT 的一半，{w} MSS 的窗口已填满路径；ssthresh = cwnd = {t} MSS，进入拥塞避免（Linux hystart_ack_train）。"
                ),
                (SlowStartEnd::HyStartDelay, false) => format!(
                    "Slow start ends before any loss: HyStart saw the round trip grow by an eighth over its minimum, a queue building at the bottleneck; ssthresh = cwnd = {w} MSS, and congestion avoidance begins (Linux hystart_delay)."
                ),
                (SlowStartEnd::HyStartDelay, true) => format!(
                    "慢启动在丢包前结束：HyStart 发现往返时间比最小值高出八分之一，瓶颈处正在排队；ssthresh = cwnd = {w} MSS，进入拥塞避免（Linux hystart_delay）。"
                ),
            }
        }
        StepKind::StateChange { from, to } => {
            let (f, t) = (ca_name(from, lang), ca_name(to, lang));
            let why = match (to, lang) {
                (CaLabel::Open, Language::En) => "nothing is amiss",
                (CaLabel::Disorder, Language::En) => {
                    "duplicate ACKs or SACKs seen, not yet enough to call a loss"
                }
                (CaLabel::Cwr, Language::En) => {
                    "reducing the window for an ECN echo, until data sent since is acknowledged"
                }
                (CaLabel::Recovery, Language::En) => {
                    "fast recovery, until everything sent before the loss is acknowledged"
                }
                (CaLabel::Loss, Language::En) => {
                    "after a timeout, until everything sent before it is acknowledged"
                }
                (CaLabel::Open, Language::Zh) => "一切正常",
                (CaLabel::Disorder, Language::Zh) => "出现重复 ACK 或 SACK，还不足以判定丢包",
                (CaLabel::Cwr, Language::Zh) => "因 ECN 回显而降窗，直到此后发出的数据被确认",
                (CaLabel::Recovery, Language::Zh) => "快速恢复，直到丢包前发出的数据全部被确认",
                (CaLabel::Loss, Language::Zh) => "超时之后，直到超时前发出的数据全部被确认",
            };
            lang_pick(
                lang,
                format!("The sender's state: {f} -> {t} ({why}; Linux's tcp_ca_state)."),
                format!("发送方状态：{f} -> {t}（{why}；Linux 的 tcp_ca_state）。"),
            )
        }
    }
}

/// A loss-recovery state by Linux's name for it.
fn ca_name(ca: CaLabel, lang: Language) -> &'static str {
    match (ca, lang) {
        (CaLabel::Open, Language::En) => "Open",
        (CaLabel::Disorder, Language::En) => "Disorder",
        (CaLabel::Cwr, Language::En) => "CWR",
        (CaLabel::Recovery, Language::En) => "Recovery",
        (CaLabel::Loss, Language::En) => "Loss",
        (CaLabel::Open, Language::Zh) => "Open（正常）",
        (CaLabel::Disorder, Language::Zh) => "Disorder（失序）",
        (CaLabel::Cwr, Language::Zh) => "CWR（降窗）",
        (CaLabel::Recovery, Language::Zh) => "Recovery（恢复）",
        (CaLabel::Loss, Language::Zh) => "Loss（超时）",
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
    use super::super::step::{FlowState, Step, StepKind, StepTag};
    use super::super::OneWay;
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
    fn a_sentence_starts_with_its_segment_capitalised_in_english_only() {
        assert_eq!(
            segment_title(2920, Some(1460), 1460, Language::En),
            "Segment 3 (bytes 2,921–4,380)"
        );
        assert_eq!(
            segment_title(100, Some(10), 1460, Language::En),
            "The segment of bytes 101–110"
        );
        assert_eq!(
            segment_title(2920, Some(1460), 1460, Language::Zh),
            "第 3 个报文段（字节 2,921–4,380）"
        );
    }

    #[test]
    fn every_kind_is_explained_in_both_languages() {
        let steps = Steps::new(1460, CcAlgo::Cubic, OneWay::default(), 0.0);
        let mut seen = std::collections::BTreeSet::new();
        for kind in StepKind::examples() {
            seen.insert(kind.tag());
            let step = Step {
                t_ms: 1.0,
                flow: 0,
                kind,
                state: state(),
            };
            let en = explain(&step, &steps, Language::En);
            let zh = explain(&step, &steps, Language::Zh);
            let cjk = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
            assert!(en.len() > 20 && !en.chars().any(cjk), "{en}");
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
            assert_ne!(en, zh);
            // No window is ever said in the quadrillions (an unset ssthresh).
            assert!(!en.contains("3158689053717389"), "{en}");
        }
        let all: std::collections::BTreeSet<StepTag> = StepTag::ALL.into_iter().collect();
        assert_eq!(seen, all, "every kind needs an example and an explanation");
    }

    #[test]
    fn the_classroom_sentences_read_as_intended() {
        let steps = Steps::new(1460, CcAlgo::Cubic, OneWay::default(), 0.0);
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
            "ACK 29,201 acknowledges 2 segments: slow start, cwnd 20 -> 22 MSS."
        );
        // A fast retransmit says what showed the loss: here the third duplicate ACK before it.
        let mut recorded = Steps::new(1460, CcAlgo::Cubic, OneWay::default(), 0.0);
        let at = |t_ms: f64, kind| Step {
            t_ms,
            flow: 0,
            kind,
            state: state(),
        };
        for count in 1..=3 {
            recorded.push(at(
                f64::from(count),
                StepKind::DuplicateAck { ack: 14600, count },
            ));
        }
        recorded.push(at(
            3.0,
            StepKind::FastRetransmit {
                seq: 14600,
                cwnd_before: 40 * 1460,
                cwnd_after: 37 * 1460,
                ssthresh: 28 * 1460,
            },
        ));
        let fr = &recorded.steps[3];
        assert_eq!(
            explain(fr, &recorded, Language::En),
            "Loss detected (3 duplicate ACKs: the DupThresh of RFC 5681 and RFC 6675): fast retransmit of segment 11 (from byte 14,601); ssthresh = cwnd × 717/1024 (CUBIC) = 28 MSS. cwnd 40 -> 37 MSS: what is in flight plus the retransmission, and PRR (RFC 6937) brings it down to ssthresh over the next round trip."
        );
        // With SACK the loss can show before the third: the sentence says why.
        recorded.steps.remove(2);
        recorded.steps.remove(1);
        let fr = &recorded.steps[1];
        assert!(explain(fr, &recorded, Language::En).contains(
            "only 1 duplicate ACK, but with SACK loss is counted in segments SACKed above the hole"
        ));
        assert_eq!(
            say(StepKind::Sent {
                seq: 27740,
                len: 1460
            }),
            "Sends segment 20 (bytes 27,741–29,200): 10 of cwnd 20 MSS now in flight."
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
        .contains("19 held messages released to the application at once"));
    }
}
