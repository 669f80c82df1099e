//! The page's side of the worker: one request at a time, the newest wins.
//!
//! - An idle worker gets a request at once; while it is busy, requests are gathered until the
//!   next animation frame, so a slider dragged across many values asks for one run a frame,
//!   not one per event.
//! - A run cannot be interrupted inside WebAssembly: when a newer scenario arrives while one is
//!   running, the run is left to finish if it is quick (the last one took under a second, or
//!   none has finished yet) and has not yet run a second; otherwise, once the newer scenario has
//!   stood still for a tenth of a second (a dragged slider asks for a value a frame), the worker
//!   is terminated and a fresh one started for it.
//! - A scenario whose runs take longer than a frame gets a second worker: while one runs, the
//!   newest request runs on the other, so a dragged slider's runs come twice as often on two
//!   cores.
//! - Every reply carries its request's id; only the newest request's reply reaches the page,
//!   or an older one newer than the view on show.
//! - A worker that fails (a trap, a script that does not load) is reported once and replaced on
//!   the next request.
//! - The charts' client answers the default scenario's view with the file that comes with the
//!   page ([`super::shipped`]), and starts its worker with the first other request (or if the
//!   file cannot be had): a first visit to the default page neither fetches nor runs the
//!   simulator.

use std::cell::RefCell;
use std::rc::Rc;

use tcplab::player::Steps;
use tcplab::view::RunView;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::Callback;

use super::live::{read_reply, unpack_beside, Live};
use super::mark;
use super::protocol::{encode_request, Packed, Request, Want};
use super::shipped::{self, Shipped};
use crate::location::describe;

/// The worker's script (assets/worker-loader.js, which loads what Trunk builds from the
/// `tcplab-worker` binary).
pub const WORKER_SCRIPT: &str = "./worker-loader.js";

/// The capture worker's script (the same loader, asked for what Trunk builds from the
/// `tcplab-capture` binary): started by the diagnosis for a capture file, and only then fetched.
pub const CAPTURE_SCRIPT: &str = "./worker-loader.js?module=tcplab-capture";

/// The end of one request.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    View(Rc<RunView>),
    /// The view that came with the page ([`super::shipped`]): the simulator's, run when the
    /// page was built, so not timed here.
    Shipped(Rc<RunView>),
    /// The steps a [`Want::Steps`] asked for.
    Steps(Rc<Steps>),
    /// The scenario was refused, or the worker failed.
    Error(String),
}

/// What a client's worker is for, which names its performance marks: the charts' runs
/// (`tcplab-request`, `tcplab-reply`) or the player's steps (`tcplab-steps-request`,
/// `tcplab-steps-reply`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Runs,
    Steps,
}

impl Role {
    fn marks(self) -> (&'static str, &'static str) {
        match self {
            Role::Runs => ("tcplab-request", "tcplab-reply"),
            Role::Steps => ("tcplab-steps-request", "tcplab-steps-reply"),
        }
    }
}

/// The page's handle on its worker. Cloning shares it.
#[derive(Clone)]
pub struct Client {
    inner: Rc<RefCell<Inner>>,
}

impl PartialEq for Client {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

struct Inner {
    script: String,
    role: Role,
    /// The worker, once started (and until it fails or is stopped).
    first: Option<Worker>,
    /// The newest request, its query, and what it wants back.
    latest: u64,
    latest_query: String,
    latest_want: Want,
    /// When the newest request was made (`now_ms`).
    asked_at: f64,
    /// The newest request, not yet posted.
    pending: Option<u64>,
    /// An animation frame is booked to send the pending request.
    frame: bool,
    on_outcome: Callback<(String, Outcome)>,
    /// Workers started so far: the first, and one for each superseded or failed run.
    started: u32,
    /// How long the last answered request took (ms).
    last_took: Option<f64>,
    /// The newest request whose view is on show.
    shown: u64,
    /// Stops the busy run once it has outlasted `SUPERSEDE_AFTER_MS` with a newer one waiting.
    watch: Option<crate::Timer>,
    /// A second worker for the charts' runs of a slow scenario: while the first worker runs,
    /// the newest request runs here, so that a dragged slider's runs come twice as often on
    /// two cores (docs/performance.md, "Dragging"). Started once a run has taken longer than
    /// `HELPER_AFTER_MS`; a reply from either worker is shown if it is newer than the view on
    /// show.
    helper: Option<Worker>,
    /// The view the client answers without its worker.
    own: Own,
}

/// A client's own view of one scenario ([`super::shipped`]), through its life.
enum Own {
    /// None, or its file could not be had: the worker runs every scenario.
    None,
    /// Its file, not fetched yet, or being fetched for the newest request that wants it.
    File {
        shipped: Shipped,
        fetching: Option<u64>,
    },
    /// Fetched and read: every later request for it is answered at once.
    Read {
        query: &'static str,
        view: Rc<RunView>,
    },
}

impl Own {
    /// The request the view is being fetched for.
    fn fetching(&self) -> Option<u64> {
        match self {
            Own::File { fetching, .. } => *fetching,
            _ => None,
        }
    }

