//! The scenario in one line of words, above a run's verdict: a reader who opened a shared link
//! on a phone, where the settings fold far below the charts, reads what was run before what it
//! gave ("2 flows: BBR, CUBIC · 100 Mbit/s · RTT 40 ms · queue 167 packets, FIFO · bulk for
//! 60 s"); a preset opened as it is also says what it shows.

use tcplab::scenario::{LinkKind, Preset};
use tcplab::{App, Scenario};

use super::format::{bits_per_s, bytes, number};
use crate::controls::{app_label, aqm_label, cc_label};
use crate::i18n::Lang;
use tcplab::rate::MbitPerS;

/// What the run's scenario is, in the page's language: who sends, over what link and round
/// trip, into what queue, with what loss and changes, doing what.
pub fn path_words(s: &Scenario, lang: Lang) -> String {
    let n = s.connections().max(1);
    let mut parts = vec![senders(s, n, lang)];

    let rate = bits_per_s(MbitPerS(s.bw_mbps).bytes());
    parts.push(match (s.link, lang) {
        (LinkKind::Fixed, _) => rate,
        (LinkKind::Lte, Lang::En) => format!("LTE, {rate} mean"),
        (LinkKind::Lte, Lang::Zh) => format!("LTE，平均 {rate}"),
        (LinkKind::Wifi, Lang::En) => format!("Wi-Fi, {rate} mean"),
        (LinkKind::Wifi, Lang::Zh) => format!("Wi-Fi，平均 {rate}"),
        (LinkKind::Trace, Lang::En) => "a link trace".to_string(),
        (LinkKind::Trace, Lang::Zh) => "链路轨迹".to_string(),
    });
    if s.police_mbps > 0.0 {
        let police = bits_per_s(MbitPerS(s.police_mbps).bytes());
        parts.push(match lang {
            Lang::En => format!("policed at {police}"),
            Lang::Zh => format!("限速器 {police}"),
        });
    }

    let mut rtts: Vec<f64> = Vec::new();
    for i in 0..n {
        let r = s.flow(i).rtt_ms;
        if !rtts.contains(&r) {
            rtts.push(r);
        }
    }
    let rtts: Vec<String> = rtts.iter().map(|r| number(*r, 4)).collect();
    parts.push(format!("RTT {} ms", listed(&rtts, lang)));

    let ecn = if s.ecn { " + ECN" } else { "" };
    parts.push(match lang {
        Lang::En => format!("queue {} packets, {}{ecn}", s.queue, aqm_label(s.aqm)),
        Lang::Zh => format!("队列 {} 个包，{}{ecn}", s.queue, aqm_label(s.aqm)),
    });
    if s.loss_pct > 0.0 {
        let loss = number(s.loss_pct, 3);
        parts.push(match lang {
            Lang::En => format!("{loss} % loss"),
            Lang::Zh => format!("丢包率 {loss} %"),
        });
    }
    if !s.sched.is_empty() {
        let k = s.sched.len();
        parts.push(match (lang, k) {
            (Lang::En, 1) => "the path changes once".to_string(),
            (Lang::En, _) => format!("the path changes {k} times"),
            (Lang::Zh, _) => format!("路径变化 {k} 次"),
        });
    }

    let dur = number(s.dur_s, 4);
    parts.push(match (s.app, lang) {
        (App::Body, Lang::En) if n > 1 => format!("a {} body each", bytes(s.body)),
        (App::Body, Lang::En) => format!("a {} body", bytes(s.body)),
        (App::Body, Lang::Zh) => format!("{} {}", app_label(App::Body, lang), bytes(s.body)),
        (App::Bulk, Lang::En) => format!("bulk for {dur} s"),
        (App::Bulk, Lang::Zh) => format!("{} {dur} s", app_label(App::Bulk, lang)),
        (App::Msgs, Lang::En) => format!(
            "{} messages of {} every {} ms",
            s.count,
            bytes(u64::from(s.msg)),
            number(s.every_ms, 4)
        ),
        (App::Msgs, Lang::Zh) => format!(
            "{} 条 {} 的消息，每 {} ms 一条",
            s.count,
            bytes(u64::from(s.msg)),
            number(s.every_ms, 4)
        ),
    });
    parts.join(" · ")
}

