//! The page's code in a real browser (headless Chromium through wasm-bindgen-test-runner):
//! formatting, the sliders' scales, the address, the state's changes, the worker's answers and
//! the verdict's words, and the mounted app reacting to input.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;
use std::time::Duration;

use tcplab::scenario::{Key, PRESETS};
use tcplab::view::RunView;
use tcplab::Scenario;
use tcplab_web::i18n::Lang;
use tcplab_web::model::address::{self, Entry};
use tcplab_web::model::format;
use tcplab_web::model::knobs::{self, decimal, KNOBS};
use tcplab_web::model::page::{Action, Page};
use tcplab_web::model::scale::{significant, Slider};
use tcplab_web::model::views::View;
use tcplab_web::player::Action as PlayerAction;
use tcplab_web::worker::protocol::{answer, Reply, Request};
use tcplab_web::worker::Outcome;
use tcplab_web::{verdict, App};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlInputElement;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

/// Whether `cond` holds within two seconds, looked at every 10 ms.
async fn eventually(cond: impl Fn() -> bool) -> bool {
    for _ in 0..200 {
        if cond() {
            return true;
        }
        yew::platform::time::sleep(Duration::from_millis(10)).await;
    }
    cond()
}

#[wasm_bindgen_test]
fn numbers_read_as_people_write_them() {
    assert_eq!(format::count(0), "0");
    assert_eq!(format::count(1713), "1,713");
    assert_eq!(format::count(2_500_000), "2,500,000");
    assert_eq!(format::si(1000.0), "1k");
    assert_eq!(format::bytes(2_500_000), "2.5 MB");
    assert_eq!(format::bytes(999), "999 B");
    assert_eq!(format::millis(224.0), "224 ms");
    assert_eq!(format::number(11.601129627050227, 3), "11.6");
    assert_eq!(format::number(0.00997340344895887, 3), "0.00997");
    assert_eq!(format::number(113.49415333511713, 3), "113");
    assert_eq!(format::number(1_162_631.0, 3), "1,162,631");
    assert_eq!(format::number(0.0, 3), "0");
    assert_eq!(format::number(f64::NAN, 3), "—");
    assert_eq!(
        format::mbytes_per_s(tcplab::rate::MBytePerS(11.601129627050227)),
        "11.6 MB/s"
    );
    assert_eq!(
        format::bits_per_s(tcplab::rate::MBytePerS(11.601129627050227)),
        "92.8 Mbit/s"
    );
    assert_eq!(
        format::bits_per_s(tcplab::rate::MBytePerS(125.0)),
        "1 Gbit/s"
    );
    assert_eq!(
        format::bits_per_s(tcplab::rate::MBytePerS(0.01)),
        "80 kbit/s"
    );
    assert_eq!(format::duration(243.496736), "243.5 ms");
    assert_eq!(format::duration(1250.0), "1.25 s");
    assert_eq!(format::duration(30_000.0), "30 s");
    // Every number on an axis or in a readout keeps its digits grouped.
    assert_eq!(format::grouped("-12345.5"), "-12,345.5");
    assert_eq!(format::grouped("999"), "999");
    assert_eq!(tcplab_web::charts::fmt::trim(10_000_000.0, 0), "10,000,000");
    assert_eq!(tcplab_web::charts::fmt::trim(-1234.50, 2), "-1,234.5");
    // A span's ends, told apart: as many decimals as its width needs.
    let span = |a, b| format::span(a, b);
    assert_eq!(
        span(129_174.5, 129_874.2),
        ("129.17 s".into(), "129.87 s".into())
    );
    assert_eq!(span(0.0, 705.3), ("0 ms".into(), "705 ms".into()));
    assert_eq!(span(2_400.0, 8_100.0), ("2.4 s".into(), "8.1 s".into()));
    assert_eq!(span(0.0, 12.25), ("0 ms".into(), "12 ms".into()));
    assert_eq!(span(3.0, 3.25), ("3 ms".into(), "3.25 ms".into()));
    assert_eq!(
        span(1_000_000.0, 1_600_000.0),
        ("1,000 s".into(), "1,600 s".into())
    );
    assert_eq!(format::buffer(4_194_304), "4 MiB");
    assert_eq!(format::buffer(65_536), "64 KiB");
    assert_eq!(format::buffer(1 << 30), "1 GiB");
    assert_eq!(format::buffer(100_000), "100 kB");
    assert_eq!(format::percent(0.0), "0 %");
    assert_eq!(format::percent(1.23456), "1.23 %");
}

