//! "My number, explained": an engineer measured a goodput (or the time one body took) on a
//! path they know a little of; which single cause, on that path, would give that number?
//!
//! Each cause is a knob of the scenario, and each is found by simulation: a bisection over the
//! knob (the loss rate, the receive window, the bottleneck's rate, the server's think time)
//! until the run gives the measured number, then the run itself as the proof. A cause no value
//! of its knob can produce is ruled out, with the closest it came; so is the path alone, when
//! the path as known is faster than what was measured. A number no run on the path can give at
//! all (a goodput above the link's payload rate, a time below ideal slow start's) is told as
//! impossible there.
//!
//! Every line is a [`Finding`] with its numbers, said in English or Chinese by
//! [`Finding::say`] (as the player says its steps); the runner's JSON carries the English too.

use serde::{Deserialize, Serialize};

use crate::player::Language;
use crate::rate::{MBytePerS, MbitPerS};
use crate::scenario::{App, Key, Scenario};
use crate::sim::{run, RunOptions, RunResult};
use crate::theory::path::{mean_rate_mbps, Limits};
use crate::theory::slow_start::ideal_completion_ms;
use crate::theory::verdict::{app_rate, verdict, Limit};
use crate::Summary;

/// What was measured.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Measured {
    /// A goodput, MB/s: payload bytes over the time from the first data byte to the last.
    Goodput(f64),
    /// How long one body took, ms, from the connection's SYN to its last byte read.
    Time(f64),
}

impl Measured {
    /// The run's number: a run that delivered nothing has no goodput, one whose body did
    /// not finish took longer than any time (infinite here, for the comparisons only: it is
    /// said as [`Got::Unfinished`]).
    fn of(self, summary: &Summary) -> f64 {
        match self {
            Measured::Goodput(_) => summary.goodput_MBps.unwrap_or(0.0),
            Measured::Time(_) => summary.completion_ms.unwrap_or(f64::INFINITY),
        }
    }

    /// The number measured, in its unit.
    pub fn value(self) -> f64 {
        match self {
            Measured::Goodput(v) | Measured::Time(v) => v,
        }
    }

    fn unit(self) -> &'static str {
        match self {
            Measured::Goodput(_) => "MB/s",
            Measured::Time(_) => "ms",
        }
    }

    /// `x`, a number of this kind, as a figure to say; `after_s` is how long the trial ran.
    fn got(self, x: f64, after_s: f64) -> Got {
        match self {
            Measured::Goodput(_) => Got::Rate(MBytePerS(x)),
            Measured::Time(_) if x.is_finite() => Got::Ms(x),
            Measured::Time(_) => Got::Unfinished { after_s },
        }
    }

    /// The number measured, as a figure.
    fn figure(self) -> Got {
        self.got(self.value(), 0.0)
    }

    /// Whether `y` is worse than `than`: a lower goodput, a longer time.
    fn worse(self, y: f64, than: f64) -> bool {
        match self {
            Measured::Goodput(_) => y < than,
            Measured::Time(_) => y > than,
        }
    }
}

/// A figure a run gave, in its unit. A body not done when its trial stopped has no time: it is
/// said as such, never as an infinite one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Got {
    Rate(MBytePerS),
    Ms(f64),
    Unfinished { after_s: f64 },
}

impl Got {
    fn say(self, lang: Language) -> String {
        match (self, lang) {
            (Got::Rate(r), _) => format!("{} MB/s", fmt(r.0)),
            (Got::Ms(ms), _) => format!("{} ms", fmt(ms)),
            (Got::Unfinished { after_s }, Language::En) => {
                format!("a body not done after {} s", fmt(after_s))
            }
            (Got::Unfinished { after_s }, Language::Zh) => {
                format!("{} s 后仍未传完的请求体", fmt(after_s))
            }
        }
    }
}

/// A single cause the lab tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// Random loss on the path.
    Loss,
    /// The receiver's window, fixed.
    ReceiveWindow,
    /// A slower bottleneck than the link as known.
    Bottleneck,
    /// A policer on the path, dropping what exceeds its rate.
    Policer,
    /// The server paused before it answered.
    ThinkTime,
    /// A message stream's application wrote its messages further apart (app=msgs).
    MessageInterval,
    /// Nothing but the path as known, held by what its own run's verdict names.
    PathAlone,
}

impl Cause {
    fn key(self) -> &'static str {
        match self {
            Cause::Loss => "loss",
            Cause::ReceiveWindow => "rwnd",
            Cause::Bottleneck => "bw",
            Cause::Policer => "police",
            Cause::ThinkTime => "think",
            Cause::MessageInterval => "every",
            Cause::PathAlone => "",
        }
    }

    /// The cause as a line that rules it out begins: it names what it rules out.
    fn name(self, lang: Language) -> &'static str {
        match (self, lang) {
            (Cause::Loss, Language::En) => "Random loss",
            (Cause::Loss, Language::Zh) => "随机丢包",
            (Cause::ReceiveWindow, Language::En) => "A smaller receive window",
            (Cause::ReceiveWindow, Language::Zh) => "更小的接收窗口",
            (Cause::Bottleneck, Language::En) => "A slower bottleneck",
            (Cause::Bottleneck, Language::Zh) => "更慢的瓶颈",
            (Cause::Policer, Language::En) => "A policer",
            (Cause::Policer, Language::Zh) => "限速器（监管）",
            (Cause::ThinkTime, Language::En) => "A server's think time",
            (Cause::ThinkTime, Language::Zh) => "服务器的思考时间",
            (Cause::MessageInterval, Language::En) => "An application writing less often",
            (Cause::MessageInterval, Language::Zh) => "应用写消息的间隔更长",
            (Cause::PathAlone, Language::En) => "The path as known",
            (Cause::PathAlone, Language::Zh) => "已知路径",
        }
    }

    /// How the cause costs a flow its rate, which is why it can only make a path slower.
    fn how_it_slows(self, lang: Language) -> &'static str {
        match (self, lang) {
            // RFC 5681 §3.2 halves the window at a loss (Reno); RFC 9438's CUBIC cuts it to 0.7.
            (Cause::Loss, Language::En) => "every loss cuts the window",
            (Cause::Loss, Language::Zh) => "每次丢包都会让窗口缩小",
            (Cause::ReceiveWindow, Language::En) => {
                "a smaller window lets less into each round trip"
            }
            (Cause::ReceiveWindow, Language::Zh) => "更小的窗口让每个往返送出的更少",
            (Cause::Bottleneck, Language::En) => "a slower link carries less",
            (Cause::Bottleneck, Language::Zh) => "更慢的链路承载得更少",
            (Cause::Policer, Language::En) => "a policer only drops what exceeds its rate",
            (Cause::Policer, Language::Zh) => "限速器只会丢掉超出其速率的部分",
            (Cause::ThinkTime, Language::En) => "a pause only adds to the body's time",
            (Cause::ThinkTime, Language::Zh) => "停顿只会增加请求体的耗时",
            (Cause::MessageInterval, Language::En) => {
                "fewer messages only leave less for the path to carry"
            }
            (Cause::MessageInterval, Language::Zh) => "更少的消息只会让路径要送的数据更少",
            (Cause::PathAlone, Language::En) => "it is the path itself",
            (Cause::PathAlone, Language::Zh) => "它就是路径本身",
        }
    }

    /// The cause at value `x` of its knob: "a receive window of 30110 bytes (30.1 kB)".
    fn setting(self, x: f64, lang: Language) -> String {
        let v = fmt(x);
        match (self, lang) {
            (Cause::Loss, Language::En) => format!("{v} % random loss"),
            (Cause::Loss, Language::Zh) => format!("{v} % 的随机丢包"),
            // kB as the page writes bytes: 1000 of them (`format::bytes`).
            (Cause::ReceiveWindow, Language::En) => {
                format!(
                    "a receive window of {} bytes ({} kB)",
                    x as u64,
                    fmt(x / 1e3)
                )
            }
            (Cause::ReceiveWindow, Language::Zh) => {
                format!("{} 字节（{} kB）的接收窗口", x as u64, fmt(x / 1e3))
            }
            (Cause::Bottleneck, Language::En) => format!("a bottleneck of {v} Mbit/s"),
            (Cause::Bottleneck, Language::Zh) => format!("{v} Mbit/s 的瓶颈"),
            (Cause::Policer, Language::En) => {
                format!("a policer at {v} Mbit/s (a bucket of 20 ms)")
            }
            (Cause::Policer, Language::Zh) => format!("{v} Mbit/s 的限速器（令牌桶 20 ms）"),
            (Cause::ThinkTime, Language::En) => {
                format!("the server pausing {v} ms before it answers")
            }
            (Cause::ThinkTime, Language::Zh) => format!("服务器在应答前停顿 {v} ms"),
            (Cause::MessageInterval, Language::En) => {
                format!("the application writing a message every {v} ms")
            }
            (Cause::MessageInterval, Language::Zh) => format!("应用每 {v} ms 写一条消息"),
            (Cause::PathAlone, _) => String::new(),
        }
    }
}

