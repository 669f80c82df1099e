//! The Mahimahi trace the page holds (`link=trace`): a file the reader picked or dropped, which
//! no link can carry. The page keeps one at a time, for this tab; the address says
//! `link=trace`, and the workers are sent the trace's text with each request that asks for it.
//! A reloaded or shared link without the file says so and runs the rest of its scenario.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use tcplab::capture::said::Said;
use tcplab::link::opportunity::LinkTrace;
use tcplab::player::Language;

/// The largest trace file the page reads (a day of an LTE trace is a few MB).
pub const MAX_TRACE_BYTES: f64 = 64.0 * 1024.0 * 1024.0;

/// A trace read from a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Held {
    pub name: String,
    pub text: Rc<str>,
    pub trace: Arc<LinkTrace>,
}

thread_local! {
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// Reads `text` as a Mahimahi trace and holds it; the message names the file and the line, in
/// English and in Chinese.
pub fn hold(name: &str, text: &str) -> Result<Held, Said> {
    let trace = LinkTrace::parse(text).map_err(|e| {
        Said::new(
            format!("{name}: {}", e.say(Language::En)),
            format!("{name}：{}", e.say(Language::Zh)),
        )
    })?;
    let held = Held {
        name: name.to_string(),
        text: Rc::from(text),
        trace: Arc::new(trace),
    };
    HELD.with(|h| *h.borrow_mut() = Some(held.clone()));
    Ok(held)
}

/// The trace held, if any.
pub fn held() -> Option<Held> {
    HELD.with(|h| h.borrow().clone())
}

/// A run's scenario read back from its canonical `query`; a run over a trace reads the one the
/// tab holds.
pub fn scenario_of(query: &str) -> Option<tcplab::Scenario> {
    let read = tcplab::Scenario::parse_lenient_with_trace(query, held().map(|h| h.trace));
    read.errors.is_empty().then_some(read.scenario)
}

/// The trace to send with a request for `query`: the held one's text, where the query's link
/// is a trace.
pub fn for_query(query: &str) -> Option<String> {
    asks_for_trace(query)
        .then(|| held().map(|h| h.text.to_string()))
        .flatten()
}

/// Whether a query's link is a trace (`link=trace`).
pub fn asks_for_trace(query: &str) -> bool {
    query
        .strip_prefix('?')
        .unwrap_or(query)
        .split('&')
        .any(|p| p == "link=trace")
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_trace_is_held_and_sent_where_the_link_asks_for_it() {
        assert_eq!(
            hold("bad.txt", "1\nx\n").err(),
            Some(Said::new(
                "bad.txt: line 2: x is not a whole number of milliseconds",
                "bad.txt：第 2 行：x 不是整数毫秒"
            ))
        );
        let h = hold("lte.up", "1\n2\n3\n").expect("a trace");
        assert_eq!((h.name.as_str(), h.trace.opportunities()), ("lte.up", 3));
        assert_eq!(for_query("rtt=20&link=trace").as_deref(), Some("1\n2\n3\n"));
        assert_eq!(for_query("?link=trace"), Some("1\n2\n3\n".to_string()));
        assert_eq!(for_query("rtt=20&link=lte"), None);
        assert!(!asks_for_trace("link=tracer"));
        // The tab's trace is the thread's: in the browser every test runs on the one thread, and
        // a trace left held would answer another test's `link=trace` without its file.
        HELD.with(|h| *h.borrow_mut() = None);
        assert_eq!(for_query("link=trace"), None);
    }
}
