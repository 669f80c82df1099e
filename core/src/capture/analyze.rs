//! A capture explained: its TCP connections, and for one of them what the lab would want to
//! know of a run: the round trip, the window offered and used, the losses and retransmissions,
//! what the goodput was and what held it there.
//!
//! Everything is measured at the capture point, which may be near either end. Times between a
//! packet and its answer are measured both ways: a data segment to the ACK that covers it is
//! the trip from the capture point to the receiver and back (the "far" side when captured at
//! the sender); an ACK to the data that echoes its timestamp (RFC 7323 §4.3) is the trip to the
//! sender and back. Their sum is the round trip the sender sees, wherever the capture was
//! taken; the smaller of the two says which end the capture was near.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::packet::SackBlock;
use crate::tcp::ranges::RangeSet;

use super::dissect::{dissect, Endpoint, Segment, Skip};
use super::read::{read_frames, Frames, ReadError, Unplaced};
use super::said::{counted, Said};
use super::CapturePoint;
use crate::player::Language;

/// A connection of a capture, as listed before one is analysed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Connection {
    /// Its number in the list, from 1, in order of first packet.
    pub conn: usize,
    /// The end that sent most of the payload, and the other.
    pub sender: String,
    pub receiver: String,
    pub packets: u64,
    /// Payload bytes from the sender.
    pub data_bytes: u64,
    /// Payload bytes the other way.
    pub reverse_bytes: u64,
    pub duration_ms: f64,
    /// Its SYN was captured.
    pub handshake: bool,
}

/// Series drawn on the page's charts, each `(ms since the connection's first packet, value)`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Curves {
    /// The highest byte sent (the time-sequence graph's data).
    pub sent: Vec<(f64, f64)>,
    /// Segments sent again: their first byte.
    pub retransmits: Vec<(f64, f64)>,
    /// The cumulative ACK.
    pub acked: Vec<(f64, f64)>,
    /// Bytes in flight: the highest byte sent less the cumulative ACK.
    pub in_flight: Vec<(f64, f64)>,
    /// The receiver's window, bytes.
    pub rwnd: Vec<(f64, f64)>,
    /// Round-trip samples, ms.
    pub rtt: Vec<(f64, f64)>,
    /// Goodput per window, MB/s, each point at its window's end.
    pub goodput: Vec<(f64, f64)>,
    /// How long each goodput window is, ms (0 without one): a simulation drawn beside the
    /// capture is averaged over the same span.
    #[serde(default)]
    pub goodput_window_ms: f64,
}

/// How a fitted figure was found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub key: String,
    pub value: String,
    pub how: String,
}

/// One connection analysed: the JSON `tcplab analyze` prints (docs/scenario.md).
#[allow(non_snake_case)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    pub conn: usize,
    pub sender: String,
    pub receiver: String,
    /// Where the capture was taken: near the sender or near the receiver.
    pub capture_point: CapturePoint,
    pub capture_point_why: String,
    pub handshake: bool,
    pub duration_ms: f64,
    /// Payload bytes acknowledged.
    pub acked_bytes: u64,
    /// The minimum round trip: the far side's least delay plus the near side's.
    pub rtt_ms: Option<f64>,
    /// RFC 6298's smoothed RTT over every sample.
    pub srtt_ms: Option<f64>,
    /// The round trip of the handshake, where it was captured.
    pub handshake_rtt_ms: Option<f64>,
    pub rtt_samples: usize,
    pub goodput_MBps: Option<f64>,
    pub data_segments_sent: u64,
    pub retransmitted_segments: u64,
    /// Retransmissions that were not needed: reported by a D-SACK (RFC 2883) at the sender, or
    /// arriving twice at the receiver.
    pub spurious_retransmissions: u64,
    /// Estimated loss: needed retransmissions over segments sent, %.
    pub loss_pct: f64,
    /// Duplicate ACKs (RFC 5681 §2).
    pub duplicate_acks: u64,
    pub mss: Option<u32>,
    /// The receiver's window scale, from its SYN; `null` without a handshake.
    pub window_scale: Option<u8>,
    pub rwnd_max_bytes: Option<u64>,
    /// Time the receiver's window was shut.
    pub zero_window_ms: f64,
    /// The most bytes in flight (`snd.nxt - snd.una`): cwnd was at least this, an estimate.
    pub in_flight_max_bytes: u64,
    /// Segments sent before the first ACK: the initial window, where the capture began with
    /// the handshake.
    pub iw_segments: Option<u64>,
    /// Time nothing was in flight between two sends: the application had nothing to send.
    pub app_limited_ms: f64,
    /// The delivery rate's peak over a round trip: the bottleneck's rate, if the flow ever
    /// filled it.
    pub bottleneck_MBps: Option<f64>,
    /// What limited the connection, as the lab's verdicts name it.
    pub verdict: crate::theory::verdict::Limit,
    pub verdict_text: String,
    /// The scenario that fits the capture, as a query string.
    pub scenario: String,
    pub estimates: Vec<Estimate>,
    /// Anything that made a figure less certain.
    pub notes: Vec<String>,
    #[serde(skip)]
    pub curves: Curves,
}

/// An analysis's sentences in Chinese, field for field beside the English of [`Analysis`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Wording {
    pub capture_point_why: String,
    pub verdict_text: String,
    pub estimates: Vec<Estimate>,
    pub notes: Vec<String>,
}

/// A connection analysed, with its sentences in Chinese beside the analysis's English.
#[derive(Debug, Clone, PartialEq)]
pub struct Analyzed {
    pub analysis: Analysis,
    pub zh: Wording,
}

/// Why a capture could not be analysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalyzeError {
    Read(ReadError),
    /// No TCP segment could be read in the file's `frames` frames.
    NoTcp {
        frames: usize,
        why: NoTcpWhy,
    },
    /// `--conn N` names no connection.
    NoSuchConnection {
        asked: usize,
        count: usize,
    },
    /// The connection delivered nothing: no transfer to explain.
    NoDelivery {
        conn: usize,
        packets: u64,
        /// Its data segments, none of them acknowledged in the capture.
        data_segments: u64,
        /// No packet from the receiver was captured: the capture holds one direction alone.
        one_way: bool,
        /// With `one_way`, the bytes its packets acknowledge: data that went the other way,
        /// uncaptured (0 otherwise).
        unseen_acked: u64,
        /// The file was cut short: maybe why.
        cut: Option<ReadError>,
    },
}

/// What a file's frames held, when none was a TCP segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoTcpWhy {
    /// No packet at all.
    NoPackets,
    /// Packets, none of which can be placed in time or read ([`Unplaced`]).
    Unplaced(Unplaced),
    /// Link types the lab does not read.
    Links(Vec<i32>),
    /// `frames` frames cut before the end of their TCP header; the snap length kept `keeps`
    /// bytes.
    Cut { frames: usize, keeps: usize },
    /// `frames` packets of other protocols, and `fragments` IP fragments (which the lab does not
    /// reassemble).
    NotTcp { frames: usize, fragments: usize },
}

impl NoTcpWhy {
    /// Why, in `lang`, of a file of `total` frames.
    fn say(&self, lang: Language, total: usize) -> String {
        match (self, lang) {
            (NoTcpWhy::NoPackets, Language::En) => "the file holds no packets".into(),
            (NoTcpWhy::NoPackets, Language::Zh) => "文件中没有数据包".into(),
            (NoTcpWhy::Unplaced(u), lang) => u.say(lang).join(match lang {
                Language::En => "; ",
                Language::Zh => "；",
            }),
            (NoTcpWhy::Links(links), lang) => {
                let links = links
                    .iter()
                    .map(i32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
                match lang {
                    Language::En => format!(
                        "its link type ({links}) is not one the lab reads (Ethernet 1, raw IP \
                         101, Linux cooked SLL 113 and SLL2 276, IPv4 228, IPv6 229, BSD \
                         loopback 0)"
                    ),
                    Language::Zh => format!(
                        "它的链路类型（{links}）不是本实验室能读取的类型（以太网 1、原始 IP 101、\
                         Linux cooked SLL 113 和 SLL2 276、IPv4 228、IPv6 229、BSD 环回 0）"
                    ),
                }
            }
            (NoTcpWhy::Cut { frames, keeps }, Language::En) => format!(
                "{} (the snap length keeps {keeps} bytes; capture with tcpdump -s 128 or more)",
                match (*frames, total) {
                    (1, 1) => "it is cut before the end of its TCP header".to_string(),
                    (1, _) => "1 frame is cut before the end of its TCP header".to_string(),
                    (n, _) => format!("{n} frames are cut before the end of their TCP header"),
                }
            ),
            (NoTcpWhy::Cut { frames, keeps }, Language::Zh) => format!(
                "{frames} 个帧在 TCP 头结束前被截断（快照长度只保留 {keeps} 字节；\
                 请用 tcpdump -s 128 或更大的值抓包）"
            ),
            (NoTcpWhy::NotTcp { frames, fragments }, Language::En) => {
                let mut said = Vec::new();
                if *frames > 0 {
                    said.push(
                        match (*frames, total) {
                            (1, 1) => "it is not TCP".to_string(),
                            (1, _) => "1 packet is not TCP".to_string(),
                            (n, _) => format!("{n} packets are not TCP"),
                        } + " (UDP, ICMP, ARP or another protocol)",
                    );
                }
                if *fragments > 0 {
                    said.push(format!(
                        "{} (the lab does not reassemble them)",
                        counted(*fragments as u64, "is an IP fragment", "are IP fragments")
                    ));
                }
                said.join("; ")
            }
            (NoTcpWhy::NotTcp { frames, fragments }, Language::Zh) => {
                let mut said = Vec::new();
                if *frames > 0 {
                    said.push(format!(
                        "{frames} 个数据包不是 TCP（而是 UDP、ICMP、ARP 或其他协议）"
                    ));
                }
                if *fragments > 0 {
                    said.push(format!("{fragments} 个是 IP 分片（实验室不做重组）"));
                }
                said.join("；")
            }
        }
    }
}

impl AnalyzeError {
    /// What is wrong, in `lang`; for a connection that delivered nothing, with the file's
    /// cut tail, which may be why.
    pub fn say(&self, lang: Language) -> String {
        let said = self.say_alone(lang);
        match (self, lang) {
            (AnalyzeError::NoDelivery { cut: Some(c), .. }, Language::En) => {
                format!("{said} ({})", c.say(lang))
            }
            (AnalyzeError::NoDelivery { cut: Some(c), .. }, Language::Zh) => {
                format!("{said}（{}）", c.say(lang))
            }
            _ => said,
        }
    }

