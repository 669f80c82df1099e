//! Every congestion controller under random sequences of ACKs, losses and timeouts keeps the
//! invariants the sender relies on: a window of at least one packet, a finite positive pacing
//! rate where it paces, and an ssthresh never below two packets (Linux's floor in
//! `tcp_reno_ssthresh` and `cubictcp_recalc_ssthresh`; BBR leaves it unbounded or sets it to a
//! target of at least its minimum window).

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use tcplab::cc::{
    new_controller, AckEvent, CcOptions, LossEvent, RateSample, Window, MIN_SSTHRESH,
};
use tcplab::time::{Duration, Instant};
use tcplab::CcAlgo;

#[derive(Debug, Clone)]
enum Event {
    Ack {
        dt_us: u64,
        acked: u32,
        sacked: u32,
        lost: u32,
        rtt_us: Option<u64>,
        in_flight: u32,
        recovering: bool,
        limited: bool,
        rate_pkts: u32,
    },
    EnterRecovery,
    Timeout {
        first: bool,
    },
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        8 => (
            0u64..200_000,
            0u32..64,
            0u32..8,
            0u32..4,
            proptest::option::of(1u64..2_000_000),
            0u32..5_000,
            any::<bool>(),
            any::<bool>(),
            0u32..10_000,
        )
            .prop_map(
                |(dt_us, acked, sacked, lost, rtt_us, in_flight, recovering, limited, rate_pkts)| {
                    Event::Ack {
                        dt_us,
                        acked,
                        sacked,
                        lost,
                        rtt_us,
                        in_flight,
                        recovering,
                        limited,
                        rate_pkts,
                    }
                }
            ),
        1 => Just(Event::EnterRecovery),
        1 => any::<bool>().prop_map(|first| Event::Timeout { first }),
    ]
}

#[test]
fn each_controller_is_the_algorithm_asked_for() {
    for algo in CcAlgo::ALL {
        for hystart in [false, true] {
            let cc = new_controller(algo, CcOptions { hystart, seed: 7 });
            assert_eq!(cc.algo(), algo);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn controllers_keep_their_invariants(
        algo in prop_oneof![Just(CcAlgo::Reno), Just(CcAlgo::Cubic), Just(CcAlgo::Bbr)],
        hystart in any::<bool>(),
        iw in 1u32..100,
        mss in 100u32..9_000,
        events in proptest::collection::vec(event(), 1..300),
    ) {
        let mut cc = new_controller(algo, CcOptions { hystart, seed: 7 });
        let mut w = Window::new(iw, mss);
        let mut now = Instant::ZERO;
        let (mut delivered, mut una, mut total_lost) = (0u64, 0u64, 0u64);
        for e in events {
            match e {
                Event::Ack { dt_us, acked, sacked, lost, rtt_us, in_flight, recovering, limited, rate_pkts } => {
                    now += Duration::from_micros(dt_us);
                    let prior = delivered;
                    delivered += u64::from(acked + sacked);
                    total_lost += u64::from(lost);
                    una += u64::from(acked) * u64::from(mss);
                    let rtt = rtt_us.map(Duration::from_micros);
                    let ack = AckEvent {
                        sacked,
                        lost,
                        total_lost,
                        rtt,
                        min_rtt: rtt,
                        in_flight,
                        cwnd_limited: limited,
                        in_recovery: recovering,
                        in_cwr: false,
                        delivered,
                        snd_una: una,
                        snd_nxt: una + u64::from(in_flight) * u64::from(mss),
                        srtt: rtt,
                        rate: rtt_us.map(|interval_us| RateSample {
                            delivered: rate_pkts,
                            interval_us,
                            app_limited: !limited,
                            prior_delivered: prior,
                        }),
                        ..AckEvent::plain(now, acked)
                    };
                    cc.on_ack(&mut w, &ack);
                }
                Event::EnterRecovery => {
                    let loss = LossEvent { now, flight_size: u64::from(w.cwnd) * u64::from(mss), total_lost, snd_nxt: una + u64::from(w.cwnd) * u64::from(mss) };
                    cc.on_enter_recovery(&mut w, &loss);
                }
                Event::Timeout { first } => {
                    let loss = LossEvent { now, flight_size: u64::from(w.cwnd) * u64::from(mss), total_lost, snd_nxt: una + u64::from(w.cwnd) * u64::from(mss) };
                    cc.on_rto(&mut w, &loss, first);
                    // As the sender does (`tcp_enter_loss`).
                    w.cwnd = 1;
                }
            }
            prop_assert!(w.cwnd >= 1, "{}: cwnd {}", cc.algo().name(), w.cwnd);
            prop_assert!(w.ssthresh >= MIN_SSTHRESH, "{}: ssthresh {}", cc.algo().name(), w.ssthresh);
            if let Some(rate) = cc.pacing_rate() {
                prop_assert!(rate.is_finite() && rate > 0.0, "{}: pacing {rate}", cc.algo().name());
            }
        }
    }
}