#[wasm_bindgen_test]
fn log_sliders_span_their_range_and_write_round_values() {
    let rtt = Slider::log(0.1, 2000.0, false);
    assert_eq!(rtt.value_at(0), 0.1);
    assert_eq!(rtt.value_at(rtt.steps()), 2000.0);
    for p in 0..=rtt.steps() {
        let v = rtt.value_at(p);
        assert!((0.1..=2000.0).contains(&v), "{p}: {v}");
        // Three significant digits, printed without noise.
        assert!(decimal(v).len() <= 6, "{p}: {}", decimal(v));
        // The thumb lands back where it was.
        assert!(rtt.position_of(v).abs_diff(p) <= 1, "{p}: {v}");
    }
    // Values are monotonic.
    for p in 1..=rtt.steps() {
        assert!(rtt.value_at(p) >= rtt.value_at(p - 1));
    }
    assert_eq!(rtt.position_of(1e9), rtt.steps());
    assert_eq!(rtt.position_of(-1.0), 0);
    assert_eq!(rtt.position_of(f64::NAN), 0);
    assert_eq!(significant(28.347, 3), 28.3);
    assert_eq!(significant(2_449_999.0, 3), 2_450_000.0);
    assert_eq!(decimal(significant(0.028347, 3)), "0.0283");
}

#[wasm_bindgen_test]
fn arrow_keys_move_whole_numbers_by_at_least_one() {
    let iw = Slider::log(1.0, 1000.0, true);
    assert_eq!(iw.step(10.0, true, false), 11.0);
    assert_eq!(iw.step(10.0, false, false), 9.0);
    assert_eq!(iw.step(1.0, false, false), 1.0);
    assert_eq!(iw.step(1000.0, true, false), 1000.0);
    assert!(iw.step(10.0, true, true) > 11.0, "Page Up jumps further");
    // Off-grid values step to the next grid value.
    let rtt = Slider::log(0.1, 2000.0, false);
    let up = rtt.step(28.0, true, false);
    assert!(up > 28.0 && up < 29.0, "{up}");
    let flows = Slider::linear(1.0, 64.0, 1.0, true);
    assert_eq!(flows.steps(), 63);
    assert_eq!(flows.step(8.0, true, false), 9.0);
}

#[wasm_bindgen_test]
fn loss_sliders_stop_at_zero() {
    let loss = Slider::log_zero(knobs::LOSS_LOW, 50.0);
    assert_eq!(loss.value_at(0), 0.0);
    assert_eq!(loss.value_at(1), knobs::LOSS_LOW);
    assert_eq!(loss.value_at(loss.steps()), 50.0);
    assert_eq!(loss.position_of(0.0), 0);
    assert_eq!(loss.step(0.0, true, false), knobs::LOSS_LOW);
    assert_eq!(loss.step(knobs::LOSS_LOW, false, false), 0.0);
    let one = loss.position_of(1.0);
    assert!((loss.value_at(one) - 1.0).abs() < 0.02);
}

#[wasm_bindgen_test]
fn every_slider_writes_values_the_scenario_accepts() {
    let s = Scenario::default();
    for knob in KNOBS {
        let Some(slider) = knobs::slider(knob.key, &s) else {
            continue;
        };
        for p in (0..=slider.steps()).step_by(7).chain([slider.steps()]) {
            let mut t = s.clone();
            let v = decimal(slider.value_at(p));
            assert!(
                t.set(knob.key, &v).is_ok(),
                "{} = {v} (position {p}) is refused",
                knob.key
            );
        }
        // The number box shows what the link says.
        let shown = knobs::text(knob.key, &s);
        let mut t = s.clone();
        assert!(t.set(knob.key, &shown).is_ok(), "{}", knob.key);
        assert_eq!(t, s, "{}", knob.key);
    }
}

#[wasm_bindgen_test]
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

#[wasm_bindgen_test]
fn the_browser_language_picks_the_default() {
    assert_eq!(Lang::from_browser(&["zh-CN", "en-US"]), Lang::Zh);
    assert_eq!(Lang::from_browser(&["de-DE", "zh_TW"]), Lang::Zh);
    assert_eq!(Lang::from_browser(&["en-GB", "zh-CN"]), Lang::En);
    assert_eq!(Lang::from_browser(&["fr"]), Lang::En);
    assert_eq!(Lang::from_browser::<&str>(&[]), Lang::En);
}

fn page(search: &str) -> Page {
    Page::new(address::parse_search(search), Lang::En, false)
}

