//! The lesson's panel above the player: the part's words with the run's figures marked, its
//! question (choices, or a number), the answer revealed with the lab's explanation, and the
//! way through the parts.

use crate::charts::ViewRef;
use std::rc::Rc;

use tcplab::lesson::question::read_number;
use tcplab::lesson::slots::Piece;
use tcplab::lesson::{Form, Given, Refusal, Shown};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{Action, State};
use crate::i18n::Lang;
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
            state.part().show(&evidence, lang.language())
        },
    );
    let emit = |a: Action| {
        let on_action = props.on_action.clone();
        Callback::from(move |_: MouseEvent| on_action.emit(a))
    };
    let n = lesson.parts.len();
    let veiled = state.veiled();
    let dots = lesson.parts.iter().enumerate().map(|(i, p)| {
        let current = i == state.part;
        // A later part's title would answer the question pending ("Recovery done" names what
        // the third duplicate ACK sets off): while the run is veiled it is only its number.
        let part = match lang {
            Lang::En => format!("Part {}", i + 1),
            Lang::Zh => format!("第 {} 部分", i + 1),
        };
        // Named by its number and title, not by its digit alone.
        let (title, label) = if veiled && i > state.part {
            (part.clone(), part)
        } else {
            let title = lang.pick(p.title.en, p.title.zh).to_string();
            let label = format!("{part}{}{title}", lang.pick(": ", "："));
            (title, label)
        };
        html! {
            <li>
                <button type="button" class={classes!("lesson-dot", current.then_some("current"))}
                    id={format!("lesson-go-{}", i + 1)} aria-current={current.then_some("step")}
                    {title} aria-label={label} onclick={emit(Action::Go(i))}>
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
                    // A part, or a reset, starts its question afresh: the box is emptied of
                    // what was typed before.
                    <Question key={format!("{}-{}-{}", lesson.name, state.part, state.tries)}
                        form={FormKind::of(&q.form)} answer={answer.clone()} given={state.given}
                        revealed={state.revealed} present={state.present} {lang}
                        on_action={props.on_action.clone()} />
                }
            </>
        },
        None => html! {
            <p class="lesson-say busy" id="lesson-say" aria-busy="true">
                { lang.pick("Finding this part's moment in the run…", "正在运行中寻找这一部分的时刻…") }
            </p>
        },
    };
    let next_label = next_label(state.pending(), state.given.is_some(), lang);
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
                    if state.present && state.pending() {
                        { " · " }<kbd>{ "Enter" }</kbd>{ lang.pick(" reveal", " 揭晓") }
                    }
                    if state.present {
                        { " · " }<kbd>{ "←" }</kbd><kbd>{ "→" }</kbd>{ lang.pick(" parts · ", " 切换部分 · ") }
                        <kbd>{ "Shift" }</kbd>{ "+" }<kbd>{ "←" }</kbd><kbd>{ "→" }</kbd>
                        { lang.pick(" a round trip · ", " 一个往返 · ") }
                        <kbd>{ "Space" }</kbd>{ lang.pick(" play", " 播放") }
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

/// The footer's main button: a pending question is revealed, checking the class's answer if
/// it has one; then the next part.
fn next_label(pending: bool, chosen: bool, lang: Lang) -> &'static str {
    match (pending, chosen) {
        (true, true) => lang.pick("Check and reveal ▸", "核对并揭晓 ▸"),
        (true, false) => lang.pick("Reveal ▸", "揭晓 ▸"),
        (false, _) => lang.pick("Next ▸", "下一步 ▸"),
    }
}

#[derive(Properties, PartialEq)]
struct QuestionProps {
    form: FormKind,
    answer: tcplab::lesson::Answer,
    given: Option<Given>,
    revealed: bool,
    /// The presenter's mode: the answer box takes the focus, so that the digits typed go to it.
    present: bool,
    lang: Lang,
    on_action: Callback<Action>,
}

