//! Seed 004's A/B matrix, runnable: one metric over rows × columns × panels of three knobs
//! (flows × delay × loss by default), as heatmaps with the number in every cell, the same
//! numbers in a table, and their export.

use std::rc::Rc;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;
use tcplab::sweep::{Spread, SweepRow};
use tcplab::Scenario;
use yew::prelude::*;

use super::chart::{key_desc, key_tick};
use super::settings::{AxisField, SeedsMetric};
use crate::batch::progress::Progress;
use crate::batch::Batch;
use crate::charts::canvas::{Canvas, Drawing};
use crate::charts::fmt;
use crate::charts::style::{Style, INK, MUTED, PAPER};
use crate::charts::Root;
use crate::export::{self, quoted, Item, Menu};
use crate::i18n::Lang;
use crate::model::format::number;
use crate::model::plan::cell;
use crate::model::views::{Axis, MatrixSpec, Metric};

/// One cell: its runs' metric over the seeds.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub spread: Option<Spread>,
    /// A completion median that lands on runs unfinished at `dur`: more than this, ms.
    pub exceeds: Option<f64>,
    pub runs: usize,
    pub complete: bool,
    pub error: Option<String>,
}

/// The cells panel by panel, row by row, column by column (the plan's order).
pub fn cells(base: &Scenario, spec: &MatrixSpec, batch: Option<&Batch>) -> Vec<Cell> {
    let seeds = spec.seeds as usize;
    let (nr, nc) = (spec.rows.values.len().max(1), spec.cols.values.len().max(1));
    (0..spec.cells())
        .map(|i| {
            let range = i * seeds..(i + 1) * seeds;
            let results = batch
                .and_then(|b| b.results.get(range.clone()))
                .unwrap_or_default();
            let runs = batch
                .map(|b| b.summaries(range.clone()))
                .unwrap_or_default();
            let (p, r, c) = (i / (nr * nc), (i / nc) % nr, i % nc);
            let mut axes = vec![(&spec.rows, r), (&spec.cols, c)];
            if let Some(panel) = &spec.panels {
                axes.push((panel, p));
            }
            // A cell's numbers are a sweep row's, so that its medians follow the runner's rules
            // (a run unfinished at `dur` counts as longer than every finished one).
            let row = match (cell(base, &axes), runs.is_empty()) {
                (Ok(s), false) => Some(SweepRow::new(spec.cols.key, &s, &runs, None)),
                _ => None,
            };
            Cell {
                spread: row
                    .as_ref()
                    .and_then(|r| super::data::spread(r, spec.metric)),
                exceeds: row
                    .as_ref()
                    .filter(|_| spec.metric == Metric::Completion)
                    .and_then(|r| r.completion_median_exceeds_ms),
                runs: runs.len(),
                complete: results.len() == seeds && results.iter().all(Option::is_some),
                error: batch.and_then(|b| b.error(range)),
            }
        })
        .collect()
}

fn panels(spec: &MatrixSpec) -> usize {
    spec.panels.as_ref().map_or(1, |p| p.values.len().max(1))
}

/// The heatmap's layout in CSS pixels at the default text size: the space left of the cells
/// (the rows' values and name), above a panel (its title), below it (the columns' values and
/// name), between panels, and the narrowest and the usual height of a cell.
const LEFT: f64 = 96.0;
const RIGHT: f64 = 10.0;
const ABOVE: f64 = 48.0;
const BELOW: f64 = 46.0;
const GAP: f64 = 18.0;
const CELL_H: f64 = 44.0;
/// A cell narrower than this cuts its number ("11.9" at the cells' text size).
const MIN_CELL_W: f64 = 52.0;
/// Room for the note above the first row of panels.
const NOTE: f64 = 30.0;