/// The preset the run is, opened as it is (its query `preset=NAME` alone), and what it shows;
/// a preset whose keys the reader changed may no longer show it.
pub fn preset_shown(s: &Scenario, query: &str) -> Option<&'static Preset> {
    let p = Preset::find(s.preset?)?;
    (query == format!("preset={}", p.name)).then_some(p)
}

/// "CUBIC", "2 flows of Reno", "2 flows: BBR, CUBIC".
fn senders(s: &Scenario, n: usize, lang: Lang) -> String {
    let ccs: Vec<&str> = (0..n).map(|i| cc_label(s.flow(i).cc)).collect();
    let alike = ccs.iter().all(|c| *c == ccs[0]);
    match (n, alike, lang) {
        (1, _, _) => ccs[0].to_string(),
        (_, true, Lang::En) => format!("{n} flows of {}", ccs[0]),
        (_, true, Lang::Zh) => format!("{n} 条 {} 流", ccs[0]),
        (_, false, Lang::En) => format!("{n} flows: {}", ccs.join(", ")),
        (_, false, Lang::Zh) => format!("{n} 条流：{}", ccs.join("、")),
    }
}

/// "40", "10 and 100", "10, 20 and 80".
fn listed(items: &[String], lang: Lang) -> String {
    let and = lang.pick(" and ", " 与 ");
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}{and}{last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(q: &str, lang: Lang) -> String {
        let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
        path_words(&s, lang)
    }

    #[test]
    fn a_scenario_reads_as_what_was_run() {
        assert_eq!(
            words("preset=bbr-vs-cubic", Lang::En),
            "2 flows: BBR, CUBIC · 100 Mbit/s · RTT 40 ms · queue 167 packets, FIFO · bulk for 60 s"
        );
        assert_eq!(
            words("preset=rtt-unfairness", Lang::En),
            "2 flows of Reno · 10 Mbit/s · RTT 10 and 100 ms · queue 50 packets, FIFO · bulk for 120 s"
        );
        assert_eq!(
            words("cc=bbr&rtt=80&bw=20&loss=0.5&dur=30&queue=100", Lang::En),
            "BBR · 20 Mbit/s · RTT 80 ms · queue 100 packets, FIFO · 0.5 % loss · a 2.5 MB body"
        );
        assert_eq!(
            words("preset=codel-ecn", Lang::Zh),
            "CUBIC · 10 Mbit/s · RTT 40 ms · 队列 2000 个包，CoDel + ECN · 持续发送 20 s"
        );
        assert_eq!(
            words("preset=cellular", Lang::En),
            "CUBIC · LTE, 10 Mbit/s mean · RTT 60 ms · queue 1000 packets, FIFO · bulk for 30 s"
        );
        assert!(words("preset=policer", Lang::En).contains("policed at 10 Mbit/s"));
        assert!(words("", Lang::En).starts_with("CUBIC · 1 Gbit/s · RTT 28 ms"));
        assert!(words("preset=bandwidth-drop", Lang::En).contains("the path changes once"));
        assert!(words("preset=hol-blocking", Lang::En).contains("messages of 100 B every 10 ms"));
    }

    #[test]
    fn a_preset_says_what_it_shows_only_as_it_is() {
        let s = Scenario::parse("preset=bbr-vs-cubic").expect("a preset");
        assert_eq!(
            preset_shown(&s, "preset=bbr-vs-cubic").map(|p| p.name),
            Some("bbr-vs-cubic")
        );
        let changed = Scenario::parse("preset=bbr-vs-cubic&rtt=80").expect("a preset");
        assert!(preset_shown(&changed, "preset=bbr-vs-cubic&rtt=80").is_none());
        let plain = Scenario::parse("rtt=80").expect("a scenario");
        assert!(preset_shown(&plain, "rtt=80").is_none());
    }
}
