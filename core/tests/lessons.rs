//! Every lesson, part by part, in both languages, over its own run: every sentence and question
//! is complete, every figure it names is one the run shows at the part's moment, and every
//! answer is found in the run, and follows it when the lesson's scenario changes.

use tcplab::lesson::{slots, Evidence, Given, Lesson, Moment, Part, LESSONS};
use tcplab::player::explain::{explain, ms, mss, number};
use tcplab::player::{Language, StepWindow, Steps};
use tcplab::scenario::Key;
use tcplab::{run, RunOptions, Scenario, Summary};

const LANGS: [Language; 2] = [Language::En, Language::Zh];

/// The part's run, as the page has it: the summary of the whole run and the steps the player
/// records for the moment (from the start, or around an instant).
fn evidence_of(part: &Part, scenario: &Scenario) -> (Steps, Summary) {
    let window = match part.moment {
        Moment::At(t) => StepWindow {
            from_ms: (t - 500.0).max(0.0),
            stop_when_full: false,
        },
        _ => StepWindow::WHOLE_RUN,
    };
    let options = RunOptions {
        record_steps: Some(window),
        ..RunOptions::default()
    };
    let r = run(scenario, &options);
    (r.steps.unwrap_or_default(), r.summary)
}

/// What the page reads of a part's run: its scenario, its steps and its summary.
fn evidence<'a>(s: &'a Scenario, steps: &'a Steps, summary: &'a Summary) -> Evidence<'a> {
    Evidence {
        scenario: s,
        steps: Some(steps),
        summary: Some(summary),
    }
}

/// Each part that asks a question, with the evidence of its own run: the lesson, the part's
/// index and the part, the run's record of steps, and the evidence the page reads.
fn for_each_question(mut check: impl FnMut(&Lesson, usize, &Part, &Steps, &Evidence)) {
    for lesson in LESSONS {
        for (i, part) in lesson.parts.iter().enumerate() {
            if part.question.is_none() {
                continue;
            }
            let s = scenario(lesson, i, "");
            let (steps, summary) = evidence_of(part, &s);
            let ev = evidence(&s, &steps, &summary);
            check(lesson, i, part, &steps, &ev);
        }
    }
}

fn scenario(lesson: &Lesson, part: usize, changes: &str) -> Scenario {
    let read = lesson
        .scenario_with(part, changes)
        .unwrap_or_else(|e| panic!("{} part {}: {e}", lesson.name, part + 1));
    assert!(read.errors.is_empty(), "{}: {:?}", lesson.name, read.errors);
    read.scenario
}

/// The numbers written in `text`: runs of digits with their separators.
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (!cur.is_empty() && (c == '.' || c == ',')) {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(cur.trim_end_matches(['.', ',']).to_string());
            cur.clear();
        }
    }
    out
}

/// What the page shows at step `at` of the run: the player's readouts and sentence, the
/// controls' values and the headline's figures.
fn on_screen(s: &Scenario, steps: &Steps, summary: &Summary, at: Option<usize>) -> String {
    let mut shown = String::new();
    if let Some(step) = at.and_then(|i| steps.steps.get(i)) {
        let st = &step.state;
        let m = steps.mss;
        for v in [
            ms(step.t_ms),
            mss(st.cwnd, m),
            st.ssthresh.map_or("∞".into(), |v| mss(v, m)),
            mss(st.in_flight, m),
            st.queue.to_string(),
            st.srtt_ms.map(ms).unwrap_or_default(),
            ms(st.rto_ms),
            explain(step, steps, Language::En),
        ] {
            shown.push_str(&v);
            shown.push(' ');
        }
    }
    for key in tcplab::scenario::Key::ALL {
        shown.push_str(&s.value_text(key));
        shown.push(' ');
    }
    shown.push_str(&number(s.body as f64 / 1000.0, 4));
    let mbit = |v: Option<f64>| v.map(|v| number(v * 8.0, 3)).unwrap_or_default();
    for v in [
        mbit(summary.goodput_MBps),
        mbit(summary.mathis_MBps),
        summary
            .completion_rtts
            .map(|v| number(v, 3))
            .unwrap_or_default(),
        summary.completion_ms.map(ms).unwrap_or_default(),
        summary
            .probe
            .as_ref()
            .and_then(|p| p.p50_ms)
            .map(ms)
            .unwrap_or_default(),
        summary.timeouts.to_string(),
        match (summary.goodput_MBps, summary.mathis_MBps) {
            (Some(g), Some(m)) => number(g / m, 2),
            _ => String::new(),
        },
    ] {
        shown.push(' ');
        shown.push_str(&v);
    }
    shown
}

