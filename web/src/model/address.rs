//! The URL is the state: the scenario lives in the query string, read and written only through
//! `tcplab`'s parser and printer, followed by the page's own keys, which are not part of the
//! scenario: the view and its settings ([`PAGE_KEYS`], read in [`super::views`]), then
//! `lang=`.
//!
//! `?rtt=50&loss=1&lang=zh` is the scenario `rtt=50&loss=1` shown in Chinese;
//! `?preset=loss-sweep&view=sweep&key=loss&values=0.1,1&seeds=3&lang=en` sweeps it. The page
//! writes the canonical form: the scenario's `to_query()`, the view's keys, then `lang=`.

use tcplab::scenario::decode_component;
use tcplab::Scenario;

use crate::i18n::Lang;

/// The page's own key, read and written beside the scenario's.
pub const LANG_KEY: &str = "lang";

/// The page's other keys: the view and its settings (docs/scenario.md, "The page's own keys").
/// None is a scenario key, so a query splits cleanly.
pub const PAGE_KEYS: &[&str] = &[
    "view",
    "key",
    "values",
    "flow",
    "key2",
    "values2",
    "key3",
    "values3",
    "seeds",
    "metric",
    "b",
    "c",
    // The player's rank of its step at the instant of `at`, and a lesson's player kept closed
    // (`crate::player::state`).
    "step",
    "player",
    // A guided lesson, its part, and the presenter's mode (`crate::lesson`).
    "lesson",
    "part",
    "present", // An embed and what it shows (`crate::embed`).
    "embed",
    "charts",
    "controls",
    "note",
    // The number "My number, explained" asks about (`super::measured`).
    "my_goodput",
    "my_time",
];

/// How a new state enters the browser's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A new step that Back returns from.
    Push,
    /// The same step, rewritten in place (an address put in canonical form).
    Replace,
    /// The same step, refined (a slider still being dragged): written at most every
    /// [`REPLACE_EVERY_MS`](crate::location::REPLACE_EVERY_MS) by a
    /// [`Writer`](crate::location::Writer).
    Refine,
}

/// What is wrong with a link: the key at fault and the whole message, which names the range
/// (`rtt: "abc" is not a number (allowed 0.1 to 2000 ms)`), and the message after the key, in
/// English and, where it has been written, in Chinese.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLink {
    /// The key as written, decoded.
    pub key: String,
    /// The key as a message repeats it: cut to 64 characters and control characters escaped,
    /// as the scenario's messages do, since an unknown key may be a whole 100 KB link.
    pub shown_key: String,
    pub message: String,
    pub problem: String,
    pub problem_zh: String,
}

impl BadLink {
    /// A problem with the page's key `key`, in English and in Chinese: every message the page
    /// shows has both, so a Chinese page never falls back to an English sentence.
    pub fn new(key: &str, problem: String, problem_zh: String) -> BadLink {
        let shown_key = tcplab::scenario::shown(key).into_owned();
        let in_message = if key.is_empty() { "\"\"" } else { &shown_key };
        BadLink {
            key: key.to_string(),
            message: format!("{in_message}: {problem}"),
            shown_key,
            problem,
            problem_zh,
        }
    }

    fn from_scenario(e: &tcplab::scenario::ScenarioError) -> BadLink {
        let problem = e.problem().to_string();
        let zh = crate::i18n::problem_zh(e.problem());
        if let tcplab::scenario::Problem::UnknownKey = e.problem() {
            // The page reads keys of its own beside the scenario's: one fixing a link by hand
            // (`language=zh`) needs them named too (the runner reads none). Their entry
            // points, not all 22: the settings follow from each (docs/scenario.md).
            let page = [LANG_KEY, "view", "lesson", "embed"].join(", ");
            let en = format!(
                "{}; the page's: {page}, with their settings)",
                problem.trim_end_matches(')')
            );
            let zh = format!("{}；页面的键：{page} 及其设置）", zh.trim_end_matches('）'));
            return BadLink::new(e.key(), en, zh);
        }
        BadLink {
            key: e.key().to_string(),
            shown_key: tcplab::scenario::shown(e.key()).into_owned(),
            message: e.to_string(),
            problem,
            problem_zh: zh,
        }
    }

    /// The problem in `lang`.
    pub fn problem_in(&self, lang: Lang) -> &str {
        match lang {
            Lang::Zh => &self.problem_zh,
            Lang::En => &self.problem,
        }
    }
}

