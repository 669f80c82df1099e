//! Where a chart's plotting area landed on its canvas, kept after drawing so that the cursor
//! layer and the pointer can map between values and device pixels without redrawing.

use std::ops::Range;

use crate::i18n::Lang;

/// One axis: a value range over a pixel range, linear or logarithmic.
#[derive(Debug, Clone, PartialEq)]
pub struct Scale {
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
    /// Device pixels; for a vertical axis `start` is the top (the value `hi`).
    pub px: Range<i32>,
}

impl Scale {
    fn norm(&self, v: f64) -> Option<f64> {
        let f = if self.log {
            if v <= 0.0 || self.lo <= 0.0 {
                return None;
            }
            (v.ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        f.is_finite().then_some(f)
    }

    /// The device pixel of a value along a horizontal axis.
    pub fn x_px(&self, v: f64) -> Option<f64> {
        let f = self.norm(v)?;
        Some(f64::from(self.px.start) + f * f64::from(self.px.end - self.px.start))
    }

    /// The device pixel of a value along a vertical axis (larger values higher up).
    pub fn y_px(&self, v: f64) -> Option<f64> {
        let f = self.norm(v)?;
        Some(f64::from(self.px.end) - f * f64::from(self.px.end - self.px.start))
    }

    /// The value at a device pixel along a horizontal axis.
    pub fn value_at_x(&self, px: f64) -> Option<f64> {
        let w = f64::from(self.px.end - self.px.start);
        if w <= 0.0 {
            return None;
        }
        let f = (px - f64::from(self.px.start)) / w;
        let v = if self.log {
            (self.lo.ln() + f * (self.hi.ln() - self.lo.ln())).exp()
        } else {
            self.lo + f * (self.hi - self.lo)
        };
        v.is_finite().then_some(v)
    }

    /// The value at a device pixel along a vertical axis.
    pub fn value_at_y(&self, px: f64) -> Option<f64> {
        let h = f64::from(self.px.end - self.px.start);
        if h <= 0.0 {
            return None;
        }
        let f = (f64::from(self.px.end) - px) / h;
        let v = if self.log {
            (self.lo.ln() + f * (self.hi.ln() - self.lo.ln())).exp()
        } else {
            self.lo + f * (self.hi - self.lo)
        };
        v.is_finite().then_some(v)
    }

    pub fn contains_px(&self, px: f64, slack: f64) -> bool {
        px >= f64::from(self.px.start) - slack && px <= f64::from(self.px.end) + slack
    }
}

/// A drawn chart's plotting area.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub x: Scale,
    pub y: Scale,
    /// The canvas's size in device pixels.
    pub size: (u32, u32),
}

impl Frame {
    pub fn top(&self) -> f64 {
        f64::from(self.y.px.start)
    }

    pub fn bottom(&self) -> f64 {
        f64::from(self.y.px.end)
    }

    pub fn left(&self) -> f64 {
        f64::from(self.x.px.start)
    }

    pub fn right(&self) -> f64 {
        f64::from(self.x.px.end)
    }
}

/// A value range that holds `data_max` and each reference line close enough to be worth the
/// squeeze (within `reach` times the data); lines far above are named as "above the chart"
/// instead of flattening the measurement against the floor.
pub fn top_of(data_max: Option<f64>, lines: &[f64], reach: f64) -> f64 {
    let data = data_max.filter(|v| v.is_finite() && *v > 0.0);
    let mut top = data.unwrap_or(0.0);
    for &l in lines {
        if l.is_finite() && l > 0.0 && data.is_none_or(|d| l <= d * reach) {
            top = top.max(l);
        }
    }
    if top <= 0.0 {
        1.0
    } else {
        top * 1.06
    }
}

/// Whether a horizontal line at `v` is inside a frame topped at `top`.
pub fn shows(v: f64, top: f64) -> bool {
    v.is_finite() && v >= 0.0 && v <= top
}

/// What a line's legend entry adds when [`top_of`] left the line out of the frame: that it is
/// above the chart.
pub fn above(v: f64, top: f64, lang: Lang) -> &'static str {
    if shows(v, top) {
        ""
    } else {
        lang.pick(" (above the chart)", "（超出图表上方）")
    }
}
