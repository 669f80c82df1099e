//! The canonical query string of a scenario: what the page writes into its link.
//!
//! Keys in the order of the spec's table, only those that differ from the defaults (or, after
//! `preset=NAME`, from the preset), numbers as plain decimals in the key's own unit. Two equal
//! scenarios therefore always print the same link, and `parse(to_query(s)) == s`.

use super::keys::{Key, Value};
use super::presets::Preset;
use super::Scenario;

impl Scenario {
    /// The canonical query string, without a leading `?`; empty for the defaults.
    ///
    /// A preset name that is not in [`super::PRESETS`] is left out, and the keys are then
    /// printed against the defaults (such a scenario fails [`Scenario::validate`] anyway).
    pub fn to_query(&self) -> String {
        let preset = self
            .preset
            .and_then(Preset::find)
            .and_then(|p| Some((p.name, p.scenario().ok()?)));
        match preset {
            Some((name, base)) => {
                let rest = self.query_against(&base);
                if rest.is_empty() {
                    format!("preset={name}")
                } else {
                    format!("preset={name}&{rest}")
                }
            }
            None => self.query_against(&Scenario::default()),
        }
    }

    /// The keys whose values differ from `base`'s, in the key table's order, `preset` aside:
    /// the query that turns `base` into this scenario (a lesson's link over its part).
    pub fn query_against(&self, base: &Scenario) -> String {
        let mut parts = Vec::new();
        for key in Key::ALL.into_iter().filter(|&k| k != Key::Preset) {
            let Some(mine) = self.value(key).text() else {
                continue;
            };
            if Some(&mine) != base.value(key).text().as_ref() {
                parts.push(format!("{key}={mine}"));
            }
        }
        parts.join("&")
    }

    /// The value of one key as the query writes it; empty for an absent optional key.
    pub fn value_text(&self, key: Key) -> String {
        self.value(key).text().unwrap_or_default()
    }

    /// `key`'s value as the query writes it for every flow (`None`), or for flow `flow`
    /// (0-based) of a per-flow key: its item of the list, or the one value every flow takes.
    pub fn value_text_for(&self, key: Key, flow: Option<usize>) -> String {
        match (self.value(key), flow) {
            (Value::Each(values), Some(f)) => {
                values.get(f).and_then(Value::text).unwrap_or_default()
            }
            (value, _) => value.text().unwrap_or_default(),
        }
    }
}

impl Value {
    /// The value as the query writes it; `None` for an absent optional key.
    pub fn text(&self) -> Option<String> {
        Some(match self {
            Value::Absent => return None,
            Value::Name(name) => (*name).to_owned(),
            Value::Flag(on) => if *on { "1" } else { "0" }.to_owned(),
            Value::Real(x) => fmt_decimal(*x),
            Value::Whole(n) => n.to_string(),
            Value::Drops(drops) => {
                let drops: Vec<String> = drops.iter().map(u64::to_string).collect();
                drops.join(",")
            }
            Value::Schedule(changes) => super::sched::text(changes),
            Value::Each(values) => {
                let texts: Vec<String> = values.iter().filter_map(Value::text).collect();
                texts.join(",")
            }
        })
    }
}

