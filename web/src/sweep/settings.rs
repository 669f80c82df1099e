//! The settings of a sweep and of a matrix: a knob and its values, the seeds, the metric.

use tcplab::scenario::Key;
use tcplab::Scenario;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::controls::use_draft;
use crate::i18n::Lang;
use crate::model::knobs::knob_of;
use crate::model::views::{seeds, Axis, Metric, MAX_RUNS, SWEEP_KEYS};

fn key_label(key: Key, lang: Lang) -> String {
    knob_of(key).map_or(key.name().to_string(), |k| k.label(lang).to_string())
}

#[derive(Properties, PartialEq)]
pub struct AxisFieldProps {
    pub lang: Lang,
    /// Names the fields (`sweep`, `matrix-rows`...).
    pub id: &'static str,
    pub label: &'static str,
    pub base: Scenario,
    /// `None`: no knob (a matrix without panels).
    pub axis: Option<Axis>,
    /// Offer "none" as a knob.
    #[prop_or_default]
    pub optional: bool,
    /// Knobs another field has taken.
    #[prop_or_default]
    pub taken: Vec<Key>,
    /// Offer one flow's value alone for a key of one value per flow (a sweep's, not a
    /// matrix's).
    #[prop_or_default]
    pub per_flow: bool,
    pub on_axis: Callback<Option<Axis>>,
}

