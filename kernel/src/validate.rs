//! `tcplab-kernel validate`: grids of scenarios run in both engines, the simulator in-process and
//! the kernel through the twin, compared cell by cell on medians over seeds.

use std::fmt::Write;

use tcplab::{RunOptions, Scenario, Summary};

use crate::summary::KernelSummary;
use crate::twin::{self, Options, TwinError};

/// The grids `validate --grid` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grid {
    /// Bulk transfers under random loss: goodput.
    Loss,
    /// Bodies inside slow start: completion time.
    Slowstart,
    /// Small messages under loss, TCP and UDP: the 99th-percentile latency.
    Hol,
}

impl Grid {
    pub const ALL: [Grid; 3] = [Grid::Loss, Grid::Slowstart, Grid::Hol];

    pub fn name(self) -> &'static str {
        match self {
            Grid::Loss => "loss",
            Grid::Slowstart => "slowstart",
            Grid::Hol => "hol",
        }
    }

    pub fn from_name(s: &str) -> Option<Grid> {
        Grid::ALL.into_iter().find(|g| g.name() == s)
    }

    /// The grid's cells, each a query without its seed.
    pub fn cells(self) -> Vec<Cell> {
        let mut cells = Vec::new();
        match self {
            Grid::Loss => {
                for cc in ["reno", "cubic", "bbr"] {
                    for rtt in [20u32, 100] {
                        for loss in ["0.5", "1", "2"] {
                            // One BDP of full-sized packets (1448 + 52 bytes) at 100 Mbit/s.
                            let queue = (100e6 * f64::from(rtt) / 1e3 / 8.0 / 1500.0).ceil();
                            cells.push(Cell {
                                grid: self,
                                query: format!(
                                    "cc={cc}&rtt={rtt}&bw=100&loss={loss}&queue={queue}&rwnd=4MiB&mss=1448&app=bulk&dur=15"
                                ),
                                metric: Metric::Goodput,
                            });
                        }
                    }
                }
            }
            Grid::Slowstart => {
                for body in ["100kB", "2.5MB", "8MiB"] {
                    for bw in [100u32, 300] {
                        for iw in [4u32, 10, 32] {
                            cells.push(Cell {
                                grid: self,
                                query: format!(
                                    "rtt=31.5&bw={bw}&iw={iw}&mss=1448&app=body&body={body}"
                                ),
                                metric: Metric::Completion,
                            });
                        }
                    }
                }
            }
            Grid::Hol => {
                for conns in [1u32, 4, 16, 0] {
                    cells.push(Cell {
                        grid: self,
                        query: format!(
                            "rtt=100&loss=3&ackloss=3&app=msgs&msg=100&every=10&count=1500&dur=20&mss=1448&conns={conns}"
                        ),
                        metric: Metric::P99,
                    });
                }
            }
        }
        cells
    }
}

/// What a cell compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Goodput,
    Completion,
    P99,
}