/// What held the path's own run, as the lab's verdict of that run names it
/// (`theory::verdict`), with the numbers that say so.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Held {
    /// The body was done while the window was still doubling.
    SlowStart,
    /// The connections' receive windows over the RTT were the cap.
    ReceiveWindow {
        rwnd: u64,
        connections: u32,
        rtt_ms: f64,
        cap: MBytePerS,
    },
    /// The link was kept busy.
    Link { bw: MbitPerS, payload: MBytePerS },
    /// Losses kept the window small: the path's own random loss, if it has any.
    Loss { loss_pct: f64 },
    /// The path's own policer.
    Policer { rate: MbitPerS },
    /// Any other verdict (window growth, head-of-line blocking, an unfinished run).
    Other(Limit),
}

impl Held {
    fn of(s: &Scenario, r: &RunResult) -> Held {
        let v = verdict(s, r);
        match v.limit {
            Limit::SlowStart => Held::SlowStart,
            Limit::ReceiveWindow => Held::ReceiveWindow {
                rwnd: s.rwnd,
                connections: v.connections,
                rtt_ms: s.rtt_ms,
                cap: v.window_limit_mbps,
            },
            Limit::LinkRate => Held::Link {
                bw: MbitPerS(mean_rate_mbps(s)),
                payload: v.link_mbps,
            },
            Limit::Loss => Held::Loss {
                loss_pct: s.loss_pct,
            },
            Limit::Policer => Held::Policer {
                rate: MbitPerS(s.police_mbps),
            },
            other => Held::Other(other),
        }
    }

    /// What the path is held by, after "held by".
    fn by(self, lang: Language) -> String {
        let zh = lang == Language::Zh;
        match self {
            Held::SlowStart if zh => "慢启动".into(),
            Held::SlowStart => "slow start".into(),
            Held::ReceiveWindow {
                rwnd,
                connections,
                rtt_ms,
                cap,
            } => {
                let n = if connections > 1 {
                    format!("{connections} × ")
                } else {
                    String::new()
                };
                if zh {
                    format!(
                        "接收窗口，{n}{rwnd} 字节 / {} ms，至多 {} MB/s",
                        fmt(rtt_ms),
                        fmt(cap.0)
                    )
                } else {
                    format!(
                        "its receive window ({n}{rwnd} bytes over {} ms: at most {} MB/s)",
                        fmt(rtt_ms),
                        fmt(cap.0)
                    )
                }
            }
            Held::Link { bw, payload } if zh => {
                format!(
                    "链路，{} Mbit/s，净荷至多 {} MB/s",
                    fmt(bw.0),
                    fmt(payload.0)
                )
            }
            Held::Link { bw, payload } => format!(
                "its link ({} Mbit/s: at most {} MB/s of payload)",
                fmt(bw.0),
                fmt(payload.0)
            ),
            Held::Loss { loss_pct } if loss_pct > 0.0 && zh => {
                format!("自身的丢包，{} % 的随机丢包使窗口缩小", fmt(loss_pct))
            }
            Held::Loss { loss_pct } if loss_pct > 0.0 => {
                format!(
                    "its own losses ({} % random loss cut its window)",
                    fmt(loss_pct)
                )
            }
            Held::Loss { .. } if zh => "自身的丢包".into(),
            Held::Loss { .. } => "its own losses".into(),
            Held::Policer { rate } if zh => format!("{} Mbit/s 的限速器", fmt(rate.0)),
            Held::Policer { rate } => format!("its policer at {} Mbit/s", fmt(rate.0)),
            Held::Other(limit) => other_limit(limit, lang).into(),
        }
    }

    /// The sentence's subject: "slow start alone", or the path as known with what held it.
    fn subject(self, lang: Language) -> String {
        match (self, lang) {
            (Held::SlowStart, Language::En) => "slow start alone".into(),
            (Held::SlowStart, Language::Zh) => "仅慢启动就".into(),
            (_, Language::En) => format!("the path as known, held by {},", self.by(lang)),
            (_, Language::Zh) => format!("已知路径（瓶颈：{}）", self.by(lang)),
        }
    }
}

fn other_limit(limit: Limit, lang: Language) -> &'static str {
    let zh = lang == Language::Zh;
    match limit {
        Limit::HeadOfLine if zh => "队头阻塞",
        Limit::HeadOfLine => "head-of-line blocking",
        Limit::Unfinished if zh => "运行时长（未完成）",
        Limit::Unfinished => "the run's length (it had not finished)",
        Limit::Application if zh => "应用程序",
        Limit::Application => "its application",
        _ if zh => "仍在增长的拥塞窗口",
        _ => "its window, still growing",
    }
}

/// The most the path can give at all, whatever its losses or windows: a number beyond it is
/// impossible on this path.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    /// The link's payload rate: every segment pays its TCP/IP headers on the wire.
    LinkPayload { bw: MbitPerS, payload: MBytePerS },
    /// The body's time with no loss and ideal slow start (`theory::slow_start`).
    IdealTime { ms: f64 },
    /// What a message stream's application writes (app=msgs): no path carries more.
    AppRate { rate: MBytePerS },
}

