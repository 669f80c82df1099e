//! Every scenario key as the page presents it: its label, unit and tooltip in both languages,
//! its slider, and its value as the number box writes it. Ranges come from the key table in
//! `tcplab::scenario::Key::bounds`, never from here.

use tcplab::scenario::Key;
use tcplab::Scenario;

use super::scale::Slider;
use crate::i18n::Lang;

/// The lowest non-zero loss rate on the loss sliders, in percent: one packet in 100 000. Lower
/// rates are typed.
pub const LOSS_LOW: f64 = 0.001;

/// How a key is presented.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Knob {
    pub key: Key,
    pub label: (&'static str, &'static str),
    pub unit: (&'static str, &'static str),
    pub tip: (&'static str, &'static str),
}

impl Knob {
    pub fn label(&self, lang: Lang) -> &'static str {
        lang.pick(self.label.0, self.label.1)
    }

    pub fn unit(&self, lang: Lang) -> &'static str {
        lang.pick(self.unit.0, self.unit.1)
    }

    pub fn tip(&self, lang: Lang) -> &'static str {
        lang.pick(self.tip.0, self.tip.1)
    }
}

const fn knob(
    key: Key,
    label: (&'static str, &'static str),
    unit: (&'static str, &'static str),
    tip: (&'static str, &'static str),
) -> Knob {
    Knob {
        key,
        label,
        unit,
        tip,
    }
}

