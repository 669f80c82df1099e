//! The page benchmark (not a pass/fail test), measured in headless Chromium with the Performance
//! API: the time from a slider's input to the charts redrawn, for the default scenario and for
//! ten seconds of a 1 Gbit/s bulk flow, with the longest task on the page's thread meanwhile,
//! which says whether the page stayed responsive; the simulator's speed in the page's Web
//! Worker, in engine events per second; and a cold load, from navigation to the first run's
//! charts drawn. docs/performance.md ("The page") reports them.
//!
//! cargo test -p tcplab-e2e --test bench -- --ignored --nocapture

use std::time::Duration;

use serde_json::Value;
use tcplab_e2e::{with_lab, Lab, RUN_TIMEOUT};
use tcplab_web::worker::protocol::{decode_reply, encode_request, unpack, Request, Want};

/// What the page's thread went through while it was measured.
struct Responsiveness {
    /// The longest task over 50 ms the browser reported (0: none).
    longest_task: f64,
    /// The longest gap between two animation frames.
    longest_frame_gap: f64,
}

/// Moves the RTT slider back and forth `rounds` times; returns each move's times (ms) from the
/// input to the request posted to the worker, its reply arriving, the reply read, and the
/// charts drawn (the page's `performance.mark`s), and how responsive the page's thread stayed
/// meanwhile.
async fn measure(lab: &Lab, rounds: usize) -> (Vec<[f64; 7]>, Responsiveness) {
    let supported = lab
        .eval_string(
            "window.__longest = 0; window.__gap = 0; window.__frames = true;
             let last = performance.now();
             const frame = t => { window.__gap = Math.max(window.__gap, t - last); last = t;
                                  if (window.__frames) requestAnimationFrame(frame); };
             requestAnimationFrame(frame);
             if (!PerformanceObserver.supportedEntryTypes.includes('longtask')) return 'no';
             new PerformanceObserver(l => { for (const e of l.getEntries())
                 window.__longest = Math.max(window.__longest, e.duration); })
                 .observe({ type: 'longtask', buffered: false });
             return 'yes';",
        )
        .await;
    assert_eq!(supported, "yes", "this browser reports no long tasks");
    let mut times = Vec::new();
    for i in 0..rounds {
        let step = if i % 2 == 0 { 20 } else { -20 };
        let script = format!(
            "const done = arguments[arguments.length - 1];
             // The RTT slider, or the bandwidth's where the RTT is a list per flow (a text field).
         const slider = id => {{ const e = document.getElementById(id);
                                 return e && e.type === 'range' ? e : null; }};
         const s = slider('rtt') || slider('bw');
             const target = String(Number(s.value) + ({step}));
             const results = document.querySelector('.results');
             const head = document.getElementById('headline');
             const before = head.dataset.query;
             const drawn = () => {{
                 const c = document.querySelector('.charts');
                 const q = head.dataset.query;
                 if (q === before || head.dataset.state !== 'done') return false;
                 // Every chart in view drawn for the new run (those out of view follow later).
                 return !c || c.dataset.shown === undefined || c.dataset.shown === q;
             }};
             const obs = new MutationObserver(() => {{
                 if (!drawn()) return;
                 obs.disconnect();
                 performance.mark('tcplab-drawn-{i}');
                 const total = performance.measure('tcplab-{i}', 'tcplab-input-{i}', 'tcplab-drawn-{i}');
                 const at = n => {{ const e = performance.getEntriesByName(n, 'mark').pop();
                                    return e ? e.startTime - total.startTime : null; }};
                 const painted = [...document.querySelectorAll('canvas[data-draw-ms]')]
                     .filter(c => c.dataset.drawn === head.dataset.query);
                 const paint = painted.reduce((a, c) => a + Number(c.dataset.drawMs), 0);
                 const seen = painted.filter(c => {{ const r = c.getBoundingClientRect();
                     return r.bottom > 0 && r.top < innerHeight; }}).length;
                 done([at('tcplab-request'), at('tcplab-reply'), at('tcplab-view'), total.duration,
                       paint, painted.length, seen]);
             }});
             obs.observe(results, {{ attributes: true, childList: true, subtree: true }});
             performance.mark('tcplab-input-{i}');
             s.value = target;
             s.dispatchEvent(new Event('input', {{ bubbles: true }}));
             s.dispatchEvent(new Event('change', {{ bubbles: true }}));"
        );
        let ret = lab
            .driver
            .execute_async(script, Vec::new())
            .await
            .expect("the measurement");
        let j = ret.json();
        let stage = |k: usize| j[k].as_f64().unwrap_or(f64::NAN);
        if j[3].as_f64().is_some() {
            times.push(std::array::from_fn(stage));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let read = |name: &'static str| async move {
        lab.eval_string(&format!("return String(window.{name});"))
            .await
            .parse()
            .unwrap_or(f64::NAN)
    };
    let page = Responsiveness {
        longest_task: read("__longest").await,
        longest_frame_gap: read("__gap").await,
    };
    lab.eval_string("window.__frames = false; return null;")
        .await;
    (times, page)
}

/// Lets the benchmark's own scripts run for up to `secs` seconds.
async fn allow_scripts(lab: &Lab, secs: u64) {
    lab.driver
        .set_script_timeout(Duration::from_secs(secs))
        .await
        .expect("script timeout");
}

fn median(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |i: usize| v.get(i).copied().unwrap_or(f64::NAN);
    (at(v.len() / 2), at(0), at(v.len().saturating_sub(1)))
}

fn report(name: &str, times: &[[f64; 7]], page: &Responsiveness) {
    let stage = |k: usize| median(times.iter().map(|t| t[k]).collect());
    let (request, reply, view) = (stage(0).0, stage(1).0, stage(2).0);
    let (drawn, best, worst) = stage(3);
    let p95 = {
        let mut v: Vec<f64> = times.iter().map(|t| t[3]).collect();
        v.sort_by(f64::total_cmp);
        v.get((v.len() * 95).div_ceil(100).saturating_sub(1))
            .copied()
            .unwrap_or(f64::NAN)
    };
    let (paint, charts, seen) = (stage(4).0, stage(5).0, stage(6).0);
    println!(
        "{name}, {} moves: input to charts drawn median {drawn:.1} ms, p95 {p95:.1} ms (best \
         {best:.1}, worst {worst:.1}); medians from the input: request posted {request:.1} ms, \
         reply arrived {reply:.1} ms, reply read {view:.1} ms; the charts' painting {paint:.1} ms \
         in all ({charts} charts, {seen} of them in view); on the page's thread, the longest task \
         over 50 ms {:.1} ms (0: none) and the longest gap between two frames {:.1} ms",
        times.len(),
        page.longest_task,
        page.longest_frame_gap
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run it with --ignored --nocapture"]
async fn slider_input_to_charts_drawn() {
    with_lab(|lab| async move {
        let lab = &*lab;
        allow_scripts(lab, 30).await;
        lab.open("?lang=en").await;
        // The default page comes with its run: the first move brings the simulator's worker
        // (fetched, compiled, started), and is reported apart from the moves after it.
        let (first, page) = measure(lab, 1).await;
        report("default scenario, the first move", &first, &page);
        // As a mouse comes to a slider: the pointer over the controls starts the worker.
        lab.open("?lang=en").await;
        lab.eval_string(
            "document.getElementById('settings')
                 .dispatchEvent(new PointerEvent('pointerover', { bubbles: true }));
             return null;",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (first, page) = measure(lab, 1).await;
        report(
            "default scenario, the first move 300 ms after the pointer came over the controls",
            &first,
            &page,
        );
        let (times, page) = measure(lab, 21).await;
        report("default scenario", &times, &page);
        println!("    {}", lab.text_of("status").await);

        lab.open("?app=bulk&dur=10&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        let (times, page) = measure(lab, 7).await;
        report("app=bulk&dur=10 (1 Gbit/s)", &times, &page);
        println!("    {}", lab.text_of("status").await);

        // The heaviest preset the drag draws at nearly every other frame: where its time goes.
        lab.open("?preset=multi-flow&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        let (times, page) = measure(lab, 11).await;
        report("preset=multi-flow (8 flows)", &times, &page);
        println!("    {}", lab.text_of("status").await);
    })
    .await;
}

/// A drag of `frames` frames ([`Lab::drag_slider`]): its frames, the frames that showed a new
/// run, and how long it took (ms).
async fn drag(lab: &Lab, frames: u32) -> (u32, u32, f64) {
    let d = lab.drag_slider(frames, "null").await;
    (d.frames, d.fresh, d.ms)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run it with --ignored --nocapture"]
async fn dragging_a_slider_draws_a_new_run_every_frame() {
    with_lab(|lab| async move {
        let lab = &*lab;
        allow_scripts(lab, 60).await;
        // TCPLAB_DRAG_PRESETS=multi-flow,rtt-unfairness drags those presets alone (no default
        // page), to compare two builds on the pages a change is for.
        let only = std::env::var("TCPLAB_DRAG_PRESETS").ok();
        let chosen = |name: &str| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|n| n == name))
        };
        let presets = tcplab::scenario::PRESETS
            .iter()
            .filter(|p| chosen(p.name))
            .map(|p| format!("preset={}", p.name));
        let default = only.is_none().then(String::new);
        for query in default.into_iter().chain(presets) {
            lab.open(&format!("?{query}&lang=en")).await;
            lab.wait_for_run(RUN_TIMEOUT).await;
            if query.is_empty() {
                // The default page comes with its run, and its first move brings the worker:
                // the drag is measured once the worker is in, as for every other scenario.
                drag(lab, 10).await;
                lab.wait_for_run(RUN_TIMEOUT).await;
            }
            let (frames, fresh, ms) = drag(lab, 240).await;
            println!(
                "{:<28} {fresh} of {frames} frames showed a new run ({:.2} a frame; {:.1} runs a \
                 second, frames {:.1} ms apart); {}",
                if query.is_empty() { "default" } else { &query },
                f64::from(fresh) / f64::from(frames.max(1)),
                f64::from(fresh) / ms * 1e3,
                ms / f64::from(frames.max(1)),
                lab.text_of("status").await
            );
        }
    })
    .await;
}

/// The page's JS heap after a full collection (bytes), and the workers it has running.
async fn heap_and_workers(lab: &Lab) -> (f64, String) {
    tokio::time::sleep(Duration::from_secs(1)).await;
    let json = lab
        .eval_string(
            "if (window.gc) { gc(); gc(); }
             return JSON.stringify([performance.memory ? performance.memory.usedJSHeapSize : null,
                                    document.documentElement.dataset.liveWorkers || '0']);",
        )
        .await;
    let v: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
    (
        v[0].as_f64().unwrap_or(f64::NAN),
        v[1].as_str().unwrap_or("?").to_string(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run it with --ignored --nocapture"]
async fn the_js_heap_stays_flat_over_1000_slider_moves() {
    with_lab(|lab| async move {
        let lab = &*lab;
        allow_scripts(lab, 120).await;
        for query in ["", "preset=lesson-fast-retransmit"] {
            lab.open(&format!("?{query}&lang=en")).await;
            lab.wait_for_run(RUN_TIMEOUT).await;
            // A first drag, so that what the page keeps for good (compiled code, caches) is in.
            drag(lab, 100).await;
            lab.wait_for_run(RUN_TIMEOUT).await;
            let (before, workers_before) = heap_and_workers(lab).await;
            let mut fresh = 0;
            let mut halfway = f64::NAN;
            for block in 1..=10 {
                fresh += drag(lab, 100).await.1;
                if block == 5 {
                    lab.wait_for_run(RUN_TIMEOUT).await;
                    halfway = heap_and_workers(lab).await.0;
                }
            }
            lab.wait_for_run(RUN_TIMEOUT).await;
            let (after, workers_after) = heap_and_workers(lab).await;
            println!(
                "{:<32} 1000 moves ({fresh} runs shown): JS heap {:.2} MB before, {:.2} MB after \
                 500 moves, {:.2} MB after 1000 ({:+.1} %); workers running {workers_before} \
                 before, {workers_after} after",
                if query.is_empty() { "default" } else { query },
                before / 1e6,
                halfway / 1e6,
                after / 1e6,
                (after / before - 1.0) * 100.0
            );
        }
    })
    .await;
}

/// The scenarios of the simulator's own benchmark (`core/benches/engine.rs`), to compare the
/// worker with the native build, and a run that spends the page's whole event budget.
const ENGINE_SCENARIOS: [(&str, &str); 5] = [
    ("1 Gbit/s bulk flow, 1 s", "app=bulk&dur=1"),
    ("same with 0.1 % loss", "app=bulk&dur=1&loss=0.1"),
    ("8 flows sharing 1 Gbit/s, 1 s", "app=bulk&dur=1&flows=8"),
    (
        "the heaviest preset the drag nearly keeps up with",
        "preset=multi-flow",
    ),
    (
        "a run that spends the page's whole budget",
        "app=bulk&dur=600",
    ),
];

/// Bytes from their base64.
fn base64(text: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text).ok()
}

/// Runs `query` `rounds` times, one after another, in a fresh worker of the page's own build
/// (`worker-loader.js`, as the page starts it), asking for what `want` names: the summary alone,
/// as a sweep does (a run without traces), or the view, as the charts do (a run with them);
/// returns each run's events and the worker's own timing of the simulation (`sim_wall_ms`,
/// taken around `tcplab::run` inside the worker), and when the worker said it was ready.
async fn worker_runs(lab: &Lab, query: &str, rounds: usize, want: Want) -> (f64, Vec<(u64, f64)>) {
    let requests: Vec<Vec<u8>> = (1..=rounds as u64)
        .map(|id| {
            encode_request(&Request {
                id,
                query: query.to_string(),
                want: want.clone(),
                trace: None,
            })
            .expect("a request")
        })
        .collect();
    // The worker's first message says it is ready; each one after is a reply and the bytes
    // beside it (a view), each in base64.
    let script = format!(
        "const done = arguments[arguments.length - 1];
         const requests = {};
         const started = performance.now();
         const w = new Worker('worker-loader.js');
         let ready = null;
         const out = [];
         const fail = error => {{ w.terminate(); done(JSON.stringify({{ error: String(error) }})); }};
         const ask = i => w.postMessage(new Uint8Array(requests[i]));
         const b64 = b => {{
             const u = new Uint8Array(b); let s = '';
             for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000));
             return btoa(s);
         }};
         w.onerror = e => fail(e.message);
         w.onmessage = e => {{
             try {{
                 if (ready === null) {{ ready = performance.now() - started; return ask(0); }}
                 out.push(Array.isArray(e.data) ? [b64(e.data[0]), b64(e.data[1])] : [b64(e.data), '']);
                 if (out.length < requests.length) ask(out.length);
                 else {{ w.terminate(); done(JSON.stringify({{ ready, out }})); }}
             }} catch (error) {{ fail(error); }}
         }};",
        serde_json::to_string(&requests).expect("the requests as JSON")
    );
    let ret = lab
        .driver
        .execute_async(script, Vec::new())
        .await
        .expect("the worker's runs");
    let text = ret.json().as_str().unwrap_or("").to_string();
    let v: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
    assert!(v["error"].is_null(), "{query}: {}", v["error"]);
    let replies: Vec<(String, String)> =
        serde_json::from_value(v["out"].clone()).unwrap_or_default();
    let runs = replies
        .iter()
        .map(|(head, beside)| {
            let bytes = |b64: &str| {
                (!b64.is_empty()).then(|| base64(b64).unwrap_or_else(|| panic!("{query}: base64")))
            };
            let mut reply = decode_reply(&bytes(head).unwrap_or_default())
                .unwrap_or_else(|e| panic!("{query}: {e}"));
            let _file = unpack(&mut reply, bytes(beside));
            match (reply.summary, reply.view, reply.error) {
                (Some(s), _, _) => (s.events, s.sim_wall_ms),
                (None, Some(v), _) => (v.summary.events, v.summary.sim_wall_ms),
                (None, None, e) => panic!("{query}: {e:?}"),
            }
        })
        .collect();
    (v["ready"].as_f64().unwrap_or(f64::NAN), runs)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run it with --ignored --nocapture"]
async fn engine_events_per_second_in_the_worker() {
    with_lab(|lab| async move {
        let lab = &*lab;
        allow_scripts(lab, 120).await;
        lab.open("?lang=en").await;
        // TCPLAB_ENGINE_QUERIES='app=bulk&dur=0.01;preset=cellular' measures those queries
        // alone (`;` between them), to compare two builds on the runs a change is for.
        let only = std::env::var("TCPLAB_ENGINE_QUERIES").ok();
        let scenarios: Vec<(&str, &str)> = match only.as_deref() {
            Some(o) => o.split(';').map(|q| ("chosen", q)).collect(),
            None => ENGINE_SCENARIOS.to_vec(),
        };
        for (name, query) in scenarios {
            // The budget run takes seconds; the others are repeated until the median settles.
            let rounds = if query.contains("dur=600") { 3 } else { 11 };
            // A sweep's runs (no traces), then the charts' (traces kept).
            for (kind, want) in [("summary", Want::Summary), ("view", Want::View)] {
                let (ready, runs) = worker_runs(lab, query, rounds, want).await;
                let Some(&(events, first_ms)) = runs.first() else {
                    panic!("{query}: no run came back");
                };
                // The first run of a fresh worker is also when V8 moves the hot code from its
                // baseline compiler to its optimising one; the rest show the steady state.
                let (warm_ms, best_ms, worst_ms) = median(runs[1..].iter().map(|r| r.1).collect());
                let rate = |ms: f64| events as f64 / ms * 1e3 / 1e6;
                println!(
                    "{name} (`{query}`), {kind}: {events} events; first run in a fresh worker \
                     {first_ms:.1} ms ({:.2} M events/s); then median {warm_ms:.1} ms ({:.2} M \
                     events/s, best {:.2}, worst {:.2}) over {} runs; worker ready {ready:.0} ms \
                     after it was started",
                    rate(first_ms),
                    rate(warm_ms),
                    rate(best_ms),
                    rate(worst_ms),
                    runs.len() - 1
                );
                // In order, so that a spread shows its shape (a slow start, or slow runs here
                // and there).
                let each: Vec<String> = runs.iter().map(|r| format!("{:.1}", r.1)).collect();
                println!("    each run in turn, ms: {}", each.join(" "));
            }
        }
        // The same budget run as a reader gets it: a link opened in a fresh page, whose own
        // start-up shares the cores with the worker.
        let fresh_pages = if only.is_some() { 0 } else { 3 };
        for _ in 0..fresh_pages {
            lab.open("?app=bulk&dur=600&lang=en").await;
            println!(
                "a fresh page at `?app=bulk&dur=600`: {}",
                lab.text_of("status").await
            );
        }
    })
    .await;
}

/// What a load of the page took, in ms from navigation start (the Performance API's zero).
#[derive(Debug)]
struct Load {
    html: f64,
    page_wasm: f64,
    first_paint: f64,
    worker_ready: f64,
    request: f64,
    reply_read: f64,
    drawn: f64,
}

/// Loads the page at `search` and waits for its charts; the load's milestones.
async fn load(lab: &Lab, search: &str) -> Load {
    lab.open(search).await;
    let json = lab
        .eval_string(
            "const nav = performance.getEntriesByType('navigation')[0];
             const wasm = performance.getEntriesByType('resource')
                 .find(r => /tcplab-web-.*_bg\\.wasm$/.test(r.name));
             const fcp = performance.getEntriesByName('first-contentful-paint')[0];
             // The default page's run comes with it: no worker, no request.
             const first = n => { const e = performance.getEntriesByName(n, 'mark');
                                  return e.length ? e[0].startTime : null; };
             return JSON.stringify({
                 html: nav ? nav.responseEnd : null,
                 page_wasm: wasm ? wasm.responseEnd : null,
                 first_paint: fcp ? fcp.startTime : null,
                 // The worker's first message is its `ready`.
                 worker_ready: first('tcplab-reply'),
                 request: first('tcplab-request'),
                 reply_read: first('tcplab-view'),
                 // The charts in view drawn: what a reader sees first.
                 drawn: first('tcplab-shown') });",
        )
        .await;
    let v: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
    let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
    Load {
        html: f("html"),
        page_wasm: f("page_wasm"),
        first_paint: f("first_paint"),
        worker_ready: f("worker_ready"),
        request: f("request"),
        reply_read: f("reply_read"),
        drawn: f("drawn"),
    }
}

fn print_loads(what: &str, loads: &[Load]) {
    let m = |f: fn(&Load) -> f64| median(loads.iter().map(f).collect());
    let (drawn, best, worst) = m(|l| l.drawn);
    println!(
        "{what}, {} loads: navigation start to the first run's charts drawn median {drawn:.0} ms \
         (best {best:.0}, worst {worst:.0}); medians: HTML {:.0} ms, page's wasm fetched {:.0} \
         ms, first contentful paint {:.0} ms, worker ready {:.0} ms, run requested {:.0} ms, \
         reply read {:.0} ms",
        loads.len(),
        m(|l| l.html).0,
        m(|l| l.page_wasm).0,
        m(|l| l.first_paint).0,
        m(|l| l.worker_ready).0,
        m(|l| l.request).0,
        m(|l| l.reply_read).0,
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run it with --ignored --nocapture"]
async fn cold_load_to_the_first_charts_drawn() {
    // The server answers `Cache-Control: no-store`, so every load fetches and compiles the
    // page anew; a fresh browser's first load also starts its processes and caches. The
    // default page draws the run it comes with; a shared link's scenario waits for the worker.
    for (what, search) in [
        ("the default page", "?lang=en"),
        ("a shared link (rtt=50)", "?rtt=50&lang=en"),
    ] {
        let mut first = Vec::new();
        let mut again = Vec::new();
        for _ in 0..5 {
            let (tx, rx) = tokio::sync::oneshot::channel();
            with_lab(|lab| async move {
                let lab = &*lab;
                let cold = load(lab, search).await;
                let mut reloads = Vec::new();
                for _ in 0..4 {
                    reloads.push(load(lab, search).await);
                }
                let _ = tx.send((cold, reloads));
            })
            .await;
            let (cold, reloads) = rx.await.expect("the loads");
            first.push(cold);
            again.extend(reloads);
        }
        print_loads(&format!("{what}: a fresh browser's first load"), &first);
        print_loads(
            &format!("{what}: the same browser loading it again"),
            &again,
        );
    }
}

/// What a reader of the default page sees, and when, over a slow mobile network: Chromium's own
/// throttling at Lighthouse's "slow 4G" (150 ms, 1.6 Mbit/s down, 750 kbit/s up), five fresh
/// browsers at 1280 x 960. The first screen, rendered when the page was built, paints with the
/// HTML and its charts' images; the page's own charts wait for its module, which the other
/// benchmarks time from there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run it with --ignored --nocapture"]
async fn the_first_screen_on_a_slow_network() {
    use thirtyfour::cdp::domains::network::NetworkConditions;
    let mut loads: Vec<Value> = Vec::new();
    for _ in 0..5 {
        let (tx, rx) = tokio::sync::oneshot::channel();
        with_lab(|lab| async move {
            let lab = &*lab;
            lab.set_window(1280, 960).await;
            let slow = NetworkConditions {
                latency: 150,
                download_throughput: 1_600_000 / 8,
                upload_throughput: 750_000 / 8,
                ..NetworkConditions::default()
            };
            let cdp = lab.driver.cdp();
            cdp.network().enable().await.expect("the network domain");
            cdp.network()
                .emulate_network_conditions(slow)
                .await
                .expect("throttle the network");
            lab.open("?lang=en").await;
            let json = lab
                .eval_string(
                    "const res = performance.getEntriesByType('resource');
                     const fcp = performance.getEntriesByName('first-contentful-paint')[0];
                     const charts = res.filter(r => /chart-.*\\.svg$/.test(r.name));
                     const wasm = res.find(r => /tcplab-web-.*_bg\\.wasm$/.test(r.name));
                     return JSON.stringify({
                         first_paint: fcp ? fcp.startTime : null,
                         charts: charts.length ? Math.max(...charts.map(r => r.responseEnd)) : null,
                         page_wasm: wasm ? wasm.responseEnd : null });",
                )
                .await;
            let _ = tx.send(serde_json::from_str(&json).unwrap_or(Value::Null));
        })
        .await;
        loads.push(rx.await.expect("the load"));
    }
    let m = |k: &str| {
        median(
            loads
                .iter()
                .map(|v| v[k].as_f64().unwrap_or(f64::NAN))
                .collect(),
        )
        .0
    };
    println!(
        "the default page on slow 4G, {} fresh browsers, medians: first paint (the verdict, the \
         cards, the sliders) {:.0} ms, the first screen's chart images in {:.0} ms, the page's \
         module in {:.0} ms",
        loads.len(),
        m("first_paint"),
        m("charts"),
        m("page_wasm"),
    );
}
