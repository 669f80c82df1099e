//! The page benchmark (not a pass/fail test): the time from a slider's input to the charts
//! redrawn, measured in the page with the Performance API, for the default scenario and for
//! ten seconds of a 1 Gbit/s bulk flow; and the longest task on the page's thread meanwhile,
//! which says whether the page stayed responsive. docs/performance.md ("The page") reports it.
//!
//! cargo test -p tcplab-e2e --test bench -- --ignored --nocapture

use std::time::Duration;

use tcplab_e2e::{with_lab, Lab, RUN_TIMEOUT};

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
async fn measure(lab: &Lab, rounds: usize) -> (Vec<[f64; 4]>, Responsiveness) {
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
             const s = document.getElementById('rtt');
             const target = String(Number(s.value) + ({step}));
             const results = document.querySelector('.results');
             const head = document.getElementById('headline');
             const before = head.dataset.query;
             const drawn = () => {{
                 const c = document.querySelector('.charts');
                 const q = head.dataset.query;
                 if (q === before || head.dataset.state !== 'done') return false;
                 return !c || c.dataset.drawn === undefined || c.dataset.drawn === q;
             }};
             const obs = new MutationObserver(() => {{
                 if (!drawn()) return;
                 obs.disconnect();
                 performance.mark('tcplab-drawn-{i}');
                 const total = performance.measure('tcplab-{i}', 'tcplab-input-{i}', 'tcplab-drawn-{i}');
                 const at = n => {{ const e = performance.getEntriesByName(n, 'mark').pop();
                                    return e ? e.startTime - total.startTime : null; }};
                 done([at('tcplab-request'), at('tcplab-reply'), at('tcplab-view'), total.duration]);
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
            times.push([stage(0), stage(1), stage(2), stage(3)]);
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

fn median(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |i: usize| v.get(i).copied().unwrap_or(f64::NAN);
    (at(v.len() / 2), at(0), at(v.len().saturating_sub(1)))
}

fn report(name: &str, times: &[[f64; 4]], page: &Responsiveness) {
    let stage = |k: usize| median(times.iter().map(|t| t[k]).collect());
    let (request, reply, view) = (stage(0).0, stage(1).0, stage(2).0);
    let (drawn, best, worst) = stage(3);
    println!(
        "{name}, {} moves: input to charts drawn median {drawn:.1} ms (best {best:.1}, worst \
         {worst:.1}); medians from the input: request posted {request:.1} ms, reply arrived \
         {reply:.1} ms, reply read {view:.1} ms; on the page's thread, the longest task over \
         50 ms {:.1} ms (0: none) and the longest gap between two frames {:.1} ms",
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
        lab.driver
            .set_script_timeout(Duration::from_secs(30))
            .await
            .expect("script timeout");
        lab.open("?lang=en").await;
        let (times, page) = measure(lab, 21).await;
        report("default scenario", &times, &page);
        println!("    {}", lab.text_of("status").await);

        lab.open("?app=bulk&dur=10&lang=en").await;
        lab.wait_for_run(RUN_TIMEOUT).await;
        let (times, page) = measure(lab, 7).await;
        report("app=bulk&dur=10 (1 Gbit/s)", &times, &page);
        println!("    {}", lab.text_of("status").await);
    })
    .await;
}
