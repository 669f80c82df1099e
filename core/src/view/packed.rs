//! A view's series as columns, for the worker's compact bytes.
//!
//! Postcard writes an `f64` as its eight bytes, and most of a view is points whose numbers carry
//! far less: times are whole nanoseconds shown in ms, windows and sequence numbers whole bytes,
//! queues whole packets. So in a compact (non-human-readable) form each series goes column by
//! column, and each column as the differences between its numbers, in the first of these that
//! gives every number back bit for bit: whole numbers, millionths (ms from whole nanoseconds), or
//! the numbers as they are. Postcard writes the differences as zigzag varints, one to four bytes
//! for most, and gzip finds the rest of their regularity. A human-readable form (the JSON
//! export, the runner) gets the series as they always were, points of numbers.
//!
//! Nothing is rounded: a column takes a packing only if every one of its numbers comes back
//! with the same bits, so the page draws exactly what the worker computed.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::WindowPoint;

/// The largest magnitude below which every whole number is an `f64`.
const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53

/// One column of numbers, as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Column {
    /// Whole numbers, each as its difference from the one before.
    Whole(Vec<i64>),
    /// Millionths (a time in ms of whole nanoseconds), each as its difference, in millionths,
    /// from the one before.
    Millionths(Vec<i64>),
    /// Numbers neither packing gives back exactly, as they are.
    Raw(Vec<f64>),
}

/// `v` as `k / scale` with `k` whole, if that gives `v` back with the same bits (so neither
/// -0.0, NaN nor an infinity packs).
fn as_scaled(v: f64, scale: f64) -> Option<i64> {
    let k = (v * scale).round();
    if k.is_nan() || k.abs() >= EXACT {
        return None;
    }
    let k = k as i64;
    ((k as f64 / scale).to_bits() == v.to_bits()).then_some(k)
}

fn deltas(values: &[f64], scale: f64) -> Option<Vec<i64>> {
    let mut last = 0i64;
    values
        .iter()
        .map(|&v| {
            let k = as_scaled(v, scale)?;
            // Both under 2^53 in magnitude: the difference fits.
            let d = k - last;
            last = k;
            Some(d)
        })
        .collect()
}

fn sums(deltas: &[i64], scale: f64) -> Vec<f64> {
    let mut last = 0i64;
    deltas
        .iter()
        .map(|&d| {
            // Wrapping: the bytes may not have come from `deltas`.
            last = last.wrapping_add(d);
            last as f64 / scale
        })
        .collect()
}

impl Column {
    fn pack(values: &[f64]) -> Column {
        if let Some(d) = deltas(values, 1.0) {
            return Column::Whole(d);
        }
        if let Some(d) = deltas(values, 1e6) {
            return Column::Millionths(d);
        }
        Column::Raw(values.to_vec())
    }

    fn unpack(self) -> Vec<f64> {
        match self {
            Column::Whole(d) => sums(&d, 1.0),
            Column::Millionths(d) => sums(&d, 1e6),
            Column::Raw(v) => v,
        }
    }
}

/// A column of numbers some of which are missing: the present ones packed, and where they are
/// as the lengths of alternating runs, present first (the first run may be empty).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Gappy {
    runs: Vec<u32>,
    present: Column,
}

impl Gappy {
    fn pack(values: &[Option<f64>]) -> Gappy {
        let mut runs = Vec::new();
        let mut present = true;
        let mut run = 0u32;
        for v in values {
            if v.is_some() != present {
                runs.push(run);
                run = 0;
                present = !present;
            }
            run += 1;
        }
        runs.push(run);
        let kept: Vec<f64> = values.iter().flatten().copied().collect();
        Gappy {
            runs,
            present: Column::pack(&kept),
        }
    }

    fn unpack(self, len: usize) -> Result<Vec<Option<f64>>, &'static str> {
        let mut kept = self.present.unpack().into_iter();
        let mut out = Vec::with_capacity(len);
        for (i, &run) in self.runs.iter().enumerate() {
            for _ in 0..run {
                if out.len() == len {
                    return Err("a column's gaps run past its points");
                }
                out.push(if i % 2 == 0 {
                    Some(
                        kept.next()
                            .ok_or("a column has fewer numbers than its gaps say")?,
                    )
                } else {
                    None
                });
            }
        }
        if out.len() != len || kept.next().is_some() {
            return Err("a column's gaps do not match its points");
        }
        Ok(out)
    }
}

fn same_length(columns: &[usize]) -> Result<usize, &'static str> {
    let n = columns.first().copied().unwrap_or(0);
    if columns.iter().all(|&c| c == n) {
        Ok(n)
    } else {
        Err("a series' columns differ in length")
    }
}

/// `Vec<(f64, f64)>`: the times, then the values.
pub mod pairs {
    use super::*;

    pub fn serialize<S: Serializer>(points: &[(f64, f64)], s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return points.serialize(s);
        }
        let (t, v): (Vec<f64>, Vec<f64>) = points.iter().copied().unzip();
        (Column::pack(&t), Column::pack(&v)).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(f64, f64)>, D::Error> {
        if d.is_human_readable() {
            return Vec::deserialize(d);
        }
        let (t, v) = <(Column, Column)>::deserialize(d)?;
        let (t, v) = (t.unpack(), v.unpack());
        same_length(&[t.len(), v.len()]).map_err(D::Error::custom)?;
        Ok(t.into_iter().zip(v).collect())
    }
}