/// A knob and its values. A new knob starts from its usual values; values are read when the
/// box is left or Enter is pressed, through the scenario's rules, and a refusal says why.
#[function_component]
pub fn AxisField(props: &AxisFieldProps) -> Html {
    let lang = props.lang;
    let error = use_state_eq(|| None::<String>);
    {
        let error = error.clone();
        use_effect_with(props.axis.clone(), move |_| error.set(None));
    }
    let on_key = {
        let (base, on_axis) = (props.base.clone(), props.on_axis.clone());
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            let axis = Key::from_name(&select.value()).map(|k| Axis::default_for(k, &base));
            on_axis.emit(axis);
        })
    };
    let on_commit = {
        let (base, on_axis, error) = (props.base.clone(), props.on_axis.clone(), error.clone());
        let (key, flow) = (
            props.axis.as_ref().map(|a| a.key),
            props.axis.as_ref().and_then(|a| a.flow),
        );
        Callback::from(move |text: String| {
            let Some(key) = key else { return };
            match Axis::parse_for(key, flow, &text, &base, "values") {
                Ok(axis) => {
                    error.set(None);
                    on_axis.emit(Some(axis));
                }
                Err(bad) => error.set(Some(bad.problem)),
            }
        })
    };
    // Which flow's value: every flow's, or one flow's alone (`flow=N`).
    let on_flow = {
        let (base, on_axis, error) = (props.base.clone(), props.on_axis.clone(), error.clone());
        let axis = props.axis.clone();
        Callback::from(move |e: Event| {
            let Some(axis) = &axis else { return };
            let select: HtmlSelectElement = e.target_unchecked_into();
            let flow = select
                .value()
                .parse::<usize>()
                .ok()
                .map(|n| n.saturating_sub(1));
            match axis.for_flow(flow, &base) {
                Ok(a) => {
                    error.set(None);
                    on_axis.emit(Some(a));
                }
                Err(bad) => error.set(Some(bad.problem)),
            }
        })
    };
    let flows = props.base.connections();
    let flow_choice =
        props.per_flow && flows >= 2 && props.axis.as_ref().is_some_and(|a| a.key.per_flow());
    let text = props.axis.as_ref().map(Axis::text).unwrap_or_default();
    let (shown, on_input, on_change) = use_draft(&text, error.is_some(), on_commit);
    let id = props.id;
    let current = props.axis.as_ref().map(|a| a.key);
    html! {
        <div class="axis-field">
            <label for={format!("{id}-key")}>{ props.label }</label>
            <select id={format!("{id}-key")} onchange={on_key}>
                if props.optional {
                    <option value="" selected={current.is_none()}>{ lang.pick("none", "无") }</option>
                }
                { for SWEEP_KEYS.iter().filter(|k| Some(**k) == current || !props.taken.contains(k)).map(|k| html! {
                    <option value={k.name()} selected={current == Some(*k)}>{ key_label(*k, lang) }</option>
                }) }
            </select>
            if flow_choice {
                <label for={format!("{id}-flow")} class="flow-label">{ lang.pick("for", "用于") }</label>
                <select id={format!("{id}-flow")} onchange={on_flow}>
                    <option value="" selected={props.axis.as_ref().is_some_and(|a| a.flow.is_none())}>
                        { lang.pick("every flow", "所有流") }
                    </option>
                    { for (0..flows).map(|f| html! {
                        <option value={(f + 1).to_string()}
                            selected={props.axis.as_ref().is_some_and(|a| a.flow == Some(f))}>
                            { props.base.flow_name(f, lang.language()) }
                        </option>
                    }) }
                </select>
            }
            if props.axis.is_some() {
                <input type="text" class="textbox values" id={format!("{id}-values")}
                    aria-label={lang.pick("values, comma-separated", "取值，逗号分隔")}
                    aria-invalid={error.is_some().to_string()}
                    value={shown} oninput={on_input} onchange={on_change} spellcheck="false" />
            }
            if let Some(e) = &*error {
                <p class="knob-error" id={format!("{id}-error")} role="alert">{ e.clone() }</p>
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct CommonProps {
    pub lang: Lang,
    pub id: &'static str,
    pub seeds: u32,
    pub metric: Metric,
    /// Points (values, or cells) the seeds multiply.
    pub points: usize,
    pub on_seeds: Callback<u32>,
    pub on_metric: Callback<Metric>,
}

/// Seeds per point and the metric.
#[function_component]
pub fn SeedsMetric(props: &CommonProps) -> Html {
    let lang = props.lang;
    let error = use_state_eq(|| None::<String>);
    let on_commit = {
        let (on_seeds, error, points) = (props.on_seeds.clone(), error.clone(), props.points);
        Callback::from(move |text: String| match seeds(text.trim(), points) {
            Ok(n) => {
                error.set(None);
                on_seeds.emit(n);
            }
            Err(bad) => error.set(Some(bad.problem)),
        })
    };
    let on_metric = {
        let on_metric = props.on_metric.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(m) = Metric::from_name(&select.value()) {
                on_metric.emit(m);
            }
        })
    };
    let (shown, on_input, on_change) =
        use_draft(&props.seeds.to_string(), error.is_some(), on_commit);
    let id = props.id;
    html! {
        <div class="seeds-metric">
            <label for={format!("{id}-seeds")}>{ lang.pick("Seeds per point", "每点种子数") }</label>
            <input type="number" min="1" max="50" class="numbox" id={format!("{id}-seeds")}
                aria-invalid={error.is_some().to_string()}
                value={shown} oninput={on_input} onchange={on_change} />
            <label for={format!("{id}-metric")}>{ lang.pick("Metric", "指标") }</label>
            <select id={format!("{id}-metric")} onchange={on_metric}>
                { for Metric::ALL.iter().map(|m| html! {
                    <option value={m.name()} selected={*m == props.metric}>{ m.label(lang) }</option>
                }) }
            </select>
            <span class="runs-count">
                { match lang {
                    Lang::En => format!("{} runs (at most {MAX_RUNS})", props.points * props.seeds as usize),
                    Lang::Zh => format!("共 {} 次运行（至多 {MAX_RUNS}）", props.points * props.seeds as usize),
                } }
            </span>
            if let Some(e) = &*error {
                <p class="knob-error" id={format!("{id}-seeds-error")} role="alert">{ e.clone() }</p>
            }
        </div>
    }
}