/// A page address, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Address {
    /// The link's good scenario keys, over its preset or the defaults.
    pub scenario: Scenario,
    /// What is wrong with its other scenario keys, one entry a bad pair, in the order written.
    pub bad: Vec<BadLink>,
    /// `None` when the address has no `lang=`.
    pub lang: Result<Option<Lang>, BadLink>,
    /// The page's own keys other than `lang`, decoded, as written ([`PAGE_KEYS`]).
    pub page: Vec<(String, String)>,
    /// The lesson the link opens (`lesson=`, `part=`), whose part's scenario the link's
    /// scenario keys change (`None` without one), and what is wrong in its keys.
    pub lesson: (Option<crate::lesson::Opened>, Vec<BadLink>),
}

/// Reads a `location.search` value (with or without its leading `?`).
pub fn parse_search(search: &str) -> Address {
    let (query, mut page) = split_page(search);
    let langs: Vec<String> = page
        .iter()
        .filter(|(k, _)| k == LANG_KEY)
        .map(|(_, v)| v.clone())
        .collect();
    page.retain(|(k, _)| k != LANG_KEY);
    let lesson = crate::lesson::read(&page);
    let read = match &lesson.0 {
        // A lesson's keys change its part's scenario, not the defaults.
        Some(opened) => opened.scenario_with(&query),
        // A link over a trace reads the one this tab holds, if any (`super::link_trace`).
        _ => {
            let held = super::link_trace::held().map(|h| h.trace);
            Scenario::parse_lenient_with_trace(&query, held)
        }
    };
    let bad = read.errors.iter().map(BadLink::from_scenario).collect();
    let lang = match langs.as_slice() {
        [] => Ok(None),
        [one] => Lang::from_code(one).map(Some).ok_or_else(|| {
            BadLink::new(
                LANG_KEY,
                format!("unknown value \"{}\" (allowed en, zh)", shown(one)),
                format!("未知的值 \"{}\"（允许 en、zh）", shown(one)),
            )
        }),
        _ => Err(BadLink::new(
            LANG_KEY,
            "repeated key".to_string(),
            "键重复".to_string(),
        )),
    };
    Address {
        scenario: read.scenario,
        bad,
        lang,
        page,
        lesson,
    }
}

/// Splits the page's own keys (`lang` and [`PAGE_KEYS`]) off a query: the scenario's pairs as
/// written, and the page's pairs, decoded, in order.
pub fn split_page(search: &str) -> (String, Vec<(String, String)>) {
    let query = search.strip_prefix('?').unwrap_or(search);
    let mut kept = Vec::new();
    let mut page = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = decode_component(key);
        if key == LANG_KEY || PAGE_KEYS.contains(&key.as_str()) {
            page.push((key, decode_component(value)));
        } else {
            kept.push(pair);
        }
    }
    (kept.join("&"), page)
}

/// The canonical address of a scenario with the page's keys `page` (written as given, each
/// value percent-encoded where it would split the query), and `lang=` if the language was
/// chosen: a link without it opens in its reader's own language.
pub fn search_with(scenario: &Scenario, page: &[(&str, String)], lang: Option<Lang>) -> String {
    let mut parts = Vec::with_capacity(page.len() + 2);
    let query = scenario.to_query();
    if !query.is_empty() {
        parts.push(query);
    }
    for (key, value) in page {
        parts.push(format!("{key}={}", encode_component(value)));
    }
    if let Some(lang) = lang {
        parts.push(format!("{LANG_KEY}={}", lang.code()));
    }
    if parts.is_empty() {
        return String::new();
    }
    format!("?{}", parts.join("&"))
}

/// The canonical address of a lesson: its keys first (`lesson=`, `part=`), then the changes
/// its link makes to the part's scenario, then the page's keys `page`, and `lang=` if chosen.
pub fn search_lesson(
    first: &[(&str, String)],
    changes: &str,
    page: &[(&str, String)],
    lang: Option<Lang>,
) -> String {
    let mut parts: Vec<String> = first
        .iter()
        .map(|(k, v)| format!("{k}={}", encode_component(v)))
        .collect();
    if !changes.is_empty() {
        parts.push(changes.to_string());
    }
    for (key, value) in page {
        parts.push(format!("{key}={}", encode_component(value)));
    }
    if let Some(lang) = lang {
        parts.push(format!("{LANG_KEY}={}", lang.code()));
    }
    format!("?{}", parts.join("&"))
}

