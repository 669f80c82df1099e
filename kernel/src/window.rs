//! The receive window as the scenario sets it, enforced on the wire.
//!
//! The receiver's buffer is sized so that Linux advertises `rwnd` (apps::fit_window), but Linux
//! 6.x re-derives its window clamp from the buffer whenever it re-measures a connection's
//! payload-to-memory ratio (`tcp_measure_rcv_mss`), and the ratio drifts by a step or two as
//! packets' memory cost varies, so for a moment the window can exceed `rwnd` by a few percent.
//! The router caps the window field of every segment from the receiver at `rwnd` (in the
//! connection's window scale, RFC 7323 §2.3), as a middlebox clamping windows would, and fixes
//! the checksum incrementally (RFC 1624). Anything at or under `rwnd` passes untouched, so the
//! receiver's own shrinking of its window (out-of-order data held) still shows.

use std::collections::HashMap;

use crate::ip::{Header, PROTO_TCP};

/// Caps the receiver's advertised windows at `rwnd` bytes.
#[derive(Debug, Clone)]
pub struct WindowCap {
    rwnd: u64,
    /// The receiver's window scale per connection, by the sender's port, from its SYN-ACK.
    scales: HashMap<u16, u8>,
    /// Segments whose window was lowered.
    pub capped: u64,
    /// The largest window, in bytes, that a segment handed on to the sender carried. Every
    /// segment passes here, so this is what the sender was told, not a sample of it: the
    /// receiver often advertises one segment less than its buffer (the ACK leaves before the
    /// application reads the data it acknowledges), and a periodic `tcpi_snd_wnd` reading can
    /// miss every moment the window was whole.
    pub largest: Option<u64>,
}

const TCP_OPT_END: u8 = 0;
const TCP_OPT_NOP: u8 = 1;
const TCP_OPT_WSCALE: u8 = 3;

impl WindowCap {
    pub fn new(rwnd: u64) -> WindowCap {
        WindowCap {
            rwnd,
            scales: HashMap::new(),
            capped: 0,
            largest: None,
        }
    }

    /// Applies the cap to one packet from the receiver (rewriting it in place).
    pub fn apply(&mut self, p: &mut [u8], h: &Header) {
        if h.protocol != PROTO_TCP {
            return;
        }
        let t = h.ihl;
        let Some(tcp) = p.get(t..t + 20) else {
            return;
        };
        let port = u16::from_be_bytes([tcp[2], tcp[3]]);
        let field = u16::from_be_bytes([tcp[14], tcp[15]]);
        // A SYN-ACK's own window is never scaled (RFC 7323 §2.2); it names the scale to come.
        let scale = if h.syn {
            let s = window_scale(&p[t..]).unwrap_or(0);
            self.scales.insert(port, s);
            0
        } else {
            self.scales.get(&port).copied().unwrap_or(0)
        };
        let max = (self.rwnd >> scale).min(u64::from(u16::MAX)) as u16;
        if field > max {
            set_u16(p, t + 14, t + 16, max);
            self.capped += 1;
        }
        let bytes = u64::from(field.min(max)) << scale;
        self.largest = Some(self.largest.map_or(bytes, |l| l.max(bytes)));
    }
}

/// The window-scale option of a TCP header starting at `tcp[0]`.
fn window_scale(tcp: &[u8]) -> Option<u8> {
    let off = usize::from(*tcp.get(12)? >> 4) * 4;
    let mut opts = tcp.get(20..off)?;
    while let Some(&kind) = opts.first() {
        match kind {
            TCP_OPT_END => return None,
            TCP_OPT_NOP => opts = &opts[1..],
            _ => {
                let len = usize::from(*opts.get(1)?);
                if len < 2 || len > opts.len() {
                    return None;
                }
                if kind == TCP_OPT_WSCALE && len == 3 {
                    return Some(opts[2].min(14));
                }
                opts = &opts[len..];
            }
        }
    }
    None
}

