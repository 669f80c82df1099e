//! The lesson's panel above the player: the part's words with the run's figures marked, its
//! question (choices, or a number), the answer revealed with the lab's explanation, and the
//! way through the parts.

use crate::charts::ViewRef;
use std::rc::Rc;

use tcplab::lesson::slots::Piece;
use tcplab::lesson::{Form, Given, Shown};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{Action, State};
use crate::i18n::Lang;
use crate::player::log::language;
use crate::player::StepsRef;

#[derive(Properties, PartialEq, Clone)]
pub struct LessonPanelProps {
    pub state: State,
    pub scenario: tcplab::Scenario,
    /// The recorded steps around the player's cursor.
    pub steps: Option<StepsRef>,
    /// The run on show, once it is in (the summary some sentences read from).
    pub view: Option<ViewRef>,
    pub lang: Lang,
    pub on_action: Callback<Action>,
}

/// A letter for each choice, as a class calls them out.
const LETTERS: [&str; 6] = ["A", "B", "C", "D", "E", "F"];

#[function_component]
pub fn LessonPanel(props: &LessonPanelProps) -> Html {
    let lang = props.lang;
    let state = props.state;
    let lesson = state.lesson;
    let part = state.part();
    let shown: Rc<Option<Shown>> = use_memo(
        (
            props.steps.clone(),
            props.view.clone(),
            state,
            lang,
            props.scenario.clone(),
        ),
        |(steps, view, state, lang, scenario)| {
            let steps = steps.as_ref()?;
            let evidence = tcplab::lesson::Evidence {
                scenario,
                steps: Some(&steps.0),
                summary: view.as_ref().map(|v| &v.summary),
            };
            state.part().show(&evidence, language(*lang))
        },
    );
    let emit = |a: Action| {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(a))
    };
    let n = lesson.parts.len();
    let dots = lesson.parts.iter().enumerate().map(|(i, p)| {
        let current = i == state.part;
        html! {
            <li>
                <button type="button" class={classes!("lesson-dot", current.then_some("current"))}
                    id={format!("lesson-go-{}", i + 1)} aria-current={current.then_some("step")}
                    title={lang.pick(p.title.en, p.title.zh)} onclick={emit(Action::Go(i))}>
                    { (i + 1).to_string() }
                </button>
            </li>
        }
    });
    let body = match shown.as_ref() {
        Some(shown) => html! {
            <>
                <p class="lesson-say" id="lesson-say">{ for shown.say.iter().map(piece) }</p>
                if let (Some(q), Some(answer)) = (part.question.as_ref(), shown.answer.as_ref()) {
                    <Question form={FormKind::of(&q.form)} answer={answer.clone()} given={state.given}
                        revealed={state.revealed} {lang} on_action={props.on_action.clone()} />
                }
            </>
        },
        None => html! {
            <p class="lesson-say busy" id="lesson-say" aria-busy="true">
                { lang.pick("Finding this part's moment in the run…", "正在运行中寻找这一部分的时刻…") }
            </p>
        },
    };
    let next_label = if state.pending() {
        lang.pick("Reveal ▸", "揭晓 ▸")
    } else {
        lang.pick("Next ▸", "下一步 ▸")
    };
    html! {
        <section class={classes!("lesson", state.present.then_some("presenting"))} id="lesson"
            data-lesson={lesson.name} data-lesson-part={(state.part + 1).to_string()}
            data-pending={state.pending().to_string()}
            aria-label={lang.pick("Lesson", "课程")}>
            <header class="lesson-head">
                <span class="lesson-title" id="lesson-title">
                    { lang.pick(lesson.title.en, lesson.title.zh) }
                </span>
                <span class="lesson-count">
                    { match lang {
                        Lang::En => format!("part {} of {n}", state.part + 1),
                        Lang::Zh => format!("第 {} 部分，共 {n} 部分", state.part + 1),
                    } }
                </span>
                <span class="lesson-tools">
                    <button type="button" class="mini" id="lesson-present"
                        aria-pressed={state.present.to_string()}
                        title={lang.pick("Large type for a projector; PageDown and PageUp, or the arrows, move through the parts",
                            "投影用的大字体；PageDown、PageUp 或方向键切换部分")}
                        onclick={emit(Action::Present(!state.present))}>
                        { if state.present { lang.pick("Leave presenter mode", "退出演示模式") }
                          else { lang.pick("Present", "演示") } }
                    </button>
                    <button type="button" class="mini" id="lesson-leave" onclick={emit(Action::Leave)}
                        title={lang.pick("Put the lesson away and keep its scenario on show", "收起课程，保留它的场景")}>
                        { lang.pick("Close lesson", "关闭课程") }
                    </button>
                </span>
            </header>
            <ol class="lesson-dots" aria-label={lang.pick("Parts", "各部分")}>{ for dots }</ol>
            <h2 class="lesson-part-title" id="lesson-part-title">
                { lang.pick(part.title.en, part.title.zh) }
            </h2>
            { body }
            <footer class="lesson-foot">
                <button type="button" id="lesson-back" disabled={state.part == 0} onclick={emit(Action::Back)}>
                    { lang.pick("◂ Back", "◂ 上一步") }
                </button>
                <button type="button" id="lesson-reset" onclick={emit(Action::Reset)}
                    title={lang.pick("This part from its moment again, unanswered (R)", "从这一部分的时刻重来，清除答案（R）")}>
                    { lang.pick("Reset this part", "重置这一部分") }
                </button>
                <button type="button" id="lesson-next" class="primary"
                    disabled={!state.pending() && state.is_last()} onclick={emit(Action::Next)}>
                    { next_label }
                </button>
                <span class="lesson-keys">
                    <kbd>{ "PageDown" }</kbd>{ lang.pick(" on · ", " 前进 · ") }
                    <kbd>{ "PageUp" }</kbd>{ lang.pick(" back · ", " 后退 · ") }
                    <kbd>{ "R" }</kbd>{ lang.pick(" reset", " 重置") }
                    if state.present {
                        { " · " }<kbd>{ "Esc" }</kbd>{ lang.pick(" leave presenter mode", " 退出演示") }
                    }
                </span>
            </footer>
        </section>
    }
}

