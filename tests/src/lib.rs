//! What the end-to-end tests stand on: the built page (`dist/`) served by a small static server
//! of our own on a free loopback port, and headless Chromium driven through chromedriver, both
//! stopped when a test ends, whatever its outcome.
//!
//! Nothing here reaches beyond 127.0.0.1: Chromium is told to resolve no other host.

use std::collections::hash_map::DefaultHasher;
use std::future::Future;
use std::hash::{Hash, Hasher};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Component, Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use tcplab::{RunOptions, Scenario};
use thirtyfour::prelude::*;
use thirtyfour::{ChromiumLikeCapabilities, LoggingPrefsLogLevel};

/// The repository's root (this crate lives in `tests/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(".."))
}

/// The release build of the page (`TCPLAB_E2E_DIST` names another, built with `trunk build
/// --dist`). A missing build is a failure, not a skip: a green run must mean the page was tested.
pub fn dist_dir() -> PathBuf {
    let dist = std::env::var_os("TCPLAB_E2E_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo_root().join("dist"));
    assert!(
        dist.join("index.html").is_file(),
        "{} has no index.html: build the page first with `trunk build --release` \
         (scripts/test.sh does it before running these tests)",
        dist.display()
    );
    dist
}

/// Where screenshots for people go: `target/e2e/`.
pub fn screenshot_dir() -> PathBuf {
    let dir = repo_root().join("target").join("e2e");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        panic!("cannot create {}: {e}", dir.display());
    }
    dir
}

/// A short fingerprint of a long string (a canvas's data URL), for messages and comparisons.
pub fn fingerprint(s: &str) -> u64 {
    let mut h = DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// How long a run may take to show: the longest preset takes about a second in the worker; two
/// cores shared with a build make it slower.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(30);

/// A headline card as the page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub id: String,
    /// The number as displayed (`11.6`, `1,713`, `—`).
    pub text: String,
    pub unit: String,
    /// The exact value behind it (`data-raw`), when there is one.
    pub raw: Option<f64>,
}

impl Card {
    /// The displayed number, read back (`1,235` -> 1235).
    pub fn shown(&self) -> Option<f64> {
        self.text.replace(',', "").parse().ok()
    }
}

// ----------------------------------------------------------------------------------------------
// The static server

/// Serves one folder over HTTP/1.1 on 127.0.0.1, with the content types a browser insists on
/// (`application/wasm` above all), and remembers every request: the paths it served, and the
/// requests it could not answer.
pub struct StaticServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    failures: Arc<Mutex<Vec<String>>>,
    served: Arc<Mutex<Vec<String>>>,
    refused: Arc<Mutex<Vec<String>>>,
}

impl StaticServer {
    pub fn start(root: PathBuf) -> io::Result<StaticServer> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let failures = Arc::new(Mutex::new(Vec::new()));
        let served = Arc::new(Mutex::new(Vec::new()));
        let refused = Arc::new(Mutex::new(Vec::new()));
        let (stop_flag, failed, done, refuse) = (
            stop.clone(),
            failures.clone(),
            served.clone(),
            refused.clone(),
        );
        let root = Arc::new(root);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop_flag.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let (root, failed, done) = (root.clone(), failed.clone(), done.clone());
                let refuse = refuse.clone();
                std::thread::spawn(move || {
                    let log = Log {
                        failures: &failed,
                        served: &done,
                        refused: &refuse,
                    };
                    match serve_one(stream, &root, &log) {
                        // The browser hung up before the answer was written: it cancels a
                        // request it no longer needs (a preload a navigation made moot), which
                        // asks for nothing that is missing.
                        Err(e) if hung_up(&e) => {}
                        Err(e) => lock(&failed).push(format!("connection error: {e}")),
                        Ok(()) => {}
                    }
                });
            }
        });
        Ok(StaticServer {
            addr,
            stop,
            failures,
            served,
            refused,
        })
    }

    /// `http://127.0.0.1:PORT/` followed by `path_and_query` (which starts after the slash).
    pub fn url(&self, path_and_query: &str) -> String {
        format!("http://{}/{}", self.addr, path_and_query)
    }

    /// Requests answered with an error status, e.g. `404 /favicon.ico`.
    pub fn failures(&self) -> Vec<String> {
        lock(&self.failures).clone()
    }

    /// The paths of the files served so far, in the order asked (`/tcplab-worker_bg.wasm`):
    /// what a page's workers fetch too, which the page's own resource timing does not list.
    pub fn served(&self) -> Vec<String> {
        lock(&self.served).clone()
    }

    /// Answers 404 from now on for every path that contains `part`, as a host missing a file
    /// would.
    pub fn refuse(&self, part: &str) {
        lock(&self.refused).push(part.to_string());
    }
}