    /// Whether it answers a request for `query`, as `want` says.
    fn answers(&self, query: &str, want: &Want) -> bool {
        *want == Want::View
            && match self {
                Own::None => false,
                Own::File { shipped, .. } => shipped.query == query,
                Own::Read { query: q, .. } => *q == query,
            }
    }
}

/// One of a client's workers, and the request it runs.
struct Worker {
    live: Live,
    /// It has said it can take requests.
    ready: bool,
    /// The id of the request it is running, and when that was posted (ms).
    busy: Option<u64>,
    posted_at: f64,
}

impl Worker {
    fn new(live: Live) -> Worker {
        Worker {
            live,
            ready: false,
            busy: None,
            posted_at: 0.0,
        }
    }

    fn free(&self) -> bool {
        self.ready && self.busy.is_none()
    }
}

thread_local! {
    /// When the charts' client was last asked for a different run (`now_ms`): its `asked_at`,
    /// where the charts, which do not hold the client, can read it.
    static CHARTS_CHANGED_AT: std::cell::Cell<f64> = const { std::cell::Cell::new(f64::NEG_INFINITY) };
}

/// How long (ms) a scenario must stand still for a drag to count as paused. A dragged slider
/// asks for a value a frame: until it pauses, a chart out of view waits (`charts::plot`), and a
/// slow run is not stopped for the newest value ([`on_busy`]), for one stopped at each frame
/// would start a worker a frame (its script, its module) and finish none.
pub(crate) const PAUSE_MS: f64 = 100.0;

/// Whether the charts' scenario has stood still for [`PAUSE_MS`]: the charts' client was last
/// asked for another run that long ago (or never).
pub(crate) fn charts_paused() -> bool {
    crate::now_ms() - CHARTS_CHANGED_AT.with(std::cell::Cell::get) >= PAUSE_MS
}

/// A run slower than this (ms, about a frame) brings in the helper.
const HELPER_AFTER_MS: f64 = 16.0;

/// A run that took longer than this (ms) is stopped when a newer value supersedes it (once that
/// value has stood still, [`PAUSE_MS`]); a quicker one is left to finish and its view
/// shown, so that the charts follow a dragged slider at the simulator's pace instead of waiting
/// for the drag to end (docs/performance.md, "Input to charts drawn"). Stopping costs a fresh
/// worker, some tens of ms.
const SUPERSEDE_AFTER_MS: f64 = 1_000.0;

impl Client {
    /// A client that reports each newest request's outcome, with its query, to `on_outcome`.
    /// Its worker starts with the first request it cannot answer itself, not before: a worker
    /// that most visits never use (the player's) costs a first visit no second compilation of
    /// the module, and a first visit to the default page none at all.
    pub fn on_demand(script: &str, role: Role, on_outcome: Callback<(String, Outcome)>) -> Client {
        Client {
            inner: Rc::new(RefCell::new(Inner {
                script: script.to_string(),
                role,
                first: None,
                latest: 0,
                latest_query: String::new(),
                latest_want: Want::View,
                asked_at: f64::NEG_INFINITY,
                pending: None,
                frame: false,
                on_outcome,
                started: 0,
                last_took: None,
                shown: 0,
                watch: None,
                helper: None,
                own: Own::None,
            })),
        }
    }

    /// As [`Client::on_demand`], and a request for the view of `shipped`'s scenario is answered
    /// with it, at once: the worker starts with the first request for another.
    pub fn with_shipped(
        script: &str,
        role: Role,
        shipped: Shipped,
        on_outcome: Callback<(String, Outcome)>,
    ) -> Client {
        let client = Client::on_demand(script, role, on_outcome);
        client.inner.borrow_mut().own = Own::File {
            shipped,
            fetching: None,
        };
        client
    }