#[function_component]
fn Question(props: &QuestionProps) -> Html {
    let lang = props.lang;
    let a = &props.answer;
    let input = use_node_ref();
    // Why the number in the box is not read, said as it is typed.
    let problem = use_state_eq(|| None::<String>);
    {
        // A number asked in the presenter's mode: the box has the focus, so the digits a
        // presenter types go to it (the clicker's keys still move on from it). Without
        // scrolling to it: on a phone the box is below the fold, and the page opened on it,
        // past the lesson's title and its first sentences.
        let input = input.clone();
        let wants = props.present && !props.revealed && props.form == FormKind::Number;
        use_effect_with(wants, move |wants| {
            if *wants {
                if let Some(i) = input.cast::<HtmlInputElement>() {
                    let options = web_sys::FocusOptions::new();
                    options.set_prevent_scroll(true);
                    let _ = i.focus_with_options(&options);
                }
            }
        });
    }
    let feedback = props
        .given
        .filter(|_| props.revealed)
        .map(|g| a.grade(g, lang.language()));
    let choices = a.choices.iter().enumerate().map(|(i, text)| {
        let chosen = props.given == Some(Given::Choice(i));
        let right = props.revealed && a.value == Given::Choice(i);
        let wrong = props.revealed && chosen && !right;
        let on_action = props.on_action.clone();
        // Choosing points at the choice: the reveal (its button, Enter, the clicker) checks it.
        html! {
            <li>
                <button type="button"
                    class={classes!("choice", chosen.then_some("chosen"), right.then_some("right"), wrong.then_some("wrong"))}
                    data-choice={i.to_string()} disabled={props.revealed}
                    aria-pressed={chosen.to_string()}
                    onclick={Callback::from(move |_: MouseEvent| on_action.emit(Action::Choose(Some(Given::Choice(i)))))}>
                    <span class="choice-letter">{ LETTERS.get(i).copied().unwrap_or("·") }</span>
                    <span class="choice-text">{ text.clone() }</span>
                </button>
            </li>
        }
    });
    // The number as typed is the class's answer, checked at the reveal. One the box refuses is
    // none: a minus sign or an exponent says why at once, while what is not yet a number ("",
    // ".", "1,") waits for the Answer button to say how to write one.
    let on_input = {
        let (problem, on_action) = (problem.clone(), props.on_action.clone());
        let (signed, unit) = (a.signed, a.unit.clone());
        Callback::from(move |e: InputEvent| {
            let Some(box_) = e.target_dyn_into::<HtmlInputElement>() else {
                return;
            };
            match read_number(&box_.value(), signed) {
                Ok(v) => {
                    problem.set(None);
                    on_action.emit(Action::Choose(Some(Given::Number(v))));
                }
                Err(why) => {
                    problem.set(
                        (why != Refusal::NotANumber).then(|| why.message(&unit, lang.language())),
                    );
                    on_action.emit(Action::Choose(None));
                }
            }
        })
    };
    let on_submit = {
        let (input, problem, on_action, answer) = (
            input.clone(),
            problem.clone(),
            props.on_action.clone(),
            a.clone(),
        );
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let text = input
                .cast::<HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            match answer.read(&text, lang.language()) {
                Ok(given) => {
                    problem.set(None);
                    on_action.emit(Action::Answer(given));
                }
                Err(why) => problem.set(Some(why)),
            }
        })
    };
    // The box is the class's while the question waits (what they type stays as typed); the
    // reveal writes the number it read.
    let shown_number = match (props.revealed, props.given) {
        (true, Some(Given::Number(v))) => Some(tcplab::player::explain::number(v, 4)),
        (true, _) => Some(String::new()),
        (false, _) => None,
    };
    let problem_shown = (*problem).clone().filter(|_| !props.revealed);
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
                        <input type="text" inputmode="decimal" id={super::keys::NUMBER_BOX} ref={input}
                            value={shown_number} disabled={props.revealed} autocomplete="off"
                            oninput={on_input}
                            aria-invalid={problem_shown.is_some().to_string()}
                            aria-describedby="lesson-number-problem" />
                    </label>
                    <span class="number-unit">{ a.unit.clone() }</span>
                    <button type="submit" id="lesson-answer" disabled={props.revealed}>
                        { lang.pick("Answer", "回答") }
                    </button>
                    if let Some(p) = problem_shown {
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

    use super::next_label;
    use crate::i18n::Lang;

    #[test]
    fn the_footer_says_whether_the_reveal_checks_an_answer() {
        assert_eq!(next_label(true, false, Lang::En), "Reveal ▸");
        assert_eq!(next_label(true, true, Lang::En), "Check and reveal ▸");
        assert_eq!(next_label(false, true, Lang::En), "Next ▸");
    }

    /// The declarations of the style sheet's rule whose selectors include `selector`.
    fn rule<'a>(css: &'a str, selector: &str) -> Option<&'a str> {
        css.split('}').find_map(|block| {
            let (selectors, body) = block.split_once('{')?;
            // A comment before the rule belongs to the block before it.
            let selectors = selectors.rsplit("*/").next().unwrap_or(selectors);
            selectors
                .split(',')
                .any(|s| s.trim() == selector)
                .then_some(body)
        })
    }

    fn rem(body: &str, property: &str) -> Option<f64> {
        body.split(';').find_map(|d| {
            let (k, v) = d.split_once(':')?;
            (k.trim() == property).then_some(())?;
            v.trim().strip_suffix("rem")?.parse().ok()
        })
    }

    #[test]
    fn the_presenters_reveal_is_in_the_questions_type_across_the_panel() {
        let css = include_str!("../../../assets/style.css");
        let ask = rule(css, ".page.presenting .question-ask").expect("the question's rule");
        let why = rule(css, ".page.presenting .lesson-why").expect("the reveal's rule");
        let (ask_size, why_size) = (
            rem(ask, "font-size").expect("a size"),
            rem(why, "font-size").expect("a size"),
        );
        assert!(
            why_size >= 0.9 * ask_size,
            "{why_size} rem against {ask_size}"
        );
        assert!(why.contains("max-width: none"), "{why}");
        assert!(rule(css, ".page.presenting .feedback").is_some());
    }
}
