//! "My number, explained": what the engineer measured on the path the controls describe, and
//! each single cause that gives it there, found by simulation in a worker
//! (`tcplab::diagnose::explain`), each one click from its run.

use std::rc::Rc;

use tcplab::diagnose::{check, ExplainError, Explanation, Measured};
use tcplab::lesson::question::read_number;
use tcplab::lesson::Refusal as LessonRefusal;
use tcplab::theory::path::Limits;
use tcplab::theory::slow_start::ideal_completion_ms;
use tcplab::{App, Scenario};
use yew::prelude::*;

use crate::controls::app_label;
use crate::i18n::Lang;
use crate::model::format;
use crate::model::path_words::path_words;
use crate::worker::client::WORKER_SCRIPT;
use crate::worker::pool::{Done, Finished, Job, Pool};
use crate::worker::protocol::Want;

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    pub lang: Lang,
    pub scenario: Scenario,
}

#[derive(Debug, Clone, PartialEq)]
enum Answer {
    None,
    Asking,
    Got(Rc<Explanation>),
    Refused(Refusal),
}

/// Why the page did not ask, kept apart from its wording so that the message follows the
/// page's language.
#[derive(Debug, Clone, PartialEq)]
enum Refusal {
    /// What was typed is not a number above 0.
    NotANumber { field: Field, text: String },
    /// Written with an exponent (`1e99`), which the page's links and a lesson's answers refuse
    /// too: a number reads the same everywhere in the lab.
    Exponent { field: Field, text: String },
    /// The simulator's own check refused it (`tcplab::diagnose::check`).
    Check(ExplainError),
    /// The worker's message, as it came.
    Worker(String),
}

/// The form's two fields: what was measured.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Field {
    Goodput,
    Time,
}

/// The field as the form's choice names it: the runner's flags (`--goodput`, `--time`) mean
/// nothing on the page.
fn field_name(field: Field, lang: Lang) -> &'static str {
    match field {
        Field::Goodput => lang.pick("The goodput you measured (MB/s)", "测得的有效吞吐（MB/s）"),
        Field::Time => lang.pick("The time one body took (ms)", "一个请求体的耗时（ms）"),
    }
}

/// The refusal in the page's words.
fn refusal(r: &Refusal, lang: Lang) -> String {
    match (r, lang) {
        (Refusal::NotANumber { field, text }, Lang::En) => {
            format!(
                "{}: \"{text}\" is not a number above 0.",
                field_name(*field, lang)
            )
        }
        (Refusal::NotANumber { field, text }, Lang::Zh) => {
            format!("{}：“{text}”不是大于 0 的数。", field_name(*field, lang))
        }
        (Refusal::Exponent { field, text }, Lang::En) => format!(
            "{}: \"{text}\" has an exponent: write the number in full digits ({}).",
            field_name(*field, lang),
            range(*field, lang)
        ),
        (Refusal::Exponent { field, text }, Lang::Zh) => format!(
            "{}：“{text}”用了指数形式：请写出完整的数字（{}）。",
            field_name(*field, lang),
            range(*field, lang)
        ),
        (Refusal::Check(e), _) => checked(e, lang),
        (Refusal::Worker(e), _) => e.clone(),
    }
}

/// The values `field` takes, in the page's words.
fn range(field: Field, lang: Lang) -> String {
    let max = match field {
        Field::Goodput => format::number(tcplab::diagnose::MAX_GOODPUT, 6),
        Field::Time => format::number(tcplab::diagnose::MAX_TIME_MS, 7),
    };
    match lang {
        Lang::En => format!("above 0, up to {max}"),
        Lang::Zh => format!("须大于 0，至多 {max}"),
    }
}

