//! Turning the view's points into what is worth drawing: steps, about one point per pixel
//! column, pieces clipped to the frame, and the value under the cursor.

/// Drops points that cannot be drawn (NaN, infinities).
pub fn finite(points: impl IntoIterator<Item = (f64, f64)>) -> Vec<(f64, f64)> {
    points
        .into_iter()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect()
}

/// The polyline of a step function: each value holds until the next point, the last until
/// `end`. Window samples are taken when something changes, so a straight line between two of
/// them would draw a ramp that never happened.
pub fn steps(points: &[(f64, f64)], end: f64) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len() * 2 + 1);
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            out.push((x, points[i - 1].1));
        }
        out.push((x, y));
    }
    if let Some(&(x, y)) = points.last() {
        if end > x {
            out.push((end, y));
        }
    }
    out
}

/// At most four points per pixel column (its first, lowest, highest and last, in time order):
/// the drawn line keeps every peak and dip of the full series, at a cost bounded by the width.
pub fn decimate(points: &[(f64, f64)], x0: f64, x1: f64, columns: usize) -> Vec<(f64, f64)> {
    let columns = columns.max(1);
    let span = x1 - x0;
    if points.len() <= columns * 4 || span <= 0.0 || !span.is_finite() {
        return points.to_vec();
    }
    let column = |x: f64| (((x - x0) / span) * columns as f64).floor() as i64;
    let mut out = Vec::with_capacity(columns * 4);
    let mut start = 0;
    while start < points.len() {
        let c = column(points[start].0);
        let mut end = start + 1;
        while end < points.len() && column(points[end].0) == c {
            end += 1;
        }
        let run = &points[start..end];
        let (mut lo, mut hi) = (0, 0);
        for (i, p) in run.iter().enumerate() {
            if p.1 < run[lo].1 {
                lo = i;
            }
            if p.1 > run[hi].1 {
                hi = i;
            }
        }
        let mut keep = [0, lo.min(hi), lo.max(hi), run.len() - 1];
        keep.sort_unstable();
        let mut last = usize::MAX;
        for k in keep {
            if k != last {
                out.push(run[k]);
                last = k;
            }
        }
        start = end;
    }
    out
}

/// One point per pixel cell, for scatter series (sends, ACKs): a thousand sends that land on the
/// same pixel are one dot.
pub fn one_per_cell(
    points: &[(f64, f64)],
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    (w, h): (usize, usize),
) -> Vec<(f64, f64)> {
    let (sx, sy) = (x1 - x0, y1 - y0);
    if sx <= 0.0 || sy <= 0.0 || !sx.is_finite() || !sy.is_finite() {
        return Vec::new();
    }
    let mut seen = std::collections::HashSet::with_capacity(points.len().min(w * 4));
    points
        .iter()
        .copied()
        // Only what is in view on the time axis: a zoomed chart leaves the rest out.
        .filter(|&(x, _)| x >= x0 && x <= x1)
        .filter(|&(x, y)| {
            let cx = ((x - x0) / sx * w as f64).floor() as i64;
            let cy = ((y - y0) / sy * h as f64).floor() as i64;
            seen.insert((cx, cy))
        })
        .collect()
}

/// Splits a polyline into the pieces inside `lo..=hi` vertically, cutting each segment where it
/// leaves. plotters would instead pin every point outside to the frame's edge, which draws a
/// curve that goes off the top as one that runs flat along it.
pub fn clip_y(points: &[(f64, f64)], lo: f64, hi: f64) -> Vec<Vec<(f64, f64)>> {
    let inside = |y: f64| y >= lo && y <= hi;
    let cut = |a: (f64, f64), b: (f64, f64), y: f64| {
        let f = (y - a.1) / (b.1 - a.1);
        (a.0 + (b.0 - a.0) * f, y)
    };
    let mut pieces = Vec::new();
    let mut piece: Vec<(f64, f64)> = Vec::new();
    for (i, &p) in points.iter().enumerate() {
        if i > 0 {
            let a = points[i - 1];
            match (inside(a.1), inside(p.1)) {
                (true, true) => {}
                (true, false) => {
                    piece.push(cut(a, p, if p.1 > hi { hi } else { lo }));
                    pieces.push(std::mem::take(&mut piece));
                    continue;
                }
                (false, true) => piece.push(cut(a, p, if a.1 > hi { hi } else { lo })),
                (false, false) => {
                    // Crossing the whole frame between two samples.
                    if (a.1 > hi && p.1 < lo) || (a.1 < lo && p.1 > hi) {
                        let (first, second) = if a.1 > hi { (hi, lo) } else { (lo, hi) };
                        pieces.push(vec![cut(a, p, first), cut(a, p, second)]);
                    }
                    continue;
                }
            }
        } else if !inside(p.1) {
            continue;
        }
        piece.push(p);
    }
    if piece.len() > 1 {
        pieces.push(piece);
    }
    pieces.retain(|p| p.len() > 1);
    pieces
}