/// One line of the answer, with its numbers: why a cause gives the number, or cannot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Finding {
    /// The path as known gives the number (in the run shown; `median` over the seeds where it
    /// differs by more than the tolerance).
    PathGives {
        held: Held,
        got: Got,
        median: Option<Got>,
    },
    /// The path as known does better than measured: something on it costs the rest.
    PathFaster {
        held: Held,
        gives: Got,
        measured: Got,
        median_of_seeds: bool,
    },
    /// The path as known does worse than measured, which a single cause cannot mend.
    PathSlower {
        held: Held,
        gives: Got,
        measured: Got,
        median_of_seeds: bool,
    },
    /// No run on the path can give the number.
    Impossible { bound: Bound, measured: Got },
    /// A cause's knob at `value` gives the number.
    Gives {
        cause: Cause,
        value: f64,
        got: Got,
        median: Option<Got>,
    },
    /// The path alone gives the number already.
    NotNeeded { cause: Cause },
    /// The cause only slows a path that is already slower than measured.
    OnlySlows {
        cause: Cause,
        path: Got,
        measured: Got,
    },
    /// A pause before the first byte is not in a goodput.
    ThinkNeedsTime,
    /// The path leaves the knob no range.
    NoRoom { cause: Cause },
    /// Even the knob's worst value does better than measured.
    EvenWorst {
        cause: Cause,
        worst: f64,
        gives: Got,
        measured: Got,
    },
    /// The number jumps across the measured one as the knob moves.
    Jumps {
        cause: Cause,
        closest: f64,
        gives: Got,
        measured: Got,
    },
}

impl Finding {
    /// The line in `lang`.
    pub fn say(&self, lang: Language) -> String {
        match *self {
            Finding::PathGives { held, got, median } => path_gives(held, got, median, lang),
            Finding::PathFaster {
                held,
                gives,
                measured,
                median_of_seeds,
            } => path_faster(held, gives, measured, median_of_seeds, lang),
            Finding::PathSlower {
                held,
                gives,
                measured,
                median_of_seeds,
            } => path_slower(held, gives, measured, median_of_seeds, lang),
            Finding::Impossible { bound, measured } => impossible(bound, measured, lang),
            Finding::Gives {
                cause,
                value,
                got,
                median,
            } => gives(cause, value, got, median, lang),
            Finding::NotNeeded { cause } => match lang {
                Language::En => format!(
                    "{}: not needed, the path as known gives the number already",
                    cause.name(lang)
                ),
                Language::Zh => format!("{}：不需要，已知路径本身就给出这个数字", cause.name(lang)),
            },
            Finding::OnlySlows {
                cause,
                path,
                measured,
            } => only_slows(cause, path, measured, lang),
            Finding::ThinkNeedsTime => match lang {
                Language::En => "A server's think time: a goodput counts from the first data \
                                 byte, which a pause before it does not change; give the \
                                 body's time instead to try one"
                    .into(),
                Language::Zh => "服务器的思考时间：有效吞吐从第一个数据字节算起，之前的停顿\
                                 不会改变它；改为给出请求体的耗时才能尝试它"
                    .into(),
            },
            Finding::NoRoom { cause } => match lang {
                Language::En => {
                    format!("{}: the path leaves it no room to vary", cause.name(lang))
                }
                Language::Zh => format!("{}：这条路径没有留给它变化的余地", cause.name(lang)),
            },
            Finding::EvenWorst {
                cause,
                worst,
                gives,
                measured,
            } => {
                let (w, g, m) = (
                    cause.setting(worst, lang),
                    gives.say(lang),
                    measured.say(lang),
                );
                match lang {
                    Language::En => format!(
                        "{}: even at its worst, {w}, it gives {g}, better than {m}",
                        cause.name(lang)
                    ),
                    Language::Zh => {
                        format!(
                            "{}：即使取最坏的 {w}，也给出 {g}，好于 {m}",
                            cause.name(lang)
                        )
                    }
                }
            }
            Finding::Jumps {
                cause,
                closest,
                gives,
                measured,
            } => {
                let (c, g, m) = (
                    cause.setting(closest, lang),
                    gives.say(lang),
                    measured.say(lang),
                );
                match lang {
                    Language::En => format!(
                        "{}: no value gives {m}; the closest, {c}, gives {g} (the number jumps \
                         there, as whole round trips come and go)",
                        cause.name(lang)
                    ),
                    Language::Zh => format!(
                        "{}：没有哪个值能给出 {m}；最接近的 {c} 给出 {g}（数字在那里跳变：\
                         整个往返会多出或少掉）",
                        cause.name(lang)
                    ),
                }
            }
        }
    }
}

fn only_slows(cause: Cause, path: Got, measured: Got, lang: Language) -> String {
    let (name, how) = (cause.name(lang), cause.how_it_slows(lang));
    let (p, m) = (path.say(lang), measured.say(lang));
    match lang {
        Language::En => format!(
            "{name}: {how}, so it only slows the path, which as known already gives {p}, worse \
             than the {m} measured"
        ),
        Language::Zh => {
            format!(
                "{name}：{how}，所以它只会让路径更慢；而已知路径已经只给出 {p}，比测得的 {m} 更差"
            )
        }
    }
}

fn path_gives(held: Held, got: Got, median: Option<Got>, lang: Language) -> String {
    let (who, g) = (held.subject(lang), got.say(lang));
    match (lang, median) {
        (Language::En, None) => format!("{who} gives {g}: nothing else is needed"),
        (Language::En, Some(m)) => format!(
            "{who} gives {g} in this seed's run (over {LOSSY_SEEDS} seeds the median is {}): \
             nothing else is needed",
            m.say(lang)
        ),
        (Language::Zh, None) => format!("{who}给出 {g}：无需其他原因"),
        (Language::Zh, Some(m)) => format!(
            "{who}在这个种子的运行中给出 {g}（{LOSSY_SEEDS} 个种子的中位数为 {}）：无需其他原因",
            m.say(lang)
        ),
    }
}

/// " (the median of 9 seeds)", where the path's figure is one.
fn of_seeds(median: bool, lang: Language) -> String {
    match (median, lang) {
        (false, _) => String::new(),
        (true, Language::En) => format!(" (the median of {LOSSY_SEEDS} seeds)"),
        (true, Language::Zh) => format!("（{LOSSY_SEEDS} 个种子的中位数）"),
    }
}

fn path_faster(held: Held, gives: Got, measured: Got, median: bool, lang: Language) -> String {
    let (who, g, m, n) = (
        held.subject(lang),
        gives.say(lang),
        measured.say(lang),
        of_seeds(median, lang),
    );
    // A message stream held by its writes may be slower for its writes as much as its path.
    let app = held == Held::Other(Limit::Application);
    match (lang, app) {
        (Language::En, false) => {
            format!("{who} gives {g}{n}, not {m}: something on the path costs the rest")
        }
        (Language::En, true) => format!(
            "{who} gives {g}{n}, not {m}: the application writes less, or something on the path \
             costs the rest"
        ),
        (Language::Zh, false) => {
            format!("{who}给出 {g}{n}，而不是 {m}：路径上有别的东西耗掉了其余部分")
        }
        (Language::Zh, true) => {
            format!("{who}给出 {g}{n}，而不是 {m}：要么应用写得更少，要么路径上有别的东西耗掉了其余部分")
        }
    }
}

