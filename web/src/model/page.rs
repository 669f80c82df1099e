//! The page's state in one place: the scenario on show, the language, the newest run's view,
//! the view on show with its own keys (a sweep, a matrix, a comparison) and its batch of runs,
//! and what went wrong. Components read it through props; every change is an [`Action`]
//! through [`Page::reduce`], which does no I/O: the app writes the address and asks the
//! worker in effects that follow the state.

use std::rc::Rc;

use tcplab::scenario::Key;
use tcplab::view::RunView;
use tcplab::Scenario;
use yew::Reducible;

use super::address::{self, Address, BadLink, Entry};
use super::plan::{Plan, PlanKey};
use super::views::{MatrixSpec, PageKeys, SweepSpec, View};
use crate::batch::Batch;
use crate::i18n::Lang;
use crate::worker::pool::Finished;

/// A change refused by the scenario's rules, shown beside the control that asked for it.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError {
    /// The control's key.
    pub control: Key,
    /// The scenario's message, which names the key at fault and its range.
    pub message: String,
}

/// Finished batches kept for Back and Forward.
const FINISHED_KEPT: usize = 6;

#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub scenario: Scenario,
    pub lang: Lang,
    /// The language was chosen (by the link, or the switch): links then carry it. Otherwise a
    /// link opens in its reader's own language.
    pub lang_chosen: bool,
    /// What in the address could not be shown as written: every bad key, each with its reason.
    /// Empty: nothing.
    pub banner: Vec<BadLink>,
    pub field_error: Option<FieldError>,
    /// The newest finished run, which may be for an older scenario while a run is going.
    pub view: Option<Rc<RunView>>,
    /// That run came with the page (`worker::shipped`): made when the page was built, not here.
    pub view_shipped: bool,
    /// The run of this query failed with this message.
    pub failure: Option<(String, String)>,
    /// The pointer's time on the charts, over the link's `at`.
    pub hover_ms: Option<f64>,
    pub large: bool,
    /// Bumped by every change the address must show; `entry` says how it enters the history
    /// (`None`: the address is left as it is).
    pub revision: u64,
    pub entry: Option<Entry>,
    /// The view on show and the keys of every view (`view=`, `key=`, `b=`, ...).
    pub keys: PageKeys,
    /// Which scenario the controls edit in the comparison: 0 is the page's own, 1 and 2 are
    /// `b=` and `c=`.
    pub slot: usize,
    /// The newest batch of runs of a sweep, a matrix or a comparison.
    pub batch: Option<Batch>,
    /// Batches that finished lately, newest last: Back into a sweep shows its results at once.
    pub finished: Vec<Batch>,
    /// The step-through player; its cursor's time is the scenario's `at`.
    pub player: crate::player::State,
    /// The guided lesson under way (`lesson=`), if any.
    pub lesson: Option<crate::lesson::State>,
}

pub enum Action {
    /// The page was opened, or Back or Forward moved to this address.
    Arrive(Address),
    /// A control set one key to a value as a query writes it (`28`, `2.5MB`).
    Set {
        key: Key,
        value: String,
        entry: Entry,
    },
    /// A whole new scenario (a preset, the defaults).
    Load(Scenario),
    /// The pointer moved over the charts (`None`: it left them).
    Hover(Option<f64>),
    Lang(Lang),
    Large(bool),
    DismissBanner,
    /// The worker answered the newest request, for the scenario of `query`.
    Ran {
        query: String,
        outcome: crate::worker::Outcome,
    },
    /// The player's worker answered its newest request for steps of `query`'s run.
    Recorded {
        query: String,
        outcome: crate::worker::Outcome,
    },
    /// Another view.
    Show(View),
    Sweep(SweepSpec),
    Matrix(MatrixSpec),
    /// The compared scenarios beside the page's own, and the one the controls edit.
    Others(Vec<Scenario>, usize),
    /// The controls edit compared scenario `slot`.
    Slot(usize),
    /// The comparison of the bottleneck's disciplines, one click from the latency card: the
    /// compared scenarios beside the page's own, shown at once.
    CompareQueues,
    /// The pool started batch `id` for `key`.
    Started {
        id: u64,
        key: PlanKey,
        plan: Rc<Plan>,
        now_ms: f64,
        workers: usize,
    },
    /// One run of a batch came back.
    Finished(Finished, f64),
    /// The batch was stopped.
    Cancelled,
    /// The step-through player.
    Player(crate::player::Action),
    /// The guided lesson.
    Lesson(crate::lesson::Action),
    /// "My number, explained" asks about this number on the page's path.
    Explain(tcplab::diagnose::Measured),
}

impl Action {
    /// The action is the user choosing what is simulated: the scenario, a compared one, a
    /// sweep's or a matrix's runs, the player's cursor (the scenario's `at`). Not the language,
    /// the type size, the view on show or the pointer (they show the same scenario otherwise),
    /// nor what the worker and the pool answer. An address arriving has its own banner.
    fn chooses_scenario(&self) -> bool {
        match self {
            Action::Set { .. }
            | Action::Load(_)
            | Action::Sweep(_)
            | Action::Matrix(_)
            | Action::Others(..)
            | Action::CompareQueues
            | Action::Player(_)
            | Action::Lesson(_)
            | Action::Explain(_) => true,
            Action::Arrive(_)
            | Action::Hover(_)
            | Action::Lang(_)
            | Action::Large(_)
            | Action::DismissBanner
            | Action::Ran { .. }
            | Action::Recorded { .. }
            | Action::Show(_)
            | Action::Slot(_)
            | Action::Started { .. }
            | Action::Finished(..)
            | Action::Cancelled => false,
        }
    }
}

