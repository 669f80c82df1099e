//! What the page says of the bottleneck's queue beyond its chart: the comparison one click
//! from the latency card, the same run under the drop-tail FIFO, CoDel and FQ-CoDel.

use tcplab::{Aqm, Scenario};

/// The disciplines the latency card compares.
pub const COMPARED: [Aqm; 3] = [Aqm::Fifo, Aqm::Codel, Aqm::FqCodel];

/// The scenarios beside `s` in that comparison: `s` under each of [`COMPARED`] it does not
/// run, in that order (the first two where `s` runs another discipline). Every other key,
/// the discipline's settings included, stays as it is.
pub fn comparison(s: &Scenario) -> Vec<Scenario> {
    COMPARED
        .into_iter()
        .filter(|&a| a != s.aqm)
        .take(2)
        .map(|aqm| Scenario {
            aqm,
            preset: None,
            at_ms: None,
            ..s.clone()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn the_comparison_is_the_other_two_disciplines() {
        let aqms = |q: &str| -> Vec<Aqm> {
            let s = Scenario::parse(q).unwrap_or_default();
            comparison(&s).into_iter().map(|o| o.aqm).collect()
        };
        assert_eq!(aqms("preset=bufferbloat"), [Aqm::Codel, Aqm::FqCodel]);
        assert_eq!(aqms("aqm=fq_codel"), [Aqm::Fifo, Aqm::Codel]);
        assert_eq!(aqms("aqm=pie"), [Aqm::Fifo, Aqm::Codel]);
        // The rest of the scenario is kept, and each is a valid scenario of its own.
        let s = Scenario::parse("preset=bufferbloat&at=300").unwrap_or_default();
        for o in comparison(&s) {
            assert_eq!((o.rtt_ms, o.queue, o.probe_ms), (40.0, 2000, 20.0));
            assert_eq!(o.at_ms, None);
            assert!(o.validate().is_ok());
        }
    }
}