fn path_slower(held: Held, gives: Got, measured: Got, median: bool, lang: Language) -> String {
    let (who, g, m, n) = (
        held.subject(lang),
        gives.say(lang),
        measured.say(lang),
        of_seeds(median, lang),
    );
    match lang {
        Language::En => format!(
            "{who} gives {g}{n}, slower than the {m} measured: a single cause only slows a path, \
             so the path must be faster than the controls say (a shorter round trip, a larger \
             window, less loss)"
        ),
        Language::Zh => format!(
            "{who}给出 {g}{n}，比测得的 {m} 更慢：单一原因只会让路径更慢，所以实际路径一定比\
             控件描述的更快（更短的往返、更大的窗口、更少的丢包）"
        ),
    }
}

fn impossible(bound: Bound, measured: Got, lang: Language) -> String {
    let m = measured.say(lang);
    match (bound, lang) {
        (Bound::LinkPayload { bw, payload }, Language::En) => format!(
            "{m} is impossible on this path: it is above the link's payload rate, {} MB/s ({} \
             Mbit/s less each packet's TCP/IP headers), which no run on it can exceed",
            fmt(payload.0),
            fmt(bw.0)
        ),
        (Bound::LinkPayload { bw, payload }, Language::Zh) => format!(
            "{m} 在这条路径上不可能：它高于链路的净荷速率 {} MB/s（{} Mbit/s 减去每个包的 \
             TCP/IP 头部），这条路径上的任何运行都不会超过它",
            fmt(payload.0),
            fmt(bw.0)
        ),
        (Bound::IdealTime { ms }, Language::En) => format!(
            "{m} is impossible on this path: even with no loss and ideal slow start (the window \
             doubling every round trip), the body takes {} ms from the SYN to its last byte",
            fmt(ms)
        ),
        (Bound::IdealTime { ms }, Language::Zh) => format!(
            "{m} 在这条路径上不可能：即使没有丢包、慢启动理想（窗口每个往返翻倍），这个请求体从 \
             SYN 到最后一个字节也要 {} ms",
            fmt(ms)
        ),
        (Bound::AppRate { rate }, Language::En) => format!(
            "{m} is impossible for this workload: its application writes {} MB/s of messages, \
             and no path carries more than is written",
            fmt(rate.0)
        ),
        (Bound::AppRate { rate }, Language::Zh) => format!(
            "{m} 对这个负载不可能：它的应用只写 {} MB/s 的消息，任何路径都不会送出比写入更多的数据",
            fmt(rate.0)
        ),
    }
}

fn gives(cause: Cause, value: f64, got: Got, median: Option<Got>, lang: Language) -> String {
    let (what, g) = (cause.setting(value, lang), got.say(lang));
    match (lang, median) {
        (Language::En, None) => format!("{what} gives {g}"),
        (Language::En, Some(m)) => format!(
            "{what} gives {g} in this seed's run; over {LOSSY_SEEDS} seeds the median is {} \
             (whether a loss costs a timeout varies)",
            m.say(lang)
        ),
        (Language::Zh, None) => format!("{what}给出 {g}"),
        (Language::Zh, Some(m)) => format!(
            "{what}在这个种子的运行中给出 {g}；{LOSSY_SEEDS} 个种子的中位数为 {}（一次丢包是否\
             引发超时因种子而异）",
            m.say(lang)
        ),
    }
}

/// A cause that reproduces the number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub cause: Cause,
    pub key: String,
    pub value: f64,
    /// The path with this cause: the link that shows it.
    pub scenario: String,
    /// What that scenario's run gives, in the measured number's unit.
    pub result: f64,
    /// Over the path's seeds, where it loses at random: the median at this value, which one
    /// seed's run may stand apart from.
    pub median: Option<f64>,
    /// The finding in English.
    pub text: String,
    pub finding: Finding,
}

/// A cause that cannot give the number.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuledOut {
    pub cause: Cause,
    /// The finding in English.
    pub why: String,
    pub finding: Finding,
}

impl RuledOut {
    fn new(cause: Cause, finding: Finding) -> RuledOut {
        RuledOut {
            cause,
            why: finding.say(Language::En),
            finding,
        }
    }
}

/// The answer `tcplab explain` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    /// The path as known.
    pub path: String,
    pub measured: f64,
    pub unit: String,
    /// What the path as known gives; none where its body is not done when the trial stops.
    pub baseline: Option<f64>,
    pub candidates: Vec<Candidate>,
    pub ruled_out: Vec<RuledOut>,
}

impl Explanation {
    /// Why no run on the path can give the number, where none can.
    pub fn impossible(&self) -> Option<&Finding> {
        self.ruled_out
            .iter()
            .map(|r| &r.finding)
            .find(|f| matches!(f, Finding::Impossible { .. }))
    }
}

/// Why the question cannot be asked. Its `Display` names the runner's flags; a page words it
/// with its own fields.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ExplainError {
    #[error("--time: the time one body took applies to app=body only (this path has app={})", .0.name())]
    TimeNeedsBody(App),
    #[error("--goodput: {0} is out of range (allowed above 0 to {MAX_GOODPUT} MB/s)")]
    GoodputOutOfRange(f64),
    #[error("--time: {0} is out of range (allowed above 0 to {MAX_TIME_MS} ms)")]
    TimeOutOfRange(f64),
}

/// The largest goodput asked about, MB/s.
pub const MAX_GOODPUT: f64 = 100_000.0;
/// The longest time asked about, ms: an hour.
pub const MAX_TIME_MS: f64 = 3_600_000.0;

/// A number reproduced within this share counts as reproduced.
pub const TOLERANCE: f64 = 0.05;

/// Seeds each trial runs where the path loses packets at random, its median taken: a body of
/// a few thousand segments loses a handful, and whether one of them costs a timeout swings its
/// goodput by a factor of ten from seed to seed. A path without random loss runs once.
const LOSSY_SEEDS: u64 = 9;

/// Bisection steps at most: a factor of 5e4 narrowed to well under 1 %.
const STEPS: usize = 24;

/// The most simulated time one trial may take, so that an explanation stays quick: a bulk flow
/// is explained over its first 10 s.
const MAX_DUR_S: f64 = 10.0;

/// The longest a body's trial runs, s.
const MAX_HORIZON_S: f64 = 600.0;

/// Whether the question can be asked of this path: what `explain` refuses, without a run.
pub fn check(path: &Scenario, measured: Measured) -> Result<(), ExplainError> {
    match measured {
        Measured::Goodput(g) if !(g > 0.0 && g <= MAX_GOODPUT) => {
            Err(ExplainError::GoodputOutOfRange(g))
        }
        Measured::Time(t) if !(t > 0.0 && t <= MAX_TIME_MS) => Err(ExplainError::TimeOutOfRange(t)),
        Measured::Time(_) if path.app != App::Body => Err(ExplainError::TimeNeedsBody(path.app)),
        _ => Ok(()),
    }
}

