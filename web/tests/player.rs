//! The step-through player's code in a real browser: every kind of step said in both languages
//! through the page's own rendering, the steps' trip from the worker, the cursor in the
//! address (`at=`, `step=`), the moves (a step, a round trip, a landmark) and the reducer's
//! playback, the packets on the path, and the keys.
#![cfg(target_arch = "wasm32")]

use std::collections::BTreeSet;
use std::rc::Rc;

use tcplab::player::{CaLabel, FlowState, Step, StepKind, StepTag, StepWindow, Steps, MAX_STEPS};
use tcplab::player::{Cargo, DropCause, TripEnd};
use tcplab::view::RunView;
use tcplab::{run, RunOptions, Scenario};
use tcplab_web::i18n::Lang;
use tcplab_web::model::address::{self, Entry};
use tcplab_web::model::page::{Action as PageAction, Page};
use tcplab_web::player::log::{kind_label, Explanation, ExplanationProps};
use tcplab_web::player::nav::{self, Dir, Move};
use tcplab_web::player::path::{snapshot, Bounds};
use tcplab_web::player::state::{read_within, Action as PlayerAction, SPEEDS};
use tcplab_web::player::{key_action, Action, StepsRef};
use tcplab_web::worker::protocol::{
    answer, answer_packed, decode_reply, decode_steps, decode_view, encode_request, encode_steps,
    Packed, Reply, Request, Want,
};
use tcplab_web::worker::Outcome;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

fn record(query: &str) -> Steps {
    let s = Scenario::parse(query).expect("a valid scenario");
    let options = RunOptions {
        record_steps: Some(StepWindow::WHOLE_RUN),
        ..RunOptions::default()
    };
    run(&s, &options).steps.expect("recorded steps")
}

/// The staged-loss lesson of the end-to-end tests.
const LESSON: &str = "cc=cubic&body=300000&drop=20";

fn state() -> FlowState {
    FlowState {
        cwnd: 20 * 1460,
        ssthresh: Some(14 * 1460),
        in_flight: 10 * 1460,
        srtt_ms: Some(28.0),
        rto_ms: 228.0,
        ca: CaLabel::Recovery,
        queue: 3,
    }
}

