//! The command line's answers to bad arguments, which need neither root nor a kernel run.

use std::process::Command;

fn twin(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tcplab-kernel"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_is_printed_on_stdout() {
    let (code, out, _) = twin(&["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("tcplab-kernel run") && out.contains("validate"),
        "{out}"
    );
}

#[test]
fn bad_arguments_name_what_is_wrong() {
    for (args, says) in [
        (&[][..], "missing command"),
        (&["walk"][..], "unknown command \"walk\""),
        (&["run", "rtt=abc"][..], "rtt: \"abc\" is not a number"),
        (&["run", "a=1", "b=2"][..], "unexpected argument \"b=2\""),
        (&["run", "--what", "cwnd"][..], "--what: unknown option"),
        (&["trace", "rtt=20"][..], "--what: required by trace"),
        (
            &["trace", "rtt=20", "--what", "seq"][..],
            "traces cwnd only",
        ),
        (
            &["trace", "--what", "cwnd", "--every-ms", "0"][..],
            "--every-ms",
        ),
        (
            &["validate", "--grid", "wide"][..],
            "--grid: unknown grid \"wide\"",
        ),
        (&["validate", "--seeds", "0"][..], "--seeds"),
        (&["validate", "rtt=20"][..], "validate takes no query"),
    ] {
        let (code, _, err) = twin(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with("tcplab-kernel: ") && err.contains(says),
            "{args:?}: {err}"
        );
    }
}