impl Page {
    /// The page for an address, with `fallback_lang` where it names none.
    pub fn new(address: Address, fallback_lang: Lang, large: bool) -> Page {
        let page = Page {
            scenario: Scenario::default(),
            lang: fallback_lang,
            lang_chosen: false,
            banner: Vec::new(),
            field_error: None,
            view: None,
            view_shipped: false,
            failure: None,
            hover_ms: None,
            large,
            revision: 0,
            entry: None,
            keys: PageKeys::default_for(&Scenario::default()),
            slot: 0,
            batch: None,
            finished: Vec::new(),
            player: crate::player::State::default(),
            lesson: None,
        };
        page.arrive(address)
    }

    fn arrive(mut self, address: Address) -> Page {
        // The good keys are shown and the bad ones are left at the preset's or the defaults'
        // values; the banner lists every bad one.
        let mut banner = address.bad;
        self.scenario = address.scenario;
        match address.lang {
            Ok(Some(lang)) => {
                self.lang = lang;
                self.lang_chosen = true;
            }
            Ok(None) => {}
            Err(bad) => banner.push(bad),
        }
        let (keys, bad) = PageKeys::read(&address.page, &self.scenario);
        self.keys = keys;
        self.slot = self.slot.min(self.keys.others.len());
        banner.extend(bad);
        let (opened, bad) = address.lesson;
        self.lesson_arrive(opened);
        banner.extend(bad);
        // An embed's keys are read by the embed (`crate::embed`); here only what is wrong.
        banner.extend(crate::embed::Spec::read(&address.page).1);
        let within = crate::player::state::read_within(&address.page, self.scenario.at_ms);
        let closed = crate::player::state::read_closed(&address.page);
        self.player_arrive(*within.as_ref().unwrap_or(&0), closed == Ok(true));
        banner.extend(within.err());
        banner.extend(closed.err());
        // A good address is rewritten in its canonical form, in place; a bad one is left as
        // written, for the reader to see what the banner speaks of.
        self.entry = banner.is_empty().then_some(Entry::Replace);
        self.banner = banner;
        self.field_error = None;
        self.hover_ms = None;
        self.revision += 1;
        self
    }

    /// The query the charts and cards must show: the scenario without the cursor.
    pub fn run_query(&self) -> String {
        address::run_query(&self.scenario)
    }

    /// The run the page asks its worker for: the scenario's, in the views that draw its charts
    /// (the lab and the diagnosis); none in the others.
    pub fn charts_query(&self) -> Option<String> {
        matches!(self.keys.view, View::Lab | View::Diagnose).then(|| self.run_query())
    }

    /// The canonical address of what is on show.
    pub fn search(&self) -> String {
        let mut keys = self.keys.write(self.keys.view);
        keys.extend(self.player_keys());
        let lang = self.lang_chosen.then_some(self.lang);
        match &self.lesson {
            Some(state) => {
                let (first, changes) = self.lesson_search(state);
                if state.present {
                    keys.push((crate::lesson::PRESENT_KEY, "1".to_string()));
                }
                address::search_lesson(&first, &changes, &keys, lang)
            }
            None => address::search_with(&self.scenario, &keys, lang),
        }
    }

    /// The run the charts will ask for once a control sets `key` to `value`, if that changes
    /// it: the same query the reducer's state leads the app to ask for, known at the input so
    /// that the worker starts while the page is drawn again (docs/performance.md, "Input to
    /// charts drawn"). `None` when the change is refused, changes no run (the cursor), or edits
    /// what the charts do not show (a compared scenario, a sweep's view).
    pub fn run_query_after_set(&self, key: Key, value: &str) -> Option<String> {
        if !matches!(self.keys.view, View::Lab | View::Diagnose) || self.compared_slot().is_some() {
            return None;
        }
        let mut scenario = self.scenario.clone();
        set(&mut scenario, key, value).ok()?;
        let query = address::run_query(&scenario);
        (query != self.run_query()).then_some(query)
    }

    /// The scenario the controls show: the page's own, or in a comparison the one chosen.
    pub fn edited(&self) -> &Scenario {
        match self.compared_slot() {
            Some(n) => &self.keys.others[n],
            None => &self.scenario,
        }
    }

    /// The scenario the controls edit, to change.
    fn edited_mut(&mut self) -> &mut Scenario {
        match self.compared_slot() {
            Some(n) => {
                self.keys.others_chosen = true;
                &mut self.keys.others[n]
            }
            None => &mut self.scenario,
        }
    }

    /// Which of `others` the controls edit, if not the page's own scenario.
    fn compared_slot(&self) -> Option<usize> {
        let n = self.slot.checked_sub(1)?;
        (self.keys.view == View::Compare && n < self.keys.others.len()).then_some(n)
    }

    /// Every scenario of the comparison: the page's own first.
    pub fn compared(&self) -> Vec<Scenario> {
        std::iter::once(self.scenario.clone())
            .chain(self.keys.others.iter().cloned())
            .collect()
    }

    /// What the pool must run for the view on show (nothing for one run: the lab's own worker
    /// does that).
    pub fn plan_key(&self) -> Option<PlanKey> {
        let mut base = self.scenario.clone();
        base.at_ms = None;
        match self.keys.view {
            View::Lab | View::Diagnose => None,
            View::Sweep => Some(PlanKey::Sweep(base, self.keys.sweep.clone())),
            View::Matrix => Some(PlanKey::Matrix(base, self.keys.matrix.clone())),
            View::Compare => Some(PlanKey::Compare(self.compared())),
        }
    }

