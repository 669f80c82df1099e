//! The page as its users first meet it, in headless Chromium: a lesson link opens on drawn charts
//! with its player on the lesson's moment; a phone sees the verdict before any slider; a click
//! on a chart moves the player; Space plays wherever the focus is; a link with three bad keys
//! names all three and keeps the rest; ten arrow presses on a slider make one Back entry; a link
//! carries no language the reader did not choose; a first visit fetches none of the views'
//! modules, which come when a view is opened, and a view whose module fails to come says so,
//! tries again on a click and leaves the rest of the page at work. Screenshots at 390 x 844,
//! 360 x 640, 1280 x 720 and 1920 x 1080 go to `target/e2e/`.

use std::time::Duration;

use tcplab_e2e::{assert_cards_match_runner, with_lab, Lab};
use thirtyfour::prelude::*;

const SETTLE: Duration = Duration::from_secs(10);

/// The kind of the step the player stands on, and its index.
async fn player_step(lab: &Lab) -> (String, String) {
    let kind = lab
        .eval_string(
            "const k = document.getElementById('player-kind'); return k ? k.dataset.kind : '';",
        )
        .await;
    let index = lab
        .eval_string(
            "const t = document.getElementById('player-time'); return t ? t.dataset.index : '';",
        )
        .await;
    (kind, index)
}

/// Presses Space wherever the focus is and waits until Play is pressed (`"true"`) or not.
async fn space_makes(lab: &Lab, pressed: &str) -> bool {
    lab.driver
        .action_chain()
        .send_keys(" ")
        .perform()
        .await
        .expect("press Space");
    lab.wait_until(SETTLE, || async move {
        lab.eval_string(
            "return document.getElementById('player-play').getAttribute('aria-pressed');",
        )
        .await
            == pressed
    })
    .await
}

