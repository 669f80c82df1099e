//! Hostile links: numbers past any range or past `f64`, signs, `NaN` and `inf`, text that is
//! not ASCII or not UTF-8, a 100 KB query, a repeated key, an unknown preset, 100 000 `drop`
//! entries, empty values and empty keys. Each must get a banner that names the key (and its
//! range, where docs/scenario.md gives one) in the scenario's own words, ignore it (these links
//! have no other key, so the defaults run), leave
//! the link in the address bar, log no error, and leave a page whose sliders still work and
//! whose banner goes once a slider has moved.
//! Screenshots of each go to `target/e2e/hostile-*.png`.

use std::time::{Duration, Instant};

use tcplab::Scenario;
use tcplab_e2e::{assert_cards_match_runner, with_lab, Lab, RUN_TIMEOUT};

const SETTLE: Duration = Duration::from_secs(5);

/// How long a hostile link may take from the address to its banner and first run drawn. A
/// page that chokes on a long input (say, quadratic in 100 000 entries) takes far longer.
const ANSWERED_WITHIN: Duration = Duration::from_secs(10);

/// One hostile link.
struct Case {
    /// A name for the screenshot and for messages.
    name: &'static str,
    /// The query as the link writes it, without `?` and `lang=`.
    query: String,
    /// The key the banner names, as it shows it (empty: the banner says the key is empty).
    key: String,
    /// What the banner must say besides: the range, where the key has one.
    says: &'static [&'static str],
}

