//! A batch of runs in the pool: the runs a sweep, a matrix or a comparison asked for
//! ([`crate::model::plan`]), their results as they come back from the workers
//! (`crate::worker::pool`), and the [`progress`] line that shows how far it is and stops it.
//! The sweep's views and the comparison read their results from here.

pub mod progress;

use std::rc::Rc;

use crate::model::plan::{Plan, PlanKey};
use crate::worker::pool::Done;

/// A batch on its way or done: its plan and every run's result so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Batch {
    /// The pool's number for it.
    pub id: u64,
    pub key: PlanKey,
    pub plan: Rc<Plan>,
    pub results: Rc<Vec<Option<Done>>>,
    pub cancelled: bool,
    /// `performance.now()` when it started and when its last run came back.
    pub started_ms: f64,
    pub finished_ms: Option<f64>,
    /// Workers the pool runs.
    pub workers: usize,
}

impl Batch {
    pub fn new(id: u64, key: PlanKey, plan: Rc<Plan>, started_ms: f64, workers: usize) -> Batch {
        let results = Rc::new(plan.empty_results());
        let mut b = Batch {
            id,
            key,
            plan,
            results,
            cancelled: false,
            started_ms,
            finished_ms: None,
            workers,
        };
        if b.done() == b.plan.size() {
            b.finished_ms = Some(started_ms);
        }
        b
    }

    pub fn done(&self) -> usize {
        self.results.iter().filter(|r| r.is_some()).count()
    }

    pub fn finished(&self) -> bool {
        self.finished_ms.is_some()
    }

    pub fn running(&self) -> bool {
        !self.finished() && !self.cancelled
    }

    /// Records run `index`'s result (the pool's index, mapped to the run).
    pub fn record(&mut self, index: usize, done: Done, now_ms: f64) {
        let Some(&run) = self.plan.at.get(index) else {
            return;
        };
        if let Some(slot) = Rc::make_mut(&mut self.results).get_mut(run) {
            *slot = Some(done);
        }
        if self.done() == self.plan.size() {
            self.finished_ms = Some(now_ms);
        }
    }

    /// The summaries of runs `range`, those that finished without error.
    pub fn summaries(&self, range: std::ops::Range<usize>) -> Vec<tcplab::Summary> {
        self.results
            .get(range)
            .unwrap_or_default()
            .iter()
            .filter_map(|r| match r {
                Some(Done::Summary(s)) => Some((**s).clone()),
                _ => None,
            })
            .collect()
    }

    /// The first error among runs `range`.
    pub fn error(&self, range: std::ops::Range<usize>) -> Option<String> {
        self.results
            .get(range)
            .unwrap_or_default()
            .iter()
            .find_map(|r| match r {
                Some(Done::Error(e)) => Some(e.clone()),
                _ => None,
            })
    }
}

#[cfg(test)]
impl Batch {
    /// `key`'s batch with every run done here, one after another, as the pool's workers would
    /// give them back: for tests of what the views make of a batch.
    pub fn ran(key: PlanKey) -> Batch {
        let plan = std::rc::Rc::new(key.plan());
        let mut batch = Batch::new(1, key, plan.clone(), 0.0, 1);
        for (i, job) in plan.jobs.iter().enumerate() {
            let s = tcplab::Scenario::parse(&job.query).unwrap_or_default();
            let summary = tcplab::run(&s, &tcplab::RunOptions::summary_only()).summary;
            batch.record(
                i,
                crate::worker::pool::Done::Summary(std::rc::Rc::new(summary)),
                1.0,
            );
        }
        batch
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use std::rc::Rc;

    use tcplab::scenario::Key;
    use tcplab::{RunOptions, Scenario};

    use super::Batch;
    use crate::model::plan::PlanKey;
    use crate::model::views::{Axis, Metric, SweepSpec};
    use crate::worker::pool::Done;

    /// Two values of `iw` with three seeds from one below the largest: the third seed of each
    /// value is refused (runs 2 and 5), the other four are sent.
    fn key() -> PlanKey {
        let base = Scenario::parse(&format!("seed={}", u64::MAX - 1)).expect("a scenario");
        let spec = SweepSpec {
            axis: Axis::parse(Key::Iw, "1,10", &base, "values").expect("values"),
            seeds: 3,
            metric: Metric::Goodput,
        };
        PlanKey::Sweep(base, spec)
    }

    #[test]
    fn a_batch_puts_each_result_in_its_runs_slot() {
        let key = key();
        let plan = Rc::new(key.plan());
        assert_eq!(plan.at, [0, 1, 3, 4]);
        let mut b = Batch::new(7, key, plan, 100.0, 2);
        assert_eq!((b.done(), b.running(), b.finished()), (2, true, false));
        let summary = Rc::new(tcplab::run(&Scenario::default(), &RunOptions::default()).summary);
        // The pool's third job is the batch's fourth run.
        b.record(2, Done::Summary(summary.clone()), 150.0);
        assert!(matches!(b.results[3], Some(Done::Summary(_))));
        assert_eq!((b.summaries(0..3).len(), b.summaries(3..6).len()), (0, 1));
        assert!(b.error(0..3).is_some_and(|e| e.starts_with("seed:")));
        assert_eq!(b.error(3..5), None);
        assert_eq!(b.summaries(5..99), vec![], "a range past the runs is empty");
        // A job the plan does not have is ignored.
        b.record(4, Done::Error("no such job".to_string()), 160.0);
        assert_eq!(b.done(), 3);
        for i in [0, 1] {
            b.record(i, Done::Summary(summary.clone()), 180.0);
        }
        assert!(b.running());
        b.record(3, Done::Error("boom".to_string()), 200.0);
        assert!(b.finished() && !b.running());
        assert_eq!((b.started_ms, b.finished_ms), (100.0, Some(200.0)));
        assert_eq!(b.summaries(0..6).len(), 3);
        assert_eq!(b.error(3..6).as_deref(), Some("boom"));
    }

    #[test]
    fn a_batch_of_refused_runs_is_finished_as_it_starts() {
        let small = Scenario {
            mss: 64,
            ..Scenario::default()
        };
        let spec = SweepSpec {
            axis: Axis::parse(Key::Rwnd, "200", &small, "values").expect("values"),
            seeds: 2,
            metric: Metric::Goodput,
        };
        let key = PlanKey::Sweep(Scenario::default(), spec);
        let plan = Rc::new(key.plan());
        assert_eq!((plan.jobs.len(), plan.size()), (0, 2));
        let b = Batch::new(1, key, plan, 42.0, 4);
        assert_eq!((b.done(), b.finished_ms), (2, Some(42.0)));
        assert!(b.error(0..2).is_some_and(|e| e.contains("rwnd")));
    }
}