#[test]
fn every_part_of_every_lesson_is_complete_in_both_languages_and_names_what_the_run_shows() {
    assert!(LESSONS.len() >= 7);
    for name in [
        "slow-start",
        "fast-retransmit",
        "timeout",
        "mathis",
        "hol",
        "algorithms",
        "bufferbloat",
    ] {
        assert!(Lesson::find(name).is_some(), "lesson {name}");
    }
    for lesson in LESSONS {
        assert!(!lesson.parts.is_empty(), "{}", lesson.name);
        for lang in LANGS {
            assert!(!lesson.title.get(lang).is_empty() && !lesson.summary.get(lang).is_empty());
        }
        for (i, part) in lesson.parts.iter().enumerate() {
            let at_part = format!("{} part {}", lesson.name, i + 1);
            // The two languages name the same figures.
            let mut texts = vec![part.title, part.say];
            if let Some(q) = &part.question {
                texts.push(q.ask);
                texts.push(q.because);
                if let tcplab::lesson::Form::Choice(cs) = q.form {
                    assert!(cs.len() >= 2, "{at_part}");
                    texts.extend(cs.iter().copied());
                }
            }
            for text in &texts {
                assert!(
                    !text.en.trim().is_empty() && !text.zh.trim().is_empty(),
                    "{at_part}"
                );
                let (mut en, mut zh) = (slots::named(text.en), slots::named(text.zh));
                en.sort_unstable();
                zh.sort_unstable();
                assert_eq!(en, zh, "{at_part}: {}", text.en);
                for slot in en {
                    assert!(
                        slot == "answer" || slots::NAMES.contains(&slot),
                        "{at_part}: unknown slot {{{slot}}}"
                    );
                }
            }
            let s = scenario(lesson, i, "");
            let (steps, summary) = evidence_of(part, &s);
            let ev = evidence(&s, &steps, &summary);
            for lang in LANGS {
                let shown = part.show(&ev, lang).unwrap_or_else(|| {
                    panic!("{at_part} ({lang:?}): the run lacks its moment or a figure")
                });
                let say = shown.say_text();
                assert!(!say.contains('{'), "{at_part}: {say}");
                assert_eq!(shown.answer.is_some(), part.question.is_some(), "{at_part}");
                // The page's state moves the player at a reveal by the finding alone.
                assert_eq!(
                    part.answer_step(&ev),
                    shown.answer.as_ref().and_then(|a| a.show),
                    "{at_part}"
                );
                if lang == Language::En {
                    let screen = on_screen(&s, &steps, &summary, shown.at);
                    for n in numbers(&say) {
                        let literal = numbers(part.say.en).contains(&n);
                        assert!(
                            literal || screen.contains(&n),
                            "{at_part}: {n} in \"{say}\" is not on screen at its moment"
                        );
                    }
                }
                if let Some(a) = &shown.answer {
                    assert!(
                        !a.ask.contains('{') && !a.why.contains('{'),
                        "{at_part}: {a:?}"
                    );
                    match a.value {
                        Given::Choice(c) => assert!(c < a.choices.len(), "{at_part}"),
                        Given::Number(v) => {
                            assert!(v.is_finite() && !a.unit.is_empty(), "{at_part}")
                        }
                    }
                    // The answer itself is right, and the reveal says it.
                    assert!(a.grade(a.value, lang).right, "{at_part}");
                    assert!(
                        a.why.contains(&a.text)
                            || !part
                                .question
                                .is_some_and(|q| q.because.en.contains("{answer}"))
                    );
                    if let Some(i) = a.show {
                        assert!(
                            shown.at.is_none_or(|at| i >= at),
                            "{at_part}: the reveal goes back"
                        );
                    }
                }
            }
        }
    }
}

fn answer_of(lesson: &str, part: usize, changes: &str) -> (Given, Option<usize>) {
    let lesson = Lesson::find(lesson).expect("a lesson");
    let s = scenario(lesson, part, changes);
    let p = lesson.part(part);
    let (steps, summary) = evidence_of(p, &s);
    let ev = evidence(&s, &steps, &summary);
    let a = p
        .show(&ev, Language::En)
        .and_then(|sh| sh.answer)
        .expect("an answer");
    (a.value, a.show)
}