    fn say_alone(&self, lang: Language) -> String {
        match (self, lang) {
            (AnalyzeError::Read(e), lang) => e.say(lang),
            (AnalyzeError::NoTcp { frames, why }, Language::En) => {
                let why = why.say(lang, *frames);
                match frames {
                    0 => format!("no TCP segment could be read: {why}"),
                    1 => format!("no TCP segment could be read in the one frame: {why}"),
                    n => format!("no TCP segment could be read in the {n} frames: {why}"),
                }
            }
            (AnalyzeError::NoTcp { frames, why }, Language::Zh) => {
                let why = why.say(lang, *frames);
                match frames {
                    0 => format!("读不出任何 TCP 报文段：{why}"),
                    n => format!("{n} 个帧中读不出任何 TCP 报文段：{why}"),
                }
            }
            (AnalyzeError::NoSuchConnection { asked, count }, Language::En) => {
                format!("conn: no connection {asked}: the capture has {count} (1 to {count})")
            }
            (AnalyzeError::NoSuchConnection { asked, count }, Language::Zh) => {
                format!("conn：没有连接 {asked}：抓包中有 {count} 个连接（1 到 {count}）")
            }
            (
                AnalyzeError::NoDelivery {
                    conn,
                    data_segments,
                    one_way: true,
                    ..
                },
                Language::En,
            ) if *data_segments > 0 => format!(
                "connection {conn} has no data acknowledged: the capture holds its {} and no \
                 packet the other way (a filter on one direction, or a route back that avoids \
                 this host); capture both directions",
                counted(*data_segments, "data segment", "data segments")
            ),
            (
                AnalyzeError::NoDelivery {
                    conn,
                    data_segments,
                    one_way: true,
                    ..
                },
                Language::Zh,
            ) if *data_segments > 0 => format!(
                "连接 {conn} 没有被确认的数据：抓包中只有它的 {data_segments} 个数据报文段，没有反方向的\
                 数据包（抓包过滤只留下了一个方向，或回程路径不经过这台主机）；请抓取两个方向"
            ),
            (
                AnalyzeError::NoDelivery {
                    conn,
                    packets,
                    data_segments: 0,
                    one_way: true,
                    unseen_acked,
                    ..
                },
                Language::En,
            ) if *unseen_acked > 0 => format!(
                "connection {conn} shows one direction alone: {} {}, carried by no packet in \
                 the capture (a filter on one direction, or a route there that avoids this \
                 host); capture both directions",
                if *packets == 1 {
                    "its one packet acknowledges".to_string()
                } else {
                    format!("its {packets} packets acknowledge")
                },
                counted(*unseen_acked, "byte", "bytes")
            ),
            (
                AnalyzeError::NoDelivery {
                    conn,
                    packets,
                    data_segments: 0,
                    one_way: true,
                    unseen_acked,
                    ..
                },
                Language::Zh,
            ) if *unseen_acked > 0 => format!(
                "连接 {conn} 只抓到一个方向：{}确认了 {unseen_acked} 字节，抓包中没有任何数据包\
                 携带它们（抓包过滤只留下了一个方向，或去程路径不经过这台主机）；请抓取两个方向",
                if *packets == 1 {
                    "它唯一的数据包".to_string()
                } else {
                    format!("它的 {packets} 个数据包")
                }
            ),
            (
                AnalyzeError::NoDelivery {
                    conn,
                    packets,
                    data_segments: 0,
                    ..
                },
                Language::En,
            ) => format!(
                "connection {conn} carried no data: {} no payload (a handshake or ACKs \
                 alone), so there is no transfer to explain",
                if *packets == 1 {
                    "its one packet carries".to_string()
                } else {
                    format!("its {packets} packets carry")
                }
            ),
            (
                AnalyzeError::NoDelivery {
                    conn,
                    packets,
                    data_segments: 0,
                    ..
                },
                Language::Zh,
            ) => format!(
                "连接 {conn} 没有传输数据：{}（只有握手或 ACK），没有可解读的传输",
                if *packets == 1 {
                    "它唯一的数据包不带载荷".to_string()
                } else {
                    format!("它的 {packets} 个数据包都不带载荷")
                }
            ),
            (
                AnalyzeError::NoDelivery {
                    conn,
                    data_segments,
                    ..
                },
                Language::En,
            ) => format!(
                "connection {conn} has no data acknowledged: {} sent, and no ACK in the \
                 capture covers {}; a longer capture shows the transfer",
                counted(*data_segments, "data segment was", "data segments were"),
                if *data_segments == 1 { "it" } else { "any of them" }
            ),
            (
                AnalyzeError::NoDelivery {
                    conn,
                    data_segments,
                    ..
                },
                Language::Zh,
            ) => format!(
                "连接 {conn} 没有被确认的数据：发送了 {data_segments} 个数据报文段，抓包中没有 \
                 ACK 确认{}；抓得更久一些就能看到传输",
                if *data_segments == 1 { "它" } else { "其中任何一个" }
            ),
        }
    }
}

impl std::fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.say(Language::En))
    }
}

/// How far the ACK field of `segs`, all from one end, advanced past its first value (modulo
/// 2^32, RFC 9293's sequence space): bytes the other end sent, acknowledged here; a FIN it sent
/// counts one.
fn unseen_acked(segs: &[&Segment]) -> u64 {
    let mut acks = segs.iter().filter(|s| s.flags.ack).map(|s| s.ack);
    let Some(mut last) = acks.next() else {
        return 0;
    };
    // The ACK field's steps forward, summed (a step back is a reordered ACK, left out), so that
    // a transfer past 2 GiB counts whole.
    let mut advanced = 0u64;
    for a in acks {
        let step = a.wrapping_sub(last);
        if step < 1 << 31 {
            advanced += u64::from(step);
            last = a;
        }
    }
    advanced
}

/// How much faster than the delivery peak the packet pairs must be to show a link the flow
/// never filled: within a flight the pairs come out a little faster than a round trip's
/// average even on a link the flow did fill.
const PAIRS_FASTER: f64 = 1.1;

/// How the fitted `bw` was found, in Mbit/s on the wire.
#[derive(Debug, Clone, Copy)]
enum LinkRate {
    /// The delivery peak: the flow filled its link, or its packet pairs are about as fast.
    Peak(f64),
    /// The packet pairs, clearly faster than the peak: the flow never filled its link.
    Pairs(f64),
    /// Twice the peak: no pairs, and the flow never filled its link, so it was at least that fast.
    AtLeast(f64),
    /// Nothing to measure it by: the lab's default stays.
    Unknown,
}

impl LinkRate {
    fn mbit(self) -> Option<f64> {
        match self {
            LinkRate::Peak(r) | LinkRate::Pairs(r) | LinkRate::AtLeast(r) => Some(r),
            LinkRate::Unknown => None,
        }
    }

    /// Whether it is the link's own rate, not a bound on it.
    fn known(self) -> bool {
        matches!(self, LinkRate::Peak(_) | LinkRate::Pairs(_))
    }

    fn how(self) -> Said {
        match self {
            LinkRate::Peak(_) => Said::new(
                "the delivery rate's peak over a round trip, with each segment's headers",
                "一个往返内交付速率的峰值，计入每个报文段的头部",
            ),
            LinkRate::Pairs(_) => Said::new(
                "the spacing of each flight's packets as they left the link's queue (packet pairs), with their headers: the flow never filled the link",
                "每轮数据包离开链路队列时的间隔（包对），计入头部：这条流从未占满链路",
            ),
            LinkRate::AtLeast(_) => Said::new(
                "twice the delivery rate's peak with headers: the flow never filled the link, so it was at least that fast",
                "交付速率峰值（计入头部）的两倍：这条流从未占满链路，链路至少有这么快",
            ),
            LinkRate::Unknown => Said::new(
                "the lab's default: the capture holds no round trip of deliveries to measure the link's rate over",
                "实验室的默认值：抓包中没有一个完整往返的交付可用来测量链路速率",
            ),
        }
    }
}

