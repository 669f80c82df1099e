//! Capture files: the classic pcap format (nanosecond timestamps) and pcapng, as libpcap
//! writes them, through `pcap-parser`'s serialisers.

use pcap_parser::{
    EnhancedPacketBlock, InterfaceDescriptionBlock, LegacyPcapBlock, Linktype, PcapHeader,
    SectionHeaderBlock, ToVec,
};

/// The instant the lab's time 0 is written as: 2026-01-01 00:00:00 UTC, so that a capture of
/// the same run is the same file every time.
pub const EPOCH_S: u64 = 1_767_225_600;

/// The classic format's magic for nanosecond timestamps.
const PCAP_NS_MAGIC: u32 = 0xa1b2_3c4d;

/// Which file format to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Pcap,
    Pcapng,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Format::Pcap => "pcap",
            Format::Pcapng => "pcapng",
        }
    }

    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "pcap" => Some(Format::Pcap),
            "pcapng" => Some(Format::Pcapng),
            _ => None,
        }
    }
}

/// A capture file being written, in memory.
#[derive(Debug, Clone)]
pub struct FileWriter {
    format: Format,
    snap: u32,
    bytes: Vec<u8>,
}

impl FileWriter {
    /// A file of Ethernet frames of at most `snap` bytes each.
    pub fn new(format: Format, snap: u32) -> FileWriter {
        let mut bytes = Vec::new();
        match format {
            Format::Pcap => {
                let header = PcapHeader {
                    magic_number: PCAP_NS_MAGIC,
                    version_major: 2,
                    version_minor: 4,
                    thiszone: 0,
                    sigfigs: 0,
                    snaplen: snap,
                    network: Linktype::ETHERNET,
                };
                bytes.extend(header.to_vec_raw().unwrap_or_default());
            }
            Format::Pcapng => {
                let mut shb = SectionHeaderBlock {
                    block_type: 0,
                    block_len1: 0,
                    bom: 0,
                    major_version: 1,
                    minor_version: 0,
                    section_len: -1,
                    options: Vec::new(),
                    block_len2: 0,
                };
                bytes.extend(shb.to_vec().unwrap_or_default());
                // Nanosecond timestamps: if_tsresol 9 (10^-9 s).
                let mut idb = InterfaceDescriptionBlock {
                    block_type: 0,
                    block_len1: 0,
                    linktype: Linktype::ETHERNET,
                    reserved: 0,
                    snaplen: snap,
                    options: Vec::new(),
                    block_len2: 0,
                    if_tsresol: 9,
                    if_tsoffset: 0,
                };
                bytes.extend(idb.to_vec().unwrap_or_default());
            }
        }
        FileWriter {
            format,
            snap,
            bytes,
        }
    }

    /// One frame seen `ns` nanoseconds after the lab's time 0, `whole` bytes long on the wire,
    /// of which `data` is kept.
    pub fn packet(&mut self, ns: u64, whole: u32, data: &[u8]) {
        let data = &data[..data.len().min(self.snap as usize)];
        let caplen = data.len() as u32;
        let ts = EPOCH_S * 1_000_000_000 + ns;
        let record = match self.format {
            Format::Pcap => LegacyPcapBlock {
                ts_sec: (ts / 1_000_000_000) as u32,
                ts_usec: (ts % 1_000_000_000) as u32,
                caplen,
                origlen: whole,
                data,
            }
            .to_vec_raw(),
            Format::Pcapng => EnhancedPacketBlock {
                block_type: 0,
                block_len1: 0,
                if_id: 0,
                ts_high: (ts >> 32) as u32,
                ts_low: ts as u32,
                caplen,
                origlen: whole,
                data,
                options: Vec::new(),
                block_len2: 0,
            }
            .to_vec(),
        };
        self.bytes.extend(record.unwrap_or_default());
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}
