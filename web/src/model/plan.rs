//! What a sweep, a matrix or a comparison asks the pool for: one job per run, in a fixed order
//! (value by value, seeds ascending within a value, as the runner's `sweep` runs them). The
//! results come back into a [`crate::batch::Batch`].

use tcplab::Scenario;

use super::views::{Axis, MatrixSpec, SweepSpec};
use crate::worker::pool::{Done, Job};
use crate::worker::protocol::Want;

/// What the page runs for the view on show: its scenario (or scenarios) and the view's keys.
/// Two equal keys make the same jobs.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanKey {
    Sweep(Scenario, SweepSpec),
    Matrix(Scenario, MatrixSpec),
    Compare(Vec<Scenario>),
}

impl PlanKey {
    pub fn plan(&self) -> Plan {
        match self {
            PlanKey::Sweep(base, spec) => sweep_plan(base, spec),
            PlanKey::Matrix(base, spec) => matrix_plan(base, spec),
            PlanKey::Compare(scenarios) => compare_plan(scenarios),
        }
    }
}

/// The runs of one batch. Result `i` of the batch is run `i`; a run whose scenario cannot be
/// built (a value that no longer fits the scenario on show) is an error from the start and is
/// not sent.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Plan {
    /// The jobs sent to the pool, and the run each one is.
    pub jobs: Vec<Job>,
    pub at: Vec<usize>,
    pub errors: Vec<(usize, String)>,
}

impl Plan {
    /// How many runs in all: those sent and those refused.
    pub fn size(&self) -> usize {
        self.at.len() + self.errors.len()
    }

    fn push(&mut self, run: Result<Scenario, String>, want: Want) {
        let i = self.size();
        match run {
            Ok(s) => {
                self.jobs.push(Job {
                    query: s.to_query(),
                    want,
                });
                self.at.push(i);
            }
            Err(e) => self.errors.push((i, e)),
        }
    }

    /// Every run's result slot, the refused ones filled in.
    pub fn empty_results(&self) -> Vec<Option<Done>> {
        let mut r = vec![None; self.size()];
        for (i, e) in &self.errors {
            if let Some(slot) = r.get_mut(*i) {
                *slot = Some(Done::Error(e.clone()));
            }
        }
        r
    }
}

/// The runs of one point: `seeds` consecutive seeds from the point's own.
fn seeded(point: Result<Scenario, String>, seeds: u32) -> Vec<Result<Scenario, String>> {
    (0..u64::from(seeds))
        .map(|offset| {
            let mut s = point.clone()?;
            s.seed = s.seed.checked_add(offset).ok_or_else(|| {
                format!(
                    "seed: {} seeds from {} pass the largest seed",
                    seeds, s.seed
                )
            })?;
            Ok(s)
        })
        .collect()
}

pub fn sweep_plan(base: &Scenario, spec: &SweepSpec) -> Plan {
    let mut plan = Plan::default();
    for i in 0..spec.axis.values.len() {
        for run in seeded(spec.axis.point(base, i), spec.seeds) {
            plan.push(run, Want::Summary);
        }
    }
    plan
}

/// The scenario at one cell of a matrix.
pub fn cell(base: &Scenario, axes: &[(&Axis, usize)]) -> Result<Scenario, String> {
    let mut s = base.clone();
    for (axis, i) in axes {
        s = axis.point(&s, *i)?;
    }
    Ok(s)
}

/// Cells panel by panel, row by row, column by column; seeds innermost.
pub fn matrix_plan(base: &Scenario, spec: &MatrixSpec) -> Plan {
    let mut plan = Plan::default();
    let panels = spec.panels.as_ref().map_or(1, |p| p.values.len());
    for p in 0..panels {
        for r in 0..spec.rows.values.len() {
            for c in 0..spec.cols.values.len() {
                let mut axes = vec![(&spec.rows, r), (&spec.cols, c)];
                if let Some(panel) = &spec.panels {
                    axes.push((panel, p));
                }
                for run in seeded(cell(base, &axes), spec.seeds) {
                    plan.push(run, Want::Summary);
                }
            }
        }
    }
    plan
}