/// Every key with a control, in the order of the key table.
pub const KNOBS: &[Knob] = &[
    knob(
        Key::Cc,
        ("Algorithm", "拥塞控制"),
        ("", ""),
        (
            "Congestion control: Reno (RFC 5681) and CUBIC (RFC 9438) back off on loss; BBR models the path's bandwidth and delay. In the link, a comma list gives each flow its own (cc=bbr,cubic).",
            "拥塞控制算法：Reno（RFC 5681）与 CUBIC（RFC 9438）遇丢包退让；BBR 按路径带宽与时延建模。在链接中，用逗号分隔的列表可为每条流各设一个（cc=bbr,cubic）。",
        ),
    ),
    knob(
        Key::Rtt,
        ("RTT", "往返时延"),
        ("ms", "ms"),
        (
            "Round-trip propagation delay, without queueing: half each way. A comma list gives each flow its own through the one bottleneck (20,80).",
            "往返传播时延（不含排队），单向各一半。用逗号分隔的列表可为每条流各设一个，经过同一个瓶颈（20,80）。",
        ),
    ),
    knob(
        Key::Bw,
        ("Bandwidth", "带宽"),
        ("Mbit/s", "Mbit/s"),
        (
            "The bottleneck link's rate; every packet's headers count against it.",
            "瓶颈链路速率；每个包的首部也占用它。",
        ),
    ),
    knob(
        Key::Link,
        ("Link", "链路"),
        ("", ""),
        (
            "What the bottleneck's link is: a fixed rate; LTE, Sprout's model of a cellular link whose rate wanders around the bandwidth (NSDI 2013); Wi-Fi, aggregates of frames after random contention; or a Mahimahi trace you pick or drop.",
            "瓶颈链路是什么：固定速率；LTE，Sprout 的蜂窝链路模型，速率围绕带宽游走（NSDI 2013）；Wi-Fi，随机争用后成批聚合发送的帧；或你选择或拖入的 Mahimahi 轨迹。",
        ),
    ),
    knob(
        Key::Loss,
        ("Loss", "丢包率"),
        ("%", "%"),
        (
            "Random loss of data packets after the bottleneck.",
            "数据包在瓶颈之后的随机丢失率。",
        ),
    ),
    knob(
        Key::Ackloss,
        ("ACK loss", "ACK 丢失"),
        ("%", "%"),
        ("Random loss of ACKs on the way back.", "回程 ACK 的随机丢失率。"),
    ),
    knob(
        Key::Drop,
        ("Drop packets", "指定丢包"),
        ("#", "#"),
        (
            "Drop exactly these data packets, counted from 1 in the order sent (e.g. 5,9).",
            "按发送顺序（从 1 数起）丢弃这些数据包，例如 5,9。",
        ),
    ),
    knob(
        Key::Burst,
        ("Loss burst", "突发长度"),
        ("pkts", "包"),
        (
            "Mean length of a loss burst (Gilbert-Elliott); 1 = independent losses.",
            "丢包突发的平均长度（Gilbert-Elliott 模型）；1 表示独立丢包。",
        ),
    ),
    knob(
        Key::Police,
        ("Policer", "限速器"),
        ("Mbit/s", "Mbit/s"),
        (
            "A policer before the bottleneck: a token bucket at this rate that drops what exceeds it, with no queue (an ISP's ingress policer); 0 = none.",
            "瓶颈前的限速器：以此速率补充令牌的令牌桶，超出部分直接丢弃，不排队（如运营商的入口限速）；0 表示没有。",
        ),
    ),
    knob(
        Key::Queue,
        ("Queue", "队列"),
        ("pkts", "包"),
        (
            "The bottleneck queue's hard limit: packets arriving to a full queue are dropped, whatever the discipline.",
            "瓶颈队列的硬上限：队列满时到达的包被丢弃，无论采用何种队列管理。",
        ),
    ),
    knob(
        Key::Aqm,
        ("Discipline", "队列管理"),
        ("", ""),
        (
            "How the bottleneck's queue is managed: drop-tail FIFO; RED drops early by the average queue; CoDel by how long packets wait (RFC 8289); FQ-CoDel gives each flow its own CoDel queue (RFC 8290); PIE by a drop probability (RFC 8033).",
            "瓶颈队列的管理方式：尾部丢弃 FIFO；RED 按平均队长提前丢包；CoDel 按包的排队时间（RFC 8289）；FQ-CoDel 为每条流各设一个 CoDel 队列（RFC 8290）；PIE 按丢包概率（RFC 8033）。",
        ),
    ),
    knob(
        Key::Ecn,
        ("ECN", "ECN"),
        ("", ""),
        (
            "Explicit Congestion Notification (RFC 3168): the queue marks packets instead of dropping them; the sender slows down as for a loss, with nothing to retransmit.",
            "显式拥塞通知（RFC 3168）：队列标记包而不是丢弃；发送方像遇到丢包一样降速，但无需重传。",
        ),
    ),
    knob(
        Key::CodelTarget,
        ("CoDel target", "CoDel 目标"),
        ("ms", "ms"),
        (
            "The standing queue delay CoDel accepts (RFC 8289: 5 ms).",
            "CoDel 可接受的常驻排队时延（RFC 8289：5 ms）。",
        ),
    ),
    knob(
        Key::CodelInterval,
        ("CoDel interval", "CoDel 间隔"),
        ("ms", "ms"),
        (
            "How long the delay must stay above target before CoDel drops: about a worst-case RTT (RFC 8289: 100 ms).",
            "排队时延持续高于目标多久后 CoDel 才丢包：约为最坏情况的 RTT（RFC 8289：100 ms）。",
        ),
    ),
    knob(
        Key::FqQuantum,
        ("Quantum", "量子"),
        ("B", "B"),
        (
            "Bytes each flow may send per round of FQ-CoDel's deficit round robin (RFC 8290: one MTU, 1514).",
            "FQ-CoDel 差额轮询中每条流每轮可发送的字节数（RFC 8290：一个 MTU，1514）。",
        ),
    ),
    knob(
        Key::PieTarget,
        ("PIE target", "PIE 目标"),
        ("ms", "ms"),
        (
            "The queueing delay PIE steers toward (RFC 8033: 15 ms).",
            "PIE 追求的排队时延（RFC 8033：15 ms）。",
        ),
    ),
    knob(
        Key::PieTupdate,
        ("PIE update", "PIE 更新周期"),
        ("ms", "ms"),
        (
            "How often PIE updates its drop probability (Linux: 15 ms, in whole 4 ms ticks).",
            "PIE 更新丢包概率的周期（Linux：15 ms，按 4 ms 的整数节拍）。",
        ),
    ),
    knob(
        Key::PieAlpha,
        ("PIE alpha", "PIE alpha"),
        ("/16", "/16"),
        (
            "Weight of the delay's distance from target in each update, in sixteenths (Linux: 2).",
            "每次更新中时延偏离目标的权重，单位为 1/16（Linux：2）。",
        ),
    ),
    knob(
        Key::PieBeta,
        ("PIE beta", "PIE beta"),
        ("/16", "/16"),
        (
            "Weight of the delay's trend in each update, in sixteenths (Linux: 20).",
            "每次更新中时延变化趋势的权重，单位为 1/16（Linux：20）。",
        ),
    ),
    knob(
        Key::RedMin,
        ("RED min", "RED 下限"),
        ("pkts", "包"),
        (
            "Below this average queue RED drops nothing (Floyd: 5 packets).",
            "平均队长低于此值时 RED 不丢包（Floyd：5 个包）。",
        ),
    ),
    knob(
        Key::RedMax,
        ("RED max", "RED 上限"),
        ("pkts", "包"),
        (
            "At this average queue RED's probability reaches max_p; gentle RED ramps on to 100 % at twice it.",
            "平均队长达到此值时 RED 的概率升至 max_p；温和 RED 在两倍处升至 100%。",
        ),
    ),
    knob(
        Key::RedMaxp,
        ("RED max_p", "RED max_p"),
        ("%", "%"),
        (
            "RED's drop probability at its maximum threshold (Floyd: 10 %).",
            "RED 在上限处的丢包概率（Floyd：10%）。",
        ),
    ),
    knob(
        Key::RedWq,
        ("RED weight", "RED 权重"),
        ("", ""),
        (
            "Weight of the newest queue length in RED's average (Floyd: 0.002).",
            "最新队长在 RED 平均值中的权重（Floyd：0.002）。",
        ),
    ),
    knob(
        Key::Mss,
        ("MSS", "MSS"),
        ("B", "B"),
        (
            "Maximum segment size: the payload of one packet.",
            "最大报文段长度：一个包的净荷。",
        ),
    ),
    knob(
        Key::Iw,
        ("Initial window", "初始窗口"),
        ("seg", "段"),
        (
            "Initial congestion window: segments sent in the first round trip (RFC 6928: 10).",
            "初始拥塞窗口：第一个往返发出的报文段数（RFC 6928：10）。",
        ),
    ),
    knob(
        Key::Rwnd,
        ("Receive window", "接收窗口"),
        ("B", "B"),
        (
            "The largest window the receiver offers: the most data in flight it allows; rwnd/RTT caps the rate.",
            "接收方提供的最大窗口：允许在途的最大数据量；rwnd/RTT 是速率上限。",
        ),
    ),
    knob(
        Key::Hystart,
        ("HyStart", "HyStart"),
        ("", ""),
        (
            "Leave slow start early when delay rises (CUBIC, as in Linux).",
            "时延上升时提前退出慢启动（CUBIC，与 Linux 相同）。",
        ),
    ),
    knob(
        Key::Sack,
        ("SACK", "SACK"),
        ("", ""),
        (
            "Selective acknowledgements: the receiver reports which segments arrived.",
            "选择性确认：接收方报告哪些报文段已到达。",
        ),
    ),
    knob(
        Key::Ts,
        ("Timestamps", "时间戳"),
        ("", ""),
        (
            "TCP timestamps (RFC 7323): 12 header bytes per segment, and an RTT sample from every ACK, retransmissions included.",
            "TCP 时间戳（RFC 7323）：每段多 12 字节首部，每个 ACK 都给出 RTT 样本，重传也不例外。",
        ),
    ),
    knob(
        Key::Autotune,
        ("Autotuning", "自动调优"),
        ("", ""),
        (
            "Receive-buffer autotuning, as Linux: the window starts near 64 KB and grows each round trip up to rwnd. Off: a fixed buffer of rwnd.",
            "接收缓冲区自动调优（与 Linux 相同）：窗口从约 64 KB 起，每个往返增长，直至 rwnd。关闭：固定为 rwnd 的缓冲区。",
        ),
    ),
    knob(
        Key::Delack,
        ("Delayed ACK", "延迟确认"),
        ("ms", "ms"),
        (
            "How long the receiver may hold an ACK (RFC 1122); 0 = ACK every segment.",
            "接收方最多延迟 ACK 的时间（RFC 1122）；0 表示每段都确认。",
        ),
    ),
    knob(
        Key::Minrto,
        ("Min RTO", "最小 RTO"),
        ("ms", "ms"),
        (
            "The shortest retransmission timeout (Linux: 200 ms).",
            "重传超时的下限（Linux：200 ms）。",
        ),
    ),
    knob(
        Key::App,
        ("Workload", "负载"),
        ("", ""),
        (
            "Body: one transfer of a fixed size. Bulk: send without end for the duration. Messages: small writes at a fixed interval.",
            "单次传输：传一次固定大小的数据。持续发送：在时长内不停发送。消息：按固定间隔写小消息。",
        ),
    ),
    knob(
        Key::Body,
        ("Body size", "数据量"),
        ("B", "B"),
        (
            "Bytes each flow sends before it is done.",
            "每条流发送的字节数，发完即结束。",
        ),
    ),
    knob(
        Key::Dur,
        ("Duration", "时长"),
        ("s", "s"),
        (
            "Simulated time limit of the run.",
            "模拟的时间上限。",
        ),
    ),
    knob(
        Key::Flows,
        ("Flows", "流数"),
        ("", ""),
        (
            "Parallel flows sharing the bottleneck.",
            "共享瓶颈的并行流数。",
        ),
    ),
    knob(
        Key::Start,
        ("Start", "开始时间"),
        ("s", "s"),
        (
            "When the flows open their connections; a comma list gives each flow its own (0,5).",
            "各流建立连接的时刻；用逗号分隔的列表可为每条流各设一个（0,5）。",
        ),
    ),
    knob(
        Key::Msg,
        ("Message size", "消息大小"),
        ("B", "B"),
        ("Bytes in each message.", "每条消息的字节数。"),
    ),
    knob(
        Key::Every,
        ("Interval", "间隔"),
        ("ms", "ms"),
        ("Time between two messages.", "两条消息之间的时间。"),
    ),
    knob(
        Key::Count,
        ("Messages", "消息数"),
        ("", ""),
        ("How many messages are sent.", "发送的消息条数。"),
    ),
    knob(
        Key::Conns,
        ("Connections", "连接数"),
        ("", ""),
        (
            "TCP connections the messages take turns on; 0 = UDP, no ordering.",
            "消息轮流使用的 TCP 连接数；0 表示 UDP，不保序。",
        ),
    ),
    knob(
        Key::Probe,
        ("Ping every", "Ping 间隔"),
        ("ms", "ms"),
        (
            "A latency probe: a small ping through the same bottleneck this often, beside the workload, as bufferbloat tests measure it; 0 = none.",
            "延迟探针：按此间隔发送小 ping，与负载共用瓶颈，正如缓冲膨胀测试所测；0 表示不发。",
        ),
    ),
    knob(
        Key::Seed,
        ("Seed", "随机种子"),
        ("", ""),
        (
            "The random seed: the same seed gives the same run, bit for bit.",
            "随机种子：同一种子得到逐位相同的结果。",
        ),
    ),
];

