//! "My number, explained": what the engineer measured on the path the controls describe, and
//! each single cause that gives it there, found by simulation in a worker
//! (`tcplab::diagnose::explain`), each one click from its run.

use std::rc::Rc;

use tcplab::diagnose::{Explanation, Measured};
use tcplab::Scenario;
use yew::prelude::*;

use crate::i18n::Lang;
use crate::model::format;
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
    Refused(String),
}

#[function_component]
pub fn Explain(props: &ExplainProps) -> Html {
    let lang = props.lang;
    let answer = use_state_eq(|| Answer::None);
    let time = use_state_eq(|| false);
    let value = use_state_eq(|| "1.8".to_string());
    let pool = {
        let answer = answer.clone();
        use_memo((), move |_| {
            Pool::new(
                WORKER_SCRIPT,
                1,
                Callback::from(move |f: Finished| match f.done {
                    Done::Explanation(e) => answer.set(match e.open() {
                        Ok(e) => Answer::Got(Rc::new(e)),
                        Err(e) => Answer::Refused(e),
                    }),
                    Done::Error(e) => answer.set(Answer::Refused(e)),
                    _ => {}
                }),
            )
        })
    };
    let on_ask = {
        let (answer, time, value, pool) =
            (answer.clone(), time.clone(), value.clone(), pool.clone());
        let query = props.scenario.to_query();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let field = if *time { "--time" } else { "--goodput" };
            match value.trim().parse::<f64>() {
                Ok(v) if v > 0.0 && v.is_finite() => {
                    let measured = if *time {
                        Measured::Time(v)
                    } else {
                        Measured::Goodput(v)
                    };
                    answer.set(Answer::Asking);
                    pool.run(vec![Job {
                        query: query.clone(),
                        want: Want::Explain(measured),
                    }]);
                }
                _ => answer.set(Answer::Refused(format!(
                    "{field}: \"{}\" is not a number above 0",
                    value.trim()
                ))),
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
        let value = value.clone();
        Callback::from(move |e: InputEvent| {
            let input: Option<web_sys::HtmlInputElement> = e.target_dyn_into();
            if let Some(i) = input {
                value.set(i.value());
            }
        })
    };
    let s = &props.scenario;
    let path = match lang {
        Lang::En => format!(
            "On the path the controls describe: RTT {} ms, {} Mbit/s, {}.",
            format::number(s.rtt_ms, 3),
            format::number(s.bw_mbps, 4),
            match s.app {
                tcplab::App::Body => format!("a body of {}", format::bytes(s.body)),
                other => format!("app={}", other.name()),
            }
        ),
        Lang::Zh => format!(
            "在控件描述的路径上：RTT {} ms，{} Mbit/s，{}。",
            format::number(s.rtt_ms, 3),
            format::number(s.bw_mbps, 4),
            match s.app {
                tcplab::App::Body => format!("一个 {} 的请求体", format::bytes(s.body)),
                other => format!("app={}", other.name()),
            }
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
                <input id="explain-value" type="text" inputmode="decimal" value={(*value).clone()}
                    aria-label={lang.pick("What was measured", "测得的值")} oninput={on_value} />
                <button type="submit" id="explain-ask">{ lang.pick("Explain", "解读") }</button>
            </form>
            { match &*answer {
                Answer::None => html! {},
                Answer::Asking => html! {
                    <p class="busy" id="explain-busy">{ lang.pick("Simulating each cause…", "正在逐个模拟原因…") }</p>
                },
                Answer::Refused(e) => html! { <p class="capture-error" id="explain-error" role="alert">{ e.clone() }</p> },
                Answer::Got(e) => html! {
                    <div id="explain-answer">
                        <h3>{ lang.pick("Each of these gives it on that path", "在这条路径上，以下每一个都能得到它") }</h3>
                        if e.candidates.is_empty() {
                            <p id="explain-none">{ lang.pick("No single cause does.", "没有单一原因能做到。") }</p>
                        }
                        <ul class="explain-candidates">
                            { for e.candidates.iter().map(|c| {
                                let cause = serde_json::to_value(c.cause).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
                                html! {
                                    <li data-cause={cause}>
                                        <a href={format!("?{}", c.scenario)}>{ c.text.clone() }</a>
                                        <code>{ format!(" {}", c.scenario) }</code>
                                    </li>
                                }
                            }) }
                        </ul>
                        <h3>{ lang.pick("Ruled out", "被排除") }</h3>
                        <ul class="explain-ruled-out">
                            { for e.ruled_out.iter().map(|r| {
                                let cause = serde_json::to_value(r.cause).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
                                html! { <li data-cause={cause}>{ r.why.clone() }</li> }
                            }) }
                        </ul>
                    </div>
                },
            } }
        </section>
    }
}