pub fn compare_plan(scenarios: &[Scenario]) -> Plan {
    let mut plan = Plan::default();
    for s in scenarios {
        let mut s = s.clone();
        s.at_ms = None;
        plan.push(Ok(s), Want::View);
    }
    plan
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use tcplab::scenario::Key;
    use tcplab::Scenario;

    use super::{cell, compare_plan, matrix_plan, sweep_plan, PlanKey};
    use crate::model::views::{Axis, MatrixSpec, Metric, SweepSpec};
    use crate::worker::pool::Done;
    use crate::worker::protocol::Want;

    #[test]
    fn a_sweep_runs_value_by_value_with_seeds_ascending() {
        let base = Scenario::parse("preset=loss-sweep&seed=7").expect("a scenario");
        let spec = SweepSpec {
            axis: Axis::parse(Key::Loss, "0.5,2", &base, "values").expect("values"),
            seeds: 3,
            metric: Metric::Goodput,
        };
        let plan = sweep_plan(&base, &spec);
        let queries: Vec<&str> = plan.jobs.iter().map(|j| j.query.as_str()).collect();
        assert_eq!(
            queries,
            [
                "preset=loss-sweep&loss=0.5&seed=7",
                "preset=loss-sweep&loss=0.5&seed=8",
                "preset=loss-sweep&loss=0.5&seed=9",
                "preset=loss-sweep&loss=2&seed=7",
                "preset=loss-sweep&loss=2&seed=8",
                "preset=loss-sweep&loss=2&seed=9",
            ]
        );
        assert!(plan.jobs.iter().all(|j| j.want == Want::Summary));
        // A value that no longer fits the scenario is an error from the start, not a job.
        let mut small = base.clone();
        small.mss = 64;
        let rwnd = SweepSpec {
            axis: Axis::parse(Key::Rwnd, "200,65536", &small, "values").expect("values"),
            seeds: 1,
            metric: Metric::Goodput,
        };
        let plan = sweep_plan(&base, &rwnd);
        assert_eq!((plan.size(), plan.jobs.len()), (2, 1));
        assert!(plan.errors[0].1.contains("rwnd"), "{:?}", plan.errors);
        // The matrix: panels, rows, columns, then seeds.
        let m = MatrixSpec::default_for(&base);
        let plan = matrix_plan(&base, &m);
        assert_eq!(plan.size(), 36);
        assert!(plan.jobs.iter().all(|j| j.want == Want::Summary));
        assert_eq!(plan.jobs[1].query, "preset=loss-sweep&rtt=50&loss=0&seed=7");
        assert_eq!(
            plan.jobs[3].query,
            "preset=loss-sweep&rtt=10&loss=0&flows=4&seed=7"
        );
    }

    #[test]
    fn a_comparison_runs_each_scenario_whole_without_its_cursor() {
        let a = Scenario::parse("cc=reno&at=1500").expect("a scenario");
        let b = Scenario::parse("cc=bbr&rtt=50").expect("a scenario");
        let plan = compare_plan(&[a.clone(), b.clone()]);
        let queries: Vec<&str> = plan.jobs.iter().map(|j| j.query.as_str()).collect();
        assert_eq!(queries, ["cc=reno", "cc=bbr&rtt=50"]);
        assert!(plan.jobs.iter().all(|j| j.want == Want::View));
        assert_eq!((plan.at.as_slice(), plan.size()), (&[0, 1][..], 2));
        // The page's key for the comparison plans the same runs.
        let keyed = PlanKey::Compare(vec![a, b]).plan();
        let keyed: Vec<&str> = keyed.jobs.iter().map(|j| j.query.as_str()).collect();
        assert_eq!(keyed, ["cc=reno", "cc=bbr&rtt=50"]);
    }

    #[test]
    fn seeds_past_the_largest_are_refused_in_their_slot() {
        let base = Scenario::parse(&format!("seed={}", u64::MAX - 1)).expect("a scenario");
        let spec = SweepSpec {
            axis: Axis::parse(Key::Iw, "1,10", &base, "values").expect("values"),
            seeds: 3,
            metric: Metric::Goodput,
        };
        let plan = sweep_plan(&base, &spec);
        // Seeds MAX-1 and MAX run; a third would wrap, so it is an error in its own slot.
        assert_eq!(plan.size(), 6);
        assert_eq!(plan.at, [0, 1, 3, 4]);
        let refused: Vec<usize> = plan.errors.iter().map(|(i, _)| *i).collect();
        assert_eq!(refused, [2, 5]);
        assert!(plan.errors[0].1.starts_with("seed:"), "{:?}", plan.errors);
        let results = plan.empty_results();
        assert_eq!(results.len(), 6);
        assert!(matches!(&results[2], Some(Done::Error(e)) if e.starts_with("seed:")));
        assert!(results[0].is_none() && results[3].is_none());
    }

    #[test]
    fn a_cell_sets_every_axis_of_its_matrix() {
        let base = Scenario::default();
        let rows = Axis::parse(Key::Flows, "1,4", &base, "values").expect("rows");
        let cols = Axis::parse(Key::Rtt, "10,50", &base, "values2").expect("cols");
        let s = cell(&base, &[(&rows, 1), (&cols, 0)]).expect("a cell");
        assert_eq!((s.flows, s.rtt_ms), (4, 10.0));
        assert_eq!(s.loss_pct, base.loss_pct, "the other keys are the base's");
        assert!(
            cell(&base, &[(&rows, 2)]).is_err(),
            "past the axis's values"
        );
    }
}