pub fn explain(path: &Scenario, measured: Measured) -> Result<Explanation, ExplainError> {
    check(path, measured)?;
    let base = trial_path(path, measured);
    let trial = Trial {
        base: &base,
        measured,
    };
    let runs = trial.runs(&base);
    let baseline = median_of(&runs);
    let mut candidates = Vec::new();
    let mut ruled_out = Vec::new();
    let fits = close(baseline, measured.value());
    if fits {
        candidates.push(trial.path_gives(&runs, baseline));
    } else {
        ruled_out.push(RuledOut::new(Cause::PathAlone, trial.path_cannot(baseline)));
    }
    // A message stream's goodput is first what its application writes; a server's think time
    // is a body's alone.
    let knobs = match path.app {
        App::Msgs => [Knob::Every, Knob::Loss, Knob::Rwnd, Knob::Bw, Knob::Police],
        _ => [Knob::Loss, Knob::Rwnd, Knob::Bw, Knob::Police, Knob::Think],
    };
    for knob in knobs {
        match trial.weigh(knob, fits, baseline) {
            Ok(c) => candidates.push(c),
            Err(f) => ruled_out.push(RuledOut::new(knob.cause(), f)),
        }
    }
    Ok(Explanation {
        path: path.to_query(),
        measured: measured.value(),
        unit: measured.unit().to_string(),
        baseline: baseline.is_finite().then_some(baseline),
        candidates,
        ruled_out,
    })
}

/// The path as the trials run it: a bulk flow over its first 10 s; a body for long enough
/// that it could take three times what was measured, and that the path alone finishes.
fn trial_path(path: &Scenario, measured: Measured) -> Scenario {
    let mut base = path.clone();
    base.dur_s = match measured {
        Measured::Goodput(_) => base.dur_s.min(MAX_DUR_S),
        Measured::Time(t) => horizon_s(path, t),
    };
    base
}

/// A body's trial length, s: three times the longer of the time measured and the body's ideal
/// time on the path, which a path that loses nothing takes too, in whole seconds so that a
/// run's link writes its `dur` plainly (`dur=20`, not `dur=19.169999999999998`).
fn horizon_s(path: &Scenario, measured_ms: f64) -> f64 {
    let ms = 3.0 * measured_ms.max(ideal_ms(path));
    (ms / 1e3).ceil().clamp(1.0, MAX_HORIZON_S)
}

/// The body's time with no loss and ideal slow start, RFC 5681's doubling from RFC 6928's
/// initial window, under the receive window's cap: no run of the path is faster.
fn ideal_ms(s: &Scenario) -> f64 {
    let limits = Limits::of(s);
    ideal_completion_ms(s.iw, s.mss, s.body, s.rtt_ms, limits.share(), s.rwnd as f64)
}

/// The most the path can give where the number is beyond it. A message stream is bounded by
/// what its application writes, on any link; otherwise only a fixed link and one connection are
/// bounded: a scheduled or traced link has faster moments than its mean.
fn beyond_bound(s: &Scenario, measured: Measured) -> Option<Bound> {
    let fixed = s.link_model().is_none() && s.sched.is_empty();
    // Each segment carries 40 bytes of TCP/IP headers, 52 with timestamps (RFC 7323), that the
    // link carries and the goodput does not count.
    let payload = fixed.then(|| Limits::of(s).link);
    match measured {
        Measured::Goodput(g) if s.app == App::Msgs => {
            let rate = app_rate(s);
            // A little over the writes' rate is a run's own spread (the goodput counts from
            // the first byte, some messages written before it).
            let above_app = g > rate.0 * (1.0 + TOLERANCE);
            match payload {
                Some(p) if p <= rate => (g > p.0).then_some(Bound::LinkPayload {
                    bw: MbitPerS(s.bw_mbps),
                    payload: p,
                }),
                _ => above_app.then_some(Bound::AppRate { rate }),
            }
        }
        Measured::Goodput(g) => {
            let payload = payload?;
            (g > payload.0).then_some(Bound::LinkPayload {
                bw: MbitPerS(s.bw_mbps),
                payload,
            })
        }
        Measured::Time(t) if fixed && s.connections() <= 1 => {
            let ms = ideal_ms(s);
            (t < ms).then_some(Bound::IdealTime { ms })
        }
        Measured::Time(_) => None,
    }
}

fn median_of(runs: &[(f64, u64)]) -> f64 {
    runs.get(runs.len() / 2).map_or(f64::NAN, |r| r.0)
}

fn close(a: f64, b: f64) -> bool {
    b != 0.0 && ((a - b) / b).abs() <= TOLERANCE
}

/// Three significant digits, at least whole units, without trailing zeros: 0.437, 11.6, 6386;
/// as many decimals as the smallest number a measurement can be written with (32 characters)
/// needs, so that no figure above 0 reads as 0.
fn fmt(x: f64) -> String {
    if !x.is_finite() {
        // Never reached by a figure (`Got` says an unfinished body in words): a last guard.
        return "—".into();
    }
    let decimals = if x == 0.0 {
        0
    } else {
        (2 - x.abs().log10().floor() as i32).clamp(0, 40) as usize
    };
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// The knobs, each with its range and which way it moves the number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Knob {
    Loss,
    Rwnd,
    Bw,
    Police,
    Think,
    Every,
}

impl Knob {
    fn cause(self) -> Cause {
        match self {
            Knob::Loss => Cause::Loss,
            Knob::Rwnd => Cause::ReceiveWindow,
            Knob::Bw => Cause::Bottleneck,
            Knob::Police => Cause::Policer,
            Knob::Think => Cause::ThinkTime,
            Knob::Every => Cause::MessageInterval,
        }
    }

    /// The knob's range on `s`, searched on a log scale where the knob spans decades.
    fn range(self, s: &Scenario) -> (f64, f64, bool) {
        match self {
            Knob::Loss => (0.001, 50.0, true),
            Knob::Rwnd => (2.0 * f64::from(s.mss), s.rwnd as f64, true),
            Knob::Bw => (0.01, s.bw_mbps, true),
            Knob::Police => (0.01, s.bw_mbps, true),
            Knob::Think => (0.0, 60_000.0, false),
            // Up to ten messages in the trial, within the key's own limit (`every`,
            // docs/scenario.md): a goodput counts from the first byte to the last, so a run
            // of one message has the rate of its one trip, not of the writes.
            Knob::Every => {
                let key_max = Key::Every.bounds().map_or(s.every_ms, |(_, hi)| hi);
                (
                    s.every_ms,
                    (s.dur_s * 1e3 / 10.0).min(key_max).max(s.every_ms),
                    true,
                )
            }
        }
    }

    /// Whether raising the knob makes things worse (a lower goodput, a longer time).
    fn worse_upward(self) -> bool {
        matches!(self, Knob::Loss | Knob::Think | Knob::Every)
    }

    fn set(self, s: &Scenario, x: f64) -> Scenario {
        let mut s = s.clone();
        match self {
            Knob::Loss => s.loss_pct = round_sig(x),
            Knob::Rwnd => {
                s.rwnd = (x.round() as u64).max(2 * u64::from(s.mss));
                s.autotune = false;
            }
            Knob::Bw => s.bw_mbps = round_sig(x).max(0.01),
            Knob::Police => s.police_mbps = round_sig(x).max(0.01),
            Knob::Think => s.think_ms = round_sig(x),
            Knob::Every => s.every_ms = round_sig(x),
        }
        s
    }

