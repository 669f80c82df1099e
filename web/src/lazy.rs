//! The views a first visit does not show (the sweep, the matrix, the comparison, the diagnosis,
//! the player and a lesson's panel), fetched the first time one is opened; the charts only some
//! runs have, fetched the first time a run has one; and the export's JSON writers, fetched the
//! first time one is used.
//!
//! Built with the `split` feature (what `index.html` asks of Trunk), each view's code goes into
//! a module of its own: the function that draws it is a split point of `wasm_split_helpers`,
//! whose call fetches that module before it returns, and `scripts/split.py` cuts the page's
//! module at those points after cargo. Without the feature (the page's wasm tests, a build of
//! the crate alone) the same function is called directly. Either way a view reaches the page
//! as a [`Draw`], a plain function pointer, kept once loaded so that the view is drawn at once
//! the next time it is opened.

use std::cell::Cell;
use std::thread::LocalKey;

use yew::prelude::*;

use crate::compare::{CompareProps, CompareView};
use crate::diagnose::{DiagnoseProps, DiagnoseView};
use crate::i18n::Lang;
use crate::lesson::panel::{LessonPanel, LessonPanelProps};
use crate::player::{Player, PlayerProps};
use crate::sweep::matrix::{MatrixView, MatrixViewProps};
use crate::sweep::view::{SweepView, SweepViewProps};

/// A view's drawing function, once its module is in.
pub type Draw<P> = fn(&P) -> Html;

/// A view's module did not load: the network failed, or the page was deployed anew under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadFailed;

#[cfg(feature = "split")]
impl From<wasm_split_helpers::SplitLoaderError> for LoadFailed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        LoadFailed
    }
}

/// Where a module stands, as the component that wants what it holds sees it.
#[derive(Clone, Copy)]
pub enum Loading<T> {
    Fetching,
    Ready(T),
    Failed,
}

/// A split point: the module `$module` holds what `$made` makes, and `load()` returns it,
/// fetching that module first when the page is built with `split`, at once without.
macro_rules! split_point {
    ($module:ident -> $ty:ty $made:block) => {
        #[cfg_attr(feature = "split", wasm_split_helpers::wasm_split($module, fallible))]
        fn made() -> Result<$ty, LoadFailed> $made

        #[cfg(feature = "split")]
        pub async fn load() -> Result<$ty, LoadFailed> {
            made().await
        }

        #[cfg(not(feature = "split"))]
        pub async fn load() -> Result<$ty, LoadFailed> {
            made()
        }
    };
}

/// A view behind a split point: the module `$module` holds what draws `$view`, fetched once and
/// kept; `$lazy` is the component the page shows in the view's place.
macro_rules! split_view {
    ($module:ident: $view:ident($props:ty) as $lazy:ident) => {
        mod $module {
            use super::*;

            split_point!($module -> Draw<$props> {
                Ok(|p: &$props| html! { <$view ..p.clone() /> })
            });

            thread_local! {
                static KEPT: Cell<Option<Draw<$props>>> = const { Cell::new(None) };
            }

            #[function_component]
            pub fn $lazy(props: &$props) -> Html {
                let (loading, retry) = use_loaded(&KEPT, load, true);
                placeholder(loading, retry, props.lang, props)
            }
        }

        pub use $module::$lazy;
    };
}

split_view!(sweep: SweepView(SweepViewProps) as LazySweep);
split_view!(matrix: MatrixView(MatrixViewProps) as LazyMatrix);
split_view!(compare: CompareView(CompareProps) as LazyCompare);
split_view!(diagnose: DiagnoseView(DiagnoseProps) as LazyDiagnose);
split_view!(player: Player(PlayerProps) as LazyPlayer);
split_view!(lesson: LessonPanel(LessonPanelProps) as LazyLessonPanel);

/// What writes a run's summary and its whole view as JSON for the export: in a module of its
/// own, so that the first screen carries no JSON writer, fetched the first time an export asks.
#[derive(Clone, Copy)]
pub struct JsonWriters {
    pub summary: fn(&tcplab::Summary) -> Result<String, String>,
    pub view: fn(&tcplab::view::RunView) -> Result<String, String>,
}