fn checked(e: &ExplainError, lang: Lang) -> String {
    let (goodput, time) = (
        field_name(Field::Goodput, lang),
        field_name(Field::Time, lang),
    );
    let (goodput_range, time_range) = (range(Field::Goodput, lang), range(Field::Time, lang));
    match (e, lang) {
        (ExplainError::GoodputOutOfRange(v), Lang::En) => format!(
            "{goodput}: {} is out of range ({goodput_range}).",
            format::number(*v, 6)
        ),
        (ExplainError::GoodputOutOfRange(v), Lang::Zh) => format!(
            "{goodput}：{} 超出范围（{goodput_range}）。",
            format::number(*v, 6)
        ),
        (ExplainError::TimeOutOfRange(v), Lang::En) => format!(
            "{time}: {} is out of range ({time_range}).",
            format::number(*v, 7)
        ),
        (ExplainError::TimeOutOfRange(v), Lang::Zh) => format!(
            "{time}：{} 超出范围（{time_range}）。",
            format::number(*v, 7)
        ),
        (ExplainError::TimeNeedsBody(app), Lang::En) => format!(
            "{time} applies to the {} workload only, and this path's is {}: give a goodput, or choose {} under Workload.",
            app_label(App::Body, lang),
            app_label(*app, lang),
            app_label(App::Body, lang)
        ),
        (ExplainError::TimeNeedsBody(app), Lang::Zh) => format!(
            "{time}只适用于“{}”负载，而这条路径的负载是“{}”：请改填有效吞吐，或在“负载”中选择“{}”。",
            app_label(App::Body, lang),
            app_label(*app, lang),
            app_label(App::Body, lang)
        ),
    }
}
/// What to ask, from what was typed into `field`: the measurement, or why the page will not ask.
fn measured(scenario: &Scenario, field: Field, typed: &str) -> Result<Measured, Refusal> {
    let text = typed.trim();
    // Read as a lesson's answer is (`1,250`, full-width digits), so a wall of digits or an
    // exponent is refused here, not echoed back as a hundred digits out of range.
    let v = match read_number(text, true) {
        Ok(v) if v > 0.0 && v.is_finite() => v,
        Err(LessonRefusal::Exponent(_)) => {
            return Err(Refusal::Exponent {
                field,
                text: text.to_string(),
            })
        }
        _ => {
            return Err(Refusal::NotANumber {
                field,
                text: text.to_string(),
            })
        }
    };
    let m = match field {
        Field::Time => Measured::Time(v),
        Field::Goodput => Measured::Goodput(v),
    };
    check(scenario, m).map_err(Refusal::Check)?;
    Ok(m)
}