    fn value(self, s: &Scenario) -> f64 {
        match self {
            Knob::Loss => s.loss_pct,
            Knob::Rwnd => s.rwnd as f64,
            Knob::Bw => s.bw_mbps,
            Knob::Police => s.police_mbps,
            Knob::Think => s.think_ms,
            Knob::Every => s.every_ms,
        }
    }
}

/// Four significant digits: enough for 5 %, and a readable link.
fn round_sig(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let d = 3 - x.abs().log10().floor() as i32;
    let f = 10f64.powi(d);
    (x * f).round() / f
}

struct Trial<'a> {
    base: &'a Scenario,
    measured: Measured,
}

impl Trial<'_> {
    fn summary(s: &Scenario) -> Summary {
        run(s, &RunOptions::summary_only()).summary
    }

    /// The scenario's number over its seeds, with the seed that gave each, in order.
    fn runs(&self, s: &Scenario) -> Vec<(f64, u64)> {
        let seeds = if lossy(s) { LOSSY_SEEDS } else { 1 };
        let mut out: Vec<(f64, u64)> = (0..seeds)
            .map(|i| {
                let mut t = s.clone();
                t.seed = s.seed.wrapping_add(i);
                (self.measured.of(&Self::summary(&t)), t.seed)
            })
            .collect();
        out.sort_by(|a, b| a.0.total_cmp(&b.0));
        out
    }

    fn median(&self, s: &Scenario) -> f64 {
        median_of(&self.runs(s))
    }

    fn got(&self, x: f64) -> Got {
        self.measured.got(x, self.base.dur_s)
    }

    /// The path alone gives the number (its median does): the run shown is the path's own
    /// seed's, the one its link reopens and the one-run view judges, where that run gives it
    /// too; else the median's. What held it is that run's verdict.
    fn path_gives(&self, runs: &[(f64, u64)], baseline: f64) -> Candidate {
        let v = self.measured.value();
        let own = runs
            .iter()
            .find(|r| r.1 == self.base.seed)
            .filter(|r| close(r.0, v));
        let (result, seed) = own.copied().unwrap_or((baseline, median_seed(runs)));
        let mut shown = self.base.clone();
        shown.seed = seed;
        let held = Held::of(&shown, &run(&shown, &RunOptions::summary_only()));
        let median = (lossy(&shown) && !close(baseline, result)).then(|| self.got(baseline));
        let finding = Finding::PathGives {
            held,
            got: self.got(result),
            median,
        };
        Candidate {
            cause: Cause::PathAlone,
            key: String::new(),
            value: 0.0,
            scenario: shown.to_query(),
            result,
            median: lossy(&shown).then_some(baseline),
            text: finding.say(Language::En),
            finding,
        }
    }

    /// Why the path alone does not give the number: no run of it could, or it does better,
    /// or worse, than measured. What held it is its own seed's run's verdict.
    fn path_cannot(&self, baseline: f64) -> Finding {
        let measured = self.measured.figure();
        if let Some(bound) = beyond_bound(self.base, self.measured) {
            return Finding::Impossible { bound, measured };
        }
        let held = Held::of(self.base, &run(self.base, &RunOptions::summary_only()));
        let (gives, median_of_seeds) = (self.got(baseline), lossy(self.base));
        if self.measured.worse(self.measured.value(), baseline) {
            Finding::PathFaster {
                held,
                gives,
                measured,
                median_of_seeds,
            }
        } else {
            Finding::PathSlower {
                held,
                gives,
                measured,
                median_of_seeds,
            }
        }
    }

    /// One cause weighed: the candidate that gives the number, or why it cannot.
    fn weigh(&self, knob: Knob, path_fits: bool, baseline: f64) -> Result<Candidate, Finding> {
        let cause = knob.cause();
        let v = self.measured.value();
        if knob == Knob::Think && matches!(self.measured, Measured::Goodput(_)) {
            return Err(Finding::ThinkNeedsTime);
        }
        if path_fits {
            return Err(Finding::NotNeeded { cause });
        }
        // Each cause can only make things slower than the path alone.
        if !self.measured.worse(v, baseline) {
            return Err(Finding::OnlySlows {
                cause,
                path: self.got(baseline),
                measured: self.measured.figure(),
            });
        }
        let (value, scenario, result) = self.bisect(knob)?;
        let lossy = lossy(&scenario);
        let median = lossy.then(|| self.median(&knob.set(self.base, value)));
        let finding = Finding::Gives {
            cause,
            value,
            got: self.got(result),
            median: median.filter(|&m| !close(m, v)).map(|m| self.got(m)),
        };
        Ok(Candidate {
            cause,
            key: cause.key().to_string(),
            value,
            text: finding.say(Language::En),
            finding,
            scenario: scenario.to_query(),
            result,
            median,
        })
    }

    /// The knob's value that gives the measured number, with the one run that shows it.
    fn bisect(&self, knob: Knob) -> Result<(f64, Scenario, f64), Finding> {
        let target = self.measured.value();
        let cause = knob.cause();
        let (lo0, hi0, log) = knob.range(self.base);
        if lo0 >= hi0 {
            return Err(Finding::NoRoom { cause });
        }
        let worse = |y: f64| self.measured.worse(y, target);
        let mid = |a: f64, b: f64| if log { (a * b).sqrt() } else { (a + b) / 2.0 };
        // The worst end must be worse than measured, or no value of the knob gives it.
        let worst = if knob.worse_upward() { hi0 } else { lo0 };
        let at_worst = self.median(&knob.set(self.base, worst));
        if !worse(at_worst) {
            return Err(Finding::EvenWorst {
                cause,
                worst: knob.value(&knob.set(self.base, worst)),
                gives: self.got(at_worst),
                measured: self.measured.figure(),
            });
        }
        let (mut good, mut bad) = if knob.worse_upward() {
            (lo0, hi0)
        } else {
            (hi0, lo0)
        };
        // The closest single run seen, with the median of its value's seeds.
        let mut best: Option<(f64, Scenario, f64, f64)> = None;
        for _ in 0..STEPS {
            let m = mid(good, bad);
            let s = knob.set(self.base, m);
            let runs = self.runs(&s);
            let median = median_of(&runs);
            if let Some(&(y, seed)) = runs
                .iter()
                .min_by(|a, b| (a.0 - target).abs().total_cmp(&(b.0 - target).abs()))
            {
                let mut shown = s.clone();
                shown.seed = seed;
                // The median close too: the cause does not hang on one seed's luck.
                if close(y, target) && close(median, target) {
                    return Ok((knob.value(&s), shown, y));
                }
                if best
                    .as_ref()
                    .is_none_or(|b| (y - target).abs() < (b.2 - target).abs())
                {
                    best = Some((knob.value(&s), shown, y, median));
                }
            }
            if worse(median) {
                bad = m;
            } else {
                good = m;
            }
            if (good - bad).abs() <= f64::EPSILON * good.abs().max(1.0) {
                break;
            }
        }
        // Where the seeds' median jumps across the number (a loss that costs a timeout in
        // some seeds and not in others), a run of that value that gives it still shows it.
        if let Some((value, shown, y, _)) = best.clone().filter(|b| close(b.2, target)) {
            return Ok((value, shown, y));
        }
        if let Some(found) = self.bisect_each_seed(knob, (good, bad), (lo0, hi0), log) {
            return Ok(found);
        }
        let s = knob.set(self.base, mid(good, bad));
        Err(Finding::Jumps {
            cause,
            closest: knob.value(&s),
            gives: self.got(self.median(&s)),
            measured: self.measured.figure(),
        })
    }

    /// Each seed's number is a staircase in the knob (a loss rate drops a growing set of
    /// packets): bisect each seed's own, around where the median crossed.
    fn bisect_each_seed(
        &self,
        knob: Knob,
        (good, bad): (f64, f64),
        (lo0, hi0): (f64, f64),
        log: bool,
    ) -> Option<(f64, Scenario, f64)> {
        let target = self.measured.value();
        let mid = |a: f64, b: f64| if log { (a * b).sqrt() } else { (a + b) / 2.0 };
        let (lo, hi) = if good < bad { (good, bad) } else { (bad, good) };
        let (lo, hi) = if log {
            ((lo / 4.0).max(lo0), (hi * 4.0).min(hi0))
        } else {
            (lo0, hi0)
        };
        for i in 0..LOSSY_SEEDS {
            let mut seeded = self.base.clone();
            seeded.seed = self.base.seed.wrapping_add(i);
            let (mut g, mut b) = if knob.worse_upward() {
                (lo, hi)
            } else {
                (hi, lo)
            };
            for _ in 0..STEPS {
                let m = mid(g, b);
                let t = knob.set(&seeded, m);
                let y = self.measured.of(&Self::summary(&t));
                if close(y, target) {
                    return Some((knob.value(&t), t, y));
                }
                if self.measured.worse(y, target) {
                    b = m;
                } else {
                    g = m;
                }
            }
        }
        None
    }
}

