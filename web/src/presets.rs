//! The presets menu: every named experiment of the spec, with what it shows and where it comes
//! from. Choosing one loads it as a new step in the history (`?preset=NAME`).

use tcplab::scenario::{Preset, PRESETS};
use tcplab::Scenario;
use yew::prelude::*;

use crate::i18n::Lang;

#[derive(Properties, PartialEq)]
pub struct PresetsProps {
    pub lang: Lang,
    /// The preset the scenario on show started from.
    pub current: Option<&'static str>,
    pub on_load: Callback<Scenario>,
}

#[function_component]
pub fn Presets(props: &PresetsProps) -> Html {
    let (menu, on_key) = crate::menu::use_menu();
    let lang = props.lang;
    let choose = |scenario: Scenario| {
        let on_load = props.on_load.clone();
        let menu = menu.clone();
        Callback::from(move |_: MouseEvent| {
            crate::menu::close(&menu);
            on_load.emit(scenario.clone());
        })
    };
    let item = |p: &'static Preset| {
        // Every preset of the spec parses (core's tests say so); one that did not is left out
        // rather than offered broken.
        let Ok(scenario) = p.scenario() else {
            return Html::default();
        };
        let current = props.current == Some(p.name);
        html! {
            <li>
                <button type="button" class={classes!("preset", current.then_some("current"))}
                    id={format!("preset-{}", p.name)} onclick={choose(scenario)}
                    aria-current={current.then_some("true")}>
                    <span class="preset-name">{ p.name }</span>
                    <span class="preset-what">{ lang.pick(p.en, p.zh) }</span>
                    <span class="preset-source">{ format!("{}: {}", lang.pick("Source", "来源"), p.source.words(lang.language())) }</span>
                </button>
            </li>
        }
    };
    html! {
        <details class="presets" id="presets" ref={menu.clone()} onkeydown={on_key}>
            <summary>{ lang.pick("Presets", "预设实验") }</summary>
            <ul class="preset-list" role="list">
                { for PRESETS.iter().map(item) }
                <li>
                    <button type="button" class="preset" id="preset-defaults"
                        onclick={choose(Scenario::default())}>
                        <span class="preset-name">{ lang.pick("defaults", "默认") }</span>
                        <span class="preset-what">{ lang.pick(
                            "Every key at its default: a 2.5 MB body over 28 ms at 1 Gbit/s.",
                            "所有参数取默认值：在 28 ms、1 Gbit/s 的路径上传 2.5 MB。") }</span>
                    </button>
                </li>
            </ul>
        </details>
    }
}