mod export_json {
    use super::*;

    split_point!(export_json -> JsonWriters {
        Ok(JsonWriters {
            summary: |s| serde_json::to_string(s).map_err(|e| e.to_string()),
            view: |v| serde_json::to_string(v).map_err(|e| e.to_string()),
        })
    });
}

pub use export_json::load as json_writers;

/// What draws the charts only some runs have (`charts::rare`): in a module of its own, fetched
/// the first time a run has one.
mod rare_figures {
    use super::*;
    use crate::charts::rare::{self, MakeFigure};

    split_point!(rare_figures -> MakeFigure { Ok(rare::make) });

    thread_local! {
        static KEPT: Cell<Option<MakeFigure>> = const { Cell::new(None) };
    }

    /// What makes the rare figures, fetched when `wanted` first holds: with a retry for a
    /// failed fetch.
    #[hook]
    pub fn use_rare_figures(wanted: bool) -> (Loading<MakeFigure>, Callback<()>) {
        use_loaded(&KEPT, load, wanted)
    }
}

pub use rare_figures::use_rare_figures;

/// What is kept in `kept`, or its module fetched by `load` (once `wanted`) and the component
/// drawn again when it is in; and a callback that tries the fetch again after a failure (a
/// failed fetch is not remembered, so a second one goes to the network anew).
#[hook]
fn use_loaded<T: Copy + 'static, F>(
    kept: &'static LocalKey<Cell<Option<T>>>,
    load: fn() -> F,
    wanted: bool,
) -> (Loading<T>, Callback<()>)
where
    F: std::future::Future<Output = Result<T, LoadFailed>> + 'static,
{
    let state = use_state(|| {
        kept.with(Cell::get)
            .map_or(Loading::Fetching, Loading::Ready)
    });
    let attempt = use_state(|| 0u32);
    {
        let state = state.clone();
        use_effect_with((*attempt, wanted), move |&(_, wanted)| {
            if wanted && matches!(*state, Loading::Fetching) {
                wasm_bindgen_futures::spawn_local(async move {
                    match load().await {
                        Ok(draw) => {
                            kept.with(|k| k.set(Some(draw)));
                            state.set(Loading::Ready(draw));
                        }
                        Err(LoadFailed) => state.set(Loading::Failed),
                    }
                });
            }
        });
    }
    let retry = {
        let state = state.clone();
        Callback::from(move |()| {
            state.set(Loading::Fetching);
            attempt.set(attempt.wrapping_add(1));
        })
    };
    (*state, retry)
}

/// The view itself once its module is in; until then, what stands in its place.
fn placeholder<P>(loading: Loading<Draw<P>>, retry: Callback<()>, lang: Lang, props: &P) -> Html {
    match loading {
        Loading::Ready(draw) => draw(props),
        Loading::Fetching => standing_in(false, retry, lang),
        Loading::Failed => standing_in(true, retry, lang),
    }
}

/// What stands in a view's place while its module comes (`failed` false), or if it cannot.
/// Not generic, and never inlined, so that the page's module carries it once rather than once
/// per view.
#[inline(never)]
pub fn standing_in(failed: bool, retry: Callback<()>, lang: Lang) -> Html {
    if !failed {
        return html! {
            <p class="lazy-loading" role="status" data-lazy="fetching">
                { lang.pick("Loading this view…", "正在加载此视图…") }
            </p>
        };
    }
    html! {
        <div class="banner" role="alert" data-lazy="failed">
            <p>
                { lang.pick(
                    "This view's code could not be fetched (offline, or the lab was updated \
                     since the page opened). Try again, or reload the page if it keeps failing.",
                    "无法获取此视图的代码（离线，或页面打开后实验室已更新）。请重试；如果一直失败，请重新加载页面。",
                ) }
            </p>
            <button type="button" class="mini" id="lazy-retry"
                onclick={Callback::from(move |_: MouseEvent| retry.emit(()))}>
                { lang.pick("Try again", "重试") }
            </button>
        </div>
    }
}