/// A segment's payload and its headers, in bytes, for a connection whose MSS is `mss` (Linux's
/// 1448 where the handshake was not captured) and whose segments carry timestamps if `ts`.
fn segment_bytes(mss: Option<u32>, ts: bool) -> (f64, f64) {
    (
        f64::from(mss.unwrap_or(1448).max(1)),
        f64::from(crate::packet::header_bytes(ts)),
    )
}

/// The link's rate in MB/s on the wire from `deliveries` (when, bytes on the wire) in the
/// order seen: the median rate of consecutive pairs less than `within_ns` apart (a flight's),
/// if there are three such pairs at least.
fn pair_rate(deliveries: impl Iterator<Item = (u64, f64)>, within_ns: u64) -> Option<f64> {
    let mut rates = Vec::new();
    let mut prev: Option<u64> = None;
    for (t, bytes) in deliveries {
        if let Some(p) = prev {
            let gap = t.saturating_sub(p);
            if gap > 0 && gap < within_ns {
                rates.push(bytes / (gap as f64 / 1e9) / 1e6);
            }
        }
        prev = Some(t);
    }
    if rates.len() < 3 {
        return None;
    }
    rates.sort_by(f64::total_cmp);
    rates.get(rates.len() / 2).copied()
}

/// A capture read and cut into connections.
#[derive(Debug, Clone)]
pub struct CaptureFile {
    pub connections: Vec<Connection>,
    segments: Vec<Segment>,
    /// Each connection's segments, indices into `segments`, in time order.
    members: Vec<Vec<usize>>,
    /// Each connection's data sender.
    senders: Vec<Endpoint>,
    /// What made the whole file's figures less certain beside its cut tail: frames left out.
    pub notes: Vec<Said>,
    /// The file's cut or garbled tail.
    damage: Option<ReadError>,
}

impl CaptureFile {
    /// Reads `bytes`, a pcap or pcapng file.
    pub fn read(
        bytes: &[u8],
        progress: &mut dyn FnMut(usize),
    ) -> Result<CaptureFile, AnalyzeError> {
        let frames = read_frames(bytes, progress).map_err(AnalyzeError::Read)?;
        CaptureFile::of(frames)
    }

    fn of(frames: Frames) -> Result<CaptureFile, AnalyzeError> {
        let mut notes = Vec::new();
        let mut segments = Vec::with_capacity(frames.frames.len());
        let (mut cut, mut other, mut fragments) = (0usize, 0usize, 0usize);
        let mut links: Vec<i32> = Vec::new();
        let mut shortest_cut = usize::MAX;
        for f in &frames.frames {
            match dissect(f) {
                Ok(s) => segments.push(s),
                Err(Skip::CutHeader) => {
                    cut += 1;
                    shortest_cut = shortest_cut.min(f.data.len());
                }
                Err(Skip::NotTcp) => other += 1,
                Err(Skip::Fragment) => fragments += 1,
                Err(Skip::Link(l)) => {
                    if !links.contains(&l) {
                        links.push(l);
                    }
                }
            }
        }
        let n = frames.frames.len();
        if segments.is_empty() {
            // Packets read but unplaced say more than the cut after them.
            if let (true, false, Some(d)) = (
                frames.frames.is_empty(),
                frames.unplaced.any(),
                &frames.damage,
            ) {
                return Err(AnalyzeError::Read(d.clone()));
            }
            let why = if n == 0 && frames.unplaced.any() {
                NoTcpWhy::Unplaced(frames.unplaced)
            } else if n == 0 {
                NoTcpWhy::NoPackets
            } else if !links.is_empty() {
                NoTcpWhy::Links(links)
            } else if cut > 0 {
                NoTcpWhy::Cut {
                    frames: cut,
                    keeps: shortest_cut,
                }
            } else {
                NoTcpWhy::NotTcp {
                    frames: other,
                    fragments,
                }
            };
            return Err(AnalyzeError::NoTcp { frames: n, why });
        }
        for (en, zh) in frames
            .unplaced
            .say(Language::En)
            .into_iter()
            .zip(frames.unplaced.say(Language::Zh))
        {
            notes.push(Said::new(
                format!("{en}: left out"),
                format!("{zh}：已略去"),
            ));
        }
        if cut > 0 {
            notes.push(Said::new(
                format!(
                    "{} before the end of {} TCP header {} left out (snap length \
                     {shortest_cut} bytes)",
                    counted(cut as u64, "frame cut", "frames cut"),
                    if cut == 1 { "its" } else { "their" },
                    if cut == 1 { "was" } else { "were" },
                ),
                format!("{cut} 个在 TCP 头结束前被截断的帧已略去（快照长度 {shortest_cut} 字节）"),
            ));
        }
        if fragments > 0 {
            notes.push(Said::new(
                format!(
                    "{} left out",
                    counted(fragments as u64, "IP fragment was", "IP fragments were")
                ),
                format!("{fragments} 个 IP 分片已略去"),
            ));
        }
        segments.sort_by_key(|s| s.ns);
        // A connection is its two endpoints, whichever way a segment goes.
        let mut index: HashMap<(Endpoint, Endpoint), usize> = HashMap::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for (i, s) in segments.iter().enumerate() {
            let key = if s.src <= s.dst {
                (s.src, s.dst)
            } else {
                (s.dst, s.src)
            };
            let c = *index.entry(key).or_insert_with(|| {
                members.push(Vec::new());
                members.len() - 1
            });
            members[c].push(i);
        }
        let mut connections = Vec::with_capacity(members.len());
        let mut senders = Vec::with_capacity(members.len());
        for (c, m) in members.iter().enumerate() {
            let first = &segments[m[0]];
            let (a, b) = (first.src, first.dst);
            let (mut bytes_a, mut bytes_b) = (0u64, 0u64);
            let mut syn_from: Option<Endpoint> = None;
            for &i in m {
                let s = &segments[i];
                if s.src == a {
                    bytes_a += u64::from(s.len);
                } else {
                    bytes_b += u64::from(s.len);
                }
                if s.flags.syn && !s.flags.ack {
                    syn_from.get_or_insert(s.src);
                }
            }
            let (sender, receiver, data, reverse) = if bytes_a >= bytes_b {
                (a, b, bytes_a, bytes_b)
            } else {
                (b, a, bytes_b, bytes_a)
            };
            let last = &segments[m[m.len() - 1]];
            senders.push(sender);
            connections.push(Connection {
                conn: c + 1,
                sender: sender.to_string(),
                receiver: receiver.to_string(),
                packets: m.len() as u64,
                data_bytes: data,
                reverse_bytes: reverse,
                duration_ms: (last.ns - first.ns) as f64 / 1e6,
                handshake: syn_from.is_some(),
            });
        }
        Ok(CaptureFile {
            connections,
            segments,
            members,
            senders,
            notes,
            damage: frames.damage,
        })
    }

    /// The connection analysed when none is named: the one that carried the most payload.
    pub fn largest(&self) -> usize {
        self.connections
            .iter()
            .max_by_key(|c| (c.data_bytes, std::cmp::Reverse(c.conn)))
            .map_or(1, |c| c.conn)
    }

    /// Connection `conn` (from 1) analysed: `tcplab analyze`'s, in English.
    pub fn analyze(&self, conn: usize) -> Result<Analysis, AnalyzeError> {
        self.analyze_in_both(conn).map(|a| a.analysis)
    }

    /// Connection `conn` (from 1) analysed, its sentences in both of the page's languages.
    /// A connection that delivered nothing has no transfer to explain, and no scenario fits it.
    pub fn analyze_in_both(&self, conn: usize) -> Result<Analyzed, AnalyzeError> {
        let c = self.index(conn)?;
        let segs: Vec<&Segment> = self.members[c].iter().map(|&i| &self.segments[i]).collect();
        let Analyzed {
            mut analysis,
            mut zh,
        } = analyze_connection(
            &segs,
            self.senders[c],
            &self.connections[c],
            self.segments.last().map_or(0, |s| s.ns),
        );
        if analysis.acked_bytes == 0 {
            let one_way = segs.iter().all(|s| s.src == self.senders[c]);
            return Err(AnalyzeError::NoDelivery {
                conn,
                packets: self.connections[c].packets,
                data_segments: analysis.data_segments_sent,
                one_way,
                unseen_acked: if one_way { unseen_acked(&segs) } else { 0 },
                cut: self.damage.clone(),
            });
        }
        // The file's cut tail first, then the frames it left out.
        let cut = self
            .damage
            .iter()
            .map(|d| (d.say(Language::En), d.say(Language::Zh)));
        for (en, zh_note) in cut.chain(self.notes.iter().map(|n| (n.en.clone(), n.zh.clone()))) {
            analysis.notes.push(en);
            zh.notes.push(zh_note);
        }
        Ok(Analyzed { analysis, zh })
    }

    /// Connection `conn`'s (from 1) segments that carry data from its data sender, in the order
    /// captured: where a sender's pacing shows, one segment at a time or in bursts.
    pub fn sends(&self, conn: usize) -> Result<Vec<&Segment>, AnalyzeError> {
        let c = self.index(conn)?;
        let sender = self.senders[c];
        Ok(self.members[c]
            .iter()
            .map(|&i| &self.segments[i])
            .filter(|s| s.src == sender && s.len > 0)
            .collect())
    }