/// A goodput to start the box with: well under what the path allows this workload (the link,
/// the windows, and for a body slow start from its first segment), so that the example asks a
/// question the path can answer; a fixed number was impossible on a slower path (1.8 MB/s on
/// `preset=bufferbloat`'s 10 Mbit/s).
fn example_goodput(s: &Scenario) -> String {
    let limits = Limits::of(s);
    let mut ceiling = limits.link.0.min(limits.window_all().0);
    if s.app == App::Body {
        let ms = ideal_completion_ms(s.iw, s.mss, s.body, s.rtt_ms, limits.share(), s.rwnd as f64);
        if ms.is_finite() && ms > 0.0 {
            ceiling = ceiling.min(s.body as f64 / ms / 1e3);
        }
    }
    // Two significant digits, written as the box reads them back (no thousands' commas).
    let v = ceiling * EXAMPLE_SHARE;
    if !(v.is_finite() && v > 0.0) {
        return String::new();
    }
    let magnitude = v.log10().floor() as i32;
    if magnitude >= 1 {
        let unit = 10f64.powi(magnitude - 1);
        return format!("{}", ((v / unit).round() * unit) as u64);
    }
    let decimals = (1 - magnitude).clamp(0, 12) as usize;
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// The share of the path's ceiling the box's example asks about.
const EXAMPLE_SHARE: f64 = 0.15;

#[function_component]
pub fn Explain(props: &ExplainProps) -> Html {
    let lang = props.lang;
    let answer = use_state_eq(|| Answer::None);
    let time = use_state_eq(|| false);
    // What the reader typed. Until then the box is empty, its placeholder an example for the
    // path in the controls, which Explain asks about: an example written in as the box's value
    // had the reader's typing added to it ("0.270.3").
    let typed = use_state_eq(|| None::<String>);
    let example = example_goodput(&props.scenario);
    let value = (*typed)
        .clone()
        .filter(|t| !t.trim().is_empty())
        .unwrap_or_else(|| example.clone());
    let pool = {
        let answer = answer.clone();
        use_memo((), move |_| {
            Pool::new(
                WORKER_SCRIPT,
                1,
                Callback::from(move |f: Finished| match f.done {
                    Done::Explanation(e) => answer.set(match e.open() {
                        Ok(e) => Answer::Got(Rc::new(e)),
                        Err(e) => Answer::Refused(Refusal::Worker(e)),
                    }),
                    Done::Error(e) => answer.set(Answer::Refused(Refusal::Worker(e))),
                    _ => {}
                }),
            )
        })
    };
    let on_ask = {
        let (answer, time, value, pool, typed) = (
            answer.clone(),
            time.clone(),
            value.clone(),
            pool.clone(),
            typed.clone(),
        );
        let scenario = props.scenario.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            // Asked with the box empty, the example is what is explained: the box then shows
            // it, rather than stay empty above an answer about a number nobody typed.
            if typed.as_ref().is_none_or(|t| t.trim().is_empty()) {
                typed.set(Some(value.clone()));
            }
            let field = if *time { Field::Time } else { Field::Goodput };
            match measured(&scenario, field, &value) {
                Ok(m) => {
                    answer.set(Answer::Asking);
                    pool.run(vec![Job {
                        query: scenario.to_query(),
                        want: Want::Explain(m),
                    }]);
                }
                Err(r) => answer.set(Answer::Refused(r)),
            }
        })
    };
    let on_kind = {
        let time = time.clone();
        Callback::from(move |e: Event| {
            let select: Option<web_sys::HtmlSelectElement> = e.target_dyn_into();
            if let Some(s) = select {
                time.set(s.value() == "time");
            }
        })
    };
    let on_value = {
        let typed = typed.clone();
        Callback::from(move |e: InputEvent| {
            let input: Option<web_sys::HtmlInputElement> = e.target_dyn_into();
            if let Some(i) = input {
                typed.set(Some(i.value()));
            }
        })
    };
    let path = match lang {
        Lang::En => format!(
            "On the path the controls describe: {}.",
            path_words(&props.scenario, lang)
        ),
        Lang::Zh => format!(
            "在控件描述的路径上：{}。",
            path_words(&props.scenario, lang)
        ),
    };
    html! {
        <section class="explain" id="explain" aria-labelledby="explain-title">
            <h2 id="explain-title">{ lang.pick("My number, explained", "我的数字，解读") }</h2>
            <p>{ path }</p>
            <form class="explain-form" onsubmit={on_ask}>
                <label>{ lang.pick("I measured ", "我测得 ") }
                    <select id="explain-kind" onchange={on_kind}>
                        <option value="goodput" selected={!*time}>{ lang.pick("a goodput of (MB/s)", "有效吞吐（MB/s）") }</option>
                        <option value="time" selected={*time}>{ lang.pick("one body taking (ms)", "一个请求体耗时（ms）") }</option>
                    </select>
                </label>
                <input id="explain-value" type="text" inputmode="decimal"
                    value={(*typed).clone().unwrap_or_default()} placeholder={example}
                    aria-label={lang.pick("What was measured", "测得的值")} oninput={on_value} />
                <button type="submit" id="explain-ask">{ lang.pick("Explain", "解读") }</button>
            </form>
            { match &*answer {
                Answer::None => html! {},
                Answer::Asking => html! {
                    <p class="busy" id="explain-busy">{ lang.pick("Simulating each cause…", "正在逐个模拟原因…") }</p>
                },
                Answer::Refused(r) => html! { <p class="capture-error" id="explain-error" role="alert">{ refusal(r, lang) }</p> },
                Answer::Got(e) => html! {
                    <div id="explain-answer">
                        <h3>{ lang.pick("Each of these gives it on that path", "在这条路径上，以下每一个都能得到它") }</h3>
                        if let Some(f) = e.impossible() {
                            <p id="explain-impossible">{ f.say(lang.language()) }</p>
                        } else if e.candidates.is_empty() {
                            <p id="explain-none">{ lang.pick("No single cause does.", "没有单一原因能做到。") }</p>
                        }
                        <ul class="explain-candidates">
                            { for e.candidates.iter().map(|c| {
                                let cause = serde_json::to_value(c.cause).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
                                html! {
                                    <li data-cause={cause}>
                                        <a href={format!("?{}", c.scenario)}>{ c.finding.say(lang.language()) }</a>
                                        <code>{ format!(" {}", c.scenario) }</code>
                                    </li>
                                }
                            }) }
                        </ul>
                        <h3>{ lang.pick("Ruled out", "被排除") }</h3>
                        <ul class="explain-ruled-out">
                            { for e.ruled_out.iter().map(|r| {
                                let cause = serde_json::to_value(r.cause).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
                                html! { <li data-cause={cause}>{ r.finding.say(lang.language()) }</li> }
                            }) }
                        </ul>
                    </div>
                },
            } }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(q: &str) -> Scenario {
        Scenario::parse(q).unwrap_or_default()
    }

    fn refused(q: &str, field: Field, typed: &str, lang: Lang) -> String {
        match measured(&path(q), field, typed) {
            Err(r) => refusal(&r, lang),
            Ok(m) => panic!("{typed} asked as {m:?}"),
        }
    }

    /// The box's example is a goodput each path can give its workload, not one number for all:
    /// 1.8 MB/s was impossible on a 10 Mbit/s path.
    #[test]
    fn the_example_goodput_is_one_the_path_can_give() {
        for (q, want) in [
            ("", "1.5"),
            ("preset=bufferbloat", "0.18"),
            ("app=bulk&bw=100000&rtt=10", "63"),
            ("app=bulk&bw=100000&rtt=10&rwnd=1073741824", "1800"),
            ("app=bulk&bw=0.1&rtt=10", "0.0018"),
        ] {
            let s = path(q);
            let example = example_goodput(&s);
            assert_eq!(example, want, "{q}");
            let m = measured(&s, Field::Goodput, &example);
            assert!(m.is_ok(), "{q}: {example} refused");
            assert!(
                example.parse::<f64>().unwrap_or(f64::INFINITY) < Limits::of(&s).link.0,
                "{q}: {example}"
            );
        }
    }

    #[test]
    fn a_refusal_names_the_page_s_fields_not_the_runner_s_flags() {
        assert_eq!(
            refused("", Field::Goodput, " abc ", Lang::En),
            "The goodput you measured (MB/s): \"abc\" is not a number above 0."
        );
        assert_eq!(
            refused("", Field::Time, "-3", Lang::Zh),
            "一个请求体的耗时（ms）：“-3”不是大于 0 的数。"
        );
        assert_eq!(
            refused("app=bulk", Field::Time, "100", Lang::En),
            "The time one body took (ms) applies to the Body workload only, and this path's is \
             Bulk: give a goodput, or choose Body under Workload."
        );
        assert_eq!(
            refused("", Field::Goodput, "200000", Lang::En),
            "The goodput you measured (MB/s): 200,000 is out of range (above 0, up to 100,000)."
        );
        // An exponent is refused as the links refuse it, not read and echoed back as a
        // hundred digits; so is a wall of digits.
        assert_eq!(
            refused("", Field::Goodput, "1e99", Lang::En),
            "The goodput you measured (MB/s): \"1e99\" has an exponent: write the number in \
             full digits (above 0, up to 100,000)."
        );
        assert_eq!(
            refused("", Field::Time, "2E3", Lang::Zh),
            "一个请求体的耗时（ms）：“2E3”用了指数形式：请写出完整的数字（须大于 0，至多 3,600,000）。"
        );
        let wall = "9".repeat(100);
        assert_eq!(
            refused("", Field::Goodput, &wall, Lang::En),
            format!("The goodput you measured (MB/s): \"{wall}\" is not a number above 0.")
        );
        assert_eq!(
            measured(&path(""), Field::Time, "1,250"),
            Ok(Measured::Time(1250.0))
        );
        for lang in Lang::ALL {
            for (q, field, typed) in [
                ("", Field::Goodput, "abc"),
                ("app=msgs", Field::Time, "5"),
                ("", Field::Time, "4000000"),
            ] {
                let text = refused(q, field, typed, lang);
                assert!(!text.contains("--"), "{text}");
            }
        }
        assert_eq!(
            measured(&path(""), Field::Time, "6390"),
            Ok(Measured::Time(6390.0))
        );
    }

    #[test]
    fn the_answer_is_said_in_the_page_s_language() {
        let p = path("rtt=150&bw=100&loss=0.1&rwnd=65536");
        let e = tcplab::diagnose::explain(&p, Measured::Goodput(50.0))
            .unwrap_or_else(|e| panic!("{e}"));
        let zh = e.impossible().map(|f| f.say(Lang::Zh.language()));
        assert_eq!(
            zh.as_deref(),
            Some(
                "50 MB/s 在这条路径上不可能：它高于链路的净荷速率 12.1 MB/s（100 Mbit/s 减去每个包的 \
                 TCP/IP 头部），这条路径上的任何运行都不会超过它"
            )
        );
        let en = e.impossible().map(|f| f.say(Lang::En.language()));
        assert!(en.is_some_and(|t| t.starts_with("50 MB/s is impossible on this path")));
    }
}
