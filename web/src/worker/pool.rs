//! A pool of Web Workers for many independent runs: a sweep's points, the scenarios of a
//! comparison, a trace to export. The lab's own run keeps its single worker ([`super::client`]).
//!
//! - [`pool_size`] workers at most: one per core the browser reports, capped at
//!   [`MAX_WORKERS`], started only when there is work for them.
//! - A batch is a list of jobs; each job's end is reported as it arrives, tagged with its batch
//!   and its index, so results stream into the page in whatever order the workers finish.
//! - A new batch replaces the running one: the workers busy with it are terminated (a run in
//!   WebAssembly cannot be interrupted), idle ones are kept.
//! - [`Pool::cancel`] terminates every worker at once; the next batch starts fresh ones.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use tcplab::view::RunView;
use tcplab::Summary;
use wasm_bindgen::JsValue;
use yew::Callback;

use super::live::{read_reply, unpack_beside, Live};
use super::mark;
use super::protocol::{encode_request, PcapInfo, Reply, Request, Want};
use super::sealed::Sealed;
use crate::location::describe;
use tcplab::diagnose::Explanation;

/// The most workers a pool runs. Each holds the simulator's memory (a few MB, up to tens for a
/// long many-flow run) and a core; past four, a laptop's fans and the page's own thread suffer
/// more than a sweep gains.
pub const MAX_WORKERS: usize = 4;

/// Workers for this browser: `navigator.hardwareConcurrency`, between 1 and [`MAX_WORKERS`].
pub fn pool_size() -> usize {
    let cores = crate::window().map_or(1.0, |w| w.navigator().hardware_concurrency());
    size_for(cores)
}

/// The pool's size for a reported core count (which may be missing, zero or absurd).
pub fn size_for(cores: f64) -> usize {
    if cores.is_finite() && cores >= 1.0 {
        (cores as usize).min(MAX_WORKERS)
    } else {
        1
    }
}

/// One run to do.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub query: String,
    pub want: Want,
}

/// What one job gave.
#[derive(Debug, Clone, PartialEq)]
pub enum Done {
    Summary(Rc<Summary>),
    View(Rc<RunView>),
    Csv(Rc<str>),
    /// A capture file of the run, and what it holds.
    Pcap(Rc<[u8]>, PcapInfo),
    /// Read by the diagnosis, which alone shows it ([`Sealed`]).
    Explanation(Rc<Sealed<Explanation>>),
    /// The scenario was refused, or the worker failed.
    Error(String),
}

/// A job's end: the batch it belongs to and its index there.
#[derive(Debug, Clone, PartialEq)]
pub struct Finished {
    pub batch: u64,
    pub index: usize,
    pub done: Done,
}

/// The page's handle on its pool. Cloning shares it.
#[derive(Clone)]
pub struct Pool {
    inner: Rc<RefCell<Inner>>,
}

impl PartialEq for Pool {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.inner, &other.inner)
    }
}

struct Slot {
    /// Names the slot in its worker's handlers.
    key: u64,
    live: Live,
    ready: bool,
    /// The request id and job index the worker is running.
    busy: Option<(u64, usize)>,
}

struct Inner {
    script: String,
    size: usize,
    slots: Vec<Slot>,
    jobs: Vec<Job>,
    /// Indices of the jobs not yet posted.
    queue: VecDeque<usize>,
    batch: u64,
    next_key: u64,
    next_request: u64,
    on_done: Callback<Finished>,
    /// Workers started so far.
    started: u32,
}

impl Pool {
    /// A pool of `size` workers at most (see [`pool_size`]) running `script`, reporting each
    /// job's end to `on_done`. No worker starts before the first batch.
    pub fn new(script: &str, size: usize, on_done: Callback<Finished>) -> Pool {
        Pool {
            inner: Rc::new(RefCell::new(Inner {
                script: script.to_string(),
                size: size.max(1),
                slots: Vec::new(),
                jobs: Vec::new(),
                queue: VecDeque::new(),
                batch: 0,
                next_key: 0,
                next_request: 0,
                on_done,
                started: 0,
            })),
        }
    }

    /// Starts a batch, replacing the one running; returns its number.
    pub fn run(&self, jobs: Vec<Job>) -> u64 {
        let batch = {
            let mut inner = self.inner.borrow_mut();
            // Idle workers are kept; busy ones are working for the old batch.
            inner.slots.retain(|s| s.busy.is_none());
            inner.batch += 1;
            inner.queue = (0..jobs.len()).collect();
            inner.jobs = jobs;
            inner.batch
        };
        let failures = fill(&self.inner);
        self.report(failures);
        batch
    }

    /// Stops everything: every worker is terminated at once and the queue is dropped.
    pub fn cancel(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.slots.clear();
        inner.queue.clear();
        inner.jobs.clear();
        inner.batch += 1;
        mark("tcplab-pool-cancel");
    }

    /// Workers alive now.
    pub fn live(&self) -> usize {
        self.inner.borrow().slots.len()
    }

    /// Workers started so far.
    pub fn started(&self) -> u32 {
        self.inner.borrow().started
    }

    /// The most workers this pool runs.
    pub fn size(&self) -> usize {
        self.inner.borrow().size
    }

    fn report(&self, finished: Vec<Finished>) {
        report(&self.inner, finished);
    }
}