    /// Connection `conn`'s sends (from 1) in bursts: runs of segments each less than `within_ns`
    /// after the one before. A sender that paces GSO packets sends each one's segments back to
    /// back (Linux's BBR: a 1024th of a second of its rate at a time), one that paces segment by
    /// segment sends bursts of one.
    pub fn bursts(&self, conn: usize, within_ns: u64) -> Result<Vec<Burst>, AnalyzeError> {
        let mut out: Vec<Burst> = Vec::new();
        let mut last = None;
        for s in self.sends(conn)? {
            match out.last_mut() {
                Some(b) if last.is_some_and(|t: u64| s.ns.saturating_sub(t) < within_ns) => {
                    b.segments += 1
                }
                _ => out.push(Burst {
                    at_ns: s.ns,
                    segments: 1,
                }),
            }
            last = Some(s.ns);
        }
        Ok(out)
    }

    fn index(&self, conn: usize) -> Result<usize, AnalyzeError> {
        let count = self.connections.len();
        conn.checked_sub(1)
            .filter(|&c| c < count)
            .ok_or(AnalyzeError::NoSuchConnection { asked: conn, count })
    }
}

/// A run of a sender's segments that left back to back ([`CaptureFile::bursts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Burst {
    /// When its first segment was captured (ns, the file's clock).
    pub at_ns: u64,
    pub segments: u32,
}

/// A 32-bit sequence number as a 64-bit offset from a base, across wraps.
#[derive(Debug, Clone, Copy)]
struct Unwrap {
    last_wire: u32,
    last: u64,
}

impl Unwrap {
    fn new(base: u32) -> Unwrap {
        Unwrap {
            last_wire: base,
            last: 0,
        }
    }

    /// Offsets stay within 2^31 of the last one seen (RFC 9293's window rules make it so).
    fn at(&mut self, wire: u32) -> u64 {
        let delta = wire.wrapping_sub(self.last_wire) as i32;
        let at = (self.last as i64 + i64::from(delta)).max(0) as u64;
        if delta > 0 {
            self.last_wire = wire;
            self.last = at;
        }
        at
    }

    /// Without changing what was seen.
    fn peek(&self, wire: u32) -> u64 {
        self.offset(wire).max(0) as u64
    }

    /// The offset from the base, negative for a byte before it: a capture begun in the middle
    /// of a connection sees ACKs and SACK blocks of data sent before its first segment.
    fn offset(&self, wire: u32) -> i64 {
        let delta = wire.wrapping_sub(self.last_wire) as i32;
        self.last as i64 + i64::from(delta)
    }
}

/// A new segment sent this long after the last packet from the receiver was not sent on an ACK
/// (a host answers an ACK within tens of microseconds).
const PACED_GAP_NS: u64 = 200_000;

/// RFC 6298's smoothing of the samples' round trips.
fn smoothed(samples: &[f64]) -> Option<f64> {
    let mut it = samples.iter();
    let mut srtt = *it.next()?;
    for &r in it {
        srtt += (r - srtt) / 8.0;
    }
    Some(srtt)
}

fn min_of(v: &[(u64, f64)]) -> Option<f64> {
    v.iter().map(|&(_, d)| d).reduce(f64::min)
}

