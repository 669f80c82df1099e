//! The queue in the built page: a preset with FQ-CoDel draws each packet's wait and the
//! discipline's target on the queue chart and the pings on the RTT chart; the latency card
//! shows the probe's p99 and opens the comparison of FIFO, CoDel and FQ-CoDel in one click;
//! the player explains a CoDel drop with the sojourn and the next drop's time. Screenshots go
//! to `target/e2e/`.

use std::time::Duration;

use tcplab::player::{explain, Language, QueueWhy, StepKind, StepWindow};
use tcplab::{RunOptions, Scenario};
use tcplab_e2e::{with_lab, Lab, PAGE_MAX_EVENTS, RUN_TIMEOUT};
use thirtyfour::prelude::*;

const SETTLE: Duration = Duration::from_secs(10);

async fn note_of(lab: &Lab, kind: &str) -> String {
    lab.eval_string(&format!(
        "const n = document.querySelector('figure[data-chart=\"{kind}\"] .tl-chart-note');
         return n ? n.textContent : '';"
    ))
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fq_codel_draws_each_packet_s_wait_its_target_and_the_pings() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        lab.open("?preset=bufferbloat-fq-codel&lang=en").await;
        assert_eq!(lab.run_state().await, "done");
        assert!(lab.charts_drawn().await);
        let note = note_of(lab, "queue").await;
        assert!(
            note.contains("FQ-CoDel holds each packet's wait near its 5 ms target"),
            "{note:?}"
        );
        // The sojourn line and the target's dashes, in their colour (style.rs SOJOURN).
        let sojourn = lab.pixels_of("queue", (0x0f, 0x7b, 0x83)).await;
        assert!(
            sojourn > 200,
            "{sojourn} pixels of the sojourn and its target"
        );
        // The pings on the RTT chart (style.rs PING).
        let pings = lab.pixels_of("rtt", (0x6a, 0x3d, 0x9a)).await;
        assert!(pings > 50, "{pings} pixels of pings");
        lab.screenshot("queue-fq-codel").await;
        // The deep FIFO says what a full queue costs instead.
        lab.open("?preset=bufferbloat&lang=en").await;
        let note = note_of(lab, "queue").await;
        assert!(
            note.contains("FIFO: a full queue makes a packet wait 2.42 s"),
            "{note:?}"
        );
        let verdict = lab.text_of("verdict").await;
        assert!(verdict.contains("of standing queue"), "{verdict:?}");
        lab.screenshot("queue-fifo").await;
        // The same in Chinese: the card, the note and the controls' group in the reader's words.
        lab.open("?preset=bufferbloat&lang=zh").await;
        let note = note_of(lab, "queue").await;
        assert!(note.contains("满队列让一个包等待"), "{note:?}");
        let card = lab.text_of("card-latency").await;
        assert!(card.contains("负载下 ping p99"), "{card:?}");
        lab.screenshot("queue-fifo-zh").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_latency_card_shows_the_ping_and_compares_the_disciplines() {
    with_lab(|lab| async move {
        let lab = &*lab;
        lab.set_window(1280, 960).await;
        let query = "preset=bufferbloat";
        lab.open(&format!("?{query}&lang=en")).await;
        let s = Scenario::parse(query).expect("a preset");
        let r = tcplab::run(&s, &RunOptions::default()).summary;
        let p99 = r
            .probe
            .as_ref()
            .and_then(|p| p.p99_ms)
            .expect("a probe ran");
        let card = lab
            .cards()
            .await
            .into_iter()
            .find(|c| c.id == "card-latency")
            .expect("the latency card");
        assert_eq!(
            card.raw,
            Some(p99),
            "the card's exact value is the runner's"
        );
        assert!(
            card.text.starts_with("2."),
            "{card:?}: seconds behind the FIFO"
        );
        assert_eq!(card.unit, "s");
        let summary = lab.text_of("probe-summary").await;
        assert!(summary.contains("base RTT 40\u{a0}ms"), "{summary:?}");

        lab.click(By::Id("compare-queues"), "compare the disciplines")
            .await;
        let compared = lab
            .wait_for_search(SETTLE, |q| {
                q.starts_with("?preset=bufferbloat&view=compare&b=")
                    && q.contains("aqm%3Dcodel")
                    && q.contains("aqm%3Dfq_codel")
            })
            .await;
        assert!(compared, "{}", lab.search().await);
        lab.wait_for_batch(RUN_TIMEOUT).await;
        lab.screenshot("queue-compare").await;
        // Back returns to the run.
        lab.eval_string("history.back(); return '';").await;
        let back = lab
            .wait_for_search(SETTLE, |q| q == "?preset=bufferbloat&lang=en")
            .await;
        assert!(back, "{}", lab.search().await);
        lab.assert_no_console_errors().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_explains_a_codel_drop() {
    with_lab(|lab| async move {
        let lab = &*lab;
        let query = "cc=cubic&rtt=40&bw=10&queue=200&aqm=codel&app=bulk&dur=3";
        let s = Scenario::parse(query).expect("a scenario");
        let options = RunOptions {
            max_events: PAGE_MAX_EVENTS,
            record_steps: Some(StepWindow::WHOLE_RUN),
            ..RunOptions::default()
        };
        let steps = tcplab::run(&s, &options).steps.expect("recorded");
        let (i, drop) = steps
            .steps
            .iter()
            .enumerate()
            .find(|(_, st)| {
                matches!(
                    st.kind,
                    StepKind::DataLost {
                        why: Some(QueueWhy::Codel { .. }),
                        ..
                    }
                )
            })
            .expect("CoDel drops a packet");
        let StepKind::DataLost {
            why:
                Some(QueueWhy::Codel {
                    sojourn_ms,
                    next_in_ms,
                    ..
                }),
            ..
        } = drop.kind
        else {
            unreachable!("matched above")
        };
        let t = drop.t_ms;
        let rank = steps.steps[..i]
            .iter()
            .rev()
            .take_while(|o| o.t_ms == t)
            .count();
        let mut at = s.clone();
        at.at_ms = Some(t);
        let step = if rank > 0 {
            format!("&step={rank}")
        } else {
            String::new()
        };
        lab.set_window(1280, 960).await;
        lab.open(&format!("?{}{step}&lang=en", at.to_query())).await;
        let want = explain(drop, &steps, Language::En);
        let shown = lab
            .wait_until(SETTLE, || async {
                lab.text_of("player-sentence").await == want
            })
            .await;
        assert!(
            shown,
            "{:?} against {want:?}",
            lab.text_of("player-sentence").await
        );
        let sentence = lab.text_of("player-sentence").await;
        let sojourn = tcplab::player::explain::ms(sojourn_ms);
        assert!(
            sentence.contains(&format!("waited {sojourn} ms")),
            "{sentence}"
        );
        assert!(sentence.contains("5.0 ms target"), "{sentence}");
        match next_in_ms {
            Some(n) => {
                let next = tcplab::player::explain::ms(n);
                assert!(
                    sentence.contains(&format!("the next in {next} ms")),
                    "{sentence}"
                );
            }
            None => assert!(sentence.contains("stops dropping"), "{sentence}"),
        }
        lab.screenshot("player-codel-drop").await;
        lab.assert_no_console_errors().await;
    })
    .await;
}
