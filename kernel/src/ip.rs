//! Just enough of IPv4, TCP and UDP (RFC 791, RFC 9293, RFC 768) for the router to tell what it
//! forwards: who it is for, how long it is on the wire, and whether it carries data.

use std::net::Ipv4Addr;

pub const PROTO_TCP: u8 = 6;
pub const PROTO_UDP: u8 = 17;

/// The twin's two hosts, in the benchmarking range of RFC 2544 (198.18.0.0/15), which no real
/// network routes.
pub const SENDER_ADDR: Ipv4Addr = Ipv4Addr::new(198, 18, 0, 1);
pub const RECEIVER_ADDR: Ipv4Addr = Ipv4Addr::new(198, 18, 0, 2);

/// What the router needs of one IPv4 packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub src: Ipv4Addr,
    pub dst: Ipv4Addr,
    pub protocol: u8,
    /// The IP header's length: where the transport header starts.
    pub ihl: usize,
    /// The IP total length: what the bottleneck serialises (as the simulator counts it).
    pub total_len: u32,
    /// Transport payload bytes (TCP data after the header and options, or the UDP payload).
    pub payload: u32,
    /// Transport ports (TCP or UDP).
    pub src_port: u16,
    pub dst_port: u16,
    /// TCP sequence number of the first payload byte, and the SYN and FIN flags.
    pub seq: u32,
    pub syn: bool,
    pub fin: bool,
}

impl Header {
    /// `None` for anything that is not a well-formed IPv4 packet with a TCP or UDP header.
    pub fn parse(p: &[u8]) -> Option<Header> {
        let first = *p.first()?;
        if first >> 4 != 4 {
            return None;
        }
        let ihl = usize::from(first & 0x0f) * 4;
        let total_len = usize::from(u16::from_be_bytes([*p.get(2)?, *p.get(3)?]));
        if ihl < 20 || total_len < ihl || total_len > p.len() {
            return None;
        }
        let protocol = p[9];
        let src = Ipv4Addr::new(p[12], p[13], p[14], p[15]);
        let dst = Ipv4Addr::new(p[16], p[17], p[18], p[19]);
        let t = &p[ihl..total_len];
        let src_port = u16::from_be_bytes([*t.first()?, *t.get(1)?]);
        let dst_port = u16::from_be_bytes([*t.get(2)?, *t.get(3)?]);
        let (payload, seq, syn, fin) = match protocol {
            PROTO_TCP => {
                let off = usize::from(*t.get(12)? >> 4) * 4;
                if off < 20 || off > t.len() {
                    return None;
                }
                let seq = u32::from_be_bytes([t[4], t[5], t[6], t[7]]);
                let flags = t[13];
                (t.len() - off, seq, flags & 0x02 != 0, flags & 0x01 != 0)
            }
            PROTO_UDP => (t.len().checked_sub(8)?, 0, false, false),
            _ => return None,
        };
        Some(Header {
            src,
            dst,
            protocol,
            ihl,
            total_len: total_len as u32,
            src_port,
            dst_port,
            payload: payload as u32,
            seq,
            syn,
            fin,
        })
    }

    /// A data packet, as `drop=` counts them: a TCP segment with payload, or a UDP datagram.
    pub fn is_data(&self) -> bool {
        self.payload > 0 || self.protocol == PROTO_UDP
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An IPv4 packet with a TCP header of `options` option bytes and `payload` data bytes.
    pub fn tcp_packet(seq: u32, options: usize, payload: usize, flags: u8) -> Vec<u8> {
        let tcp_len = 20 + options;
        let total = 20 + tcp_len + payload;
        let mut p = vec![0u8; total];
        p[0] = 0x45;
        p[2..4].copy_from_slice(&(total as u16).to_be_bytes());
        p[8] = 64;
        p[9] = PROTO_TCP;
        p[12..16].copy_from_slice(&SENDER_ADDR.octets());
        p[16..20].copy_from_slice(&RECEIVER_ADDR.octets());
        p[24..28].copy_from_slice(&seq.to_be_bytes());
        p[32] = ((tcp_len / 4) as u8) << 4;
        p[33] = flags;
        p
    }

    #[test]
    fn a_data_segment_with_timestamps() {
        let p = tcp_packet(1000, 12, 1448, 0x10);
        let h = Header::parse(&p).expect("parses");
        assert_eq!(h.total_len, 1500);
        assert_eq!(h.payload, 1448);
        assert_eq!(h.seq, 1000);
        assert!(h.is_data() && !h.syn && !h.fin);
        assert_eq!((h.src, h.dst), (SENDER_ADDR, RECEIVER_ADDR));
    }

    #[test]
    fn a_syn_and_a_pure_ack_carry_no_data() {
        let syn = Header::parse(&tcp_packet(7, 20, 0, 0x02)).expect("parses");
        assert!(syn.syn && !syn.is_data());
        assert_eq!(syn.total_len, 60);
        let ack = Header::parse(&tcp_packet(7, 12, 0, 0x10)).expect("parses");
        assert!(!ack.is_data());
    }

    #[test]
    fn garbage_is_refused() {
        assert_eq!(Header::parse(&[]), None);
        assert_eq!(Header::parse(&[0x60; 40]), None, "IPv6");
        let mut short = tcp_packet(0, 0, 10, 0);
        short.truncate(30);
        assert_eq!(Header::parse(&short), None, "cut short");
        let mut bad_offset = tcp_packet(0, 0, 0, 0);
        bad_offset[32] = 0xf0;
        assert_eq!(
            Header::parse(&bad_offset),
            None,
            "TCP header past the packet"
        );
    }
}