fn han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Mounts the page's explanation of `step` in `lang` and reads back its kind and sentence.
async fn said(step: Step, steps: &Steps, lang: Lang) -> (String, String) {
    let mut one = steps.clone();
    one.steps = vec![step];
    let root = document().create_element("div").expect("a root");
    document()
        .body()
        .expect("a body")
        .append_child(&root)
        .expect("mount");
    let app = yew::Renderer::<Explanation>::with_root_and_props(
        root.clone(),
        ExplanationProps {
            steps: StepsRef(Rc::new(one)),
            index: 0,
            flows: 1,
            lang,
        },
    )
    .render();
    yew::platform::time::sleep(std::time::Duration::from_millis(5)).await;
    let text = |id: &str| {
        root.query_selector(&format!("#{id}"))
            .ok()
            .flatten()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    let out = (text("player-kind"), text("player-sentence"));
    app.destroy();
    root.remove();
    out
}

#[wasm_bindgen_test]
async fn every_kind_is_said_in_both_languages_on_the_page() {
    let steps = Steps::new(1460, tcplab::CcAlgo::Cubic, Default::default(), 0.0);
    let mut seen = BTreeSet::new();
    for kind in StepKind::examples() {
        seen.insert(kind.tag());
        let step = Step {
            t_ms: 84.158144,
            flow: 0,
            kind,
            state: state(),
        };
        let (kind_en, en) = said(step, &steps, Lang::En).await;
        let (kind_zh, zh) = said(step, &steps, Lang::Zh).await;
        let name = kind.name();
        assert!(
            !kind_en.is_empty() && !en.is_empty(),
            "{name}: nothing said in English"
        );
        assert!(
            !kind_zh.is_empty() && !zh.is_empty(),
            "{name}: nothing said in Chinese"
        );
        assert!(
            !han(&kind_en) && !han(&en),
            "{name}: Chinese in the English: {en}"
        );
        assert!(
            han(&kind_zh) && han(&zh),
            "{name}: not translated: {kind_zh} {zh}"
        );
        assert_ne!(en, zh, "{name}");
        assert_eq!(kind_en, kind_label(&kind, Lang::En));
        // The sentence has its numbers (the handshake's first two steps and a change of state
        // have none to give).
        if !matches!(
            kind,
            StepKind::SynSent { retry: 0 } | StepKind::SynReceived | StepKind::StateChange { .. }
        ) {
            assert!(en.chars().any(|c| c.is_ascii_digit()), "{name}: {en}");
        }
    }
    let all: BTreeSet<StepTag> = StepTag::ALL.into_iter().collect();
    assert_eq!(seen, all, "every kind needs an example and its words");
    // And the kinds of real runs are all among them.
    for query in [
        LESSON,
        "preset=hol-blocking&count=300",
        "preset=hol-blocking&conns=0&count=100",
        "loss=2&ackloss=2&body=500000",
    ] {
        for s in &record(query).steps {
            assert!(all.contains(&s.kind.tag()), "{query}: {}", s.kind.name());
        }
    }
}

#[wasm_bindgen_test]
fn the_classroom_sentence_of_the_fast_retransmit() {
    let steps = record(LESSON);
    let fr = steps
        .steps
        .iter()
        .find(|s| matches!(s.kind, StepKind::FastRetransmit { .. }))
        .expect("a fast retransmit");
    let en = tcplab_web::player::log::sentence(fr, &steps, Lang::En);
    assert_eq!(
        en,
        "Loss detected (3 duplicate ACKs: the DupThresh of RFC 5681 and RFC 6675): fast retransmit of segment 20 (from byte 27,741); ssthresh = cwnd × 717/1024 (CUBIC) = 20 MSS. cwnd 29\u{a0}→\u{a0}28 MSS: what is in flight plus the retransmission, and PRR (RFC 6937) brings it down to ssthresh over the next round trip."
    );
    assert_eq!(tcplab_web::player::log::time(fr.t_ms), "84.158 ms");
    assert_eq!(tcplab_web::player::log::time(1234.5678), "1,234.568 ms");
    assert_eq!(tcplab::player::explain::mss(fr.state.cwnd, steps.mss), "28");
}

#[wasm_bindgen_test]
fn steps_cross_from_the_worker_exactly() {
    for query in [
        LESSON,
        "preset=hol-blocking&count=300",
        "preset=hol-blocking&conns=0&count=100",
        "cc=bbr&loss=1&app=bulk&dur=0.3",
        "loss=3&ackloss=3&sack=0&body=300000",
        "flows=3&bw=50&queue=20&app=bulk&dur=0.5",
    ] {
        let steps = record(query);
        let bytes = encode_steps(&steps).expect("every record is written");
        let back = decode_steps(&bytes).expect("and read back");
        assert!(back == steps, "{query}: the steps changed on the way");
        // A few bytes a field: under 90 a step with its trip, where a step alone took 128 as
        // sixteen floats.
        let per_step = bytes.len() as f64 / steps.steps.len() as f64;
        assert!(per_step < 90.0, "{query}: {per_step:.1} bytes a step");
    }
    // BBR's unset ssthresh crosses as itself.
    let bbr = record("cc=bbr&loss=1&app=bulk&dur=0.3");
    assert!(bbr.steps.iter().any(|s| matches!(
        s.kind,
        StepKind::FastRetransmit { ssthresh, .. } if ssthresh == tcplab::cc::INFINITE_SSTHRESH_BYTES
    )));
    // Broken bytes are refused with a message, never a panic.
    let good = encode_steps(&record(LESSON)).expect("written");
    for bad in [&[][..], &good[..good.len() / 2], &[0xff; 64][..]] {
        let e = decode_steps(bad).expect_err("refused");
        assert!(e.starts_with("the run's steps are unreadable"), "{e}");
    }
}

#[wasm_bindgen_test]
fn the_worker_sends_the_steps_it_was_asked_for() {
    let request = encode_request(&Request {
        id: 4,
        query: LESSON.to_string(),
        want: Want::Steps(StepWindow::from(0.0)),
        trace: None,
    })
    .expect("a request");
    let (json, packed) = answer_packed(&request, || 0.0);
    let reply: Reply = decode_reply(&json).expect("a reply");
    assert_eq!(
        reply.packed,
        Some(Packed::Steps),
        "the steps travel as bytes"
    );
    let sent = decode_steps(&packed.expect("the steps' bytes")).expect("read back");
    assert_eq!((sent.mss, sent.cc), (1460, tcplab::CcAlgo::Cubic));
    let inline: Reply = answer(&request, || 0.0);
    assert!(inline.view.is_none(), "steps come without a view");
    assert!(inline.steps.expect("the steps, read back") == sent);
    assert!(sent == record(LESSON));

    // A part of a long run: from its instant on, the record full, the run ended there.
    let long = encode_request(&Request {
        id: 6,
        query: "app=bulk&dur=60&bw=100".to_string(),
        want: Want::Steps(StepWindow::from(2_000.0)),
        trace: None,
    })
    .expect("a request");
    let reply: Reply = answer(&long, || 0.0);
    let steps = reply.steps.expect("steps");
    assert_eq!(steps.from_ms, 2_000.0);
    assert!(steps.truncated && steps.steps.len() == MAX_STEPS);
    assert!(steps.steps.first().is_some_and(|s| s.t_ms >= 2_000.0));

    // A view alone records nothing.
    let plain = encode_request(&Request {
        id: 5,
        query: LESSON.to_string(),
        want: Want::View,
        trace: None,
    })
    .expect("a request");
    let (json, packed) = answer_packed(&plain, || 0.0);
    let reply: Reply = decode_reply(&json).expect("a reply");
    assert_eq!(
        reply.packed,
        Some(Packed::View),
        "the view travels as bytes"
    );
    let view = decode_view(&packed.expect("the view's bytes")).expect("read back");
    assert!(view.summary.events > 0);
    let reply = answer(&plain, || 0.0);
    assert!(reply.view.is_some() && reply.steps.is_none());
}

fn page(search: &str) -> Page {
    Page::new(address::parse_search(search), Lang::En, false)
}

fn view_of(query: &str) -> Rc<RunView> {
    let s = Scenario::parse(query).expect("a scenario");
    Rc::new(RunView::new(&s, &run(&s, &RunOptions::default())))
}

/// The page after the worker answered what it wants: the run's view, and the steps the player
/// asks for, as the worker records them.
fn ran(p: Page) -> Page {
    let query = p.run_query();
    let mut p = p.apply(PageAction::Ran {
        query: query.clone(),
        outcome: Outcome::View(view_of(&query)),
    });
    // A record that does not cover the cursor asks for the next; a few rounds settle it.
    for _ in 0..4 {
        let Some(window) = p.wants_steps() else { break };
        p = recorded(p, window);
    }
    p
}

/// The player's worker answered with the steps of `window`.
fn recorded(p: Page, window: StepWindow) -> Page {
    let query = p.run_query();
    let s = Scenario::parse(&query).expect("a scenario");
    let options = RunOptions {
        record_steps: Some(window),
        ..RunOptions::default()
    };
    let steps = run(&s, &options).steps.expect("recorded steps");
    p.apply(PageAction::Recorded {
        query,
        outcome: Outcome::Steps(Rc::new(steps)),
    })
}

fn player(p: Page, a: PlayerAction) -> Page {
    p.apply(PageAction::Player(a))
}

#[wasm_bindgen_test]
fn the_cursor_goes_into_the_address_and_back() {
    let p = page("?rtt=50&at=84.158144&step=2&lang=en");
    assert!(p.banner.is_empty(), "{:?}", p.banner);
    assert!(p.player.open, "a link with at= opens the player");
    assert_eq!((p.scenario.at_ms, p.player.within), (Some(84.158144), 2));
    assert_eq!(p.search(), "?rtt=50&at=84.158144&step=2&lang=en");
    assert_eq!(p.run_query(), "rtt=50", "the cursor is not part of the run");
    // step=0 is not written.
    assert_eq!(page("?at=10&step=0").search(), "?at=10");

    // Lessons open paused at their start and write no cursor.
    for lesson in ["?preset=post-slow-start", "?drop=20&body=300000"] {
        let p = page(lesson);
        assert!(p.player.open && !p.player.playing, "{lesson}");
        assert!(!p.search().contains("at="), "{}", p.search());
    }
    assert!(!page("?rtt=50").player.open);
    // A lesson's player closed stays closed: `player=0` in the link.
    let closed = player(page("?drop=20&body=300000"), PlayerAction::Close);
    assert!(!closed.player.open);
    assert_eq!(closed.search(), "?drop=20&body=300000&player=0");
    let again = page(&closed.search());
    assert!(
        !again.player.open && again.banner.is_empty(),
        "{:?}",
        again.banner
    );
    assert_eq!(
        page("?drop=20&player=1")
            .banner
            .first()
            .map(|b| b.key.clone()),
        Some("player".to_string())
    );
    // A lesson preset waits for its steps to stand on its moment.
    assert_eq!(
        page("?preset=lesson-timeout").player.seek,
        Some(tcplab::lesson::Moment::first(StepTag::Timeout))
    );

    // Bad values name the key; the page runs on.
    let pairs = |v: &str| vec![("step".to_string(), v.to_string())];
    for (value, says) in [
        ("x", "is not a whole number"),
        ("", "empty value"),
        ("-1", "is not a whole number"),
        ("1.5", "is not a whole number"),
        ("100000", "out of range"),
        ("99999999999999999999999", "out of range"),
    ] {
        let e = read_within(&pairs(value), Some(1.0)).expect_err(value);
        assert_eq!(e.key, "step");
        assert!(e.message.contains(says), "{value}: {}", e.message);
        assert!(e.message.contains("0 to 99999"), "{}", e.message);
    }
    // A long value is cut with its marker, as the scenario's values are.
    let long = "7".repeat(100);
    let e = read_within(&pairs(&long), Some(1.0)).expect_err("long");
    assert!(
        e.message
            .starts_with(&format!("step: {}… is out of range", "7".repeat(64))),
        "{}",
        e.message
    );
    let e = read_within(&pairs(&format!("x{long}")), Some(1.0)).expect_err("long text");
    assert!(
        e.message.contains("…\" is not a whole number"),
        "{}",
        e.message
    );
    assert_eq!(
        read_within(&pairs("99999"), Some(1.0)),
        Ok(MAX_STEPS as u32 - 1)
    );
    let e = read_within(&pairs("3"), None).expect_err("no at");
    assert!(e.message.contains("needs at="), "{}", e.message);
    let mut twice = pairs("1");
    twice.extend(pairs("2"));
    assert!(read_within(&twice, Some(1.0)).is_err());
    let p = page("?rtt=50&at=10&step=x&lang=en");
    let bad = p.banner.first().cloned().expect("a banner");
    assert_eq!(bad.key, "step");
    assert_eq!(p.entry, None, "a bad address is left as written");
    assert_eq!(p.scenario.rtt_ms, 50.0, "the scenario still shows");
    assert_eq!(
        page("?at=10000000").banner.first().map(|b| b.key.clone()),
        Some("at".to_string())
    );
}

#[wasm_bindgen_test]
fn every_step_has_one_place_and_the_moves_retrace_themselves() {
    let steps = record(LESSON);
    let s = &steps.steps;
    for i in 0..s.len() {
        let (t, k) = nav::place(s, i).expect("a place");
        assert_eq!(
            nav::resolve(s, Some(t), k),
            Some(i),
            "step {i} at {t} rank {k}"
        );
    }
    assert_eq!(nav::resolve(s, None, 5), Some(0));
    assert_eq!(nav::resolve(&[], Some(1.0), 0), None);
    // A rank past the last at that instant is the last there; a time between steps, the step
    // before it.
    let (t, _) = nav::place(s, 1).expect("a place");
    let last_there = s.iter().rposition(|x| x.t_ms == t).expect("a step");
    assert_eq!(nav::resolve(s, Some(t), 9999), Some(last_there));
    assert_eq!(nav::resolve(s, Some(t + 1e-6), 0), Some(last_there));
    assert_eq!(nav::resolve(s, Some(1e9), u32::MAX), Some(s.len() - 1));

    let rtt = 28.0;
    for i in [0, 3, 50, 133, 300, s.len() - 1] {
        let srtt = nav::round_trip(s, i, rtt);
        let on = nav::go(s, i, Move::RoundTrip(Dir::Forward), rtt);
        if i + 1 < s.len() {
            assert!(on > i);
            let first = s.iter().position(|x| x.t_ms >= s[i].t_ms + srtt);
            assert_eq!(on, first.unwrap_or(s.len() - 1).max(i + 1), "from {i}");
        } else {
            assert_eq!(on, i, "the last step goes nowhere");
        }
        let back = nav::go(s, i, Move::RoundTrip(Dir::Back), rtt);
        assert!(back <= i.saturating_sub(1));
        assert!(s[back].t_ms >= s[i].t_ms - srtt || back + 1 == i);
    }
    // Landmarks: the staged loss, then its fast retransmit, then the end of recovery.
    let kinds: Vec<&str> = std::iter::successors(Some(0), |&i| {
        let j = nav::go(s, i, Move::Landmark(Dir::Forward), rtt);
        (j != i).then_some(j)
    })
    .skip(1)
    .map(|i| s[i].kind.name())
    .collect();
    assert_eq!(kinds.first(), Some(&"data_lost"));
    assert_eq!(kinds.get(1), Some(&"fast_retransmit"));
    assert!(kinds.iter().all(|k| [
        "data_lost",
        "fast_retransmit",
        "recovery_done",
        "timeout",
        "hol_release"
    ]
    .contains(k)));
    let fr = s
        .iter()
        .position(|x| x.kind.name() == "fast_retransmit")
        .expect("a fast retransmit");
    let loss = nav::go(s, fr, Move::Landmark(Dir::Back), rtt);
    assert_eq!(s[loss].kind.name(), "data_lost");
    assert_eq!(nav::go(s, loss, Move::Landmark(Dir::Back), rtt), loss);
    assert!(!nav::can(s, loss, Move::Landmark(Dir::Back), rtt));
    assert!(!nav::can(s, 0, Move::Step(Dir::Back), rtt));
    assert!(nav::can(s, 0, Move::Step(Dir::Forward), rtt));
    assert_eq!(nav::go(s, 7, Move::Start, rtt), 0);
    assert_eq!(nav::go(s, 7, Move::End, rtt), s.len() - 1);
    assert_eq!(nav::at_time(s, -1.0), 0);
    assert_eq!(
        nav::instant(s, 1).0,
        s.iter().filter(|x| x.t_ms == s[1].t_ms).count()
    );
}

#[wasm_bindgen_test]
fn the_reducer_steps_plays_and_settles_the_cursor() {
    let p = ran(page(&format!("?{LESSON}&lang=en")));
    let steps = p.steps().cloned().expect("the steps are in");
    let s = &steps.steps;
    assert_eq!(p.step_index(), Some(0));
    assert_eq!(p.player_ms(), Some(0.0));
    assert!(p.wants_steps().is_none());

    // One step on: the address carries it, refined in place.
    let p = player(p, PlayerAction::Go(Move::Step(Dir::Forward)));
    assert_eq!(p.step_index(), Some(1));
    assert_eq!(p.entry, Some(Entry::Refine));
    assert!(
        p.search().contains(&format!("at={}", s[1].t_ms)),
        "{}",
        p.search()
    );
    // To the fast retransmit, which shares its instant: step= tells them apart.
    let fr = s
        .iter()
        .position(|x| x.kind.name() == "fast_retransmit")
        .expect("a fast retransmit");
    let p = player(p, PlayerAction::To(fr));
    let (t, k) = nav::place(s, fr).expect("a place");
    assert!(k > 0);
    assert!(
        p.search().contains(&format!("at={t}&step={k}&lang=en")),
        "{}",
        p.search()
    );
    // The written address opens on the same step.
    let again = ran(page(&p.search()));
    assert_eq!(again.step_index(), Some(fr));
    // Back five, forward five: the same step and state.
    let mut q = again.clone();
    for _ in 0..5 {
        q = player(q, PlayerAction::Go(Move::Step(Dir::Back)));
    }
    assert_eq!(q.step_index(), Some(fr - 5));
    for _ in 0..5 {
        q = player(q, PlayerAction::Go(Move::Step(Dir::Forward)));
    }
    assert_eq!(q.step_index(), Some(fr));
    assert_eq!(q.search(), again.search());

    // Playing glides between steps; the cursor's step follows the playhead.
    let p = player(again, PlayerAction::Play);
    assert!(p.player.playing);
    let t = s[fr].t_ms + 0.5;
    let p = player(p, PlayerAction::Tick(t));
    assert_eq!(p.player_ms(), Some(t));
    assert_eq!(p.step_index(), Some(nav::at_time(s, t)));
    assert_eq!(p.cursor_ms(), Some(t), "the charts follow the playhead");
    // A tick past the end stops on the last step.
    let p = player(p, PlayerAction::Tick(1e9));
    assert!(!p.player.playing);
    assert_eq!(p.step_index(), Some(s.len() - 1));
    // Play at the end starts over.
    let p = player(p, PlayerAction::Play);
    assert_eq!(p.step_index(), Some(0));
    let p = player(p, PlayerAction::Pause);
    assert!(!p.player.playing && p.player.play_ms.is_none());
    let p = player(p, PlayerAction::Speed(99));
    assert_eq!(p.player.speed, SPEEDS.len() - 1);
    let p = player(p, PlayerAction::Seek(s[fr].t_ms));
    assert_eq!(p.step_index(), Some(nav::at_time(s, s[fr].t_ms)));

    // Close: no cursor in the address, the charts whole again; open: at=0, a new entry.
    let p = player(p, PlayerAction::Close);
    assert!(!p.player.open);
    assert!(!p.search().contains("at="));
    assert_eq!(p.player_ms(), None);
    assert_eq!(p.entry, Some(Entry::Push));
    let p = player(p, PlayerAction::Open);
    assert!(p.search().contains("at=0&"), "{}", p.search());
    assert_eq!(
        p.step_index(),
        Some(0),
        "the steps are kept for the same run"
    );

    // A time between steps settles on the step before it once the steps are in.
    let p = page("?rtt=50&at=60&lang=en");
    assert!(p.wants_steps().is_some());
    let p = ran(p);
    let s = record("rtt=50").steps;
    let i = nav::at_time(&s, 60.0);
    assert_eq!(p.step_index(), Some(i));
    assert_eq!(p.scenario.at_ms, Some(s[i].t_ms));
    assert_eq!(p.entry, Some(Entry::Replace));
}

#[wasm_bindgen_test]
fn the_steps_keep_the_charts_view_of_the_same_run() {
    let p = page("?rtt=50&lang=en");
    let plain = {
        let s = Scenario::parse("rtt=50").expect("a scenario");
        Rc::new(RunView::new(&s, &run(&s, &RunOptions::default())))
    };
    let p = p.apply(PageAction::Ran {
        query: "rtt=50".into(),
        outcome: Outcome::View(plain.clone()),
    });
    let p = player(p, PlayerAction::Open);
    let window = p.wants_steps().expect("the player wants steps");
    assert_eq!(
        window,
        StepWindow::from(0.0),
        "from the start, at the start"
    );
    let p = recorded(p, window);
    assert!(
        Rc::ptr_eq(p.view.as_ref().expect("a view"), &plain),
        "the charts do not redraw"
    );
    assert!(p.steps().is_some() && p.wants_steps().is_none());
    // A failed recording is said for its own run only.
    let failed = p.clone().apply(PageAction::Recorded {
        query: "rtt=50".into(),
        outcome: Outcome::Error("out of memory".into()),
    });
    assert_eq!(failed.steps_trouble().as_deref(), Some("out of memory"));
    let other = failed.apply(PageAction::Set {
        key: tcplab::scenario::Key::Rtt,
        value: "70".into(),
        entry: Entry::Push,
    });
    assert_eq!(other.steps_trouble(), None);
    // A new scenario's run wants its own steps.
    let p = p.apply(PageAction::Set {
        key: tcplab::scenario::Key::Rtt,
        value: "60".into(),
        entry: Entry::Push,
    });
    assert!(p.steps().is_none() && p.wants_steps().is_some());
}

#[wasm_bindgen_test]
fn the_path_shows_the_packets_in_flight_and_the_loss() {
    let steps = record(LESSON);
    let s = &steps.steps;
    let bounds = Bounds::of(&steps);
    assert!(bounds.max_queue > 0 && bounds.longest >= steps.one_way.data_ms);

    // At the staged loss, the red mark before the queue; a moment later, the segments on the
    // wire.
    let loss = s
        .iter()
        .find(|x| x.kind.name() == "data_lost")
        .expect("the staged loss");
    let at_loss = snapshot(&steps, &bounds, loss.t_ms);
    assert_eq!(at_loss.lost.len(), 1);
    assert_eq!(at_loss.lost[0], DropCause::Staged);
    let later = snapshot(&steps, &bounds, loss.t_ms + 14.0);
    assert!(later.lost.is_empty());
    assert!(!later.wire.is_empty(), "segments on their way");
    // Each is really under way: it has left the queue and not yet arrived, and its place is
    // how much of its time on the wire has gone.
    let t = loss.t_ms + 14.0;
    for (trip, along) in &later.wire {
        let TripEnd::Arrived {
            departs_ms,
            arrives_ms,
        } = trip.end
        else {
            panic!("a lost packet on the wire: {trip:?}")
        };
        assert!(departs_ms <= t && t < arrives_ms, "{trip:?} at {t}");
        let want = (t - departs_ms) / (arrives_ms - departs_ms);
        assert!((along - want).abs() < 1e-9, "{along} for {want}");
    }
    // Halfway through the handshake, the SYN is halfway there; once the SYN-ACK has left the
    // receiver, it is on the ACK wire.
    let syn = snapshot(&steps, &bounds, 7.0);
    assert_eq!(syn.wire.len(), 1);
    assert!((syn.wire[0].1 - 0.5).abs() < 0.01, "{}", syn.wire[0].1);
    let synack = snapshot(&steps, &bounds, 21.0);
    assert!(synack.wire.is_empty() && synack.acks.len() == 1);
    assert_eq!(synack.acks[0].0.cargo, Cargo::SynAck);
    assert!(snapshot(&steps, &bounds, 1e9).wire.is_empty());
    // What waits at the bottleneck is what the steps say is queued: after the last step of
    // each instant, the picture's queue is the readout's, or one more (the packet being put
    // on the link, which the readout does not count as waiting).
    let mut busiest = 0;
    for (i, step) in s.iter().enumerate() {
        if s.get(i + 1).is_some_and(|next| next.t_ms == step.t_ms) {
            continue;
        }
        let queued = snapshot(&steps, &bounds, step.t_ms).queued;
        let waiting = step.state.queue as usize;
        assert!(
            queued == waiting || queued == waiting + 1,
            "at {} ms: {queued} in the picture, {waiting} in the readout",
            step.t_ms
        );
        busiest = busiest.max(queued);
    }
    assert!(busiest > 10, "slow start fills the queue: {busiest}");
}

fn key(key: &str, shift: bool) -> web_sys::KeyboardEvent {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_shift_key(shift);
    init.set_bubbles(true);
    init.set_cancelable(true);
    web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("an event")
}

/// The action a key pressed on `target` asks for, read where the page's listener reads it.
fn pressed(target: &web_sys::Element, k: &str, shift: bool) -> Option<Action> {
    let seen = Rc::new(std::cell::RefCell::new(None));
    let listener = {
        let seen = seen.clone();
        gloo_events::EventListener::new(&document(), "keydown", move |e| {
            if let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() {
                *seen.borrow_mut() = Some(key_action(e));
            }
        })
    };
    target.dispatch_event(&key(k, shift)).expect("dispatch");
    drop(listener);
    let out = seen.borrow_mut().take().flatten();
    out
}

#[wasm_bindgen_test]
fn the_keys_move_the_player_but_not_a_field() {
    let doc = document();
    let body: web_sys::Element = doc.body().expect("a body").into();
    assert_eq!(pressed(&body, " ", false), Some(Action::Toggle));
    assert_eq!(
        pressed(&body, "ArrowRight", false),
        Some(Action::Go(Move::Step(Dir::Forward)))
    );
    assert_eq!(
        pressed(&body, "ArrowLeft", true),
        Some(Action::Go(Move::RoundTrip(Dir::Back)))
    );
    assert_eq!(
        pressed(&body, "n", false),
        Some(Action::Go(Move::Landmark(Dir::Forward)))
    );
    assert_eq!(
        pressed(&body, "P", true),
        Some(Action::Go(Move::Landmark(Dir::Back)))
    );
    assert_eq!(pressed(&body, "Home", false), Some(Action::Go(Move::Start)));
    assert_eq!(pressed(&body, "x", false), None);
    for tag in ["input", "textarea", "select"] {
        let field = doc.create_element(tag).expect("a field");
        body.append_child(&field).expect("mount");
        assert_eq!(pressed(&field, "ArrowRight", false), None, "{tag}");
        assert_eq!(pressed(&field, " ", false), None, "{tag}");
        field.remove();
    }
    // Space presses a button and ticks a box, as the browser would, but plays or pauses on the
    // player's own transport (a teacher who clicked Step and presses Space means Play); the
    // arrows step from a button, not from a radio group, which they move along.
    let button = doc.create_element("button").expect("a button");
    body.append_child(&button).expect("mount");
    assert_eq!(pressed(&button, " ", false), None);
    assert_eq!(
        pressed(&button, "ArrowLeft", false),
        Some(Action::Go(Move::Step(Dir::Back)))
    );
    button.remove();
    let transport = doc.create_element("div").expect("a toolbar");
    transport.set_class_name("player-transport");
    let step = doc.create_element("button").expect("a button");
    transport.append_child(&step).expect("mount");
    body.append_child(&transport).expect("mount");
    assert_eq!(pressed(&step, " ", false), Some(Action::Toggle));
    assert_eq!(
        pressed(&step, "ArrowRight", false),
        Some(Action::Go(Move::Step(Dir::Forward)))
    );
    transport.remove();
    for kind in ["checkbox", "radio"] {
        let choice = doc.create_element("input").expect("an input");
        choice.set_attribute("type", kind).expect("a choice");
        body.append_child(&choice).expect("mount");
        assert_eq!(pressed(&choice, " ", false), None, "{kind}");
        assert_eq!(pressed(&choice, "ArrowRight", false), None, "{kind}");
        assert_eq!(
            pressed(&choice, "n", false),
            Some(Action::Go(Move::Landmark(Dir::Forward))),
            "{kind}"
        );
        choice.remove();
    }
    // On a slider the arrows are the slider's; Space is the player's.
    let slider = doc.create_element("input").expect("an input");
    slider.set_attribute("type", "range").expect("a range");
    body.append_child(&slider).expect("mount");
    assert_eq!(pressed(&slider, "ArrowRight", false), None);
    assert_eq!(pressed(&slider, " ", false), Some(Action::Toggle));
    slider.remove();
}

#[wasm_bindgen_test]
fn a_long_run_is_followed_ten_round_trips_at_a_time_and_the_choice_is_the_readers() {
    let long = ran(page("?rtt=20&app=bulk&dur=2&at=0&lang=en"));
    assert!(long.player.open);
    let w = long.follow_ms().expect("a 100-RTT run is followed");
    assert!(
        (w - 10.0 * long.view.as_ref().map_or(0.0, |v| v.theory.rtt_ms)).abs() < 1e-9,
        "{w}"
    );
    // Chosen: the whole run, or 4 round trips.
    let whole = long
        .clone()
        .apply(PageAction::Player(PlayerAction::Follow(1)));
    assert_eq!(whole.follow_ms(), None);
    let four = long.apply(PageAction::Player(PlayerAction::Follow(2)));
    assert!(four.follow_ms().is_some_and(|f| f < w));
    // A short lesson shows its whole run.
    let lesson = ran(page(&format!("?{LESSON}&lang=en")));
    assert_eq!(lesson.follow_ms(), None);
}

#[wasm_bindgen_test]
fn a_long_run_is_recorded_around_its_cursor_part_by_part() {
    // A minute at 100 Mbit/s: 100 000 steps are a few seconds of it.
    let q = "app=bulk&dur=60&bw=100&rtt=20";
    let p = page(&format!("?{q}&at=2500&lang=en"));
    let rtt = p.scenario.rtt_ms;
    // Before the view is in, a few round trips before the cursor.
    assert_eq!(p.wants_steps(), Some(StepWindow::from(2500.0 - 4.0 * rtt)));
    let p = p.apply(PageAction::Ran {
        query: q.to_string(),
        outcome: Outcome::View(view_of(q)),
    });
    // With it, the record's likely span tells how far back to start: one record will do.
    let window = p.wants_steps().expect("the player wants steps");
    assert!(
        window.from_ms > 0.0 && window.from_ms < 2500.0 - 4.0 * rtt,
        "{window:?}"
    );
    let p = recorded(p, window);
    let steps = p.steps().cloned().expect("the part around the cursor");
    assert!(steps.starts_late() && steps.truncated);
    let i = p.step_index().expect("a step");
    assert!(steps.steps[i].t_ms <= 2500.0 && steps.steps[i + 1].t_ms > 2500.0);
    assert!(p.wants_steps().is_none(), "the cursor is well inside");
    let last = steps.steps.last().map_or(0.0, |s| s.t_ms);
    let w = last - steps.from_ms;

    // Near the end of the record the player asks for the part after it, once, from the
    // record's bounds: a playhead moving on asks for the same part.
    let near = player(p.clone(), PlayerAction::Seek(last - 0.05 * w));
    let next = near.wants_steps().expect("the part after");
    assert_eq!(next, StepWindow::from(last - 0.4 * w));
    let on = player(near.clone(), PlayerAction::Seek(last - 0.02 * w));
    assert_eq!(on.wants_steps(), Some(next));
    let after = recorded(near, next);
    assert!(after.steps().is_some_and(|s| s.from_ms == next.from_ms));
    assert!(after.wants_steps().is_none());
    // Near its start, the part before it.
    let early = player(p.clone(), PlayerAction::Seek(steps.from_ms + 0.02 * w));
    assert_eq!(
        early.wants_steps(),
        Some(StepWindow::from(steps.from_ms - 0.6 * w))
    );

    // A seek far outside: no steps until its part is in, then the cursor stands there.
    let far = player(p.clone(), PlayerAction::Seek(20_000.0));
    assert!(far.steps().is_none() && far.step_index().is_none());
    assert_eq!(far.scenario.at_ms, Some(20_000.0));
    let window = far.wants_steps().expect("the part around 20 s");
    assert!(window.from_ms < 20_000.0 && window.from_ms > 20_000.0 - w);
    let there = recorded(far, window);
    let i = there.step_index().expect("a step at 20 s");
    let s = there.steps().expect("steps");
    assert!(s.steps[i].t_ms <= 20_000.0 && s.steps[i + 1].t_ms > 20_000.0);

    // Home goes to the run's start, which this record does not hold.
    let home = player(there, PlayerAction::Go(Move::Start));
    assert_eq!(home.scenario.at_ms, Some(0.0));
    assert_eq!(home.wants_steps(), Some(StepWindow::from(0.0)));
    let home = ran(home);
    assert_eq!(home.step_index(), Some(0));

    // Playing to the end of a record holds there, playing, for the next part.
    let playing = player(p, PlayerAction::Play);
    let held = player(playing, PlayerAction::Tick(last + 50.0));
    assert!(held.player.playing);
    assert_eq!(held.player_ms(), Some(last));
    assert!(held.wants_steps().is_some());
}