/// The alpha of the cursor layer's pixel at `share` of the first time chart's width, halfway
/// down: 0 where nothing covers the chart, 255 where the chart is hidden.
async fn cover_alpha(lab: &Lab, share: f64) -> u32 {
    let a = lab
        .eval_string(&format!(
            "const c = document.querySelector('.charts .chart-cursor');
             if (!c) return '';
             const x = Math.floor(c.width * {share}), y = Math.floor(c.height / 2);
             return String(c.getContext('2d').getImageData(x, y, 1, 1).data[3]);"
        ))
        .await;
    a.parse().unwrap_or(u32::MAX)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_link_opens_on_drawn_charts_at_its_moment() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 720).await;
        for (preset, moment) in [
            ("lesson-fast-retransmit", "fast_retransmit"),
            ("lesson-tail-loss-probe", "loss_probe"),
            ("lesson-timeout", "timeout"),
        ] {
            lab.open(&format!("?preset={preset}")).await;
            let on_moment = lab
                .wait_until(SETTLE, || async move { player_step(lab).await.0 == moment })
                .await;
            assert!(
                on_moment,
                "{preset}: the player stands on {:?}",
                player_step(lab).await
            );
            assert!(
                lab.search().await.contains("at="),
                "{preset}: the address names the step: {}",
                lab.search().await
            );
            lab.screenshot(&format!("lesson-{preset}-1280x720")).await;
        }
        // The slow-start lesson opens at its first step: the whole run is drawn, the part after
        // the cursor greyed, not hidden.
        lab.open("?preset=post-slow-start").await;
        assert!(lab.charts_drawn().await);
        let greyed = cover_alpha(lab, 0.8).await;
        assert!(
            greyed > 0 && greyed < 230,
            "after the cursor the chart is greyed and still seen (alpha {greyed})"
        );
        lab.set_window(1920, 1080).await;
        lab.screenshot("lesson-post-slow-start-1920x1080").await;

        // Closed, the player stays closed on reload.
        lab.click(By::Id("player-close"), "the player's Close")
            .await;
        let closed = lab
            .wait_for_search(SETTLE, |s| s.contains("player=0"))
            .await;
        assert!(closed, "closing writes player=0: {}", lab.search().await);
        let search = lab.search().await;
        lab.open(&search).await;
        assert_eq!(
            lab.eval_string("return String(!!document.getElementById('player-play'));")
                .await,
            "false",
            "the player stays closed"
        );
        assert_eq!(cover_alpha(lab, 0.8).await, 0, "nothing covers the charts");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_sees_the_verdict_before_the_controls() {
    with_lab(|lab| async move {
        let lab = &*lab;
        for (w, h) in [(390, 844), (360, 640)] {
            lab.set_window(w, h).await;
            lab.open("?preset=loss-sweep").await;
            let layout = lab
                .eval_string(
                    "const r = id => document.getElementById(id).getBoundingClientRect();
                     return JSON.stringify({ verdict: r('verdict').top, toggle: r('settings-toggle').top,
                         chart: document.querySelector('.charts canvas').getBoundingClientRect().top,
                         slider: r('rtt').height, scroll: document.documentElement.scrollWidth });",
                )
                .await;
            let v: serde_json::Value = serde_json::from_str(&layout).expect("the layout");
            let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
            assert!(f("verdict") < f64::from(h) / 2.0, "{w}x{h}: the verdict on the first screen: {v}");
            assert!(f("verdict") < f("chart") && f("chart") < f("toggle"), "{w}x{h}: verdict, chart, then controls: {v}");
            assert_eq!(f("slider"), 0.0, "{w}x{h}: the sliders are folded away: {v}");
            assert!(f("scroll") <= f64::from(w), "{w}x{h}: nothing wider than the screen: {v}");
            lab.screenshot(&format!("phone-{w}x{h}")).await;
        }
        // The panel opens, and the sliders in it work.
        lab.set_window(390, 844).await;
        lab.click(By::Id("settings-toggle"), "the settings toggle").await;
        let shown = lab
            .eval_string("return String(document.getElementById('rtt').getBoundingClientRect().height > 0);")
            .await;
        assert_eq!(shown, "true", "the sliders show once the panel is open");
        lab.slide_to_share("loss", 0.5).await;
        let moved = lab.wait_for_search(SETTLE, |s| s.contains("loss=")).await;
        assert!(moved, "{}", lab.search().await);
        lab.wait_for_run(SETTLE).await;
        // With the slider in view, the run's verdict and goodput stand at the foot of the
        // screen: the results are far above.
        let peek = || async {
            let json = lab
                .eval_string(
                    "const p = document.getElementById('run-peek');
                     const b = p.getBoundingClientRect();
                     return JSON.stringify({ top: b.top, bottom: b.bottom, h: innerHeight,
                         text: p.innerText, verdict: document.querySelector('#verdict strong').innerText,
                         goodput: document.querySelector('#card-goodput .big').innerText });",
                )
                .await;
            serde_json::from_str::<serde_json::Value>(&json).expect("the peek")
        };
        lab.eval_string("document.getElementById('rtt').scrollIntoView({block: 'center'}); return null;")
            .await;
        let p = peek().await;
        let f = |k: &str| p[k].as_f64().unwrap_or(f64::NAN);
        assert!((f("bottom") - f("h")).abs() < 1.0 && f("top") > f("h") / 2.0, "at the foot: {p}");
        let text = p["text"].as_str().unwrap_or_default();
        let verdict = p["verdict"].as_str().unwrap_or("?");
        let goodput = p["goodput"].as_str().unwrap_or("?").replace(char::is_whitespace, "");
        assert!(text.starts_with(verdict), "the headline's verdict: {p}");
        assert!(text.replace(char::is_whitespace, "").contains(&goodput), "the card's goodput: {p}");
        lab.screenshot("phone-390x844-settings").await;
        // A wide screen has the results beside the controls: no line repeats them.
        lab.set_window(1280, 720).await;
        assert_eq!(
            lab.eval_string("return getComputedStyle(document.getElementById('run-peek')).display;")
                .await,
            "none"
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_click_on_a_chart_moves_the_player_and_space_plays_from_a_button() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 720).await;
        lab.open("?preset=lesson-fast-retransmit").await;
        let ready = lab
            .wait_until(SETTLE, || async move { player_step(lab).await.0 == "fast_retransmit" })
            .await;
        assert!(ready);
        // Every chart drawn, those out of view too (they follow the ones in view).
        lab.wait_for_run(SETTLE).await;
        let before = lab.search().await;
        // A click three quarters of the way along the window chart.
        lab.eval_string(
            "const c = document.querySelector('.charts .chart-cursor');
             const r = c.getBoundingClientRect();
             const o = { bubbles: true, clientX: r.left + r.width * 0.75, clientY: r.top + r.height / 2 };
             c.dispatchEvent(new MouseEvent('click', o));
             return null;",
        )
        .await;
        let moved = lab.wait_for_search(SETTLE, |s| s != before).await;
        assert!(moved, "the click moved the player: {before}");
        let at = |s: &str| {
            s.split(['?', '&'])
                .find_map(|p| p.strip_prefix("at="))
                .and_then(|v| v.parse::<f64>().ok())
        };
        let (was, now) = (at(&before), at(&lab.search().await));
        assert!(now > was, "later in the run: {was:?} -> {now:?}");

        // Space after clicking a button plays; again, pauses. The button is not pressed again.
        let clicked_at = player_step(lab).await;
        lab.click(By::Id("player-back-landmark"), "the player's previous-key-event button").await;
        let back = lab
            .wait_until(SETTLE, || {
                let clicked_at = clicked_at.clone();
                async move { player_step(lab).await != clicked_at }
            })
            .await;
        assert!(back, "back to the previous key event: {:?}", player_step(lab).await);
        let (landmark, lost_at) = player_step(lab).await;
        let focused = lab.focused_id().await;
        assert_eq!(focused, "player-back-landmark");
        let width = lab
            .eval_string("return String(document.getElementById('player-play').getBoundingClientRect().width);")
            .await;
        assert!(space_makes(lab, "true").await, "Space plays");
        let width_playing = lab
            .eval_string("return String(document.getElementById('player-play').getBoundingClientRect().width);")
            .await;
        assert_eq!(width, width_playing, "Play and Pause take the same room");
        // Let it play on for a moment: at the default speed a round trip takes seconds.
        let moved = lab
            .wait_until(SETTLE, || {
                let lost_at = lost_at.clone();
                async move { player_step(lab).await.1 != lost_at }
            })
            .await;
        assert!(moved, "playing moves the player on");
        assert!(space_makes(lab, "false").await, "Space again pauses");
        let (kind, at) = player_step(lab).await;
        let (at, lost_at): (usize, usize) = (at.parse().unwrap_or(0), lost_at.parse().unwrap_or(0));
        assert!(
            at > lost_at,
            "it played on from the {landmark} ({lost_at} -> {at}, {kind}): the button was not pressed again"
        );

        // The log can hide the sends and the ACKs: a class sees the losses and repairs.
        let tones = || async move {
            lab.eval_string(
                "return Array.from(document.querySelectorAll('#player-log .log-line:not(.current)'))
                     .map(l => Array.from(l.classList).find(c => c.startsWith('tone-'))).join(' ');",
            )
            .await
        };
        assert!(tones().await.contains("tone-"), "the log has lines");
        lab.click(By::Id("log-show-send"), "the log's sends box").await;
        lab.click(By::Id("log-show-ack"), "the log's ACKs box").await;
        let filtered = lab
            .wait_until(SETTLE, || async move {
                let t = tones().await;
                !t.contains("tone-send") && !t.contains("tone-ack")
            })
            .await;
        assert!(filtered, "sends and ACKs hidden: {}", tones().await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_name_every_bad_key_keep_the_rest_and_carry_no_unchosen_language() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 720).await;
        lab.open("?rtt=abc&cc=bbr&loss=200&bw=20&mss=9").await;
        let count = lab
            .eval_string("return document.getElementById('banner').dataset.count;")
            .await;
        assert_eq!(count, "3", "three bad keys named");
        let banner = lab.text_of("banner").await;
        for key in ["rtt", "loss", "mss"] {
            assert!(banner.contains(key), "{key} in {banner:?}");
        }
        assert_cards_match_runner(lab, "cc=bbr&bw=20").await;
        lab.screenshot("bad-link-1280x720").await;
        // In the page's language too.
        lab.open("?rtt=abc&lang=zh").await;
        let banner = lab.text_of("banner").await;
        assert!(banner.contains("不是数字"), "{banner:?}");

        // No language written unless chosen.
        lab.open("?rtt=50").await;
        assert_eq!(lab.search().await, "?rtt=50");
        lab.click(
            By::Css(".lang-switch button[aria-pressed='false']"),
            "the other language",
        )
        .await;
        let chosen = lab.wait_for_search(SETTLE, |s| s.contains("lang=")).await;
        assert!(
            chosen,
            "a chosen language is written: {}",
            lab.search().await
        );

        // Ten presses of an arrow on a slider are one step back.
        lab.open("?rtt=50&lang=en").await;
        let length = lab.eval_string("return String(history.length);").await;
        let slider = lab
            .driver
            .find(By::Id("rtt"))
            .await
            .expect("the RTT slider");
        for _ in 0..10 {
            slider.send_keys(Key::Right).await.expect("press Right");
        }
        let moved = lab
            .wait_for_search(SETTLE, |s| {
                s.starts_with("?rtt=") && !s.starts_with("?rtt=50&")
            })
            .await;
        assert!(moved, "{}", lab.search().await);
        tokio::time::sleep(Duration::from_millis(400)).await;
        let after = lab.eval_string("return String(history.length);").await;
        let (before, after): (u32, u32) = (length.parse().unwrap_or(0), after.parse().unwrap_or(0));
        assert_eq!(after, before + 1, "one history entry for the ten presses");
        lab.eval_string("history.back(); return null;").await;
        let back = lab
            .wait_for_search(SETTLE, |s| s == "?rtt=50&lang=en")
            .await;
        assert!(
            back,
            "Back undoes the whole gesture: {}",
            lab.search().await
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// The time range the charts show (`lo,hi` in ms), empty for the whole run.
async fn charts_range(lab: &Lab) -> String {
    lab.eval_string("return document.querySelector('.charts').dataset.range;")
        .await
}

/// Waits until the charts show a range, and reads it.
async fn wait_for_range(lab: &Lab) -> Option<(f64, f64)> {
    lab.wait_until(
        SETTLE,
        || async move { !charts_range(lab).await.is_empty() },
    )
    .await;
    let r = charts_range(lab).await;
    r.split_once(',')
        .and_then(|(a, b)| Some((a.parse::<f64>().ok()?, b.parse::<f64>().ok()?)))
}

/// Each time chart's drawn time range, as its canvas says after drawing: `kind:draws`.
async fn chart_draws(lab: &Lab) -> Vec<(String, u32)> {
    let json = lab
        .eval_string(
            "return JSON.stringify(Array.from(document.querySelectorAll('.charts figure[data-chart]'))
                 .map(f => [f.dataset.chart, Number(f.querySelector('canvas.chart-base').dataset.draws || 0)]));",
        )
        .await;
    serde_json::from_str::<Vec<(String, u32)>>(&json).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drag_zooms_every_time_chart_and_a_double_click_shows_the_whole_run() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?preset=loss-sweep&lang=en").await;
        let before = chart_draws(lab).await;
        assert!(before.len() >= 4, "{before:?}");
        // A drag across the middle fifth of the window chart.
        lab.eval_string(
            "const c = document.querySelector('.tl-chart-cwnd canvas.chart-cursor');
             const r = c.getBoundingClientRect();
             const at = f => ({ bubbles: true, pointerId: 1, pointerType: 'mouse', button: 0,
                 buttons: 1, clientX: r.left + r.width * f, clientY: r.top + r.height / 2 });
             c.dispatchEvent(new PointerEvent('pointerdown', at(0.4)));
             c.dispatchEvent(new PointerEvent('pointermove', at(0.5)));
             c.dispatchEvent(new PointerEvent('pointermove', at(0.6)));
             c.dispatchEvent(new PointerEvent('pointerup', { ...at(0.6), buttons: 0 }));
             c.dispatchEvent(new MouseEvent('click', at(0.6)));
             return null;",
        )
        .await;
        let range = || charts_range(lab);
        let (a, b) = wait_for_range(lab).await.expect("the drag zoomed");
        let r = range().await;
        assert!(
            a > 1000.0 && b < 4500.0 && b > a,
            "the middle of a 5.5 s run: {r}"
        );
        // Every time chart drew again for it; the link did not change (a zoom is a view).
        let redrawn = lab
            .wait_until(SETTLE, || {
                let before = before.clone();
                async move {
                    let now = chart_draws(lab).await;
                    now.iter()
                        .filter(|(k, _)| k != "latency-cdf")
                        .all(|(k, n)| before.iter().any(|(k0, n0)| k0 == k && n > n0))
                }
            })
            .await;
        assert!(
            redrawn,
            "every time chart redrew: {before:?} -> {:?}",
            chart_draws(lab).await
        );
        assert_eq!(lab.search().await, "?preset=loss-sweep&lang=en");
        let bar = lab.text_of("zoom-bar").await;
        assert!(bar.contains("Showing"), "{bar:?}");
        lab.screenshot("zoomed-1280x960").await;

        // A double-click shows the whole run again.
        lab.eval_string(
            "const c = document.querySelector('.tl-chart-goodput canvas.chart-cursor');
             c.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
             return null;",
        )
        .await;
        let whole = lab
            .wait_until(SETTLE, || async move { range().await.is_empty() })
            .await;
        assert!(whole, "the double-click reset the zoom: {}", range().await);

        // Two fingers spreading apart on a chart zoom in around them.
        lab.eval_string(
            "const c = document.querySelector('.tl-chart-goodput canvas.chart-cursor');
             const r = c.getBoundingClientRect();
             const at = (id, f) => ({ bubbles: true, pointerId: id, pointerType: 'touch',
                 isPrimary: id === 11, clientX: r.left + r.width * f, clientY: r.top + r.height / 2 });
             c.dispatchEvent(new PointerEvent('pointerdown', at(11, 0.45)));
             c.dispatchEvent(new PointerEvent('pointerdown', at(12, 0.55)));
             c.dispatchEvent(new PointerEvent('pointermove', at(11, 0.35)));
             c.dispatchEvent(new PointerEvent('pointermove', at(12, 0.65)));
             c.dispatchEvent(new PointerEvent('pointerup', at(11, 0.35)));
             c.dispatchEvent(new PointerEvent('pointerup', at(12, 0.65)));
             return null;",
        )
        .await;
        let (a, b) = wait_for_range(lab).await.expect("the pinch zoomed");
        assert!(
            b - a < 0.5 * 5500.0 && a > 0.0,
            "three times the spread, a third of the run: {}",
            range().await
        );

        // The window's axis on a log scale: slow start's doubling as a straight line.
        lab.open("?preset=post-slow-start&player=0&lang=en").await;
        let draws = || async move {
            chart_draws(lab)
                .await
                .into_iter()
                .find(|(k, _)| k == "cwnd")
                .map_or(0, |(_, n)| n)
        };
        let before = draws().await;
        lab.click(By::Id("window-log"), "the log-scale box").await;
        let redrawn = lab
            .wait_until(SETTLE, || async move { draws().await > before })
            .await;
        assert!(redrawn, "the window chart redrew on a log scale");
        lab.screenshot("window-log-1280x960").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_long_run_the_charts_follow_the_player() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?rtt=20&app=bulk&dur=2&at=500&lang=en").await;
        let range = || charts_range(lab);
        let (a, b) = wait_for_range(lab)
            .await
            .expect("a 100-round-trip run is followed");
        let r = range().await;
        assert!(
            a <= 500.0 && 500.0 <= b && b - a < 300.0,
            "ten round trips about the player: {r}"
        );
        lab.screenshot("following-1280x960").await;
        // The reader chooses the whole run.
        lab.eval_string(
            "const s = document.getElementById('player-follow'); s.value = '1';
             s.dispatchEvent(new Event('change', { bubbles: true })); return null;",
        )
        .await;
        let whole = lab
            .wait_until(SETTLE, || async move { range().await.is_empty() })
            .await;
        assert!(whole, "the whole run again: {}", range().await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// The player's time in ms, from the address's `at=`.
fn at_of(search: &str) -> Option<f64> {
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|kv| kv.strip_prefix("at="))
        .and_then(|v| v.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_runs_player_opens_on_the_part_around_its_cursor() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        // Ten minutes at 1 Gbit/s: tens of millions of steps, of which the player keeps
        // 100 000 around its cursor.
        lab.open("?app=bulk&dur=600&at=0&lang=en").await;
        let has_step = || async move { !player_step(lab).await.1.is_empty() };
        assert!(
            lab.wait_until(SETTLE, has_step).await,
            "the player got its steps: {:?}",
            lab.text_of("player").await
        );
        let count = lab
            .eval_string("return document.querySelector('.player-count').textContent;")
            .await;
        assert!(
            count.starts_with("100,000 steps, 0 ms to "),
            "the record says what part it holds: {count:?}"
        );
        assert_eq!(
            lab.eval_string("return String(!!document.getElementById('scrub-recorded'));")
                .await,
            "true",
            "the scrubber marks the recorded part"
        );
        lab.wait_for_run(SETTLE * 3).await;
        // The scrubber to four fifths of the run: its part is recorded, the player stands there.
        lab.eval_string(
            "const s = document.getElementById('player-scrub'); s.value = '8000';
             s.dispatchEvent(new Event('input', { bubbles: true })); return null;",
        )
        .await;
        // The page's budget ends the charts' run after some seconds of it; four fifths of
        // that is far past the first record's 0.7 s.
        let there = lab
            .wait_until(SETTLE, || async move {
                let at = at_of(&lab.search().await).unwrap_or(0.0);
                at > 5_000.0 && !player_step(lab).await.1.is_empty()
            })
            .await;
        let count = lab
            .eval_string("return document.querySelector('.player-count').textContent;")
            .await;
        assert!(
            there,
            "the player stands at four fifths of the run: {} ({count:?})",
            lab.search().await
        );
        assert!(!count.contains(" 0 ms to "), "a later part: {count:?}");
        lab.screenshot("long-run-player-1280x960").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// Elements of the results that reach past the screen's right edge or are cut by their own box
/// (text wider than the element that shows it), as `tag#id.class: how far`.
async fn overflowing(lab: &Lab) -> Vec<String> {
    let json = lab
        .eval_string(
            "const w = document.documentElement.clientWidth; const out = [];
             const name = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
                 (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '');
             for (const e of document.querySelectorAll('.results *')) {
                 const r = e.getBoundingClientRect();
                 if (r.width === 0 || r.height === 0) continue;
                 // Inside a box that scrolls sideways, reaching past the screen is the point.
                 let scroller = false;
                 for (let p = e.parentElement; p; p = p.parentElement) {
                     const o = getComputedStyle(p).overflowX;
                     if (o === 'auto' || o === 'scroll') { scroller = true; break; }
                 }
                 if (!scroller && r.right > w + 1) out.push(name(e) + ' right ' + Math.round(r.right - w));
                 const s = getComputedStyle(e);
                 // An ellipsis with the whole text in a tooltip is a choice, not a cut.
                 const told = s.textOverflow === 'ellipsis' && e.closest('[title]');
                 if (!told && s.overflowX === 'hidden' && e.scrollWidth > e.clientWidth + 1 && e.children.length === 0)
                     out.push(name(e) + ' cut ' + (e.scrollWidth - e.clientWidth));
             }
             return JSON.stringify(out.slice(0, 20));",
        )
        .await;
    serde_json::from_str(&json).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_reads_a_run_a_sweep_a_matrix_and_a_comparison_whole() {
    with_lab(|lab| async move {
        let lab = &*lab;
        let pages = [
            ("run", "?preset=loss-sweep&lang=en"),
            ("run-queue", "?preset=bufferbloat&lang=en"),
            ("sweep", "?dur=3&view=sweep&key=loss&values=0.1,0.5,1,2,5&seeds=1&lang=en"),
            (
                "matrix",
                "?preset=multi-flow&dur=2&view=matrix&key=flows&values=1,4,8&key2=rtt&values2=10,50,100&key3=loss&values3=0,0.1,1&lang=en",
            ),
            (
                "compare",
                "?cc=reno&rtt=50&bw=100&loss=0.5&dur=3&view=compare&b=cc%3Dbbr%26rtt%3D50%26bw%3D100%26loss%3D0.5%26dur%3D3&lang=en",
            ),
        ];
        for (w, h) in [(390, 844), (360, 640)] {
            lab.set_window(w, h).await;
            for (name, address) in pages {
                lab.driver
                    .goto(lab.server.url(address))
                    .await
                    .expect("load the page");
                if name.starts_with("run") {
                    lab.wait_for_run(Duration::from_secs(60)).await;
                } else {
                    lab.wait_for_batch(Duration::from_secs(120)).await;
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
                lab.screenshot(&format!("phone-{name}-{w}x{h}")).await;
                for (part, selector) in [
                    ("chart", ".sweep-figure, .charts"),
                    ("table", ".table-wrap"),
                    ("last", ".charts figure:last-of-type"),
                ] {
                    let there = lab
                        .eval_string(&format!(
                            "const t = document.querySelector('{selector}');
                             if (t) t.scrollIntoView(); return String(!!t);"
                        ))
                        .await;
                    if there == "true" {
                        lab.screenshot(&format!("phone-{name}-{w}x{h}-{part}")).await;
                    }
                }
                let over = overflowing(lab).await;
                assert!(over.is_empty(), "{name} at {w}x{h}: {over:?}");
                let scroll = lab
                    .eval_string("return String(document.documentElement.scrollWidth);")
                    .await;
                assert!(
                    scroll.parse::<u32>().unwrap_or(u32::MAX) <= w,
                    "{name} at {w}x{h}: the page is {scroll} px wide"
                );
            }
        }
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// The views' own modules the page has fetched so far (`split_*`, and the `chunk_*` they share),
/// by name without the content hash, sorted.
async fn view_modules_fetched(lab: &Lab) -> Vec<String> {
    let names = lab
        .eval_string(
            "return performance.getEntriesByType('resource').map(e => e.name.split('/').pop())
                 .filter(n => /^(split|chunk)_/.test(n))
                 .map(n => n.replace(/-[0-9a-f]{16}\\.wasm$/, '')).sort().join(' ');",
        )
        .await;
    names.split_whitespace().map(str::to_owned).collect()
}

/// Clicks `what` (found by id `id`) and waits until an element matches `selector`.
async fn click_until(lab: &Lab, id: &str, what: &str, selector: &str) -> bool {
    lab.click(By::Id(id), what).await;
    let script = format!("return String(!!document.querySelector('{selector}'));");
    lab.wait_until(SETTLE, || {
        let script = script.clone();
        async move { lab.eval_string(&script).await == "true" }
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_visit_fetches_no_view_it_does_not_show_and_a_view_comes_when_opened() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?lang=en").await;
        assert!(
            lab.wait_until(SETTLE, || lab.charts_drawn()).await,
            "the default charts were not drawn"
        );
        assert_eq!(
            view_modules_fetched(lab).await,
            Vec::<String>::new(),
            "a first visit fetched a view's module"
        );
        let shown = click_until(lab, "view-sweep", "the Sweep tab", "#sweep-view").await;
        assert!(shown, "the sweep was not drawn: {:?}", lab.console().await);
        let fetched = view_modules_fetched(lab).await;
        assert!(fetched.iter().any(|n| n == "split_sweep"), "{fetched:?}");
        for other in [
            "split_matrix",
            "split_compare",
            "split_diagnose",
            "split_player",
            "split_lesson",
        ] {
            assert!(!fetched.iter().any(|n| n == other), "{other}: {fetched:?}");
        }
        // Opened again, the sweep is drawn from the module already in: nothing is fetched twice.
        lab.click(By::Id("view-lab"), "the One run tab").await;
        let shown = click_until(lab, "view-sweep", "the Sweep tab", "#sweep-view").await;
        assert!(shown, "the sweep was not drawn again");
        assert_eq!(view_modules_fetched(lab).await, fetched);
        // The player comes with its own module, and a lesson's panel is still not fetched.
        lab.click(By::Id("view-lab"), "the One run tab").await;
        let shown = click_until(lab, "player-open", "Step through", "#player").await;
        assert!(shown, "the player was not drawn: {:?}", lab.console().await);
        let fetched = view_modules_fetched(lab).await;
        assert!(fetched.iter().any(|n| n == "split_player"), "{fetched:?}");
        assert!(!fetched.iter().any(|n| n == "split_lesson"), "{fetched:?}");
        // The JSON export's writers come when first asked for, and the file is saved.
        assert!(
            !fetched.iter().any(|n| n == "split_export_json"),
            "{fetched:?}"
        );
        let (name, summary) = lab.export("export-summary-json", false).await;
        assert!(name.ends_with("-summary.json"), "{name}");
        let summary: serde_json::Value =
            serde_json::from_str(&summary).expect("the summary parses");
        assert_eq!(summary["scenario"], "");
        let fetched = view_modules_fetched(lab).await;
        assert!(
            fetched.iter().any(|n| n == "split_export_json"),
            "{fetched:?}"
        );
        assert!(
            !fetched.iter().any(|n| n == "split_rare_figures"),
            "{fetched:?}"
        );
        // A run with a chart the default one lacks (BBR's model) brings the rare charts'
        // module, and the charts count as drawn only once that chart is.
        lab.open("?lang=en&cc=bbr&dur=2").await;
        assert!(
            lab.wait_until(SETTLE, || lab.charts_drawn()).await,
            "the BBR run's charts were not drawn: {:?}",
            lab.console().await
        );
        let fetched = view_modules_fetched(lab).await;
        assert!(
            fetched.iter().any(|n| n == "split_rare_figures"),
            "{fetched:?}"
        );
        let bbr = lab
            .eval_string(
                "const c = document.querySelector('[data-chart=bbr] canvas.chart-base');
                 return c ? String(c.getAttribute('data-drawn') !== null) : 'none';",
            )
            .await;
        assert_eq!(bbr, "true", "the BBR chart was not drawn");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_view_whose_module_cannot_be_fetched_says_so_and_the_page_keeps_working() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?lang=en").await;
        // The network fails for the diagnosis's module alone, as it would offline.
        lab.eval_string(
            "const real = window.fetch;
             window.__realFetch = real;
             window.fetch = (url, ...rest) => String(url).includes('split_diagnose')
                 ? Promise.reject(new TypeError('offline')) : real(url, ...rest);
             return '';",
        )
        .await;
        let failed = click_until(
            lab,
            "view-diagnose",
            "the Diagnose tab",
            "[data-lazy=failed]",
        )
        .await;
        assert!(failed, "no message: {:?}", lab.console().await);
        let message = lab
            .eval_string("return document.querySelector('[data-lazy=failed]').textContent;")
            .await;
        assert!(message.contains("could not be fetched"), "{message}");
        assert!(message.contains("reload the page"), "{message}");
        lab.screenshot("view-module-failed-1280x960").await;
        // Back online, Try again brings the view.
        lab.eval_string("window.fetch = window.__realFetch; return '';")
            .await;
        let shown = click_until(lab, "lazy-retry", "Try again", "#diagnose").await;
        assert!(
            shown,
            "Try again did not bring the view: {:?}",
            lab.console().await
        );
        // The rest of the page works: back to the run, whose charts are drawn, and a slider
        // moved there gives a new run.
        lab.click(By::Id("view-lab"), "the One run tab").await;
        assert!(lab.wait_until(SETTLE, || lab.charts_drawn()).await);
        let before = lab.shown_query().await;
        lab.slide_to_share("rtt", 0.3).await;
        lab.wait_for_run(SETTLE).await;
        assert!(lab.wait_until(SETTLE, || lab.charts_drawn()).await);
        assert_ne!(
            lab.shown_query().await,
            before,
            "no new run after the failed view"
        );
    })
    .await;
}

/// The files served to this test's pages after the first `since` whose name starts with
/// `prefix`: the page's and its workers' fetches alike.
fn served_named(lab: &Lab, since: usize, prefix: &str) -> Vec<String> {
    lab.server
        .served()
        .into_iter()
        .skip(since)
        .filter_map(|p| p.rsplit('/').next().map(str::to_owned))
        .filter(|n| n.starts_with(prefix))
        .collect()
}

/// A shared link's page fetches the simulator's worker at once and not the default view. A
/// first visit to the default page draws the run that comes with it: the runner's numbers, said
/// to be the build's, and no simulator's worker fetched or started. The pointer over the controls
/// starts the worker; the first change has its run shown, and going back to the defaults shows the default run
/// again without asking the worker.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_page_comes_with_its_run_and_the_worker_comes_with_the_first_change() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?rtt=50&lang=en").await;
        assert!(lab.wait_until(SETTLE, || lab.charts_drawn()).await);
        assert_eq!(served_named(lab, 0, "default-view-"), Vec::<String>::new());
        assert!(served_named(lab, 0, "tcplab-worker")
            .iter()
            .any(|n| n.ends_with(".wasm")));

        let since = lab.server.served().len();
        lab.open("?lang=en").await;
        assert!(lab.wait_until(SETTLE, || lab.charts_drawn()).await);
        assert_cards_match_runner(lab, "").await;
        assert_eq!(served_named(lab, since, "default-view-").len(), 1);
        let status = lab.text_of("status").await;
        assert!(
            status.contains("simulated when this page was built"),
            "{status:?}"
        );
        lab.screenshot("default-shipped-1280x960").await;
        for (w, h) in [(390, 844), (1920, 1080)] {
            lab.set_window(w, h).await;
            lab.screenshot(&format!("default-shipped-{w}x{h}")).await;
        }
        lab.set_window(1280, 960).await;
        let page = served_named(lab, since, "tcplab-web");
        assert!(page.iter().any(|n| n.ends_with(".wasm")), "{page:?}");
        assert_eq!(
            served_named(lab, since, "tcplab-worker"),
            Vec::<String>::new(),
            "a first visit fetched the simulator"
        );
        assert_eq!(
            served_named(lab, since, "worker-loader"),
            Vec::<String>::new()
        );
        let live = lab
            .eval_string("return document.documentElement.dataset.liveWorkers || '0';")
            .await;
        assert_eq!(live, "0", "a worker was started");

        // The pointer over the controls: the worker is on its way before any change, and the
        // run on show is still the one that came with the page.
        lab.eval_string(
            "document.getElementById('settings')
                 .dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
             return null;",
        )
        .await;
        let warmed = lab
            .wait_until(SETTLE, || async move {
                lab.eval_string("return document.documentElement.dataset.liveWorkers || '0';")
                    .await
                    == "1"
            })
            .await;
        assert!(warmed, "the pointer over the controls started no worker");
        assert!(lab.text_of("status").await.contains("built"));

        // The first change: the worker comes, and its run is shown and timed.
        lab.slide_to_share("rtt", 0.25).await;
        let moved = lab.wait_for_search(SETTLE, |s| s.contains("rtt=")).await;
        assert!(moved, "{}", lab.search().await);
        lab.wait_for_run(SETTLE).await;
        let query = lab.shown_query().await;
        assert!(query.contains("rtt="), "{query}");
        assert_cards_match_runner(lab, &query).await;
        let status = lab.text_of("status").await;
        assert!(
            status.contains("simulated in") && !status.contains("built"),
            "{status:?}"
        );
        assert!(
            served_named(lab, since, "tcplab-worker")
                .iter()
                .any(|n| n.ends_with(".wasm")),
            "the worker's module: {:?}",
            lab.server.served()
        );

        // Back to the defaults: the page's own run, at once.
        lab.eval_string("history.back(); return null;").await;
        assert!(lab.wait_for_search(SETTLE, |s| !s.contains("rtt=")).await);
        lab.wait_for_run(SETTLE).await;
        assert_eq!(lab.shown_query().await, "");
        assert_cards_match_runner(lab, "").await;
        let status = lab.text_of("status").await;
        assert!(status.contains("built"), "{status:?}");
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// The page's workers running, and whether the HTML's is still left for a client to take:
/// "1 undefined" once the charts' client has taken it on.
async fn early_worker_state(lab: &Lab) -> String {
    lab.eval_string(
        "return `${document.documentElement.dataset.liveWorkers || '0'} ${typeof window.tcplabEarlyWorker}`;",
    )
    .await
}

/// A shared link's worker is started by the HTML, beside the page's module rather than after it
/// (started before the page's module is), and the page takes it on:
/// one worker fetched and running, its run on the charts. A link whose first screen draws no
/// run (a comparison) has it ended once the page has mounted, with none left running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_links_worker_starts_with_the_html_and_the_page_takes_it_on() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?rtt=50&lang=en").await;
        assert!(lab.wait_until(SETTLE, || lab.charts_drawn()).await);
        let query = lab.shown_query().await;
        assert!(query.contains("rtt=50"), "{query}");
        assert_cards_match_runner(lab, &query).await;
        assert_eq!(served_named(lab, 0, "worker-loader").len(), 1);
        assert_eq!(
            served_named(lab, 0, "tcplab-worker")
                .iter()
                .filter(|n| n.ends_with(".wasm"))
                .count(),
            1
        );
        let order = lab
            .eval_string(
                "const early = performance.getEntriesByName('tcplab-early-worker')[0];
                 const page = performance.getEntriesByName('tcplab-page')[0];
                 return early && page
                     ? `${early.startTime.toFixed(1)} ${page.startTime.toFixed(1)}`
                     : 'missing';",
            )
            .await;
        let times: Vec<f64> = order.split(' ').filter_map(|t| t.parse().ok()).collect();
        assert!(
            times.len() == 2 && times[0] < times[1],
            "the HTML's worker started at, and the page's module at (ms): {order}"
        );
        assert_eq!(early_worker_state(lab).await, "1 undefined");

        // A comparison's first screen draws no run of the charts' worker: the HTML's is ended.
        let since = lab.server.served().len();
        lab.open("?rtt=50&view=compare&lang=en").await;
        let mounted = lab
            .wait_for_script(
                SETTLE,
                "return String(!document.getElementById('skeleton'));",
            )
            .await;
        assert!(mounted, "the comparison's page did not mount");
        // The HTML's worker was started (the comparison's own pool may start more).
        assert!(!served_named(lab, since, "worker-loader").is_empty());
        let state = early_worker_state(lab).await;
        assert!(state.ends_with(" undefined"), "{state}");
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// A host that cannot give the simulator's module (a file left out, a deploy half done, the
/// network gone) is named on the page: the worker's loader turns the failed start into the
/// worker's error event, which the page reports, where it once waited for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_simulators_module_a_shared_link_says_so() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.server.refuse("tcplab-worker_bg");
        lab.set_window(1280, 960).await;
        // No run can come, so not `open`, which waits for one.
        lab.driver
            .goto(lab.server.url("?rtt=50&lang=en"))
            .await
            .expect("load the page");
        let said = lab
            .wait_for_script(
                SETTLE,
                "const f = document.querySelector('#headline .run-failure');
                 return String(!!f && f.innerText.includes('could not be fetched or started'));",
            )
            .await;
        assert!(said, "{}", lab.text_of("headline").await);
        let headline = lab.text_of("headline").await;
        assert!(headline.starts_with("No run to show."), "{headline}");
        assert!(headline.contains("reload the page"), "{headline}");
        let failures = lab.server.failures();
        assert!(
            failures.iter().any(|f| f.contains("tcplab-worker_bg")),
            "{failures:?}"
        );
    })
    .await;
}

/// A host that lacks the default scenario's view (an old copy of `dist/`, a file left out) costs
/// the reader nothing but the wait for the simulator: its worker runs the default scenario.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_its_view_file_the_default_page_runs_the_simulator() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.server.refuse("default-view-");
        lab.set_window(1280, 960).await;
        lab.open("?lang=en").await;
        assert!(lab.wait_until(SETTLE, || lab.charts_drawn()).await);
        assert_eq!(lab.shown_query().await, "");
        assert_cards_match_runner(lab, "").await;
        let status = lab.text_of("status").await;
        assert!(
            status.contains("simulated in") && !status.contains("built"),
            "{status:?}"
        );
        let failures = lab.server.failures();
        assert!(
            failures.iter().any(|f| f.contains("default-view-")),
            "{failures:?}"
        );
        assert!(served_named(lab, 0, "tcplab-worker")
            .iter()
            .any(|n| n.ends_with(".wasm")));
    })
    .await;
}

/// The images of the first screen's charts that the browser shows and has loaded, as a
/// script's array expression.
const SHOWN_CHARTS: &str = "Array.from(document.querySelectorAll('#first-screen img.chart-svg'))
    .filter(i => i.offsetWidth > 0 && i.complete && i.naturalWidth > 0)";

/// The images of the first screen's charts that the browser shows and has loaded, by name.
async fn shown_first_screen_charts(lab: &Lab) -> Vec<String> {
    let names = lab
        .eval_string(&format!(
            "return JSON.stringify({SHOWN_CHARTS}.map(i => i.getAttribute('src')));"
        ))
        .await;
    serde_json::from_str(&names).unwrap_or_default()
}

/// Loads the default page, makes no gesture, and waits until its first screen shows its five
/// charts.
async fn open_first_screen(lab: &Lab) {
    lab.driver
        .goto(lab.server.url("?lang=en"))
        .await
        .expect("load the default page");
    let five = lab
        .wait_until(SETTLE, || async {
            shown_first_screen_charts(lab).await.len() == 5
        })
        .await;
    assert!(five, "shown: {:?}", shown_first_screen_charts(lab).await);
}

/// Loads the default page again and waits for its first screen, before the page's module.
async fn reload_first_screen(lab: &Lab) {
    lab.driver
        .goto(lab.server.url("?lang=en"))
        .await
        .expect("load the default page again");
    assert!(
        lab.wait_until(SETTLE, || async {
            stand_in(lab, "first-screen").await == "block"
        })
        .await,
        "the first screen"
    );
}

/// Whether the page's menu `id` (a `<details>`) is open, and whether its button has the focus.
async fn menu_state(lab: &Lab, id: &str) -> (bool, bool) {
    let state = lab
        .eval_string(&format!(
            "const d = document.getElementById('{id}');
             const s = d && d.querySelector('summary');
             return (d && d.open ? 'open' : 'closed') + ' ' +
                    (s && document.activeElement === s ? 'focused' : 'elsewhere');"
        ))
        .await;
    (state.starts_with("open"), state.ends_with("focused"))
}

/// A teacher's first press on the first screen's Lessons menu opens it for good: the menu it
/// opened is the page's open menu once the page has taken the first screen's place (it had
/// closed as the page came, so the first press seemed lost). By keyboard too, the focus staying
/// on the menu's button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_menu_opened_on_the_first_screen_stays_open_as_the_page_comes() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1366, 768).await;
        for (how, menu) in [("click", "lessons"), ("Enter", "presets")] {
            reload_first_screen(lab).await;
            let button = format!("#{menu} > summary");
            if how == "click" {
                lab.click(By::Css(&button), "the first screen's menu").await;
            } else {
                lab.eval_string(&format!(
                    "document.querySelector('{button}').focus(); return '';"
                ))
                .await;
                lab.press(Key::Enter).await;
            }
            let mounted = page_took_the_first_screen(lab).await;
            assert!(
                mounted,
                "the press brought the page: {:?}",
                lab.console().await
            );
            // Past the page's first frames, where the menu had closed.
            tokio::time::sleep(Duration::from_millis(400)).await;
            let (open, focused) = menu_state(lab, menu).await;
            assert!(open, "{how} on {menu}: the page's menu is open");
            assert!(focused, "{how} on {menu}: its button has the focus");
        }
    })
    .await;
}

/// Waits for the page to take the first screen's place; says whether it did.
async fn page_took_the_first_screen(lab: &Lab) -> bool {
    lab.wait_until(SETTLE, || async {
        stand_in(lab, "first-screen").await == "absent"
    })
    .await
}

/// `display` of the stand-in `id` (`absent` once the page has removed it).
async fn stand_in(lab: &Lab, id: &str) -> String {
    lab.eval_string(&format!(
        "const e = document.getElementById('{id}');
         return e ? getComputedStyle(e).display : 'absent';"
    ))
    .await
}

/// Before the page's module has come (here never, as from a host that lacks it), a first visit
/// to the default page shows the page itself, rendered from its own components when it was
/// built: the verdict, the runner's cards, the sliders at the scenario's values and every chart,
/// as images drawn at the width nearest the screen's, and only those fetched. A shared link's
/// page shows the skeleton instead, and fetches none of the images.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn before_its_module_comes_the_default_page_shows_its_first_screen() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.server.refuse("tcplab-web-");
        lab.set_window(1280, 960).await;

        lab.driver
            .goto(lab.server.url("?rtt=50"))
            .await
            .expect("load a shared link");
        let skeleton = lab
            .wait_until(SETTLE, || async {
                stand_in(lab, "skeleton").await == "block"
            })
            .await;
        assert!(skeleton, "a shared link shows the skeleton");
        assert_eq!(stand_in(lab, "first-screen").await, "none");
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(served_named(lab, 0, "chart-"), Vec::<String>::new());

        open_first_screen(lab).await;
        assert_eq!(stand_in(lab, "skeleton").await, "none");
        assert!(lab
            .text_of("verdict")
            .await
            .contains("Limited by slow start"));
        assert_eq!(lab.value_of("rtt-number").await, "28");
        assert_cards_match_runner(lab, "").await;
        let fetched = served_named(lab, 0, "chart-");
        assert!(
            fetched.iter().all(|n| n.contains("-wide-")),
            "a laptop fetches its own width's charts only: {fetched:?}"
        );
        lab.screenshot("first-screen-before-the-module-1280x960")
            .await;

        // Each screen shows the width drawn nearest its chart box, stretched to fill it as the
        // canvas will: within a tenth or so, where one laptop width left a 1440 px screen's
        // charts 140 px short of their box until the page mounted.
        for (w, h) in [
            (1366, 768),
            (1440, 900),
            (1536, 864),
            (1100, 800),
            (768, 1024),
            (1920, 1080),
        ] {
            lab.set_window(w, h).await;
            let fits = format!(
                "return JSON.stringify({SHOWN_CHARTS}
                     .map(i => [i.naturalWidth, i.getBoundingClientRect().width,
                                i.closest('figure').getBoundingClientRect().width,
                                getComputedStyle(i).objectFit]));"
            );
            let fits = fits.as_str();
            let loaded = lab
                .wait_until(SETTLE, || async {
                    let v: Vec<serde_json::Value> =
                        serde_json::from_str(&lab.eval_string(fits).await).unwrap_or_default();
                    v.len() == 5
                })
                .await;
            let shown = lab.eval_string(fits).await;
            assert!(loaded, "{w}x{h}: {shown}");
            let rows: Vec<(f64, f64, f64, String)> =
                serde_json::from_str(&shown).unwrap_or_default();
            for (natural, drawn, figure, fit) in rows {
                assert!(
                    (drawn - figure).abs() <= 1.0 && fit == "fill",
                    "{w}x{h}: {shown}"
                );
                let stretch = drawn / natural;
                assert!((0.88..=1.13).contains(&stretch), "{w}x{h}: {shown}");
            }
        }
        lab.set_window(1280, 960).await;

        // A phone's charts are far down its one column: each comes as it is scrolled near.
        lab.set_window(390, 844).await;
        lab.eval_string("window.scrollTo(0, document.body.scrollHeight); return '';")
            .await;
        let narrow = lab
            .wait_until(SETTLE, || async {
                let shown = shown_first_screen_charts(lab).await;
                shown.len() == 5 && shown.iter().all(|n| n.contains("-narrow-"))
            })
            .await;
        assert!(
            narrow,
            "a phone shows its own: {:?}",
            shown_first_screen_charts(lab).await
        );
        lab.eval_string("window.scrollTo(0, 0); return '';").await;
        lab.screenshot("first-screen-before-the-module-390x844")
            .await;
    })
    .await;
}

