//! Named scenarios, one per experiment of the seed documents.
//!
//! A preset is a query applied over the defaults by the one parser, so a preset can hold
//! nothing a link could not, and `preset=NAME` in a link is the same run as its query.

use super::source::{Post, Source};
use super::{Scenario, ScenarioError};
use crate::player::explain::Text;
use crate::player::StepTag;

/// A named scenario and what it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// The value of `preset=` that selects it.
    pub name: &'static str,
    /// Where its experiment comes from: one of the five posts, or a paper it follows.
    pub source: Source,
    /// Keys applied over the defaults, in the order of the key table. It states every key the
    /// experiment depends on, even one equal to today's default, so that changing a default
    /// never changes a preset.
    pub query: &'static str,
    /// What it shows, in one English sentence.
    pub en: &'static str,
    /// What it shows, in one Chinese sentence.
    pub zh: &'static str,
    /// A lesson: the page opens the player with it, paused at its first step (or its moment).
    pub lesson: bool,
    /// The kind of step a lesson opens on: the player stands on the first such step, paused,
    /// when the preset is loaded.
    pub moment: Option<StepTag>,
}

/// Every preset, the default experiment first.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "post-slow-start",
        source: Source::Post(Post::SlowPost),
        // 2873 packets of 1460 bytes are the router's 4 MiB FIFO.
        query: "cc=cubic&rtt=31.537&bw=1000&queue=2873&mss=1460&iw=10&app=body&body=2499986",
        en: "A 2.5 MB POST (20 Mb) over a 31.5 ms, 1 Gbit/s path finishes inside slow start, \
             about 7 to 8 round trips after the handshake, far below the link rate.",
        zh: "一个 2.5 MB（20 Mb）的 POST 在 31.5 ms、1 Gbit/s 的路径上还没走出慢启动就传完了，\
             握手之后约需 7 到 8 个往返，远远达不到链路速率。",
        lesson: true,
        moment: None,
    },
    Preset {
        name: "loss-sweep",
        source: Source::Post(Post::LossRate),
        // The seed ran on macOS loopback: MSS 16332, loss on both directions, 5.5 s runs.
        query: "cc=reno&rtt=20&bw=10000&loss=1&ackloss=1&mss=16332&app=bulk&dur=5.5",
        en: "Reno's throughput under random loss, beside the Mathis formula: sweep the loss \
             rate to watch it collapse.",
        zh: "随机丢包下 Reno 的吞吐量与 Mathis 公式对照：扫描丢包率，看吞吐量如何崩塌。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "hol-blocking",
        source: Source::Post(Post::HeadOfLine),
        // 50 ms each way, 3 % loss both ways, a 100-byte message every 10 ms, 3 runs of 500.
        query: "rtt=100&loss=3&ackloss=3&app=msgs&dur=20&msg=100&every=10&count=1500",
        en: "One lost segment holds every later message in the receive buffer until its \
             retransmission arrives, then releases them in one burst.",
        zh: "一个报文段丢失，其后的所有消息都被扣在接收缓冲区里，直到重传到达才一次性放出。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "cubic-vs-reno",
        source: Source::Post(Post::Algorithms),
        query: "rtt=100&bw=10000&loss=0.1&ackloss=0.1&mss=16332&app=bulk&dur=10",
        en: "On a long path with little loss, CUBIC's cubic regrowth of the window beats \
             Reno's Mathis rate.",
        zh: "在丢包很少的长路径上，CUBIC 按三次曲线恢复窗口，吞吐量超过 Reno 的 Mathis 速率。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "random-loss-bbr",
        source: Source::Post(Post::Algorithms),
        query: "cc=bbr&rtt=50&bw=100&loss=1&app=bulk&dur=30",
        en: "A model-based algorithm, BBR, keeps the link full under random loss, where \
             loss-based ones collapse.",
        zh: "在随机丢包的链路上，基于模型的 BBR 仍能把链路跑满，而基于丢包的算法会崩塌。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "multi-flow",
        source: Source::Post(Post::Simulator),
        query: "rtt=20&bw=100&app=bulk&dur=20&flows=8",
        en: "Eight flows share one bottleneck: watch fairness and synchronised back-off.",
        zh: "八条流共享同一个瓶颈：观察公平性与同步退让。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "bufferbloat",
        source: Source::Other(Text::new(
            "the classic big queue (Gettys and Nichols, 2011)",
            "经典的大队列（Gettys 与 Nichols，2011）",
        )),
        // A 10 Mbit/s uplink with a 2 000-packet FIFO, 2.4 s of queue; a ping every 20 ms.
        query: "cc=cubic&rtt=40&bw=10&queue=2000&aqm=fifo&ecn=0&app=bulk&dur=20&flows=1&probe=20",
        en: "One upload fills a huge drop-tail queue: the link stays busy, and a ping beside it \
             waits seconds behind the standing queue (\"the upload makes my calls lag\").",
        zh: "一个上传填满了巨大的尾部丢弃队列：链路一直忙碌，旁边的 ping 却要在常驻队列后面等上几秒\
             （“一上传，通话就卡”）。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "bufferbloat-fq-codel",
        source: Source::Other(Text::new(
            "RFC 8290's cure for bufferbloat",
            "RFC 8290 对缓冲膨胀的解药",
        )),
        query: "cc=cubic&rtt=40&bw=10&queue=2000&aqm=fq_codel&ecn=0&app=bulk&dur=20&flows=1&probe=20",
        en: "The same upload under FQ-CoDel: each flow's queue is held near 5 ms and the ping, a \
             sparse flow, goes first: its round trip stays at the path's 40 ms.",
        zh: "同样的上传换成 FQ-CoDel：每条流的队列被压在 5 ms 左右，稀疏的 ping 优先发送，\
             往返时间保持在路径本身的 40 ms。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "codel-ecn",
        source: Source::Other(Text::new(
            "RFC 8289 with RFC 3168",
            "RFC 8289 与 RFC 3168",
        )),
        query: "cc=cubic&rtt=40&bw=10&queue=2000&aqm=codel&ecn=1&app=bulk&dur=20&flows=1&probe=20",
        en: "CoDel marks instead of dropping: the sender cuts its window for an echoed mark as \
             for a loss, the queue stays short, and nothing is retransmitted.",
        zh: "CoDel 以标记代替丢包：发送方对回显的标记像对丢包一样降窗，队列保持很短，且没有任何重传。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "bandwidth-drop",
        source: Source::Other(Text::new(
            "a path that changes under a transfer",
            "传输途中改变的路径",
        )),
        // A queue of 500 packets is 60 ms at 100 Mbit/s, and 600 ms once the rate is 10.
        query: "cc=cubic&rtt=40&bw=100&sched=10:bw:10&queue=500&app=bulk&dur=20&flows=1",
        en: "The bottleneck falls from 100 to 10 Mbit/s at 10 s: the queue the window built \
             for the fast link now takes ten times as long to drain, the RTT balloons, and \
             CUBIC's losses bring the window down to the new path.",
        zh: "瓶颈在 10 s 时从 100 Mbit/s 降到 10 Mbit/s：为快链路攒下的队列现在要十倍的时间才能排空，\
             RTT 暴涨，CUBIC 在丢包后把窗口降到新路径的大小。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "bbr-vs-cubic",
        source: Source::Other(Text::new(
            "Ware et al., IMC 2019: BBR against a loss-based flow",
            "Ware 等，IMC 2019：BBR 与基于丢包的流",
        )),
        // Half a BDP of buffer: 100 Mbit/s over 40 ms is 333 full-size packets. The receivers'
        // 16 MiB leave the window out of it, as Ware et al.'s model does: with 4 MiB a deep
        // queue's recovery fills CUBIC's receive buffer with out-of-order data (docs/validation.md).
        query: "cc=bbr,cubic&rtt=40&bw=100&queue=167&rwnd=16777216&app=bulk&dur=60&flows=2",
        en: "One BBR and one CUBIC flow through half a BDP of buffer: BBR's paced probing takes \
             most of the link while CUBIC's losses keep cutting it back. bbr-vs-cubic-deep is \
             the same with five BDPs.",
        zh: "一条 BBR 流和一条 CUBIC 流共享半个 BDP 的缓冲：BBR 按节奏的探测占去大部分链路，\
             CUBIC 则不断因丢包而退让。bbr-vs-cubic-deep 是同样的路径配五个 BDP 的缓冲。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "bbr-vs-cubic-deep",
        source: Source::Other(Text::new(
            "Ware et al., IMC 2019: BBR against a loss-based flow",
            "Ware 等，IMC 2019：BBR 与基于丢包的流",
        )),
        // Five BDPs of buffer.
        query: "cc=bbr,cubic&rtt=40&bw=100&queue=1666&rwnd=16777216&app=bulk&dur=60&flows=2",
        en: "One BBR and one CUBIC flow through five BDPs of buffer: CUBIC fills the queue, and \
             BBR, held to twice its estimate of the path in flight, gets the smaller part: \
             about a third, once ProbeRTT has taken the queue's delay into its estimate.",
        zh: "一条 BBR 流和一条 CUBIC 流共享五个 BDP 的缓冲：CUBIC 把队列填满，\
             BBR 的在途数据被限制在它所估计路径容量的两倍，只分到较小的一份：\
             在 ProbeRTT 把排队时延计入估计之后，约三分之一。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "rtt-unfairness",
        source: Source::Other(Text::new(
            "Floyd and Jacobson 1991, Lakshman and Madhow 1997",
            "Floyd 与 Jacobson 1991，Lakshman 与 Madhow 1997",
        )),
        // 50 packets are 60 ms at 10 Mbit/s.
        query: "cc=reno&rtt=10,100&bw=10&queue=50&app=bulk&dur=120&flows=2",
        en: "Two Reno flows through one queue, 10 and 100 ms away: the shorter round trip grows \
             its window ten times as often and takes most of the link.",
        zh: "两条 Reno 流经过同一个队列，往返时延分别为 10 ms 和 100 ms：往返短的流窗口增长快十倍，\
             占去大部分链路。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "policer",
        source: Source::Other(Text::new(
            "Flach et al., SIGCOMM 2016: traffic policing",
            "Flach 等，SIGCOMM 2016：流量限速",
        )),
        // The shaper at the same rate is `bw=10&police=0&queue=50`.
        query: "cc=cubic&rtt=40&bw=100&police=10&queue=500&app=bulk&dur=30&flows=1",
        en: "A 10 Mbit/s policer on a 100 Mbit/s path drops every packet its token bucket cannot \
             pay for: CUBIC loses far more and gets less than a 10 Mbit/s link with a queue \
             (bw=10&police=0&queue=50) would give it.",
        zh: "100 Mbit/s 路径上的 10 Mbit/s 限速器丢掉令牌桶付不起的每一个包：\
             与一条带队列的 10 Mbit/s 链路（bw=10&police=0&queue=50）相比，CUBIC 丢得多得多，得到的也更少。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "cellular",
        source: Source::Other(Text::new(
            "Sprout's model of an LTE link (Winstein et al., NSDI 2013)",
            "Sprout 的 LTE 链路模型（Winstein 等，NSDI 2013）",
        )),
        // A cellular base station's deep per-user buffer.
        query: "cc=cubic&rtt=60&bw=10&link=lte&queue=1000&app=bulk&dur=30&flows=1",
        en: "An LTE link whose rate wanders between nothing and twice its 10 Mbit/s mean: CUBIC \
             fills the base station's deep buffer while the rate is high, and the queue takes \
             seconds to drain when it falls.",
        zh: "一条 LTE 链路，速率在零到其 10 Mbit/s 均值的两倍之间游走：速率高时 CUBIC 把基站的深缓冲填满，\
             速率一降，队列要好几秒才能排空。",
        lesson: false,
        moment: None,
    },
    Preset {
        name: "lesson-fast-retransmit",
        source: Source::Other(Text::new(
            "a lesson: one segment lost in mid-flight",
            "课程：一个报文段在途中丢失",
        )),
        // Segment 15 of a 100-segment body: later segments arrive and are SACKed.
        query: "rtt=100&bw=20&drop=15&mss=1460&iw=10&app=body&body=146000",
        en: "One segment is lost in mid-flight; the segments after it arrive, their SACKs show \
             the hole, and the sender retransmits it at once, without waiting for a timeout.",
        zh: "一个报文段在途中丢失；其后的报文段照常到达，SACK 暴露出空洞，发送方立即重传，\
             无需等待超时。",
        lesson: true,
        moment: Some(StepTag::FastRetransmit),
    },
    Preset {
        name: "lesson-tail-loss-probe",
        source: Source::Other(Text::new(
            "a lesson: the last segment lost",
            "课程：最后一个报文段丢失",
        )),
        // The tenth and last segment of the first flight.
        query: "rtt=100&bw=20&drop=10&mss=1460&iw=10&app=body&body=14600",
        en: "The last segment is lost, so no later segment can reveal it: after about two round \
             trips of silence a tail loss probe resends it (RFC 8985).",
        zh: "最后一个报文段丢失，没有后续报文段能暴露它：沉默约两个往返之后，尾部丢失探测\
             把它重发（RFC 8985）。",
        lesson: true,
        moment: Some(StepTag::LossProbe),
    },
    Preset {
        name: "lesson-timeout",
        source: Source::Other(Text::new(
            "a lesson: a loss nothing else can repair",
            "课程：只有超时能修复的丢失",
        )),
        // The last segment, its probe and the first retransmission are all lost.
        query: "rtt=100&bw=20&drop=10,11,12&mss=1460&iw=10&app=body&body=14600",
        en: "The last segment and its probe are both lost: the retransmission timer fires, the \
             window falls to one segment, and when the retransmission is lost too the timer \
             doubles (RFC 6298).",
        zh: "最后一个报文段和它的探测都丢失了：重传计时器到期，窗口降到一个报文段；重传\
             也丢失时，计时器加倍（RFC 6298）。",
        lesson: true,
        moment: Some(StepTag::Timeout),
    },
];