/// Connection `conn`'s segments analysed; `capture_end` is when the file's last TCP segment,
/// of any connection, was captured.
fn analyze_connection(
    segs: &[&Segment],
    sender: Endpoint,
    conn: &Connection,
    capture_end: u64,
) -> Analyzed {
    let t0 = segs.first().map_or(0, |s| s.ns);
    let ms = |ns: u64| (ns.saturating_sub(t0)) as f64 / 1e6;
    let mut notes = Vec::new();
    let mut curves = Curves::default();

    // The handshake: the sender's and the receiver's SYNs, with their options.
    let syn_s = segs.iter().find(|s| s.flags.syn && s.src == sender);
    let syn_r = segs.iter().find(|s| s.flags.syn && s.src != sender);
    let first_data = segs.iter().find(|s| s.src == sender && s.len > 0);
    let base = match (syn_s, first_data) {
        (Some(syn), _) => syn.seq.wrapping_add(1),
        (None, Some(d)) => d.seq,
        (None, None) => segs.first().map_or(0, |s| s.seq),
    };
    if syn_s.is_none() {
        notes.push(Said::new(
            "the capture starts after the handshake: sequence numbers count from its first \
             data byte, and the window scale is estimated",
            "抓包开始于握手之后：序号从抓到的第一个数据字节算起，窗口缩放因子为估计值",
        ));
    }
    // RFC 7323 §2.2: scaling applies only when both SYNs carried the option.
    let wscale = match (syn_s.and_then(|s| s.wscale), syn_r.and_then(|s| s.wscale)) {
        (Some(_), Some(r)) => Some(r.min(14)),
        (Some(_), None) | (None, Some(_)) if syn_s.is_some() && syn_r.is_some() => Some(0),
        _ if syn_s.is_some() && syn_r.is_some() => Some(0),
        _ => None,
    };
    let ts_on = syn_s.is_some_and(|s| s.ts.is_some()) || first_data.is_some_and(|s| s.ts.is_some());
    let mss = syn_s
        .and_then(|s| s.mss)
        .zip(syn_r.and_then(|s| s.mss))
        .map(|(a, b)| u32::from(a.min(b)))
        .map(|m| if ts_on { m.saturating_sub(12) } else { m });

    let mut seq = Unwrap::new(base);
    let mut high = 0u64; // the highest byte sent, + 1
    let mut una = 0u64;
    let mut una_set = false;
    let mut data_segments = 0u64;
    let mut retrans = 0u64;
    let mut dup_arrivals = 0u64;
    let mut dsacks = 0u64;
    let mut dupacks = 0u64;
    let mut seen = RangeSet::new();
    let mut delivered = RangeSet::new();
    // Segments sent once and not yet acknowledged: (end, when), for Karn's rule (RFC 6298 §3).
    let mut pending: std::collections::VecDeque<(u64, u64, bool)> = Default::default();
    // Delays (when measured, ms) to the receiver and back, and to the sender and back.
    let mut far: Vec<(u64, f64)> = Vec::new();
    let mut near: Vec<(u64, f64)> = Vec::new();
    // When each TSval was first seen, either way; and whether its echo has been seen.
    let mut tsval_s: HashMap<u32, (u64, bool)> = HashMap::new();
    let mut tsval_r: HashMap<u32, (u64, bool)> = HashMap::new();
    let mut last_window: Option<u16> = None;
    let mut rwnd_max: Option<u64> = None;
    let mut zero_since: Option<u64> = None;
    let mut zero_ns = 0u64;
    let mut in_flight_max = 0u64;
    // The window the receiver last offered, and what it was when the bytes in flight peaked:
    // a window that grew later (Linux's receive autotuning) did not hold that peak.
    let mut wnd_now: Option<u64> = None;
    let mut wnd_at_peak: Option<u64> = None;
    let mut first_ack_advance: Option<u64> = None;
    // When each segment of new data was captured.
    let mut new_data_ns: Vec<u64> = Vec::new();
    let mut new_data_len: Vec<u32> = Vec::new();
    // When the last packet from the receiver was seen, and how many new segments left long
    // after it: a sender that paces sends between ACKs, one clocked by ACKs right after them.
    let mut last_from_receiver: Option<u64> = None;
    let mut paced_sends = 0u64;
    let mut idle_from: Option<u64> = None;
    let mut idle_gaps: Vec<u64> = Vec::new();
    let mut acks: Vec<(u64, u64)> = Vec::new(); // (ns, delivered bytes)
    let mut first_data_ns: Option<u64> = None;
    let mut last_ack_ns: Option<u64> = None;
    let mut max_window_field = 0u16;
    let mut fin_at: Option<u64> = None;

    for s in segs {
        if s.src == sender {
            // Only data segments time the path: a full segment's trip, as the lab's rtt
            // (less its serialisation) is measured from.
            if let (Some((val, ecr)), true) = (s.ts, s.len > 0 && !s.flags.syn) {
                tsval_s.entry(val).or_insert((s.ns, false));
                if let Some(e) = tsval_r.get_mut(&ecr) {
                    if !e.1 {
                        e.1 = true;
                        near.push((s.ns, (s.ns - e.0) as f64 / 1e6));
                    }
                }
            }
            if s.flags.fin && !s.flags.syn {
                // The FIN takes a sequence number of its own, after the payload.
                fin_at.get_or_insert(seq.peek(s.seq) + u64::from(s.len));
            }
            if s.len == 0 || s.flags.syn {
                continue;
            }
            let start = seq.at(s.seq);
            let end = start + u64::from(s.len);
            first_data_ns.get_or_insert(s.ns);
            data_segments += 1;
            if let Some(from) = idle_from.take() {
                idle_gaps.push(s.ns - from);
            }
            if start < high {
                retrans += 1;
                curves.retransmits.push((ms(s.ns), start as f64));
                // Covered wholly by bytes already captured: at a receiver, a duplicate arrival.
                if seen.containing(start).is_some_and(|r| r.end >= end) {
                    dup_arrivals += 1;
                }
                // Karn: no sample from a segment sent more than once.
                for p in pending.iter_mut() {
                    if p.0 > start && p.0 <= end.max(start + 1) {
                        p.2 = false;
                    }
                }
            } else {
                pending.push_back((end, s.ns, true));
                if last_from_receiver.is_some_and(|t| s.ns - t > PACED_GAP_NS) {
                    paced_sends += 1;
                }
                new_data_ns.push(s.ns);
                new_data_len.push(s.len);
            }
            seen.insert(SackBlock { start, end });
            high = high.max(end);
            if high.saturating_sub(una) > in_flight_max {
                in_flight_max = high.saturating_sub(una);
                wnd_at_peak = wnd_now;
            }
            curves.sent.push((ms(s.ns), high as f64));
            curves
                .in_flight
                .push((ms(s.ns), high.saturating_sub(una) as f64));
        } else {
            last_from_receiver = Some(s.ns);
            if let Some((val, ecr)) = s.ts {
                tsval_r.entry(val).or_insert((s.ns, false));
                if let Some(e) = tsval_s.get_mut(&ecr) {
                    if !e.1 {
                        e.1 = true;
                        far.push((s.ns, (s.ns - e.0) as f64 / 1e6));
                    }
                }
            }
            if !s.flags.ack || s.flags.syn {
                continue;
            }
            let ack = seq.peek(s.ack);
            let scale = wscale.unwrap_or(0);
            let wnd = u64::from(s.window) << scale;
            max_window_field = max_window_field.max(s.window);
            if wscale.is_some() {
                rwnd_max = Some(rwnd_max.map_or(wnd, |m: u64| m.max(wnd)));
                wnd_now = Some(wnd);
            }
            if s.window == 0 {
                zero_since.get_or_insert(s.ns);
            } else if let Some(z) = zero_since.take() {
                zero_ns += s.ns - z;
            }
            // RFC 2883 §4: a first block below the ACK, or inside the second, is a D-SACK.
            // A block of data sent before the capture began says nothing of a retransmission
            // the capture saw: read against the capture's first byte it would look below the
            // ACK, and a capture begun mid-connection counted each as a D-SACK (44 for the 5
            // retransmissions of `broken/mid-connection.pcap`), its loss then zero.
            let blocks = s.sack_blocks();
            if let Some(&(l, r)) = blocks.first().filter(|&&(l, _)| seq.offset(l) >= 0) {
                let (l, r) = (seq.peek(l), seq.peek(r));
                let inside_second = blocks
                    .get(1)
                    .is_some_and(|&(l2, r2)| seq.peek(l2) <= l && r <= seq.peek(r2));
                if r <= ack || inside_second {
                    dsacks += 1;
                }
            }
            if !una_set || ack > una {
                if una_set {
                    last_ack_ns = Some(s.ns);
                }
                if ack > una && first_ack_advance.is_none() && high > 0 {
                    first_ack_advance = Some(s.ns);
                }
                // The newest segment this ACK covers gives the shortest sample.
                let mut sample = None;
                while let Some(&(end, sent, ok)) = pending.front() {
                    if end > ack {
                        break;
                    }
                    pending.pop_front();
                    if ok {
                        sample = Some((s.ns - sent) as f64 / 1e6);
                    }
                }
                if let Some(r) = sample {
                    // Timestamps give the far samples when present; without them, these.
                    if !ts_on {
                        far.push((s.ns, r));
                    }
                }
                una = ack.max(una);
                una_set = true;
                curves.acked.push((ms(s.ns), una as f64));
                if una >= high && high > 0 {
                    idle_from = Some(s.ns);
                }
            } else if ack == una
                && s.len == 0
                && !s.flags.fin
                && high > una
                && last_window == Some(s.window)
            {
                dupacks += 1;
            }
            last_window = Some(s.window);
            curves.rwnd.push((ms(s.ns), wnd as f64));
            if una > 0 {
                delivered.insert(SackBlock { start: 0, end: una });
            }
            for &(l, r) in blocks {
                let (l, r) = (seq.peek(l), seq.peek(r));
                if l < r && r <= high.max(r) && l >= una {
                    delivered.insert(SackBlock { start: l, end: r });
                }
            }
            acks.push((s.ns, delivered.bytes()));
        }
    }
    if let Some(z) = zero_since {
        if let Some(last) = segs.last() {
            zero_ns += last.ns - z;
        }
    }

    // The handshake's round trip, and which side of the capture each half lies.
    let handshake = match (syn_s, syn_r) {
        (Some(a), Some(b)) => {
            let (first, second) = if a.ns <= b.ns { (a, b) } else { (b, a) };
            let third = segs
                .iter()
                .find(|s| s.ns >= second.ns && !s.flags.syn && s.src == first.src && s.flags.ack);
            third.map(|t| {
                (
                    (second.ns - first.ns) as f64 / 1e6,
                    (t.ns - second.ns) as f64 / 1e6,
                    first.src == sender,
                )
            })
        }
        _ => None,
    };
    let handshake_rtt = handshake.map(|(x, y, _)| x + y);
    if near.is_empty() {
        // Without timestamps, the near side's delay is the handshake's half on that side.
        if let Some((x, y, sender_first)) = handshake {
            near.push((t0, if sender_first { y } else { x }));
        }
    }
    if far.is_empty() {
        if let Some((x, y, sender_first)) = handshake {
            far.push((t0, if sender_first { x } else { y }));
        }
    }
    let far_min = min_of(&far);
    let near_min = min_of(&near).unwrap_or_else(|| {
        notes.push(Said::new(
            "neither timestamps nor the handshake show the delay between the capture and the \
             sender: it is taken as 0",
            "时间戳和握手都看不出抓包点与发送端之间的时延：按 0 计",
        ));
        0.0
    });
    let rtt_ms = far_min.map(|f| f + near_min);
    let full: Vec<f64> = far.iter().map(|&(_, f)| f + near_min).collect();
    curves.rtt = far.iter().map(|&(t, f)| (ms(t), f + near_min)).collect();
    let srtt_ms = smoothed(&full);
    let (point, point_why) = match far_min {
        Some(f) if near_min > f => (
            CapturePoint::Receiver,
            Said::new(
                format!(
                    "an ACK left {f:.2} ms after the data it covers at least, and data came \
                     {near_min:.2} ms after the ACK it answers: the capture was near the receiver"
                ),
                format!(
                    "ACK 至少在它确认的数据之后 {f:.2} ms 发出，而数据在它回应的 ACK 之后 \
                     {near_min:.2} ms 到达：抓包点靠近接收端"
                ),
            ),
        ),
        Some(f) => (
            CapturePoint::Sender,
            Said::new(
                format!(
                    "data left {near_min:.2} ms after the ACK it answers at least, and the ACK \
                     came {f:.2} ms after the data it covers: the capture was near the sender"
                ),
                format!(
                    "数据至少在它回应的 ACK 之后 {near_min:.2} ms 发出，而 ACK 在它确认的数据之后 \
                     {f:.2} ms 到达：抓包点靠近发送端"
                ),
            ),
        ),
        None => (
            CapturePoint::Sender,
            Said::new(
                "no round trip could be timed: taken as near the sender",
                "测不出任何往返时间：按靠近发送端处理",
            ),
        ),
    };
    let spurious = match point {
        CapturePoint::Sender => dsacks,
        CapturePoint::Receiver => dup_arrivals,
    };
    let needed = retrans.saturating_sub(spurious);
    // At the receiver a lost segment was never seen: count it beside those that arrived.
    let sent = match point {
        CapturePoint::Sender => data_segments,
        CapturePoint::Receiver => data_segments - retrans + needed,
    };
    let loss_pct = if sent > 0 {
        needed as f64 / sent as f64 * 100.0
    } else {
        0.0
    };
    let acked_bytes = fin_at.map_or(una, |f| una.min(f));
    // The lab's goodput runs from the first byte leaving the sender to the last reaching the
    // receiver (`sim/report.rs`). At the sender the last arrival shows half a round trip
    // later, on its ACK; at the receiver the first byte shows half a round trip after it
    // left. Without that half the span of a transfer of one flight would be a round trip at
    // the sender, and none at all at the receiver.
    let half_rtt_ns = rtt_ms.map_or(0.0, |r| r * 1e6 / 2.0);
    let goodput = match (first_data_ns, last_ack_ns) {
        (Some(a), Some(b)) if b > a && acked_bytes > 0 => {
            let span_ns = match point {
                // The floor is a guard: the last ACK comes a round trip at least after the
                // first data.
                CapturePoint::Sender => ((b - a) as f64 - half_rtt_ns).max((b - a) as f64 / 2.0),
                CapturePoint::Receiver => (b - a) as f64 + half_rtt_ns,
            };
            Some(acked_bytes as f64 / (span_ns / 1e9) / 1e6)
        }
        _ => None,
    };
    // The delivery rate over at least one round trip, ACK to ACK (tcp_rate.c's interval);
    // its peak is the bottleneck's rate if the flow ever filled it.
    let window_ns = (rtt_ms.unwrap_or(10.0).max(1.0) * 1e6) as u64;
    let mut peak: Option<f64> = None;
    let mut i = 0;
    for j in 0..acks.len() {
        while i + 1 < j && acks[j].0 - acks[i + 1].0 >= window_ns {
            i += 1;
        }
        let (t_i, d_i) = acks[i];
        let (t_j, d_j) = acks[j];
        if t_j - t_i >= window_ns && d_j > d_i {
            let r = (d_j - d_i) as f64 / ((t_j - t_i) as f64 / 1e9) / 1e6;
            peak = Some(peak.map_or(r, |p: f64| p.max(r)));
        }
    }
    // Packet pairs (Keshav, SIGCOMM 1991; the ACK clock of Jacobson's "Congestion Avoidance
    // and Control", 1988): a flight's segments leave the bottleneck's queue one serialisation
    // apart, so their spacing within a flight is the link's rate even where the flow never
    // filled it. At the receiver the data's arrivals, at the sender the ACKs, each for what it
    // newly covers; on the wire, with each segment's headers.
    let (seg, hdr) = segment_bytes(mss, ts_on);
    let within_ns = (rtt_ms.unwrap_or(10.0).max(0.1) * 1e6 / 2.0) as u64;
    let pairs = match point {
        CapturePoint::Receiver => pair_rate(
            new_data_ns
                .iter()
                .zip(&new_data_len)
                .map(|(&t, &len)| (t, f64::from(len) + hdr)),
            within_ns,
        ),
        CapturePoint::Sender => pair_rate(
            acks.windows(2)
                .filter(|w| w[1].1 > w[0].1)
                .map(|w| (w[1].0, (w[1].1 - w[0].1) as f64 * (seg + hdr) / seg)),
            within_ns,
        ),
    };
    // Goodput per window of about ten round trips for the chart, shorter (down to one round
    // trip) in a capture too short to hold ten such windows.
    let acks_span = match (acks.first(), acks.last()) {
        (Some(a), Some(b)) => b.0 - a.0,
        _ => 0,
    };
    let gw = (window_ns * 10)
        .max(100_000_000)
        .min((acks_span / 10).max(window_ns));
    curves.goodput_window_ms = gw as f64 / 1e6;
    let mut prev = (acks.first().map_or(t0, |a| a.0), 0u64);
    for &(t, d) in &acks {
        if t - prev.0 >= gw {
            let r = (d - prev.1) as f64 / ((t - prev.0) as f64 / 1e9) / 1e6;
            curves.goodput.push((ms(t), r));
            prev = (t, d);
        }
    }
    let near_ns = (near_min * 1e6) as u64;
    let app_limited_ns: u64 = idle_gaps
        .iter()
        .map(|g| g.saturating_sub(near_ns))
        .filter(|&g| g as f64 > rtt_ms.unwrap_or(0.0) * 1e6)
        .sum();
    let duration_ms = conn.duration_ms;
    let rwnd_max_bytes = rwnd_max.or_else(|| {
        // No handshake: the smallest scale at which the window would hold what was in flight.
        let field = u64::from(max_window_field).max(1);
        let scale = (0..=14u8)
            .find(|&s| field << s >= in_flight_max)
            .unwrap_or(14);
        (max_window_field > 0).then_some(field << scale)
    });
    if wscale.is_none() && max_window_field > 0 {
        notes.push(Said::new(
            "the window scale is not in the capture: the receiver's window is estimated as \
             the smallest that held the bytes in flight",
            "抓包中没有窗口缩放因子：接收窗口估计为能容纳在途字节的最小窗口",
        ));
    }
    // The initial window: the data sent before the first ACK could have released more, which
    // the capture sees until that ACK's answer would have reached it (at once at the sender,
    // a round trip later at the receiver).
    let iw = match (syn_s, first_ack_advance) {
        (Some(_), Some(a)) => {
            let until = a + near_ns;
            Some(new_data_ns.iter().filter(|&&t| t < until).count() as u64)
        }
        _ => None,
    };

    let facts = Facts {
        rtt_ms,
        goodput,
        loss_pct,
        retrans: needed,
        rwnd_max_bytes,
        in_flight_max,
        wnd_at_peak,
        zero_window_ms: zero_ns as f64 / 1e6,
        app_limited_ms: app_limited_ns as f64 / 1e6,
        duration_ms,
        acked_bytes,
        peak,
        pairs,
        mss,
        iw,
        point,
        end: if fin_at.is_some() {
            End::Fin
        } else if idle_from.is_some_and(|idle| {
            // At the sender an acknowledged flight is answered within microseconds by more
            // data, if there is any. At the receiver the data on its way is not yet seen: its
            // ACK of all it holds ends a transfer cut by the capture too, and only a round trip
            // with nothing more tells the end of the data.
            point == CapturePoint::Sender
                || capture_end.saturating_sub(idle) as f64 >= rtt_ms.unwrap_or(0.0) * 1e6
        }) {
            End::Idle
        } else {
            End::Open
        },
        // Full segments at an even pace are a bulk flow behind its bottleneck, not messages.
        // Only at the sender does a segment's time say what sent it.
        paced: (point == CapturePoint::Sender && new_data_ns.len() >= 100)
            .then(|| paced_sends * 2 > new_data_ns.len() as u64),
        writes: clocked_writes(&new_data_ns, &new_data_len)
            .filter(|w| mss.is_none_or(|m| w.msg < m)),
        ts: ts_on,
    };
    let (verdict, verdict_text) = facts.verdict();
    let (scenario, fitted) = facts.scenario(verdict);
    let estimates = |lang: Language| {
        fitted
            .iter()
            .map(|(key, value, how)| Estimate {
                key: (*key).to_string(),
                value: value.get(lang).to_string(),
                how: how.get(lang).to_string(),
            })
            .collect()
    };
    let zh = Wording {
        capture_point_why: point_why.zh.clone(),
        verdict_text: verdict_text.zh.clone(),
        estimates: estimates(Language::Zh),
        notes: notes.iter().map(|n| n.zh.clone()).collect(),
    };
    let analysis = Analysis {
        conn: conn.conn,
        sender: conn.sender.clone(),
        receiver: conn.receiver.clone(),
        capture_point: point,
        capture_point_why: point_why.en,
        handshake: syn_s.is_some(),
        duration_ms,
        acked_bytes,
        rtt_ms,
        srtt_ms,
        handshake_rtt_ms: handshake_rtt,
        rtt_samples: full.len(),
        goodput_MBps: goodput,
        data_segments_sent: data_segments,
        retransmitted_segments: retrans,
        spurious_retransmissions: spurious,
        loss_pct,
        duplicate_acks: dupacks,
        mss,
        window_scale: wscale,
        rwnd_max_bytes,
        zero_window_ms: zero_ns as f64 / 1e6,
        in_flight_max_bytes: in_flight_max,
        iw_segments: iw,
        app_limited_ms: app_limited_ns as f64 / 1e6,
        bottleneck_MBps: peak,
        verdict,
        verdict_text: verdict_text.en,
        scenario,
        estimates: estimates(Language::En),
        notes: notes.into_iter().map(|n| n.en).collect(),
        curves,
    };
    Analyzed { analysis, zh }
}

