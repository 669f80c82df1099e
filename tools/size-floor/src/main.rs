//! A slider and the chart it redraws, as the lab's first screen has them, with nothing else.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::{HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

/// What a run sends the chart, read with postcard as the page reads the worker's replies.
#[derive(serde::Deserialize, Default, Clone, PartialEq)]
struct Run {
    t: Vec<f64>,
    y: Vec<f64>,
    title: String,
}

#[derive(Properties, PartialEq)]
struct ChartProps {
    run: Run,
}

#[function_component]
fn Chart(props: &ChartProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        use_effect_with(props.run.clone(), move |run| {
            let Some(c) = canvas.cast::<HtmlCanvasElement>() else {
                return;
            };
            let Some(backend) = CanvasBackend::with_canvas_object(c) else {
                return;
            };
            let area = backend.into_drawing_area();
            let _ = area.fill(&WHITE);
            let Ok(mut chart) = ChartBuilder::on(&area)
                .caption(&run.title, ("sans-serif", 14))
                .x_label_area_size(30)
                .y_label_area_size(40)
                .build_cartesian_2d(0f64..10f64, 0f64..100f64)
            else {
                return;
            };
            let _ = chart.configure_mesh().draw();
            let points = run.t.iter().copied().zip(run.y.iter().copied());
            let _ = chart.draw_series(LineSeries::new(points, &BLUE));
        });
    }
    html! { <canvas ref={canvas} width="600" height="300" /> }
}

#[function_component]
fn App() -> Html {
    let value = use_state(|| 10.0);
    let oninput = {
        let value = value.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            value.set(input.value().parse().unwrap_or(0.0));
        })
    };
    // Read through postcard, as the page reads a reply, so that its decoder is in the module;
    // the points themselves are made here, there being no worker.
    let mut run: Run = postcard::from_bytes(&[0, 0, 0]).unwrap_or_default();
    run.t = (0..100).map(|i| f64::from(i) / 10.0).collect();
    run.y = run.t.iter().map(|t| (t * *value).sin() * 50.0 + 50.0).collect();
    run.title = format!("value {}", *value);
    html! {
        <div>
            <input type="range" {oninput} />
            <p>{ format!("{:.2}", *value) }</p>
            <Chart {run} />
        </div>
    }
}

fn main() {
    yew::Renderer::<App>::new().render();
}