#[test]
fn slow_starts_answers_follow_the_initial_window() {
    // IW 10: the first ACK of one segment makes 11, the first flight's ACKs 20.
    assert_eq!(answer_of("slow-start", 0, "").0, Given::Number(11.0));
    assert_eq!(answer_of("slow-start", 1, "").0, Given::Number(20.0));
    // IW 4: 5 and 8.
    assert_eq!(answer_of("slow-start", 0, "iw=4").0, Given::Number(5.0));
    assert_eq!(answer_of("slow-start", 1, "iw=4").0, Given::Number(8.0));
    // Seed 003: a 2.5 MB POST ends inside slow start, in 7 to 9 round trips with the handshake.
    assert_eq!(answer_of("slow-start", 2, "").0, Given::Choice(0));
    let Given::Number(rtts) = answer_of("slow-start", 3, "").0 else {
        panic!("a number")
    };
    assert!((7.0..=9.5).contains(&rtts), "{rtts}");
    // A 100 MB body on a 100 Mbit/s path leaves slow start on a loss or by HyStart.
    let (ends, _) = answer_of("slow-start", 2, "bw=100&queue=100&body=100MB");
    assert_ne!(ends, Given::Choice(0));
}

#[test]
fn slow_starts_last_part_times_the_last_byte_at_the_server_and_its_ack_apart() {
    // The run goes on to the last byte's ACK, 15.8 ms after the byte reaches the server: the
    // part stands on that ACK and must not give its time as the byte's.
    let lesson = Lesson::find("slow-start").expect("the lesson");
    let last = lesson.parts.len() - 1;
    let part = &lesson.parts[last];
    let s = scenario(lesson, last, "");
    let (steps, summary) = evidence_of(part, &s);
    let ev = evidence(&s, &steps, &summary);
    let say = part
        .show(&ev, Language::En)
        .expect("the part shows")
        .say_text();
    let byte = summary.completion_ms.expect("the body is delivered");
    let ack = steps.steps.last().expect("steps").t_ms;
    assert!(ack > byte + 10.0, "{byte} {ack}");
    assert!(
        say.contains(&format!("reaches the server at {} ms", ms(byte))),
        "{say}"
    );
    assert!(say.contains(&format!("back at {} ms", ms(ack))), "{say}");
}

#[test]
fn the_loss_lessons_answers_come_from_the_run() {
    // CUBIC keeps 717/1024 of 24 MSS: ssthresh 16, where recovery ends; Reno keeps half: 12.
    assert_eq!(answer_of("fast-retransmit", 2, "").0, Given::Choice(0));
    assert_eq!(answer_of("fast-retransmit", 3, "").0, Given::Number(16.0));
    assert_eq!(
        answer_of("fast-retransmit", 3, "cc=reno").0,
        Given::Number(12.0)
    );
    // The last segment: a probe first; then the timer, with ssthresh 717/1024 of 19 MSS; then
    // the timer doubled, and doubled again.
    assert_eq!(answer_of("timeout", 1, "").0, Given::Choice(0));
    assert_eq!(answer_of("timeout", 2, "").0, Given::Number(13.0));
    let Given::Number(rto) = answer_of("timeout", 3, "").0 else {
        panic!("a number")
    };
    let Given::Number(first) = tcplab::lesson::Lesson::find("timeout")
        .map(|l| {
            let s = scenario(l, 2, "");
            let r = run(
                &s,
                &RunOptions {
                    record_steps: Some(StepWindow::WHOLE_RUN),
                    ..RunOptions::default()
                },
            );
            let steps = r.steps.unwrap_or_default();
            let rto = steps.steps.iter().find_map(|st| match st.kind {
                tcplab::player::StepKind::Timeout { rto_ms, .. } => Some(rto_ms),
                _ => None,
            });
            Given::Number(rto.unwrap_or(f64::NAN))
        })
        .unwrap_or(Given::Number(f64::NAN))
    else {
        panic!("a number")
    };
    assert!((rto - 4.0 * first).abs() < 1.0, "{rto} after {first}");
    // Reno halves; CUBIC cuts to 0.7.
    assert_eq!(answer_of("mathis", 0, "").0, Given::Choice(0));
    assert_eq!(answer_of("mathis", 0, "cc=cubic").0, Given::Choice(1));
    // BBR keeps the link near full through 1 % loss; Reno stays near Mathis.
    assert_eq!(answer_of("algorithms", 2, "").0, Given::Choice(0));
    // The ping waits ten round trips and more behind the drop-tail queue, and about the path's
    // RTT under FQ-CoDel.
    let Given::Number(p50) = answer_of("bufferbloat", 0, "").0 else {
        panic!("a number")
    };
    assert!(p50 > 400.0, "{p50}");
    assert_eq!(answer_of("bufferbloat", 2, "").0, Given::Choice(0));
}