/// What the verdict and the fitted scenario are read from.
struct Facts {
    rtt_ms: Option<f64>,
    goodput: Option<f64>,
    loss_pct: f64,
    retrans: u64,
    rwnd_max_bytes: Option<u64>,
    in_flight_max: u64,
    /// The window the receiver had last offered when the bytes in flight peaked.
    wnd_at_peak: Option<u64>,
    zero_window_ms: f64,
    app_limited_ms: f64,
    duration_ms: f64,
    acked_bytes: u64,
    peak: Option<f64>,
    /// The link's rate from the spacing of packets within flights, MB/s on the wire
    /// ([`pair_rate`]).
    pairs: Option<f64>,
    mss: Option<u32>,
    iw: Option<u64>,
    end: End,
    point: CapturePoint,
    /// Timestamps were on: 12 more header bytes a segment.
    ts: bool,
    /// The sender wrote on a clock: one segment of about the same size at about the same
    /// interval, the message workload's shape.
    writes: Option<Writes>,
    /// At the sender: whether most new segments left between ACKs rather than on them.
    paced: Option<bool>,
}

/// How the sender's data ended in the capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// With its FIN: the transfer was whole.
    Fin,
    /// Every byte sent acknowledged and nothing sent after: a transfer done, its connection
    /// kept open (HTTP's keep-alive) or closed past the capture.
    Idle,
    /// Data still unacknowledged at the capture's end: a transfer cut by the capture.
    Open,
}

/// Messages written on a clock, as a capture shows them.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Writes {
    msg: u32,
    every_ms: f64,
    count: u64,
}

/// The message clock in a sender's new data, if there is one: most gaps within a fifth of
/// their median, most segments of the median's size.
fn clocked_writes(ns: &[u64], len: &[u32]) -> Option<Writes> {
    if ns.len() < 10 {
        return None;
    }
    let mut gaps: Vec<u64> = ns.windows(2).map(|w| w[1] - w[0]).collect();
    gaps.sort_unstable();
    let gap = gaps[gaps.len() / 2];
    let mut sizes = len.to_vec();
    sizes.sort_unstable();
    let msg = sizes[sizes.len() / 2];
    let near = |x: u64| x.abs_diff(gap) * 5 <= gap;
    let regular = gaps.iter().filter(|&&g| near(g)).count() * 10 >= gaps.len() * 7;
    let same = len.iter().filter(|&&l| l == msg).count() * 10 >= len.len() * 7;
    (regular && same && gap >= 1_000_000).then_some(Writes {
        msg,
        every_ms: gap as f64 / 1e6,
        count: ns.len() as u64,
    })
}