/// The knob of `key`.
pub fn knob_of(key: Key) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.key == key)
}

/// The slider of a numeric key in `scenario` (rwnd's lower end follows mss), or `None` for a
/// key set otherwise (choices, flags, drop, seed).
pub fn slider(key: Key, scenario: &Scenario) -> Option<Slider> {
    let (min, max) = key.bounds()?;
    Some(match key {
        Key::Loss | Key::Ackloss => Slider::log_zero(LOSS_LOW, max),
        Key::Rwnd => Slider::log((2 * u64::from(scenario.mss)) as f64, max, true),
        Key::Delack => Slider::linear(min, max, 1.0, false),
        Key::Flows | Key::Conns => Slider::linear(min, max, 1.0, true),
        Key::Queue | Key::Mss | Key::Iw | Key::Body | Key::Msg | Key::Count => {
            Slider::log(min, max, true)
        }
        Key::Rtt | Key::Bw | Key::Burst | Key::Minrto | Key::Dur | Key::Every => {
            Slider::log(min, max, false)
        }
        Key::CodelTarget | Key::CodelInterval | Key::PieTarget | Key::PieTupdate => {
            Slider::log(min, max, false)
        }
        Key::FqQuantum => Slider::log(min, max, true),
        Key::PieAlpha | Key::PieBeta => Slider::linear(min, max, 1.0, true),
        // Each of RED's thresholds moves within the other's: min up to max, max from min.
        Key::RedMin => Slider::log_zero(0.5, scenario.red_max.max(0.5)),
        Key::RedMax => Slider::log(scenario.red_min.max(0.5), max, false),
        Key::RedMaxp => Slider::linear(min, max, 0.5, false),
        Key::RedWq => Slider::log(min, max, false),
        Key::Probe => Slider::log_zero(1.0, max),
        Key::Police => Slider::log_zero(0.1, max),
        _ => return None,
    })
}