fn lossy(s: &Scenario) -> bool {
    s.loss_pct > 0.0 || s.ackloss_pct > 0.0
}

fn median_seed(runs: &[(f64, u64)]) -> u64 {
    runs.get(runs.len() / 2).map_or(0, |r| r.1)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_figure_keeps_three_significant_digits_and_none_above_0_reads_as_0() {
        assert_eq!(fmt(0.437_2), "0.437");
        assert_eq!(fmt(11.63), "11.6");
        assert_eq!(fmt(6386.2), "6386");
        assert_eq!(fmt(0.0), "0");
        assert_eq!(fmt(0.000_000_1), "0.0000001");
        assert_eq!(fmt(1.234e-20), "0.0000000000000000000123");
    }

    /// The QA report's path: 150 ms, 100 Mbit/s, 0.1 % loss, a 64 KiB window, the default body.
    const P: &str = "rtt=150&bw=100&loss=0.1&rwnd=65536";

    fn asked(m: Measured) -> Explanation {
        let path = Scenario::parse(P).unwrap_or_default();
        explain(&path, m).unwrap_or_else(|e| panic!("{e}"))
    }

    fn why(e: &Explanation, cause: Cause) -> String {
        let r = e.ruled_out.iter().find(|r| r.cause == cause);
        r.map(|r| r.why.clone()).unwrap_or_default()
    }

    fn lines(e: &Explanation) -> Vec<&Finding> {
        let c = e.candidates.iter().map(|c| &c.finding);
        c.chain(e.ruled_out.iter().map(|r| &r.finding)).collect()
    }

    #[test]
    fn the_path_alone_is_named_by_its_own_run_s_verdict() {
        let e = asked(Measured::Goodput(0.4));
        let c = e.candidates.iter().find(|c| c.cause == Cause::PathAlone);
        let c = c.unwrap_or_else(|| panic!("no path alone in {e:?}"));
        // 65536 bytes over 150 ms: the one-run view's "Limited by the receive window".
        assert_eq!(
            c.text,
            "the path as known, held by its receive window (65536 bytes over 150 ms: at most \
             0.437 MB/s), gives 0.401 MB/s: nothing else is needed"
        );
        // The run its link reopens gives the figure, and the lab's verdict of it agrees.
        let s = Scenario::parse(&c.scenario).unwrap_or_default();
        let r = run(&s, &RunOptions::summary_only());
        assert_eq!(r.summary.goodput_MBps, Some(c.result));
        assert_eq!(verdict(&s, &r).limit, Limit::ReceiveWindow);
        assert_eq!(
            why(&e, Cause::ReceiveWindow),
            "A smaller receive window: not needed, the path as known gives the number already"
        );
    }

    /// A message stream slower than its writes is first its application writing less often;
    /// one faster than its writes is impossible, whatever the link; a server's think time,
    /// a body's, is not weighed.
    #[test]
    fn a_message_stream_is_explained_by_its_writes_first() {
        let path = Scenario::parse("app=msgs").unwrap_or_default();
        let e = explain(&path, Measured::Goodput(0.005)).unwrap_or_else(|e| panic!("{e}"));
        let first = e.candidates.first().map(|c| (c.cause, c.value, c.result));
        let Some((Cause::MessageInterval, every, got)) = first else {
            panic!("{:?}", e.candidates);
        };
        // 100 bytes every 20 ms is 0.005 MB/s.
        assert!((every - 20.0).abs() <= 1.0, "every {every} ms");
        assert!(close(got, 0.005), "{got}");
        assert!(e.candidates[0].scenario.contains(&format!("every={every}")));
        assert!(e.candidates[0]
            .text
            .starts_with("the application writing a message every "));
        let causes: Vec<Cause> = e
            .candidates
            .iter()
            .map(|c| c.cause)
            .chain(e.ruled_out.iter().map(|r| r.cause))
            .collect();
        assert!(!causes.contains(&Cause::ThinkTime), "{causes:?}");
        assert!(
            why(&e, Cause::PathAlone).contains("held by its application")
                && why(&e, Cause::PathAlone).contains("the application writes less"),
            "{}",
            why(&e, Cause::PathAlone)
        );
        let e = explain(&path, Measured::Goodput(0.5)).unwrap_or_else(|e| panic!("{e}"));
        assert!(e.candidates.is_empty(), "{:?}", e.candidates);
        assert!(
            matches!(
                e.impossible(),
                Some(Finding::Impossible { bound: Bound::AppRate { rate }, .. }) if *rate == MBytePerS(0.01)
            ),
            "{:?}",
            e.impossible()
        );
        // Writes faster than the link: the link is the bound.
        let fast = Scenario::parse("app=msgs&msg=20000&every=1&bw=100").unwrap_or_default();
        let e = explain(&fast, Measured::Goodput(15.0)).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            matches!(
                e.impossible(),
                Some(Finding::Impossible {
                    bound: Bound::LinkPayload { .. },
                    ..
                })
            ),
            "{:?}",
            e.impossible()
        );
    }

    #[test]
    fn a_path_held_by_its_link_is_named_by_its_link() {
        let path = Scenario::parse("rtt=20&bw=10&app=bulk&dur=5").unwrap_or_default();
        let e = explain(&path, Measured::Goodput(1.2)).unwrap_or_else(|e| panic!("{e}"));
        let c = e.candidates.iter().find(|c| c.cause == Cause::PathAlone);
        let text = c.map(|c| c.text.as_str()).unwrap_or_default();
        assert!(
            text.starts_with(
                "the path as known, held by its link (10 Mbit/s: at most 1.21 MB/s of payload), gives"
            ),
            "{text}"
        );
    }

    #[test]
    fn each_line_ruled_out_names_the_cause_it_rules_out() {
        // Faster than the path as known: each cause only slows it, each said once by name.
        let e = asked(Measured::Goodput(1.0));
        let whys: Vec<String> = e.ruled_out.iter().map(|r| r.why.clone()).collect();
        for (i, w) in whys.iter().enumerate() {
            assert!(!whys[..i].contains(w), "said twice: {w}");
        }
        for (cause, name) in [
            (Cause::Loss, "Random loss: "),
            (Cause::ReceiveWindow, "A smaller receive window: "),
            (Cause::Bottleneck, "A slower bottleneck: "),
            (Cause::Policer, "A policer: "),
            (Cause::ThinkTime, "A server's think time: "),
        ] {
            assert!(
                why(&e, cause).starts_with(name),
                "{cause:?}: {}",
                why(&e, cause)
            );
        }
        assert!(
            why(&e, Cause::PathAlone).contains(
                "gives 0.391 MB/s (the median of 9 seeds), slower than the 1 MB/s measured"
            ),
            "{}",
            why(&e, Cause::PathAlone)
        );
    }

    #[test]
    fn a_time_no_run_can_reach_is_impossible_and_nothing_is_infinite() {
        let e = asked(Measured::Time(2000.0));
        let ideal = ideal_ms(&Scenario::parse(P).unwrap_or_default());
        assert!((6_000.0..6_400.0).contains(&ideal), "{ideal}");
        assert_eq!(
            why(&e, Cause::PathAlone),
            format!(
                "2000 ms is impossible on this path: even with no loss and ideal slow start (the \
                 window doubling every round trip), the body takes {} ms from the SYN to its last \
                 byte",
                fmt(ideal)
            )
        );
        // The path alone runs long enough to finish: its figure is a time.
        assert!(e.baseline.is_some_and(|b| b > ideal), "{:?}", e.baseline);
        for f in lines(&e) {
            for lang in [Language::En, Language::Zh] {
                let text = f.say(lang);
                assert!(!text.contains("inf") && !text.contains("NaN"), "{text}");
            }
        }
        assert_eq!(
            Got::Unfinished { after_s: 19.0 }.say(Language::En),
            "a body not done after 19 s"
        );
    }

    #[test]
    fn a_goodput_above_the_link_s_payload_rate_is_impossible() {
        let e = asked(Measured::Goodput(50.0));
        assert!(e.candidates.is_empty());
        // 100 Mbit/s in 1500-byte packets of 1448 bytes of payload: 12.07 MB/s.
        assert_eq!(
            why(&e, Cause::PathAlone),
            "50 MB/s is impossible on this path: it is above the link's payload rate, 12.1 MB/s \
             (100 Mbit/s less each packet's TCP/IP headers), which no run on it can exceed"
        );
        assert!(e.impossible().is_some());
        assert_eq!(
            why(&e, Cause::Bottleneck),
            "A slower bottleneck: a slower link carries less, so it only slows the path, which as \
             known already gives 0.391 MB/s, worse than the 50 MB/s measured"
        );
        // Just under the link's rate is possible, and is not told so.
        assert!(asked(Measured::Goodput(12.0)).impossible().is_none());
    }

    #[test]
    fn the_path_s_link_reopens_the_run_it_quotes_with_a_plain_duration() {
        let e = asked(Measured::Time(6390.0));
        let c = e.candidates.iter().find(|c| c.cause == Cause::PathAlone);
        let c = c.unwrap_or_else(|| panic!("no path alone in {e:?}"));
        // Three times 6.39 s, whole: not `dur=19.169999999999998`.
        assert_eq!(c.scenario, format!("{P}&dur=20"));
        let s = Scenario::parse(&c.scenario).unwrap_or_default();
        let done = run(&s, &RunOptions::summary_only()).summary.completion_ms;
        // The one-run view's 6.39 s, not the 9 seeds' median of 6541 ms.
        assert_eq!(done, Some(c.result));
        assert!(
            c.text.ends_with("gives 6386 ms: nothing else is needed"),
            "{}",
            c.text
        );
        assert_eq!(horizon_s(&s, 6390.0), 20.0);
    }

    #[test]
    fn a_window_is_written_in_bytes_and_kb_of_1000() {
        let e = asked(Measured::Goodput(0.2));
        let c = e
            .candidates
            .iter()
            .find(|c| c.cause == Cause::ReceiveWindow);
        let c = c.unwrap_or_else(|| panic!("no window in {e:?}"));
        let bytes = c.value as u64;
        let kb = format!("{:.1}", c.value / 1e3);
        assert!(
            c.text.starts_with(&format!(
                "a receive window of {bytes} bytes ({kb} kB) gives"
            )),
            "{}",
            c.text
        );
        assert_eq!(
            Cause::ReceiveWindow.setting(30_110.0, Language::En),
            "a receive window of 30110 bytes (30.1 kB)"
        );
    }

    #[test]
    fn every_line_is_said_in_chinese_too() {
        for m in [
            Measured::Goodput(0.4),
            Measured::Goodput(0.2),
            Measured::Goodput(50.0),
            Measured::Time(2000.0),
        ] {
            let e = asked(m);
            for f in lines(&e) {
                let zh = f.say(Language::Zh);
                assert!(
                    zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                    "{zh}"
                );
                for english in ["gives", "the path", "not needed", "random loss", "seeds"] {
                    assert!(!zh.contains(english), "{zh}");
                }
            }
        }
        let e = asked(Measured::Goodput(0.4));
        assert_eq!(
            e.candidates[0].finding.say(Language::Zh),
            "已知路径（瓶颈：接收窗口，65536 字节 / 150 ms，至多 0.437 MB/s）给出 0.401 MB/s：无需其他原因"
        );
    }

    #[test]
    fn refusals_keep_their_cause_apart_from_the_runner_s_wording() {
        let bulk = Scenario::parse("app=bulk").unwrap_or_default();
        assert_eq!(
            check(&bulk, Measured::Time(100.0)),
            Err(ExplainError::TimeNeedsBody(App::Bulk))
        );
        assert_eq!(
            check(&bulk, Measured::Goodput(-1.0)),
            Err(ExplainError::GoodputOutOfRange(-1.0))
        );
        // The runner keeps its flags.
        assert_eq!(
            ExplainError::TimeOutOfRange(4e6).to_string(),
            "--time: 4000000 is out of range (allowed above 0 to 3600000 ms)"
        );
    }

    #[test]
    fn figures_have_three_significant_digits() {
        for (x, want) in [
            (0.4369, "0.437"),
            (12.067, "12.1"),
            (6385.696, "6386"),
            (1.8, "1.8"),
            (0.001, "0.001"),
            (50.0, "50"),
        ] {
            assert_eq!(fmt(x), want);
        }
    }
}