/// A piece of a sentence: a figure from the run is marked with the slot it was read from
/// (`data-slot="cwnd"`), so that it can be held against the readout it names.
fn piece(p: &Piece) -> Html {
    match p.slot {
        Some(slot) => html! { <span class="figure" data-slot={slot}>{ p.text.clone() }</span> },
        None => html! { { p.text.clone() } },
    }
}

/// The form of a question, without its answer function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FormKind {
    Choice,
    Number,
}

impl FormKind {
    fn of(form: &Form) -> FormKind {
        match form {
            Form::Choice(_) => FormKind::Choice,
            Form::Number { .. } => FormKind::Number,
        }
    }

    fn name(self) -> &'static str {
        match self {
            FormKind::Choice => "choice",
            FormKind::Number => "number",
        }
    }
}

#[derive(Properties, PartialEq)]
struct QuestionProps {
    form: FormKind,
    answer: tcplab::lesson::Answer,
    given: Option<Given>,
    revealed: bool,
    lang: Lang,
    on_action: Callback<Action>,
}

/// Reads a number as a class would write it: `16`, `8.7`, `1,250`, `2 400`.
pub fn read_number(text: &str) -> Option<f64> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| !matches!(c, ',' | ' ' | '\u{a0}' | '_'))
        .collect();
    if cleaned.is_empty() || cleaned.len() > 32 {
        return None;
    }
    cleaned.parse::<f64>().ok().filter(|v| v.is_finite())
}

