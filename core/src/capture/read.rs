//! Reading a capture file: classic pcap (either byte order, micro- or nanosecond timestamps)
//! and pcapng (any section's byte order, each interface's link type and time resolution),
//! through `pcap-parser`. A file cut short keeps the packets before the cut, and says so.

use pcap_parser::pcap::{parse_pcap_frame, parse_pcap_frame_be, parse_pcap_header};
use pcap_parser::{Block, Linktype, PcapBlockOwned, PcapNGSlice};

use super::said::counted;
use crate::player::Language;

/// One captured frame, borrowed from the file.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    /// Nanoseconds since the Unix epoch (or the file's own origin).
    pub ns: u64,
    pub linktype: Linktype,
    /// The bytes kept.
    pub data: &'a [u8],
    /// The frame's length on the wire.
    pub orig_len: u32,
}

/// What made a file unreadable, or what was wrong with part of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    Empty,
    /// The first four bytes are not a pcap or pcapng magic number.
    NotACapture {
        magic: [u8; 4],
    },
    /// The file ends inside its own header.
    TruncatedHeader,
    /// The file ends (or is garbled) inside packet `at` (1-based); what came before is kept.
    TruncatedPacket {
        at: u64,
    },
}

impl ReadError {
    /// What is wrong, in `lang`.
    pub fn say(&self, lang: Language) -> String {
        match (self, lang) {
            (ReadError::Empty, Language::En) => "the file is empty".into(),
            (ReadError::Empty, Language::Zh) => "文件是空的".into(),
            (ReadError::NotACapture { magic }, lang) => {
                let m = format!(
                    "{:02x} {:02x} {:02x} {:02x}",
                    magic[0], magic[1], magic[2], magic[3]
                );
                match lang {
                    Language::En => format!(
                        "not a capture file: it begins with {m}, where a pcap file begins with \
                         d4 c3 b2 a1 (or a1 b2 c3 d4, or 4d 3c b2 a1 for nanoseconds) and a pcapng \
                         file with 0a 0d 0d 0a"
                    ),
                    Language::Zh => format!(
                        "不是抓包文件：它以 {m} 开头，而 pcap 文件以 d4 c3 b2 a1（或 a1 b2 c3 d4，\
                         纳秒精度为 4d 3c b2 a1）开头，pcapng 文件以 0a 0d 0d 0a 开头"
                    ),
                }
            }
            (ReadError::TruncatedHeader, Language::En) => {
                "the file ends inside its header: it was cut short".into()
            }
            (ReadError::TruncatedHeader, Language::Zh) => {
                "文件在文件头内就结束了：它被截短了".into()
            }
            (ReadError::TruncatedPacket { at: 1 }, Language::En) => {
                "the file ends inside its first packet: it was cut short".into()
            }
            (ReadError::TruncatedPacket { at: 1 }, Language::Zh) => {
                "文件在第一个数据包内就结束了：它被截短了".into()
            }
            (ReadError::TruncatedPacket { at: 2 }, Language::En) => {
                "the file ends inside packet 2: it was cut short, and the packet before it is read"
                    .into()
            }
            (ReadError::TruncatedPacket { at }, Language::En) => format!(
                "the file ends inside packet {at}: it was cut short, and the {} packets before \
                 it are read",
                at - 1
            ),
            (ReadError::TruncatedPacket { at }, Language::Zh) => format!(
                "文件在第 {at} 个数据包内结束：它被截短了，之前的 {} 个数据包已读取",
                at - 1
            ),
        }
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.say(Language::En))
    }
}

/// The frames of a file, with the damage found past them, if any.
#[derive(Debug, Clone)]
pub struct Frames<'a> {
    pub frames: Vec<Frame<'a>>,
    /// A cut or garbled tail: the frames before it were read.
    pub damage: Option<ReadError>,
    pub format: super::Format,
    /// Packets read but left out, as nothing places them in time or says how to read them.
    pub unplaced: Unplaced,
}

/// A pcapng file's packets that cannot be read as frames (pcapng, section 4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Unplaced {
    /// Enhanced packets naming an interface no Interface Description Block before them
    /// describes: neither their link type nor their clock is known.
    pub no_interface: u64,
    /// Simple packets, which carry no timestamp.
    pub no_time: u64,
}

impl Unplaced {
    pub fn any(&self) -> bool {
        self.no_interface + self.no_time > 0
    }

    /// Which packets were left out and why, in `lang`; empty if none were.
    pub fn say(&self, lang: Language) -> Vec<String> {
        let mut said = Vec::new();
        if self.no_interface > 0 {
            let n = self.no_interface;
            said.push(match lang {
                Language::En => format!(
                    "{} an interface the file never describes (no Interface Description Block \
                     comes before {}), so neither {} link type nor {} clock is known",
                    counted(n, "packet names", "packets name"),
                    if n == 1 { "it" } else { "them" },
                    if n == 1 { "its" } else { "their" },
                    if n == 1 { "its" } else { "their" },
                ),
                Language::Zh => format!(
                    "{n} 个数据包指向文件从未描述的接口（之前没有接口描述块），链路类型和时钟都无从得知"
                ),
            });
        }
        if self.no_time > 0 {
            let n = self.no_time;
            said.push(match lang {
                Language::En => format!(
                    "{} simple packet {}, which {} no timestamp",
                    counted(n, "packet is a", "packets are"),
                    if n == 1 { "block" } else { "blocks" },
                    if n == 1 { "carries" } else { "carry" },
                ),
                Language::Zh => format!("{n} 个数据包是简单数据包块，不带时间戳"),
            });
        }
        said
    }
}