/// Percent-encodes what would end a value early or be read otherwise (`&`, `=`, `%`, `+`, `#`,
/// spaces and anything outside ASCII): a compared scenario's query inside `b=`.
pub fn encode_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            // Quotes and angle brackets too: a value may end up inside an HTML attribute (an
            // embed's `note=` in an `<iframe src>`).
            b'&' | b'=' | b'%' | b'+' | b'#' | b'?' | b'"' | b'\'' | b'<' | b'>' => {
                out.push_str(&format!("%{b:02X}"))
            }
            b if b.is_ascii_graphic() => out.push(b as char),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The canonical address of a scenario, in `lang` if chosen: `?QUERY&lang=xx`, `?lang=xx` for
/// the defaults, or nothing at all.
pub fn search_for(scenario: &Scenario, lang: Option<Lang>) -> String {
    search_with(scenario, &[], lang)
}

/// The scenario's query without the cursor (`at`): what the simulation depends on.
pub fn run_query(scenario: &Scenario) -> String {
    if scenario.at_ms.is_none() {
        return scenario.to_query();
    }
    let mut run = scenario.clone();
    run.at_ms = None;
    run.to_query()
}

/// A value repeated in a message: the scenario's own rule (at most 64 characters, control and
/// format characters escaped), and quotes escaped.
fn shown(s: &str) -> String {
    tcplab::scenario::shown(s).replace('"', "\\\"")
}