#[wasm_bindgen_test]
fn the_controls_edit_the_compared_scenario_chosen() {
    let p = page("?rtt=28")
        .apply(Action::Show(View::Compare))
        .apply(Action::Others(vec![Scenario::default()], 1));
    let (own, revision) = (p.scenario.clone(), p.revision);
    let p = p.apply(Action::Set {
        key: Key::Rtt,
        value: "50".to_string(),
        entry: Entry::Refine,
    });
    assert_eq!(p.keys.others[0].rtt_ms, 50.0);
    assert_eq!(p.scenario, own, "the page's own scenario is left as it is");
    assert_eq!((p.revision, p.entry), (revision + 1, Some(Entry::Refine)));
    let p = p.apply(Action::Set {
        key: Key::Rtt,
        value: "5000".to_string(),
        entry: Entry::Push,
    });
    assert_eq!(
        p.keys.others[0].rtt_ms, 50.0,
        "a refused value changes nothing"
    );
    assert_eq!(p.revision, revision + 1);
    assert!(p.field_error.is_some());

    let preset = Scenario::parse(PRESETS[0].query).expect("a preset");
    let p = p.apply(Action::Load(preset.clone()));
    assert_eq!((&p.keys.others[0], &p.scenario), (&preset, &own));
    assert_eq!((p.revision, p.entry), (revision + 2, Some(Entry::Push)));
    assert!(p.field_error.is_none());

    // Back on the page's own scenario, the controls edit it.
    let p = p.apply(Action::Slot(0)).apply(Action::Set {
        key: Key::Rtt,
        value: "70".to_string(),
        entry: Entry::Push,
    });
    assert_eq!(
        (p.scenario.rtt_ms, p.keys.others[0].rtt_ms),
        (70.0, preset.rtt_ms)
    );
}

#[wasm_bindgen_test]
fn the_state_changes_through_the_scenarios_rules() {
    let p = page("?iw=20");
    assert_eq!(p.scenario.iw, 20);
    assert_eq!(
        p.entry,
        Some(Entry::Replace),
        "a good link is canonicalised"
    );
    assert_eq!(
        p.search(),
        "?iw=20",
        "no language written that was not chosen"
    );

    let set = |p: Page, key: Key, value: &str| {
        p.apply(Action::Set {
            key,
            value: value.to_string(),
            entry: Entry::Push,
        })
    };
    let p = set(p, Key::Rtt, "50ms");
    assert_eq!(p.scenario.rtt_ms, 50.0);
    assert_eq!(p.entry, Some(Entry::Push));
    let revision = p.revision;

    let p = set(p, Key::Rtt, "5000");
    assert_eq!(p.scenario.rtt_ms, 50.0, "a refused value changes nothing");
    assert_eq!(p.revision, revision);
    let error = p.field_error.clone().expect("the refusal is shown");
    assert_eq!(error.control, Key::Rtt);
    assert!(error.message.contains("0.1 to 2000"), "{}", error.message);

    // mss up to where rwnd no longer holds two segments: the message names rwnd.
    let p = set(p, Key::Rwnd, "100000");
    let p = set(p, Key::Mss, "65000");
    let error = p.field_error.clone().expect("refused");
    assert_eq!(error.control, Key::Mss);
    assert!(error.message.starts_with("rwnd"), "{}", error.message);

    // The cursor follows a shorter duration.
    let p = set(p, Key::At, "5000");
    assert_eq!(p.scenario.at_ms, Some(5000.0));
    let p = set(p, Key::Dur, "2");
    assert_eq!(p.scenario.dur_s, 2.0);
    assert_eq!(p.scenario.at_ms, None);

    // A bad address names the key; its good keys are shown and the bad one is ignored.
    let p = p.apply(Action::Arrive(address::parse_search("?loss=99&dur=3")));
    assert_eq!(p.scenario.dur_s, 3.0);
    assert_eq!(p.scenario.loss_pct, Scenario::default().loss_pct);
    let keys: Vec<&str> = p.banner.iter().map(|b| b.key.as_str()).collect();
    assert_eq!(keys, ["loss"]);
    assert_eq!(p.entry, None, "a bad address is left as written");

    let fresh = page("?loss=99");
    assert_eq!(fresh.scenario, Scenario::default());

    let p = p.apply(Action::Lang(Lang::Zh));
    assert_eq!(p.lang, Lang::Zh);
    assert_eq!(p.entry, Some(Entry::Push));
    assert!(p.search().ends_with("&lang=zh"), "chosen, so written");
}