#[function_component]
fn Question(props: &QuestionProps) -> Html {
    let lang = props.lang;
    let a = &props.answer;
    let input = use_node_ref();
    let problem = use_state_eq(|| None::<&'static str>);
    let feedback = props
        .given
        .filter(|_| props.revealed)
        .map(|g| a.grade(g, language(lang)));
    let choices = a.choices.iter().enumerate().map(|(i, text)| {
        let chosen = props.given == Some(Given::Choice(i));
        let right = props.revealed && a.value == Given::Choice(i);
        let wrong = props.revealed && chosen && !right;
        let on_action = props.on_action.clone();
        html! {
            <li>
                <button type="button"
                    class={classes!("choice", chosen.then_some("chosen"), right.then_some("right"), wrong.then_some("wrong"))}
                    data-choice={i.to_string()} disabled={props.revealed}
                    aria-pressed={chosen.to_string()}
                    onclick={Callback::from(move |_: MouseEvent| on_action.emit(Action::Answer(Given::Choice(i))))}>
                    <span class="choice-letter">{ LETTERS.get(i).copied().unwrap_or("·") }</span>
                    <span class="choice-text">{ text.clone() }</span>
                </button>
            </li>
        }
    });
    let on_submit = {
        let (input, problem, on_action) = (input.clone(), problem.clone(), props.on_action.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let text = input
                .cast::<HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            match read_number(&text) {
                Some(v) => {
                    problem.set(None);
                    on_action.emit(Action::Answer(Given::Number(v)));
                }
                None => problem.set(Some(lang.pick(
                    "Write a number, such as 16 or 8.5.",
                    "请填写一个数字，例如 16 或 8.5。",
                ))),
            }
        })
    };
    let given_number = match props.given {
        Some(Given::Number(v)) => tcplab::player::explain::number(v, 4),
        _ => String::new(),
    };
    html! {
        <div class="question" id="lesson-question" data-question={props.form.name()}
            data-revealed={props.revealed.to_string()}>
            <p class="question-ask" id="lesson-ask">{ a.ask.clone() }</p>
            if props.form == FormKind::Choice {
                <ol class="choices" id="lesson-choices">{ for choices }</ol>
            } else {
                <form class="number-answer" onsubmit={on_submit}>
                    <label>
                        <span class="visually-hidden">{ lang.pick("Your answer", "你的答案") }</span>
                        <input type="text" inputmode="decimal" id="lesson-number" ref={input}
                            value={given_number} disabled={props.revealed} autocomplete="off"
                            aria-describedby="lesson-number-problem" />
                    </label>
                    <span class="number-unit">{ a.unit.clone() }</span>
                    <button type="submit" id="lesson-answer" disabled={props.revealed}>
                        { lang.pick("Answer", "回答") }
                    </button>
                    if let Some(p) = *problem {
                        <span class="field-error" id="lesson-number-problem" role="alert">{ p }</span>
                    }
                </form>
            }
            if props.revealed {
                if let Some(f) = feedback {
                    <p class={classes!("feedback", if f.right { "right" } else { "wrong" })}
                        id="lesson-feedback" role="status">{ f.text }</p>
                }
                <p class="lesson-why" id="lesson-why" data-answer={answer_value(a.value)}>
                    <strong>{ lang.pick("Answer: ", "答案：") }{ a.text.clone() }</strong>{ " " }{ a.why.clone() }
                </p>
            }
        </div>
    }
}

fn answer_value(v: Given) -> String {
    match v {
        Given::Choice(i) => i.to_string(),
        Given::Number(x) => x.to_string(),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::read_number;

    #[test]
    fn a_number_is_read_as_a_class_writes_it() {
        assert_eq!(read_number(" 16 "), Some(16.0));
        assert_eq!(read_number("1,250"), Some(1250.0));
        assert_eq!(read_number("8.5"), Some(8.5));
        assert_eq!(read_number("2 400"), Some(2400.0));
        assert_eq!(read_number(""), None);
        assert_eq!(read_number("sixteen"), None);
        assert_eq!(read_number("inf"), None);
        assert_eq!(read_number(&"9".repeat(400)), None);
    }
}
