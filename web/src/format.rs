//! Numbers as the page writes them: grouped digits, and short axis labels.

/// `1713` -> `"1,713"`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A short label for a log-scale axis: `1`, `10`, `100`, `1k`, `10k`, `100k`, `1M`, `10M`.
pub fn si(v: f64) -> String {
    let (scaled, suffix) = if v >= 1e9 {
        (v / 1e9, "G")
    } else if v >= 1e6 {
        (v / 1e6, "M")
    } else if v >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    // Log-axis ticks are powers of ten, so one decimal is only ever needed off the grid.
    if (scaled - scaled.round()).abs() < 1e-9 {
        format!("{}{suffix}", scaled.round())
    } else {
        format!("{scaled:.1}{suffix}")
    }
}

/// Bytes in decimal units, as the spec counts them (MB = 10^6 bytes): `2.5 MB`, `64 kB`.
pub fn bytes(b: u64) -> String {
    let v = b as f64;
    let (scaled, unit) = if b >= 1_000_000_000 {
        (v / 1e9, "GB")
    } else if b >= 1_000_000 {
        (v / 1e6, "MB")
    } else if b >= 1_000 {
        (v / 1e3, "kB")
    } else {
        return format!("{b} B");
    };
    let text = format!("{scaled:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} {unit}")
}

/// Milliseconds without noise: `224 ms`, `0.5 ms`, `1.25 s`.
pub fn millis(ms: f64) -> String {
    if ms >= 1000.0 {
        let text = format!("{:.2}", ms / 1000.0);
        format!("{} s", text.trim_end_matches('0').trim_end_matches('.'))
    } else {
        let text = format!("{ms:.1}");
        format!("{} ms", text.trim_end_matches('0').trim_end_matches('.'))
    }
}