    /// Asks for a run of `query`, answered as `want` says, superseding every earlier request.
    /// An idle worker gets it at once; otherwise it waits for the next animation frame, with
    /// whatever else comes meanwhile.
    /// The newest request asked again while it is still waiting or running is left as it is.
    pub fn request(&self, query: &str, want: Want) {
        {
            let mut inner = self.inner.borrow_mut();
            let outstanding = inner.pending == Some(inner.latest)
                || inner.busy() == Some(inner.latest)
                || inner.own.fetching() == Some(inner.latest);
            if outstanding && inner.latest_query == query && inner.latest_want == want {
                return;
            }
            // Asked again once on show (the input's early request, then the effect's).
            let shown = inner.latest > 0 && inner.shown == inner.latest;
            if shown && inner.latest_query == query && inner.latest_want == want {
                return;
            }
            inner.latest += 1;
            inner.asked_at = crate::now_ms();
            if inner.role == Role::Runs {
                CHARTS_CHANGED_AT.with(|at| at.set(inner.asked_at));
            }
            inner.latest_query = query.to_string();
            let own = inner.own.answers(query, &want);
            inner.latest_want = want;
            if own {
                inner.pending = None;
                let id = inner.latest;
                let fetch = match &mut inner.own {
                    Own::Read { view, .. } => {
                        let view = Rc::clone(view);
                        let shown = show_own(&mut inner, id, view);
                        drop(inner);
                        self.report(shown);
                        return;
                    }
                    // A fetch under way answers this request instead of the one it began for.
                    Own::File { shipped, fetching } => {
                        fetching.replace(id).is_none().then_some(*shipped)
                    }
                    Own::None => None,
                };
                drop(inner);
                if let Some(shipped) = fetch {
                    fetch_own(&self.inner, shipped);
                }
                return;
            }
            inner.pending = Some(inner.latest);
            if inner.frame {
                return;
            }
            if inner.first.as_ref().is_some_and(Worker::free) {
                let failure = post(&mut inner, Slot::First);
                drop(inner);
                self.report(failure);
                return;
            }
            if inner.first.is_none() {
                // Started now rather than at the next frame: its script, its module and its
                // first run all still to come.
                drop(inner);
                let failure = flush(&self.inner);
                self.report(failure);
                return;
            }
        }
        let weak = Rc::downgrade(&self.inner);
        // Frees itself once called.
        let frame = Closure::once_into_js(move |_: f64| {
            if let Some(inner) = weak.upgrade() {
                inner.borrow_mut().frame = false;
                let failure = flush(&inner);
                Client { inner }.report(failure);
            }
        });
        let scheduled = crate::window()
            .ok_or_else(|| "no window".to_string())
            .and_then(|w| {
                w.request_animation_frame(frame.unchecked_ref())
                    .map_err(describe)
            });
        match scheduled {
            Ok(_) => self.inner.borrow_mut().frame = true,
            Err(_) => {
                // No frames to wait for (no window): send at once.
                let failure = flush(&self.inner);
                self.report(failure);
            }
        }
    }

    /// Starts the worker ahead of a first request it will need it for: the reader's pointer
    /// over the controls, or the focus in them, on a page whose run came without it (the
    /// default's). Only a client that never started one does: a worker that failed is started
    /// again by the next request, not by every movement of the pointer.
    pub fn warm(&self) {
        let cold = {
            let inner = self.inner.borrow();
            inner.started == 0 && inner.first.is_none()
        };
        if cold {
            let failure = start(&self.inner);
            self.report(failure);
        }
    }

    /// Workers started so far.
    pub fn workers_started(&self) -> u32 {
        self.inner.borrow().started
    }