/// A numeric key's value in `scenario`, in its query unit: the key table's.
pub fn value(key: Key, s: &Scenario) -> Option<f64> {
    s.value(key).number()
}

/// A key's value as the number box shows it: the canonical form's text, in the key's unit.
pub fn text(key: Key, s: &Scenario) -> String {
    s.value_text(key)
}

/// A value as a query writes it: the shortest text that reads back as the same `f64`, never in
/// exponent form (`28`, `0.1`, `10000000000`), as the canonical form writes it.
pub use tcplab::scenario::fmt_decimal as decimal;

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tcplab::Scenario;

    use crate::model::knobs::{self, decimal, KNOBS};
    use crate::model::scale::Slider;

    #[test]
    fn loss_sliders_stop_at_zero() {
        let loss = Slider::log_zero(knobs::LOSS_LOW, 50.0);
        assert_eq!(loss.value_at(0), 0.0);
        assert_eq!(loss.value_at(1), knobs::LOSS_LOW);
        assert_eq!(loss.value_at(loss.steps()), 50.0);
        assert_eq!(loss.position_of(0.0), 0);
        assert_eq!(loss.step(0.0, true, false), knobs::LOSS_LOW);
        assert_eq!(loss.step(knobs::LOSS_LOW, false, false), 0.0);
        let one = loss.position_of(1.0);
        assert!((loss.value_at(one) - 1.0).abs() < 0.02);
    }

    #[test]
    fn every_slider_writes_values_the_scenario_accepts() {
        let s = Scenario::default();
        for knob in KNOBS {
            let Some(slider) = knobs::slider(knob.key, &s) else {
                continue;
            };
            for p in (0..=slider.steps()).step_by(7).chain([slider.steps()]) {
                let mut t = s.clone();
                let v = decimal(slider.value_at(p));
                assert!(
                    t.set(knob.key, &v).is_ok(),
                    "{} = {v} (position {p}) is refused",
                    knob.key
                );
            }
            // The number box shows what the link says.
            let shown = knobs::text(knob.key, &s);
            let mut t = s.clone();
            assert!(t.set(knob.key, &shown).is_ok(), "{}", knob.key);
            assert_eq!(t, s, "{}", knob.key);
        }
    }
}
