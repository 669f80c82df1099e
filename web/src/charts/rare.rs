//! The charts only some runs have: a message workload's latencies and their distribution
//! ([`messages`](super::messages)), BBR's model of a flow ([`bbr`](super::bbr)) and the sharing
//! of the link between flows ([`sharing`](super::sharing)). The default page has none of them,
//! so what draws them is in a module of its own, fetched the first time a run has one
//! (`crate::lazy::use_rare_figures`); whether a run has one is decided here, in the page's own
//! module, by each chart's `applies`.

use super::bbr::Bbr;
use super::messages::{Distribution, Latency};
use super::plot::{figure, FigureRef};
use super::sharing::Sharing;
use super::Ctx;

/// Which of the rare charts to make.
#[derive(Debug, Clone, PartialEq)]
pub enum Rare {
    Latency,
    Distribution,
    Sharing,
    /// BBR's model of flow `flow`, named from the run's flow names `names`.
    Bbr {
        flow: usize,
        names: Vec<String>,
    },
}

/// What makes a rare chart, once its module is in.
pub type MakeFigure = fn(Rare, Ctx) -> FigureRef;

/// Makes the rare chart `rare` of `ctx`'s run.
pub fn make(rare: Rare, ctx: Ctx) -> FigureRef {
    match rare {
        Rare::Latency => figure(Latency(ctx)),
        Rare::Distribution => figure(Distribution(ctx)),
        Rare::Sharing => figure(Sharing(ctx)),
        Rare::Bbr { flow, names } => figure(Bbr::new(ctx, flow, &names)),
    }
}
