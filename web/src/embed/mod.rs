//! The lab inside another page (`embed=1`): a compact page for an iframe, with the charts named
//! by `charts=`, the controls named by `controls=`, the headline card, a caption from `note=`,
//! and a link that opens the whole lab on the same scenario. The page's Share menu writes the
//! `<iframe>` for what is on screen ([`snippet`]).

pub mod menu;
pub mod view;

use tcplab::scenario::Key;
use tcplab::Scenario;

use crate::charts::KINDS;
use crate::i18n::Lang;
use crate::model::address::{quoted, BadLink};

/// The page's keys of an embed.
pub const EMBED_KEY: &str = "embed";
pub const CHARTS_KEY: &str = "charts";
pub const CONTROLS_KEY: &str = "controls";
pub const NOTE_KEY: &str = "note";

/// The longest caption, in characters: two lines of a narrow frame, a tweet's length.
pub const NOTE_MAX: usize = 280;

/// The charts an embed shows when its link names none.
pub const DEFAULT_CHARTS: &[&str] = &["cwnd", "goodput"];

/// What an embed shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Chart kinds (`crate::charts::KINDS`), in the order named.
    pub charts: Vec<&'static str>,
    /// Scenario keys with a control, in the order named.
    pub controls: Vec<Key>,
    /// The caption, as plain text.
    pub note: Option<String>,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            charts: DEFAULT_CHARTS.to_vec(),
            controls: Vec::new(),
            note: None,
        }
    }
}

/// Whether an address asks for an embed (`embed=1`, whatever else is wrong with it).
pub fn requested(pairs: &[(String, String)]) -> bool {
    pairs.iter().any(|(k, v)| k == EMBED_KEY && v == "1")
}

/// The keys a control can take in an embed: every key with a control of its own.
pub fn control_keys() -> Vec<Key> {
    crate::model::knobs::KNOBS
        .iter()
        .map(|k| k.key)
        .filter(|k| !matches!(k, Key::Link | Key::Drop | Key::Seed))
        .collect()
}

/// A comma list of names, each one of `allowed`, none twice.
fn read_list<T: Copy + PartialEq>(
    key: &str,
    value: &str,
    find: impl Fn(&str) -> Option<T>,
    allowed: &str,
) -> Result<Vec<T>, BadLink> {
    let mut out = Vec::new();
    if value.is_empty() {
        return Err(BadLink::new(
            key,
            format!("empty value (allowed {allowed})"),
            format!("值为空（允许 {allowed}）"),
        ));
    }
    for name in value.split(',') {
        let item = find(name.trim()).ok_or_else(|| {
            BadLink::new(
                key,
                format!("unknown value {} (allowed {allowed})", quoted(name)),
                format!("未知的值 {}（允许 {allowed}）", quoted(name)),
            )
        })?;
        if out.contains(&item) {
            return Err(BadLink::new(
                key,
                format!("{} is named twice", quoted(name)),
                format!("{} 出现了两次", quoted(name)),
            ));
        }
        out.push(item);
    }
    Ok(out)
}