impl Drop for StaticServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Whether the client closed the connection while it was being answered.
fn hung_up(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::BrokenPipe
            | io::ErrorKind::ConnectionReset
            | io::ErrorKind::ConnectionAborted
    )
}

/// What the server keeps of its requests, and the paths it is to refuse.
struct Log<'a> {
    failures: &'a Mutex<Vec<String>>,
    served: &'a Mutex<Vec<String>>,
    refused: &'a Mutex<Vec<String>>,
}

fn serve_one(stream: TcpStream, root: &Path, log: &Log) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    // The headers are read and dropped; nothing here depends on them.
    let mut header = String::new();
    while reader.read_line(&mut header)? > 2 {
        header.clear();
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    let path = target.split(['?', '#']).next().unwrap_or("/");

    let refused = lock(log.refused)
        .iter()
        .any(|part| path.contains(part.as_str()));
    let file = resolve(root, path).filter(|_| !refused);
    let mut out = stream;
    let (status, body, kind) = match (method, file) {
        ("GET" | "HEAD", Some(file)) => match std::fs::read(&file) {
            Ok(bytes) => ("200 OK", bytes, content_type(&file)),
            Err(_) => ("404 Not Found", b"not found".to_vec(), "text/plain"),
        },
        ("GET" | "HEAD", None) => ("404 Not Found", b"not found".to_vec(), "text/plain"),
        _ => ("405 Method Not Allowed", Vec::new(), "text/plain"),
    };
    if status.starts_with("200") {
        lock(log.served).push(path.to_string());
    } else {
        lock(log.failures).push(format!("{status}: {method} {target}"));
    }
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if method != "HEAD" {
        out.write_all(&body)?;
    }
    out.flush()?;
    // Drain what the client may still send so that closing does not reset the connection.
    let _ = out.shutdown(std::net::Shutdown::Write);
    let _ = reader.read_to_end(&mut Vec::new());
    Ok(())
}

/// The file for a URL path, refusing anything that would leave `root`.
fn resolve(root: &Path, url_path: &str) -> Option<PathBuf> {
    let relative = Path::new(url_path.trim_start_matches('/'));
    if relative
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let mut file = root.join(relative);
    if file.is_dir() {
        file = file.join("index.html");
    }
    file.is_file().then_some(file)
}

// ----------------------------------------------------------------------------------------------
// chromedriver and Chromium

fn free_port() -> io::Result<u16> {
    Ok(TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?
        .local_addr()?
        .port())
}

fn find_program(env: &str, candidates: &[&str]) -> PathBuf {
    if let Some(p) = std::env::var_os(env) {
        return PathBuf::from(p);
    }
    for c in candidates {
        let p = Path::new(c);
        if p.is_file() {
            return p.to_path_buf();
        }
    }
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        for c in candidates {
            if let Some(name) = Path::new(c).file_name() {
                let p = dir.join(name);
                if p.is_file() {
                    return p;
                }
            }
        }
    }
    panic!(
        "none of {candidates:?} found (set {env}): run scripts/test.sh, which installs \
         Debian's chromium and chromium-driver"
    );
}

/// A chromedriver of our own on a free loopback port, in its own process group so that the
/// browsers it starts go with it.
pub struct ChromeDriver {
    child: Child,
    port: u16,
}

impl ChromeDriver {
    pub fn start() -> io::Result<ChromeDriver> {
        let program = find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]);
        let log = std::fs::File::create(screenshot_dir().join("chromedriver.log"))?;
        let mut last_error = None;
        // The free port may be taken between the probe and chromedriver's bind: try again.
        for _ in 0..5 {
            let port = free_port()?;
            let child = Command::new(&program)
                .arg(format!("--port={port}"))
                .stdin(Stdio::null())
                .stdout(log.try_clone()?)
                .stderr(log.try_clone()?)
                .process_group(0)
                .spawn()?;
            let mut driver = ChromeDriver { child, port };
            match driver.wait_ready(Duration::from_secs(20)) {
                Ok(()) => return Ok(driver),
                Err(e) => last_error = Some(e),
            }
        }
        Err(last_error.unwrap_or_else(|| io::Error::other("chromedriver did not start")))
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn wait_ready(&mut self, within: Duration) -> io::Result<()> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait()? {
                return Err(io::Error::other(format!("chromedriver exited: {status}")));
            }
            if let Ok(mut s) = TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)) {
                let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
                let _ = write!(
                    s,
                    "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                );
                let mut answer = String::new();
                let _ = s.read_to_string(&mut answer);
                if answer.contains("\"ready\":true") || answer.contains("\"ready\": true") {
                    return Ok(());
                }
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(io::Error::other(
            "chromedriver did not answer /status in time",
        ))
    }
}