impl Metric {
    pub fn name(self) -> &'static str {
        match self {
            Metric::Goodput => "goodput MB/s",
            Metric::Completion => "completion ms",
            Metric::P99 => "p99 latency ms",
        }
    }

    fn of_sim(self, s: &Summary) -> Option<f64> {
        match self {
            Metric::Goodput => s.goodput_MBps,
            Metric::Completion => s.completion_ms,
            Metric::P99 => s.msgs.as_ref().and_then(|m| m.p99_ms),
        }
    }

    fn of_kernel(self, s: &KernelSummary) -> Option<f64> {
        match self {
            Metric::Goodput => s.goodput_MBps,
            Metric::Completion => s.completion_ms,
            Metric::P99 => s.msgs.as_ref().and_then(|m| m.p99_ms),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Cell {
    pub grid: Grid,
    pub query: String,
    pub metric: Metric,
}

/// One compared cell.
#[derive(Debug, Clone)]
pub struct Row {
    pub cell: Cell,
    pub simulator: Option<f64>,
    pub kernel: Option<f64>,
    /// Release lateness of the router, worst p99 over the cell's kernel runs (us).
    pub lateness_p99_us: Option<f64>,
}

impl Row {
    /// Simulator over kernel.
    pub fn ratio(&self) -> Option<f64> {
        match (self.simulator, self.kernel) {
            (Some(s), Some(k)) if k > 0.0 => Some(s / k),
            _ => None,
        }
    }

    /// Inside the tolerance: the two agree within a factor of `1 + tolerance` either way.
    pub fn within(&self, tolerance: f64) -> bool {
        self.ratio()
            .is_some_and(|r| r.max(1.0 / r) <= 1.0 + tolerance)
    }
}

fn median(mut xs: Vec<f64>) -> Option<f64> {
    xs.sort_by(f64::total_cmp);
    tcplab::metrics::stats::quantile(&xs, 0.5)
}

/// Runs one cell with `seeds` seeds (1, 2, ...) in both engines.
pub fn run_cell(cell: &Cell, seeds: u64) -> Result<Row, TwinError> {
    let mut sim = Vec::new();
    let mut kernel = Vec::new();
    let mut lateness: Option<f64> = None;
    for seed in 1..=seeds {
        let q = format!("{}&seed={seed}", cell.query);
        let s = Scenario::parse(&q)?;
        let r = tcplab::run(&s, &RunOptions::default());
        sim.extend(cell.metric.of_sim(&r.summary));
        let k = twin::run(&s, &Options::default())?;
        kernel.extend(cell.metric.of_kernel(&k.summary));
        if let Some(p) = k.summary.router.release_lateness.p99_us {
            lateness = Some(lateness.map_or(p, |l: f64| l.max(p)));
        }
    }
    Ok(Row {
        cell: cell.clone(),
        simulator: median(sim),
        kernel: median(kernel),
        lateness_p99_us: lateness,
    })
}

pub const TABLE_HEADER: &str = "| grid | scenario | metric | simulator | kernel | sim / kernel | within | router p99 late (us) |\n|---|---|---|---|---|---|---|---|\n";

fn num(x: Option<f64>) -> String {
    match x {
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) if v >= 10.0 => format!("{v:.1}"),
        Some(v) => format!("{v:.2}"),
        None => "-".to_string(),
    }
}

/// One Markdown table row.
pub fn table_row(row: &Row, tolerance: f64) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "| {} | `{}` | {} | {} | {} | {} | {} | {} |",
        row.cell.grid.name(),
        row.cell.query,
        row.cell.metric.name(),
        num(row.simulator),
        num(row.kernel),
        row.ratio().map_or("-".to_string(), |r| format!("{r:.2}")),
        if row.within(tolerance) {
            "yes"
        } else {
            "**no**"
        },
        num(row.lateness_p99_us),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_is_a_valid_scenario_the_twin_honours() {
        for g in Grid::ALL {
            for c in g.cells() {
                let s = Scenario::parse(&c.query).unwrap_or_else(|e| panic!("{}: {e}", c.query));
                assert!(crate::plan::Plan::of(&s).is_ok(), "{}", c.query);
            }
        }
        assert_eq!(Grid::Loss.cells().len(), 18);
        assert_eq!(Grid::Slowstart.cells().len(), 18);
        assert_eq!(Grid::Hol.cells().len(), 4);
        assert!(Grid::Loss.cells()[0].query.contains("queue=167"));
    }

    #[test]
    fn tolerance_is_a_factor_either_way() {
        let row = |s: f64, k: f64| Row {
            cell: Grid::Hol.cells()[0].clone(),
            simulator: Some(s),
            kernel: Some(k),
            lateness_p99_us: None,
        };
        assert!(row(1.2, 1.0).within(0.2));
        assert!(row(1.0, 1.2).within(0.2));
        assert!(!row(1.3, 1.0).within(0.2));
        assert!(!row(1.0, 1.3).within(0.2));
        let none = Row {
            kernel: None,
            ..row(1.0, 1.0)
        };
        assert!(!none.within(10.0));
    }
}