impl Spec {
    /// Reads `charts=`, `controls=` and `note=` (each needs `embed=1`); a bad key is named
    /// with its range and left at its default.
    pub fn read(pairs: &[(String, String)]) -> (Spec, Vec<BadLink>) {
        let mut spec = Spec::default();
        let mut bad = Vec::new();
        let on = requested(pairs);
        for key in [EMBED_KEY, CHARTS_KEY, CONTROLS_KEY, NOTE_KEY] {
            let values: Vec<&String> = pairs
                .iter()
                .filter(|(k, _)| k == key)
                .map(|(_, v)| v)
                .collect();
            if values.len() > 1 {
                bad.push(BadLink::new(
                    key,
                    "repeated key".to_string(),
                    "键重复".to_string(),
                ));
                continue;
            }
            let Some(value) = values.first() else {
                continue;
            };
            if key != EMBED_KEY && !on {
                bad.push(BadLink::new(
                    key,
                    "needs embed=1 (it says what an embed shows)".to_string(),
                    "需要 embed=1（它说明嵌入显示什么）".to_string(),
                ));
                continue;
            }
            match key {
                EMBED_KEY if value.as_str() != "1" => bad.push(BadLink::new(
                    key,
                    format!("unknown value {} (allowed 1)", quoted(value)),
                    format!("未知的值 {}（允许 1）", quoted(value)),
                )),
                CHARTS_KEY => {
                    let allowed = KINDS.join(", ");
                    let find = |n: &str| KINDS.iter().copied().find(|k| *k == n);
                    match read_list(key, value, find, &allowed) {
                        Ok(charts) => spec.charts = charts,
                        Err(e) => bad.push(e),
                    }
                }
                CONTROLS_KEY => {
                    let keys = control_keys();
                    let allowed = keys.iter().map(|k| k.name()).collect::<Vec<_>>().join(", ");
                    let find = |n: &str| Key::from_name(n).filter(|k| keys.contains(k));
                    match read_list(key, value, find, &allowed) {
                        Ok(controls) => spec.controls = controls,
                        Err(e) => bad.push(e),
                    }
                }
                NOTE_KEY => {
                    let n = value.chars().count();
                    if n > NOTE_MAX {
                        bad.push(BadLink::new(
                            key,
                            format!("{n} characters is too long (allowed at most {NOTE_MAX})"),
                            format!("{n} 个字符太长（最多 {NOTE_MAX} 个）"),
                        ));
                    } else if !value.trim().is_empty() {
                        spec.note = Some(value.trim().to_string());
                    }
                }
                _ => {}
            }
        }
        (spec, bad)
    }

    /// The embed's own keys, as its link writes them.
    pub fn keys(&self) -> Vec<(&'static str, String)> {
        let mut out = vec![(EMBED_KEY, "1".to_string())];
        out.push((CHARTS_KEY, self.charts.join(",")));
        if !self.controls.is_empty() {
            let names: Vec<&str> = self.controls.iter().map(|k| k.name()).collect();
            out.push((CONTROLS_KEY, names.join(",")));
        }
        if let Some(note) = &self.note {
            out.push((NOTE_KEY, note.clone()));
        }
        out
    }
}

/// The controls an embed of `scenario` offers by default: up to three of the keys it sets
/// that a slider moves (what the experiment is about), else the path's RTT and rate.
pub fn default_controls(scenario: &Scenario) -> Vec<Key> {
    let keys = control_keys();
    let set: Vec<Key> = scenario
        .query_against(&Scenario::default())
        .split('&')
        .filter_map(|pair| Key::from_name(pair.split('=').next().unwrap_or("")))
        .filter(|k| keys.contains(k) && crate::model::knobs::slider(*k, scenario).is_some())
        .filter(|k| !matches!(k, Key::Dur | Key::Rwnd | Key::Mss))
        .take(3)
        .collect();
    if set.is_empty() {
        vec![Key::Rtt, Key::Bw]
    } else {
        set
    }
}

/// A frame's height for `spec`, CSS px: the card, each chart and each control.
pub fn frame_height(spec: &Spec) -> u32 {
    let charts = u32::try_from(spec.charts.len()).unwrap_or(4);
    let controls = u32::try_from(spec.controls.len()).unwrap_or(4);
    170 + 270 * charts + 62 * controls + if spec.note.is_some() { 40 } else { 0 }
}

