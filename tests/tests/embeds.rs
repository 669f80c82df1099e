//! The lab embedded in another page (`embed=1`): inside an iframe of a host page at a phone's
//! 360 x 640 and a wide 800 x 450 it shows exactly the charts and controls its link names, with
//! no horizontal scroll; its chart is drawn, and moving its slider draws it again without
//! touching the host's address or history; "open in the lab" opens the same scenario. The Share
//! tools' Embed menu gives the iframe of what is on screen; a lesson, a cursor and Chinese work
//! inside an embed; a caption is text, never markup; a bad key is named. Screenshots go to
//! `target/e2e/`.

use std::time::Duration;

use serde_json::Value;
use tcplab_e2e::{with_lab, Lab, StaticServer, RUN_TIMEOUT};
use thirtyfour::prelude::*;

const SETTLE: Duration = Duration::from_secs(15);

/// What an embed shows, read inside its frame.
async fn inside(lab: &Lab) -> Value {
    let json = lab
        .eval_string(
            "const e = document.querySelector('[data-embed]');
             const base = document.querySelector('figure[data-chart=\"cwnd\"] canvas.chart-base');
             const h = document.getElementById('headline');
             return JSON.stringify({
                 embed: !!e,
                 charts: Array.from(document.querySelectorAll('figure[data-chart]')).map(f => f.dataset.chart),
                 controls: Array.from(document.querySelectorAll('#controls .knob[data-key]')).map(k => k.dataset.key),
                 scroll: document.documentElement.scrollWidth,
                 inner: window.innerWidth,
                 drawn: base ? (base.dataset.drawn || '') : '',
                 draws: base ? Number(base.dataset.draws || 0) : 0,
                 query: h && h.dataset.query !== undefined ? h.dataset.query : null,
                 masthead: !!document.querySelector('.masthead'),
                 sidebar: !!document.getElementById('settings'),
                 note: (document.getElementById('embed-note') || {}).textContent || '',
                 noteMarkup: document.querySelectorAll('#embed-note *').length,
                 // Where the caption ends, and how much of the verdict's reason shows (px).
                 noteBottom: (() => { const n = document.getElementById('embed-note');
                                      return n ? n.getBoundingClientRect().bottom : null; })(),
                 reason: (() => { const d = document.querySelector('.verdict-detail');
                                  return d ? d.getBoundingClientRect().height : 0; })(),
                 open: (document.getElementById('embed-open') || {}).href || '',
             });",
        )
        .await;
    serde_json::from_str(&json).unwrap_or(Value::Null)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Waits, inside the frame, until the run is shown and its cwnd chart drawn for it.
async fn wait_drawn(lab: &Lab) -> Value {
    let ok = lab
        .wait_until(RUN_TIMEOUT, || async move {
            let v = inside(lab).await;
            let q = v["query"].as_str().unwrap_or("\u{0}");
            v["draws"].as_u64().unwrap_or(0) > 0 && v["drawn"].as_str() == Some(q)
        })
        .await;
    let v = inside(lab).await;
    if !ok {
        let body = lab
            .eval_string("return location.href + ' :: ' + document.body.innerHTML.slice(0, 600);")
            .await;
        let console = lab.console().await;
        panic!("the embed's chart was not drawn: {v}\n{body}\n{console:?}");
    }
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_embed_in_a_host_page_shows_what_it_names_and_leaves_the_host_alone() {
    with_lab(|lab| async move {
        let lab: &Lab = &lab;
        lab.set_window(1280, 900).await;
        let src = lab.server.url(
            "?rtt=40&bw=100&embed=1&charts=cwnd,goodput&controls=rtt,iw,body&note=Drag+the+RTT&lang=en",
        );
        // A phone, a column of an article (two controls a row, where the longest label and a
        // box's reading aid once pushed the row past the frame's edge) and the widest frame.
        for (w, h) in [(360, 640), (520, 700), (800, 450)] {
            // The host: an article on a site of its own (another origin) with the lab in an
            // iframe.
            let dir = std::env::temp_dir().join(format!("tcplab-host-{}-{w}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("a folder for the host page");
            std::fs::write(
                dir.join("index.html"),
                format!(
                    "<!doctype html><meta charset=utf-8><title>An article</title>\
                     <h1>An article</h1><p>Some text.</p>\
                     <iframe id=\"lab\" src=\"{}\" width=\"{w}\" height=\"{h}\" style=\"border:0\"></iframe>",
                    src.replace('&', "&amp;")
                ),
            )
            .expect("write the host page");
            let host_server = StaticServer::start(dir).expect("serve the host page");
            lab.driver
                .goto(host_server.url(""))
                .await
                .expect("open the host page");
            let host_before = lab
                .eval_string("return location.href + ' ' + history.length;")
                .await;
            let frame = lab.driver.find(By::Id("lab")).await.expect("the iframe");
            frame.enter_frame().await.expect("into the frame");
            let v = wait_drawn(lab).await;
            assert_eq!(v["embed"], Value::Bool(true), "{v}");
            assert_eq!(strings(&v["charts"]), ["cwnd", "goodput"], "{w}x{h}: {v}");
            assert_eq!(strings(&v["controls"]), ["rtt", "iw", "body"], "{w}x{h}: {v}");
            assert!(v["scroll"].as_f64() <= v["inner"].as_f64(), "{w}x{h} scrolls sideways: {v}");
            assert_eq!((v["masthead"].as_bool(), v["sidebar"].as_bool()), (Some(false), Some(false)));
            assert_eq!(v["note"], "Drag the RTT");
            // The frame's first screen, a phone's included, has the verdict's reason and the
            // caption, above the controls it speaks of.
            assert!(v["reason"].as_f64() > Some(0.0), "{w}x{h}: no verdict's reason: {v}");
            let fits = v["noteBottom"].as_f64().is_some_and(|b| b <= h as f64);
            assert!(fits, "{w}x{h}: the caption is below the frame's first screen: {v}");
            lab.screenshot(&format!("embed-{w}x{h}")).await;

            // The slider: the chart is drawn again for the new run; the host is untouched.
            let before = v["query"].as_str().unwrap_or("").to_string();
            lab.slide_to_share("rtt", 0.75).await;
            let moved = lab
                .wait_until(SETTLE, || {
                    let before = before.clone();
                    async move {
                        let v = inside(lab).await;
                        let q = v["query"].as_str().unwrap_or("");
                        q != before && v["drawn"].as_str() == Some(q)
                    }
                })
                .await;
            let v = inside(lab).await;
            assert!(moved, "the chart was not drawn again: {v}");
            let query = v["query"].as_str().unwrap_or("").to_string();
            assert!(query.contains("rtt=") && query != before, "{query}");
            let open = v["open"].as_str().unwrap_or("").to_string();
            let frame_href = lab.eval_string("return location.href;").await;
            assert_eq!(frame_href, src, "the frame's own address is left as it was");
            lab.driver.enter_default_frame().await.expect("back to the host");
            let host = lab
                .eval_string("return location.href + ' ' + history.length;")
                .await;
            assert_eq!(host, host_before, "the host's address and history");
            assert!(host.starts_with(&host_server.url("")), "{host}");

            // "Open in the lab": the whole page on the same scenario.
            assert!(!open.contains("embed=") && !open.contains("charts="), "{open}");
            lab.driver.goto(&open).await.expect("open the lab");
            let shown = lab
                .wait_until(RUN_TIMEOUT, || {
                    let query = query.clone();
                    async move { lab.shown_query().await == query }
                })
                .await;
            assert!(shown, "{open} shows {:?}, not {query}", lab.shown_query().await);
            assert!(lab.driver.find(By::Css(".masthead")).await.is_ok());
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_share_tools_give_the_iframe_of_what_is_on_screen() {
    with_lab(|lab| async move {
        let lab: &Lab = &lab;
        lab.set_window(1280, 900).await;
        lab.open("?rtt=50&iw=4&lang=en").await;
        lab.click(By::Css("#embed-menu > summary"), "the Embed menu")
            .await;
        let html = lab.value_of("embed-snippet").await;
        assert!(html.starts_with("<iframe src=\"http://"), "{html}");
        let src = html
            .split("src=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .unwrap_or("")
            .replace("&amp;", "&");
        assert!(
            src.contains("?rtt=50&iw=4&lang=en&embed=1&charts=cwnd,goodput"),
            "{src}"
        );
        assert!(src.contains("&controls=rtt,iw"), "{src}");
        // The snippet's frame is the embed of the same run.
        let query = lab.shown_query().await;
        lab.driver.goto(&src).await.expect("the snippet's address");
        let v = wait_drawn(lab).await;
        assert_eq!(v["query"].as_str(), Some(query.as_str()), "{v}");
        assert_eq!(strings(&v["controls"]), ["rtt", "iw"]);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lesson_a_cursor_and_chinese_work_inside_an_embed_and_bad_keys_are_named() {
    with_lab(|lab| async move {
        let lab: &Lab = &lab;
        lab.set_window(360, 640).await;
        // A lesson in Chinese, inside an embed: its part stands at its moment.
        lab.open("?lesson=timeout&part=3&embed=1&charts=cwnd&lang=zh").await;
        let ready = lab
            .wait_until(RUN_TIMEOUT, || async move {
                lab.eval_string(
                    "const l = document.getElementById('lesson');
                     const s = document.getElementById('lesson-say');
                     const k = document.getElementById('player-kind');
                     return String(!!l && l.dataset.lessonPart === '3' && !!s && s.getAttribute('aria-busy') !== 'true' && !!k);",
                )
                .await
                    == "true"
            })
            .await;
        assert!(ready, "{}", lab.text_of("lesson").await);
        assert_eq!(lab.eval_string("return document.documentElement.lang;").await, "zh-CN");
        assert!(lab.text_of("lesson-part-title").await.contains("探测"));
        assert!(lab.text_of("embed-open").await.contains("在实验室中打开"));
        let scroll = lab
            .eval_string("return String(document.documentElement.scrollWidth <= window.innerWidth);")
            .await;
        assert_eq!(scroll, "true");
        lab.screenshot("embed-lesson-zh-360x640").await;

        // A cursor: the player opens on it.
        lab.open("?preset=lesson-fast-retransmit&at=304.8832&embed=1&charts=cwnd").await;
        let at = lab
            .wait_until(RUN_TIMEOUT, || async move {
                lab.eval_string(
                    "const t = document.getElementById('player-time'); return t ? t.dataset.t : '';",
                )
                .await
                    == "304.8832"
            })
            .await;
        assert!(at, "the player did not stand at at=");

        // A caption is text; bad keys are named with their ranges.
        lab.open("?embed=1&charts=cwnd,pie&controls=rtt&note=%3Cb%3Ehi%3C%2Fb%3E%3Cscript%3Ex()%3C%2Fscript%3E")
            .await;
        let v = wait_drawn(lab).await;
        assert_eq!(v["note"], "<b>hi</b><script>x()</script>");
        assert_eq!(v["noteMarkup"], 0);
        assert_eq!(strings(&v["charts"]), ["cwnd", "goodput"], "the default charts stand in");
        let banner = lab.text_of("banner").await;
        assert!(banner.contains("charts") && banner.contains("\"pie\"") && banner.contains("allowed cwnd"), "{banner}");
        lab.assert_no_console_errors().await;
    })
    .await;
}