#[test]
fn a_lessons_link_reads_over_its_part_and_refuses_what_it_cannot_show() {
    let lesson = Lesson::find("slow-start").expect("slow-start");
    let read = lesson
        .scenario_with(0, "iw=4&rtt=abc")
        .expect("the lesson parses");
    assert_eq!(read.scenario.iw, 4);
    assert_eq!(read.errors.len(), 1);
    assert_eq!(read.errors[0].key(), "rtt");
    let read = lesson
        .scenario_with(0, "preset=bufferbloat")
        .expect("the lesson parses");
    assert_eq!(read.errors[0].key(), "preset");
    assert!(
        read.errors[0].to_string().contains("lesson"),
        "{}",
        read.errors[0]
    );
    // The changes are what the link writes: the part's base leaves them.
    let base = lesson.scenario(0).expect("the base");
    assert_eq!(read_back(&base, "iw=4"), "iw=4");
    assert_eq!(Lesson::read("slow-start", Some("5")).map(|(_, p)| p), Ok(4));
    let e = Lesson::read("slow-start", Some("6")).expect_err("out of range");
    assert_eq!(
        e.to_string(),
        "6 is not a part of this lesson (allowed 1 to 5)"
    );
    assert!(Lesson::read("slow-start", Some("0")).is_err());
    assert!(Lesson::read("slow-start", Some("+1")).is_err());
    let e = Lesson::read("nope", None).expect_err("unknown");
    assert!(e.to_string().contains("slow-start, fast-retransmit"), "{e}");
    let _ = Key::Iw;
}

fn read_back(base: &Scenario, changes: &str) -> String {
    base.clone()
        .with_query_lenient(changes, tcplab::scenario::Conflict::PresetInLesson)
        .scenario
        .query_against(base)
}

/// The readout beside a part (the player's card at its moment) never shows the number its
/// question asks for: the window asked for is not the window on the card, nor the timer the
/// timer on it. (A figure the class reasons from, as ssthresh for the window recovery ends
/// at, is a clue; the asked quantity itself would be the answer.)
#[test]
fn no_question_is_answered_by_the_card_beside_it() {
    // (lesson, part, the readout of the asked quantity)
    let asked: [(&str, usize, &str); 5] = [
        ("slow-start", 0, "cwnd"),
        ("slow-start", 1, "cwnd"),
        ("fast-retransmit", 3, "cwnd"),
        ("timeout", 2, "ssthresh"),
        ("timeout", 3, "rto"),
    ];
    for (name, part, readout) in asked {
        for changes in ["", "cc=reno", "iw=4"] {
            let lesson = Lesson::find(name).expect("a lesson");
            let s = scenario(lesson, part, changes);
            let p = lesson.part(part);
            let (steps, summary) = evidence_of(p, &s);
            let ev = evidence(&s, &steps, &summary);
            let shown = p.show(&ev, Language::En).expect("the part");
            let a = shown.answer.expect("an answer");
            let card = slots::value(readout, &ev, shown.at, Language::En).expect("a readout");
            let Given::Number(v) = a.value else {
                panic!("a number")
            };
            assert_ne!(
                number(v, 3),
                card,
                "{name} part {} ({changes}): the {readout} card shows the answer",
                part + 1
            );
            if readout == "rto" {
                // The timer after the next timeout: the one on the card, doubled.
                let on_card = steps.steps[shown.at.expect("a step")].state.rto_ms;
                assert!((v - 2.0 * on_card).abs() < 1.0, "{v} after {on_card}");
            }
        }
    }
}

