//! The diagnosis in the built page: a real capture chosen from disk is read in a worker and
//! explained, its fitted scenario becomes the page's and is drawn under the capture's curves;
//! a broken file says what is wrong; a 50 MB capture is read without freezing the tab, with
//! progress; "my number, explained" answers seed 003's question with runs one click away.
//! Screenshots go to `target/e2e/`.

use std::path::PathBuf;
use std::time::Duration;

use tcplab::capture::{CaptureOptions, CapturePoint};
use tcplab::{run, RunOptions, Scenario};
use tcplab_e2e::{repo_root, with_lab, Lab, RUN_TIMEOUT};
use thirtyfour::prelude::*;

const ANALYSIS: Duration = Duration::from_secs(90);

async fn analysed(lab: &Lab) -> bool {
    lab.wait_until(ANALYSIS, || async move {
        lab.eval_string(
            "return document.getElementById('capture-analysis') ? 'yes' :
                (document.getElementById('capture-error') ? 'error' : 'no');",
        )
        .await
            != "no"
    })
    .await
}

fn scratch(name: &str) -> PathBuf {
    let dir = repo_root().join("target/e2e-files");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir.join(name)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_capture_is_explained_and_simulated_beside_itself() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?view=diagnose&lang=en").await;
        lab.choose_file("capture-file", &repo_root().join("tests/captures/lossy-bulk.pcap")).await;
        assert!(analysed(lab).await, "no analysis: {:?}", lab.console().await);
        let verdict = lab
            .eval_string("return document.getElementById('capture-analysis').dataset.verdict;")
            .await;
        assert_eq!(verdict, "loss", "{}", lab.text_of("capture-verdict").await);
        let rtt = lab.text_of("capture-rtt").await;
        assert!(rtt.contains("40."), "{rtt}");
        // The fitted scenario is the page's now: the address carries it, and its run is drawn
        // under the capture.
        let fitted = lab.text_of("capture-scenario").await;
        assert!(fitted.contains("loss=1.0"), "{fitted}");
        assert!(
            lab.wait_for_search(RUN_TIMEOUT, |s| s.contains("loss=1.0")).await,
            "{}",
            lab.search().await
        );
        let charts = lab
            .eval_string("return String(document.querySelectorAll('.capture-charts canvas').length);")
            .await;
        assert_eq!(charts, "4");
        // "My number, explained" offers the capture's own goodput, not one made up for the path.
        let bytes = std::fs::read(repo_root().join("tests/captures/lossy-bulk.pcap")).expect("a capture");
        let file = tcplab::capture::analyze::CaptureFile::read(&bytes, &mut |_| {}).expect("readable");
        let own = file
            .analyze(file.largest())
            .ok()
            .and_then(|a| a.goodput_MBps)
            .expect("a goodput");
        let offered: f64 = lab
            .eval_string("return document.getElementById('explain-value').placeholder;")
            .await
            .parse()
            .expect("a number");
        assert!((offered / own - 1.0).abs() < 0.05, "{offered} for {own} MB/s");
        // Drawn with the simulation's colour (chart.rs SIMULATED) under the capture's.
        let drawn = lab
            .wait_until(RUN_TIMEOUT, || async move {
                lab.eval_string(
                    "const c = document.querySelector('#capture-sent canvas, canvas#capture-sent');
                     if (!c || !c.width) return '0';
                     const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                     let n = 0;
                     for (let i = 0; i < d.length; i += 4)
                         if (Math.abs(d[i] - 0xe0) < 14 && Math.abs(d[i+1] - 0x6c) < 14 && Math.abs(d[i+2]) < 14) n++;
                     return String(n);",
                )
                .await
                .parse::<u32>()
                .unwrap_or(0)
                    > 100
            })
            .await;
        assert!(drawn, "the simulated twin is not drawn");
        lab.screenshot("diagnose-capture-laptop").await;
        lab.set_window(390, 844).await;
        lab.screenshot("diagnose-capture-phone").await;
        lab.set_window(1920, 1080).await;
        lab.screenshot("diagnose-capture-projector").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_file_says_what_is_wrong_and_the_page_goes_on() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?view=diagnose&lang=en").await;
        let text = scratch("notes.pcap");
        std::fs::write(&text, "GET / HTTP/1.1\r\nHost: example\r\n\r\n").expect("written");
        lab.choose_file("capture-file", &text).await;
        assert!(analysed(lab).await);
        let e = lab.text_of("capture-error").await;
        assert!(
            e.starts_with("notes.pcap: not a capture file: it begins with 47 45 54 20"),
            "{e}"
        );
        // A capture cut short inside a packet is read up to the cut, and says so.
        let whole = std::fs::read(repo_root().join("tests/captures/body.pcap")).expect("a capture");
        let cut = scratch("cut.pcap");
        std::fs::write(&cut, &whole[..whole.len() - 30]).expect("written");
        lab.choose_file("capture-file", &cut).await;
        assert!(
            lab.wait_until(ANALYSIS, || async move {
                lab.eval_string("const n = document.querySelector('.capture-notes'); return n ? n.textContent : '';")
                    .await
                    .contains("it was cut short")
            })
            .await,
            "no note of the cut"
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_50_mb_capture_is_read_in_the_worker_with_progress_and_the_tab_stays_live() {
    // About 50 MB: a minute of a 100 Mbit/s flow, 128 bytes of each frame.
    let big = scratch("big.pcap");
    let s = Scenario::parse("rtt=20&bw=100&app=bulk&dur=60").expect("scenario");
    let r = run(
        &s,
        &RunOptions {
            capture: Some(CaptureOptions {
                at: CapturePoint::Sender,
                max_packets: 620_000,
                ..CaptureOptions::default()
            }),
            ..RunOptions::default()
        },
    );
    let bytes = r.capture.expect("a capture").bytes;
    assert!(bytes.len() > 50_000_000, "{} bytes", bytes.len());
    std::fs::write(&big, &bytes).expect("written");
    let file = big.clone();
    let bytes_len = bytes.len();
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?view=diagnose&lang=en").await;
        // A clock on the page's thread: it ticks only while the thread is free.
        lab.eval_string(
            "window.__ticks = 0; window.__gap = 0; let last = performance.now();
             window.__timer = setInterval(() => { const t = performance.now();
                 window.__gap = Math.max(window.__gap, t - last); last = t; window.__ticks++; }, 50);
             return null;",
        )
        .await;
        let started = std::time::Instant::now();
        lab.choose_file("capture-file", &file).await;
        // Progress shows while the worker reads.
        let saw = lab
            .wait_until(ANALYSIS, || async move {
                lab.eval_string(
                    "const p = document.querySelector('#capture-progress progress');
                     return p && Number(p.value) > 0 && Number(p.value) < 1 ? 'yes' :
                         (document.getElementById('capture-analysis') ? 'late' : 'no');",
                )
                .await
                    != "no"
            })
            .await;
        assert!(saw, "no progress");
        assert!(analysed(lab).await, "no analysis");
        // For docs/performance.md: how long the analysis took, file to figures.
        eprintln!(
            "a {} MB capture analysed in {:.1} s",
            bytes_len / 1_000_000,
            started.elapsed().as_secs_f64()
        );
        assert!(lab.eval_string("return document.getElementById('capture-error') ? 'yes' : 'no';").await == "no");
        let gap: f64 = lab
            .eval_string("clearInterval(window.__timer); return String(window.__gap);")
            .await
            .parse()
            .unwrap_or(f64::INFINITY);
        // The page's thread stalled at most for the file's reading into memory, never for the
        // analysis: a frozen tab would show seconds.
        eprintln!("the page's thread's longest stall: {gap:.0} ms");
        assert!(gap < 1500.0, "the page's thread stalled {gap} ms");
        let retrans = lab.text_of("capture-retrans").await;
        assert!(retrans.contains('/'), "{retrans}");
        lab.screenshot("diagnose-50mb").await;
    })
    .await;
    let _ = std::fs::remove_file(&big);
}