/// How many panels side by side fit a canvas `css_w` wide at text size `zoom`, each cell at
/// least [`MIN_CELL_W`] wide: all of them on a wide screen, fewer rows of them on a phone.
fn panels_per_row(spec: &MatrixSpec, css_w: f64, zoom: f64) -> usize {
    let np = panels(spec);
    let nc = spec.cols.values.len().max(1) as f64;
    let room = css_w / zoom - LEFT - RIGHT;
    let fit = ((room + GAP) / (nc * MIN_CELL_W + GAP)).floor();
    (fit.max(1.0) as usize).min(np)
}

/// The heatmap's height (CSS px at the default text size) with its panels laid out `k` a row.
fn heatmap_height(spec: &MatrixSpec, k: usize) -> f64 {
    let rows_of_panels = panels(spec).div_ceil(k.max(1)) as f64;
    let band = ABOVE + CELL_H * spec.rows.values.len() as f64 + BELOW;
    NOTE + rows_of_panels * band
}

fn panel_title(spec: &MatrixSpec, p: usize, lang: Lang) -> String {
    match &spec.panels {
        Some(axis) => format!(
            "{} = {}",
            key_desc(axis.key, lang),
            axis.values.get(p).map_or("", String::as_str)
        ),
        None => String::new(),
    }
}