/// A first visit to the default page that only reads fetches the first screen and nothing of
/// the page's code, no view and no worker. The reader's first gesture, here a drag of the RTT
/// slider on the first screen, brings the page's module, which takes the dragged value and
/// shows its run; a button pressed on the first screen is pressed again on the page.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_default_page_fetches_its_module_at_the_readers_first_gesture() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        open_first_screen(lab).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let fetched = served_named(lab, 0, "");
        for code in [
            "tcplab-web-",
            "__wasm_split",
            "default-view-",
            "tcplab-worker",
            "worker-loader",
        ] {
            assert!(
                !fetched.iter().any(|n| n.starts_with(code)),
                "a reader who only reads fetches no {code}: {fetched:?}"
            );
        }

        let slider = lab
            .driver
            .find(By::Id("rtt"))
            .await
            .expect("the RTT slider");
        lab.driver
            .action_chain()
            .click_and_hold_element(&slider)
            .move_by_offset(60, 0)
            .release()
            .perform()
            .await
            .expect("drag the RTT slider");
        let mounted = page_took_the_first_screen(lab).await;
        assert!(
            mounted,
            "the gesture brought the page: {:?}",
            lab.console().await
        );
        lab.wait_for_run(SETTLE).await;
        let rtt = lab.value_of("rtt-number").await;
        assert_ne!(rtt, "28", "the page took the dragged RTT");
        assert!(
            lab.shown_query().await.contains(&format!("rtt={rtt}")),
            "its run is shown: {} for {rtt}",
            lab.shown_query().await
        );
        assert!(served_named(lab, 0, "tcplab-web-")
            .iter()
            .any(|n| n.ends_with("_bg.wasm")));

        // A press on the first screen's Sweep tab opens the sweep once the page has come.
        reload_first_screen(lab).await;
        lab.click(By::Id("view-sweep"), "the first screen's Sweep tab")
            .await;
        let sweep = lab
            .wait_for_search(SETTLE, |s| s.contains("view=sweep"))
            .await;
        assert!(sweep, "the press was the page's: {}", lab.search().await);

        // A reader who went into the first screen's RTT box is still in it once the page has
        // taken the first screen's place: a Tab goes on to the bandwidth's box, not from the
        // top of the page.
        reload_first_screen(lab).await;
        lab.click(By::Id("rtt-number"), "the first screen's RTT box")
            .await;
        assert!(page_took_the_first_screen(lab).await);
        let active = lab
            .eval_string("return document.activeElement ? document.activeElement.id : '';")
            .await;
        assert_eq!(active, "rtt-number", "the focus after the page came");

        // A reader scrolled down to the RTT chart, whose mouse then comes over it, still has it
        // in front of them when the page takes the first screen's place.
        lab.driver
            .goto(lab.server.url("?lang=en"))
            .await
            .expect("load the default page once more");
        let rtt_top = || async {
            lab.eval_string(
                "const c = document.querySelector('.tl-chart-rtt');
                 return c ? String(Math.round(c.getBoundingClientRect().top)) : '';",
            )
            .await
            .parse::<f64>()
            .unwrap_or(f64::NAN)
        };
        lab.eval_string("document.querySelector('.tl-chart-rtt').scrollIntoView(); return '';")
            .await;
        let before = rtt_top().await;
        let chart = lab
            .driver
            .find(By::Css(".tl-chart-rtt"))
            .await
            .expect("the first screen's RTT chart");
        lab.driver
            .action_chain()
            .move_to_element_center(&chart)
            .perform()
            .await
            .expect("the mouse over the chart");
        lab.wait_for_run(SETTLE).await;
        let after = rtt_top().await;
        assert!(
            (after - before).abs() < 120.0,
            "the RTT chart stood {before} px from the top, and {after} px once the page came"
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// The controls on show smaller than a fingertip's 24 CSS px (WCAG 2.2, 2.5.8), each named with
/// its size; a link inside a sentence is exempt, as the criterion exempts it.
async fn small_targets(lab: &Lab) -> Vec<String> {
    let list = lab
        .eval_string(
            "const out = [];
             for (const e of document.querySelectorAll('button, a[href], input, select, summary, [tabindex=\"0\"]')) {
                 const r = e.getBoundingClientRect();
                 const st = getComputedStyle(e);
                 // Folded away, or a radio drawn as its label (the label is the target).
                 if (r.width <= 1 || r.height <= 1 || st.visibility === 'hidden' || st.opacity === '0') continue;
                 if (e.tagName === 'A' && e.closest('p, li')) continue;
                 if (r.width < 24 || r.height < 24)
                     out.push((e.id || e.tagName) + ' ' + r.width.toFixed(1) + 'x' + r.height.toFixed(1));
             }
             return out.join('\\n');",
        )
        .await;
    list.lines().map(str::to_string).collect()
}

/// What a keyboard or a fingertip needs of the page: the first Tab stop leads past the header and
/// the controls to the results; Escape hides a tip on show without moving the focus (WCAG 2.2,
/// 1.4.13); a button whose face is a glyph or a digit has a name that says what it does; and on
/// a touch screen every control on show, in each view, the player and a lesson, is 24 CSS px at
/// least (2.5.8).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_keyboard_and_a_fingertip_reach_every_control() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?lang=en").await;
        lab.wait_for_run(SETTLE).await;
        let first = lab
            .eval_string(
                "return document.querySelector('a[href], button, input, select, summary, [tabindex=\"0\"]').id;",
            )
            .await;
        assert_eq!(first, "skip-link", "the first Tab stop");
        lab.eval_string("document.getElementById('skip-link').focus(); return null;").await;
        let shown = lab
            .eval_string("return String(document.getElementById('skip-link').getBoundingClientRect().top >= 0);")
            .await;
        assert_eq!(shown, "true", "the skip link shows when focused");
        lab.press(Key::Enter).await;
        assert_eq!(lab.focused_id().await, "results");
        assert_eq!(lab.eval_string("return location.hash;").await, "", "no fragment in the address");
        // A tip on show, hidden by Escape with the focus where it was, back on the next tip.
        let tip = "const a = getComputedStyle(document.getElementById(arguments_id), '::after');
                   return a.display === 'none' ? 'none' : a.content;";
        let tip_of = |id: &str| tip.replace("arguments_id", &format!("'{id}'"));
        lab.eval_string("document.getElementById('rtt-tip').focus(); return null;").await;
        assert_ne!(lab.eval_string(&tip_of("rtt-tip")).await, "none", "the tip shows on focus");
        lab.press(Key::Escape).await;
        assert_eq!(lab.eval_string(&tip_of("rtt-tip")).await, "none", "Escape hides it");
        lab.eval_string(
            "document.querySelector('h1').dispatchEvent(new PointerEvent('pointerover', { bubbles: true })); return null;",
        )
        .await;
        assert_eq!(
            lab.eval_string(&tip_of("rtt-tip")).await,
            "none",
            "the pointer crossing the page leaves it hidden"
        );
        lab.eval_string(
            "document.getElementById('rtt-tip').dispatchEvent(new PointerEvent('pointerover', { bubbles: true })); return null;",
        )
        .await;
        assert_ne!(lab.eval_string(&tip_of("rtt-tip")).await, "none", "the pointer over a tip shows it");
        lab.press(Key::Escape).await;
        assert_eq!(lab.focused_id().await, "rtt-tip");
        lab.eval_string("document.getElementById('bw-tip').focus(); return null;").await;
        assert_ne!(lab.eval_string(&tip_of("bw-tip")).await, "none", "the next tip shows");
        // Names that say what a glyph or a digit does.
        let name = |id: &str| format!("return document.getElementById('{id}').getAttribute('aria-label') || '';");
        assert_eq!(lab.eval_string(&name("large-type")).await, "Large type");
        lab.open("?lesson=slow-start&lang=en").await;
        assert!(
            lab.wait_for_script(SETTLE, "return String(!!document.getElementById('lesson-go-1'));")
                .await
        );
        let part = lab.eval_string(&name("lesson-go-1")).await;
        assert!(part.starts_with("Part 1: ") && part.len() > 10, "{part}");
        // A phone, touched: every control on show in each view.
        let cdp = lab.driver.cdp();
        cdp.send_raw(
            "Emulation.setTouchEmulationEnabled",
            serde_json::json!({ "enabled": true, "maxTouchPoints": 5 }),
        )
        .await
        .expect("touch");
        lab.set_window(390, 844).await;
        for (query, open, shows) in [
            ("lang=en", Some("settings-toggle"), "ecn"),
            ("lang=zh", Some("settings-toggle"), "hystart"),
            ("lang=en", Some("player-open"), "player-scrub"),
            ("lang=en&lesson=slow-start", None, "lesson-go-1"),
            ("lang=en&view=sweep", None, "sweep-key"),
            ("lang=en&view=matrix", None, "matrix-rows-key"),
            ("lang=en&view=compare", None, "compare-add"),
            ("lang=en&view=diagnose", None, "explain-kind"),
        ] {
            lab.open(&format!("?{query}")).await;
            if let Some(button) = open {
                let exists = format!("return String(!!document.getElementById('{button}'));");
                assert!(lab.wait_for_script(SETTLE, &exists).await, "{query}: no {button}");
                lab.click(By::Id(button), button).await;
            }
            let shown = format!(
                "const e = document.getElementById('{shows}'); return String(!!e && e.getBoundingClientRect().width > 1);"
            );
            let there = lab.wait_for_script(SETTLE, &shown).await;
            assert!(there, "{query}: no {shows}");
            let small = small_targets(lab).await;
            let name = format!("phone-touch-{query}-{}", open.unwrap_or("view"));
            lab.screenshot(&name.replace(['=', '&'], "-")).await;
            assert!(small.is_empty(), "{query} after {open:?}: {small:#?}");
        }
        cdp.send_raw(
            "Emulation.setTouchEmulationEnabled",
            serde_json::json!({ "enabled": false }),
        )
        .await
        .expect("no touch");
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// A time chart's cursor without a pointer: each time chart's cursor layer is a Tab stop, a
/// slider to a screen reader, and the arrow keys, Home and End move the cursor across every
/// chart as the pointer does, its readout the layer's `aria-valuetext`; Escape clears it, and
/// so does leaving the chart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_keys_move_a_time_chart_s_cursor_and_it_is_read_out() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?lang=en").await;
        lab.wait_for_run(SETTLE).await;
        let layer = "document.querySelector('[data-chart=cwnd] .chart-cursor')";
        let attr = |name: &str| format!("return {layer}.getAttribute('{name}') || '';");
        let sliders = lab
            .eval_string(
                "return String([...document.querySelectorAll('.chart-cursor')]
                    .filter(c => c.getAttribute('role') === 'slider' && c.tabIndex === 0
                        && c.getAttribute('aria-hidden') === null).length);",
            )
            .await;
        assert!(
            sliders.parse::<u32>().unwrap_or(0) >= 3,
            "time charts whose cursor is a Tab stop: {sliders}"
        );
        assert!(lab
            .eval_string(&attr("aria-label"))
            .await
            .contains("arrow keys"));
        lab.eval_string(&format!("{layer}.focus(); return null;"))
            .await;
        // The layer takes its value once the chart is drawn: no cursor yet.
        let unplaced = format!(
            "return String(({layer}.getAttribute('aria-valuetext') || '').startsWith('no cursor'));"
        );
        assert!(
            lab.wait_for_script(SETTLE, &unplaced).await,
            "{}",
            lab.eval_string(&attr("aria-valuetext")).await
        );
        let number = |name: &'static str| async move {
            lab.eval_string(&attr(name)).await.parse::<f64>().ok()
        };
        lab.press(Key::Home).await;
        let placed = format!(
            "return String(!({layer}.getAttribute('aria-valuetext') || 'no cursor').startsWith('no cursor'));"
        );
        assert!(lab.wait_for_script(SETTLE, &placed).await, "Home placed no cursor");
        let (lo, hi) = (number("aria-valuemin").await, number("aria-valuemax").await);
        let (Some(lo), Some(hi)) = (lo, hi) else {
            panic!("no range: {lo:?} {hi:?}");
        };
        assert!(hi > lo, "{lo} to {hi}");
        assert_eq!(number("aria-valuenow").await, Some(lo.round()));
        // The readout's heading is the cursor's time, then a row per series.
        let said = lab.eval_string(&attr("aria-valuetext")).await;
        assert!(said.contains("; "), "the readout said: {said}");
        lab.press(Key::Right).await;
        let moved = format!(
            "return String(Number({layer}.getAttribute('aria-valuenow')) > {lo});"
        );
        assert!(lab.wait_for_script(SETTLE, &moved).await, "ArrowRight left the cursor");
        let step = number("aria-valuenow").await.unwrap_or(lo) - lo;
        assert!(
            (step - (hi - lo) / 100.0).abs() <= 1.5,
            "a hundredth of the view: {step} of {lo} to {hi}"
        );
        // The other time charts follow, as they follow the pointer.
        let follows = "return String([...document.querySelectorAll('.chart-cursor[role=slider]')]
            .filter(c => !(c.getAttribute('aria-valuetext') || 'no cursor').startsWith('no cursor')).length >= 2);";
        assert!(
            lab.wait_for_script(SETTLE, follows).await,
            "one chart's cursor alone"
        );
        lab.eval_string(&format!("{layer}.scrollIntoView({{ block: 'center' }}); return null;"))
            .await;
        lab.screenshot("keyboard-cursor").await;
        lab.press(Key::End).await;
        let at_end = format!(
            "return String(Number({layer}.getAttribute('aria-valuenow')) === {});",
            hi.round()
        );
        assert!(lab.wait_for_script(SETTLE, &at_end).await, "End");
        lab.press(Key::Escape).await;
        assert!(lab.wait_for_script(SETTLE, &unplaced).await, "Escape kept the cursor");
        // Placed again, the cursor goes when the focus leaves the chart.
        lab.press(Key::Right).await;
        assert!(lab.wait_for_script(SETTLE, &placed).await);
        lab.eval_string("document.getElementById('rtt-tip').focus(); return null;").await;
        assert!(
            lab.wait_for_script(SETTLE, &unplaced).await,
            "the cursor stayed after the focus left"
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}
