//! The step-through player in the built page: a staged loss opened as a lesson, stepped to its
//! fast retransmit with the keyboard, the sentence and the readouts held to the simulator's own
//! record, the address reopened on the same step, five steps back and forward again, a round
//! trip, playback, the charts drawn up to the player's time, and the player opened and closed
//! by hand. Screenshots of the player at the fast retransmit go to `target/e2e/`.

use std::time::Duration;

use serde_json::Value;
use tcplab::player::{explain, Language, Step, StepKind, StepWindow, Steps};
use tcplab::{RunOptions, Scenario};
use tcplab_e2e::{with_lab, Lab, PAGE_MAX_EVENTS, RUN_TIMEOUT};
use thirtyfour::prelude::*;

const SETTLE: Duration = Duration::from_secs(10);

/// The lesson: a 300 kB body over CUBIC that loses its 20th packet.
const LESSON: &str = "cc=cubic&body=300000&drop=20";

/// The simulator's own record of `query`'s steps, as the page's worker records them.
fn record(query: &str) -> Steps {
    let s = Scenario::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"));
    let options = RunOptions {
        max_events: PAGE_MAX_EVENTS,
        record_steps: Some(StepWindow::WHOLE_RUN),
        ..RunOptions::default()
    };
    tcplab::run(&s, &options)
        .steps
        .unwrap_or_else(|| panic!("{query}: no steps were recorded"))
}

/// A window in MSS as the page writes it.
fn mss(bytes: u64, mss: u32) -> String {
    let v = bytes as f64 / f64::from(mss);
    if (v - v.round()).abs() < 0.05 {
        format!("{}", v.round())
    } else {
        format!("{v:.1}")
    }
}

/// The address the page writes for step `i`: `at=` its time, `step=` its rank at that time.
fn address_of(query: &str, steps: &[Step], i: usize) -> String {
    let t = steps[i].t_ms;
    let rank = steps[..i].iter().rev().take_while(|s| s.t_ms == t).count();
    let mut s = Scenario::parse(query).expect("a scenario");
    s.at_ms = Some(t);
    let step = if rank > 0 {
        format!("&step={rank}")
    } else {
        String::new()
    };
    format!("?{}{step}&lang=en", s.to_query())
}

/// What the player shows: its step, the sentence, the readouts (text and exact value).
#[derive(Debug, Clone, PartialEq)]
struct Shown {
    index: Option<usize>,
    kind: String,
    sentence: String,
    readouts: Vec<(String, String, String)>,
}

async fn shown(lab: &Lab) -> Shown {
    let json = lab
        .eval_string(
            "const t = document.getElementById('player-time');
             const k = document.getElementById('player-kind');
             const s = document.getElementById('player-sentence');
             const r = Array.from(document.querySelectorAll('#player-readouts dd'))
                 .map(d => [d.id, d.querySelector('.readout-num').textContent, d.dataset.raw]);
             return JSON.stringify({
                 index: t ? Number(t.dataset.index) : null,
                 kind: k ? k.dataset.kind : '',
                 sentence: s ? s.textContent : '',
                 readouts: r,
             });",
        )
        .await;
    let v: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
    Shown {
        index: v["index"].as_u64().map(|i| i as usize),
        kind: v["kind"].as_str().unwrap_or("").to_string(),
        sentence: v["sentence"].as_str().unwrap_or("").to_string(),
        readouts: v["readouts"]
            .as_array()
            .map(|rows| {
                rows.iter()
                    .map(|r| {
                        let s = |i: usize| r[i].as_str().unwrap_or("").to_string();
                        (s(0), s(1), s(2))
                    })
                    .collect()
            })
            .unwrap_or_default(),
    }
}

fn readout<'a>(s: &'a Shown, id: &str) -> &'a str {
    s.readouts
        .iter()
        .find(|r| r.0 == id)
        .map_or("", |r| r.1.as_str())
}

/// The player shows step `i` as the simulator recorded it: the sentence, the window, the
/// bytes in flight, the state and the queue.
fn assert_is_step(s: &Shown, steps: &Steps, i: usize) {
    let step = &steps.steps[i];
    assert_eq!(s.index, Some(i), "the step on show");
    assert_eq!(s.kind, step.kind.name(), "step {i}'s kind");
    assert_eq!(
        s.sentence,
        tcplab::lesson::question::as_the_log_writes(&explain(step, steps, Language::En)),
        "step {i}'s sentence"
    );
    let raw = |id: &str| {
        s.readouts
            .iter()
            .find(|r| r.0 == id)
            .map_or("", |r| r.2.as_str())
            .to_string()
    };
    assert_eq!(raw("player-cwnd"), step.state.cwnd.to_string(), "cwnd");
    assert_eq!(
        readout(s, "player-cwnd"),
        mss(step.state.cwnd, steps.mss),
        "cwnd in MSS"
    );
    assert_eq!(
        raw("player-inflight"),
        step.state.in_flight.to_string(),
        "in flight"
    );
    assert_eq!(raw("player-queue"), step.state.queue.to_string(), "queue");
}