/// Posts queued jobs to idle workers and starts the workers the rest need.
fn fill(inner_rc: &Rc<RefCell<Inner>>) -> Vec<Finished> {
    let mut failures = Vec::new();
    {
        let mut inner = inner_rc.borrow_mut();
        while let Some(&index) = inner.queue.front() {
            let Some(slot) = inner.slots.iter().position(|s| s.ready && s.busy.is_none()) else {
                break;
            };
            inner.queue.pop_front();
            if let Err(e) = post(&mut inner, slot, index) {
                let batch = inner.batch;
                inner.slots.remove(slot);
                failures.push(Finished {
                    batch,
                    index,
                    done: Done::Error(e),
                });
            }
        }
    }
    let wanted = {
        let inner = inner_rc.borrow();
        let coming = inner.slots.iter().filter(|s| !s.ready).count();
        let room = inner.size.saturating_sub(inner.slots.len());
        inner.queue.len().saturating_sub(coming).min(room)
    };
    for _ in 0..wanted {
        if let Err(e) = spawn(inner_rc) {
            // Without a worker the queue cannot move: every job waiting fails, once.
            let mut inner = inner_rc.borrow_mut();
            let batch = inner.batch;
            let waiting: Vec<usize> = inner.queue.drain(..).collect();
            failures.extend(waiting.into_iter().map(|index| Finished {
                batch,
                index,
                done: Done::Error(format!("the simulator could not start: {e}")),
            }));
            break;
        }
    }
    failures
}

fn post(inner: &mut Inner, slot: usize, index: usize) -> Result<(), String> {
    let id = inner.next_request;
    inner.next_request += 1;
    let job = inner.jobs.get(index).ok_or("no such job")?;
    let request = encode_request(&Request {
        id,
        query: job.query.clone(),
        want: job.want.clone(),
        trace: crate::model::link_trace::for_query(&job.query),
    })?;
    let s = inner.slots.get_mut(slot).ok_or("no such worker")?;
    s.live
        .post(&request)
        .map_err(|e| format!("the simulator could not be asked: {}", describe(e)))?;
    s.busy = Some((id, index));
    Ok(())
}

/// Hands finished runs to the page.
fn report(inner: &Rc<RefCell<Inner>>, finished: Vec<Finished>) {
    let callback = inner.borrow().on_done.clone();
    for f in finished {
        callback.emit(f);
    }
}

fn spawn(inner_rc: &Rc<RefCell<Inner>>) -> Result<(), String> {
    let mut inner = inner_rc.borrow_mut();
    let key = inner.next_key;
    let live = Live::start_for(
        &inner.script,
        inner_rc,
        move |inner, data| report(inner, received(inner, key, data)),
        move |inner, message| report(inner, failed(inner, key, message)),
    )
    .map_err(describe)?;
    inner.next_key += 1;
    inner.started += 1;
    inner.slots.push(Slot {
        key,
        live,
        ready: false,
        busy: None,
    });
    Ok(())
}

fn received(inner_rc: &Rc<RefCell<Inner>>, key: u64, data: JsValue) -> Vec<Finished> {
    let (mut reply, beside) = match read_reply(data) {
        Ok(read) => read,
        Err(e) => return failed(inner_rc, key, e),
    };
    let file = unpack_beside(&mut reply, beside);
    let mut out = Vec::new();
    {
        let mut inner = inner_rc.borrow_mut();
        let batch = inner.batch;
        let Some(slot) = inner.slots.iter_mut().find(|s| s.key == key) else {
            return out;
        };
        if reply.ready {
            slot.ready = true;
        } else if let Some((id, index)) = slot.busy {
            if reply.id == Some(id) {
                slot.busy = None;
                let done = match reply {
                    Reply {
                        summary: Some(s), ..
                    } => Done::Summary(Rc::new(s)),
                    Reply { pcap: Some(p), .. } => match file {
                        Some(bytes) => Done::Pcap(bytes.into(), p),
                        None => Done::Error("the capture file did not come".to_string()),
                    },
                    Reply {
                        explanation: Some(e),
                        ..
                    } => Done::Explanation(Rc::new(e)),
                    Reply { view: Some(v), .. } => Done::View(Rc::new(v)),
                    Reply { csv: Some(c), .. } => Done::Csv(c.into()),
                    Reply { error: Some(e), .. } => Done::Error(e),
                    _ => Done::Error("the simulator sent an empty answer".to_string()),
                };
                out.push(Finished { batch, index, done });
            }
        }
    }
    out.extend(fill(inner_rc));
    out
}

/// A worker failed: its job fails, and a fresh worker takes the queue on. One that fails
/// before it is ready (a script that does not load) fails the waiting jobs instead of being
/// started again and again.
fn failed(inner_rc: &Rc<RefCell<Inner>>, key: u64, message: String) -> Vec<Finished> {
    let mut out = Vec::new();
    {
        let mut inner = inner_rc.borrow_mut();
        let batch = inner.batch;
        let Some(pos) = inner.slots.iter().position(|s| s.key == key) else {
            return out;
        };
        let slot = inner.slots.remove(pos);
        let message = format!("the simulator failed: {message}");
        if let Some((_, index)) = slot.busy {
            out.push(Finished {
                batch,
                index,
                done: Done::Error(message.clone()),
            });
        }
        if !slot.ready {
            let waiting: Vec<usize> = inner.queue.drain(..).collect();
            out.extend(waiting.into_iter().map(|index| Finished {
                batch,
                index,
                done: Done::Error(message.clone()),
            }));
        }
    }
    out.extend(fill(inner_rc));
    out
}
