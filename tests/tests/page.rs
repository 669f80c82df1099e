//! The built page in headless Chromium: every preset's cards against the runner's numbers, the
//! sliders moving the address, the cards and the charts together, a bad link's banner, Back,
//! the language switch, a newer value superseding a long run, and a run over the page's budget.
//! Screenshots of every preset, at 1280x960, at a laptop's 1280x720 and at a phone's 390x844
//! (its first chart), go to `target/e2e/`.

use std::time::Duration;

use tcplab::scenario::PRESETS;
use tcplab::Scenario;
use tcplab_e2e::{assert_cards_match_runner, with_lab, Lab, RUN_TIMEOUT};
use thirtyfour::prelude::*;

const SETTLE: Duration = Duration::from_secs(5);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_preset_shows_the_runners_numbers() {
    with_lab(|lab| async move {
        let lab = &*lab;
        for p in PRESETS {
            let query = format!("preset={}", p.name);
            lab.set_window(1280, 960).await;
            lab.open(&format!("?{query}&lang=en")).await;
            assert_eq!(lab.shown_query().await, query);
            assert_eq!(lab.run_state().await, "done");
            if p.moment.is_some() {
                // A lesson stands its player on its moment, and the address says where.
                let prefix = format!("?{query}&at=");
                let placed = lab
                    .wait_for_search(SETTLE, |s| s.starts_with(&prefix))
                    .await;
                assert!(placed, "{query}: {}", lab.search().await);
            } else {
                assert_eq!(lab.search().await, format!("?{query}&lang=en"));
            }
            assert_eq!(lab.text_of("banner").await, "", "no banner for {query}");
            // The headline says which preset this is and what was run.
            let said = lab.text_of("scenario-line").await;
            assert!(
                said.replace('\u{a0}', " ").starts_with(&format!("{}: {}", p.name, p.en))
                    // No line starts with the separator or a unit: they keep the word before.
                    && said.contains("\u{a0}· RTT ")
                    && !said.contains(" ms"),
                "{query}: {said}"
            );
            assert_cards_match_runner(lab, &query).await;
            // The preset's own values are in the controls.
            let s = Scenario::parse(&query).expect("a preset");
            if s.each.rtt_ms.is_empty() {
                assert_eq!(
                    lab.value_of("rtt-number").await.parse::<f64>().ok(),
                    Some(s.rtt_ms),
                    "{query}: the RTT box"
                );
            } else {
                // One RTT per flow is edited as the list it is.
                assert_eq!(
                    lab.value_of("rtt").await,
                    s.value_text(tcplab::scenario::Key::Rtt),
                    "{query}: the RTT list"
                );
            }
            lab.screenshot(&format!("preset-{}", p.name)).await;
            lab.set_window(1280, 720).await;
            lab.screenshot(&format!("preset-{}-1280x720", p.name)).await;
            // A phone's first chart, its time axis named to the run's end.
            lab.set_window(390, 844).await;
            lab.eval_string(
                "const f = document.querySelector('figure[data-chart]');
                 if (f) f.scrollIntoView({block: 'start'}); return '';",
            )
            .await;
            // The charts redraw at the next frames after a resize; a screenshot only, no check.
            tokio::time::sleep(Duration::from_millis(300)).await;
            lab.screenshot(&format!("preset-{}-390x844", p.name)).await;
        }
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rtt_and_loss_sliders_move_the_address_the_cards_and_the_charts() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.open("?lang=en").await;
        assert_eq!(lab.search().await, "?lang=en", "defaults write only lang");
        assert_eq!(lab.value_of("rtt-number").await, "28");
        let cards = lab.cards().await;
        let pixels = lab.canvas_fingerprint().await;
        assert!(lab.canvas_count().await > 0, "the charts have canvases");
        lab.screenshot("default").await;

        // One step of the RTT slider with the keyboard.
        let slider = lab
            .driver
            .find(By::Id("rtt"))
            .await
            .expect("the RTT slider");
        slider.send_keys(Key::Right).await.expect("press Right");
        let moved = lab
            .wait_for_search(SETTLE, |s| s.starts_with("?rtt="))
            .await;
        assert!(moved, "the address did not follow: {}", lab.search().await);
        let rtt = lab.value_of("rtt-number").await;
        let stepped: f64 = rtt.parse().expect("a number");
        assert!(stepped > 28.0 && stepped < 29.0, "one step from 28: {rtt}");
        assert_eq!(lab.search().await, format!("?rtt={rtt}&lang=en"));
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.shown_query().await, format!("rtt={rtt}"));
        let after_rtt = lab.cards().await;
        assert_ne!(after_rtt, cards, "the cards did not change with the RTT");
        assert_cards_match_runner(lab, &format!("rtt={rtt}")).await;
        let pixels_rtt = lab.canvas_fingerprint().await;
        assert_ne!(pixels_rtt, pixels, "the charts did not change with the RTT");

        // A drag of the loss slider to about 1 %.
        lab.slide_to_share("loss", 0.76).await;
        let moved = lab.wait_for_search(SETTLE, |s| s.contains("loss=")).await;
        assert!(moved, "the address did not follow: {}", lab.search().await);
        let loss = lab.value_of("loss-number").await;
        assert!(
            lab.search().await == format!("?rtt={rtt}&loss={loss}&lang=en"),
            "{}",
            lab.search().await
        );
        lab.wait_for_run(RUN_TIMEOUT).await;
        let query = format!("rtt={rtt}&loss={loss}");
        assert_eq!(lab.shown_query().await, query);
        let after_loss = lab.cards().await;
        assert_ne!(
            after_loss, after_rtt,
            "the cards did not change with the loss"
        );
        assert_cards_match_runner(lab, &query).await;
        assert_ne!(
            lab.canvas_fingerprint().await,
            pixels_rtt,
            "the charts did not change with the loss"
        );
        lab.screenshot("sliders-moved").await;

        // Back: the RTT step again, cards and all.
        lab.driver.back().await.expect("go back");
        let expected = format!("?rtt={rtt}&lang=en");
        let back = lab.wait_for_search(SETTLE, |s| s == expected).await;
        assert!(back, "Back went to {}", lab.search().await);
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.value_of("loss-number").await, "0");
        assert_eq!(
            lab.cards().await,
            after_rtt,
            "Back did not restore the cards"
        );
        assert_eq!(
            lab.canvas_fingerprint().await,
            pixels_rtt,
            "Back did not restore the charts"
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn back_and_forward_step_through_typed_changes() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.open("?iw=20&lang=en").await;
        let cards_iw = lab.cards().await;
        lab.type_into("rtt-number", "50ms").await;
        let typed = lab
            .wait_for_search(SETTLE, |s| s == "?rtt=50&iw=20&lang=en")
            .await;
        assert!(typed, "typing 50ms: {}", lab.search().await);
        lab.wait_for_run(RUN_TIMEOUT).await;
        let cards_rtt = lab.cards().await;
        assert_ne!(cards_rtt, cards_iw);

        lab.driver.back().await.expect("go back");
        lab.wait_for_search(SETTLE, |s| s == "?iw=20&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.search().await, "?iw=20&lang=en");
        assert_eq!(lab.value_of("rtt-number").await, "28");
        assert_eq!(lab.value_of("iw-number").await, "20");
        assert_eq!(lab.cards().await, cards_iw, "Back restores the cards");

        lab.driver.forward().await.expect("go forward");
        lab.wait_for_search(SETTLE, |s| s == "?rtt=50&iw=20&lang=en")
            .await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.value_of("rtt-number").await, "50");
        assert_eq!(lab.cards().await, cards_rtt, "Forward restores the cards");

        // The presets menu loads a preset as a new step.
        lab.click(By::Css("#presets > summary"), "the presets menu")
            .await;
        let listed = lab
            .eval_string(
                "return String(document.querySelectorAll('#presets .preset-list .preset').length);",
            )
            .await;
        assert_eq!(
            listed,
            (PRESETS.len() + 1).to_string(),
            "every preset and the defaults"
        );
        let item = lab
            .driver
            .find(By::Id("preset-bufferbloat"))
            .await
            .expect("the bufferbloat preset");
        let text = item.text().await.unwrap_or_default();
        assert!(
            text.contains("drop-tail queue") && text.contains("Source"),
            "the preset says what it shows and where from: {text:?}"
        );
        lab.screenshot("presets-menu").await;
        item.click().await.expect("choose bufferbloat");
        let loaded = lab
            .wait_for_search(SETTLE, |s| s == "?preset=bufferbloat&lang=en")
            .await;
        assert!(loaded, "the preset's link: {}", lab.search().await);
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.shown_query().await, "preset=bufferbloat");
        lab.driver.back().await.expect("go back");
        lab.wait_for_search(SETTLE, |s| s == "?rtt=50&iw=20&lang=en")
            .await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.cards().await, cards_rtt, "Back from the preset");

        // A refused value says why beside its box and changes nothing.
        lab.type_into("iw-number", "0").await;
        let refused = lab
            .wait_until(SETTLE, || async move {
                lab.text_of("iw-error").await.contains("1 to 1000")
            })
            .await;
        assert!(refused, "iw=0: {:?}", lab.text_of("iw-error").await);
        assert_eq!(lab.search().await, "?rtt=50&iw=20&lang=en");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_link_names_the_key_and_runs_the_defaults() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.open("?rtt=abc&lang=en").await;
        let banner = lab.text_of("banner").await;
        assert!(
            banner.contains("rtt"),
            "the banner names the key: {banner:?}"
        );
        assert!(
            banner.contains("0.1 to 2000 ms"),
            "the banner names the range: {banner:?}"
        );
        assert!(banner.contains("ignored"), "{banner:?}");
        assert_eq!(lab.shown_query().await, "", "the defaults run");
        assert_eq!(lab.value_of("rtt-number").await, "28");
        assert_eq!(lab.search().await, "?rtt=abc&lang=en", "the bad link stays");
        assert_cards_match_runner(lab, "").await;
        lab.screenshot("bad-link").await;
        lab.assert_no_console_errors().await;

        // In Chinese, an unknown key and a bad language.
        lab.open("?loss=99&lang=zh").await;
        let banner = lab.text_of("banner").await;
        assert!(
            banner.contains("loss") && banner.contains("0 至 50%") && banner.contains("超出范围"),
            "{banner:?}"
        );
        assert!(banner.contains("已忽略"), "{banner:?}");
        lab.open("?rtt=50&lang=fr").await;
        let banner = lab.text_of("banner").await;
        assert!(
            banner.contains("lang") && banner.contains("en, zh"),
            "{banner:?}"
        );
        assert_eq!(lab.shown_query().await, "rtt=50", "the scenario still runs");
        lab.open("?foo=1").await;
        let banner = lab.text_of("banner").await;
        assert!(
            banner.contains("foo") && banner.contains("unknown key"),
            "{banner:?}"
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_language_switch_changes_the_labels_and_is_remembered() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.open("?preset=hol-blocking&lang=en").await;
        let title = || async move {
            lab.eval_string("return document.querySelector('#card-goodput h3').textContent;")
                .await
        };
        assert_eq!(title().await, "Goodput");
        assert!(lab.text_of("group-path").await.contains("Path"));
        // The link trace's file picker speaks the page's language, not the browser's.
        assert!(lab.text_of("group-path").await.contains("Choose a file"));
        lab.click(By::Id("lang-zh"), "the Chinese switch").await;
        let switched = lab
            .wait_until(SETTLE, || async move { title().await == "有效吞吐" })
            .await;
        assert!(switched, "the card title: {}", title().await);
        assert_eq!(lab.search().await, "?preset=hol-blocking&lang=zh");
        assert_eq!(
            lab.eval_string("return document.documentElement.lang;")
                .await,
            "zh-CN"
        );
        assert!(lab.text_of("group-path").await.contains("路径"));
        assert!(lab.text_of("group-path").await.contains("选择文件"));
        assert!(lab.text_of("verdict").await.contains("瓶颈"));
        lab.screenshot("lang-zh").await;

        // Remembered: a link without lang= opens in Chinese, and is not rewritten with it (the
        // reader's own choice is not the link's).
        lab.open("?preset=hol-blocking").await;
        assert_eq!(title().await, "有效吞吐");
        assert_eq!(lab.search().await, "?preset=hol-blocking");
        // A link's lang= wins over the remembered one.
        lab.open("?lang=en").await;
        assert_eq!(title().await, "Goodput");

        // Large type, for a projector.
        lab.set_window(1280, 720).await;
        lab.click(By::Id("large-type"), "the large-type switch")
            .await;
        let large = lab
            .wait_until(SETTLE, || async move {
                lab.eval_string("return document.documentElement.className;")
                    .await
                    .contains("large")
            })
            .await;
        assert!(large, "large type is not on");
        lab.wait_for_run(RUN_TIMEOUT).await;
        lab.screenshot("large-type-1280x720").await;

        // Share copies the address, or shows it to copy by hand.
        lab.click(By::Id("share"), "the share button").await;
        let shared = lab
            .wait_until(SETTLE, || async move {
                let status = lab.text_of("share-status").await;
                let link = lab
                    .eval_string(
                        "const i = document.querySelector('.share-link'); return i ? i.value : '';",
                    )
                    .await;
                status.contains("Link copied") || link.ends_with("?lang=en")
            })
            .await;
        assert!(shared, "share: {:?}", lab.text_of("share-status").await);

        // A bad link stays in the bar as written, for its banner; Share copies what runs.
        lab.open("?rtt=5000&loss=2&lang=en").await;
        lab.eval_string(
            "navigator.clipboard.writeText = t => { window.copiedLink = t; return Promise.resolve(); };
             return null;",
        )
        .await;
        lab.click(By::Id("share"), "the share button").await;
        let copied = lab
            .wait_until(SETTLE, || async move {
                !lab.eval_string("return window.copiedLink || '';").await.is_empty()
            })
            .await;
        assert!(copied, "nothing copied");
        let link = lab.eval_string("return window.copiedLink;").await;
        assert!(link.ends_with("/?loss=2&lang=en"), "{link}");
        assert_eq!(lab.search().await, "?rtt=5000&loss=2&lang=en");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_newer_value_supersedes_a_long_run_and_the_budget_is_announced() {
    with_lab(|lab| async move {
        let lab = &*lab;
        // Ten minutes of a 1 Gbit/s flow: far past the page's budget, seconds of work.
        lab.driver
            .goto(lab.server.url("?app=bulk&dur=600&lang=en"))
            .await
            .expect("load the page");
        let up = lab
            .wait_until(SETTLE, || async move {
                lab.value_of("dur-number").await == "600"
            })
            .await;
        assert!(up, "the page did not come up");
        // The page keeps answering while the worker runs.
        let started = std::time::Instant::now();
        assert_eq!(lab.run_state().await, "running");
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "the page is blocked"
        );
        lab.type_into("dur-number", "1").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.shown_query().await, "app=bulk&dur=1");
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(
            lab.shown_query().await,
            "app=bulk&dur=1",
            "a stale run came back"
        );
        let workers: u32 = lab
            .eval_string("return document.getElementById('status').dataset.workers;")
            .await
            .parse()
            .unwrap_or(0);
        assert!(
            workers >= 2,
            "the long run was not superseded: {workers} workers"
        );
        assert_cards_match_runner(lab, "app=bulk&dur=1").await;

        // Let the long run finish this time: it stops at the budget and says so.
        lab.driver.back().await.expect("go back");
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.shown_query().await, "app=bulk&dur=600");
        let notice = lab.text_of("budget").await;
        assert!(
            notice.contains("20,000,000") && notice.contains("tcplab run 'app=bulk&dur=600'"),
            "{notice:?}"
        );
        // Stopped early but plainly filling the link: that is the verdict, "unfinished" a note.
        assert_eq!(
            lab.eval_string("return document.getElementById('verdict').dataset.limit;")
                .await,
            "link-rate"
        );
        let verdict = lab.text_of("verdict").await;
        assert!(verdict.contains("Unfinished"), "{verdict:?}");
        lab.screenshot("budget").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// The run the page asks for once `base` has the RTT the page's field shows, as a query.
async fn with_rtt_shown(lab: &Lab, base: &str) -> String {
    let rtt = lab.value_of("rtt-number").await;
    Scenario::parse(&format!("{base}&rtt={rtt}"))
        .map(|s| s.to_query())
        .unwrap_or_else(|e| panic!("{base}&rtt={rtt}: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_scenario_dragged_runs_on_two_workers_and_ends_on_the_last_value() {
    with_lab(|lab| async move {
        let lab = &*lab;
        // Ten seconds of a 1 Gbit/s flow (the bulk flow's default length): about a million
        // events, a tenth of a second or more in the worker, far past the frame after which a
        // second worker takes the newest run.
        lab.open("?app=bulk&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.shown_query().await, "app=bulk");
        // A drag of the RTT slider: a value every 30 ms, then the release.
        lab.eval_string(
            "const s = document.getElementById('rtt');
             const shares = [0.30, 0.35, 0.40, 0.45, 0.50, 0.55];
             shares.forEach((share, i) => setTimeout(() => {
                 s.value = String(Math.round(s.max * share));
                 s.dispatchEvent(new Event('input', { bubbles: true }));
                 if (i === shares.length - 1) {
                     s.dispatchEvent(new Event('change', { bubbles: true }));
                 }
             }, 30 * i));
             return null;",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        let last = with_rtt_shown(lab, "app=bulk").await;
        let settled = lab
            .wait_until(RUN_TIMEOUT, || {
                let last = last.clone();
                async move { lab.shown_query().await == last }
            })
            .await;
        assert!(
            settled,
            "the last value's run is not the one shown: {} (wanted {last})",
            lab.shown_query().await
        );
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert_eq!(lab.shown_query().await, last, "an older run came back");
        assert_cards_match_runner(lab, &last).await;
        // The runs were shared: the first worker and the one brought in for the slow runs,
        // and no other left running.
        let live = lab
            .eval_string("return document.documentElement.dataset.liveWorkers;")
            .await;
        assert_eq!(live, "2", "workers running after the drag");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cursor_layer_holds_a_bitmap_only_while_it_shows_something() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.open("?app=bulk&dur=2&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        // Each chart's cursor layer's bitmap against its chart's, as "WxH/WxH".
        let sizes = || {
            lab.eval_string(
                "return [...document.querySelectorAll('.charts .tl-chart')].map(f => {
                     const b = f.querySelector('canvas.chart-base'), o = f.querySelector('canvas.chart-cursor');
                     return `${o.width}x${o.height}/${b.width}x${b.height}`;
                 }).join(' ');",
            )
        };
        let idle = sizes().await;
        let layers: Vec<&str> = idle.split(' ').collect();
        assert!(layers.len() >= 4, "{idle}");
        assert!(
            layers.iter().all(|l| l.starts_with("0x0/") && !l.ends_with("/0x0")),
            "no cursor, no bitmap: {idle}"
        );
        lab.point_at_chart("cwnd", (0.5, 0.5)).await;
        // The first chart is the window's: its layer takes the chart's size for the cursor.
        let shown = lab
            .wait_until(RUN_TIMEOUT, || async {
                let (o, b) = sizes().await.split(' ').next().unwrap_or_default().split_once('/')
                    .map(|(o, b)| (o.to_string(), b.to_string()))
                    .unwrap_or_default();
                !o.is_empty() && o == b
            })
            .await;
        assert!(shown, "a cursor on show, a bitmap the chart's size: {}", sizes().await);
        lab.eval_string(
            "const c = document.querySelector('.tl-chart-cwnd canvas.chart-cursor');
             c.dispatchEvent(new PointerEvent('pointerleave', { bubbles: true, pointerId: 1,
                 pointerType: 'mouse' }));
             return null;",
        )
        .await;
        let gone = lab
            .wait_until(RUN_TIMEOUT, || async {
                sizes().await.split(' ').all(|l| l.starts_with("0x0/"))
            })
            .await;
        assert!(gone, "the cursor gone, the bitmaps too: {}", sizes().await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_runs_drag_starts_a_fresh_worker_once_it_pauses_not_every_frame() {
    with_lab(|lab| async move {
        let lab = &*lab;
        // Five minutes at 1 Gbit/s, stopped at the page's budget of 20 million events: seconds a
        // run, over the second past which a run is slow on any machine this has run on.
        lab.open("?app=bulk&dur=300&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        let d = lab.drag_slider(120, "null").await;
        // The run of the drag's first value goes on (a helper takes the newest values); none
        // is stopped while the value keeps moving.
        assert_eq!(d.workers, "1", "no worker started during the drag: {d:?}");
        // The drag stops: the last value runs on a fresh worker, and is shown.
        let last = with_rtt_shown(lab, "app=bulk&dur=300").await;
        let shown = lab
            .wait_until(RUN_TIMEOUT, || {
                let last = last.clone();
                async move { lab.shown_query().await == last }
            })
            .await;
        assert!(shown, "{last} shown: {}", lab.shown_query().await);
        let workers = lab
            .eval_string("return document.getElementById('status').dataset.workers;")
            .await;
        assert_eq!(workers, "2", "one fresh worker for the last value");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_devices_first_drag_keeps_its_one_worker() {
    with_lab(|lab| async move {
        let lab = &*lab;
        // The default page comes with its run: its first move starts the worker. On a phone's
        // CPU (a fourth of this machine's) that worker's first run outlasts a frame, and a run
        // stopped at the next frame's value for a fresh worker left every frame of the drag
        // starting one.
        lab.open("?preset=default&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        let cdp = lab.driver.cdp();
        cdp.send_raw(
            "Emulation.setCPUThrottlingRate",
            serde_json::json!({ "rate": 4 }),
        )
        .await
        .expect("the CPU slowed");
        let d = lab.drag_slider(90, "null").await;
        cdp.send_raw(
            "Emulation.setCPUThrottlingRate",
            serde_json::json!({ "rate": 1 }),
        )
        .await
        .expect("the CPU as it was");
        assert_eq!(d.workers, "1", "one worker through the drag: {d:?}");
        assert!(d.fresh >= 30, "the charts followed the drag: {d:?}");
        lab.wait_for_run(RUN_TIMEOUT).await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn charts_out_of_view_wait_for_a_dragged_slider_to_stop() {
    with_lab(|lab| async move {
        let lab = &*lab;
        // A laptop's window: the first chart in view, the others below. BBR's 30 s on a lossy
        // path take a fifth of a second and more a run, longer than a chart out of view used
        // to wait before it was drawn for each.
        lab.set_window(1280, 720).await;
        lab.open("?preset=random-loss-bbr&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        // Two seconds of a drag, a value each frame; each chart's draws counted before and after.
        let d = lab
            .drag_slider(
                120,
                "[...document.querySelectorAll('.charts canvas.chart-base')]
                     .map(c => [Number(c.dataset.draws || 0), c.dataset.inView])",
            )
            .await;
        let json = format!("{d:?}");
        let counts = |v: &serde_json::Value| -> Vec<u64> {
            v.as_array()
                .map(|a| a.iter().map(|x| x[0].as_u64().unwrap_or(0)).collect())
                .unwrap_or_default()
        };
        let (before, after) = (counts(&d.before), counts(&d.after));
        let seen: Vec<&str> = d.after
            .as_array()
            .map(|a| a.iter().map(|x| x[1].as_str().unwrap_or("")).collect())
            .unwrap_or_default();
        assert!(before.len() > 2 && before.len() == after.len(), "{json}");
        let (mut shown, mut hidden) = (0, 0);
        for ((b, a), s) in before.iter().zip(&after).zip(&seen) {
            if *s == "0" {
                hidden += 1;
                assert_eq!(a, b, "a chart out of view was drawn during the drag: {json}");
            } else {
                shown += 1;
                assert!(a >= &(b + 2), "the chart in view followed the drag: {json}");
            }
        }
        assert!(shown >= 1 && hidden >= 2, "charts in and out of view: {json}");
        // The drag stops: every chart, out of view too, is drawn for the last value's run.
        lab.wait_for_run(RUN_TIMEOUT).await;
        let last = with_rtt_shown(lab, "preset=random-loss-bbr").await;
        let drawn = lab
            .wait_until(RUN_TIMEOUT, || {
                let last = last.clone();
                async move {
                    lab.shown_query().await == last
                        && lab
                            .eval_string(&format!(
                                "return String([...document.querySelectorAll('.charts canvas.chart-base')]
                                     .every(c => c.dataset.drawn === {last:?}));"
                            ))
                            .await
                            == "true"
                }
            })
            .await;
        assert!(drawn, "every chart drawn for {last}: {}", lab.shown_query().await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_runs_under_its_content_security_policy() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.open("?lang=en").await;
        let policy = lab
            .eval_string(
                "const m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]');
                 return m ? m.content : '';",
            )
            .await;
        for directive in [
            "script-src 'self' 'sha256-",
            "'wasm-unsafe-eval'",
            "object-src 'none'",
            "base-uri 'none'",
            "worker-src 'self'",
        ] {
            assert!(policy.contains(directive), "{directive} in {policy:?}");
        }
        assert_eq!(lab.run_state().await, "done", "the page and its worker ran");
        assert!(lab.charts_drawn().await);
        // Nothing the page did broke the policy; an injected inline script is refused.
        let before = lab.console().await;
        let violations: Vec<&String> = before
            .iter()
            .filter(|l| l.contains("Content Security Policy") || l.contains("integrity"))
            .collect();
        assert!(violations.is_empty(), "{violations:#?}");
        let ran = lab
            .eval_string(
                "window.__violations = [];
                 document.addEventListener('securitypolicyviolation',
                     e => window.__violations.push(e.violatedDirective));
                 const s = document.createElement('script');
                 s.textContent = 'window.__injected = true';
                 document.head.appendChild(s);
                 return String(window.__injected === true);",
            )
            .await;
        assert_eq!(ran, "false", "an inline script ran under the policy");
        let refused = lab
            .eval_string(
                "return new Promise(r => setTimeout(() => r(window.__violations.join(',')), 200));",
            )
            .await;
        assert!(
            refused.contains("script-src"),
            "violations seen: {refused:?}"
        );
        // The refusal is logged as an error; that one is expected, and nothing else is.
        let logged = lab.console().await;
        let others: Vec<&String> = logged
            .iter()
            .filter(|l| l.starts_with("SEVERE") && !l.contains("Content Security Policy"))
            .collect();
        assert!(others.is_empty(), "{others:#?}");
    })
    .await;
}