/// `Vec<WindowPoint>`: a column for each field.
pub mod windows {
    use super::*;

    type Packed = (Column, Column, Gappy, Column, Column, Gappy, Column);

    pub fn serialize<S: Serializer>(points: &[WindowPoint], s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return points.serialize(s);
        }
        let col =
            |f: fn(&WindowPoint) -> f64| Column::pack(&points.iter().map(f).collect::<Vec<_>>());
        let gappy = |f: fn(&WindowPoint) -> Option<f64>| {
            Gappy::pack(&points.iter().map(f).collect::<Vec<_>>())
        };
        let packed: Packed = (
            col(|p| p.t),
            col(|p| p.cwnd),
            gappy(|p| p.ssthresh),
            col(|p| p.in_flight),
            col(|p| p.rwnd),
            gappy(|p| p.srtt_ms),
            col(|p| p.rto_ms),
        );
        packed.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<WindowPoint>, D::Error> {
        if d.is_human_readable() {
            return Vec::deserialize(d);
        }
        let (t, cwnd, ssthresh, in_flight, rwnd, srtt, rto) = Packed::deserialize(d)?;
        let (t, cwnd, in_flight, rwnd, rto) = (
            t.unpack(),
            cwnd.unpack(),
            in_flight.unpack(),
            rwnd.unpack(),
            rto.unpack(),
        );
        let n = same_length(&[t.len(), cwnd.len(), in_flight.len(), rwnd.len(), rto.len()])
            .map_err(D::Error::custom)?;
        let ssthresh = ssthresh.unpack(n).map_err(D::Error::custom)?;
        let srtt = srtt.unpack(n).map_err(D::Error::custom)?;
        Ok((0..n)
            .map(|i| WindowPoint {
                t: t[i],
                cwnd: cwnd[i],
                ssthresh: ssthresh[i],
                in_flight: in_flight[i],
                rwnd: rwnd[i],
                srtt_ms: srtt[i],
                rto_ms: rto[i],
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_bits(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits())
    }

    #[test]
    fn each_column_takes_the_first_packing_that_gives_it_back_exactly() {
        let whole = [0.0, 1448.0, 2896.0, -3.0, 9_007_199_254_740_991.0];
        assert!(matches!(Column::pack(&whole), Column::Whole(_)));
        // Times in ms of whole nanoseconds, as `Instant::as_millis_f64` makes them.
        let ms: Vec<f64> = [0u64, 1, 1_234_567, 40_000_001, 987_654_321_123]
            .iter()
            .map(|&ns| ns as f64 / 1e6)
            .collect();
        assert!(matches!(Column::pack(&ms), Column::Millionths(_)));
        for raw in [
            vec![0.1 / 3.0],
            vec![1.0, f64::NAN],
            vec![f64::INFINITY],
            vec![-0.0],
            vec![1e300],
        ] {
            assert!(matches!(Column::pack(&raw), Column::Raw(_)), "{raw:?}");
            assert!(same_bits(&Column::pack(&raw).unpack(), &raw), "{raw:?}");
        }
        for values in [&whole[..], &ms[..], &[][..]] {
            assert!(same_bits(&Column::pack(values).unpack(), values));
        }
    }

    /// The JSON export and the runner read a view as they always did: points of numbers.
    #[test]
    fn a_human_readable_form_keeps_its_points() {
        let scenario = crate::Scenario::default();
        let run = crate::run(&scenario, &crate::RunOptions::default());
        let view = crate::view::RunView::new(&scenario, &run);
        let json: serde_json::Value = serde_json::to_value(&view).expect("json");
        let (t, v) = view.queue[3];
        assert_eq!(json["queue"][3], serde_json::json!([t, v]));
        let w = &view.flows[0].window[5];
        assert_eq!(
            json["flows"][0]["window"][5]["cwnd"],
            serde_json::json!(w.cwnd)
        );
        let back: crate::view::RunView = serde_json::from_value(json).expect("read back");
        assert_eq!(back, view);
    }

    #[test]
    fn the_widest_differences_come_back_and_hostile_ones_do_not_panic() {
        let widest = 9_007_199_254_740_991.0; // 2^53 - 1
        let far = [-widest, widest, -widest, 0.0];
        assert!(matches!(Column::pack(&far), Column::Whole(_)));
        assert!(same_bits(&Column::pack(&far).unpack(), &far));
        // Bytes that did not come from `pack` read as numbers, whatever they are.
        let hostile = Column::Millionths(vec![i64::MAX, i64::MAX, i64::MIN]).unpack();
        assert_eq!(hostile.len(), 3);
    }

    #[test]
    fn gaps_come_back_where_they_were() {
        for values in [
            vec![],
            vec![None, None],
            vec![Some(1.5)],
            vec![None, Some(2.0), Some(3.0), None, Some(4.0)],
            vec![Some(1.0), None],
        ] {
            let packed = Gappy::pack(&values);
            assert_eq!(packed.clone().unpack(values.len()), Ok(values.clone()));
            assert!(packed.unpack(values.len() + 1).is_err());
        }
        let short = Gappy {
            runs: vec![3],
            present: Column::Whole(vec![1, 1]),
        };
        assert!(short.unpack(3).is_err());
    }
}