    /// The batch of the view on show: the newest one if it is this view's, else one that
    /// finished for the same runs (else a new one is starting).
    pub fn current_batch(&self) -> Option<&Batch> {
        let key = self.plan_key()?;
        self.batch
            .as_ref()
            .filter(|b| b.key == key)
            .or_else(|| self.finished.iter().rev().find(|b| b.key == key))
    }

    /// Whether the view on show already has every result: no batch needs to start for it.
    pub fn has_finished_batch(&self) -> bool {
        self.current_batch()
            .is_some_and(|b| b.finished() && !b.cancelled)
    }

    /// A change the address must show, entering the history as `entry`.
    pub(crate) fn revise(&mut self, entry: Entry) {
        self.revision += 1;
        self.entry = Some(entry);
    }

    fn pushed(mut self) -> Page {
        self.revise(Entry::Push);
        self
    }

    /// A run for the scenario on show is still going.
    pub fn running(&self) -> bool {
        let query = self.run_query();
        let shown = self.view.as_ref().is_some_and(|v| v.query == query);
        let failed = self.failure.as_ref().is_some_and(|(q, _)| *q == query);
        !shown && !failed
    }

    /// The failure of the run for the scenario on show.
    pub fn current_failure(&self) -> Option<&str> {
        let query = self.run_query();
        self.failure
            .as_ref()
            .filter(|(q, _)| *q == query)
            .map(|(_, m)| m.as_str())
    }

    /// The cursor the charts show: the pointer's, else the player's, else the link's `at`.
    pub fn cursor_ms(&self) -> Option<f64> {
        self.hover_ms.or(self.player_ms()).or(self.scenario.at_ms)
    }

    /// The scenario the controls edit becomes `scenario`.
    fn changed(mut self, scenario: Scenario, entry: Entry) -> Page {
        *self.edited_mut() = scenario;
        self.field_error = None;
        self.revise(entry);
        self
    }

    pub fn apply(self, action: Action) -> Page {
        let chosen = action.chooses_scenario();
        let revision = self.revision;
        let mut page = self.reduce_action(action);
        // A number the path no longer takes (a time, once the workload is no body) leaves the
        // address: the address says what the page explains.
        if let Some(m) = page.keys.explain {
            if tcplab::diagnose::check(&page.scenario, m).is_err() {
                page.keys.explain = None;
            }
        }
        // The banner speaks of the link the page opened on and says what is shown instead of
        // it. Once the user has changed the scenario, what is shown is theirs and the banner
        // would be wrong; a change that changed nothing (a refused value, the same value again)
        // leaves it to be read.
        if chosen && page.revision != revision {
            page.banner.clear();
        }
        page
    }

    fn reduce_action(self, action: Action) -> Page {
        match action {
            Action::Arrive(address) => self.arrive(address),
            // The controls edit the page's own scenario, or in a comparison the one chosen.
            Action::Set { key, value, entry } => {
                let mut scenario = self.edited().clone();
                match set(&mut scenario, key, &value) {
                    Ok(()) if scenario == *self.edited() => Page {
                        field_error: None,
                        ..self
                    },
                    Ok(()) => {
                        let mut page = self.changed(scenario, entry);
                        // A lesson's part stands again at its moment in the changed run, its
                        // question unanswered: the answer follows the scenario.
                        if page.lesson.is_some() && page.compared_slot().is_none() && key != Key::At
                        {
                            if let Some(l) = page.lesson.as_mut() {
                                l.given = None;
                                l.revealed = false;
                                // A number typed and not yet checked goes with the old run.
                                l.tries = l.tries.wrapping_add(1);
                            }
                            page.player_to_moment();
                            page = page.seek_now(entry);
                        }
                        page
                    }
                    Err(message) => Page {
                        field_error: Some(FieldError {
                            control: key,
                            message,
                        }),
                        ..self
                    },
                }
            }
            Action::Load(scenario) => {
                let own = self.compared_slot().is_none();
                let mut page = self.changed(scenario, Entry::Push);
                // A preset is an experiment of its own: the lesson is put away.
                if own {
                    page.lesson = None;
                }
                // A preset for a compared scenario leaves the player as it is.
                if own {
                    page.player_loaded()
                } else {
                    page
                }
            }
            Action::Hover(t) => Page {
                hover_ms: t.filter(|t| t.is_finite()),
                ..self
            },
            Action::Lang(lang) if lang != self.lang || !self.lang_chosen => Page {
                lang,
                lang_chosen: true,
                ..self
            }
            .pushed(),
            Action::Lang(_) => self,
            Action::Large(large) => Page { large, ..self },
            Action::DismissBanner => Page {
                banner: Vec::new(),
                ..self
            },
            Action::Show(view) if view != self.keys.view => {
                let mut page = self;
                // A comparison nobody has set up starts from the scenario as it is now, edits
                // included, not as the page first read it.
                if view == View::Compare && !page.keys.others_chosen {
                    page.keys.others = vec![super::views::default_other(&page.scenario)];
                    page.slot = 0;
                }
                page.keys.view = view;
                page.field_error = None;
                page.pushed()
            }
            Action::Show(_) => self,
            Action::Sweep(spec) => {
                let mut page = self;
                page.keys.sweep = spec;
                page.pushed()
            }
            Action::Matrix(spec) => {
                let mut page = self;
                page.keys.matrix = spec;
                page.pushed()
            }
            Action::Explain(m) if Some(m) != self.keys.explain => {
                let mut page = self;
                page.keys.explain = Some(m);
                page.pushed()
            }
            Action::Explain(_) => self,
            Action::Others(others, slot) => {
                let mut page = self;
                page.slot = slot.min(others.len());
                page.keys.others = others;
                page.keys.others_chosen = true;
                page.field_error = None;
                page.pushed()
            }
            Action::CompareQueues => {
                let mut page = self;
                page.keys.others = super::queues::comparison(&page.scenario);
                page.keys.others_chosen = true;
                page.slot = 0;
                page.keys.view = View::Compare;
                page.field_error = None;
                page.pushed()
            }
            Action::Slot(slot) => Page {
                slot: slot.min(self.keys.others.len()),
                field_error: None,
                ..self
            },
            Action::Started {
                id,
                key,
                plan,
                now_ms,
                workers,
            } => Page {
                batch: Some(Batch::new(id, key, plan, now_ms, workers)),
                ..self
            },
            Action::Finished(f, now_ms) => {
                let mut page = self;
                if let Some(b) = page.batch.as_mut().filter(|b| b.id == f.batch) {
                    b.record(f.index, f.done, now_ms);
                    if b.finished() {
                        let done = b.clone();
                        page.finished.retain(|old| old.key != done.key);
                        page.finished.push(done);
                        if page.finished.len() > FINISHED_KEPT {
                            page.finished.remove(0);
                        }
                    }
                }
                page
            }
            Action::Player(action) => self.player_apply(action),
            Action::Lesson(action) => self.lesson_apply(action),
            Action::Cancelled => {
                let mut page = self;
                if let Some(b) = page.batch.as_mut().filter(|b| !b.finished()) {
                    b.cancelled = true;
                }
                page
            }
            Action::Ran { query, outcome } => match outcome {
                crate::worker::Outcome::View(view) => self.with_view(view),
                crate::worker::Outcome::Shipped(view) => Page {
                    view_shipped: true,
                    ..self.with_view(view)
                },
                crate::worker::Outcome::Steps(steps) => self.with_steps(query, steps),
                crate::worker::Outcome::Error(message) => Page {
                    failure: Some((query, message)),
                    ..self
                },
            },
            Action::Recorded { query, outcome } => match outcome {
                crate::worker::Outcome::Steps(steps) => self.with_steps(query, steps),
                crate::worker::Outcome::View(view) | crate::worker::Outcome::Shipped(view) => {
                    self.with_view(view)
                }
                crate::worker::Outcome::Error(message) => {
                    let mut page = self;
                    page.player.trouble = Some((query, message));
                    page
                }
            },
        }
    }
}

