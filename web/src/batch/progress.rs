//! How far a batch is, how fast it goes, and Cancel (or Run again once it stopped): the line
//! above a sweep's, a matrix's and a comparison's results.

use yew::prelude::*;

use super::Batch;
use crate::i18n::Lang;
use crate::model::format::{counted, duration};

#[derive(Properties, PartialEq)]
pub struct ProgressProps {
    pub lang: Lang,
    pub batch: Option<Batch>,
    /// Workers alive in the pool.
    pub live: usize,
    pub on_cancel: Callback<()>,
    pub on_rerun: Callback<()>,
}

/// "3 / 12 runs · 2 workers" while going; "12 runs in 3.4 s · 3.5 runs/s on 2 workers" once
/// done (the rate only over a second or more, where it means something).
fn progress_text(
    lang: Lang,
    done: usize,
    size: usize,
    took_ms: Option<f64>,
    cancelled: bool,
    workers: usize,
) -> String {
    let (done_n, size_n, workers_n) = (done as u64, size as u64, workers as u64);
    match (lang, took_ms) {
        (Lang::En, _) if cancelled => format!("{done} / {size} runs · cancelled"),
        (Lang::Zh, _) if cancelled => format!("{done} / {size} 次运行 · 已取消"),
        (Lang::En, Some(ms)) => {
            let mut t = format!("{} in {}", counted(size_n, "run", "runs"), duration(ms));
            if ms >= 1000.0 {
                t.push_str(&format!(" · {:.1} runs/s", done as f64 / (ms / 1000.0)));
            }
            t.push_str(&format!(" on {}", counted(workers_n, "worker", "workers")));
            t
        }
        (Lang::Zh, Some(ms)) => {
            let mut t = format!("{size} 次运行，用时 {}", duration(ms));
            if ms >= 1000.0 {
                t.push_str(&format!(" · 每秒 {:.1} 次", done as f64 / (ms / 1000.0)));
            }
            t.push_str(&format!(" · {workers} 个线程"));
            t
        }
        (Lang::En, None) => format!(
            "{done_n} / {} · {}",
            counted(size_n, "run", "runs"),
            counted(workers_n, "worker", "workers")
        ),
        (Lang::Zh, None) => format!("{done} / {size} 次运行 · {workers} 个线程"),
    }
}

/// How far the batch is, how fast it goes, and Cancel (or Run again once it stopped).
#[function_component]
pub fn Progress(props: &ProgressProps) -> Html {
    let lang = props.lang;
    let (done, size) = props
        .batch
        .as_ref()
        .map_or((0, 0), |b| (b.done(), b.plan.size()));
    let running = props.batch.as_ref().is_none_or(Batch::running);
    let cancelled = props.batch.as_ref().is_some_and(|b| b.cancelled);
    // The batch's wall time once it finished, in ms.
    let took_ms = props
        .batch
        .as_ref()
        .and_then(|b| Some(b.finished_ms? - b.started_ms))
        .filter(|ms| *ms >= 0.0);
    let workers = props.batch.as_ref().map_or(0, |b| b.workers);
    let state = if cancelled {
        "cancelled"
    } else if running {
        "running"
    } else {
        "done"
    };
    let on_cancel = props.on_cancel.clone();
    let on_rerun = props.on_rerun.clone();
    html! {
        <div class="progress" id="progress" data-state={state} data-done={done.to_string()}
            data-size={size.to_string()} data-live={props.live.to_string()} aria-live="polite">
            <progress id="progress-bar" max={size.max(1).to_string()} value={done.to_string()} />
            <span class="progress-text">
                { progress_text(lang, done, size, took_ms, cancelled, workers) }
            </span>
            if running {
                <button type="button" class="mini" id="cancel"
                    onclick={Callback::from(move |_: MouseEvent| on_cancel.emit(()))}>
                    { lang.pick("Cancel", "取消") }
                </button>
            } else {
                <button type="button" class="mini" id="rerun"
                    onclick={Callback::from(move |_: MouseEvent| on_rerun.emit(()))}>
                    { lang.pick("Run again", "重新运行") }
                </button>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::progress_text;
    use crate::i18n::Lang;

    #[test]
    fn the_progress_line_counts_runs_and_workers() {
        let line = |lang, done, size, took, cancelled, workers| {
            progress_text(lang, done, size, took, cancelled, workers)
        };
        assert_eq!(
            line(Lang::En, 3, 12, None, false, 2),
            "3 / 12 runs · 2 workers"
        );
        assert_eq!(line(Lang::En, 0, 1, None, false, 1), "0 / 1 run · 1 worker");
        assert_eq!(
            line(Lang::En, 12, 12, Some(3400.0), false, 2),
            "12 runs in 3.4 s · 3.5 runs/s on 2 workers"
        );
        // Under a second, no rate: it would mean nothing.
        assert_eq!(
            line(Lang::En, 4, 4, Some(250.0), false, 1),
            "4 runs in 250 ms on 1 worker"
        );
        assert_eq!(
            line(Lang::En, 5, 12, Some(900.0), true, 2),
            "5 / 12 runs · cancelled"
        );
        assert_eq!(
            line(Lang::Zh, 3, 12, None, false, 2),
            "3 / 12 次运行 · 2 个线程"
        );
        assert_eq!(
            line(Lang::Zh, 12, 12, Some(2000.0), false, 3),
            "12 次运行，用时 2 s · 每秒 6.0 次 · 3 个线程"
        );
    }
}
