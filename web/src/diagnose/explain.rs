//! "My number, explained": what the engineer measured on the path the controls describe, and
//! each single cause that gives it there, found by simulation in a worker
//! (`tcplab::diagnose::explain`), each one click from its run.

use std::rc::Rc;

use tcplab::diagnose::{Explanation, Measured};
use tcplab::theory::path::Limits;
use tcplab::theory::slow_start::ideal_completion_ms;
use tcplab::{App, Scenario};
use yew::prelude::*;

use crate::i18n::Lang;
use crate::model::measured::{measured, refusal, Field, Refusal};
use crate::model::path_words::path_words;
use crate::worker::client::WORKER_SCRIPT;
use crate::worker::pool::{Done, Finished, Job, Pool};
use crate::worker::protocol::Want;

#[derive(Properties, PartialEq)]
pub struct ExplainProps {
    pub lang: Lang,
    pub scenario: Scenario,
    /// The number the page's address asks about (`my_goodput=`, `my_time=`): explained
    /// whenever it or the path changes, so that a shared link opens on its explanation.
    #[prop_or_default]
    pub asked: Option<Measured>,
    /// The reader asked about a number: the page puts it in its address.
    #[prop_or_default]
    pub on_ask: Callback<Measured>,
    /// The goodput of the capture on show, MB/s: the box's example, the engineer's own number,
    /// rather than one made up for the path.
    #[prop_or_default]
    pub captured: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
enum Answer {
    None,
    Asking,
    Got(Rc<Explanation>),
    Refused(Refusal),
    /// The worker's message, as it came.
    Failed(String),
}

/// How long the path and the number must stand still before they are explained: an
/// explanation is many runs, and a slider dragged in this view asks for one once, not at
/// every step.
const EXPLAIN_AFTER_MS: i32 = 150;

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
    two_digits(ceiling * EXAMPLE_SHARE)
}

/// `v` to two significant digits, written as the box reads it back (no thousands' commas);
/// empty for no positive number.
fn two_digits(v: f64) -> String {
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
    let time = use_state_eq(|| matches!(props.asked, Some(Measured::Time(_))));
    // What the reader typed, or the number the address asks about. Until then the box is
    // empty, its placeholder an example for the path in the controls, which Explain asks
    // about: an example written in as the box's value had the reader's typing added to it
    // ("0.270.3").
    let typed = use_state_eq(|| props.asked.map(|m| m.value().to_string()));
    let example = props
        .captured
        .map(two_digits)
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| example_goodput(&props.scenario));
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
                        Err(e) => Answer::Failed(e),
                    }),
                    Done::Error(e) => answer.set(Answer::Failed(e)),
                    _ => {}
                }),
            )
        })
    };
    // One explanation for the path and the number on show; a new one stops the last.
    let ask = {
        let (answer, pool) = (answer.clone(), pool.clone());
        move |query: String, m: Measured| {
            answer.set(Answer::Asking);
            pool.run(vec![Job {
                query,
                want: Want::Explain(m),
            }]);
        }
    };
    {
        // The address's number (a link, Back, Forward) is the box's when it changes; a moved
        // slider leaves what the reader has typed since.
        let (time, typed) = (time.clone(), typed.clone());
        use_effect_with(props.asked, move |asked| {
            if let Some(m) = *asked {
                time.set(matches!(m, Measured::Time(_)));
                typed.set(Some(m.value().to_string()));
            }
        });
    }
    {
        // The address's number is explained on the path once both have stood still.
        let (answer, pool, ask) = (answer.clone(), pool.clone(), ask.clone());
        use_effect_with(
            (props.scenario.to_query(), props.asked),
            move |(query, asked)| {
                let timer = match *asked {
                    Some(m) => {
                        answer.set(Answer::Asking);
                        let query = query.clone();
                        crate::after(EXPLAIN_AFTER_MS, move || ask(query, m))
                    }
                    None => {
                        pool.cancel();
                        answer.set(Answer::None);
                        None
                    }
                };
                move || drop(timer)
            },
        );
    }
    let on_ask = {
        let (answer, time, value, typed) =
            (answer.clone(), time.clone(), value.clone(), typed.clone());
        let (scenario, asked, on_ask) = (props.scenario.clone(), props.asked, props.on_ask.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            // Asked with the box empty, the example is what is explained: the box then shows
            // it, rather than stay empty above an answer about a number nobody typed.
            if typed.as_ref().is_none_or(|t| t.trim().is_empty()) {
                typed.set(Some(value.clone()));
            }
            let field = if *time { Field::Time } else { Field::Goodput };
            match measured(&scenario, field, &value) {
                // The address's own number again (after a refusal, say): asked here, since
                // the address does not change.
                Ok(m) if asked == Some(m) => ask(scenario.to_query(), m),
                Ok(m) => on_ask.emit(m),
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
                    aria-invalid={matches!(*answer, Answer::Refused(_)).to_string()}
                    aria-describedby={matches!(*answer, Answer::Refused(_)).then_some("explain-error")}
                    aria-label={lang.pick("What was measured", "测得的值")} oninput={on_value} />
                <button type="submit" id="explain-ask">{ lang.pick("Explain", "解读") }</button>
            </form>
            { match &*answer {
                Answer::None => html! {},
                Answer::Asking => html! {
                    <p class="busy" id="explain-busy">{ lang.pick("Simulating each cause…", "正在逐个模拟原因…") }</p>
                },
                Answer::Refused(r) => html! { <p class="capture-error" id="explain-error" role="alert">{ refusal(r, lang) }</p> },
                Answer::Failed(e) => html! { <p class="capture-error" id="explain-error" role="alert">{ e.clone() }</p> },
                Answer::Got(e) => html! {
                    <div id="explain-answer">
                        // A number no run on the path can give is said first and alone: no
                        // cause is listed as giving it, and it is not ruled out again below.
                        if let Some(f) = e.impossible() {
                            <p id="explain-impossible">{ f.say(lang.language()) }</p>
                        } else {
                            <h3>{ lang.pick("Each of these gives it on that path", "在这条路径上，以下每一个都能得到它") }</h3>
                            if e.candidates.is_empty() {
                                <p id="explain-none">{ lang.pick("No single cause does.", "没有单一原因能做到。") }</p>
                            }
                        }
                        <ul class="explain-candidates">
                            { for e.candidates.iter().map(|c| {
                                let cause = serde_json::to_value(c.cause).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
                                // The run opens in the language the page speaks.
                                html! {
                                    <li data-cause={cause}>
                                        <a href={format!("?{}&lang={}", c.scenario, lang.code())}>{ c.finding.say(lang.language()) }</a>
                                        <code>{ format!(" {}", c.scenario) }</code>
                                    </li>
                                }
                            }) }
                        </ul>
                        <h3>{ lang.pick("Ruled out", "被排除") }</h3>
                        <ul class="explain-ruled-out">
                            { for e.ruled_out.iter().filter(|r| !matches!(r.finding, tcplab::diagnose::Finding::Impossible { .. })).map(|r| {
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

    /// The box's example is a goodput each path can give its workload, not one number for all:
    /// 1.8 MB/s was impossible on a 10 Mbit/s path.
    #[test]
    fn a_number_is_written_to_two_significant_digits_as_the_box_reads_it() {
        for (v, want) in [
            (0.932, "0.93"),
            (1.49, "1.5"),
            (11.6, "12"),
            (1234.0, "1200"),
            (0.0018, "0.0018"),
            (0.0, ""),
            (f64::NAN, ""),
        ] {
            assert_eq!(two_digits(v), want, "{v}");
        }
    }

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