    fn report(&self, failure: Option<(String, Outcome)>) {
        report(&self.inner, failure);
    }
}

/// Shows the client's own view for request `id`: newer than any run still going, whose reply
/// will not replace it.
fn show_own(inner: &mut Inner, id: u64, view: Rc<RunView>) -> Option<(String, Outcome)> {
    inner.shown = id;
    mark("tcplab-view");
    Some((inner.latest_query.clone(), Outcome::Shipped(view)))
}

/// Fetches the client's own view, and shows it if the request it is then fetched for is still
/// the newest. A file that cannot be had is not a failure of the page: the worker runs the
/// scenario instead, and every later request for it.
fn fetch_own(inner_rc: &Rc<RefCell<Inner>>, shipped: Shipped) {
    let weak = Rc::downgrade(inner_rc);
    wasm_bindgen_futures::spawn_local(async move {
        let fetched = shipped.fetch().await;
        let Some(inner_rc) = weak.upgrade() else {
            return;
        };
        let mut inner = inner_rc.borrow_mut();
        let wanted = inner.own.fetching().filter(|&id| id == inner.latest);
        let outcome = match fetched {
            Ok(view) => {
                let view = Rc::new(view);
                inner.own = Own::Read {
                    query: shipped.query,
                    view: Rc::clone(&view),
                };
                let shown = wanted.and_then(|id| show_own(&mut inner, id, view));
                drop(inner);
                shown
            }
            Err(e) => {
                web_sys::console::warn_1(
                    &format!("the default run did not come ({e}): the simulator runs it").into(),
                );
                inner.own = Own::None;
                inner.pending = wanted.or(inner.pending);
                drop(inner);
                flush(&inner_rc)
            }
        };
        report(&inner_rc, outcome);
    });
}

/// Hands a failure or an outcome to the page.
fn report(inner: &Rc<RefCell<Inner>>, failure: Option<(String, Outcome)>) {
    if let Some(outcome) = failure {
        let callback = inner.borrow().on_outcome.clone();
        callback.emit(outcome);
    }
}

/// The page's two clients of the simulator's worker, as the lab and an embed hold them: the
/// charts' runs, whose worker starts with the first scenario that is not the default (whose view
/// comes with the page), and the player's steps, whose worker starts when steps are first
/// wanted, so that recording the part of a long run around the cursor neither waits for the
/// charts' run nor stops it, and a first visit compiles the module at most once.
/// Their answers reach the page's reducer as `Ran` and `Recorded`.
#[derive(Clone, PartialEq)]
pub struct PageClients {
    pub runs: Client,
    pub steps: Client,
}

impl PageClients {
    /// The clients, and the charts' first run asked for at once, `first` (the page's
    /// [`Page::charts_query`](crate::model::page::Page::charts_query)): its worker, or the
    /// default scenario's view, is on its way while the page is first drawn.
    pub fn new(
        dispatcher: yew::UseReducerDispatcher<crate::model::page::Page>,
        first: Option<&str>,
    ) -> PageClients {
        use crate::model::page::Action;
        let on_ran = dispatcher.clone();
        let clients = PageClients {
            runs: Client::with_shipped(
                WORKER_SCRIPT,
                Role::Runs,
                shipped::DEFAULT,
                Callback::from(move |(query, outcome)| {
                    on_ran.dispatch(Action::Ran { query, outcome })
                }),
            ),
            steps: Client::on_demand(
                WORKER_SCRIPT,
                Role::Steps,
                Callback::from(move |(query, outcome)| {
                    dispatcher.dispatch(Action::Recorded { query, outcome })
                }),
            ),
        };
        if let Some(query) = first {
            clients.runs.request(query, Want::View);
        }
        // The worker the HTML started for a link, if the charts' first run did not take it.
        super::early::discard();
        clients
    }
}

/// Starts a worker, replacing any. Returns the failure to report, if it could not start.
fn start(inner_rc: &Rc<RefCell<Inner>>) -> Option<(String, Outcome)> {
    let mut inner = inner_rc.borrow_mut();
    inner.first = None;
    // The charts' first worker may already be on its way, started by the HTML for a shared
    // link; a worker that replaces a failed or stopped one is always a fresh one.
    let early = (inner.role == Role::Runs && inner.started == 0 && inner.script == WORKER_SCRIPT)
        .then(super::early::take)
        .flatten();
    match spawn(inner_rc, &inner.script, Slot::First, early) {
        Ok(live) => {
            inner.started += 1;
            inner.first = Some(Worker::new(live));
            None
        }
        Err(e) => Some((
            inner.latest_query.clone(),
            Outcome::Error(format!("the simulator could not start: {}", describe(e))),
        )),
    }
}

/// Sends the pending request: at once to an idle, ready worker; to a fresh worker when the
/// current one is busy with an older request.
fn flush(inner_rc: &Rc<RefCell<Inner>>) -> Option<(String, Outcome)> {
    let (busy, live) = {
        let inner = inner_rc.borrow();
        inner.pending?;
        (inner.busy().is_some(), inner.first.is_some())
    };
    let slow = {
        let inner = inner_rc.borrow();
        inner.role == Role::Runs && inner.last_took.is_some_and(|ms| ms > HELPER_AFTER_MS)
    };
    if busy && live && slow {
        if inner_rc.borrow().helper.is_none() {
            // Its `ready` posts the waiting request, unless the first worker is free first.
            start_helper(inner_rc);
        } else {
            post(&mut inner_rc.borrow_mut(), Slot::Helper);
        }
        // Taken by the helper: the first worker's run is left as it is.
        inner_rc.borrow().pending?;
    }
    let busy_run = {
        let inner = inner_rc.borrow();
        let now = crate::now_ms();
        inner
            .first
            .as_ref()
            .filter(|w| w.busy.is_some())
            .map(|w| on_busy(inner.last_took, now - w.posted_at, now - inner.asked_at))
    };
    let look_again_ms = match busy_run {
        Some(BusyRun::Finish { left_ms }) => Some(left_ms),
        Some(BusyRun::StopWhenStill { in_ms }) => Some(in_ms),
        Some(BusyRun::Stop) | None => None,
    };
    if let Some(ms) = look_again_ms {
        // Left to run: its reply posts the pending request, unless it runs too long and the
        // newest request then stands still.
        let weak = Rc::downgrade(inner_rc);
        let watch = crate::after(ms.ceil() as i32, move || {
            if let Some(inner) = weak.upgrade() {
                let failure = flush(&inner);
                Client { inner }.report(failure);
            }
        });
        inner_rc.borrow_mut().watch = watch;
        return None;
    }
    if busy || !live {
        if let Some(failure) = start(inner_rc) {
            return Some(failure);
        }
    }
    post(&mut inner_rc.borrow_mut(), Slot::First)
}

/// What becomes of the first worker's run when a newer request comes while it is busy.
#[derive(Debug, Clone, Copy, PartialEq)]
enum BusyRun {
    /// Left to finish, for at most `left_ms` more.
    Finish { left_ms: f64 },
    /// Stopped once the newest request has stood still for `in_ms` more.
    StopWhenStill { in_ms: f64 },
    /// Stopped: a fresh worker takes the newer request.
    Stop,
}

/// What becomes of a busy run, `running_ms` after it was posted, with the newest request
/// `still_ms` old. It is left to finish unless the client's last run took longer than
/// `SUPERSEDE_AFTER_MS`, or this one has run that long. A client that has not finished a run
/// yet does not know it is slow: its first run (on a fresh worker, before V8 has optimised the
/// simulator) is left to finish too, for a run stopped at each frame of a drag would start a
/// worker a frame and show nothing until the drag ends. A slow run is stopped once the newest
/// request has stood still for [`PAUSE_MS`] (the drag has paused), for the same reason: the
/// newest value then runs on a fresh worker, and the helper shows what it can meanwhile.
fn on_busy(last_took_ms: Option<f64>, running_ms: f64, still_ms: f64) -> BusyRun {
    let left_ms = SUPERSEDE_AFTER_MS - running_ms;
    let quick = last_took_ms.is_none_or(|ms| ms <= SUPERSEDE_AFTER_MS);
    if quick && left_ms > 0.0 {
        BusyRun::Finish { left_ms }
    } else if still_ms < PAUSE_MS {
        BusyRun::StopWhenStill {
            in_ms: PAUSE_MS - still_ms,
        }
    } else {
        BusyRun::Stop
    }
}

/// Posts the pending request to the worker in `slot` if it is ready and free. The first
/// worker's failure to take it is reported; the helper's is not missed, as the helper goes and
/// the first worker takes the request when it is free.
fn post(inner: &mut Inner, slot: Slot) -> Option<(String, Outcome)> {
    if !inner.worker(slot).is_some_and(Worker::free) {
        return None;
    }
    let id = inner.pending.take()?;
    let request = match request_bytes(inner, id) {
        Ok(bytes) => bytes,
        Err(e) => return Some((inner.latest_query.clone(), Outcome::Error(e))),
    };
    let now = crate::now_ms();
    let marks = inner.role.marks();
    let worker = inner.worker_mut(slot)?;
    match worker.live.post(&request) {
        Ok(()) => {
            worker.busy = Some(id);
            worker.posted_at = now;
            mark(marks.0);
            None
        }
        Err(e) => match slot {
            Slot::First => Some((
                inner.latest_query.clone(),
                Outcome::Error(format!("the simulator could not be asked: {}", describe(e))),
            )),
            Slot::Helper => {
                inner.helper = None;
                inner.pending = Some(id);
                None
            }
        },
    }
}

impl Inner {
    fn worker(&self, slot: Slot) -> Option<&Worker> {
        match slot {
            Slot::First => self.first.as_ref(),
            Slot::Helper => self.helper.as_ref(),
        }
    }