/// The index of the last point at or before `t` in a series sorted by time.
pub fn index_at<T>(points: &[T], t: f64, time: impl Fn(&T) -> f64) -> Option<usize> {
    points.partition_point(|p| time(p) <= t).checked_sub(1)
}

/// The part of a time-ordered series known at `until` (ms): its points at or before it, read
/// by `time`; the whole series when nothing is hidden (`None`). While a lesson's question waits
/// for its answer the charts count and read only this part: what came later would answer it.
pub fn known<T>(points: &[T], until: Option<f64>, time: impl Fn(&T) -> f64) -> &[T] {
    &points[..points.partition_point(|p| known_at(time(p), until))]
}

/// Whether an event at `t` (ms) is known at `until`: at or before it, or always when nothing is
/// hidden. [`known`] cuts a series where this turns false.
pub fn known_at(t: f64, until: Option<f64>) -> bool {
    until.is_none_or(|u| t <= u)
}

/// The value of a step series at `t`: its last point at or before `t`.
pub fn value_at(points: &[(f64, f64)], t: f64) -> Option<f64> {
    index_at(points, t, |p| p.0).map(|i| points[i].1)
}

/// The largest finite value of the series, if any.
pub fn max_of(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold(None, |m, v| Some(m.map_or(v, |m: f64| m.max(v))))
}

/// One pixel column of a dense line: its centre, the lowest and highest value the line takes
/// in it, and its mean over the column's time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Column {
    pub x: f64,
    pub lo: f64,
    pub hi: f64,
    pub mean: f64,
}

/// The envelope and time-weighted mean of a polyline (in time order) per pixel column of
/// `x0..x1`: what a line with many changes per pixel can honestly show, its range and its level.
pub fn envelope(points: &[(f64, f64)], x0: f64, x1: f64, columns: usize) -> Vec<Column> {
    let columns = columns.max(1);
    let span = x1 - x0;
    if !(span.is_finite() && span > 0.0) || points.is_empty() {
        return Vec::new();
    }
    let width = span / columns as f64;
    let col_of = |x: f64| (((x - x0) / width).floor().max(0.0) as usize).min(columns - 1);
    // Per column: (lo, hi, area, covered time).
    let mut acc: Vec<Option<(f64, f64, f64, f64)>> = vec![None; columns];
    let mut touch = |c: usize, y: f64, area: f64, dt: f64| {
        let e = acc[c].get_or_insert((y, y, 0.0, 0.0));
        e.0 = e.0.min(y);
        e.1 = e.1.max(y);
        e.2 += area;
        e.3 += dt;
    };
    for (i, &(x, y)) in points.iter().enumerate() {
        if x < x0 || x > x1 {
            continue;
        }
        touch(col_of(x), y, 0.0, 0.0);
        let Some(&(nx, ny)) = points.get(i + 1) else {
            continue;
        };
        if nx <= x {
            continue;
        }
        // Spread the segment over the columns it crosses, cutting it at their edges.
        // The column advances by counting, not by dividing again: an edge computed as
        // x0 + k·width can divide back to k − 1.
        let (mut ax, mut ay) = (x, y);
        let end_x = nx.min(x1);
        let mut c = col_of(x);
        while ax < end_x && c < columns {
            let edge = x0 + (c + 1) as f64 * width;
            let bx = if c + 1 == columns {
                end_x
            } else {
                edge.min(end_x)
            };
            let by = y + (ny - y) * (bx - x) / (nx - x);
            if bx > ax {
                touch(c, by, (ay + by) / 2.0 * (bx - ax), bx - ax);
                touch(c, ay, 0.0, 0.0);
            }
            ax = bx;
            ay = by;
            c += 1;
        }
    }
    acc.into_iter()
        .enumerate()
        .filter_map(|(c, e)| {
            let (lo, hi, area, dt) = e?;
            let mean = if dt > 0.0 { area / dt } else { (lo + hi) / 2.0 };
            Some(Column {
                x: x0 + (c as f64 + 0.5) * width,
                lo,
                hi,
                mean,
            })
        })
        .collect()
}