/// The numbers the answer box's hint gives as examples are never an answer: each is outside
/// every numeric question's tolerance, in every lesson, with the scenario as it is and as the
/// tests change it.
#[test]
fn the_hints_examples_are_no_questions_answer() {
    use tcplab::lesson::question::{read_number, NUMBER_EXAMPLES};
    let examples: Vec<f64> = NUMBER_EXAMPLES
        .iter()
        .map(|e| read_number(e, false).expect("an example reads"))
        .collect();
    let mut numeric = 0;
    for lesson in LESSONS {
        for (i, part) in lesson.parts.iter().enumerate() {
            let Some(q) = &part.question else { continue };
            let tcplab::lesson::Form::Number { tolerance, .. } = q.form else {
                continue;
            };
            for changes in ["", "iw=4", "cc=reno", "cc=cubic"] {
                let s = scenario(lesson, i, changes);
                let (steps, summary) = evidence_of(part, &s);
                let ev = evidence(&s, &steps, &summary);
                let Some(Given::Number(v)) = part
                    .show(&ev, Language::En)
                    .and_then(|sh| sh.answer)
                    .map(|a| a.value)
                else {
                    panic!("{} part {}: a number", lesson.name, i + 1)
                };
                for e in &examples {
                    assert!(
                        !tolerance.admits(*e, v),
                        "{} part {} ({changes}): the example {e} is right for {v}",
                        lesson.name,
                        i + 1
                    );
                }
                numeric += 1;
            }
        }
    }
    assert!(numeric >= 40, "{numeric}");
}

/// The reveal writes the lab's sentence as the player's log does: `24 → 23`, held on one line.
#[test]
fn a_reveal_writes_a_change_as_the_player_does() {
    for_each_question(|lesson, i, part, _, ev| {
        for lang in LANGS {
            let a = part
                .show(ev, lang)
                .and_then(|sh| sh.answer)
                .expect("an answer");
            assert!(
                !a.why.contains("->") && !a.ask.contains("->") && !a.text.contains("->"),
                "{} part {}: {}",
                lesson.name,
                i + 1,
                a.why
            );
        }
    });
    // The fast retransmit's reveal names its change of window as the log does.
    let lesson = Lesson::find("fast-retransmit").expect("a lesson");
    let s = scenario(lesson, 2, "");
    let part = lesson.part(2);
    let (steps, summary) = evidence_of(part, &s);
    let ev = evidence(&s, &steps, &summary);
    let why = part
        .show(&ev, Language::En)
        .and_then(|sh| sh.answer)
        .expect("an answer")
        .why;
    assert!(why.contains("\u{a0}→\u{a0}"), "{why}");
}

/// What would give an answer away stays hidden while any question on the run is ahead: the
/// parts before the first question too, and a revealed part before another question on the
/// same run; a part whose run no later question asks about shows it all.
#[test]
fn the_results_stay_hidden_while_a_question_on_the_run_is_ahead() {
    let veiled = |name: &str, part: usize, revealed: bool| {
        Lesson::find(name).expect("a lesson").veiled(part, revealed)
    };
    // fast-retransmit: the loss and the first duplicate ACK come before "what does the sender
    // do?"; its reveal before "what will cwnd be?".
    assert!(veiled("fast-retransmit", 0, false));
    assert!(veiled("fast-retransmit", 1, false));
    assert!(veiled("fast-retransmit", 2, false));
    assert!(veiled("fast-retransmit", 2, true));
    assert!(!veiled("fast-retransmit", 3, true));
    assert!(!veiled("fast-retransmit", 4, false));
    // timeout: "2 timeouts" on the first part would answer the second.
    assert!(veiled("timeout", 0, false));
    assert!(!veiled("timeout", 4, false));
    // slow-start's last question (round trips) is the headline's completion card.
    assert!(veiled("slow-start", 0, true));
    assert!(!veiled("slow-start", 3, true));
    // Another part's keys, another run: algorithms' Reno is not CUBIC's run.
    assert!(!veiled("algorithms", 0, true));
    assert!(!veiled("bufferbloat", 1, false));
    assert!(veiled("bufferbloat", 2, false));
}

/// The index is in the page's language: a lesson's title, summary and source in Chinese are
/// Chinese (a name or a number may stay as written, not the words around it).
#[test]
fn every_lesson_is_named_in_both_languages() {
    let chinese = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
    for lesson in LESSONS {
        for text in [lesson.title, lesson.summary] {
            assert!(
                !text.en.is_empty() && chinese(text.zh),
                "{}: {:?}",
                lesson.name,
                text
            );
        }
        let source = lesson.source;
        assert!(
            !source.words(Language::En).is_empty() && chinese(source.words(Language::Zh)),
            "{}: {source:?}",
            lesson.name
        );
    }
}