    fn worker_mut(&mut self, slot: Slot) -> Option<&mut Worker> {
        match slot {
            Slot::First => self.first.as_mut(),
            Slot::Helper => self.helper.as_mut(),
        }
    }

    /// The request the first worker is running.
    fn busy(&self) -> Option<u64> {
        self.first.as_ref().and_then(|w| w.busy)
    }
}

/// The newest request, `id`, as the worker reads it.
fn request_bytes(inner: &Inner, id: u64) -> Result<Vec<u8>, String> {
    encode_request(&Request {
        id,
        query: inner.latest_query.clone(),
        want: inner.latest_want.clone(),
        trace: crate::model::link_trace::for_query(&inner.latest_query),
    })
}

/// Starts `script` as the client's worker in `slot`, or takes on `early`, the HTML's worker:
/// its messages and its failure come back to the client, named by the slot.
fn spawn(
    inner_rc: &Rc<RefCell<Inner>>,
    script: &str,
    slot: Slot,
    early: Option<super::early::Early>,
) -> Result<Live, JsValue> {
    let on_message = move |inner: &_, data| report(inner, received(inner, data, slot));
    let on_error = move |inner: &_, message| report(inner, slot_failed(inner, slot, message));
    match early {
        Some(early) => Ok(Live::adopt_for(early, inner_rc, on_message, on_error)),
        None => Live::start_for(script, inner_rc, on_message, on_error),
    }
}

/// A worker failed, or sent what cannot be read.
fn slot_failed(
    inner_rc: &Rc<RefCell<Inner>>,
    slot: Slot,
    message: String,
) -> Option<(String, Outcome)> {
    match slot {
        Slot::First => failed(inner_rc, message),
        Slot::Helper => helper_failed(inner_rc),
    }
}

/// Starts the helper. A helper that cannot start is not missed: the first worker takes the
/// request when it is free.
fn start_helper(inner_rc: &Rc<RefCell<Inner>>) {
    let mut inner = inner_rc.borrow_mut();
    if let Ok(live) = spawn(inner_rc, &inner.script, Slot::Helper, None) {
        inner.helper = Some(Worker::new(live));
    }
}

/// The helper failed: it goes, and the request it had, if still the newest, waits for the
/// first worker.
fn helper_failed(inner_rc: &Rc<RefCell<Inner>>) -> Option<(String, Outcome)> {
    let mut inner = inner_rc.borrow_mut();
    let had = inner.helper.take().and_then(|h| h.busy);
    if had.is_some() && had == Some(inner.latest) && inner.pending.is_none() {
        inner.pending = had;
    }
    post(&mut inner, Slot::First)
}

/// Which of the client's workers a message came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    First,
    Helper,
}