/// The part of a polyline (in time order) inside `lo..=hi` on the time axis, cut where it
/// crosses either edge: what a chart zoomed to that range draws, and fits its axes to.
pub fn clip_x(points: &[(f64, f64)], lo: f64, hi: f64) -> Vec<(f64, f64)> {
    if points.is_empty() || lo.is_nan() || hi.is_nan() || lo >= hi {
        return Vec::new();
    }
    let first = points.partition_point(|p| p.0 < lo);
    let last = points.partition_point(|p| p.0 <= hi);
    let at = |a: (f64, f64), b: (f64, f64), x: f64| {
        if b.0 > a.0 {
            (x, a.1 + (b.1 - a.1) * (x - a.0) / (b.0 - a.0))
        } else {
            (x, b.1)
        }
    };
    let mut out = Vec::with_capacity(last.saturating_sub(first) + 2);
    if first > 0 && first < points.len() {
        out.push(at(points[first - 1], points[first], lo));
    }
    out.extend_from_slice(&points[first..last]);
    if last > 0 && last < points.len() {
        out.push(at(points[last - 1], points[last], hi));
    }
    out
}

/// The points of a scatter series (in time order) inside `lo..=hi`.
pub fn within(points: &[(f64, f64)], lo: f64, hi: f64) -> &[(f64, f64)] {
    let first = points.partition_point(|p| p.0 < lo);
    let last = points.partition_point(|p| p.0 <= hi).max(first);
    &points[first..last]
}

/// The points (in time order) as runs whose neighbours are at most `gap` apart: samples of
/// something that exists only while packets pass (a packet's wait) are not joined across a
/// time none passed.
pub fn runs_apart(points: &[(f64, f64)], gap: f64) -> Vec<&[(f64, f64)]> {
    runs_apart_or_empty(points, gap, &[])
}

/// [`runs_apart`], split also where `level` (a step series in time order, such as the queue's
/// length) stood at 0 from one point's time to before the next's: a packet's wait is not drawn
/// through a time the queue held nothing, however short.
pub fn runs_apart_or_empty<'a>(
    points: &'a [(f64, f64)],
    gap: f64,
    level: &[(f64, f64)],
) -> Vec<&'a [(f64, f64)]> {
    let emptied = |from: f64, to: f64| {
        let first = level.partition_point(|p| p.0 < from);
        level[first..]
            .iter()
            .take_while(|p| p.0 < to)
            .any(|p| p.1 <= 0.0)
    };
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..points.len() {
        let (a, b) = (points[i - 1].0, points[i].0);
        if b - a > gap || emptied(a, b) {
            out.push(&points[start..i]);
            start = i;
        }
    }
    if start < points.len() {
        out.push(&points[start..]);
    }
    out
}

#[cfg(test)]
mod runs_apart_tests {
    use super::runs_apart;

    #[test]
    fn a_gap_wider_than_allowed_splits_the_points() {
        let p = [(0.0, 1.0), (1.0, 2.0), (5.0, 0.5), (9.0, 1.0), (9.5, 1.5)];
        let runs = runs_apart(&p, 2.0);
        assert_eq!(runs, vec![&p[..2], &p[2..3], &p[3..]]);
        assert_eq!(runs_apart(&p, 10.0), vec![&p[..]]);
        assert!(runs_apart(&[], 1.0).is_empty());
    }

    #[test]
    fn a_level_at_zero_between_two_points_splits_them() {
        use super::runs_apart_or_empty;
        let p = [(0.0, 1.0), (1.0, 2.0), (1.5, 0.5), (3.0, 1.0)];
        // The level falls to 0 at 1.0 (as the packet of that point leaves) and rises at 1.2.
        let level = [(0.0, 3.0), (1.0, 0.0), (1.2, 2.0), (2.0, 1.0)];
        let runs = runs_apart_or_empty(&p, 10.0, &level);
        assert_eq!(runs, vec![&p[..2], &p[2..]]);
        assert_eq!(runs_apart_or_empty(&p, 10.0, &[]), vec![&p[..]]);
    }
}
