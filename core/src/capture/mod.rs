//! Captures: a run as the packet capture tcpdump would have taken on one of its hosts, and
//! (`analyze`) a capture read back and explained.
//!
//! A capture is taken where tcpdump runs: on the sending host it holds every packet the sender
//! put on the path, dropped or not, and every ACK that came back; on the receiving host, what
//! arrived and the ACKs it sent, lost or not. A packet is captured as it leaves its host or as
//! it reaches it, as a NIC's timestamp would have it.

pub mod analyze;
pub mod dissect;
pub mod file;
pub mod frame;
pub mod read;
pub mod said;

use crate::packet::Packet;
use crate::scenario::Scenario;
use crate::time::{Duration, Instant};

pub use file::{FileWriter, Format};
pub use frame::Framer;

/// Where a capture is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CapturePoint {
    /// On the sending host: what `tcpdump` beside the sender sees.
    #[default]
    Sender,
    /// On the receiving host.
    Receiver,
}

impl CapturePoint {
    pub fn name(self) -> &'static str {
        match self {
            CapturePoint::Sender => "sender",
            CapturePoint::Receiver => "receiver",
        }
    }

    pub fn parse(s: &str) -> Option<CapturePoint> {
        match s {
            "sender" => Some(CapturePoint::Sender),
            "receiver" => Some(CapturePoint::Receiver),
            _ => None,
        }
    }
}

/// What to capture of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureOptions {
    pub at: CapturePoint,
    pub format: Format,
    /// Bytes kept of each frame: tcpdump's `-s`. The default keeps every header.
    pub snaplen: u32,
    /// The most packets kept: tcpdump's `-c`. Past it the run goes on uncaptured, and the
    /// capture says where it stopped.
    pub max_packets: u64,
}

impl CaptureOptions {
    /// Ethernet, IPv4 and the longest TCP header: 14 + 20 + 60 bytes, rounded up.
    pub const DEFAULT_SNAPLEN: u32 = 128;
    /// The shortest snap length that holds an Ethernet and an IPv4 header.
    pub const MIN_SNAPLEN: u32 = 34;
    /// libpcap's largest.
    pub const MAX_SNAPLEN: u32 = 262_144;
    /// A million packets: about 150 MB of file at the default snap length.
    pub const DEFAULT_MAX_PACKETS: u64 = 1_000_000;
}

impl Default for CaptureOptions {
    fn default() -> Self {
        CaptureOptions {
            at: CapturePoint::Sender,
            format: Format::Pcap,
            snaplen: Self::DEFAULT_SNAPLEN,
            max_packets: Self::DEFAULT_MAX_PACKETS,
        }
    }
}

/// A run's capture.
#[derive(Debug, Clone)]
pub struct Capture {
    pub at: CapturePoint,
    pub format: Format,
    /// The file.
    pub bytes: Vec<u8>,
    pub packets: u64,
    /// When the packet limit was reached, if it was: the capture ends there.
    pub full_at: Option<Instant>,
    /// A packet too long for one IPv4 datagram (a UDP message of more than 65 507 bytes):
    /// its length; it is left out, as no real stack would send it whole.
    pub too_long: Option<usize>,
}

/// The capture being taken while a run goes.
#[derive(Debug, Clone)]
pub(crate) struct Tap {
    opts: CaptureOptions,
    framer: Framer,
    file: FileWriter,
    frame: Vec<u8>,
    packets: u64,
    full_at: Option<Instant>,
    too_long: Option<usize>,
}

impl Tap {
    pub fn new(s: &Scenario, opts: CaptureOptions, ts_phases: &[Duration]) -> Tap {
        let snaplen = opts
            .snaplen
            .clamp(CaptureOptions::MIN_SNAPLEN, CaptureOptions::MAX_SNAPLEN);
        Tap {
            opts: CaptureOptions { snaplen, ..opts },
            framer: Framer::new(s, ts_phases),
            file: FileWriter::new(opts.format, snaplen),
            frame: Vec::with_capacity(snaplen as usize),
            packets: 0,
            full_at: None,
            too_long: None,
        }
    }

    pub fn point(&self) -> CapturePoint {
        self.opts.at
    }

    /// `p` passes the capture point at `now`.
    pub fn see(&mut self, now: Instant, p: &Packet) {
        if self.full_at.is_some() {
            return;
        }
        if self.packets >= self.opts.max_packets {
            self.full_at = Some(now);
            return;
        }
        self.frame.clear();
        match self
            .framer
            .write(now, p, self.opts.snaplen as usize, &mut self.frame)
        {
            Ok(whole) => {
                self.file.packet(now.as_nanos(), whole as u32, &self.frame);
                self.packets += 1;
            }
            Err(e) => {
                self.too_long.get_or_insert(e.bytes);
            }
        }
    }

    pub fn finish(self) -> Capture {
        Capture {
            at: self.opts.at,
            format: self.opts.format,
            bytes: self.file.into_bytes(),
            packets: self.packets,
            full_at: self.full_at,
            too_long: self.too_long,
        }
    }
}