/// A message from a worker.
fn received(inner_rc: &Rc<RefCell<Inner>>, data: JsValue, slot: Slot) -> Option<(String, Outcome)> {
    mark(inner_rc.borrow().role.marks().1);
    let (mut reply, beside) = match read_reply(data) {
        Ok(read) => read,
        Err(e) => return slot_failed(inner_rc, slot, e),
    };
    let mut inner = inner_rc.borrow_mut();
    if reply.ready {
        if let Some(w) = inner.worker_mut(slot) {
            w.ready = true;
        }
        return post(&mut inner, slot);
    }
    let Some(id) = reply.id else {
        drop(inner);
        return slot_failed(
            inner_rc,
            slot,
            reply
                .error
                .unwrap_or_else(|| "the simulator sent an empty answer".to_string()),
        );
    };
    let now = crate::now_ms();
    if let Some(w) = inner.worker_mut(slot).filter(|w| w.busy == Some(id)) {
        w.busy = None;
        let took = now - w.posted_at;
        inner.last_took = Some(took);
        if slot == Slot::First {
            // Finished in time: nothing to stop.
            inner.watch = None;
        }
    }
    // A newer request may be waiting for this worker to be free.
    let next = post(&mut inner, slot);
    // An older request's view is still newer than the one on show: shown while the newest runs.
    let newer_view = reply.packed == Some(Packed::View) && id > inner.shown && next.is_none();
    if id != inner.latest && !newer_view {
        return next;
    }
    if reply.packed == Some(Packed::View) {
        inner.shown = id;
    }
    // Only now, for a reply that is shown, are the view's or the steps' bytes read.
    let file = unpack_beside(&mut reply, beside);
    if file.is_some() {
        reply.error = Some("the simulator sent a file this page did not ask for".into());
    }
    match reply.packed {
        Some(Packed::View) => mark("tcplab-view"),
        Some(Packed::Steps) => mark("tcplab-steps"),
        _ => {}
    }
    let outcome = match (reply.view, reply.steps, reply.error) {
        (Some(view), _, _) => Outcome::View(Rc::new(view)),
        (None, Some(steps), _) => Outcome::Steps(Rc::new(steps)),
        (None, None, Some(error)) => Outcome::Error(error),
        (None, None, None) => Outcome::Error("the simulator sent an empty answer".to_string()),
    };
    Some((inner.latest_query.clone(), outcome))
}