/// Sets one key as a control asks. The cursor (`at`) follows a shorter `dur` rather than
/// refusing it: it is a place in the run, not a setting of it.
pub fn set(scenario: &mut Scenario, key: Key, value: &str) -> Result<(), String> {
    let value = value.trim();
    // The trace is the file the tab holds (`super::link_trace`), which no value can name.
    if key == Key::Link && value == "trace" {
        let held = super::link_trace::held().ok_or_else(|| {
            "link: pick or drop a Mahimahi trace file first (a millisecond a line)".to_string()
        })?;
        let next = scenario.clone().with_shared_trace(held.trace);
        next.validate().map_err(|e| e.to_string())?;
        *scenario = next;
        return Ok(());
    }
    match scenario.set(key, value) {
        Ok(()) => Ok(()),
        Err(e) if e.key() == Key::At.name() && key != Key::At => {
            let mut without = scenario.clone();
            without.at_ms = None;
            without.set(key, value).map_err(|e| e.to_string())?;
            *scenario = without;
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    }
}

impl Reducible for Page {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new((*self).clone().apply(action))
    }
}

/// The page a unit test opens at `search`: in English, at the default text size.
#[cfg(test)]
pub(crate) fn test_page(search: &str) -> Page {
    Page::new(address::parse_search(search), Lang::En, false)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use std::rc::Rc;

    use tcplab::scenario::{Key, PRESETS};
    use tcplab::{RunOptions, Scenario};

    use super::{test_page, Action, Page, FINISHED_KEPT};
    use crate::batch::Batch;
    use crate::i18n::Lang;
    use crate::model::address::{self, Entry};
    use crate::model::plan::PlanKey;
    use crate::model::views::View;
    use crate::player::Action as PlayerAction;
    use crate::worker::pool::{Done, Finished};
    use crate::worker::protocol::run_view;
    use crate::worker::Outcome;

    #[test]
    fn the_queue_comparison_is_one_action_and_one_address() {
        let p = test_page("?preset=bufferbloat&lang=en");
        let revision = p.revision;
        let p = p.apply(Action::CompareQueues);
        assert_eq!(p.keys.view, View::Compare);
        let aqms: Vec<_> = p.compared().iter().map(|s| s.aqm.name()).collect();
        assert_eq!(aqms, ["fifo", "codel", "fq_codel"]);
        assert_eq!((p.slot, p.revision), (0, revision + 1));
        assert_eq!(p.entry, Some(Entry::Push), "Back returns to the run");
        assert!(p.search().contains("view=compare&b="), "{}", p.search());
    }

    /// What the app asks for at a slider's input is what it asks for once the page follows.
    #[test]
    fn the_run_asked_for_at_the_input_is_the_run_the_state_leads_to() {
        let set = |key, value: &str| Action::Set {
            key,
            value: value.to_string(),
            entry: Entry::Refine,
        };
        let cases: [(&str, Key, &str); 7] = [
            ("?rtt=28", Key::Rtt, "50"),
            ("?lesson=slow-start", Key::Iw, "4"),
            ("?view=diagnose", Key::Loss, "1"),
            // Refused, unchanged, the cursor alone, another view, a compared scenario.
            ("?rtt=28", Key::Rtt, "5000"),
            ("?rtt=28", Key::Rtt, "28"),
            ("?app=bulk&dur=2", Key::At, "500"),
            ("?view=sweep&key=loss", Key::Rtt, "50"),
        ];
        for (search, key, value) in cases {
            let page = test_page(search);
            let early = page.run_query_after_set(key, value);
            let after = page.clone().apply(set(key, value));
            let asked = matches!(after.keys.view, View::Lab | View::Diagnose)
                .then(|| after.run_query())
                .filter(|q| *q != page.run_query());
            assert_eq!(early, asked, "{search} {key:?}={value}");
        }
        assert!(test_page("?rtt=28")
            .run_query_after_set(Key::Rtt, "50")
            .is_some());
        let compared = test_page("?rtt=28")
            .apply(Action::Show(View::Compare))
            .apply(Action::Others(vec![Scenario::default()], 1));
        assert_eq!(compared.run_query_after_set(Key::Rtt, "50"), None);
    }

    /// Compare's B is A with another algorithm, A as it is when the comparison opens (edits
    /// included); a B the link or the reader chose stays.
    #[test]
    fn a_comparison_starts_from_the_scenario_as_edited() {
        let p = test_page("?preset=bufferbloat").apply(Action::Set {
            key: Key::Queue,
            value: "27".to_string(),
            entry: Entry::Push,
        });
        let p = p.apply(Action::Show(View::Compare));
        let b = &p.keys.others[0];
        assert_eq!((b.queue, b.cc), (27, tcplab::CcAlgo::Reno));
        assert_eq!(b.to_query(), "preset=bufferbloat&cc=reno&queue=27");
        // Chosen by the link: kept, whatever A becomes.
        let p = test_page("?preset=bufferbloat&b=cc%3Dbbr")
            .apply(Action::Set {
                key: Key::Queue,
                value: "27".to_string(),
                entry: Entry::Push,
            })
            .apply(Action::Show(View::Compare));
        assert_eq!(p.keys.others[0].to_query(), "cc=bbr");
    }

    #[test]
    fn the_controls_edit_the_compared_scenario_chosen() {
        let p = test_page("?rtt=28")
            .apply(Action::Show(View::Compare))
            .apply(Action::Others(vec![Scenario::default()], 1));
        let (own, revision) = (p.scenario.clone(), p.revision);
        let p = p.apply(Action::Set {
            key: Key::Rtt,
            value: "50".to_string(),
            entry: Entry::Refine,
        });
        assert_eq!(p.keys.others[0].rtt_ms, 50.0);
        assert_eq!(p.scenario, own, "the page's own scenario is left as it is");
        assert_eq!((p.revision, p.entry), (revision + 1, Some(Entry::Refine)));
        let p = p.apply(Action::Set {
            key: Key::Rtt,
            value: "5000".to_string(),
            entry: Entry::Push,
        });
        assert_eq!(
            p.keys.others[0].rtt_ms, 50.0,
            "a refused value changes nothing"
        );
        assert_eq!(p.revision, revision + 1);
        assert!(p.field_error.is_some());

        let preset = Scenario::parse(PRESETS[0].query).expect("a preset");
        let p = p.apply(Action::Load(preset.clone()));
        assert_eq!((&p.keys.others[0], &p.scenario), (&preset, &own));
        assert_eq!((p.revision, p.entry), (revision + 2, Some(Entry::Push)));
        assert!(p.field_error.is_none());

        // Back on the page's own scenario, the controls edit it.
        let p = p.apply(Action::Slot(0)).apply(Action::Set {
            key: Key::Rtt,
            value: "70".to_string(),
            entry: Entry::Push,
        });
        assert_eq!(
            (p.scenario.rtt_ms, p.keys.others[0].rtt_ms),
            (70.0, preset.rtt_ms)
        );
    }

    #[test]
    fn the_state_changes_through_the_scenarios_rules() {
        let p = test_page("?iw=20");
        assert_eq!(p.scenario.iw, 20);
        assert_eq!(
            p.entry,
            Some(Entry::Replace),
            "a good link is canonicalised"
        );
        assert_eq!(
            p.search(),
            "?iw=20",
            "no language written that was not chosen"
        );

        let set = |p: Page, key: Key, value: &str| {
            p.apply(Action::Set {
                key,
                value: value.to_string(),
                entry: Entry::Push,
            })
        };
        let p = set(p, Key::Rtt, "50ms");
        assert_eq!(p.scenario.rtt_ms, 50.0);
        assert_eq!(p.entry, Some(Entry::Push));
        let revision = p.revision;

        let p = set(p, Key::Rtt, "5000");
        assert_eq!(p.scenario.rtt_ms, 50.0, "a refused value changes nothing");
        assert_eq!(p.revision, revision);
        let error = p.field_error.clone().expect("the refusal is shown");
        assert_eq!(error.control, Key::Rtt);
        assert!(error.message.contains("0.1 to 2000"), "{}", error.message);

        // mss up to where rwnd no longer holds two segments: the message names rwnd.
        let p = set(p, Key::Rwnd, "100000");
        let p = set(p, Key::Mss, "65000");
        let error = p.field_error.clone().expect("refused");
        assert_eq!(error.control, Key::Mss);
        assert!(error.message.starts_with("rwnd"), "{}", error.message);

        // The cursor follows a shorter duration.
        let p = set(p, Key::At, "5000");
        assert_eq!(p.scenario.at_ms, Some(5000.0));
        let p = set(p, Key::Dur, "2");
        assert_eq!(p.scenario.dur_s, 2.0);
        assert_eq!(p.scenario.at_ms, None);

        // A bad address names the key; its good keys are shown and the bad one is ignored.
        let p = p.apply(Action::Arrive(address::parse_search("?loss=99&dur=3")));
        assert_eq!(p.scenario.dur_s, 3.0);
        assert_eq!(p.scenario.loss_pct, Scenario::default().loss_pct);
        let keys: Vec<&str> = p.banner.iter().map(|b| b.key.as_str()).collect();
        assert_eq!(keys, ["loss"]);
        assert_eq!(p.entry, None, "a bad address is left as written");

        let fresh = test_page("?loss=99");
        assert_eq!(fresh.scenario, Scenario::default());

        let p = p.apply(Action::Lang(Lang::Zh));
        assert_eq!(p.lang, Lang::Zh);
        assert_eq!(p.entry, Some(Entry::Push));
        assert!(p.search().ends_with("&lang=zh"), "chosen, so written");
    }

    #[test]
    fn my_number_explained_is_in_the_address() {
        use tcplab::diagnose::Measured;
        // A shared link opens on its number; the page writes it back as it came.
        let p = test_page("?view=diagnose&my_time=6390&lang=en");
        assert_eq!(p.keys.explain, Some(Measured::Time(6390.0)));
        assert!(p.banner.is_empty());
        assert_eq!(p.search(), "?view=diagnose&my_time=6390&lang=en");

        // Asking about another number is a step Back returns from.
        let asked = p.apply(Action::Explain(Measured::Goodput(1.8)));
        assert_eq!(asked.entry, Some(Entry::Push));
        assert_eq!(asked.search(), "?view=diagnose&my_goodput=1.8&lang=en");
        let again = asked.clone().apply(Action::Explain(Measured::Goodput(1.8)));
        assert_eq!(
            again.revision, asked.revision,
            "the same number changes nothing"
        );

        // Other views do not carry it, and coming back shows it again.
        let sweep = asked.apply(Action::Show(View::Sweep));
        assert!(!sweep.search().contains("my_"), "{}", sweep.search());
        let back = sweep.apply(Action::Show(View::Diagnose));
        assert!(
            back.search().contains("my_goodput=1.8"),
            "{}",
            back.search()
        );

        // A time is a body's: once the workload is none, the address stops asking.
        let p = test_page("?view=diagnose&my_time=6390&lang=en").apply(Action::Set {
            key: Key::App,
            value: "bulk".to_string(),
            entry: Entry::Push,
        });
        assert_eq!(p.keys.explain, None);
        assert_eq!(p.search(), "?app=bulk&view=diagnose&lang=en");

        // A bad number is named, its key and range, and nothing is asked.
        let bad = test_page("?view=diagnose&my_goodput=abc&lang=en");
        assert_eq!(bad.keys.explain, None);
        let keys: Vec<&str> = bad.banner.iter().map(|b| b.key.as_str()).collect();
        assert_eq!(keys, ["my_goodput"]);
    }

    #[test]
    fn a_bad_links_banner_lasts_until_the_user_changes_the_scenario() {
        let set = |p: Page, key: Key, value: &str| {
            p.apply(Action::Set {
                key,
                value: value.to_string(),
                entry: Entry::Refine,
            })
        };
        let bad = test_page("?rtt=abc&lang=en");
        assert_eq!(bad.banner.first().map(|b| b.key.as_str()), Some("rtt"));

        // What leaves the defaults on show leaves the banner that says so.
        let p = set(bad.clone(), Key::Rtt, "28");
        assert!(!p.banner.is_empty(), "the value it already had");
        let p = set(p, Key::Rtt, "5000");
        assert!(p.field_error.is_some());
        assert!(!p.banner.is_empty(), "a refused value");
        let p = p.apply(Action::Lang(Lang::Zh));
        assert!(
            !p.banner.is_empty(),
            "the language: the banner is read in it"
        );
        let p = p
            .apply(Action::Show(View::Sweep))
            .apply(Action::Show(View::Lab));
        assert!(!p.banner.is_empty(), "another view of the same scenario");
        let p = p
            .apply(Action::Hover(Some(10.0)))
            .apply(Action::Large(true));
        assert!(!p.banner.is_empty());
        let p = p.apply(Action::Ran {
            query: String::new(),
            outcome: Outcome::View(Rc::new(run_view(""))),
        });
        assert!(!p.banner.is_empty(), "the defaults' run coming back");

        // The scenario on show is the user's: the banner's "instead" no longer holds.
        let p = set(p, Key::Rtt, "50");
        assert_eq!(p.scenario.rtt_ms, 50.0);
        assert_eq!(p.banner, vec![], "a slider moved");
        let preset = PRESETS.first().expect("a preset");
        let p = bad
            .clone()
            .apply(Action::Load(preset.scenario().expect("a valid preset")));
        assert_eq!(p.banner, vec![], "a preset");
        let p = bad.clone().apply(Action::Player(PlayerAction::Open));
        assert_eq!(p.scenario.at_ms, Some(0.0));
        assert_eq!(p.banner, vec![], "the player's cursor");
        let p = bad.apply(Action::Arrive(address::parse_search("?rtt=40&lang=en")));
        assert_eq!(p.banner, vec![], "Back or Forward to a good address");

        // A bad sweep setting goes when the sweep is set.
        let p = test_page("?view=sweep&key=mtu&lang=en");
        assert_eq!(p.banner.first().map(|b| b.key.as_str()), Some("key"));
        let mut spec = p.keys.sweep.clone();
        spec.axis.values.truncate(1);
        assert_ne!(spec, p.keys.sweep);
        let p = p.apply(Action::Sweep(spec));
        assert_eq!(p.banner, vec![]);
    }

    #[test]
    fn a_run_is_shown_only_for_its_scenario() {
        let p = test_page("");
        assert!(p.running());
        let view = run_view("");
        let p = p.apply(Action::Ran {
            query: String::new(),
            outcome: Outcome::View(Rc::new(view)),
        });
        assert!(!p.running());
        let p = p.apply(Action::Set {
            key: Key::Iw,
            value: "20".into(),
            entry: Entry::Push,
        });
        assert!(p.running(), "the view is for IW 10");
        assert!(p.view.is_some(), "and stays on show meanwhile");
        let p = p.apply(Action::Ran {
            query: "iw=20".into(),
            outcome: Outcome::Error("boom".into()),
        });
        assert!(!p.running());
        assert_eq!(p.current_failure(), Some("boom"));
    }

    #[test]
    fn a_batch_keeps_only_its_own_results_and_cancel_stops_it() {
        let base = Scenario::default();
        let p = test_page("?view=sweep&key=iw&values=1,10&seeds=1");
        let key = p.plan_key().expect("a sweep runs");
        let plan = Rc::new(key.plan());
        let p = p.apply(Action::Started {
            id: 4,
            key: key.clone(),
            plan,
            now_ms: 0.0,
            workers: 2,
        });
        let summary = tcplab::run(&base, &RunOptions::default()).summary;
        // A result of an older batch is dropped.
        let p = p.apply(Action::Finished(
            Finished {
                batch: 3,
                index: 0,
                done: Done::Summary(Rc::new(summary.clone())),
            },
            1.0,
        ));
        assert_eq!(p.current_batch().map(Batch::done), Some(0));
        let p = p.apply(Action::Finished(
            Finished {
                batch: 4,
                index: 0,
                done: Done::Summary(Rc::new(summary)),
            },
            1.0,
        ));
        assert_eq!(p.current_batch().map(Batch::done), Some(1));
        let p = p.apply(Action::Cancelled);
        assert!(p
            .current_batch()
            .is_some_and(|b| b.cancelled && !b.running()));
        // A new spec is a new plan: the old batch no longer shows.
        let mut spec = p.keys.sweep.clone();
        spec.seeds = 2;
        let p = p.apply(Action::Sweep(spec));
        assert!(p.current_batch().is_none());
        assert!(p.search().contains("seeds=2"));
    }

    /// `key`'s batch `id` started and every run back (as errors: the reducer does not look).
    fn finish(p: Page, id: u64, key: PlanKey) -> Page {
        let plan = Rc::new(key.plan());
        let runs = plan.jobs.len();
        let mut p = p.apply(Action::Started {
            id,
            key,
            plan,
            now_ms: 0.0,
            workers: 1,
        });
        for index in 0..runs {
            let done = Done::Error("stopped".to_string());
            p = p.apply(Action::Finished(
                Finished {
                    batch: id,
                    index,
                    done,
                },
                1.0,
            ));
        }
        p
    }

    #[test]
    fn the_view_on_show_chooses_what_the_pool_runs() {
        let p = test_page("?rtt=40&at=500");
        assert_eq!(p.plan_key(), None, "one run is the lab's own worker's");
        let revision = p.revision;
        let p = p.apply(Action::Show(View::Sweep));
        assert_eq!((p.revision, p.entry), (revision + 1, Some(Entry::Push)));
        let again = p.clone().apply(Action::Show(View::Sweep));
        assert_eq!(
            again.revision, p.revision,
            "the view on show again is no change"
        );
        let key = p.plan_key().expect("a sweep runs");
        let PlanKey::Sweep(base, spec) = &key else {
            panic!("{key:?}")
        };
        assert_eq!(
            (base.rtt_ms, base.at_ms),
            (40.0, None),
            "the runs have no cursor"
        );
        assert_eq!(spec, &p.keys.sweep);

        let p = finish(p, 1, key);
        assert!(p.has_finished_batch());
        assert_eq!(p.current_batch().map(|b| b.id), Some(1));
        // Another view's batch is the newest; Back on the sweep finds the finished one.
        let p = p.apply(Action::Show(View::Matrix));
        assert!(p.current_batch().is_none() && !p.has_finished_batch());
        let matrix = p.plan_key().expect("a matrix runs");
        assert!(matches!(matrix, PlanKey::Matrix(..)), "{matrix:?}");
        let p = p.apply(Action::Started {
            id: 2,
            plan: Rc::new(matrix.plan()),
            key: matrix,
            now_ms: 5.0,
            workers: 2,
        });
        assert_eq!(
            p.current_batch().map(|b| (b.id, b.running())),
            Some((2, true))
        );
        let p = p.apply(Action::Show(View::Sweep));
        assert_eq!(
            p.current_batch().map(|b| (b.id, b.finished_ms)),
            Some((1, Some(1.0)))
        );
        // A comparison runs the page's own scenario first, then the others.
        let other = Scenario::parse("cc=bbr").expect("a scenario");
        let p = p
            .apply(Action::Show(View::Compare))
            .apply(Action::Others(vec![other.clone()], 0));
        assert_eq!(
            p.plan_key(),
            Some(PlanKey::Compare(vec![p.scenario.clone(), other]))
        );
    }

    #[test]
    fn the_newest_finished_batches_are_kept_one_for_each_plan() {
        let mut p = test_page("?view=sweep&key=iw&values=1&seeds=1");
        let ids = 1..=(FINISHED_KEPT as u64 + 2);
        for id in ids.clone() {
            let mut spec = p.keys.sweep.clone();
            spec.axis.values = vec![id.to_string()];
            p = p.apply(Action::Sweep(spec));
            let key = p.plan_key().expect("a sweep runs");
            p = finish(p, id, key);
        }
        let kept: Vec<u64> = p.finished.iter().map(|b| b.id).collect();
        let newest: Vec<u64> = ids.clone().skip(2).collect();
        assert_eq!(kept, newest, "the oldest go");
        // The same runs again replace their older batch.
        let key = p.plan_key().expect("a sweep runs");
        let p = finish(p, 100, key);
        let kept: Vec<u64> = p.finished.iter().map(|b| b.id).collect();
        assert_eq!(kept.len(), FINISHED_KEPT);
        assert_eq!(kept.last(), Some(&100));
        assert!(!kept.contains(&(FINISHED_KEPT as u64 + 2)));
        // A result for a batch that is not the newest is dropped.
        let before = p.clone();
        let done = Done::Error("late".to_string());
        let p = p.apply(Action::Finished(
            Finished {
                batch: 1,
                index: 0,
                done,
            },
            9.0,
        ));
        assert_eq!(p, before);
    }

    #[test]
    fn the_pointer_the_type_size_and_the_banner_are_not_written_in_the_address() {
        let p = test_page("?rtt=abc");
        let revision = p.revision;
        let p = p.apply(Action::Hover(Some(f64::NAN)));
        assert_eq!(p.hover_ms, None, "no cursor at no time");
        let p = p.apply(Action::Hover(Some(250.0)));
        assert_eq!(p.cursor_ms(), Some(250.0));
        let p = p.apply(Action::Hover(None));
        assert_eq!(p.cursor_ms(), None);
        let p = p.apply(Action::Large(true));
        assert!(p.large);
        assert!(!p.banner.is_empty());
        let p = p.apply(Action::DismissBanner);
        assert_eq!(p.banner, vec![]);
        assert_eq!(p.revision, revision, "none of them changes the address");
        // A language chosen is, even the one on show; chosen again, it changes nothing.
        let p = p.apply(Action::Lang(Lang::En));
        assert_eq!((p.revision, p.lang_chosen), (revision + 1, true));
        assert!(p.search().ends_with("lang=en"), "{}", p.search());
        let p = p.apply(Action::Lang(Lang::En));
        assert_eq!(p.revision, revision + 1);
        // A slot past the compared scenarios is the last of them, and the controls edit a
        // compared scenario only in the comparison.
        let other = Scenario::parse("rtt=90").expect("a scenario");
        let p = p
            .apply(Action::Show(View::Compare))
            .apply(Action::Others(vec![other.clone()], 0))
            .apply(Action::Slot(5));
        assert_eq!(p.slot, 1);
        assert_eq!(p.edited(), &other);
        let p = p.apply(Action::Show(View::Lab));
        assert_eq!(p.edited(), &p.scenario);
    }

    /// Under `lang=zh` every problem the banner names is said in Chinese, whichever of the
    /// page's keys or the scenario's it comes from: none falls back to an English sentence.
    #[test]
    fn every_bad_key_is_explained_in_chinese() {
        let links = [
            // The scenario's keys, and the problems whose reason is a variant of its own.
            "rtt=5000",
            "flows=2&rtt=1,2,3",
            "sched=abc",
            "sched=700:bw:10",
            "sched=1:zzz:1",
            "sched=1:cc:bbr",
            "sched=1:bw:abc",
            "sched=5:bw:10,1:bw:20",
            "link=lte&sched=1:bw:10",
            "link=trace",
            // A sweep's and a matrix's keys.
            "view=sweep&seeds=0",
            "view=sweep&seeds=x",
            "view=sweep&key=loss&values=",
            "view=sweep&key=loss&values=1,1",
            "view=sweep&key=loss&values=abc,-1",
            "view=sweep&key=zzz",
            "view=sweep&key=loss&values=0.1,0.2,0.5,1,2,5,10,20,30&seeds=50",
            "view=sweep&flows=2&key=bw&flow=2",
            "view=sweep&flows=2&key=rtt&flow=9",
            "view=sweep&app=msgs&conns=0&key=rtt&flow=1",
            "view=matrix&key=rtt&key2=rtt",
            "view=matrix&flow=1",
            // The player's, a lesson's and an embed's keys.
            "at=10&step=x",
            "at=10&step=",
            "at=10&step=99999999",
            "step=1",
            "lesson=nope",
            "lesson=slow-start&part=9",
            "lesson=slow-start&preset=policer",
            "embed=2",
            "charts=cwnd",
            "embed=1&charts=",
            "embed=1&charts=zzz",
            "embed=1&charts=cwnd,cwnd",
            "embed=1&controls=drop",
        ];
        let han = |t: &str| t.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let mut faults = Vec::new();
        for link in links {
            let page = test_page(&format!("?{link}&lang=zh"));
            if page.banner.is_empty() {
                faults.push(format!("{link}: no banner"));
            }
            for bad in &page.banner {
                let zh = bad.problem_in(Lang::Zh);
                if !han(zh) || zh == bad.problem {
                    faults.push(format!("{link}: {} is not said in Chinese: {zh}", bad.key));
                }
            }
        }
        assert!(faults.is_empty(), "{faults:#?}");
    }
}
