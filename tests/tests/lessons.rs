//! Guided lessons in the built page: one walked through by keyboard to its end, each question
//! answered (a wrong choice, a wrong number) and held to the answer the core finds in the same
//! run, the figures of each part held to the player's readouts at its moment, the lesson's
//! scenario changed (another IW, another answer), every lesson opened in both languages, and
//! the presenter's mode at a projector's sizes. Screenshots go to `target/e2e/`.

use std::time::Duration;

use serde_json::Value;
use tcplab::lesson::{Evidence, Given, Lesson, Moment, LESSONS};
use tcplab::player::{Language, StepWindow};
use tcplab::RunOptions;
use tcplab_e2e::{with_lab, Lab, PAGE_MAX_EVENTS, RUN_TIMEOUT};
use thirtyfour::prelude::*;

const SETTLE: Duration = Duration::from_secs(15);

/// The answer the core finds for part `part` of `lesson` with `changes` over its scenario, in
/// the run the page's worker makes of it.
fn core_answer(lesson: &str, part: usize, changes: &str) -> Given {
    let lesson = Lesson::find(lesson).expect("a lesson");
    let s = lesson
        .scenario_with(part, changes)
        .expect("the lesson parses")
        .scenario;
    let p = lesson.part(part);
    let window = match p.moment {
        Moment::At(t) => StepWindow {
            from_ms: (t - 500.0).max(0.0),
            stop_when_full: false,
        },
        _ => StepWindow::WHOLE_RUN,
    };
    let r = tcplab::run(
        &s,
        &RunOptions {
            max_events: PAGE_MAX_EVENTS,
            record_steps: Some(window),
            ..RunOptions::default()
        },
    );
    let steps = r.steps.expect("steps");
    let ev = Evidence {
        scenario: &s,
        steps: Some(&steps),
        summary: Some(&r.summary),
    };
    p.show(&ev, Language::En)
        .and_then(|sh| sh.answer)
        .map(|a| a.value)
        .expect("an answer")
}

/// What the lesson's panel and the player show.
#[derive(Debug, Default)]
struct Panel {
    part: usize,
    ready: bool,
    pending: bool,
    question: String,
    /// The choice pointed at, not yet checked.
    chosen: Option<u64>,
    slots: Vec<(String, String)>,
    feedback: String,
    feedback_right: Option<bool>,
    answer: String,
    cwnd_readout: String,
    player_t: Option<f64>,
    player_kind: String,
    cards_veiled: bool,
}

