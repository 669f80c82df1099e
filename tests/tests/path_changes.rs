//! Paths that change and flows that differ, in the built page: each scheduled change is marked
//! on the time charts, flows of different algorithms and RTTs are drawn apart with a chart of
//! how they share the link, and a policer gets its own verdict. Screenshots go to
//! `target/e2e/`.

use std::time::Duration;

use tcplab_e2e::{with_lab, Lab, RUN_TIMEOUT};

/// Scrolls chart `kind` into view, for a screenshot of it.
async fn show(lab: &Lab, kind: &str) {
    lab.eval_string(&format!(
        "const f = document.querySelector('figure[data-chart=\"{kind}\"]');
         if (f) f.scrollIntoView({{block: 'start'}});
         return '';"
    ))
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
}

/// Chart `kind`'s darkness column by column (the sum over each column of 255 less the
/// pixels' mean channel), to tell where two drawings of the same run differ.
async fn columns_of(lab: &Lab, kind: &str) -> Vec<u64> {
    let script = format!(
        "const c = document.querySelector('figure[data-chart=\"{kind}\"] canvas.chart-base');
         if (!c || !c.width) return '';
         const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
         const cols = new Array(c.width).fill(0);
         for (let i = 0; i < d.length; i += 4) {{
             const x = (i / 4) % c.width;
             cols[x] += 255 - Math.round((d[i] + d[i + 1] + d[i + 2]) / 3);
         }}
         return cols.join(',');"
    );
    lab.eval_string(&script)
        .await
        .split(',')
        .filter_map(|v| v.parse().ok())
        .collect()
}