fn case(name: &'static str, query: &str, key: &str, says: &'static [&'static str]) -> Case {
    Case {
        name,
        query: query.to_string(),
        key: key.to_string(),
        says,
    }
}

/// `query` as Chromium puts it in `location.search`: bytes outside printable ASCII
/// percent-encoded, anything already encoded (`%ff`) left alone.
fn as_the_browser_writes(query: &str) -> String {
    let mut out = String::new();
    for b in query.bytes() {
        if b.is_ascii_graphic() {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The banner's sentence, as the page writes it for the scenario parser's error on `query`:
/// the key as the parser's own message shows it (cut, escaped), then the problem.
fn expected_banner(query: &str) -> String {
    let e = Scenario::parse(query).expect_err("a hostile link is refused");
    let parsed = e.problem().to_string();
    // The page names its own keys beside the scenario's (`web/src/model/address.rs`).
    let problem = match e.problem() {
        tcplab::scenario::Problem::UnknownKey => format!(
            "{}; the page's: lang, view, lesson, embed, with their settings)",
            parsed.trim_end_matches(')')
        ),
        _ => parsed.clone(),
    };
    if e.key().is_empty() {
        return format!(
            "This link has an empty key: {problem}. It is ignored; the rest of the link is shown as written."
        );
    }
    let message = e.to_string();
    let key = message
        .strip_suffix(parsed.as_str())
        .and_then(|k| k.strip_suffix(": "))
        .unwrap_or_else(|| panic!("{message:?} is not `key: problem`"));
    format!(
        "This link's key {key} is not valid: {problem}. It is ignored; the rest of the link is shown as written."
    )
}

/// The chart canvases with something drawn on them: more than one colour among a grid of
/// their pixels.
async fn painted_canvases(lab: &Lab) -> usize {
    lab.eval_string(
        "let painted = 0;
         for (const c of document.querySelectorAll('.charts canvas.chart-base')) {
             if (!c.width || !c.height) continue;
             const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
             const seen = new Set();
             const stride = 4 * 7;
             for (let i = 0; i < d.length && seen.size < 2; i += stride)
                 seen.add((d[i] << 24 | d[i + 1] << 16 | d[i + 2] << 8 | d[i + 3]) >>> 0);
             if (seen.size > 1) painted += 1;
         }
         return String(painted);",
    )
    .await
    .parse()
    .unwrap_or(0)
}

/// Opens `c`'s link and holds the page to everything a hostile link must get, then moves the
/// RTT slider and checks that the page still follows it.
async fn assert_refused(lab: &Lab, c: &Case) {
    let link = format!("?{}&lang=en", c.query);
    let started = Instant::now();
    lab.open(&link).await;
    let took = started.elapsed();
    assert!(
        took < ANSWERED_WITHIN,
        "{}: the page took {took:?} to answer",
        c.name
    );

    let banner = lab
        .eval_string(
            "const p = document.querySelector('#banner p'); return p ? p.textContent : '';",
        )
        .await;
    assert_eq!(banner, expected_banner(&c.query), "{}: the banner", c.name);
    let key = lab
        .eval_string(
            "const c = document.querySelector('#banner code'); return c ? c.textContent : '';",
        )
        .await;
    assert_eq!(key, c.key, "{}: the key the banner names", c.name);
    for s in c.says {
        assert!(
            banner.contains(s),
            "{}: {banner:?} does not say {s:?}",
            c.name
        );
    }
    // A banner is a line or two a person reads, whatever the link's size: the longest is an
    // unknown key's, cut at 64 characters, with the list of the keys there are (41 names and
    // patterns, and the page's four: 512 characters in all with the 64-character key).
    assert!(
        banner.chars().count() < 540,
        "{}: a banner of {} characters",
        c.name,
        banner.chars().count()
    );
    assert_eq!(
        lab.search().await,
        as_the_browser_writes(&link),
        "{}: the bad link stays in the address bar",
        c.name
    );

    // The bad key is ignored and the rest runs: the preset's or the default value, a repeated
    // key's too.
    let kept = Scenario::parse_lenient(&c.query).scenario.to_query();
    assert_eq!(
        lab.shown_query().await,
        kept,
        "{}: the good keys run",
        c.name
    );
    assert_eq!(lab.run_state().await, "done", "{}", c.name);
    assert_cards_match_runner(lab, &kept).await;
    assert!(
        painted_canvases(lab).await > 0,
        "{}: no chart was drawn",
        c.name
    );
    lab.screenshot(&format!("hostile-{}", c.name)).await;

    let logged = lab.console().await;
    let errors: Vec<&String> = logged.iter().filter(|l| l.starts_with("SEVERE")).collect();
    assert!(
        errors.is_empty(),
        "{}: the browser logged {errors:#?}",
        c.name
    );

    assert_still_works(lab, c.name).await;
}

/// A slider moved after the bad link writes a good address, and its run is shown; the banner,
/// which said the defaults were shown instead, is gone.
async fn assert_still_works(lab: &Lab, name: &str) {
    lab.slide_to_share("rtt", 0.6).await;
    let moved = lab
        .wait_for_search(SETTLE, |s| s.starts_with("?rtt="))
        .await;
    assert!(
        moved,
        "{name}: the slider did not move the address: {}",
        lab.search().await
    );
    assert_eq!(
        lab.text_of("banner").await,
        "",
        "{name}: the banner stayed once the RTT was the user's"
    );
    let rtt = lab.value_of("rtt-number").await;
    assert_ne!(rtt, "28", "{name}: the RTT did not change");
    assert_eq!(lab.search().await, format!("?rtt={rtt}&lang=en"), "{name}");
    lab.wait_for_run(RUN_TIMEOUT).await;
    assert_eq!(lab.shown_query().await, format!("rtt={rtt}"), "{name}");
    assert_cards_match_runner(lab, &format!("rtt={rtt}")).await;
}

async fn assert_all_refused(cases: Vec<Case>) {
    with_lab(|lab| async move {
        let lab = &*lab;
        for c in &cases {
            assert_refused(lab, c).await;
        }
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn numbers_past_the_range_or_past_f64_name_the_range() {
    let beyond_f64 = format!("1{}", "0".repeat(309));
    assert_all_refused(vec![
        case(
            "exponent",
            "rtt=1e300",
            "rtt",
            &[
                "\"1e300\" has an exponent: write the number in full digits",
                "0.1 to 2000 ms",
            ],
        ),
        case(
            "huge-body",
            "body=99999999999999999999999",
            "body",
            &["is out of range", "1 to 10000000000 bytes"],
        ),
        case(
            "negative",
            "loss=-1",
            "loss",
            &["-1", "is out of range", "0 to 50%"],
        ),
        case(
            "nan",
            "rtt=NaN",
            "rtt",
            &["\"NaN\" is not a number", "0.1 to 2000 ms"],
        ),
        case(
            "inf",
            "bw=inf",
            "bw",
            &["\"inf\" is not a number", "0.01 to 100000"],
        ),
        case(
            "past-f64-exponent",
            "rtt=1e309",
            "rtt",
            &[
                "\"1e309\" has an exponent: write the number in full digits",
                "0.1 to 2000 ms",
            ],
        ),
        // 310 digits read as infinite: refused by the range, the number cut short in the banner.
        case(
            "past-f64-digits",
            &format!("rtt={beyond_f64}"),
            "rtt",
            &["is out of range", "…", "0.1 to 2000 ms"],
        ),
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_that_is_not_ascii_or_not_utf8_is_named() {
    assert_all_refused(vec![
        case(
            "unicode-value",
            "rtt=三十",
            "rtt",
            &["\"三十\" is not a number", "0.1 to 2000 ms"],
        ),
        case(
            "encoded-unicode-value",
            "rtt=%E4%B8%89%E5%8D%81",
            "rtt",
            &["\"三十\" is not a number", "0.1 to 2000 ms"],
        ),
        case(
            "unicode-key",
            "ρtt=30",
            "ρtt",
            &["unknown key", "known keys: preset, cc, rtt"],
        ),
        case(
            "encoded-unicode-key",
            "%CF%81tt=30",
            "ρtt",
            &["unknown key", "known keys: preset, cc, rtt"],
        ),
        // Bytes that are not UTF-8 read as U+FFFD, one each.
        case(
            "invalid-utf8-value",
            "rtt=%ff%fe",
            "rtt",
            &["\"\u{FFFD}\u{FFFD}\" is not a number", "0.1 to 2000 ms"],
        ),
        case(
            "invalid-utf8-key",
            "%ff%fe=1",
            "\u{FFFD}\u{FFFD}",
            &["unknown key"],
        ),
        // A `%` without two hex digits after it is a `%`.
        case(
            "broken-escape",
            "loss=%zz",
            "loss",
            &["\"%zz\" is not a number", "0 to 50%"],
        ),
        // A right-to-left override would make the lab's own sentence read backwards ("This link
        // is valid, run it at example.com"): it is shown escaped, and the value is isolated.
        case(
            "bidi-override",
            "cc=%E2%80%AEmoc.elpmaxe",
            "cc",
            &["unknown value \"\\u{202e}moc.elpmaxe\""],
        ),
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hundred_kilobytes_and_a_hundred_thousand_drops_are_refused_at_once() {
    let drops: Vec<String> = (1..=100_000).map(|n| n.to_string()).collect();
    let long_key = "k".repeat(100_000);
    assert_all_refused(vec![
        case(
            "long-value",
            &format!("rtt={}", "9".repeat(100_000)),
            "rtt",
            &["is too long", "0.1 to 2000 ms"],
        ),
        case(
            "long-key",
            &format!("{long_key}=1"),
            &format!("{}…", "k".repeat(64)),
            &["unknown key"],
        ),
        case(
            "many-drops",
            &format!("drop={}", drops.join(",")),
            "drop",
            &["100000 entries", "up to 1000"],
        ),
    ])
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_empty_and_unknown_are_named() {
    assert_all_refused(vec![
        // docs/scenario.md: a key given twice is an error, not "the last one wins".
        case("repeated", "rtt=10&rtt=20", "rtt", &["repeated key"]),
        case(
            "unknown-preset",
            "preset=nope",
            "preset",
            &["unknown preset \"nope\"", "post-slow-start", "bufferbloat"],
        ),
        case(
            "empty-value",
            "rtt=",
            "rtt",
            &["empty value", "0.1 to 2000 ms"],
        ),
        // Empty pairs are nothing; `=` alone is a pair with an empty key, which has no name
        // to show.
        case(
            "empty-key",
            "&&&=&",
            "",
            &["unknown key", "known keys: preset, cc, rtt"],
        ),
    ])
    .await;
}