/// A number as a plain decimal: the shortest digits that read back as the same `f64`, with no
/// exponent and no trailing `.0` (`0.0001`, `10000000000`, `28`). Negative zero prints as `0`.
pub fn fmt_decimal(x: f64) -> String {
    if x == 0.0 {
        // Also catches -0.0, which would print as "-0".
        return "0".to_owned();
    }
    // Rust's `Display` for f64 is already the shortest round-trip form and never switches to
    // exponent notation, unlike `Debug` for very large or small values.
    format!("{x}")
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::scenario::keys::{Bounds, MAX_RWND};
    use crate::scenario::{App, CcAlgo, PRESETS};
    use proptest::prelude::*;

    #[test]
    fn decimals_are_plain() {
        for (x, want) in [
            (0.0, "0"),
            (-0.0, "0"),
            (28.0, "28"),
            (31.537, "31.537"),
            (0.0001, "0.0001"),
            (0.000_000_1, "0.0000001"),
            (1e10, "10000000000"),
            (1e21, "1000000000000000000000"),
            (0.1 + 0.2, "0.30000000000000004"),
            (5.5, "5.5"),
            (100_000.0, "100000"),
        ] {
            assert_eq!(fmt_decimal(x), want);
        }
        assert_eq!(fmt_decimal(5e-324).len(), 2 + 323 + 1);
    }

    #[test]
    fn defaults_print_as_nothing() {
        assert_eq!(Scenario::default().to_query(), "");
        let explicit = "cc=cubic&rtt=28&bw=1000&loss=0&drop=&mss=1460&seed=1&hystart=1";
        assert_eq!(
            Scenario::parse(explicit).map(|s| s.to_query()),
            Ok(String::new())
        );
    }

    #[test]
    fn keys_print_in_table_order_in_their_units() {
        let s =
            Scenario::parse("at=1s&seed=7&rtt=0.5s&cc=bbr&body=4MiB&drop=9,2&loss=0.1%25&sack=0");
        assert_eq!(
            s.map(|s| s.to_query()),
            Ok("cc=bbr&rtt=500&loss=0.1&drop=2,9&sack=0&body=4194304&seed=7&at=1000".to_owned())
        );
    }

    #[test]
    fn a_preset_prints_first_and_only_its_changes() {
        for p in PRESETS {
            let q = format!("preset={}", p.name);
            assert_eq!(Scenario::parse(&q).map(|s| s.to_query()), Ok(q.clone()));
        }
        let s = Scenario::parse("cc=cubic&preset=loss-sweep&rtt=20&seed=3");
        assert_eq!(
            s.map(|s| s.to_query()),
            Ok("preset=loss-sweep&cc=cubic&seed=3".to_owned())
        );
        // A key set back to its default must still be written, as the preset changed it.
        let s = Scenario::parse("preset=loss-sweep&mss=1460");
        assert_eq!(
            s.map(|s| s.to_query()),
            Ok("preset=loss-sweep&mss=1460".to_owned())
        );
    }

    fn real(lo: f64, hi: f64) -> impl Strategy<Value = f64> {
        prop_oneof![
            Just(lo),
            Just(hi),
            lo..=hi,
            // Short decimals, as people type them.
            (0u32..=4, any::<u32>()).prop_map(move |(places, n)| {
                let x = f64::from(n) / 10f64.powi(places as i32);
                (lo + x % (hi - lo)).min(hi)
            }),
        ]
    }

    fn whole(lo: u64, hi: u64) -> impl Strategy<Value = u64> {
        prop_oneof![Just(lo), Just(hi), lo..=hi]
    }

    prop_compose! {
        fn path()(
            cc in proptest::sample::select(CcAlgo::ALL.to_vec()),
            rtt in real(0.1, 2000.0),
            bw in real(0.01, 100_000.0),
            loss in real(0.0, 50.0),
            ackloss in real(0.0, 50.0),
            drop in proptest::collection::btree_set(1u64.., 0..20),
            burst in real(1.0, 100.0),
            queue in whole(1, 1_000_000),
            mss in whole(64, 65_000),
            iw in whole(1, 1000),
            rwnd_frac in 0.0..=1.0f64,
            hystart in any::<bool>(),
            sack in any::<bool>(),
            delack in real(0.0, 500.0),
            minrto in real(1.0, 5000.0),
        ) -> Scenario {
            let min_rwnd = 2 * mss;
            // Spread over the allowed span, both ends included.
            let span = (MAX_RWND - min_rwnd) as f64;
            let rwnd = min_rwnd + (span * rwnd_frac) as u64;
            Scenario {
                cc,
                rtt_ms: rtt,
                bw_mbps: bw,
                loss_pct: loss,
                ackloss_pct: ackloss,
                drop: drop.into_iter().collect(),
                burst,
                queue: queue as u32,
                mss: mss as u32,
                iw: iw as u32,
                rwnd: rwnd.min(MAX_RWND),
                hystart,
                sack,
                delack_ms: delack,
                minrto_ms: minrto,
                ..Scenario::default()
            }
        }
    }

    prop_compose! {
        fn scenario()(
            base in path(),
            preset in proptest::option::of(proptest::sample::select(PRESETS.to_vec())),
            app in proptest::sample::select(App::ALL.to_vec()),
            body in whole(1, 10_000_000_000),
            dur in real(0.001, 600.0),
            flows in whole(1, 64),
            msg in whole(1, 65_000),
            every in real(0.1, 10_000.0),
            count in whole(1, 1_000_000),
            conns in whole(0, 64),
            seed in any::<u64>(),
            at_frac in proptest::option::of(0.0..=1.0f64),
        ) -> Scenario {
            let mut s = Scenario {
                preset: preset.map(|p| p.name),
                app,
                body,
                dur_s: dur,
                flows: flows as u32,
                msg: msg as u32,
                every_ms: every,
                count: count as u32,
                conns: conns as u32,
                seed,
                ..base
            };
            if let (Some(f), Some(Bounds::Real { max, .. })) = (at_frac, s.bounds(Key::At)) {
                s.at_ms = Some((f * max).min(max));
            }
            s
        }
    }

    proptest! {
        #[test]
        fn generated_scenarios_are_valid(s in scenario()) {
            prop_assert_eq!(s.validate(), Ok(()));
        }

        #[test]
        fn print_then_parse_is_the_identity(s in scenario()) {
            let q = s.to_query();
            prop_assert_eq!(Scenario::parse(&q), Ok(s), "{}", q);
        }

        #[test]
        fn parse_then_print_is_a_fixed_point(s in scenario()) {
            // Canonical text is unique: printing what was read gives the same text again.
            let q = s.to_query();
            let again = Scenario::parse(&format!("?{q}")).map(|p| p.to_query());
            prop_assert_eq!(again, Ok(q));
        }
    }
}
