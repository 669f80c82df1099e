//! The URL is the state: the scenario lives in the query string, read and written only through
//! `tcplab`'s parser and printer.

use tcplab::Scenario;
use wasm_bindgen::JsValue;

/// How a new scenario enters the browser's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A new step that Back returns from.
    Push,
    /// The same step, refined (a slider still being dragged).
    Replace,
}

/// The scenario in the page's current query string, or the message that names what is wrong.
pub fn read() -> Result<Scenario, String> {
    let search = web_sys::window()
        .ok_or("no window")?
        .location()
        .search()
        .map_err(describe)?;
    parse_search(&search)
}

/// Parses a `location.search` value (with or without its leading `?`).
pub fn parse_search(search: &str) -> Result<Scenario, String> {
    let query = search.strip_prefix('?').unwrap_or(search);
    Scenario::parse(query).map_err(|e| e.to_string())
}

/// The address for `scenario`: the canonical query, nothing when every key is at its default.
pub fn search_for(scenario: &Scenario) -> String {
    let query = scenario.to_query();
    if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    }
}

/// Puts `scenario` in the address bar without reloading the page.
pub fn write(scenario: &Scenario, entry: Entry) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let location = window.location();
    let url = format!(
        "{}{}{}",
        location.pathname().map_err(describe)?,
        search_for(scenario),
        location.hash().map_err(describe)?
    );
    let history = window.history().map_err(describe)?;
    match entry {
        Entry::Push => history.push_state_with_url(&JsValue::NULL, "", Some(&url)),
        Entry::Replace => history.replace_state_with_url(&JsValue::NULL, "", Some(&url)),
    }
    .map_err(describe)
}

fn describe(e: JsValue) -> String {
    e.as_string().unwrap_or_else(|| format!("{e:?}"))
}
