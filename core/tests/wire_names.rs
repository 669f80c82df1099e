//! The names the enums that cross the worker and the runner's JSON are written with: the spec's
//! and the page's, byte for byte, though the values are typed now.

use tcplab::cc::bbr::BbrMode;
use tcplab::link::DropCause;
use tcplab::sim::Stop;
use tcplab::{Aqm, CcAlgo};

fn written<T: serde::Serialize>(v: T) -> String {
    serde_json::to_string(&v).unwrap_or_default()
}

#[test]
fn every_typed_value_keeps_its_written_name() {
    let stops = [
        (Stop::Finished, "finished"),
        (Stop::TimeLimit, "time_limit"),
        (Stop::Budget, "event_budget"),
        (Stop::PacketBudget, "packet_budget"),
        (Stop::Idle, "idle"),
        (Stop::StepsKept, "steps_kept"),
    ];
    for (v, name) in stops {
        assert_eq!(written(v), format!("\"{name}\""));
    }
    for cause in DropCause::ALL {
        assert_eq!(written(cause), format!("\"{}\"", cause.name()));
        assert_eq!(DropCause::from_code(u64::from(cause.code())), Some(cause));
    }
    let modes = ["startup", "drain", "probe_bw", "probe_rtt"];
    for (m, name) in BbrMode::ALL.into_iter().zip(modes) {
        assert_eq!(written(m), format!("\"{name}\""));
        assert_eq!(BbrMode::from_code(u64::from(m.code())), Some(m));
    }
    for cc in CcAlgo::ALL {
        assert_eq!(written(cc), format!("\"{}\"", cc.name()));
    }
    for aqm in Aqm::ALL {
        assert_eq!(written(aqm), format!("\"{}\"", aqm.name()));
    }
    assert_eq!(DropCause::from_code(6), None);
    assert_eq!(BbrMode::from_code(9), None);
}