/// Writes `value` at `p[at..at + 2]` and updates the TCP checksum at `p[sum..sum + 2]` for the
/// change (RFC 1624, eqn. 3: HC' = ~(~HC + ~m + m')).
fn set_u16(p: &mut [u8], at: usize, sum: usize, value: u16) {
    let old = u16::from_be_bytes([p[at], p[at + 1]]);
    let hc = u16::from_be_bytes([p[sum], p[sum + 1]]);
    let mut acc = u32::from(!hc) + u32::from(!old) + u32::from(value);
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    let new_sum = !(acc as u16);
    p[at..at + 2].copy_from_slice(&value.to_be_bytes());
    p[sum..sum + 2].copy_from_slice(&new_sum.to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ip::tests::tcp_packet;

    /// The TCP checksum over the pseudo-header and segment, from scratch.
    fn checksum(p: &[u8]) -> u16 {
        let h = Header::parse(p).expect("parses");
        let tcp = &p[h.ihl..h.total_len as usize];
        let mut sum: u32 = 0;
        let mut add = |b: &[u8]| {
            for c in b.chunks(2) {
                let w = u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]);
                sum += u32::from(w);
            }
        };
        add(&p[12..20]);
        add(&[0, PROTO_TCP]);
        add(&(tcp.len() as u16).to_be_bytes());
        let mut t = tcp.to_vec();
        t[16] = 0;
        t[17] = 0;
        add(&t);
        while sum > 0xffff {
            sum = (sum & 0xffff) + (sum >> 16);
        }
        !(sum as u16)
    }

    fn with_checksum(mut p: Vec<u8>) -> Vec<u8> {
        let c = checksum(&p);
        p[36..38].copy_from_slice(&c.to_be_bytes());
        p
    }

    fn syn_ack(port: u16, scale: u8) -> Vec<u8> {
        // MSS (4), NOP, window scale (3): 8 bytes of options.
        let mut p = tcp_packet(0, 8, 0, 0x12);
        p[22..24].copy_from_slice(&port.to_be_bytes());
        p[34..36].copy_from_slice(&65535u16.to_be_bytes());
        p[40..48].copy_from_slice(&[2, 4, 0x05, 0xa8, 1, 3, 3, scale]);
        with_checksum(p)
    }

    fn ack(port: u16, window: u16) -> Vec<u8> {
        let mut p = tcp_packet(0, 12, 0, 0x10);
        p[22..24].copy_from_slice(&port.to_be_bytes());
        p[34..36].copy_from_slice(&window.to_be_bytes());
        with_checksum(p)
    }

    fn window_of(p: &[u8]) -> u16 {
        u16::from_be_bytes([p[34], p[35]])
    }

    #[test]
    fn windows_above_rwnd_are_lowered_in_the_connections_scale() {
        let mut cap = WindowCap::new(1 << 20);
        let mut s = syn_ack(40000, 5);
        let h = Header::parse(&s).expect("parses");
        cap.apply(&mut s, &h);
        assert_eq!(
            window_of(&s),
            65535,
            "a SYN-ACK's window is unscaled and under rwnd"
        );
        // 33000 << 5 = 1 056 000 bytes: over 1 MiB, lowered to 32768 << 5.
        let mut a = ack(40000, 33_000);
        let h = Header::parse(&a).expect("parses");
        cap.apply(&mut a, &h);
        assert_eq!(window_of(&a), 32_768);
        assert_eq!(
            u16::from_be_bytes([a[36], a[37]]),
            checksum(&a),
            "checksum fixed"
        );
        // Under the cap: untouched.
        let mut b = ack(40000, 1000);
        let before = b.clone();
        let h = Header::parse(&b).expect("parses");
        cap.apply(&mut b, &h);
        assert_eq!(b, before);
        assert_eq!(cap.capped, 1);
        assert_eq!(
            cap.largest,
            Some(32_768 << 5),
            "the largest window handed on is the capped one, in bytes"
        );
    }

    #[test]
    fn the_largest_window_handed_on_is_kept_in_bytes() {
        let mut cap = WindowCap::new(8 << 20);
        assert_eq!(cap.largest, None);
        let mut s = syn_ack(40000, 7);
        let h = Header::parse(&s).expect("parses");
        cap.apply(&mut s, &h);
        assert_eq!(cap.largest, Some(65_535), "a SYN-ACK's window is unscaled");
        for w in [2_000u16, 8_000, 5_000] {
            let mut a = ack(40000, w);
            let h = Header::parse(&a).expect("parses");
            cap.apply(&mut a, &h);
        }
        assert_eq!(cap.largest, Some(8_000 << 7));
        assert_eq!(cap.capped, 0);
    }

    #[test]
    fn options_are_walked_to_the_window_scale() {
        let p = syn_ack(1, 7);
        assert_eq!(window_scale(&p[20..]), Some(7));
        let no_opts = tcp_packet(0, 0, 0, 0x12);
        assert_eq!(window_scale(&no_opts[20..]), None);
        let mut broken = syn_ack(1, 7);
        broken[41] = 0; // an option length of 0
        assert_eq!(window_scale(&broken[20..]), None);
    }
}