async fn panel(lab: &Lab) -> Panel {
    let json = lab
        .eval_string(
            "const l = document.getElementById('lesson');
             const say = document.getElementById('lesson-say');
             const q = document.getElementById('lesson-question');
             const f = document.getElementById('lesson-feedback');
             const w = document.getElementById('lesson-why');
             const c = document.querySelector('#player-cwnd .readout-num');
             const t = document.getElementById('player-time');
             const k = document.getElementById('player-kind');
             return JSON.stringify({
                 part: l ? Number(l.dataset.lessonPart) : 0,
                 ready: !!say && say.getAttribute('aria-busy') !== 'true',
                 pending: l ? l.dataset.pending === 'true' : false,
                 question: q ? q.dataset.question : '',
                 chosen: (() => { const c = document.querySelector('#lesson-choices .choice[aria-pressed=true]');
                                  return c ? Number(c.dataset.choice) : null; })(),
                 slots: say ? Array.from(say.querySelectorAll('[data-slot]')).map(s => [s.dataset.slot, s.textContent]) : [],
                 feedback: f ? f.textContent : '',
                 right: f ? f.classList.contains('right') : null,
                 answer: w ? w.dataset.answer : '',
                 cwnd: c ? c.textContent : '',
                 t: t ? Number(t.dataset.t) : null,
                 kind: k ? k.dataset.kind : '',
                 veiled: !!document.getElementById('cards-veiled'),
             });",
        )
        .await;
    let v: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
    Panel {
        part: v["part"].as_u64().unwrap_or(0) as usize,
        ready: v["ready"].as_bool().unwrap_or(false),
        pending: v["pending"].as_bool().unwrap_or(false),
        question: v["question"].as_str().unwrap_or("").to_string(),
        chosen: v["chosen"].as_u64(),
        slots: v["slots"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|s| {
                        (
                            s[0].as_str().unwrap_or("").to_string(),
                            s[1].as_str().unwrap_or("").to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        feedback: v["feedback"].as_str().unwrap_or("").to_string(),
        feedback_right: v["right"].as_bool(),
        answer: v["answer"].as_str().unwrap_or("").to_string(),
        cwnd_readout: v["cwnd"].as_str().unwrap_or("").to_string(),
        player_t: v["t"].as_f64(),
        player_kind: v["kind"].as_str().unwrap_or("").to_string(),
        cards_veiled: v["veiled"].as_bool().unwrap_or(false),
    }
}

/// Waits until part `n` (1-based) stands at its moment with its words filled in.
async fn wait_for_part(lab: &Lab, n: usize) -> Panel {
    let ok = lab
        .wait_until(RUN_TIMEOUT, || async move {
            let p = panel(lab).await;
            p.part == n && p.ready
        })
        .await;
    let p = panel(lab).await;
    assert!(ok, "part {n} did not show: {p:?}");
    p
}

/// The figures a part names are the player's at its moment: its window is the cwnd readout,
/// its time the player's.
fn assert_slots_are_on_screen(p: &Panel) {
    for (slot, text) in &p.slots {
        match slot.as_str() {
            "cwnd" => assert_eq!(text, &p.cwnd_readout, "cwnd in the words and the readout"),
            "t" => {
                let said: f64 = text.parse().unwrap_or(f64::NAN);
                let t = p.player_t.unwrap_or(f64::NAN);
                assert!(
                    (said - t).abs() <= 0.51,
                    "{said} ms in the words, {t} ms on the player"
                );
            }
            _ => {}
        }
    }
}

/// Waits until the panel is as `wanted` says, and returns it; fails the test with what it
/// shows otherwise.
async fn wait_panel(lab: &Lab, what: &str, wanted: impl Fn(&Panel) -> bool) -> Panel {
    let wanted = &wanted;
    let ok = lab
        .wait_until(SETTLE, || async move { wanted(&panel(lab).await) })
        .await;
    let p = panel(lab).await;
    assert!(ok, "{what}: {p:?}");
    p
}

fn as_number(g: Given) -> f64 {
    match g {
        Given::Number(v) => v,
        Given::Choice(i) => i as f64,
    }
}

/// What the page says of the run's length and of what is ahead, beside a lesson: the status
/// line, whether a landmark is marked past the scrubber's thumb, the later parts' buttons'
/// titles.
async fn ahead(lab: &Lab) -> Value {
    let text = lab
        .eval_string(
            "const scrub = document.getElementById('player-scrub');
             const at = scrub ? Number(scrub.value) / Number(scrub.max) * 100 : -1;
             const past = [...document.querySelectorAll('.scrub-mark')]
                 .filter(m => parseFloat(m.style.left) > at + 0.01).map(m => m.dataset.kind);
             const titles = [...document.querySelectorAll('.lesson-dot')].map(b => b.title);
             return JSON.stringify({
                 status: document.getElementById('status')?.textContent ?? '',
                 past, titles,
             });",
        )
        .await;
    serde_json::from_str(&text).unwrap_or(Value::Null)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_is_walked_through_by_keyboard_to_its_end() {
    with_lab(|lab| async move {
        let lab: &Lab = &lab;
        lab.set_window(1280, 900).await;
        lab.open("?lesson=fast-retransmit&lang=en").await;
        let p = wait_for_part(lab, 1).await;
        // Nothing asked yet, but the verdict would answer the third part: it stays hidden.
        assert!(
            !p.pending && p.question.is_empty() && p.cards_veiled,
            "{p:?}"
        );
        assert_slots_are_on_screen(&p);
        assert!(p.slots.iter().any(|(s, _)| s == "cwnd"), "{p:?}");
        assert_eq!(p.player_kind, "data_lost");

        lab.press(Key::PageDown).await;
        let p = wait_for_part(lab, 2).await;
        assert_slots_are_on_screen(&p);
        assert_eq!(p.player_kind, "duplicate_ack");

        // The third duplicate ACK: a choice, the run's results hidden until it is answered.
        lab.press(Key::PageDown).await;
        let p = wait_for_part(lab, 3).await;
        assert_slots_are_on_screen(&p);
        assert!(
            p.pending && p.question == "choice" && p.cards_veiled,
            "{p:?}"
        );
        assert_eq!(core_answer("fast-retransmit", 2, ""), Given::Choice(0));
        // Nothing says what is ahead: no landmark past the thumb (the fast retransmit, the
        // recovery's end), no title of a later part ("Recovery done"), no length of the run.
        let a = ahead(lab).await;
        assert_eq!(a["past"], serde_json::json!([]), "{a}");
        assert_eq!(a["titles"][3], "Part 4", "{a}");
        assert_eq!(a["titles"][4], "Part 5", "{a}");
        let status = a["status"].as_str().unwrap_or("");
        assert!(
            status.contains("events simulated") && !status.contains("simulated time"),
            "{a}"
        );
        // Choosing points at a choice; the reveal checks it.
        lab.click(By::Css("#lesson-choices [data-choice='1']"), "choice B")
            .await;
        let p = wait_panel(lab, "chosen", |p| p.chosen == Some(1)).await;
        assert!(
            p.pending && p.feedback.is_empty() && p.cards_veiled,
            "{p:?}"
        );
        lab.click(By::Id("lesson-next"), "Reveal").await;
        let p = wait_panel(lab, "answered", |p| !p.feedback.is_empty()).await;
        assert_eq!(p.feedback_right, Some(false), "{p:?}");
        assert!(p.feedback.starts_with("Not this time"), "{}", p.feedback);
        assert_eq!(p.answer, "0");
        // The next part asks about the same run: its results stay hidden.
        assert!(p.cards_veiled && !p.pending, "{p:?}");
        // The reveal stands the player on the step that shows it.
        assert_eq!(p.player_kind, "fast_retransmit", "{p:?}");

        // The window when recovery ends: a number, wrong by 25 %, told so.
        lab.press(Key::PageDown).await;
        let p = wait_for_part(lab, 4).await;
        assert_eq!(p.question, "number");
        let expected = as_number(core_answer("fast-retransmit", 3, ""));
        lab.type_into("lesson-number", &format!("{}", expected * 1.25))
            .await;
        let p = wait_panel(lab, "answered", |p| !p.feedback.is_empty()).await;
        assert_eq!(p.feedback_right, Some(false));
        assert!(
            p.feedback
                .contains(&format!("The run gives {expected} MSS"))
                && p.feedback.contains("25 % too high"),
            "{}",
            p.feedback
        );
        assert_eq!(p.answer.parse::<f64>().ok(), Some(expected));
        assert_eq!(p.player_kind, "recovery_done");
        // The lesson's last question on the run: its results show, and what is ahead.
        assert!(!p.cards_veiled, "{p:?}");
        let a = ahead(lab).await;
        assert_eq!(a["titles"][4], "Recovery done", "{a}");
        assert!(
            a["status"]
                .as_str()
                .unwrap_or("")
                .contains("simulated time"),
            "{a}"
        );

        lab.press(Key::PageDown).await;
        let p = wait_for_part(lab, 5).await;
        assert_slots_are_on_screen(&p);
        // The end: the key leaves the last part where it is.
        lab.press(Key::PageDown).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(panel(lab).await.part, 5);
        let search = lab.search().await;
        assert!(
            search.starts_with("?lesson=fast-retransmit&part=5"),
            "{search}"
        );
        // Back, and R resets the part.
        lab.press(Key::PageUp).await;
        wait_for_part(lab, 4).await;
        lab.type_into("lesson-number", &format!("{expected}")).await;
        wait_panel(lab, "right", |p| p.feedback_right == Some(true)).await;
        lab.driver
            .execute(
                "document.activeElement && document.activeElement.blur(); return null;",
                Vec::new(),
            )
            .await
            .expect("blur");
        lab.press(Key::Escape).await;
        lab.driver
            .action_chain()
            .send_keys("r")
            .perform()
            .await
            .expect("press r");
        wait_panel(lab, "reset", |p| p.pending && p.feedback.is_empty()).await;
        lab.screenshot("lesson-fast-retransmit").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_different_initial_window_changes_the_expected_answer() {
    with_lab(|lab| async move {
        let lab: &Lab = &lab;
        lab.set_window(1280, 900).await;
        let ten = as_number(core_answer("slow-start", 0, ""));
        let four = as_number(core_answer("slow-start", 0, "iw=4"));
        assert_ne!(ten, four);
        lab.open("?lesson=slow-start&lang=en").await;
        wait_for_part(lab, 1).await;
        lab.type_into("lesson-number", &format!("{ten}")).await;
        wait_panel(lab, "right", |p| p.feedback_right == Some(true)).await;
        // IW 4 through the control: the part stands again at its moment, unanswered, and the
        // same answer is now wrong.
        lab.type_into("iw-number", "4").await;
        wait_panel(lab, "at its moment again", |p| {
            p.pending && p.ready && p.slots.iter().any(|(s, v)| s == "cwnd" && v == "4")
        })
        .await;
        // The address is the lesson's, the change, and the player's cursor at the moment.
        let search = lab.search().await;
        assert!(
            search.starts_with("?lesson=slow-start&iw=4&at=") && search.ends_with("&lang=en"),
            "{search}"
        );
        lab.type_into("lesson-number", &format!("{ten}")).await;
        let p = wait_panel(lab, "told it is wrong", |p| p.feedback_right == Some(false)).await;
        assert_eq!(p.answer.parse::<f64>().ok(), Some(four));
        assert!(
            p.feedback.contains(&format!("The run gives {four} MSS")),
            "{}",
            p.feedback
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_lesson_opens_from_the_index_in_both_languages_with_every_word_in_place() {
    with_lab(|lab| async move {
        let lab: &Lab = &lab;
        lab.set_window(1280, 900).await;
        lab.open("?lang=zh").await;
        let listed = lab
            .eval_string(
                "return Array.from(document.querySelectorAll('#lesson-index [data-lesson-name]'))
                     .map(b => b.dataset.lessonName).join(',');",
            )
            .await;
        let names: Vec<&str> = LESSONS.iter().map(|l| l.name).collect();
        assert_eq!(listed, names.join(","));
        // The index opens a lesson.
        lab.click(By::Css("#lessons > summary"), "the lessons' menu")
            .await;
        lab.click(By::Id("lesson-open-hol"), "the hol lesson").await;
        wait_for_part(lab, 1).await;
        assert!(
            lab.search().await.starts_with("?lesson=hol"),
            "{}",
            lab.search().await
        );
        for lesson in LESSONS {
            for lang in ["en", "zh"] {
                for part in 1..=lesson.parts.len() {
                    lab.open(&format!("?lesson={}&part={part}&lang={lang}", lesson.name))
                        .await;
                    let p = wait_for_part(lab, part).await;
                    let text = lab.text_of("lesson").await;
                    assert!(
                        !text.contains('{') && !text.contains('}'),
                        "{} {part} {lang}: {text}",
                        lesson.name
                    );
                    assert!(p.slots.iter().all(|(_, v)| !v.is_empty()), "{p:?}");
                    if lang == "zh" {
                        // A Chinese page is in Chinese: the part's title is the lesson's own.
                        let title = lab.text_of("lesson-part-title").await;
                        assert_eq!(title, lesson.part(part - 1).title.zh);
                    }
                }
            }
        }
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_presenter_mode_fits_a_projector() {
    with_lab(|lab| async move {
        let lab: &Lab = &lab;
        for (w, h, lang) in [(1920, 1080, "en"), (1280, 720, "en"), (1280, 720, "zh")] {
            lab.set_window(w, h).await;
            lab.open(&format!("?lesson=timeout&part=2&present=1&lang={lang}"))
                .await;
            let p = wait_for_part(lab, 2).await;
            assert!(p.pending && p.question == "choice", "{p:?}");
            let fit = lab
                .eval_string(
                    "const l = document.getElementById('lesson').getBoundingClientRect();
                     const q = document.getElementById('lesson-question').getBoundingClientRect();
                     const size = (sel) => {
                         const e = document.querySelector(sel);
                         return e ? parseFloat(getComputedStyle(e).fontSize) : 0;
                     };
                     const c = document.querySelector('.charts figure, .charts canvas');
                     const chart = c ? c.getBoundingClientRect() : { top: 1e9, left: 0 };
                     return JSON.stringify({
                         scroll: document.documentElement.scrollWidth,
                         inner: window.innerWidth,
                         right: l.right, qBottom: q.bottom, h: window.innerHeight,
                         chartTop: chart.top, chartLeft: chart.left,
                         large: document.documentElement.classList.contains('large'),
                         sidebar: getComputedStyle(document.getElementById('settings')).display,
                         say: size('.lesson-say'), sentence: size('.player-sentence'),
                         readout: size('.readout-num'), log: size('.player-log'),
                     });",
                )
                .await;
            let v: Value = serde_json::from_str(&fit).unwrap_or(Value::Null);
            let num = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
            assert!(num("scroll") <= num("inner"), "{w}x{h}: {fit}");
            assert!(num("right") <= num("inner"), "{w}x{h}: {fit}");
            // The question is on the first screen, in large type, the controls out of the way.
            assert!(num("qBottom") <= num("h"), "{w}x{h}: {fit}");
            // And on a projector's full width the run it asks about beside it: the first chart
            // on the same screen, to the right of the lesson, not a screen and more below.
            if w >= 1500 {
                assert!(num("chartTop") < 0.5 * num("h"), "{w}x{h}: {fit}");
                assert!(num("chartLeft") >= num("right"), "{w}x{h}: {fit}");
                // Scrolled down to a lower chart, the page keeps the question in view.
                let kept = lab
                    .eval_string(
                        "window.scrollTo(0, document.documentElement.scrollHeight);
                         const q = document.getElementById('lesson-question').getBoundingClientRect();
                         return JSON.stringify({ y: window.scrollY, top: q.top, h: window.innerHeight });",
                    )
                    .await;
                let k: Value = serde_json::from_str(&kept).unwrap_or(Value::Null);
                let at = |key: &str| k[key].as_f64().unwrap_or(f64::NAN);
                assert!(at("y") > at("h"), "the page did not scroll: {kept}");
                assert!(at("top") >= 0.0 && at("top") < at("h"), "{kept}");
                lab.eval_string("window.scrollTo(0, 0); return '';").await;
            }
            assert_eq!(v["large"], Value::Bool(true), "{fit}");
            assert_eq!(v["sidebar"], "none", "{fit}");
            // The player the part steps through reads from the room's back as the part does:
            // its sentence in the part's type, its readouts and log larger than on a desk.
            assert!(num("sentence") >= num("say") && num("say") > 0.0, "{w}x{h}: {fit}");
            assert!(num("readout") >= 20.0 && num("log") >= 16.0, "{w}x{h}: {fit}");
            // And the charts' text: axes, legends and readouts a size up from a desk's 12 px,
            // and from large type's 15, once every chart is drawn at the mode's size (those out
            // of view are drawn again when the page has settled).
            let chart_px = "const px = [...document.querySelectorAll('.charts canvas[data-font-px]')]
                                .map(c => parseFloat(c.dataset.fontPx));
                            return String(px.length ? Math.min(...px) : 0);";
            let large = lab
                .wait_until(SETTLE, || async move {
                    lab.eval_string(chart_px).await.parse::<f64>().unwrap_or(0.0) >= 18.0
                })
                .await;
            assert!(large, "{w}x{h}: the charts' text {}", lab.eval_string(chart_px).await);
            lab.screenshot(&format!("lesson-present-{lang}-{w}x{h}"))
                .await;
            lab.eval_string(
                "document.querySelector('.player').scrollIntoView({block: 'start'}); return '';",
            )
            .await;
            lab.screenshot(&format!("lesson-present-{lang}-{w}x{h}-player"))
                .await;
        }
        // On a phone the lesson reads above the player, nothing wider than the screen.
        lab.set_window(390, 844).await;
        lab.open("?lesson=slow-start&part=2&lang=en").await;
        wait_for_part(lab, 2).await;
        let narrow = lab
            .eval_string(
                "return String(document.documentElement.scrollWidth <= window.innerWidth);",
            )
            .await;
        assert_eq!(narrow, "true");
        lab.screenshot("lesson-phone-390x844").await;
        // The presenter's mode on a phone opens on the lesson, not on its answer box below the
        // fold: the box takes the focus, so that digits typed go to it, without the page
        // scrolling to it past the lesson's title.
        lab.open("?lesson=slow-start&present=1&lang=en").await;
        wait_for_part(lab, 1).await;
        let focused = lab
            .wait_until(SETTLE, || async move {
                lab.focused_id().await
                    == "lesson-number"
            })
            .await;
        assert!(focused, "the answer box never took the focus");
        let opened = lab
            .eval_string(
                "const l = document.getElementById('lesson').getBoundingClientRect();
                 return JSON.stringify({ y: window.scrollY, top: l.top, h: window.innerHeight });",
            )
            .await;
        let v: Value = serde_json::from_str(&opened).unwrap_or(Value::Null);
        let num = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        assert_eq!(num("y"), 0.0, "{opened}");
        assert!(num("top") >= 0.0 && num("top") < num("h"), "{opened}");
        lab.screenshot("lesson-present-phone-390x844").await;
        lab.set_window(1280, 720).await;
        lab.open("?lesson=timeout&part=2&present=1&lang=en").await;
        wait_for_part(lab, 2).await;
        // The clicker's keys: on reveals, on again moves to the next part; the arrows too;
        // Escape leaves the mode.
        lab.press(Key::PageDown).await;
        wait_panel(lab, "revealed", |p| !p.pending).await;
        lab.press(Key::Right).await;
        wait_for_part(lab, 3).await;
        lab.press(Key::Left).await;
        wait_for_part(lab, 2).await;
        // Shift with an arrow is the player's round trip there too, not the next part: the
        // player moves, and the question still waits (it had revealed the answer).
        let index = || async {
            lab.eval_string(
                "const t = document.getElementById('player-time'); return t ? t.dataset.index : '';",
            )
            .await
        };
        let before = index().await;
        lab.driver
            .action_chain()
            .key_down(Key::Shift)
            .send_keys(Key::Right)
            .key_up(Key::Shift)
            .perform()
            .await
            .expect("press Shift+Right");
        let moved = lab
            .wait_until(SETTLE, || async { index().await != before })
            .await;
        assert!(moved, "Shift+Right left the player at step {before}");
        let p = wait_panel(lab, "still asking", |p| p.pending).await;
        assert!(p.feedback.is_empty(), "{p:?}");
        wait_for_part(lab, 2).await;
        // A digit points at a choice without revealing it; Enter reveals, checking it.
        lab.driver
            .action_chain()
            .send_keys("2")
            .perform()
            .await
            .expect("press 2");
        let p = wait_panel(lab, "chosen", |p| p.chosen == Some(1)).await;
        assert!(p.pending && p.feedback.is_empty(), "{p:?}");
        lab.press(Key::Enter).await;
        wait_panel(lab, "answered", |p| !p.feedback.is_empty()).await;
        // The reveal reads at a projector's size: in the question's type, across the panel.
        let reveal = lab
            .eval_string(
                "const px = id => parseFloat(getComputedStyle(document.getElementById(id)).fontSize);
                 const w = id => document.getElementById(id).getBoundingClientRect().width;
                 return JSON.stringify({ ask: px('lesson-ask'), why: px('lesson-why'),
                                         whyW: w('lesson-why'), askW: w('lesson-question') });",
            )
            .await;
        let v: Value = serde_json::from_str(&reveal).unwrap_or(Value::Null);
        let num = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        assert!(num("why") >= 0.9 * num("ask"), "{reveal}");
        assert!(num("whyW") >= 0.8 * num("askW"), "{reveal}");
        // A number asked: the box has the focus, so the digits typed go to it, and a minus
        // sign is refused with its reason.
        lab.press(Key::Right).await;
        wait_for_part(lab, 3).await;
        let focused = lab.focused_id().await;
        assert_eq!(focused, "lesson-number");
        lab.driver
            .action_chain()
            .send_keys("-5")
            .perform()
            .await
            .expect("type -5");
        let refused = lab
            .wait_until(SETTLE, || async move {
                lab.text_of("lesson-number-problem")
                    .await
                    .contains("below zero")
            })
            .await;
        assert!(refused, "{}", lab.text_of("lesson-number-problem").await);
        // The clicker still reveals from the box.
        lab.press(Key::PageDown).await;
        wait_panel(lab, "revealed", |p| !p.pending).await;
        lab.press(Key::Escape).await;
        let left = lab
            .wait_for_search(SETTLE, |s| !s.contains("present=1"))
            .await;
        assert!(left, "{}", lab.search().await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// What the player and the charts' readouts say at a part's moment: the player's in-flight
/// and queue figures, and the window and queue charts' readouts as they draw them.
async fn figures_at_the_moment(lab: &Lab) -> Value {
    let json = lab
        .eval_string(
            "const num = id => { const e = document.querySelector('#' + id + ' .readout-num');
                                 return e ? e.textContent : null; };
             const said = k => { const c = document.querySelector(
                                     'figure[data-chart=' + k + '] canvas.chart-cursor');
                                 return c && c.dataset.readout ? c.dataset.readout : null; };
             return JSON.stringify({ in_flight: num('player-inflight'), queue: num('player-queue'),
                                     cwnd: said('cwnd'), queued: said('queue') });",
        )
        .await;
    serde_json::from_str(&json).unwrap_or(Value::Null)
}

/// The number after `after` in the line of a readout that holds `has` (at the line's start
/// when `after` is empty).
fn number_in(readout: &Value, has: &str, after: &str) -> Option<String> {
    let line = readout.as_str()?.lines().find(|l| l.contains(has))?;
    let rest = &line[line.find(after)? + after.len()..];
    let n: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    (!n.is_empty()).then_some(n)
}

/// At an instant of several events (ten segments sent as the handshake completes) the player
/// stands on one step; the charts' readouts there say what the player says, not the state
/// after the instant's last event (the player said 0 in flight, the window chart 10).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_charts_readouts_at_a_parts_moment_are_the_players() {
    with_lab(|lab| async move {
        let lab: &Lab = &lab;
        lab.set_window(1366, 768).await;
        for part in 1..=3 {
            lab.open(&format!("?lesson=slow-start&part={part}&lang=en"))
                .await;
            wait_for_part(lab, part).await;
            let read = lab
                .wait_until(SETTLE, || async move {
                    let v = figures_at_the_moment(lab).await;
                    v["cwnd"].is_string() && v["queued"].is_string()
                })
                .await;
            let v = figures_at_the_moment(lab).await;
            assert!(read, "part {part}: no readout on the charts: {v}");
            let in_flight = number_in(&v["cwnd"], "in flight ", "(");
            assert_eq!(
                in_flight.as_deref(),
                v["in_flight"].as_str(),
                "part {part}: {v}"
            );
            let queued = number_in(&v["queued"], "packets queued", "");
            assert_eq!(queued.as_deref(), v["queue"].as_str(), "part {part}: {v}");
        }
        lab.assert_no_console_errors().await;
    })
    .await;
}