/// The worker failed: report it for the newest request if that was the one it had (or it
/// never came up), and start a fresh worker for a waiting request if this one had been working.
/// A worker that fails before it is ready is not restarted here: the next request tries again,
/// so a script that does not load costs one attempt per change, not a loop.
fn failed(inner_rc: &Rc<RefCell<Inner>>, message: String) -> Option<(String, Outcome)> {
    let (had_newest, was_ready, query, waiting) = {
        let mut inner = inner_rc.borrow_mut();
        let gone = inner.first.take();
        let was_ready = gone.as_ref().is_some_and(|w| w.ready);
        let had_newest = gone.and_then(|w| w.busy) == Some(inner.latest) || !was_ready;
        (
            had_newest,
            was_ready,
            inner.latest_query.clone(),
            inner.pending.is_some(),
        )
    };
    if waiting && was_ready && !had_newest {
        return start(inner_rc);
    }
    if !was_ready {
        // The request waits for the next change.
        inner_rc.borrow_mut().pending = None;
    }
    had_newest.then(|| {
        (
            query,
            Outcome::Error(format!("the simulator failed: {message}")),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_clients_busy_run_is_left_to_finish_until_the_limit() {
        assert_eq!(
            on_busy(Some(40.0), 0.0, 0.0),
            BusyRun::Finish { left_ms: 1_000.0 }
        );
        assert_eq!(
            on_busy(Some(40.0), 250.0, 0.0),
            BusyRun::Finish { left_ms: 750.0 }
        );
        assert_eq!(
            on_busy(Some(1_000.0), 999.0, 500.0),
            BusyRun::Finish { left_ms: 1.0 }
        );
        assert_eq!(on_busy(Some(40.0), 1_000.0, 100.0), BusyRun::Stop);
    }

    #[test]
    fn a_slow_run_is_stopped_once_the_newest_request_stands_still() {
        assert_eq!(on_busy(Some(1_000.5), 0.0, 100.0), BusyRun::Stop);
        assert_eq!(on_busy(Some(3_000.0), 16.0, 250.0), BusyRun::Stop);
        // A drag: a value a frame, each a few ms old when the frame sends it.
        assert_eq!(
            on_busy(Some(3_000.0), 16.0, 4.0),
            BusyRun::StopWhenStill { in_ms: 96.0 }
        );
        assert_eq!(
            on_busy(Some(40.0), 1_500.0, 60.0),
            BusyRun::StopWhenStill { in_ms: 40.0 }
        );
    }

    #[test]
    fn a_first_run_is_left_to_finish_as_a_quick_one_is() {
        assert_eq!(on_busy(None, 16.7, 0.0), BusyRun::Finish { left_ms: 983.3 });
        assert_eq!(on_busy(None, 1_200.0, 500.0), BusyRun::Stop);
    }
}