#[wasm_bindgen_test]
fn a_bad_links_banner_lasts_until_the_user_changes_the_scenario() {
    let set = |p: Page, key: Key, value: &str| {
        p.apply(Action::Set {
            key,
            value: value.to_string(),
            entry: Entry::Refine,
        })
    };
    let bad = page("?rtt=abc&lang=en");
    assert_eq!(bad.banner.first().map(|b| b.key.as_str()), Some("rtt"));

    // What leaves the defaults on show leaves the banner that says so.
    let p = set(bad.clone(), Key::Rtt, "28");
    assert!(!p.banner.is_empty(), "the value it already had");
    let p = set(p, Key::Rtt, "5000");
    assert!(p.field_error.is_some());
    assert!(!p.banner.is_empty(), "a refused value");
    let p = p.apply(Action::Lang(Lang::Zh));
    assert!(
        !p.banner.is_empty(),
        "the language: the banner is read in it"
    );
    let p = p
        .apply(Action::Show(View::Sweep))
        .apply(Action::Show(View::Lab));
    assert!(!p.banner.is_empty(), "another view of the same scenario");
    let p = p
        .apply(Action::Hover(Some(10.0)))
        .apply(Action::Large(true));
    assert!(!p.banner.is_empty());
    let p = p.apply(Action::Ran {
        query: String::new(),
        outcome: Outcome::View(Rc::new(run_view(""))),
    });
    assert!(!p.banner.is_empty(), "the defaults' run coming back");

    // The scenario on show is the user's: the banner's "instead" no longer holds.
    let p = set(p, Key::Rtt, "50");
    assert_eq!(p.scenario.rtt_ms, 50.0);
    assert_eq!(p.banner, vec![], "a slider moved");
    let preset = PRESETS.first().expect("a preset");
    let p = bad
        .clone()
        .apply(Action::Load(preset.scenario().expect("a valid preset")));
    assert_eq!(p.banner, vec![], "a preset");
    let p = bad.clone().apply(Action::Player(PlayerAction::Open));
    assert_eq!(p.scenario.at_ms, Some(0.0));
    assert_eq!(p.banner, vec![], "the player's cursor");
    let p = bad.apply(Action::Arrive(address::parse_search("?rtt=40&lang=en")));
    assert_eq!(p.banner, vec![], "Back or Forward to a good address");

    // A bad sweep setting goes when the sweep is set.
    let p = page("?view=sweep&key=mtu&lang=en");
    assert_eq!(p.banner.first().map(|b| b.key.as_str()), Some("key"));
    let mut spec = p.keys.sweep.clone();
    spec.axis.values.truncate(1);
    assert_ne!(spec, p.keys.sweep);
    let p = p.apply(Action::Sweep(spec));
    assert_eq!(p.banner, vec![]);
}

#[wasm_bindgen_test]
fn a_run_is_shown_only_for_its_scenario() {
    let p = page("");
    assert!(p.running());
    let view = run_view("");
    let p = p.apply(Action::Ran {
        query: String::new(),
        outcome: Outcome::View(Rc::new(view)),
    });
    assert!(!p.running());
    let p = p.apply(Action::Set {
        key: Key::Iw,
        value: "20".into(),
        entry: Entry::Push,
    });
    assert!(p.running(), "the view is for IW 10");
    assert!(p.view.is_some(), "and stays on show meanwhile");
    let p = p.apply(Action::Ran {
        query: "iw=20".into(),
        outcome: Outcome::Error("boom".into()),
    });
    assert!(!p.running());
    assert_eq!(p.current_failure(), Some("boom"));
}

fn run_view(query: &str) -> RunView {
    let request = serde_json::to_string(&Request {
        id: 7,
        query: query.to_string(),
        want: Default::default(),
    })
    .expect("a request");
    let reply: Reply = serde_json::from_str(&answer(&request, || 0.0)).expect("a reply");
    assert_eq!(reply.id, Some(7));
    reply.view.expect("a view")
}