/// The causes "My number, explained" gives, once its answer is on the page.
async fn explained(lab: &Lab) -> String {
    assert!(
        lab.wait_until(ANALYSIS, || async move {
            lab.eval_string("return document.getElementById('explain-answer') ? 'yes' : 'no';")
                .await
                == "yes"
        })
        .await,
        "no answer: {:?}",
        lab.console().await
    );
    lab.eval_string(
        "return [...document.querySelectorAll('.explain-candidates li')].map(l => l.dataset.cause).join(' ');",
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn my_number_is_explained_by_runs_one_click_away() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        // Seed 003's path: 28 ms, 1 Gbit/s, a 20 Mb body.
        lab.open("?view=diagnose&lang=en").await;
        // The view's module comes when it is first opened: its box once it has.
        let boxed = lab
            .wait_until(RUN_TIMEOUT, || async move {
                lab.eval_string("return String(!!document.getElementById('explain-value'));")
                    .await
                    == "true"
            })
            .await;
        assert!(boxed, "no box: {:?}", lab.console().await);
        // The box's example is its placeholder, not a value a reader's typing is added to.
        assert_eq!(
            lab.eval_string(
                "const b = document.getElementById('explain-value');
                 return b.value === '' && Number(b.placeholder) > 0
                     ? 'an example' : JSON.stringify([b.value, b.placeholder]);"
            )
            .await,
            "an example"
        );
        // Asked with the box empty, the example is explained, and the box shows it.
        lab.click(By::Id("explain-ask"), "Explain").await;
        let shown = lab
            .wait_until(RUN_TIMEOUT, || async move {
                lab.eval_string(
                    "const b = document.getElementById('explain-value');
                     return String(b.value !== '' && b.value === b.placeholder);",
                )
                .await
                    == "true"
            })
            .await;
        assert!(shown, "the box stayed empty above the example's answer");
        lab.type_into("explain-value", "1.8").await;
        let causes = explained(lab).await;
        for c in ["receive_window", "bottleneck"] {
            assert!(causes.contains(c), "{causes}");
        }
        let ruled = lab.eval_string(
            "return [...document.querySelectorAll('.explain-ruled-out li')].map(l => l.dataset.cause + ': ' + l.textContent).join('\\n');",
        )
        .await;
        assert!(ruled.contains("path_alone: slow start alone gives 11.6 MB/s"), "{ruled}");
        lab.screenshot("diagnose-explain").await;
        // The address asks the same question: a shared link opens on this explanation.
        let asked = lab.search().await;
        assert_eq!(asked, "?view=diagnose&my_goodput=1.8&lang=en");
        // One click opens the window's run: its goodput is the number.
        lab.click(By::Css(".explain-candidates li[data-cause='receive_window'] a"), "the window's run")
            .await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        let goodput = tcplab_e2e::card(&lab.cards().await, "card-goodput")
            .shown()
            .unwrap_or(0.0);
        assert!((goodput / 1.8 - 1.0).abs() < 0.05, "{goodput} MB/s");

        // The link opened afresh: the number in its box and its explanation, with no click.
        lab.open(&asked).await;
        assert_eq!(explained(lab).await, causes, "the same explanation");
        assert_eq!(
            lab.eval_string("return document.getElementById('explain-value').value;").await,
            "1.8"
        );
        // A number the link cannot ask is named with its range, and nothing is explained.
        lab.open("?view=diagnose&my_goodput=1e99&lang=en").await;
        let banner = lab.text_of("banner").await;
        assert!(
            banner.contains("my_goodput") && banner.contains("allowed above 0 to 100,000 MB/s"),
            "{banner}"
        );
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_dropped_on_the_page_is_read_as_one_chosen() {
    let bytes = std::fs::read(repo_root().join("tests/captures/window.pcap")).expect("a capture");
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?view=diagnose&lang=zh").await;
        // A drop as the browser makes one: a DataTransfer holding the file, on the drop zone.
        lab.driver
            .execute(
                "const f = new File([new Uint8Array(arguments[0])], 'window.pcap');
                 const dt = new DataTransfer(); dt.items.add(f);
                 const zone = document.getElementById('capture-drop');
                 zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
                 zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
                 return null;",
                vec![serde_json::json!(bytes)],
            )
            .await
            .expect("drop the file");
        assert!(analysed(lab).await, "no analysis: {:?}", lab.console().await);
        let verdict = lab
            .eval_string("return document.getElementById('capture-analysis').dataset.verdict;")
            .await;
        assert_eq!(verdict, "receive_window");
        // Taken at the receiver, as it was; said in Chinese, the verdict's figures and how
        // each fitted value was found as much as the labels.
        let point = lab.text_of("capture-point").await;
        assert!(point.contains("接收端"), "{point}");
        let said = lab.text_of("capture-verdict").await;
        assert!(said.starts_with("瓶颈：接收窗口。") && said.contains("接收端提供的"), "{said}");
        let fit = lab.text_of("capture-fit").await;
        assert!(fit.contains("接收端提供的") || fit.contains("受接收窗口限制"), "{fit}");
        assert!(!fit.contains("the least round trip"), "{fit}");
        lab.screenshot("diagnose-dropped-zh").await;
        // A capture of a handshake alone has no transfer to explain: refused in Chinese, and
        // the scenario fitted to the capture before stays the page's.
        let search = lab.search().await;
        let handshake = handshake_only();
        lab.choose_file("capture-file", &handshake).await;
        assert!(
            lab.wait_until(ANALYSIS, || async move {
                lab.text_of("capture-error").await.contains("没有传输数据")
            })
            .await,
            "no refusal: {:?}",
            lab.console().await
        );
        let e = lab.text_of("capture-error").await;
        assert!(e.starts_with("handshake.pcap：连接 1 没有传输数据"), "{e}");
        // The analysis still below is the file read before, and says so.
        let still = lab.text_of("capture-still").await;
        assert!(still.contains("window.pcap"), "{still}");
        assert_eq!(lab.search().await, search);
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// A capture of a connection's handshake alone (its first two packets), on disk.
fn handshake_only() -> PathBuf {
    let s = Scenario::parse("app=body&body=4000&rtt=20").expect("a scenario");
    let r = run(
        &s,
        &RunOptions {
            capture: Some(CaptureOptions {
                max_packets: 2,
                ..CaptureOptions::default()
            }),
            ..RunOptions::default()
        },
    );
    let path = scratch("handshake.pcap");
    std::fs::write(&path, &r.capture.expect("a capture").bytes).expect("written");
    path
}

/// Drops a file of `bytes` on the page's body, as the browser makes a drop, and asserts that
/// the page took it (both the drag-over and the drop prevented, so the browser does not open
/// the file) and read it in the diagnosis.
async fn drop_opens_the_diagnosis(lab: &Lab, bytes: &[u8]) {
    let taken = lab
        .driver
        .execute(
            "const f = new File([new Uint8Array(arguments[0])], 'window.pcap');
             const dt = new DataTransfer(); dt.items.add(f);
             const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
             document.body.dispatchEvent(over);
             const drop = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
             document.body.dispatchEvent(drop);
             return String(over.defaultPrevented && drop.defaultPrevented);",
            vec![serde_json::json!(bytes)],
        )
        .await
        .expect("drop the file")
        .json()
        == &serde_json::json!("true");
    assert!(taken, "the browser would open the file");
    assert!(
        analysed(lab).await,
        "no analysis: {:?}",
        lab.console().await
    );
    let search = lab.search().await;
    assert!(search.contains("view=diagnose"), "{search}");
}

/// A capture dropped anywhere on the page, even on the default page's first screen before the
/// page's module has come, opens the diagnosis with it: the browser never opens the file in the
/// page's place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_dropped_anywhere_opens_the_diagnosis_with_it() {
    let bytes = std::fs::read(repo_root().join("tests/captures/window.pcap")).expect("a capture");
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        // The default page's first screen, its module not started: no gesture yet.
        lab.driver
            .goto(lab.server.url("?lang=en"))
            .await
            .expect("load the default page");
        let first_screen = lab
            .wait_for_script(
                RUN_TIMEOUT,
                "const s = document.getElementById('first-screen');
                 return String(!!s && getComputedStyle(s).display === 'block');",
            )
            .await;
        assert!(first_screen, "the first screen");
        drop_opens_the_diagnosis(lab, &bytes).await;
        let verdict = lab
            .eval_string("return document.getElementById('capture-analysis').dataset.verdict;")
            .await;
        assert_eq!(verdict, "receive_window");
        // Once the page runs, a drop on another view opens the diagnosis again.
        lab.open("?rtt=50&lang=en").await;
        drop_opens_the_diagnosis(lab, &bytes).await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_capture_of_two_connections_shows_either_and_brings_its_worker_with_it() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?view=diagnose&lang=en").await;
        // The capture worker is started, and its files fetched, for a capture, not with the page.
        let fetched = || async {
            lab.eval_string(
                "return performance.getEntriesByType('resource').map(e => e.name)
                     .filter(n => n.includes('capture')).map(n => n.split('/').pop()).sort().join(' ');",
            )
            .await
        };
        assert_eq!(fetched().await, "", "fetched before a capture was chosen");
        lab.choose_file(
            "capture-file",
            &repo_root().join("tests/captures/two-connections.pcap"),
        )
        .await;
        assert!(
            analysed(lab).await,
            "no analysis: {:?}",
            lab.console().await
        );
        // The worker's own fetches (its glue and module) are in its own timeline.
        assert_eq!(fetched().await, "worker-loader.js?module=tcplab-capture");
        let options = lab
            .eval_string("return String(document.querySelectorAll('#capture-conn option').length);")
            .await;
        assert_eq!(options, "2");
        let first = lab.text_of("capture-scenario").await;
        let was = lab
            .eval_string("return document.querySelector('#capture-conn option:checked').value;")
            .await;
        // The other connection, chosen from the list, is analysed in its turn.
        lab.eval_string(
            "const s = document.getElementById('capture-conn');
             const other = [...s.options].find(o => !o.selected);
             s.value = other.value;
             s.dispatchEvent(new Event('change', { bubbles: true }));
             return null;",
        )
        .await;
        let changed = lab
            .wait_until(ANALYSIS, || async {
                let now = lab.text_of("capture-scenario").await;
                !now.is_empty() && now != first
            })
            .await;
        assert!(changed, "the other connection was not analysed: {first}");
        let selected = lab
            .eval_string("return document.querySelector('#capture-conn option:checked').value;")
            .await;
        assert_ne!(selected, was);
        lab.assert_no_console_errors().await;
    })
    .await;
}