/// The `<iframe>` an author pastes into a page to show `search` (the page's canonical address
/// of what is on screen) as an embed of `spec`, served from `base` (origin and path).
pub fn snippet(base: &str, search: &str, spec: &Spec, lang: Lang) -> String {
    let mut query = search.strip_prefix('?').unwrap_or(search).to_string();
    for (k, v) in spec.keys() {
        if !query.is_empty() {
            query.push('&');
        }
        query.push_str(&format!(
            "{k}={}",
            crate::model::address::encode_component(&v)
        ));
    }
    let src = format!("{base}?{query}")
        .replace('&', "&amp;")
        .replace('"', "&quot;");
    let title = lang.pick("tcplab: TCP throughput lab", "tcplab：TCP 吞吐量实验室");
    format!(
        "<iframe src=\"{src}\" width=\"640\" height=\"{}\" style=\"border:0;max-width:100%\" \
         title=\"{title}\" loading=\"lazy\"></iframe>",
        frame_height(spec)
    )
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn pairs(q: &str) -> Vec<(String, String)> {
        crate::model::address::split_page(q).1
    }

    #[test]
    fn an_embed_reads_its_charts_controls_and_note() {
        let (spec, bad) = Spec::read(&pairs(
            "?embed=1&charts=cwnd,goodput&controls=rtt,iw,body&note=Try+it",
        ));
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(spec.charts, ["cwnd", "goodput"]);
        assert_eq!(spec.controls, [Key::Rtt, Key::Iw, Key::Body]);
        assert_eq!(spec.note.as_deref(), Some("Try it"));
        let (spec, bad) = Spec::read(&pairs("?embed=1"));
        assert!(bad.is_empty());
        assert_eq!(spec, Spec::default());
    }

    #[test]
    fn a_bad_embed_key_is_named_with_its_range() {
        let (spec, bad) = Spec::read(&pairs("?embed=1&charts=cwnd,pie"));
        assert_eq!(spec.charts, DEFAULT_CHARTS);
        assert_eq!(bad[0].key, "charts");
        assert!(
            bad[0].message.contains("\"pie\"") && bad[0].message.contains("allowed cwnd, goodput"),
            "{}",
            bad[0].message
        );
        let (_, bad) = Spec::read(&pairs("?embed=1&controls=rtt,at"));
        assert_eq!(bad[0].key, "controls");
        assert!(
            bad[0].message.contains("allowed cc, rtt"),
            "{}",
            bad[0].message
        );
        let (_, bad) = Spec::read(&pairs("?embed=1&charts=cwnd,cwnd"));
        assert!(bad[0].message.contains("named twice"), "{}", bad[0].message);
        let (_, bad) = Spec::read(&pairs(&format!("?embed=1&note={}", "x".repeat(281))));
        assert_eq!(
            bad[0].message,
            "note: 281 characters is too long (allowed at most 280)"
        );
        let (_, bad) = Spec::read(&pairs("?charts=cwnd"));
        assert_eq!(bad[0].key, "charts");
        assert!(bad[0].message.contains("needs embed=1"));
        let (_, bad) = Spec::read(&pairs("?embed=2"));
        assert_eq!(bad[0].message, "embed: unknown value \"2\" (allowed 1)");
    }

    #[test]
    fn the_snippet_is_an_iframe_of_what_is_on_screen() {
        let spec = Spec {
            charts: vec!["cwnd"],
            controls: vec![Key::Rtt, Key::Iw],
            note: Some("a \"quoted\" note & more".into()),
        };
        let html = snippet("https://lab.example/", "?rtt=50&lang=en", &spec, Lang::En);
        assert!(html.starts_with("<iframe src=\"https://lab.example/?rtt=50&amp;lang=en&amp;embed=1&amp;charts=cwnd&amp;controls=rtt,iw&amp;note=a%20%22quoted%22%20note%20%26%20more\""), "{html}");
        assert!(html.contains("height=\""), "{html}");
        // A scenario's own keys are its default controls.
        let s = Scenario::parse("rtt=80&iw=4&dur=5").expect("valid");
        assert_eq!(default_controls(&s), [Key::Rtt, Key::Iw]);
        assert_eq!(default_controls(&Scenario::default()), [Key::Rtt, Key::Bw]);
    }
}