/// Presses keys on the page as a person would, with nothing focused.
async fn press(lab: &Lab, keys: &str) {
    lab.driver
        .action_chain()
        .send_keys(keys)
        .perform()
        .await
        .expect("press keys");
}

async fn press_key(lab: &Lab, key: Key, shift: bool) {
    let chain = lab.driver.action_chain();
    let chain = if shift {
        chain.key_down(Key::Shift).send_keys(key).key_up(Key::Shift)
    } else {
        chain.send_keys(key)
    };
    chain.perform().await.expect("press a key");
}

/// Waits until the player stands on step `i`.
async fn wait_for_step(lab: &Lab, i: usize) -> bool {
    lab.wait_until(SETTLE, || async move { shown(lab).await.index == Some(i) })
        .await
}

/// Waits until the player has its steps.
async fn wait_for_steps(lab: &Lab) {
    let ready = lab
        .wait_until(
            RUN_TIMEOUT,
            || async move { shown(lab).await.index.is_some() },
        )
        .await;
    assert!(
        ready,
        "the player did not get its steps: {:?}",
        lab.text_of("player").await
    );
}

/// The share of the cwnd chart's plot, right of the middle, that the cursor layer covers.
async fn covered_right(lab: &Lab) -> f64 {
    lab.eval_string(
        "const c = document.querySelector('.tl-chart-cwnd canvas.chart-cursor');
         if (!c) return '0';
         const x = c.getContext('2d');
         const y = Math.round(c.height * 0.5);
         let covered = 0, n = 0;
         for (let px = Math.round(c.width * 0.6); px < c.width * 0.9; px += 10) {
             n += 1;
             if (x.getImageData(px, y, 1, 1).data[3] > 100) covered += 1;
         }
         return String(covered / Math.max(n, 1));",
    )
    .await
    .parse()
    .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_staged_loss_is_stepped_to_its_fast_retransmit_and_back() {
    with_lab(|lab| async move {
        let lab = &*lab;
        let steps = record(LESSON);
        let fr = steps
            .steps
            .iter()
            .position(|s| matches!(s.kind, StepKind::FastRetransmit { .. }))
            .expect("the staged loss is repaired by a fast retransmit");
        let landmarks = steps.steps[..=fr]
            .iter()
            .filter(|s| s.kind.is_landmark())
            .count();

        lab.set_window(1280, 960).await;
        lab.open(&format!("?{LESSON}&lang=en")).await;
        // A lesson opens paused at its first step, explained, and writes no cursor yet.
        wait_for_steps(lab).await;
        let first = shown(lab).await;
        assert_is_step(&first, &steps, 0);
        let canonical = Scenario::parse(LESSON).expect("a scenario").to_query();
        assert_eq!(lab.search().await, format!("?{canonical}&lang=en"));
        assert!(
            covered_right(lab).await > 0.9,
            "at t = 0 the rest of the run is greyed"
        );
        let keys = lab.text_of("player-keys").await;
        assert!(
            keys.contains("Space") && keys.contains("Shift"),
            "the keys are on screen: {keys:?}"
        );

        // N goes from landmark to landmark: the staged loss, then its fast retransmit.
        for _ in 0..landmarks {
            press(lab, "n").await;
        }
        assert!(
            wait_for_step(lab, fr).await,
            "N x{landmarks} did not reach the fast retransmit: {:?}",
            shown(lab).await
        );
        let at_fr = shown(lab).await;
        assert_is_step(&at_fr, &steps, fr);
        assert!(
            at_fr.sentence.contains("fast retransmit of")
                && at_fr.sentence.contains("ssthresh = cwnd × 717/1024 (CUBIC)"),
            "{}",
            at_fr.sentence
        );
        let StepKind::FastRetransmit { cwnd_after, .. } = steps.steps[fr].kind else {
            unreachable!()
        };
        assert_eq!(readout(&at_fr, "player-cwnd"), mss(cwnd_after, steps.mss));
        assert_eq!(readout(&at_fr, "player-ca"), "Recovery");
        let written = address_of(LESSON, &steps.steps, fr);
        let wrote = lab.wait_for_search(SETTLE, |s| s == written).await;
        assert!(wrote, "the address: {} (not {written})", lab.search().await);
        assert!(
            written.contains("&step="),
            "the fast retransmit shares its instant with the duplicate ACK that triggered it: {written}"
        );
        // After the player's time the charts are greyed: the cursor layer washes over the rest.
        let covered = covered_right(lab).await;
        assert!(covered > 0.9, "the charts' future is not greyed: {covered}");
        assert_eq!(
            lab.eval_string("return document.getElementById('player-path').dataset.queue;")
                .await,
            steps.steps[fr].state.queue.to_string()
        );
        lab.screenshot("player-fast-retransmit").await;
        lab.set_window(1280, 720).await;
        lab.screenshot("player-fast-retransmit-1280x720").await;
        lab.set_window(1280, 960).await;
        lab.eval_string("document.querySelector('.charts').scrollIntoView(); return null;")
            .await;
        lab.screenshot("player-fast-retransmit-charts").await;
        lab.eval_string("window.scrollTo(0, 0); return null;").await;

        // The written address opens on the same step.
        lab.open(&written).await;
        wait_for_steps(lab).await;
        assert_eq!(shown(lab).await, at_fr, "the link did not reopen the same step");
        assert_eq!(lab.search().await, written);

        // Five steps back and five forward: the same readouts, step by step.
        let mut back = Vec::new();
        for k in 1..=5 {
            press_key(lab, Key::Left, false).await;
            assert!(wait_for_step(lab, fr - k).await, "back {k}");
            let s = shown(lab).await;
            assert_is_step(&s, &steps, fr - k);
            back.push(s);
        }
        for k in (0..5).rev() {
            press_key(lab, Key::Right, false).await;
            assert!(wait_for_step(lab, fr - k).await, "forward to {}", fr - k);
            let s = shown(lab).await;
            if k > 0 {
                assert_eq!(s, back[k - 1], "step {} differs going forward", fr - k);
            } else {
                assert_eq!(s, at_fr, "forward five did not come back to the same step");
            }
        }

        // Shift+→ goes one smoothed round trip on; Shift+← comes back to the same step.
        let srtt = steps.steps[fr].state.srtt_ms.expect("an RTT sample by now");
        let target = steps.steps[fr].t_ms + srtt;
        let on = steps
            .steps
            .iter()
            .position(|s| s.t_ms >= target)
            .expect("the run goes on for a round trip");
        press_key(lab, Key::Right, true).await;
        assert!(wait_for_step(lab, on).await, "one round trip on: {on}");
        let t_on = steps.steps[on].t_ms;
        let srtt_on = steps.steps[on].state.srtt_ms.expect("an RTT sample");
        let back_to = steps
            .steps
            .iter()
            .position(|s| s.t_ms >= t_on - srtt_on)
            .expect("a step");
        press_key(lab, Key::Left, true).await;
        assert!(wait_for_step(lab, back_to).await, "one round trip back");

        // Space plays (the time moves on), and pauses again.
        let before: f64 = lab
            .eval_string("return document.getElementById('player-time').dataset.t;")
            .await
            .parse()
            .expect("a time");
        press(lab, " ").await;
        let moved = lab
            .wait_until(SETTLE, || async move {
                let t: f64 = lab
                    .eval_string("return document.getElementById('player-time').dataset.t;")
                    .await
                    .parse()
                    .unwrap_or(0.0);
                t > before
            })
            .await;
        assert!(moved, "playing did not move the time on");
        assert_eq!(
            lab.eval_string("return document.getElementById('player-play').getAttribute('aria-pressed');")
                .await,
            "true"
        );
        press(lab, " ").await;
        let paused = lab
            .wait_until(SETTLE, || async move {
                lab.eval_string(
                    "return document.getElementById('player-play').getAttribute('aria-pressed');",
                )
                .await
                    == "false"
            })
            .await;
        assert!(paused, "space did not pause");

        // The scrubber focused, its arrows step the player, as the key guide says, rather than
        // move its thumb by a ten-thousandth of the run.
        let at = shown(lab).await.index.expect("a step on show");
        lab.eval_string("document.getElementById('player-scrub').focus(); return null;")
            .await;
        press_key(lab, Key::Right, false).await;
        assert!(
            wait_for_step(lab, at + 1).await,
            "→ on the scrubber from step {at}: {:?}",
            shown(lab).await.index
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_opens_closes_explains_in_chinese_and_refuses_a_bad_step() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        // Not a lesson: the player waits behind a button.
        lab.open("?lang=en").await;
        assert_eq!(lab.text_of("player").await, "");
        lab.click(By::Id("player-open"), "the player's button")
            .await;
        wait_for_steps(lab).await;
        let steps = record("");
        assert_is_step(&shown(lab).await, &steps, 0);
        assert_eq!(
            lab.search().await,
            "?at=0&lang=en",
            "an open player is in the link"
        );
        // A step forward with the button, then the log's first line goes back to it.
        lab.click(By::Id("player-forward"), "the step button").await;
        assert!(wait_for_step(lab, 1).await);
        lab.click(
            By::Css("#player-log .log-line[data-index='0'] button"),
            "the log's first line",
        )
        .await;
        assert!(wait_for_step(lab, 0).await);

        // In Chinese, the same step in Chinese.
        lab.click(By::Id("lang-zh"), "the Chinese switch").await;
        let zh = explain(&steps.steps[0], &steps, Language::Zh);
        let zh = &zh;
        let said = lab
            .wait_until(SETTLE, || async move {
                lab.text_of("player-sentence").await == *zh
            })
            .await;
        assert!(said, "{:?}", lab.text_of("player-sentence").await);
        assert!(lab.text_of("player-keys").await.contains("空格"));
        lab.screenshot("player-zh").await;

        // Close: the whole run again, and no cursor in the link.
        lab.click(By::Id("player-close"), "the close button").await;
        let closed = lab.wait_for_search(SETTLE, |s| s == "?lang=zh").await;
        assert!(closed, "{}", lab.search().await);
        assert!(covered_right(lab).await < 0.1, "the charts are whole again");

        // A bad step= is named in the banner; the page runs on.
        lab.open("?rtt=50&at=10&step=x&lang=en").await;
        let banner = lab.text_of("banner").await;
        assert!(
            banner.contains("step") && banner.contains("whole number"),
            "{banner:?}"
        );
        assert_eq!(lab.shown_query().await, "rtt=50");
        lab.open("?rtt=50&step=2&lang=en").await;
        let banner = lab.text_of("banner").await;
        assert!(banner.contains("needs at="), "{banner:?}");
        // A time between steps lands on the step before it, and the address says which.
        lab.open("?rtt=50&at=60&lang=en").await;
        wait_for_steps(lab).await;
        let steps = record("rtt=50");
        let i = steps
            .steps
            .iter()
            .rposition(|s| s.t_ms <= 60.0)
            .expect("a step");
        assert!(wait_for_step(lab, i).await);
        let expected = address_of("rtt=50", &steps.steps, i);
        let settled = lab.wait_for_search(SETTLE, |s| s == expected).await;
        assert!(settled, "{} is not {expected}", lab.search().await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// How long the steps take from the worker to the page, for a lesson and for a fast run cut at
/// the cap: `cargo test -p tcplab-e2e --test player -- --ignored --nocapture`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, not a check"]
async fn bench_the_steps_transfer() {
    with_lab(|lab| async move {
        let lab = &*lab;
        for query in ["preset=post-slow-start", "app=bulk&dur=1"] {
            for round in 0..6 {
                // Every other round without the steps, for comparison.
                let steps = round % 2 == 0;
                let cursor = if steps { "&at=0" } else { "" };
                lab.open(&format!("?{query}{cursor}&lang=en")).await;
                if steps {
                    wait_for_steps(lab).await;
                }
                lab.eval_string(
                    "window.__long = [];
                     new PerformanceObserver(l => window.__long.push(...l.getEntries()))
                         .observe({ type: 'longtask', buffered: true });
                     return null;",
                )
                .await;
                tokio::time::sleep(Duration::from_millis(300)).await;
                let longest = lab
                    .eval_string(
                        "return String(Math.max(0, ...window.__long.map(e => e.duration)));",
                    )
                    .await;
                let m = lab
                    .eval_string(
                        "const at = n => { const e = performance.getEntriesByName(n); return e.length ? e[e.length - 1].startTime : NaN; };
                         const p = document.getElementById('player');
                         return JSON.stringify({
                             request: at('tcplab-steps-request'), reply: at('tcplab-steps-reply'),
                             view: at('tcplab-view'), steps: at('tcplab-steps'),
                             count: p ? p.dataset.steps : '' });",
                    )
                    .await;
                let v: Value = serde_json::from_str(&m).unwrap_or(Value::Null);
                let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
                println!(
                    "{query} (round {round}): {} steps; steps requested to reply {:.1} ms, reply to steps unpacked {:.1} ms; longest task {longest} ms",
                    if steps { v["count"].as_str().unwrap_or("") } else { "no" },
                    f("reply") - f("request"),
                    f("steps") - f("reply"),
                );
            }
        }
        // Playing: how evenly the page's frames come while the player moves on every frame.
        for query in ["cc=cubic&body=300000&drop=20", "app=bulk&dur=1&at=400"] {
            lab.open(&format!("?{query}&lang=en")).await;
            wait_for_steps(lab).await;
            lab.eval_string(
                "window.__gaps = []; let last = performance.now();
                 const tick = now => { window.__gaps.push(now - last); last = now;
                                       requestAnimationFrame(tick); };
                 requestAnimationFrame(tick);
                 return null;",
            )
            .await;
            press(lab, " ").await;
            tokio::time::sleep(Duration::from_secs(3)).await;
            let stats = lab
                .eval_string(
                    "const g = window.__gaps.slice(2).sort((a, b) => a - b);
                     return `${g.length} frames in 3 s; median ${g[g.length >> 1].toFixed(1)} ms, \
                             95th percentile ${g[Math.floor(g.length * 0.95)].toFixed(1)} ms, \
                             worst ${g[g.length - 1].toFixed(1)} ms`;",
                )
                .await;
            let t = lab.text_of("player-time").await;
            let paints = lab
                .eval_string(
                    "return Array.from(document.querySelectorAll('canvas.chart-cursor'))
                        .map(c => c.closest('figure').dataset.chart + ' ' + c.dataset.paintMs + ' ms').join(', ');",
                )
                .await;
            println!("{query}: the cursor layers' last repaint: {paints}");
            press(lab, " ").await;
            println!("{query}, playing at x1/100 to {t}: {stats}");
        }
        // A long run: when the steps around the cursor are on show, and when the charts' run,
        // both from the navigation (the two workers run at once).
        for query in ["app=bulk&dur=600&at=0", "app=bulk&dur=600&at=120000"] {
            for _ in 0..3 {
                lab.open(&format!("?{query}&lang=en")).await;
                wait_for_steps(lab).await;
                let m = lab
                    .eval_string(
                        "const at = n => { const e = performance.getEntriesByName(n); return e.length ? e[0].startTime : NaN; };
                         return JSON.stringify({ view: at('tcplab-view'), steps: at('tcplab-steps') });",
                    )
                    .await;
                let v: Value = serde_json::from_str(&m).unwrap_or(Value::Null);
                let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
                println!(
                    "{query}: steps in {:.0} ms, the charts' run in {:.0} ms from the navigation",
                    f("steps"),
                    f("view")
                );
            }
        }
    })
    .await;
}

/// Screenshots of the player at moments a lesson stops on: a head-of-line release, a timeout,
/// a full pipe, and large type on a projector's 1280x720 (`target/e2e/player-*.png`):
/// `cargo test -p tcplab-e2e --test player gallery -- --ignored`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "screenshots for people, not a check"]
async fn gallery() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        for (query, kind, name) in [
            ("preset=hol-blocking", "hol_release", "player-hol-release"),
            ("loss=10&body=200000&sack=0", "timeout", "player-timeout"),
        ] {
            let steps = record(query);
            let i = steps
                .steps
                .iter()
                .position(|s| s.kind.name() == kind)
                .unwrap_or_else(|| panic!("{query} has no {kind}"));
            lab.open(&format!(
                "?{}&lang=en",
                address_of(query, &steps.steps, i)[1..].trim_end_matches("&lang=en")
            ))
            .await;
            wait_for_steps(lab).await;
            assert!(wait_for_step(lab, i).await, "{query}: step {i}");
            lab.screenshot(name).await;
        }
        lab.open("?app=bulk&dur=1&at=500&lang=en").await;
        wait_for_steps(lab).await;
        lab.screenshot("player-full-pipe").await;
        lab.open("?app=bulk&dur=1&at=500&lang=zh").await;
        wait_for_steps(lab).await;
        lab.screenshot("player-full-pipe-zh").await;
        // A phone reader of a lesson link: the path's picture under the sentence.
        lab.set_window(390, 844).await;
        lab.open("?preset=lesson-fast-retransmit&lang=en").await;
        wait_for_steps(lab).await;
        lab.eval_string(
            "document.getElementById('player-path').scrollIntoView({block: 'center'}); return null;",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        lab.screenshot("player-path-390x844").await;
        lab.set_window(1280, 720).await;
        lab.open(&format!("?{LESSON}&lang=en")).await;
        lab.click(By::Id("large-type"), "the large-type switch")
            .await;
        wait_for_steps(lab).await;
        press(lab, "nn").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        lab.screenshot("player-large-type-1280x720").await;
        // Large type is stored as a preference: off again, as it was found.
        lab.click(By::Id("large-type"), "the large-type switch")
            .await;
    })
    .await;
}