impl Facts {
    fn verdict(&self) -> (crate::theory::verdict::Limit, Said) {
        use crate::theory::verdict::Limit;
        // Figures as the page writes them beside the verdict: three significant digits, whole
        // parts grouped (`2,125 MB/s`, `0.000965 %`, `500,000 bytes`).
        let n = |v: f64| crate::player::explain::number(v, 3);
        let b = |v: u64| crate::player::explain::number(v as f64, 3);
        let rtt = self.rtt_ms.unwrap_or(0.0);
        let g = self.goodput.unwrap_or(0.0);
        let rtts = if rtt > 0.0 {
            self.duration_ms / rtt
        } else {
            0.0
        };
        // The window that held the peak is the one offered then; without the window's scale,
        // the estimate of it.
        let offered_then = self.wnd_at_peak.or(self.rwnd_max_bytes);
        let window_bound =
            offered_then.is_some_and(|w| self.in_flight_max as f64 >= 0.85 * w as f64);
        if let Some(w) = self.writes {
            let (msg, every, most) = (b(u64::from(w.msg)), n(w.every_ms), b(self.in_flight_max));
            let held = if self.retrans > 0 {
                let r = b(self.retrans);
                Said::new(
                    if self.retrans == 1 {
                        "; 1 segment was lost and resent, holding the messages behind it \
                         (head-of-line) for a round trip or more"
                            .to_string()
                    } else {
                        format!(
                            "; {r} segments were lost and resent, each holding the messages \
                             behind it (head-of-line) for a round trip or more"
                        )
                    },
                    format!("；{r} 个报文段丢失后重传，每一个都让排在它后面的消息等待一个往返或更久（队头阻塞）"),
                )
            } else {
                Said::default()
            };
            return (
                Limit::Application,
                Said::new(
                    format!(
                        "Limited by the application: it wrote {msg} bytes every {every} ms, and \
                         TCP sent each as it came, never more than {most} bytes in flight{}.",
                        held.en
                    ),
                    format!(
                        "瓶颈：应用程序。它每 {every} ms 写入 {msg} 字节，TCP 随到随发，在途数据从未\
                         超过 {most} 字节{}。",
                        held.zh
                    ),
                ),
            );
        }
        if self.app_limited_ms > 0.3 * self.duration_ms {
            let (idle, of) = (n(self.app_limited_ms), n(self.duration_ms));
            return (
                Limit::Application,
                Said::new(
                    format!(
                        "Limited by the application: for {idle} ms of {of} nothing was in \
                         flight, so the sender had nothing to send."
                    ),
                    format!(
                        "瓶颈：应用程序。{of} ms 中有 {idle} ms 没有在途数据：发送端无数据可发。"
                    ),
                ),
            );
        }
        if self.zero_window_ms > 0.0 || (window_bound && self.retrans == 0) {
            let w = offered_then.unwrap_or(0);
            let (most, offered) = (b(self.in_flight_max), b(w));
            let limit = n(if rtt > 0.0 { w as f64 / rtt / 1e3 } else { 0.0 });
            // A window that grew after the peak: its largest is said beside the one that held.
            let later = match self.rwnd_max_bytes {
                Some(max) if max > w => {
                    let max = b(max);
                    Said::new(
                        format!(" then (at most {max} bytes in the capture)"),
                        format!("（整个抓包中最多 {max} 字节）"),
                    )
                }
                _ => Said::default(),
            };
            let shut = if self.zero_window_ms > 0.0 {
                let z = n(self.zero_window_ms);
                Said::new(
                    format!(", and the window was shut for {z} ms"),
                    format!("，窗口关闭了 {z} ms"),
                )
            } else {
                Said::default()
            };
            return (
                Limit::ReceiveWindow,
                Said::new(
                    format!(
                        "Limited by the receive window: {most} bytes in flight filled the \
                         {offered} bytes the receiver offered{}; window / RTT = {limit} MB/s{}.",
                        later.en, shut.en
                    ),
                    format!(
                        "瓶颈：接收窗口。{most} 字节的在途数据占满了当时接收端提供的 {offered} 字节{}；\
                         窗口 / RTT = {limit} MB/s{}。",
                        later.zh, shut.zh
                    ),
                ),
            );
        }
        if self.retrans > 0 && self.loss_pct > 0.0 {
            let mss = f64::from(self.mss.unwrap_or(1448));
            let mathis = if rtt > 0.0 {
                mss / (rtt / 1e3) * (1.5 / (self.loss_pct / 100.0)).sqrt() / 1e6
            } else {
                0.0
            };
            let (p, m, g) = (n(self.loss_pct), n(mathis), n(g));
            return (
                Limit::Loss,
                Said::new(
                    format!(
                        "Limited by the congestion window under loss: {p} % of segments were \
                         lost and resent; Mathis's MSS/RTT × √(3/2p) gives {m} MB/s, and the \
                         connection made {g} MB/s."
                    ),
                    format!(
                        "瓶颈：丢包下的拥塞窗口。{p} % 的报文段丢失并重传；Mathis 公式 \
                         MSS/RTT × √(3/2p) 给出 {m} MB/s，连接实际达到 {g} MB/s。"
                    ),
                ),
            );
        }
        let rounds = rtts.ceil().max(1.0);
        let round_trips = if rounds == 1.0 {
            "round trip"
        } else {
            "round trips"
        };
        if self.end != End::Open && (rtts < 30.0 || self.peak.is_none()) {
            let bytes = b(self.acked_bytes);
            return (
                Limit::SlowStart,
                Said::new(
                    format!(
                        "Limited by slow start: the transfer of {bytes} bytes ended within \
                         {rounds} {round_trips}, while the window was still growing."
                    ),
                    format!("瓶颈：慢启动。{bytes} 字节的传输在 {rounds} 个往返内就结束了，当时窗口仍在增长。"),
                ),
            );
        }
        let Some(peak) = self.peak else {
            // Not one round trip of deliveries: the window was still opening when the capture
            // ended, and nothing yet shows the link's rate.
            return (
                Limit::SlowStart,
                Said::new(
                    format!(
                        "Limited by slow start: the capture holds {rounds} {round_trips} of the \
                         transfer, too few to measure a delivery rate over one, and the window \
                         was still growing."
                    ),
                    format!(
                        "瓶颈：慢启动。抓包只含传输的 {rounds} 个往返，不够在一个往返上测出交付速率，\
                         当时窗口仍在增长。"
                    ),
                ),
            );
        };
        let (g, share, peak) = (
            n(g),
            n(if peak > 0.0 {
                self.goodput.unwrap_or(0.0) / peak * 100.0
            } else {
                0.0
            }),
            n(peak),
        );
        (
            Limit::LinkRate,
            Said::new(
                format!(
                    "Limited by the link: {g} MB/s, {share} % of the delivery rate's peak of \
                     {peak} MB/s, with no loss."
                ),
                format!(
                    "瓶颈：链路。{g} MB/s，是交付速率峰值 {peak} MB/s 的 {share} %，没有丢包。"
                ),
            ),
        )
    }