const PCAPNG_MAGIC: [u8; 4] = [0x0a, 0x0d, 0x0d, 0x0a];

/// Reads every frame of a pcap or pcapng file. `progress` is told the bytes read so far, now
/// and then, so that a page can show how far a large file has come.
pub fn read_frames<'a>(
    bytes: &'a [u8],
    progress: &mut dyn FnMut(usize),
) -> Result<Frames<'a>, ReadError> {
    if bytes.is_empty() {
        return Err(ReadError::Empty);
    }
    let Some(magic) = bytes.get(..4) else {
        return Err(ReadError::TruncatedHeader);
    };
    let magic = [magic[0], magic[1], magic[2], magic[3]];
    if magic == PCAPNG_MAGIC {
        read_pcapng(bytes, progress)
    } else if matches!(
        u32::from_le_bytes(magic),
        0xa1b2_c3d4 | 0xd4c3_b2a1 | 0xa1b2_3c4d | 0x4d3c_b2a1 | 0xa1b2_cd34 | 0x34cd_b2a1
    ) {
        read_pcap(bytes, progress)
    } else {
        Err(ReadError::NotACapture { magic })
    }
}

/// How often `progress` hears: every this many frames.
const PROGRESS_EVERY: usize = 16_384;

fn read_pcap<'a>(
    bytes: &'a [u8],
    progress: &mut dyn FnMut(usize),
) -> Result<Frames<'a>, ReadError> {
    let Ok((mut rem, header)) = parse_pcap_header(bytes) else {
        return Err(ReadError::TruncatedHeader);
    };
    let nanos = header.is_nanosecond_precision();
    let big = header.is_bigendian();
    let linktype = header.network;
    let mut frames = Vec::new();
    let mut damage = None;
    while !rem.is_empty() {
        let parsed = if big {
            parse_pcap_frame_be(rem)
        } else {
            parse_pcap_frame(rem)
        };
        match parsed {
            Ok((next, b)) => {
                let frac = u64::from(b.ts_usec);
                let ns =
                    u64::from(b.ts_sec) * 1_000_000_000 + if nanos { frac } else { frac * 1000 };
                // caplen above the data present is a cut file, which the parser reports.
                frames.push(Frame {
                    ns,
                    linktype,
                    data: b.data,
                    orig_len: b.origlen,
                });
                rem = next;
                if frames.len() % PROGRESS_EVERY == 0 {
                    progress(bytes.len() - rem.len());
                }
            }
            Err(_) => {
                damage = Some(ReadError::TruncatedPacket {
                    at: frames.len() as u64 + 1,
                });
                break;
            }
        }
    }
    Ok(Frames {
        frames,
        damage,
        format: super::Format::Pcap,
        unplaced: Unplaced::default(),
    })
}

/// An interface of a pcapng section: its link type and clock.
#[derive(Debug, Clone, Copy)]
struct Interface {
    linktype: Linktype,
    /// Units per second of its timestamps.
    resolution: u64,
    offset_s: i64,
}

fn read_pcapng<'a>(
    bytes: &'a [u8],
    progress: &mut dyn FnMut(usize),
) -> Result<Frames<'a>, ReadError> {
    let Ok(slice) = PcapNGSlice::from_slice(bytes) else {
        return Err(ReadError::TruncatedHeader);
    };
    let mut interfaces: Vec<Interface> = Vec::new();
    let mut frames = Vec::new();
    let mut damage = None;
    let mut packets = 0u64;
    let mut unplaced = Unplaced::default();
    // Bytes read, counted by the packets' blocks (the rest are small).
    let mut read = 0usize;
    for (i, block) in slice.enumerate() {
        let Ok(block) = block else {
            damage = Some(ReadError::TruncatedPacket { at: packets + 1 });
            break;
        };
        if i % PROGRESS_EVERY == PROGRESS_EVERY - 1 {
            progress(read);
        }
        let PcapBlockOwned::NG(block) = block else {
            continue;
        };
        match block {
            // A new section starts its interfaces afresh.
            Block::SectionHeader(_) => interfaces.clear(),
            Block::InterfaceDescription(idb) => interfaces.push(Interface {
                linktype: idb.linktype,
                resolution: idb.ts_resolution().unwrap_or(1_000_000).max(1),
                offset_s: idb.ts_offset(),
            }),
            Block::EnhancedPacket(epb) => {
                packets += 1;
                read += epb.block_len1 as usize;
                let Some(ifc) = interfaces.get(epb.if_id as usize) else {
                    unplaced.no_interface += 1;
                    continue;
                };
                let ts = (u128::from(epb.ts_high) << 32) | u128::from(epb.ts_low);
                let ns = ts * 1_000_000_000 / u128::from(ifc.resolution);
                let ns = (ns as i128 + i128::from(ifc.offset_s) * 1_000_000_000).max(0) as u64;
                let caplen = (epb.caplen as usize).min(epb.data.len());
                frames.push(Frame {
                    ns,
                    linktype: ifc.linktype,
                    data: &epb.data[..caplen],
                    orig_len: epb.origlen,
                });
            }
            Block::SimplePacket(_) => {
                packets += 1;
                unplaced.no_time += 1;
            }
            _ => {}
        }
    }
    Ok(Frames {
        frames,
        damage,
        format: super::Format::Pcapng,
        unplaced,
    })
}
