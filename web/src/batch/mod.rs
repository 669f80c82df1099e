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