/// A value repeated in a message in quotes, by the same rule.
pub fn quoted(s: &str) -> String {
    format!("\"{}\"", shown(s))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tcplab::{CcAlgo, Scenario};

    use crate::i18n::Lang;
    use crate::model::address;

    #[test]
    fn the_address_carries_the_scenario_and_the_language() {
        let a = address::parse_search("");
        assert_eq!((a.scenario, a.bad), (Scenario::default(), vec![]));
        assert_eq!(a.lang, Ok(None));
        // A language not chosen is not written: the link opens in its reader's own.
        assert_eq!(address::search_for(&Scenario::default(), None), "");
        assert_eq!(
            address::search_for(&Scenario::default(), Some(Lang::En)),
            "?lang=en"
        );

        let a = address::parse_search("?rtt=50&lang=zh&loss=1");
        assert_eq!(a.bad, vec![]);
        let s = a.scenario;
        assert_eq!((s.rtt_ms, s.loss_pct), (50.0, 1.0));
        assert_eq!(a.lang, Ok(Some(Lang::Zh)));
        assert_eq!(
            address::search_for(&s, Some(Lang::Zh)),
            "?rtt=50&loss=1&lang=zh"
        );
        assert_eq!(address::search_for(&s, None), "?rtt=50&loss=1");
        // Percent-encoded keys are keys all the same.
        assert_eq!(address::parse_search("?l%61ng=zh").lang, Ok(Some(Lang::Zh)));

        let a = address::parse_search("?rtt=5000");
        let bad = &a.bad[0];
        assert_eq!(bad.key, "rtt");
        assert!(bad.message.contains("0.1 to 2000 ms"), "{}", bad.message);
        assert_eq!(
            bad.problem_in(Lang::Zh),
            "5000 超出范围（允许 0.1 至 2000 ms）"
        );
        let bad = address::parse_search("?lang=fr").lang.expect_err("unknown");
        assert_eq!(bad.key, "lang");
        assert!(bad.message.contains("en, zh"), "{}", bad.message);
        let bad = address::parse_search("?lang=en&lang=zh")
            .lang
            .expect_err("repeated");
        assert!(bad.message.contains("repeated"), "{}", bad.message);
        assert_eq!(bad.problem_in(Lang::Zh), "键重复");

        // Every bad key is named, and the good ones kept.
        let a = address::parse_search("?rtt=abc&bw=20&loss=200&mss=9&cc=bbr");
        let keys: Vec<&str> = a.bad.iter().map(|b| b.key.as_str()).collect();
        assert_eq!(keys, ["rtt", "loss", "mss"]);
        assert_eq!(
            (a.scenario.bw_mbps, a.scenario.cc),
            (20.0, tcplab::CcAlgo::Bbr)
        );
        assert_eq!(a.scenario.rtt_ms, Scenario::default().rtt_ms);

        // A key is repeated back as the scenario's messages repeat it: cut and escaped.
        let long = "k".repeat(100_000);
        let a = address::parse_search(&format!("?{long}=1"));
        let bad = &a.bad[0];
        assert_eq!(bad.key, long);
        assert_eq!(bad.shown_key, format!("{}…", "k".repeat(64)));
        assert!(bad.message.starts_with(&bad.shown_key), "{}", bad.message);
        let a = address::parse_search("?a%0Ab=1");
        assert_eq!(a.bad[0].shown_key, "a\\nb");
        let a = address::parse_search("?language=zh");
        assert!(
            a.bad[0].message.ends_with(
                ", seed, at; the page's: lang, view, lesson, embed, with their settings)"
            ),
            "{}",
            a.bad[0].message
        );
        assert!(
            a.bad[0]
                .problem_in(Lang::Zh)
                .ends_with("页面的键：lang, view, lesson, embed 及其设置）"),
            "{}",
            a.bad[0].problem_in(Lang::Zh)
        );
        let a = address::parse_search("?&&&=&");
        let bad = &a.bad[0];
        assert_eq!((bad.key.as_str(), bad.shown_key.as_str()), ("", ""));
        assert!(
            bad.message.starts_with("\"\": unknown key"),
            "{}",
            bad.message
        );

        let mut s = Scenario::parse("preset=bufferbloat&at=1500").expect("valid");
        assert_eq!(address::run_query(&s), "preset=bufferbloat");
        s.at_ms = None;
        assert_eq!(address::run_query(&s), "preset=bufferbloat");
    }

    #[test]
    fn a_scenario_of_many_keys_comes_back_from_its_address() {
        let written = "?cc=bbr&rtt=80&bw=20&loss=0.5&body=2.5MB&flows=3&seed=9\
                       &view=compare&b=cc%3Dreno%26rtt%3D40&lang=zh";
        let a = address::parse_search(written);
        assert_eq!(a.bad, vec![]);
        assert_eq!(a.lang, Ok(Some(Lang::Zh)));
        let s = &a.scenario;
        assert_eq!(
            (s.cc, s.rtt_ms, s.bw_mbps, s.loss_pct, s.body, s.flows, s.seed),
            (CcAlgo::Bbr, 80.0, 20.0, 0.5, 2_500_000, 3, 9)
        );
        // The page's own keys are split off decoded and in order, `lang` apart.
        let page = [("view", "compare"), ("b", "cc=reno&rtt=40")];
        let read: Vec<(&str, &str)> = a
            .page
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(read, page);

        // Written back, the address reads as the same scenario and keys, and writing that
        // again changes nothing: the canonical form is a fixed point.
        let page: Vec<(&str, String)> = page.iter().map(|(k, v)| (*k, v.to_string())).collect();
        let canonical = address::search_with(&a.scenario, &page, Some(Lang::Zh));
        assert!(canonical.starts_with('?'), "{canonical}");
        assert!(
            canonical.ends_with("&view=compare&b=cc%3Dreno%26rtt%3D40&lang=zh"),
            "the page's keys after the scenario's, `lang` last: {canonical}"
        );
        let b = address::parse_search(&canonical);
        assert_eq!(b, a);
        assert_eq!(
            address::search_with(&b.scenario, &page, Some(Lang::Zh)),
            canonical
        );
        // Without a chosen language and without the page's keys, only the scenario is left.
        assert_eq!(
            address::search_for(&a.scenario, None),
            format!("?{}", a.scenario.to_query())
        );
    }

    #[test]
    fn a_value_inside_a_value_is_percent_encoded() {
        assert_eq!(
            address::encode_component("cc=bbr&rtt=50"),
            "cc%3Dbbr%26rtt%3D50"
        );
        assert_eq!(address::encode_component("1%+#?"), "1%25%2B%23%3F");
        assert_eq!(address::encode_component("a b"), "a%20b");
        assert_eq!(address::encode_component("é"), "%C3%A9");
        assert_eq!(address::encode_component("0.1,1"), "0.1,1");
        // Split back off a query, it is decoded; the scenario's pairs stay as written.
        let (query, page) = address::split_page("?rtt=5%30&b=cc%3Dbbr%26rtt%3D50&lang=en");
        assert_eq!(query, "rtt=5%30");
        assert_eq!(
            page,
            [
                ("b".to_string(), "cc=bbr&rtt=50".to_string()),
                ("lang".to_string(), "en".to_string())
            ]
        );
        assert_eq!(address::quoted("say \"hi\""), "\"say \\\"hi\\\"\"");
    }
}