#[wasm_bindgen_test]
fn the_worker_answers_as_the_runner_would() {
    let view = run_view("");
    let direct = tcplab::run(&Scenario::default(), &tcplab::RunOptions::default());
    assert_eq!(view.summary.goodput_MBps, direct.summary.goodput_MBps);
    assert_eq!(view.summary.events, direct.summary.events);
    assert_eq!(view.query, "");

    let reply: Reply =
        serde_json::from_str(&answer(r#"{"id":3,"query":"rtt=0"}"#, || 0.0)).expect("a reply");
    assert_eq!(reply.id, Some(3));
    assert!(reply.error.expect("an error").starts_with("rtt:"));

    let reply: Reply = serde_json::from_str(&answer("not json", || 0.0)).expect("a reply");
    assert_eq!(reply.id, None);
    assert!(reply.error.is_some());
}

#[wasm_bindgen_test]
fn every_preset_gets_a_verdict_in_both_languages() {
    for p in PRESETS {
        if p.name == "random-loss-bbr" || p.name == "multi-flow" {
            // Long runs: the end-to-end tests cover them.
            continue;
        }
        let view = run_view(&format!("preset={}", p.name));
        for lang in Lang::ALL {
            let title = verdict::title(lang, view.verdict.limit);
            let detail = verdict::detail(lang, &view);
            assert!(
                !title.is_empty() && detail.len() > 20,
                "{}: {detail}",
                p.name
            );
            assert!(
                !detail.contains("NaN") && !detail.contains("inf"),
                "{detail}"
            );
        }
    }
}

#[wasm_bindgen_test]
async fn the_app_follows_its_controls() {
    let doc = document();
    let root = doc.create_element("div").expect("a root element");
    doc.body()
        .expect("a body")
        .append_child(&root)
        .expect("mount");
    let address = web_sys::window()
        .expect("a window")
        .location()
        .href()
        .expect("href");
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    yew::platform::time::sleep(Duration::from_millis(50)).await;

    let find = |id: &str| {
        root.query_selector(&format!("#{id}"))
            .expect("a selector")
            .unwrap_or_else(|| panic!("#{id} is on the page"))
    };
    let input = |id: &str| -> HtmlInputElement { find(id).dyn_into().expect("an input") };
    let search = || {
        web_sys::window()
            .expect("a window")
            .location()
            .search()
            .expect("search")
    };
    let history = || {
        web_sys::window()
            .expect("a window")
            .history()
            .expect("history")
    };
    let changed = |e: &web_sys::EventTarget| {
        e.dispatch_event(&web_sys::Event::new("change").expect("a change event"))
            .expect("dispatch change")
    };
    // Every control of the default workload is there.
    for key in [
        "rtt", "bw", "queue", "loss", "ackloss", "burst", "drop", "iw", "mss", "rwnd", "sack",
        "hystart", "delack", "minrto", "body", "flows", "dur", "seed",
    ] {
        find(key);
    }
    assert_eq!(input("rtt-number").value(), "28");

    let slider = input("rtt");
    let position = slider.value();
    slider.set_value(&(position.parse::<u32>().expect("a position") + 100).to_string());
    let event = web_sys::InputEvent::new("input").expect("an input event");
    slider.dispatch_event(&event).expect("dispatch input");
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    let rtt = input("rtt-number").value();
    assert_ne!(rtt, "28");
    // The address follows at the page's next render, which a loaded machine may delay.
    let follows = |rtt: String| move || search() == format!("?rtt={rtt}");
    assert!(eventually(follows(rtt.clone())).await, "{}", search());
    // The drag goes on: the address follows a moment later, in the same history entry.
    let length = history().length().expect("length");
    slider.set_value(&(position.parse::<u32>().expect("a position") + 150).to_string());
    slider.dispatch_event(&event).expect("dispatch input");
    yew::platform::time::sleep(Duration::from_millis(20)).await;
    let dragged = input("rtt-number").value();
    assert_ne!(dragged, rtt);
    yew::platform::time::sleep(Duration::from_millis(250)).await;
    assert!(search() == format!("?rtt={dragged}"), "{}", search());
    assert_eq!(
        history().length().expect("length"),
        length,
        "one drag, one step"
    );
    changed(&slider);

    // A typed value with a unit.
    let number = input("body-number");
    number.set_value("1MB");
    changed(&number);
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(input("body-number").value(), "1000000");
    assert!(
        eventually(|| search().contains("body=1000000")).await,
        "{}",
        search()
    );

    // A refused one names its range.
    let number = input("iw-number");
    number.set_value("0");
    changed(&number);
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    let error = find("iw-error").text_content().unwrap_or_default();
    assert!(error.contains("1 to 1000"), "{error}");

    app.destroy();
    root.remove();
    let _ = history().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address));
}

#[wasm_bindgen_test]
fn the_banner_isolates_each_quoted_value() {
    let parts =
        tcplab_web::banner::quoted_parts("unknown value \"\\u{202e}x\\\"y\" (allowed reno, cubic)");
    let expected: Vec<(String, bool)> = vec![
        ("unknown value ".into(), false),
        ("\"\\u{202e}x\\\"y\"".into(), true),
        (" (allowed reno, cubic)".into(), false),
    ];
    assert_eq!(parts, expected);
    assert_eq!(
        tcplab_web::banner::quoted_parts("repeated key"),
        vec![("repeated key".to_string(), false)]
    );
}