impl Preset {
    /// The preset called `name`, exactly.
    pub fn find(name: &str) -> Option<&'static Preset> {
        PRESETS.iter().find(|p| p.name == name)
    }

    /// The defaults with this preset's keys applied, remembering the preset's name.
    ///
    /// Fails only for a hand-made `Preset` whose query is bad (or names a preset itself); the
    /// ones in [`PRESETS`] are tested to parse.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        let mut scenario = Scenario::default().with_query(self.query)?;
        scenario.preset = Some(self.name);
        Ok(scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Language;
    use crate::scenario::{App, CcAlgo, Key};

    #[test]
    fn every_preset_parses_and_names_its_source() {
        for p in PRESETS {
            let s = p.scenario();
            assert!(s.is_ok(), "{}: {s:?}", p.name);
            for lang in [Language::En, Language::Zh] {
                assert!(!p.source.words(lang).is_empty(), "{}", p.name);
            }
            assert!(!p.en.is_empty() && !p.zh.is_empty());
            assert_eq!(Preset::find(p.name), Some(p));
        }
        for post in Post::ALL {
            assert!(
                PRESETS.iter().any(|p| p.source.post() == Some(post)),
                "seed {:03} has a preset",
                post.seed()
            );
        }
        assert_eq!(Preset::find("Post-Slow-Start"), None);
    }

    #[test]
    fn preset_queries_follow_the_key_table() {
        for p in PRESETS {
            let order: Vec<Option<usize>> = p
                .query
                .split('&')
                .map(|pair| pair.split('=').next().and_then(Key::from_name))
                .map(|key| key.and_then(|k| Key::ALL.iter().position(|&o| o == k)))
                .collect();
            assert!(order.iter().all(Option::is_some), "{}", p.name);
            assert!(order.windows(2).all(|w| w[0] < w[1]), "{}", p.name);
        }
    }

    #[test]
    fn a_preset_canonicalises_to_its_name() {
        for p in PRESETS {
            let Ok(s) = p.scenario() else {
                panic!("{} does not parse", p.name)
            };
            assert_eq!(s.to_query(), format!("preset={}", p.name));
            let q = format!("preset={}", p.name);
            assert_eq!(Scenario::parse(&q), Ok(s));
        }
    }

    #[test]
    fn a_preset_with_a_moment_is_a_lesson() {
        assert!(PRESETS.iter().all(|p| p.moment.is_none() || p.lesson));
    }

    #[test]
    fn a_lessons_moment_is_a_kind_of_step_it_has() {
        for p in PRESETS {
            let Some(moment) = p.moment else { continue };
            let Ok(s) = p.scenario() else {
                panic!("{} does not parse", p.name)
            };
            let options = crate::RunOptions {
                record_steps: Some(crate::player::StepWindow::WHOLE_RUN),
                ..crate::RunOptions::default()
            };
            let r = crate::run(&s, &options);
            let steps = r.steps.unwrap_or_default();
            assert!(
                steps.steps.iter().any(|st| st.kind.tag() == moment),
                "{}: no {moment:?} step",
                p.name
            );
        }
    }

    #[test]
    fn names_are_unique() {
        for (i, p) in PRESETS.iter().enumerate() {
            assert!(PRESETS[i + 1..].iter().all(|o| o.name != p.name));
        }
    }

    #[test]
    fn post_slow_start_is_seed_003() {
        let Ok(s) = Preset::find("post-slow-start").map_or(Err(()), |p| p.scenario().map_err(drop))
        else {
            panic!("post-slow-start parses")
        };
        assert_eq!(s.rtt_ms, 31.537);
        assert_eq!(s.bw_mbps, 1000.0);
        assert_eq!((s.mss, s.iw, s.queue, s.body), (1460, 10, 2873, 2_499_986));
        assert_eq!((s.cc, s.app), (CcAlgo::Cubic, App::Body));
    }

    #[test]
    fn a_preset_cannot_name_a_preset() {
        let looped = Preset {
            name: "looped",
            source: Source::Other(Text::new("test", "test")),
            query: "preset=bufferbloat",
            en: "",
            zh: "",
            lesson: false,
            moment: None,
        };
        let Err(e) = looped.scenario() else {
            panic!("a preset inside a preset is refused")
        };
        assert_eq!(e.key(), "preset");
    }
}