/// A reveal takes the player to its answer's step and uncovers the run up to it; a later part
/// that asks about the same run (the same keys) asks from its own moment. No reveal may show the
/// run past a later question's moment, or the class has already seen what that question asks
/// them to work out: slow start's part 3 showed the last byte's arrival, and with it the POST's
/// length in round trips, before part 4 asked for that length.
#[test]
fn no_reveal_shows_the_run_past_a_later_questions_moment() {
    for_each_question(|lesson, i, part, steps, ev| {
        let Some(shown) = part.answer_step(ev) else {
            return;
        };
        for (j, later) in lesson.parts.iter().enumerate().skip(i + 1) {
            if later.question.is_none() || later.keys != part.keys {
                continue;
            }
            let Some(asked) = later.moment.find(steps) else {
                continue;
            };
            assert!(
                shown <= asked,
                "{} part {}'s reveal shows step {shown} ({} ms), past part {}'s question at step \
                 {asked} ({} ms)",
                lesson.name,
                i + 1,
                steps.steps[shown].t_ms,
                j + 1,
                steps.steps[asked].t_ms
            );
        }
    });
}

/// A reveal on a run the reader's sliders changed stops at a later question's moment on that
/// run: the lesson's own bound (`Lesson::reveal_step`), not the catalog's care alone, keeps
/// the next answer hidden.
#[test]
fn a_reveal_on_a_changed_run_stops_at_a_later_questions_moment() {
    let mut bounded = Vec::new();
    for lesson in LESSONS {
        for changes in ["", "rtt=80", "rtt=5", "iw=4", "iw=40", "bw=5", "loss=1"] {
            for (i, part) in lesson.parts.iter().enumerate() {
                if part.question.is_none() {
                    continue;
                }
                let Ok(read) = lesson.scenario_with(i, changes) else {
                    continue;
                };
                if !read.errors.is_empty() {
                    continue;
                }
                let s = read.scenario;
                let (steps, summary) = evidence_of(part, &s);
                let ev = evidence(&s, &steps, &summary);
                let (Some(own), Some(reveal)) = (part.answer_step(&ev), lesson.reveal_step(i, &ev))
                else {
                    continue;
                };
                let later = lesson
                    .parts
                    .iter()
                    .skip(i + 1)
                    .filter(|l| l.question.is_some() && l.keys == part.keys)
                    .filter_map(|l| l.moment.find(&steps))
                    .min();
                match later {
                    Some(asked) if own > asked => {
                        assert_eq!(
                            reveal,
                            asked,
                            "{} part {} with {changes:?}",
                            lesson.name,
                            i + 1
                        );
                        bounded.push(format!("{} part {} with {changes:?}", lesson.name, i + 1));
                    }
                    _ => assert_eq!(
                        reveal,
                        own,
                        "{} part {} with {changes:?}",
                        lesson.name,
                        i + 1
                    ),
                }
            }
        }
    }
    // Some changed run must need the bound (slow start's part 2 with iw=40, whose first round
    // of ACKs ends past part 3's moment), or this test would hold nothing.
    assert!(
        !bounded.is_empty(),
        "no changed run reached a later question's moment"
    );
}

/// Every reveal's explanation is whole: a lead-in to the step that shows the answer ("What
/// the run did:") is dropped where no step shows it (slow start's "it does not" end), not left
/// over nothing.
#[test]
fn no_reveal_ends_on_a_lead_in() {
    for_each_question(|lesson, i, part, _steps, ev| {
        for lang in LANGS {
            let Some(answer) = part.show(ev, lang).and_then(|s| s.answer) else {
                continue;
            };
            let why = answer.why.trim_end();
            assert!(
                !why.ends_with([':', '：']),
                "{} part {} ({lang:?}): {why:?}",
                lesson.name,
                i + 1
            );
        }
    });
}

/// A Chinese reveal puts no space after its full-width punctuation ("运行中发生的是：检测到…").
#[test]
fn a_chinese_reveal_has_no_space_after_full_width_punctuation() {
    for_each_question(|lesson, i, part, _steps, ev| {
        let Some(answer) = part.show(ev, Language::Zh).and_then(|s| s.answer) else {
            return;
        };
        for p in ['：', '。', '，', '；'] {
            assert!(
                !answer.why.contains(&format!("{p} ")),
                "{} part {}: {:?}",
                lesson.name,
                i + 1,
                answer.why
            );
        }
    });
}