    /// The scenario that fits, and how each of its values was found: (key, value, how).
    fn scenario(
        &self,
        limit: crate::theory::verdict::Limit,
    ) -> (String, Vec<(&'static str, Said, Said)>) {
        use crate::theory::verdict::Limit;
        let mut sc = crate::Scenario::default();
        let mut est = Vec::new();
        let mut how = |key: &'static str, value: Said, how: Said| est.push((key, value, how));
        // The same value in both languages, as a figure with a unit written alike in both.
        let alike = |v: String| Said::new(v.clone(), v);
        // A flow that filled its link delivered less than its bytes in flight over the least
        // round trip would carry (a queue stretched its round trips): its delivery peak is the
        // link's rate. One that did not (held by its window, or by the application) delivered
        // about that much, and the link was faster than it went.
        let filled = match (self.peak, self.rtt_ms) {
            (Some(p), Some(r)) if r > 0.0 && limit != Limit::Application => {
                let carried = self.in_flight_max as f64 / (r / 1e3) / 1e6;
                p < 0.9 * carried
            }
            _ => false,
        };
        let (mss, hdr) = segment_bytes(self.mss, self.ts);
        let wire = (mss + hdr) / mss;
        // The delivery peak is the link's rate where the spacing of a flight's packets (packet
        // pairs) is about as fast, or, with no pairs, where the flow filled its link by the
        // window it had out; pairs clearly faster show a flow that never filled its link (a
        // flight held by its window, or slow start's, whose last window is never delivered
        // within a round trip), and are the link's rate.
        let from_peak = self.peak.map(|p| p * wire * 8.0);
        let from_pairs = self.pairs.map(|p| p * 8.0);
        let rate = match (from_peak, from_pairs, limit == Limit::Application) {
            (_, _, true) => None,
            (Some(peak), pairs, false) if pairs.map_or(filled, |r| r <= PAIRS_FASTER * peak) => {
                Some(LinkRate::Peak(peak))
            }
            (_, Some(pairs), false) => Some(LinkRate::Pairs(pairs)),
            (Some(peak), None, false) => Some(LinkRate::AtLeast(peak * 2.0)),
            (None, None, false) => Some(LinkRate::Unknown),
        };
        if let Some(rate) = rate {
            if let Some(mbit) = rate.mbit() {
                sc.bw_mbps = round(mbit.clamp(0.01, 100_000.0), 2);
            }
            how("bw", alike(format!("{} Mbit/s", sc.bw_mbps)), rate.how());
        }
        // The link's own rate known, the least round trip holds a segment's and an ACK's time
        // on the link, which the lab's `rtt` does not.
        let rate_known = rate.is_some_and(|r| r.known());
        if let Some(r) = self.rtt_ms {
            // The lab's rtt is the propagation delay alone: the least round trip less the
            // serialisation of one segment and its ACK at the link's rate.
            let serial_ms = (mss + 2.0 * hdr) * 8.0 / (sc.bw_mbps * 1e6) * 1e3;
            let prop = if rate_known { r - serial_ms } else { r };
            sc.rtt_ms = round(prop.clamp(0.1, 2000.0), 2);
            how(
                "rtt",
                alike(format!("{} ms", sc.rtt_ms)),
                if rate_known {
                    Said::new(
                        "the least round trip measured, less a segment's and an ACK's time on the link",
                        "测得的最小往返时间，减去一个报文段和一个 ACK 在链路上的传输时间",
                    )
                } else {
                    Said::new("the least round trip measured", "测得的最小往返时间")
                },
            );
        }
        sc.loss_pct = round(self.loss_pct.clamp(0.0, 50.0), 3);
        how(
            "loss",
            alike(format!("{} %", sc.loss_pct)),
            Said::new(
                "needed retransmissions over segments sent, as random loss",
                "必要的重传数除以发送的报文段数，当作随机丢包",
            ),
        );
        if let Some(m) = self.mss {
            sc.mss = m.clamp(64, 65_000);
            how(
                "mss",
                Said::new(format!("{} bytes", sc.mss), format!("{} 字节", sc.mss)),
                Said::new(
                    "the handshake's MSS options, less the timestamp option",
                    "握手中的 MSS 选项，减去时间戳选项",
                ),
            );
        }
        if let Some(w) = self.rwnd_max_bytes {
            // Held by its window, the flow used what reached the sender: its most bytes in
            // flight (an offer made later, or rewritten on the way, never held it).
            let held = limit == Limit::ReceiveWindow && self.in_flight_max > 0;
            let w = if held { self.in_flight_max.min(w) } else { w };
            sc.rwnd = w.clamp(2 * u64::from(sc.mss), 1 << 30);
            sc.autotune = false;
            how(
                "rwnd",
                Said::new(format!("{} bytes", sc.rwnd), format!("{} 字节", sc.rwnd)),
                if held {
                    Said::new(
                        "the most bytes in flight, which the receiver's window held, fixed (autotune=0)",
                        "受接收窗口限制时的最大在途字节数，固定不变（autotune=0）",
                    )
                } else {
                    Said::new(
                        "the largest window the receiver offered, held fixed (autotune=0)",
                        "接收端提供的最大窗口，固定不变（autotune=0）",
                    )
                },
            );
        }
        if let Some(iw) = self.iw {
            sc.iw = (iw as u32).clamp(1, 1000);
            how(
                "iw",
                Said::new(
                    counted(u64::from(sc.iw), "segment", "segments"),
                    format!("{} 个报文段", sc.iw),
                ),
                Said::new(
                    "data segments sent before the first ACK",
                    "第一个 ACK 之前发送的数据报文段",
                ),
            );
        }
        if let (Some(w), Limit::Application) = (self.writes, limit) {
            sc.app = crate::App::Msgs;
            sc.msg = w.msg.clamp(1, 65_000);
            sc.every_ms = round(w.every_ms.clamp(0.1, 10_000.0), 2);
            // Messages sent while others were held went out together: count them by bytes.
            let by_bytes = self.acked_bytes / u64::from(w.msg.max(1));
            sc.count = (by_bytes.max(w.count) as u32).clamp(1, 1_000_000);
            sc.conns = 1;
            sc.dur_s = round((self.duration_ms / 1e3 + 1.0).clamp(0.001, 600.0), 3);
            how(
                "app",
                Said::new(
                    format!(
                        "msgs: {} messages of {} bytes every {} ms",
                        sc.count, sc.msg, sc.every_ms
                    ),
                    format!(
                        "msgs：{} 条 {} 字节的消息，每 {} ms 一条",
                        sc.count, sc.msg, sc.every_ms
                    ),
                ),
                Said::new(
                    "the sender's new data: one segment of the same size at the same interval",
                    "发送端的新数据：以相同的间隔发出大小相同的报文段",
                ),
            );
        } else if self.end != End::Open {
            sc.app = crate::App::Body;
            sc.body = self.acked_bytes.clamp(1, 10_000_000_000);
            how(
                "body",
                Said::new(format!("{} bytes", sc.body), format!("{} 字节", sc.body)),
                if self.end == End::Fin {
                    Said::new(
                        "the bytes acknowledged before the sender's FIN",
                        "发送端 FIN 之前被确认的字节",
                    )
                } else {
                    Said::new(
                        "the bytes acknowledged, after which the sender sent no more",
                        "被确认的字节，此后发送端再没有发送",
                    )
                },
            );
            // Time for the fitted run to finish the body, which a slower what-if needs more of.
            let need = (self.duration_ms / 1e3 * 3.0).ceil().min(600.0);
            if need > sc.dur_s {
                sc.dur_s = need;
                how(
                    "dur",
                    alike(format!("{} s", sc.dur_s)),
                    Said::new(
                        "three times the capture's length: time for the run to finish the body",
                        "抓包时长的三倍：留给运行完成请求体的时间",
                    ),
                );
            }
        } else {
            sc.app = crate::App::Bulk;
            // A capture at the receiver starts half a round trip after the sender's first
            // packet and ends half a round trip before its last: the run, timed from its SYN,
            // needs that round trip more.
            let seen_ms = match self.point {
                CapturePoint::Sender => self.duration_ms,
                CapturePoint::Receiver => self.duration_ms + self.rtt_ms.unwrap_or(0.0),
            };
            sc.dur_s = round((seen_ms / 1e3).clamp(0.001, 600.0), 3);
            how(
                "dur",
                alike(format!("{} s", sc.dur_s)),
                match self.point {
                    CapturePoint::Sender => Said::new(
                        "the capture's length, the sender sending throughout",
                        "抓包的时长，发送端全程都在发送",
                    ),
                    CapturePoint::Receiver => Said::new(
                        "the capture's length and a round trip (the receiver sees the transfer half a round trip late at either end), the sender sending throughout",
                        "抓包的时长加一个往返（接收端看到的传输两头各晚半个往返），发送端全程都在发送",
                    ),
                },
            );
        }
        let cc_how = match self.paced {
            // Messages leave as their application writes them, between ACKs whatever the
            // algorithm: their spacing is the application's clock, not a pacer's.
            Some(true) if self.writes.is_some() => Said::new(
                "Linux's default: its segments left as its application wrote them, between ACKs whatever the algorithm, which says nothing of pacing",
                "Linux 的默认值：它的报文段在应用写入时发出，无论哪种算法都落在两个 ACK 之间，看不出 pacing",
            ),
            // Linux paces a connection itself only for a controller that asks (BBR,
            // `tcp_needs_internal_pacing`); CUBIC's and Reno's segments follow their ACKs.
            Some(true) => {
                sc.cc = crate::CcAlgo::Bbr;
                Said::new(
                    "the sender paced its segments: most left between ACKs rather than on one, as Linux paces BBR alone",
                    "发送端对报文段做了 pacing：多数报文段在两个 ACK 之间发出，而不是随 ACK 发出，Linux 只对 BBR 这样做",
                )
            }
            Some(false) => Said::new(
                "its segments followed their ACKs (no pacing, not BBR): Linux's default, as one connection's capture rarely tells CUBIC from Reno",
                "它的报文段紧随 ACK 发出（没有 pacing，不是 BBR）：取 Linux 的默认值，因为单个连接的抓包很难区分 CUBIC 和 Reno",
            ),
            None => Said::new(
                "Linux's default: a capture away from the sender does not show its pacing",
                "Linux 的默认值：远离发送端的抓包看不出它的 pacing",
            ),
        };
        how("cc", alike(sc.cc.name().into()), cc_how);
        (sc.to_query(), est)
    }
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_numbers_unwrap_across_2_to_the_32() {
        let mut u = Unwrap::new(u32::MAX - 999);
        assert_eq!(u.at(u32::MAX - 999), 0);
        assert_eq!(u.at(u32::MAX), 999);
        assert_eq!(u.at(500), 1500);
        // An older number (a retransmission) reads below without moving the reference.
        assert_eq!(u.at(u32::MAX - 499), 500);
        assert_eq!(u.peek(1000), 2000);
        // Forward by up to 2^31 at a time, over and over: the offset keeps counting.
        let mut wire = 500u32;
        let mut offset = 1500u64;
        for _ in 0..5 {
            wire = wire.wrapping_add(2_000_000_000);
            offset += 2_000_000_000;
            assert_eq!(u.at(wire), offset);
        }
    }

    #[test]
    fn the_smoothed_rtt_is_rfc_6298_s() {
        assert_eq!(smoothed(&[]), None);
        assert_eq!(smoothed(&[40.0]), Some(40.0));
        assert_eq!(smoothed(&[40.0, 48.0]), Some(41.0));
    }
}