async fn has_chart(lab: &Lab, kind: &str) -> bool {
    lab.eval_string(&format!(
        "return String(!!document.querySelector('figure[data-chart=\"{kind}\"] canvas.chart-base'));"
    ))
    .await
        == "true"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_scheduled_change_is_marked_on_the_time_charts() {
    with_lab(|lab| async move {
        let lab = &*lab;
        for (w, h, name) in [
            (1280, 960, "path-change-1280x960"),
            (1920, 1080, "path-change-1920x1080"),
            (390, 844, "path-change-390x844"),
        ] {
            lab.set_window(w, h).await;
            // A change to the rate the path already has leaves the run as it was: what differs
            // between the two pages is the mark alone.
            let base = "cc=cubic&rtt=40&bw=20&queue=100&app=bulk&dur=6";
            lab.open(&format!("?{base}&lang=en")).await;
            assert_eq!(lab.run_state().await, "done");
            assert!(lab.charts_drawn().await);
            let unmarked = [
                columns_of(lab, "goodput").await,
                columns_of(lab, "cwnd").await,
            ];
            lab.open(&format!("?{base}&sched=3:bw:20&lang=en")).await;
            assert_eq!(lab.run_state().await, "done");
            assert!(lab.charts_drawn().await);
            let marked = [
                columns_of(lab, "goodput").await,
                columns_of(lab, "cwnd").await,
            ];
            for (chart, (before, after)) in
                ["goodput", "cwnd"].iter().zip(unmarked.iter().zip(&marked))
            {
                assert_eq!(
                    before.len(),
                    after.len(),
                    "{w}x{h} {chart}: the same canvas"
                );
                let differ: Vec<usize> = (0..before.len())
                    .filter(|&x| before[x] != after[x])
                    .collect();
                // The mark's line stands at 3 s of the 6 s axis, past the left axis and before
                // the right edge; its label runs to its right.
                let first = differ.first().copied().unwrap_or(0) as f64 / before.len() as f64;
                assert!(
                    !differ.is_empty() && (0.35..0.65).contains(&first),
                    "{w}x{h} {chart}: columns that differ {differ:?} of {}",
                    before.len()
                );
            }
            // The drop itself, at the phone's size too.
            lab.open("?preset=bandwidth-drop&lang=en").await;
            assert_eq!(lab.run_state().await, "done");
            lab.screenshot(name).await;
        }
        lab.set_window(1280, 960).await;
        lab.open("?preset=bandwidth-drop&lang=zh").await;
        assert_eq!(lab.run_state().await, "done");
        lab.screenshot("path-change-zh").await;
        lab.open("?preset=cellular&lang=en").await;
        assert_eq!(lab.run_state().await, "done");
        show(lab, "goodput").await;
        lab.screenshot("cellular-goodput").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flows_that_differ_are_drawn_apart_with_their_share_of_the_link() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?cc=bbr,cubic&rtt=20,80&bw=20&queue=100&app=bulk&dur=10&flows=2&lang=en")
            .await;
        assert_eq!(lab.run_state().await, "done");
        assert!(lab.charts_drawn().await);
        assert!(
            has_chart(lab, "sharing").await,
            "two flows get the sharing chart"
        );
        // Flow 2's colour (style.rs FLOWS[0]) on the sharing chart, and Jain's dashes (TOTAL).
        let flow2 = lab.pixels_of("sharing", (0xf2, 0x8e, 0x2b)).await;
        assert!(flow2 > 100, "{flow2} pixels of flow 2's share");
        // Flow 1's accent (style.rs ACCENT).
        let flow1 = lab.pixels_of("sharing", (0x1f, 0x5f, 0xbf)).await;
        assert!(flow1 > 100, "{flow1} pixels of flow 1's share");
        lab.screenshot("flows-differ-1280x960").await;
        show(lab, "sharing").await;
        lab.screenshot("flows-sharing-1280x960").await;
        lab.set_window(390, 844).await;
        lab.open("?preset=bbr-vs-cubic&dur=10&lang=en").await;
        assert_eq!(lab.run_state().await, "done");
        lab.screenshot("flows-differ-390x844").await;
        lab.set_window(1920, 1080).await;
        lab.open("?preset=rtt-unfairness&dur=30&lang=zh").await;
        assert_eq!(lab.run_state().await, "done");
        lab.screenshot("flows-differ-zh-1920x1080").await;
        // One flow: no sharing to show.
        lab.open("?app=bulk&dur=2&lang=en").await;
        assert_eq!(lab.run_state().await, "done");
        assert!(!has_chart(lab, "sharing").await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policer_gets_its_own_verdict() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?preset=policer&lang=en").await;
        assert_eq!(lab.run_state().await, "done");
        let verdict = lab.text_of("verdict").await;
        assert!(verdict.contains("Limited by a policer"), "{verdict:?}");
        assert!(verdict.contains("A shaper at the same rate"), "{verdict:?}");
        lab.screenshot("policer").await;
        lab.open("?preset=policer&bw=10&police=0&queue=50&lang=en")
            .await;
        let verdict = lab.text_of("verdict").await;
        assert!(verdict.contains("Limited by the link rate"), "{verdict:?}");
        lab.open("?preset=policer&lang=zh").await;
        let verdict = lab.text_of("verdict").await;
        assert!(verdict.contains("限速器"), "{verdict:?}");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn aggregated_acks_show_as_bbr_s_extra_acked_on_the_window_chart() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        // style.rs BBR_TARGET and BBR_EXTRA: the target, and the target less extra_acked.
        let (target, extra) = ((0x2e, 0x7d, 0x32), (0x9b, 0xd3, 0xa8));
        lab.open("?cc=bbr&rtt=20&bw=50&app=bulk&dur=3&ackagg=8&lang=en")
            .await;
        assert_eq!(lab.run_state().await, "done");
        let with = (
            lab.pixels_of("cwnd", target).await,
            lab.pixels_of("cwnd", extra).await,
        );
        assert!(
            with.0 > 100 && with.1 > 100,
            "target and target less extra_acked: {with:?}"
        );
        show(lab, "cwnd").await;
        lab.screenshot("bbr-extra-acked-1280x960").await;
        // A window-based algorithm steers toward no model's target: neither line.
        lab.open("?cc=reno&rtt=20&bw=50&app=bulk&dur=3&lang=en")
            .await;
        assert_eq!(lab.run_state().await, "done");
        let reno = (
            lab.pixels_of("cwnd", target).await,
            lab.pixels_of("cwnd", extra).await,
        );
        assert_eq!(reno, (0, 0), "Reno has no target window");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bbr_s_model_is_drawn_for_its_flow() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        // Flow 2 runs BBR: its chart is drawn, named for it.
        lab.open("?cc=cubic,bbr&rtt=40&bw=20&queue=100&app=bulk&dur=10&flows=2&lang=en")
            .await;
        assert_eq!(lab.run_state().await, "done");
        assert!(has_chart(lab, "bbr").await, "a BBR flow gets BBR's chart");
        let note = lab
            .eval_string(
                "const n = document.querySelector('figure[data-chart=\"bbr\"] .tl-chart-note');
                 return n ? n.textContent : '';",
            )
            .await;
        assert_eq!(note, "flow 2 (BBR, 40 ms)");
        // The bandwidth estimate (style.rs BBR_BW) and the min RTT's line.
        let bw = lab.pixels_of("bbr", (0x2e, 0x9e, 0x44)).await;
        assert!(bw > 100, "{bw} pixels of the bandwidth estimate");
        let rtt = lab.pixels_of("bbr", (0xc2, 0x6a, 0x00)).await;
        assert!(rtt > 100, "{rtt} pixels of the min RTT");
        show(lab, "bbr").await;
        lab.screenshot("bbr-model-1280x960").await;
        lab.set_window(390, 844).await;
        lab.open("?preset=random-loss-bbr&dur=10&lang=zh").await;
        assert_eq!(lab.run_state().await, "done");
        assert!(has_chart(lab, "bbr").await);
        show(lab, "bbr").await;
        lab.screenshot("bbr-model-zh-390x844").await;
        // No BBR flow, no BBR chart.
        lab.open("?app=bulk&dur=2&lang=en").await;
        assert!(!has_chart(lab, "bbr").await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

/// The note under the BBR chart's title: the flow it draws.
async fn bbr_note(lab: &Lab) -> String {
    lab.eval_string(
        "const n = document.querySelector('figure[data-chart=\"bbr\"] .tl-chart-note');
         return n ? n.textContent : '';",
    )
    .await
}

/// The BBR chart's list of flows, as shown: each option's text and the chosen value; `None`
/// where the chart has no list.
async fn bbr_flow_list(lab: &Lab) -> Option<(Vec<String>, String)> {
    let json = lab
        .eval_string(
            "const s = document.querySelector('figure[data-chart=\"bbr\"] select#bbr-flow');
             return s ? JSON.stringify([Array.from(s.options).map(o => o.textContent), s.value]) : '';",
        )
        .await;
    let (names, value): (Vec<String>, String) = serde_json::from_str(&json).ok()?;
    Some((names, value))
}

/// Chooses the flow `value` (its index) in the BBR chart's list, as a reader does.
async fn choose_bbr_flow(lab: &Lab, value: &str) {
    lab.eval_string(&format!(
        "const s = document.getElementById('bbr-flow'); s.value = '{value}';
         s.dispatchEvent(new Event('change', {{ bubbles: true }})); return null;"
    ))
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_bbr_flow_s_model_can_be_drawn() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?flows=2&cc=bbr&rtt=20,80&app=bulk&dur=10&lang=en")
            .await;
        assert_eq!(lab.run_state().await, "done");
        let label = lab
            .eval_string(
                "const l = document.querySelector('figure[data-chart=\"bbr\"] label.chart-pick > span');
                 return l ? l.textContent : '';",
            )
            .await;
        assert_eq!(label, "BBR flow");
        let flow_names = vec![
            "flow 1 (BBR, 20 ms)".to_string(),
            "flow 2 (BBR, 80 ms)".to_string(),
        ];
        assert_eq!(
            bbr_flow_list(lab).await,
            Some((flow_names.clone(), "0".to_string()))
        );
        assert_eq!(bbr_note(lab).await, "flow 1 (BBR, 20 ms)");
        let first = columns_of(lab, "bbr").await;
        show(lab, "bbr").await;
        lab.screenshot("bbr-flows-1280x960").await;

        // Flow 2: its name under the title, and its own estimates drawn.
        choose_bbr_flow(lab, "1").await;
        let named = lab
            .wait_until(Duration::from_secs(10), || async move {
                bbr_note(lab).await == "flow 2 (BBR, 80 ms)"
            })
            .await;
        assert!(named, "the note says {:?}", bbr_note(lab).await);
        let redrawn = lab
            .wait_until(Duration::from_secs(10), || {
                let first = &first;
                async move { columns_of(lab, "bbr").await != *first }
            })
            .await;
        assert!(redrawn, "choosing flow 2 redraws the chart");
        let second = columns_of(lab, "bbr").await;
        assert_eq!(first.len(), second.len(), "the same canvas");
        let differ = (0..first.len()).filter(|&x| first[x] != second[x]).count();
        assert!(
            differ * 4 > first.len(),
            "{differ} of {} columns differ between the flows",
            first.len()
        );
        assert_eq!(
            bbr_flow_list(lab).await,
            Some((flow_names, "1".to_string()))
        );
        // Its min RTT (style MIN_RTT) and bandwidth estimate (BBR_BW) are drawn.
        let rtt = lab.pixels_of("bbr", (0xc2, 0x6a, 0x00)).await;
        assert!(rtt > 100, "{rtt} pixels of flow 2's min RTT");
        let bw = lab.pixels_of("bbr", (0x2e, 0x9e, 0x44)).await;
        assert!(bw > 100, "{bw} pixels of flow 2's bandwidth estimate");
        show(lab, "bbr").await;
        lab.screenshot("bbr-flow-2-1280x960").await;
        // The cursor's readout names the flow it reads, for the screenshot.
        lab.point_at_chart("bbr", (0.5, 0.6)).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        lab.screenshot("bbr-flow-2-readout-1280x960").await;

        // A choice belongs to its run: another run on the page starts from its first BBR flow,
        // here after flow 3, the one chosen, stops running BBR.
        lab.open("?flows=3&cc=bbr,cubic,bbr&rtt=20,40,80&app=bulk&dur=10&lang=en")
            .await;
        assert_eq!(
            bbr_flow_list(lab).await.map(|(n, v)| (n.len(), v)),
            Some((2, "0".to_string()))
        );
        choose_bbr_flow(lab, "2").await;
        let chosen = lab
            .wait_until(Duration::from_secs(10), || async move {
                bbr_note(lab).await == "flow 3 (BBR, 80 ms)"
            })
            .await;
        assert!(chosen, "the note says {:?}", bbr_note(lab).await);
        lab.type_into("cc", "bbr,bbr,cubic").await;
        let rerun = lab
            .wait_for_search(RUN_TIMEOUT, |q| q.contains("cc=bbr,bbr,cubic"))
            .await;
        assert!(rerun, "{}", lab.search().await);
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.run_state().await, "done");
        assert_eq!(
            bbr_flow_list(lab).await,
            Some((
                vec![
                    "flow 1 (BBR, 20 ms)".to_string(),
                    "flow 2 (BBR, 40 ms)".to_string()
                ],
                "0".to_string()
            ))
        );
        assert_eq!(bbr_note(lab).await, "flow 1 (BBR, 20 ms)");

        // On a phone the list stays inside the chart, in Chinese too.
        lab.set_window(390, 844).await;
        lab.open("?flows=3&cc=bbr,cubic,bbr&rtt=20,40,80&app=bulk&dur=10&lang=zh")
            .await;
        let fits = lab
            .eval_string(
                "const f = document.querySelector('figure[data-chart=\"bbr\"]');
                 const s = document.getElementById('bbr-flow');
                 if (!f || !s) return 'missing';
                 const a = f.getBoundingClientRect(), b = s.getBoundingClientRect();
                 const page = document.documentElement;
                 return b.left >= a.left && b.right <= a.right + 0.5
                     && page.scrollWidth <= page.clientWidth ? 'yes' : `${b.left}-${b.right} in ${a.left}-${a.right}, page ${page.scrollWidth}/${page.clientWidth}`;",
            )
            .await;
        assert_eq!(fits, "yes");
        let label = lab
            .eval_string(
                "const l = document.querySelector('figure[data-chart=\"bbr\"] label.chart-pick > span');
                 return l ? l.textContent : '';",
            )
            .await;
        assert_eq!(label, "BBR 流");
        show(lab, "bbr").await;
        lab.screenshot("bbr-flows-zh-390x844").await;

        // One BBR flow among several: no list, the chart as it was.
        lab.set_window(1280, 960).await;
        lab.open("?cc=cubic,bbr&rtt=40&bw=20&queue=100&app=bulk&dur=10&flows=2&lang=en")
            .await;
        assert!(has_chart(lab, "bbr").await);
        assert_eq!(bbr_flow_list(lab).await, None);
        assert_eq!(bbr_note(lab).await, "flow 2 (BBR, 40 ms)");
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mahimahi_trace_chosen_on_the_page_is_the_link() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?cc=cubic&rtt=40&queue=100&app=bulk&dur=10&lang=en")
            .await;
        assert_eq!(lab.run_state().await, "done");
        // 1000 opportunities a second, and a second at half that: 9.024 Mbit/s on average.
        let dir = std::env::temp_dir().join(format!("tcplab-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let good = dir.join("steps.trace");
        let text: String = (1..=1000)
            .map(|ms| format!("{ms}\n"))
            .chain((1..=500).map(|i| format!("{}\n", 1000 + 2 * i)))
            .collect();
        std::fs::write(&good, text).expect("the trace file");
        lab.choose_file("trace-file", &good).await;
        let switched = lab
            .wait_for_search(RUN_TIMEOUT, |q| {
                q.contains("link=trace") && q.contains("bw=9.024")
            })
            .await;
        assert!(switched, "{}", lab.search().await);
        lab.wait_for_run(RUN_TIMEOUT).await;
        assert_eq!(lab.run_state().await, "done");
        let status = lab.text_of("trace-status").await;
        assert!(
            status.contains("1,500 opportunities over 2 s"),
            "{status:?}"
        );
        // What the trace could carry, shaded under the goodput (style.rs CAPACITY).
        let shaded = lab.pixels_of("goodput", (0xb9, 0xd3, 0xee)).await;
        assert!(shaded > 500, "{shaded} pixels of the trace's capacity");
        show(lab, "goodput").await;
        lab.screenshot("link-trace").await;
        // A broken file names its line, and the run stays as it was.
        let bad = dir.join("bad.trace");
        std::fs::write(&bad, "1\n2\nthree\n").expect("the bad file");
        lab.choose_file("trace-file", &bad).await;
        let said = lab
            .wait_until(Duration::from_secs(10), || async move {
                lab.text_of("trace-status").await.contains("line 3")
            })
            .await;
        assert!(said, "{:?}", lab.text_of("trace-status").await);
        assert!(lab.search().await.contains("link=trace"));
        // And says which trace the link keeps; a binary file is said to be one.
        let status = lab.text_of("trace-status").await;
        assert!(status.contains("The link keeps steps.trace."), "{status:?}");
        let binary = dir.join("image.trace");
        std::fs::write(&binary, [b'1', b'\n', 0x89, b'P', b'N', b'G', 0, 7, 0xff])
            .expect("the binary file");
        lab.choose_file("trace-file", &binary).await;
        let said = lab
            .wait_until(Duration::from_secs(10), || async move {
                lab.text_of("trace-status")
                    .await
                    .contains("line 2 is not text")
            })
            .await;
        assert!(said, "{:?}", lab.text_of("trace-status").await);
        // A reload cannot bring the file back: the link says so, the rest of it runs.
        lab.open("?cc=cubic&rtt=40&link=trace&app=bulk&dur=2&lang=en")
            .await;
        let banner = lab.eval_string("return document.body.textContent;").await;
        assert!(
            banner.contains("trace needs a Mahimahi trace file"),
            "the banner says why"
        );
        let _ = std::fs::remove_dir_all(&dir);
        lab.assert_no_console_errors().await;
    })
    .await;
}