/// Blues, light to dark: the colour of a cell at `t` in 0..=1.
fn ramp(t: f64) -> RGBColor {
    const STOPS: [(u8, u8, u8); 5] = [
        (0xf4, 0xf8, 0xfd),
        (0xc6, 0xdb, 0xef),
        (0x6b, 0xae, 0xd6),
        (0x21, 0x71, 0xb5),
        (0x08, 0x30, 0x6b),
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (STOPS.len() - 1) as f64;
    let i = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

pub struct Heatmap {
    pub spec: MatrixSpec,
    pub cells: Vec<Cell>,
    pub lang: Lang,
}

impl Drawing for Heatmap {
    fn draw(&self, root: &Root, st: &Style) -> Result<(), String> {
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        let (w, _) = root.dim_in_pixel();
        let w = w as i32;
        let spec = &self.spec;
        let lang = self.lang;
        let (nr, nc, np) = (spec.rows.values.len(), spec.cols.values.len(), panels(spec));
        if nr == 0 || nc == 0 {
            return Ok(());
        }
        // A median known only to pass a bound is coloured as the bound.
        let value = |c: &Cell| c.spread.map(|s| s.median).or(c.exceeds);
        let medians: Vec<f64> = self.cells.iter().filter_map(value).collect();
        let log = spec.metric != Metric::Retrans
            && !spec.metric.is_fraction()
            && medians.iter().all(|v| *v > 0.0);
        let scale = |v: f64| if log { v.ln() } else { v };
        let lo = medians
            .iter()
            .copied()
            .map(scale)
            .fold(f64::INFINITY, f64::min);
        let hi = medians
            .iter()
            .copied()
            .map(scale)
            .fold(f64::NEG_INFINITY, f64::max);
        // Small times are good, so the scale runs the other way for them.
        let better_low = matches!(
            spec.metric,
            Metric::Completion | Metric::P99 | Metric::Retrans
        );
        let t_of = |v: f64| {
            let t = if hi > lo {
                (scale(v) - lo) / (hi - lo)
            } else {
                0.5
            };
            if better_low {
                1.0 - t
            } else {
                t
            }
        };

        let k = panels_per_row(spec, f64::from(w) / st.dpr, st.zoom());
        let left = st.px(LEFT);
        let gap = st.px(GAP);
        let pw = ((w - left - st.px(RIGHT) - gap * (k as i32 - 1)) / k as i32).max(1);
        // Each row of panels is a band: its titles, its cells, the columns' values and name.
        let band = st.px(ABOVE + CELL_H * nr as f64 + BELOW);
        let note_h = st.px(NOTE);
        let ph = (band - st.px(ABOVE) - st.px(BELOW)).max(1);
        let (cw, ch) = (pw / nc as i32, ph / nr as i32);
        let label = st.text(0.95, INK);
        let desc = st.text(1.0, INK);
        for p in 0..np {
            let x0 = left + (p % k) as i32 * (pw + gap);
            let top = note_h + (p / k) as i32 * band + st.px(ABOVE);
            root.draw(&Text::new(
                panel_title(spec, p, lang),
                (x0 + pw / 2, top - st.px(6.0)),
                desc.pos(Pos::new(HPos::Center, VPos::Bottom)),
            ))
            .map_err(e)?;
            for r in 0..nr {
                for c in 0..nc {
                    let i = (p * nr + r) * nc + c;
                    let Some(cell) = self.cells.get(i) else {
                        continue;
                    };
                    // Row 0 at the top.
                    let (cx, cy) = (x0 + c as i32 * cw, top + r as i32 * ch);
                    let fill = value(cell).map_or(PAPER, |v| ramp(t_of(v) * 0.9 + 0.05));
                    root.draw(&Rectangle::new(
                        [(cx, cy), (cx + cw - 1, cy + ch - 1)],
                        fill.filled(),
                    ))
                    .map_err(e)?;
                    root.draw(&Rectangle::new(
                        [(cx, cy), (cx + cw - 1, cy + ch - 1)],
                        RGBColor(0xdd, 0xe2, 0xe9).stroke_width(st.stroke(1.0)),
                    ))
                    .map_err(e)?;
                    let dark = value(cell).is_some_and(|v| t_of(v) * 0.9 + 0.05 > 0.55);
                    let text = match (cell.spread, cell.exceeds, &cell.error) {
                        (Some(s), _, _) => fmt::sig(s.median),
                        (None, Some(b), _) => format!(">{}", fmt::sig(b)),
                        (None, None, Some(_)) => "×".to_string(),
                        (None, None, None) => "…".to_string(),
                    };
                    root.draw(&Text::new(
                        text,
                        (cx + cw / 2, cy + ch / 2),
                        st.text(1.1, if dark { PAPER } else { INK })
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    ))
                    .map_err(e)?;
                }
            }
            for c in 0..nc {
                let v = spec.cols.values[c]
                    .parse::<f64>()
                    .map_or(spec.cols.values[c].clone(), |v| key_tick(spec.cols.key, v));
                root.draw(&Text::new(
                    v,
                    (x0 + c as i32 * cw + cw / 2, top + ph + st.px(6.0)),
                    label.pos(Pos::new(HPos::Center, VPos::Top)),
                ))
                .map_err(e)?;
            }
            root.draw(&Text::new(
                key_desc(spec.cols.key, lang),
                (x0 + pw / 2, top + ph + st.px(BELOW) - st.px(4.0)),
                desc.pos(Pos::new(HPos::Center, VPos::Bottom)),
            ))
            .map_err(e)?;
            // The rows' values and name beside the first panel of each row of panels.
            if p % k == 0 {
                for r in 0..nr {
                    let v = spec.rows.values[r]
                        .parse::<f64>()
                        .map_or(spec.rows.values[r].clone(), |v| key_tick(spec.rows.key, v));
                    root.draw(&Text::new(
                        v,
                        (left - st.px(6.0), top + r as i32 * ch + ch / 2),
                        label.pos(Pos::new(HPos::Right, VPos::Center)),
                    ))
                    .map_err(e)?;
                }
                root.draw(&Text::new(
                    key_desc(spec.rows.key, lang),
                    (st.px(4.0), top + ph / 2),
                    desc.transform(FontTransform::Rotate270)
                        .pos(Pos::new(HPos::Center, VPos::Top)),
                ))
                .map_err(e)?;
            }
        }
        // The note, in two lines where one does not fit.
        let what = format!("{} ({})", spec.metric.label(lang), spec.metric.unit());
        let how = lang.pick(
            "median over the seeds; darker is better",
            "各种子中位数；颜色越深越好",
        );
        let note_style = st.text(0.95, MUTED).pos(Pos::new(HPos::Left, VPos::Top));
        let one = format!("{what}, {how}");
        let fits = crate::charts::measure::text_width(&one, &note_style)
            .is_some_and(|tw| tw.ceil() < f64::from(w - left));
        if fits {
            root.draw(&Text::new(one, (left, st.px(4.0)), note_style))
                .map_err(e)?;
        } else {
            root.draw(&Text::new(
                format!("{what},"),
                (st.px(4.0), st.px(2.0)),
                note_style.clone(),
            ))
            .map_err(e)?;
            root.draw(&Text::new(how, (st.px(4.0), st.px(14.0)), note_style))
                .map_err(e)?;
        }
        Ok(())
    }

    fn height(&self, css_w: f64, zoom: f64) -> Option<f64> {
        Some(heatmap_height(
            &self.spec,
            panels_per_row(&self.spec, css_w, zoom),
        ))
    }
}

/// The matrix as CSV: one line per cell.
pub fn csv(spec: &MatrixSpec, cells: &[Cell]) -> String {
    let metric = format!(
        "{}_{}",
        spec.metric.name(),
        match spec.metric {
            Metric::Goodput => "MBps",
            Metric::Completion | Metric::P99 => "ms",
            Metric::Retrans => "pct",
            Metric::Share | Metric::Jain => "fraction",
        }
    );
    let mut out = format!("{},{}", spec.rows.key.name(), spec.cols.key.name());
    if let Some(p) = &spec.panels {
        out.push_str(&format!(",{}", p.key.name()));
    }
    out.push_str(&format!(",runs,{metric}_median,{metric}_min,{metric}_max"));
    // Only a completion time can be bounded rather than known.
    let bounded = spec.metric == Metric::Completion;
    out.push_str(if bounded {
        ",completion_ms_median_exceeds\n"
    } else {
        "\n"
    });
    let f = |v: Option<f64>| v.map(|x| format!("{x}")).unwrap_or_default();
    let (nr, nc) = (spec.rows.values.len(), spec.cols.values.len());
    for p in 0..panels(spec) {
        for r in 0..nr {
            for c in 0..nc {
                let Some(cell) = cells.get((p * nr + r) * nc + c) else {
                    continue;
                };
                out.push_str(&format!("{},{}", spec.rows.values[r], spec.cols.values[c]));
                if let Some(axis) = &spec.panels {
                    out.push_str(&format!(
                        ",{}",
                        axis.values.get(p).map_or("", String::as_str)
                    ));
                }
                out.push_str(&format!(
                    ",{},{},{},{}",
                    cell.runs,
                    f(cell.spread.map(|s| s.median)),
                    f(cell.spread.map(|s| s.min)),
                    f(cell.spread.map(|s| s.max))
                ));
                if bounded {
                    out.push_str(&format!(",{}", f(cell.exceeds)));
                }
                out.push('\n');
            }
        }
    }
    out
}

/// The runner's commands for the matrix: one sweep of the columns' knob per row and panel.
pub fn command(base: &Scenario, spec: &MatrixSpec) -> String {
    let mut out = String::new();
    for p in 0..panels(spec) {
        for r in 0..spec.rows.values.len() {
            let mut axes: Vec<(&Axis, usize)> = vec![(&spec.rows, r)];
            if let Some(axis) = &spec.panels {
                axes.push((axis, p));
            }
            if let Ok(s) = cell(base, &axes) {
                out.push_str(&format!(
                    "tcplab sweep {} --key {} --values {} --seeds {} --table\n",
                    quoted(&s.to_query()),
                    spec.cols.key.name(),
                    spec.cols.text(),
                    spec.seeds
                ));
            }
        }
    }
    out
}

#[derive(Properties, PartialEq, Clone)]
pub struct MatrixViewProps {
    pub lang: Lang,
    pub base: Scenario,
    pub spec: MatrixSpec,
    pub batch: Option<Batch>,
    pub live: usize,
    pub on_spec: Callback<MatrixSpec>,
    pub on_cancel: Callback<()>,
    pub on_rerun: Callback<()>,
}

#[function_component]
pub fn MatrixView(props: &MatrixViewProps) -> Html {
    let lang = props.lang;
    let spec = &props.spec;
    let cells = cells(&props.base, spec, props.batch.as_ref());
    let done = props.batch.as_ref().map_or(0, Batch::done);
    let taken = |except: usize| -> Vec<tcplab::scenario::Key> {
        [Some(&spec.rows), Some(&spec.cols), spec.panels.as_ref()]
            .into_iter()
            .enumerate()
            .filter(|(i, _)| *i != except)
            .filter_map(|(_, a)| a.map(|a| a.key))
            .collect()
    };
    let fit = |mut s: MatrixSpec| {
        s.seeds = s
            .seeds
            .min((crate::model::views::MAX_RUNS / s.cells().max(1)).max(1) as u32);
        s
    };
    let on = |which: usize| {
        let (spec, on_spec) = (spec.clone(), props.on_spec.clone());
        Callback::from(move |axis: Option<Axis>| {
            let mut s = spec.clone();
            match (which, axis) {
                (0, Some(a)) => s.rows = a,
                (1, Some(a)) => s.cols = a,
                (2, a) => s.panels = a,
                _ => return,
            }
            on_spec.emit(fit(s));
        })
    };
    let on_seeds = {
        let (spec, on_spec) = (spec.clone(), props.on_spec.clone());
        Callback::from(move |n| {
            on_spec.emit(MatrixSpec {
                seeds: n,
                ..spec.clone()
            })
        })
    };
    let on_metric = {
        let (spec, on_spec) = (spec.clone(), props.on_spec.clone());
        Callback::from(move |m| {
            on_spec.emit(MatrixSpec {
                metric: m,
                ..spec.clone()
            })
        })
    };
    // Until the canvas knows its width: every panel in one row.
    let height = heatmap_height(spec, panels(spec));
    let stamp = format!(
        "{}:{done}:{}:{:?}:{}",
        props.batch.as_ref().map_or(0, |b| b.id),
        lang.code(),
        spec,
        props.base.to_query()
    );
    let knob = |a: &Axis| match lang {
        Lang::En => super::view::decapitalised(&key_desc(a.key, lang)),
        Lang::Zh => key_desc(a.key, lang),
    };
    let title = format!(
        "{}: {} × {}{}",
        crate::model::format::capitalised(spec.metric.label(lang).into()),
        knob(&spec.rows),
        knob(&spec.cols),
        spec.panels
            .as_ref()
            .map_or(String::new(), |p| format!(" × {}", knob(p)))
    );
    let items = {
        let csv = csv(spec, &cells);
        let name = format!(
            "{}-matrix-{}-{}",
            export::stem(&props.base),
            spec.rows.key.name(),
            spec.cols.key.name()
        );
        let (csv_name, png_name) = (format!("{name}.csv"), format!("{name}.png"));
        let (png_title, caption) = (title.clone(), export::caption(&props.base, lang));
        vec![
            Item::new(
                "export-matrix-csv",
                lang.pick("Matrix (CSV)", "矩阵（CSV）"),
                Callback::from(move |()| export::warn(export::text(&csv_name, "text/csv", &csv))),
            ),
            Item::new(
                "export-matrix-png",
                lang.pick("Heatmap (PNG)", "热图（PNG）"),
                Callback::from(move |()| match export::canvas_by_id("matrix-chart") {
                    Some(c) => export::warn(export::png(&png_name, &c, &png_title, &caption, lang)),
                    None => export::warn(Err("no chart".to_string())),
                }),
            ),
        ]
    };
    let (nr, nc) = (spec.rows.values.len(), spec.cols.values.len());
    html! {
        <section class="matrix-view" id="matrix-view">
            <div class="view-settings">
                <AxisField {lang} id="matrix-rows" label={lang.pick("Rows", "行")} base={props.base.clone()}
                    axis={Some(spec.rows.clone())} taken={taken(0)} on_axis={on(0)} />
                <AxisField {lang} id="matrix-cols" label={lang.pick("Columns", "列")} base={props.base.clone()}
                    axis={Some(spec.cols.clone())} taken={taken(1)} on_axis={on(1)} />
                <AxisField {lang} id="matrix-panels" label={lang.pick("Panels", "分图")} base={props.base.clone()}
                    axis={spec.panels.clone()} optional=true taken={taken(2)} on_axis={on(2)} />
                <SeedsMetric {lang} id="matrix" seeds={spec.seeds} metric={spec.metric}
                    points={spec.cells()} {on_seeds} {on_metric} />
                <Menu {lang} {items} command={command(&props.base, spec)} />
            </div>
            <Progress {lang} batch={props.batch.clone()} live={props.live}
                on_cancel={props.on_cancel.clone()} on_rerun={props.on_rerun.clone()} />
            <figure class="sweep-figure">
                <figcaption><strong>{ title.clone() }</strong></figcaption>
                <Canvas id="matrix-chart" label={title} {height} {stamp}
                    drawing={Rc::new(Heatmap { spec: spec.clone(), cells: cells.clone(), lang }) as Rc<dyn Drawing>} />
            </figure>
            <div class="table-wrap">
                <table class="sweep-table" id="matrix-table">
                    <thead>
                        <tr>
                            if let Some(p) = &spec.panels { <th scope="col">{ p.key.name() }</th> }
                            <th scope="col">{ format!("{} \\ {}", spec.rows.key.name(), spec.cols.key.name()) }</th>
                            { for spec.cols.values.iter().map(|v| html! { <th scope="col">{ v.clone() }</th> }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for (0..panels(spec)).flat_map(|p| (0..nr).map(move |r| (p, r))).map(|(p, r)| html! {
                            <tr>
                                if let Some(axis) = &spec.panels {
                                    <th scope="row">{ axis.values.get(p).cloned().unwrap_or_default() }</th>
                                }
                                <th scope="row">{ spec.rows.values[r].clone() }</th>
                                { for (0..nc).map(|c| {
                                    let cell = cells.get((p * nr + r) * nc + c);
                                    let m = cell.and_then(|c| c.spread).map(|s| s.median);
                                    let more = cell.and_then(|c| c.exceeds);
                                    let shown = match (m, more) {
                                        (Some(v), _) => number(v, 3),
                                        (None, Some(b)) => format!("> {}", number(b, 3)),
                                        (None, None) => "—".to_string(),
                                    };
                                    html! {
                                        <td class="num" data-raw={m.map(|v| format!("{v}")).unwrap_or_default()}
                                            title={cell.and_then(|c| c.error.clone()).unwrap_or_default()}>
                                            { shown }
                                        </td>
                                    }
                                }) }
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use tcplab::scenario::Key;

    use super::*;
    use crate::model::plan::PlanKey;

    #[test]
    fn a_matrix_cell_s_completion_counts_the_seeds_that_ran_out_of_time() {
        // A 1 MB body over 150 ms with 3.5 s to finish: one seed of three finishes at 1 %
        // loss, none at 5 % (as `tcplab sweep --key loss --values 1,5 --seeds 3` tells).
        let base = Scenario::parse("bw=100&rwnd=65536&body=1MB&dur=3.5").unwrap_or_default();
        let (Ok(rows), Ok(cols)) = (
            Axis::parse(Key::Loss, "1,5", &base, "values"),
            Axis::parse(Key::Rtt, "150", &base, "values2"),
        ) else {
            panic!("the axes");
        };
        let spec = MatrixSpec {
            rows,
            cols,
            panels: None,
            seeds: 3,
            metric: Metric::Completion,
        };
        let batch = Batch::ran(PlanKey::Matrix(base.clone(), spec.clone()));
        let cells = cells(&base, &spec, Some(&batch));
        for c in &cells {
            assert_eq!(
                (c.spread, c.exceeds, c.runs),
                (None, Some(3500.0), 3),
                "{c:?}"
            );
        }
        let csv = csv(&spec, &cells);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "loss,rtt,runs,completion_ms_median,completion_ms_min,completion_ms_max,\
             completion_ms_median_exceeds"
        );
        assert_eq!(lines[1], "1,150,3,,,,3500");
    }
}
