//! The sender's state after the step on show: the numbers the sentence speaks of.

use tcplab::player::explain::{ms, mss};
use tcplab::player::{CaLabel, FlowState};
use yew::prelude::*;

use crate::i18n::Lang;

/// The recovery state's name: Linux's, with what it means.
pub fn ca_label(ca: CaLabel, lang: Lang) -> &'static str {
    match ca {
        CaLabel::Open => lang.pick("Open", "正常 Open"),
        CaLabel::Disorder => lang.pick("Disorder", "乱序 Disorder"),
        CaLabel::Cwr => lang.pick("CWR (ECN echo)", "降窗 CWR（ECN）"),
        CaLabel::Recovery => lang.pick("Recovery", "快速恢复 Recovery"),
        CaLabel::Loss => lang.pick("Loss (timeout)", "超时恢复 Loss"),
    }
}

fn ca_name(ca: CaLabel) -> &'static str {
    match ca {
        CaLabel::Open => "open",
        CaLabel::Disorder => "disorder",
        CaLabel::Cwr => "cwr",
        CaLabel::Recovery => "recovery",
        CaLabel::Loss => "loss",
    }
}

#[derive(Properties, PartialEq)]
pub struct ReadoutsProps {
    pub state: FlowState,
    pub mss: u32,
    pub lang: Lang,
}

fn item(id: &str, name: &str, value: String, unit: &str, raw: String, tip: &str) -> Html {
    html! {
        <div class={classes!("readout", (id == "player-ca").then_some("readout-wide"))} title={tip.to_string()}>
            <dt>{ name.to_string() }</dt>
            <dd id={id.to_string()} data-raw={raw}>
                <span class="readout-num">{ value }</span>
                if !unit.is_empty() {
                    <span class="readout-unit">{ unit.to_string() }</span>
                }
            </dd>
        </div>
    }
}

#[function_component]
pub fn Readouts(props: &ReadoutsProps) -> Html {
    let st = &props.state;
    let lang = props.lang;
    let m = props.mss;
    let none = || "—".to_string();
    html! {
        <dl class="readouts" id="player-readouts">
            { item("player-cwnd", "cwnd", mss(st.cwnd, m), "MSS", st.cwnd.to_string(),
                lang.pick("Congestion window after this step", "这一步之后的拥塞窗口")) }
            { item("player-ssthresh", "ssthresh",
                st.ssthresh.map_or_else(|| "∞".to_string(), |v| mss(v, m)),
                if st.ssthresh.is_some() { "MSS" } else { "" },
                st.ssthresh.map(|v| v.to_string()).unwrap_or_default(),
                lang.pick("Slow-start threshold: unbounded until the first loss",
                    "慢启动阈值：第一次丢包之前不设上限")) }
            { item("player-inflight", lang.pick("in flight", "在途"), mss(st.in_flight, m), "MSS",
                st.in_flight.to_string(),
                lang.pick("Data sent and not yet acknowledged (Linux's packets in flight)",
                    "已发送、尚未确认的数据（Linux 的 packets in flight）")) }
            { item("player-srtt", "SRTT", st.srtt_ms.map_or_else(none, ms),
                if st.srtt_ms.is_some() { "ms" } else { "" },
                st.srtt_ms.map(|v| v.to_string()).unwrap_or_default(),
                lang.pick("Smoothed round-trip time (RFC 6298)", "平滑往返时间（RFC 6298）")) }
            { item("player-rto", "RTO", ms(st.rto_ms), "ms", st.rto_ms.to_string(),
                lang.pick("Retransmission timeout", "重传超时")) }
            { item("player-ca", lang.pick("state", "状态"), ca_label(st.ca, lang).to_string(), "",
                ca_name(st.ca).to_string(),
                lang.pick("The sender's loss-recovery state (Linux's tcp_ca_state)",
                    "发送方的丢包恢复状态（Linux 的 tcp_ca_state）")) }
            { item("player-queue", lang.pick("queue", "队列"), st.queue.to_string(),
                lang.pick("pkts", "包"), st.queue.to_string(),
                lang.pick("Packets waiting at the bottleneck, all flows", "在瓶颈排队的包（所有流）")) }
        </dl>
    }
}