impl Drop for ChromeDriver {
    fn drop(&mut self) {
        // The negative id names the process group: chromedriver and any browser left behind.
        let _ = Command::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A browser profile that exists for one test.
struct Profile(PathBuf);

impl Profile {
    fn new() -> io::Result<Profile> {
        static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "tcplab-e2e-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::SeqCst)
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(Profile(dir))
    }
}

impl Drop for Profile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn capabilities(profile: &Path) -> WebDriverResult<thirtyfour::ChromeCapabilities> {
    let mut caps = DesiredCapabilities::chrome();
    let chromium = find_program("CHROMIUM", &["/usr/bin/chromium", "chromium"]);
    caps.set_binary(&chromium.to_string_lossy())?;
    for arg in [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,960",
        "--force-device-scale-factor=1",
        // The page benchmark reads the JS heap exactly, after a collection it asks for.
        "--enable-precise-memory-info",
        "--js-flags=--expose-gc",
        // Without this Chromium still looks up Google's hosts at start; only loopback exists here.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ] {
        caps.add_arg(arg)?;
    }
    caps.add_arg(&format!("--user-data-dir={}", profile.display()))?;
    // Lets the test read everything the page wrote to the console, and every uncaught error.
    caps.set_browser_log_level(LoggingPrefsLogLevel::All)?;
    Ok(caps)
}

// ----------------------------------------------------------------------------------------------
// A test's world

/// What [`Lab::drag_slider`] saw.
#[derive(Debug)]
pub struct Drag {
    pub frames: u32,
    /// Frames in which the charts in view showed a run they had not shown before.
    pub fresh: u32,
    /// How long the drag took.
    pub ms: f64,
    /// The workers the charts' client had started by the drag's end (`data-workers`).
    pub workers: String,
    /// The probe read before the drag, and after it.
    pub before: Value,
    pub after: Value,
}

/// The served page and a browser pointed at it.
pub struct Lab {
    pub driver: WebDriver,
    pub server: StaticServer,
    _chromedriver: ChromeDriver,
    _profile: Profile,
}

impl Lab {
    async fn start() -> Lab {
        let server = StaticServer::start(dist_dir()).expect("start the static server");
        let chromedriver = ChromeDriver::start().expect("start chromedriver");
        let profile = Profile::new().expect("create a browser profile");
        let caps = capabilities(&profile.0).expect("chrome capabilities");
        let driver = WebDriver::new(chromedriver.url(), caps)
            .await
            .expect("start headless Chromium through chromedriver");
        Lab {
            driver,
            server,
            _chromedriver: chromedriver,
            _profile: profile,
        }
    }

    /// Opens the page at `path_and_query` (e.g. `?iw=37`) and waits until its run is shown.
    pub async fn open(&self, path_and_query: &str) {
        // The document being left is marked, so that what follows waits for the new one: a
        // check that ran on the old page (its run done, its charts drawn) would pass at once.
        let _ = self
            .driver
            .execute("window.__tcplabLeaving = true; return null;", Vec::new())
            .await;
        self.driver
            .goto(self.server.url(path_and_query))
            .await
            .expect("load the page");
        let arrived = self
            .wait_for_script(
                RUN_TIMEOUT,
                "return String(window.__tcplabLeaving !== true);",
            )
            .await;
        assert!(
            arrived,
            "{path_and_query} never replaced the page before it"
        );
        self.reach().await;
        self.wait_for_run(RUN_TIMEOUT).await;
    }

    /// Waits until `script` returns `"true"`; whether it did by `within`.
    pub async fn wait_for_script(&self, within: Duration, script: &str) -> bool {
        self.wait_until(within, || async move {
            self.eval_string(script).await == "true"
        })
        .await
    }

    /// The reader's first gesture towards the page: on the default page, whose first screen
    /// stands without the page's module, it brings the module (scripts/on_intent.py); elsewhere
    /// it changes nothing. A key pressed with nothing focused.
    pub async fn reach(&self) {
        self.eval_string(
            "document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift', bubbles: true }));
             return '';",
        )
        .await;
    }

    /// Waits until the batch on show (a sweep, a matrix, a comparison) is done
    /// (`#progress[data-state=done]`, every run in), and fails the test if it is not by `within`.
    pub async fn wait_for_batch(&self, within: Duration) {
        let progress = "const p = document.getElementById('progress');
             return p ? [p.dataset.state, p.dataset.done, p.dataset.size, p.dataset.live].join(' ') : 'none';";
        let done = self
            .wait_until(within, || async move {
                self.eval_string(
                    "const p = document.getElementById('progress');
                     return p && p.dataset.state === 'done' && p.dataset.done === p.dataset.size ? 'yes' : 'no';",
                )
                .await
                    == "yes"
            })
            .await;
        let state = self.eval_string(progress).await;
        self.insist(
            done,
            &format!("the batch did not finish within {within:?}: {state}"),
        )
        .await;
    }

    /// Fails the test with `what` unless `ok`, naming the page's address and what its console
    /// said.
    async fn insist(&self, ok: bool, what: &str) {
        if !ok {
            panic!(
                "{what} at {}; console: {:?}",
                self.search().await,
                self.console().await
            );
        }
    }

    /// Polls `check` until it holds or `within` has passed; says whether it held.
    pub async fn wait_until<F, Fut>(&self, within: Duration, mut check: F) -> bool
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = bool>,
    {
        let deadline = Instant::now() + within;
        loop {
            if check().await {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Runs `script` in the page and returns its value as a string ("" for null).
    pub async fn eval_string(&self, script: &str) -> String {
        let ret = self
            .driver
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|e| panic!("script failed: {script}: {e}"));
        match ret.json() {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        }
    }

    /// Waits until the headline shows the run of the scenario on show (or its failure), and
    /// the charts, once they exist, have drawn it.
    pub async fn wait_for_run(&self, within: Duration) {
        // The first screen rendered when the page was built shows a run too, the page's own
        // only once it has mounted in its place.
        let mounted = self
            .wait_for_script(
                within,
                "return String(!document.getElementById('first-screen'));",
            )
            .await;
        self.insist(
            mounted,
            &format!("the page did not mount within {within:?}"),
        )
        .await;
        let shown = self
            .wait_until(
                within,
                || async move { self.run_state().await != "running" },
            )
            .await;
        self.insist(shown, &format!("no run was shown within {within:?}"))
            .await;
        let drawn = self
            .wait_until(within, || async move { self.charts_drawn().await })
            .await;
        assert!(
            drawn,
            "the charts did not draw {:?} within {within:?}",
            self.shown_query().await
        );
    }

    /// The headline's `data-state`: `running`, `done` or `failed` ("" before the page is up).
    pub async fn run_state(&self) -> String {
        self.eval_string(
            "const h = document.getElementById('headline');
             return h && h.dataset.query !== undefined ? h.dataset.state : (h ? 'running' : '');",
        )
        .await
    }

    /// The canonical query of the run the headline shows.
    pub async fn shown_query(&self) -> String {
        self.eval_string(
            "const h = document.getElementById('headline');
             return h && h.dataset.query !== undefined ? h.dataset.query : null;",
        )
        .await
    }

    /// The charts have drawn the run the headline shows (true while there are no charts).
    pub async fn charts_drawn(&self) -> bool {
        self.eval_string(
            "// The first screen rendered when the page was built stands in until the page's
             // module has mounted: its charts are images, not the page's.
             if (document.getElementById('first-screen')) return 'no';
             const c = document.querySelector('.charts');
             const h = document.getElementById('headline');
             if (!c || !h) return 'yes';
             // A chart whose module is still coming is not drawn.
             if (c.querySelector('[data-lazy]')) return 'no';
             // Not yet marked: drawn only if there is no chart to draw.
             if (c.dataset.drawn === undefined)
                 return c.querySelector('canvas.chart-base') ? 'no' : 'yes';
             return c.dataset.drawn === h.dataset.query ? 'yes' : 'no';",
        )
        .await
            == "yes"
    }

    /// How many canvases the charts have.
    pub async fn canvas_count(&self) -> usize {
        self.eval_string("return String(document.querySelectorAll('.charts canvas').length);")
            .await
            .parse()
            .unwrap_or(0)
    }

    /// A fingerprint of every chart's pixels.
    pub async fn canvas_fingerprint(&self) -> u64 {
        fingerprint(
            &self
                .eval_string(
                    "return Array.from(document.querySelectorAll('.charts canvas'))
                        .map(c => c.width + 'x' + c.height + c.toDataURL('image/png')).join('|');",
                )
                .await,
        )
    }

    /// Pixels of chart `kind`'s canvas painted in colour `rgb` over the white paper, whatever the
    /// anti-aliasing left of it: each channel the same mix of the colour and white, at least 30 %
    /// of the colour.
    pub async fn pixels_of(&self, kind: &str, rgb: (u8, u8, u8)) -> usize {
        let script = format!(
            "const c = document.querySelector('figure[data-chart=\"{kind}\"] canvas.chart-base');
             if (!c || !c.width) return '0';
             const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
             const want = [{r}, {g}, {b}];
             let n = 0;
             for (let i = 0; i < d.length; i += 4) {{
                 const a = [];
                 for (let k = 0; k < 3; k += 1) {{
                     if (255 - want[k] > 40) a.push((255 - d[i + k]) / (255 - want[k]));
                     else if (Math.abs(d[i + k] - want[k]) > 40) a.push(-1);
                 }}
                 if (a.length && Math.min(...a) >= 0.3 && Math.max(...a) - Math.min(...a) < 0.1) n += 1;
             }}
             return String(n);",
            r = rgb.0,
            g = rgb.1,
            b = rgb.2,
        );
        self.eval_string(&script).await.parse().unwrap_or(0)
    }

    /// Chooses `path` in the file input with this id, as a reader picking a file does: once the
    /// input is there, since a view behind a split point (the diagnosis) shows it only when its
    /// module has come.
    pub async fn choose_file(&self, id: &str, path: &std::path::Path) {
        let script = format!("return String(!!document.getElementById('{id}'));");
        self.wait_until(RUN_TIMEOUT, || {
            let script = script.clone();
            async move { self.eval_string(&script).await == "true" }
        })
        .await;
        let input = self
            .driver
            .find(thirtyfour::By::Id(id))
            .await
            .unwrap_or_else(|e| panic!("the file input #{id}: {e}"));
        input
            .send_keys(path.to_string_lossy().as_ref())
            .await
            .expect("choose the file");
    }

    /// The text of the element with this id ("" when there is none).
    pub async fn text_of(&self, id: &str) -> String {
        self.eval_string(&format!(
            "const e = document.getElementById('{id}'); return e ? e.textContent : '';"
        ))
        .await
    }

    /// The value of the input with this id ("" when there is none).
    pub async fn value_of(&self, id: &str) -> String {
        self.eval_string(&format!(
            "const e = document.getElementById('{id}'); return e ? e.value : '';"
        ))
        .await
    }

    /// The id of the element that has the focus (empty for none, or one without an id).
    pub async fn focused_id(&self) -> String {
        self.eval_string("return document.activeElement ? document.activeElement.id : '';")
            .await
    }

    /// `location.search` of the page, e.g. `?iw=11&lang=en`.
    pub async fn search(&self) -> String {
        self.eval_string("return location.search;").await
    }

    /// Waits until the address (`location.search`) passes `check`; says whether it did.
    pub async fn wait_for_search(&self, within: Duration, check: impl Fn(&str) -> bool) -> bool {
        let check = &check;
        self.wait_until(within, move || async move { check(&self.search().await) })
            .await
    }

    /// Presses `key` on whatever has the focus, as a keyboard does.
    pub async fn press(&self, key: Key) {
        self.driver
            .action_chain()
            .send_keys(key)
            .perform()
            .await
            .expect("press a key");
    }

    /// Clicks the element `by` finds; `what` names it in a failure.
    pub async fn click(&self, by: By, what: &str) {
        self.driver
            .find(by)
            .await
            .unwrap_or_else(|e| panic!("{what} is not on the page: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("click {what}: {e}"));
    }

    /// Drags the RTT slider (the bandwidth's where the RTT is a list per flow) one position a
    /// frame for `frames` animation frames, back and forth over twenty positions so that every
    /// value is a new run, as a mouse drag sends its input events. Counts the frames in which the
    /// charts in view showed a run they had not shown before (1.0 a frame: a new run drawn every
    /// frame) and times the drag: a page too busy to keep its frames at the display's rate
    /// stretches them, which flatters the count per frame. `probe`, a JavaScript expression, is
    /// read before the drag and after it.
    pub async fn drag_slider(&self, frames: u32, probe: &str) -> Drag {
        let script = format!(
            "const done = arguments[arguments.length - 1];
             const slider = id => {{ const e = document.getElementById(id);
                                     return e && e.type === 'range' ? e : null; }};
             const s = slider('rtt') || slider('bw');
             const c = () => document.querySelector('.charts');
             const probe = () => ({probe});
             const lo = Number(s.min), hi = Number(s.max), start = Number(s.value);
             let frame = 0, fresh = 0, last = c() ? c().dataset.shown : '';
             const before = probe(), began = performance.now();
             const tick = () => {{
                 const now = c() ? c().dataset.shown : '';
                 if (frame > 0 && now !== last) fresh += 1;
                 last = now;
                 if (frame === {frames}) {{
                     done(JSON.stringify({{ frames: frame, fresh, ms: performance.now() - began,
                         workers: document.getElementById('status').dataset.workers,
                         before, after: probe() }}));
                     return;
                 }}
                 frame += 1;
                 const v = start + ((frame % 40) < 20 ? frame % 20 : 20 - frame % 20) + 1;
                 s.value = String(Math.min(hi, Math.max(lo, v)));
                 s.dispatchEvent(new Event('input', {{ bubbles: true }}));
                 requestAnimationFrame(tick);
             }};
             requestAnimationFrame(tick);"
        );
        let ret = self
            .driver
            .execute_async(script, Vec::new())
            .await
            .expect("the drag");
        let json = ret.json().as_str().unwrap_or_default().to_string();
        let v: Value = serde_json::from_str(&json)
            .unwrap_or_else(|e| panic!("the drag's result {json:?}: {e}"));
        let count = |k: &str| v[k].as_u64().unwrap_or(0) as u32;
        Drag {
            frames: count("frames"),
            fresh: count("fresh"),
            ms: v["ms"].as_f64().unwrap_or(f64::NAN),
            workers: v["workers"].as_str().unwrap_or_default().to_string(),
            before: v["before"].clone(),
            after: v["after"].clone(),
        }
    }

    /// Moves a mouse over the time chart `kind` (its `data-chart`) to `(x, y)`, shares of its
    /// width and height from its top left: the chart's cursor layer takes the pointer.
    pub async fn point_at_chart(&self, kind: &str, (x, y): (f64, f64)) {
        self.eval_string(&format!(
            "const c = document.querySelector('.tl-chart-{kind} canvas.chart-cursor');
             const r = c.getBoundingClientRect();
             c.dispatchEvent(new PointerEvent('pointermove', {{ bubbles: true, pointerId: 1,
                 pointerType: 'mouse', clientX: r.left + r.width * {x}, clientY: r.top + r.height * {y} }}));
             return null;"
        ))
        .await;
    }

    /// Moves the range input `id` to `share` (0 to 1) of its length as a drag would: the value,
    /// then `input`, then `change` on release.
    pub async fn slide_to_share(&self, id: &str, share: f64) {
        self.eval_string(&format!(
            "const s = document.getElementById('{id}');
             s.value = String(Math.round(s.max * {share}));
             s.dispatchEvent(new Event('input', {{ bubbles: true }}));
             s.dispatchEvent(new Event('change', {{ bubbles: true }}));
             return null;"
        ))
        .await;
    }

    /// Opens the export menu, clicks `item` and returns the file it gave: its name and, for text,
    /// its content (for a PNG, its bytes as comma-separated numbers).
    pub async fn export(&self, item: &str, binary: bool) -> (String, String) {
        self.eval_string(&format!(
            "const l = document.getElementById('export-link'); if (l) l.removeAttribute('data-name');
             document.querySelector('#export > summary').click();
             document.getElementById('{item}').click(); return null;"
        ))
        .await;
        let saved = self
            .wait_until(RUN_TIMEOUT, || async move {
                !self
                    .eval_string(
                        "const l = document.getElementById('export-link');
                     return l && l.dataset.name ? l.dataset.name : '';",
                    )
                    .await
                    .is_empty()
            })
            .await;
        assert!(saved, "{item} saved nothing");
        let name = self
            .eval_string("return document.getElementById('export-link').dataset.name;")
            .await;
        let read = if binary {
            "return fetch(document.getElementById('export-link').href).then(r => r.arrayBuffer())
                 .then(b => Array.from(new Uint8Array(b)).join(','));"
        } else {
            "return fetch(document.getElementById('export-link').href).then(r => r.text());"
        };
        let content = self.eval_string(read).await;
        self.eval_string("document.querySelector('#export').open = false; return null;")
            .await;
        (name, content)
    }

    /// Types `text` into the input `id` and presses Enter, as a person would.
    pub async fn type_into(&self, id: &str, text: &str) {
        let input = self
            .driver
            .find(By::Id(id))
            .await
            .unwrap_or_else(|e| panic!("#{id}: {e}"));
        input.clear().await.expect("clear the box");
        input.send_keys(text).await.expect("type into the box");
        input.send_keys(Key::Enter).await.expect("press Enter");
    }

    /// Every headline card as shown: id -> (number text, unit, exact value), and the
    /// completion card's round trips as `card-completion-rtts`.
    pub async fn cards(&self) -> Vec<Card> {
        let json = self
            .eval_string(
                "const out = [];
                 for (const c of document.querySelectorAll('#headline .card')) {
                     const n = c.querySelector('.num');
                     const u = c.querySelector('.big .unit');
                     out.push({ id: c.id, text: n ? n.textContent : '', unit: u ? u.textContent : '',
                                raw: n ? n.dataset.raw : '' });
                     const r = c.querySelector('.num2');
                     if (r) out.push({ id: c.id + '-rtts', text: r.textContent, unit: 'RTT', raw: r.dataset.raw });
                 }
                 return JSON.stringify(out);",
            )
            .await;
        serde_json::from_str::<Vec<serde_json::Value>>(&json)
            .unwrap_or_default()
            .into_iter()
            .map(|v| Card {
                id: v["id"].as_str().unwrap_or("").to_string(),
                text: v["text"].as_str().unwrap_or("").to_string(),
                unit: v["unit"].as_str().unwrap_or("").to_string(),
                raw: v["raw"].as_str().and_then(|r| r.parse().ok()),
            })
            .collect()
    }

    /// Everything the browser logged since the last call (console calls, uncaught errors,
    /// failed loads), as `LEVEL message`.
    pub async fn console(&self) -> Vec<String> {
        match self.driver.browser_log().await {
            Ok(entries) => entries
                .into_iter()
                .map(|e| format!("{} {}", e.level, e.message))
                .collect(),
            Err(e) => vec![format!("SEVERE could not read the browser log: {e}")],
        }
    }

    /// Fails on any error the browser logged, or on any request the server could not answer,
    /// after checking that the log does catch errors at all (or the check would prove nothing).
    pub async fn assert_no_console_errors(&self) {
        let logged = self.console().await;
        let errors: Vec<&String> = logged.iter().filter(|l| l.starts_with("SEVERE")).collect();
        assert!(errors.is_empty(), "the browser logged errors: {errors:#?}");
        let failures = self.server.failures();
        assert!(
            failures.is_empty(),
            "the page asked for what is not there: {failures:#?}"
        );

        self.eval_string("console.error('tcplab-e2e probe'); return null;")
            .await;
        let probe = self.console().await;
        assert!(
            probe
                .iter()
                .any(|l| l.starts_with("SEVERE") && l.contains("tcplab-e2e probe")),
            "the browser log does not show console.error, so it cannot vouch for the page: {probe:?}"
        );
    }

    /// Resizes the browser's viewport to `width` x `height` CSS pixels: the window, less what
    /// headless Chromium still reserves for its (invisible) frame.
    pub async fn set_window(&self, width: u32, height: u32) {
        let mut size = (width, height);
        for _ in 0..3 {
            self.driver
                .set_window_rect(0, 0, size.0, size.1)
                .await
                .expect("resize the window");
            let inner = self
                .eval_string("return innerWidth + 'x' + innerHeight;")
                .await;
            let Some((w, h)) = inner
                .split_once('x')
                .and_then(|(w, h)| Some((w.parse::<u32>().ok()?, h.parse::<u32>().ok()?)))
            else {
                return;
            };
            if (w, h) == (width, height) {
                return;
            }
            size = (
                size.0 + width - w.min(width),
                size.1 + height - h.min(height),
            );
        }
    }

    /// Saves a screenshot as `target/e2e/NAME.png` and returns its path.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let path = screenshot_dir().join(format!("{name}.png"));
        self.driver
            .screenshot(&path)
            .await
            .expect("take a screenshot");
        path
    }

    async fn close(&self) {
        let _ = self.driver.clone().quit().await;
    }
}

// ----------------------------------------------------------------------------------------------
// The runner's numbers, to hold the page's to

/// The page's event budget (`tcplab_web::worker::PAGE_MAX_EVENTS`).
pub const PAGE_MAX_EVENTS: u64 = 20_000_000;

/// What the runner prints for `query` (`tcplab run 'QUERY'`), as JSON, and its verdict.
pub fn runner(query: &str) -> (Value, String) {
    let s = Scenario::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"));
    let options = RunOptions {
        max_events: PAGE_MAX_EVENTS,
        ..RunOptions::default()
    };
    let result = tcplab::run(&s, &options);
    let limit = tcplab::theory::verdict::verdict(&s, &result).limit;
    let limit = serde_json::to_value(limit)
        .ok()
        .and_then(|v| v.as_str().map(|l| l.replace('_', "-")))
        .unwrap_or_default();
    (
        serde_json::to_value(&result.summary).expect("the summary as JSON"),
        limit,
    )
}

/// The card `id` among `cards`.
pub fn card<'a>(cards: &'a [Card], id: &str) -> &'a Card {
    cards
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no card {id} in {cards:?}"))
}

/// `shown` is `exact` written to `digits` significant digits (half a unit of the last digit).
pub fn rounds_to(shown: f64, exact: f64, digits: i32) -> bool {
    if exact == 0.0 {
        return shown == 0.0;
    }
    let last = 10f64.powi(exact.abs().log10().floor() as i32 - (digits - 1));
    (shown - exact).abs() <= 0.5 * last.max(if exact.abs() >= 1.0 { 1.0 } else { 0.0 }) + 1e-9
}

/// The card shows the runner's `exact` value: `data-raw` to the bit, and the text rounded.
pub fn assert_card(c: &Card, exact: Option<f64>, what: &str) {
    match exact {
        None => assert_eq!(c.text, "—", "{what}: {c:?} for a null field"),
        Some(v) => {
            assert_eq!(c.raw, Some(v), "{what}: the page's exact value differs");
            let (shown, scale, digits) = match c.unit.as_str() {
                "s" => (c.shown(), 1000.0, 3),
                "ms" => (c.shown(), 1.0, 4),
                "kB/s" => (c.shown(), 0.001, 3),
                "µs" => (c.shown(), 0.001, 3),
                _ => (c.shown(), 1.0, 3),
            };
            let shown = shown.unwrap_or_else(|| panic!("{what}: {c:?} is not a number"));
            assert!(
                rounds_to(shown * scale, v, digits),
                "{what}: {} {} is not {v} rounded",
                c.text,
                c.unit
            );
        }
    }
}

/// Holds every card of the page to the runner's JSON for `query`.
pub async fn assert_cards_match_runner(lab: &Lab, query: &str) {
    let (json, limit) = runner(query);
    let cards = lab.cards().await;
    let f = |k: &str| json[k].as_f64();
    assert_card(card(&cards, "card-goodput"), f("goodput_MBps"), "goodput");
    assert_card(
        card(&cards, "card-completion"),
        f("completion_ms"),
        "completion",
    );
    if let Some(rtts) = f("completion_rtts") {
        assert_card(
            card(&cards, "card-completion-rtts"),
            Some(rtts),
            "completion RTTs",
        );
    }
    assert_card(
        card(&cards, "card-retrans"),
        f("retrans_bytes_pct"),
        "retransmitted",
    );
    // Mathis describes a sender that always has data (a bulk flow, or a body until it is done),
    // held by random loss past slow start: the card shows the ratio only for such a run, as the
    // verdict cites the rate (cards.rs, `mathis_not_applicable`).
    let always_has_data = tcplab::Scenario::parse(query).is_ok_and(|s| s.app != tcplab::App::Msgs);
    let lost_at_random = json["dropped_data"].as_u64().unwrap_or(0) > 0;
    let applies =
        always_has_data && lost_at_random && limit != "receive-window" && limit != "slow-start";
    let ratio = match (f("goodput_MBps"), f("mathis_MBps")) {
        (Some(g), Some(m)) if m > 0.0 && applies => Some(g / m),
        _ => None,
    };
    assert_card(card(&cards, "card-mathis"), ratio, "measured / Mathis");
    // Message latency has its card with the message workload only.
    let msgs = tcplab::Scenario::parse(query).is_ok_and(|s| s.app == tcplab::App::Msgs);
    if msgs {
        assert_card(
            card(&cards, "card-p99"),
            json["msgs"]["p99_ms"].as_f64(),
            "p99 latency",
        );
    } else {
        assert!(cards.iter().all(|c| c.id != "card-p99"), "{cards:?}");
    }
    // Latency under load: the probe's p99 where a probe runs, else the queue's wait.
    let latency = json["probe"]["p99_ms"]
        .as_f64()
        .or(json["queue_delay_ms"]["p99"].as_f64());
    assert_card(card(&cards, "card-latency"), latency, "latency under load");
    let shown_limit = lab
        .eval_string("return document.getElementById('verdict').dataset.limit;")
        .await;
    assert_eq!(shown_limit, limit, "the verdict of {query:?}");
}

/// One browser at a time: on two cores, parallel Chromiums only make each test slower and
/// its timeouts likelier.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Runs `test` against a fresh browser and server, and stops both whatever the outcome; a
/// failed assertion inside `test` fails the test after the clean-up.
pub async fn with_lab<F, Fut>(test: F)
where
    F: FnOnce(Arc<Lab>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let _turn = ONE_AT_A_TIME.lock().await;
    let lab = Arc::new(Lab::start().await);
    let outcome = tokio::spawn(test(lab.clone())).await;
    lab.close().await;
    if let Err(e) = outcome {
        match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(e) => panic!("the test did not finish: {e}"),
        }
    }
}
