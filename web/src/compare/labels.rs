//! What tells compared scenarios apart, as their labels: "CUBIC" beside "BBR", "1 conn" beside
//! "4 conns", "RTT 20 ms · loss 1 %" where two keys differ. A key the scenarios share is left
//! out; scenarios that differ in nothing are "same scenario".

use tcplab::scenario::Key;
use tcplab::Scenario;

use crate::i18n::Lang;
use crate::model::knobs::knob_of;

/// One label a scenario, in order.
pub fn labels(scenarios: &[Scenario], lang: Lang) -> Vec<String> {
    // The cursor is where the player stands, not part of what is compared.
    let differing: Vec<Key> = Key::ALL
        .into_iter()
        .filter(|&k| k != Key::At)
        .filter(|&k| {
            let mut values = scenarios.iter().map(|s| s.value_text(k));
            let first = values.next();
            values.any(|v| Some(v) != first)
        })
        .collect();
    scenarios
        .iter()
        .map(|s| {
            if differing.is_empty() {
                return lang.pick("same scenario", "相同场景").to_string();
            }
            differing
                .iter()
                .map(|&k| value_label(s, k, lang))
                .collect::<Vec<_>>()
                .join(" · ")
        })
        .collect()
}

/// One key's value as a person names it.
fn value_label(s: &Scenario, key: Key, lang: Lang) -> String {
    let on_off = |name: &str, on: bool| {
        let state = match (on, lang) {
            (true, Lang::En) => "on",
            (false, Lang::En) => "off",
            (true, Lang::Zh) => "开",
            (false, Lang::Zh) => "关",
        };
        format!("{name} {state}")
    };
    let count = |n: u32, one: &str, many: &str, zh: &str| match lang {
        Lang::En => format!("{n} {}", if n == 1 { one } else { many }),
        Lang::Zh => format!("{n} 个{zh}"),
    };
    match key {
        Key::Cc => crate::controls::cc_label(s.cc).to_string(),
        Key::Conns if s.conns == 0 => lang.pick("UDP", "UDP").to_string(),
        Key::Conns => count(s.conns, "conn", "conns", "连接"),
        Key::Flows => count(s.flows, "flow", "flows", "流"),
        Key::Sack => on_off("SACK", s.sack),
        Key::Ts => on_off(lang.pick("timestamps", "时间戳"), s.ts),
        Key::Hystart => on_off("HyStart", s.hystart),
        Key::Autotune => on_off(lang.pick("autotuning", "自动调优"), s.autotune),
        Key::Preset => s.preset.unwrap_or("—").to_string(),
        _ => {
            let value = s.value_text(key);
            let value = if value.is_empty() {
                "—".to_string()
            } else {
                value
            };
            match knob_of(key) {
                Some(k) if k.unit(lang).is_empty() => format!("{} {value}", k.label(lang)),
                Some(k) => format!("{} {value} {}", k.label(lang), k.unit(lang)),
                None => format!("{}={value}", key.name()),
            }
        }
    }
}
