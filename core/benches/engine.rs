//! Simulator speed: engine events per second on a 1 Gbit/s bulk flow, the default scenario end
//! to end, ten seconds of a 1 Gbit/s flow, the hostile links of many holes, and the queue
//! disciplines against the drop-tail FIFO. Figures and how to read them: docs/performance.md.
//!
//! `cargo bench -p tcplab --bench engine`

use criterion::{criterion_group, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use tcplab::{run, RunOptions, Scenario};

/// Has glibc keep the memory a run frees for the next run, as the page's worker does (WebAssembly's
/// memory never shrinks). By default glibc maps a block as large as a traced run's rows on its
/// own and trims the heap's top, handing the memory back to the kernel when the run ends, so
/// every iteration wrote its rows into pages the kernel had to fault in and zero again: a
/// traced lossy run took 45 % longer than the same run reusing its memory, with the same
/// instructions (docs/performance.md, "The allocator").
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // glibc's largest mapping threshold (`HEAP_MAX_SIZE / 2` on 64-bit): blocks below it
        // come from the heap, and a threshold set by hand is one glibc no longer moves.
        const MMAP_THRESHOLD: libc::c_int = 32 << 20;
        const TRIM_THRESHOLD: libc::c_int = 1 << 30;
        // SAFETY: `mallopt` only sets the allocator's parameters; it is called before the
        // benchmark allocates from other threads.
        let set = unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
                && libc::mallopt(libc::M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
        };
        assert!(set, "glibc refused the allocator's parameters");
    }
}

fn scenario(q: &str) -> Scenario {
    Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"))
}

/// Each query's whole run under `options`, its throughput in engine events.
fn runs_in_events(
    c: &mut Criterion,
    name: &str,
    samples: usize,
    queries: &[&str],
    options: &RunOptions,
) {
    let mut group = c.benchmark_group(name);
    group.sample_size(samples);
    for q in queries {
        let s = scenario(q);
        let events = run(&s, options).summary.events;
        group.throughput(Throughput::Elements(events));
        group.bench_with_input(BenchmarkId::from_parameter(q), &s, |b, s| {
            b.iter(|| run(black_box(s), options))
        });
    }
    group.finish();
}

/// The runs the charts draw (traces kept), and the same runs as a sweep's points and the
/// runner's `run` make them, for their summary alone.
fn events_per_second(c: &mut Criterion) {
    let queries = [
        "app=bulk&dur=1",
        "app=bulk&dur=1&loss=0.1",
        "app=bulk&dur=1&flows=8",
    ];
    runs_in_events(c, "events", 100, &queries, &RunOptions::default());
    runs_in_events(
        c,
        "events, summary only",
        100,
        &queries,
        &RunOptions::summary_only(),
    );
}

fn scenarios(c: &mut Criterion) {
    let mut group = c.benchmark_group("scenario");
    let s = scenario("preset=post-slow-start");
    group.bench_function("post-slow-start", |b| {
        b.iter(|| run(black_box(&s), &RunOptions::default()))
    });
    group.sample_size(10);
    let s = scenario("app=bulk&dur=10");
    group.bench_function("bulk 1 Gbit/s 10 s", |b| {
        b.iter(|| run(black_box(&s), &RunOptions::default()))
    });
    group.finish();
}

/// The hostile links of many holes (a huge window under random loss), each cut at a budget of
/// 2 million: their cost per event is a logarithm of the holes, and the budget counts the rest.
fn holes(c: &mut Criterion) {
    let mut group = c.benchmark_group("holes");
    group.sample_size(10);
    let options = RunOptions {
        max_events: 2_000_000,
        ..RunOptions::default()
    };
    for q in [
        "cc=bbr&app=bulk&dur=600&rtt=200&rwnd=1073741824&loss=1",
        "cc=bbr&app=bulk&dur=600&bw=80&rtt=2000&mss=64&rwnd=1073741824&queue=1000&loss=1&iw=1000",
    ] {
        let s = scenario(q);
        let events = run(&s, &options).summary.events;
        group.throughput(Throughput::Elements(events));
        group.bench_with_input(BenchmarkId::from_parameter(q), &s, |b, s| {
            b.iter(|| run(black_box(s), &options))
        });
    }
    group.finish();
}

/// The queue disciplines on every packet: one 1 Gbit/s bulk flow under CoDel against the FIFO,
/// and 64 flows under FQ-CoDel against the FIFO, each a second of simulated time. Throughput is
/// in engine events, so a run's time and its time per event can both be read (a managed
/// bottleneck adds its link's own event per packet).
fn queues(c: &mut Criterion) {
    let queries = [
        "app=bulk&dur=1",
        "app=bulk&dur=1&aqm=codel",
        "app=bulk&dur=1&aqm=codel&ecn=1",
        "app=bulk&dur=1&flows=64",
        "app=bulk&dur=1&flows=64&aqm=fq_codel",
    ];
    runs_in_events(c, "queues", 20, &queries, &RunOptions::default());
}

/// A capture: a run with its pcap written as it goes beside the same run without, and the
/// analysis of that file, per packet.
fn captures(c: &mut Criterion) {
    let mut group = c.benchmark_group("capture");
    group.sample_size(10);
    let s = scenario("rtt=20&bw=100&loss=0.1&app=bulk&dur=5");
    let with = RunOptions {
        capture: Some(tcplab::capture::CaptureOptions::default()),
        ..RunOptions::default()
    };
    let file = run(&s, &with).capture.map(|c| c.bytes).unwrap_or_default();
    let packets =
        tcplab::capture::read::read_frames(&file, &mut |_| {}).map_or(0, |f| f.frames.len() as u64);
    group.throughput(Throughput::Elements(packets));
    group.bench_function("run without a capture", |b| {
        b.iter(|| run(black_box(&s), &RunOptions::default()))
    });
    group.bench_function("run writing its pcap", |b| {
        b.iter(|| run(black_box(&s), &with))
    });
    group.bench_function("analyze the pcap", |b| {
        b.iter(|| {
            let f = tcplab::capture::analyze::CaptureFile::read(black_box(&file), &mut |_| {});
            f.map(|f| f.analyze(f.largest()).map(|a| a.rtt_ms))
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    events_per_second,
    scenarios,
    holes,
    queues,
    captures
);
// `criterion_main!`, with the allocator set first.
fn main() {
    keep_freed_memory();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
