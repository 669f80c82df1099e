//! Colours, line widths and text sizes shared by every chart, so that the same quantity looks
//! the same wherever it is drawn (cwnd is always the accent blue, theory always dashed).

use plotters::prelude::*;
use plotters::style::FontDesc;

pub const INK: RGBColor = RGBColor(0x1d, 0x24, 0x30);
pub const AXIS: RGBColor = RGBColor(0x4a, 0x52, 0x60);
pub const MUTED: RGBColor = RGBColor(0x6b, 0x73, 0x80);
pub const GRID: RGBColor = RGBColor(0xe3, 0xe7, 0xed);
pub const PAPER: RGBColor = RGBColor(0xff, 0xff, 0xff);

/// Flow 1, and the quantity each chart is about.
pub const ACCENT: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
/// ssthresh: a pale band under cwnd, which it often equals.
pub const SSTHRESH_BAND: RGBColor = RGBColor(0xee, 0xa0, 0x7e);
pub const IN_FLIGHT: RGBColor = RGBColor(0x6c, 0xb4, 0xe4);
pub const RWND: RGBColor = RGBColor(0x0e, 0x74, 0x90);
pub const BDP: RGBColor = RGBColor(0x2f, 0x36, 0x40);
pub const CUBIC: RGBColor = RGBColor(0x8e, 0x3b, 0xb0);
pub const LINK: RGBColor = RGBColor(0x2f, 0x36, 0x40);
pub const MATHIS: RGBColor = RGBColor(0xb0, 0x2a, 0x37);
pub const SLOW_START: RGBColor = RGBColor(0xc2, 0x6a, 0x00);
/// A link of opportunities' capacity, shaded under the goodput.
pub const CAPACITY: RGBColor = RGBColor(0xb9, 0xd3, 0xee);
pub const BBR_BW: RGBColor = RGBColor(0x2e, 0x9e, 0x44);
/// BBR's target window, and the part of it its ACK-aggregation allowance adds.
pub const BBR_TARGET: RGBColor = RGBColor(0x2e, 0x7d, 0x32);
pub const BBR_EXTRA: RGBColor = RGBColor(0x9b, 0xd3, 0xa8);
pub const TOTAL: RGBColor = RGBColor(0x1d, 0x24, 0x30);

pub const SENT: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
pub const RETRANSMIT: RGBColor = RGBColor(0xd6, 0x27, 0x28);
pub const ACKED: RGBColor = RGBColor(0x1b, 0x8a, 0x5a);
pub const SACKED: RGBColor = RGBColor(0xe0, 0x8a, 0x00);

pub const QUEUE: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
pub const DROP_QUEUE: RGBColor = RGBColor(0xd6, 0x27, 0x28);
pub const DROP_DATA: RGBColor = RGBColor(0x1d, 0x24, 0x30);
pub const DROP_ACK: RGBColor = RGBColor(0x8a, 0x93, 0xa0);
pub const DROP_STAGED: RGBColor = RGBColor(0x8e, 0x3b, 0xb0);
/// A queue discipline's early drop: warm, beside the overflow's red.
pub const DROP_AQM: RGBColor = RGBColor(0xe0, 0x6c, 0x00);
/// A policer's drop: a drop with no queue behind it.
pub const DROP_POLICER: RGBColor = RGBColor(0x5d, 0x6b, 0x1f);
/// Each packet's wait at the bottleneck, and the discipline's target for it.
pub const SOJOURN: RGBColor = RGBColor(0x0f, 0x7b, 0x83);
/// The latency probe's round trips.
pub const PING: RGBColor = RGBColor(0x6a, 0x3d, 0x9a);
/// A CE mark: a congestion signal without a loss.
pub const MARK_CE: RGBColor = RGBColor(0x1b, 0x8a, 0x5a);

pub const MSG: RGBColor = RGBColor(0x1f, 0x5f, 0xbf);
pub const HELD: RGBColor = RGBColor(0xe0, 0x6c, 0x00);
pub const HOL_SHADE: RGBColor = RGBColor(0xfb, 0xe3, 0xc4);
pub const LOST: RGBColor = RGBColor(0xd6, 0x27, 0x28);

/// BBR's modes: warm while it pushes (Startup), cool while it drains, green while it cruises.
pub const BBR_STARTUP: RGBColor = RGBColor(0xe0, 0x8a, 0x00);
pub const BBR_DRAIN: RGBColor = RGBColor(0x8e, 0x3b, 0xb0);
pub const BBR_PROBE_BW: RGBColor = RGBColor(0x3f, 0xa5, 0x6b);
pub const BBR_PROBE_RTT: RGBColor = RGBColor(0xd6, 0x27, 0x28);

/// Flows after the first: Tableau 10 without its blue, which is flow 1's accent.
const FLOWS: [RGBColor; 9] = [
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0xb0, 0x7a, 0xa1),
    RGBColor(0x76, 0xb7, 0xb2),
    RGBColor(0x9c, 0x75, 0x5f),
    RGBColor(0xed, 0xc9, 0x48),
    RGBColor(0xff, 0x9d, 0xa7),
    RGBColor(0xba, 0xb0, 0xac),
];

/// Flows 2 to n when there are too many to tell apart: one quiet colour, so flow 1 stands out.
pub const MANY_FLOWS: RGBColor = RGBColor(0xa3, 0xab, 0xb8);

/// Flows named one by one; beyond this many, flows after the first share [`MANY_FLOWS`].
pub const NAMED_FLOWS: usize = 9;

/// The colour of flow `i` of `n`.
pub fn colour_of(i: usize, n: usize) -> RGBColor {
    if i > 0 && n > NAMED_FLOWS {
        MANY_FLOWS
    } else {
        flow_colour(i)
    }
}

pub fn flow_colour(i: usize) -> RGBColor {
    match i {
        0 => ACCENT,
        _ => FLOWS[(i - 1) % FLOWS.len()],
    }
}

/// `#rrggbb`, for drawing on the cursor layer with the canvas API directly.
pub fn css(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// The page's root font size in CSS pixels, 16 unless the page enlarges its text (large type):
/// what [`Style::new`] sizes the charts' text from.
pub fn root_font() -> f64 {
    crate::window()
        .and_then(|w| w.document()?.document_element())
        .and_then(|html| font_px(&html))
        .unwrap_or(16.0)
}

/// An element's computed font size in CSS pixels.
pub fn font_px(el: &web_sys::Element) -> Option<f64> {
    let style = crate::window()?.get_computed_style(el).ok()??;
    let v = style.get_property_value("font-size").ok()?;
    v.trim()
        .trim_end_matches("px")
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
}

/// The narrowest plot, in CSS pixels at the default text size, that is not a phone's.
const NARROW_PLOT_CSS: f64 = 420.0;

/// How big one CSS pixel and one line of text are on this canvas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// Device pixels per CSS pixel.
    pub dpr: f64,
    /// The charts' text size in CSS pixels: 12 at the browser's default root size of 16,
    /// growing with the page's own root size (a projector's `large` class).
    pub font_css: f64,
}

impl Style {
    pub fn new(dpr: f64, root_font_css: f64) -> Style {
        let dpr = if dpr.is_finite() && dpr > 0.0 {
            dpr
        } else {
            1.0
        };
        let root = if root_font_css.is_finite() && root_font_css > 0.0 {
            root_font_css
        } else {
            16.0
        };
        Style {
            dpr,
            font_css: (12.0 * root / 16.0).clamp(10.0, 28.0),
        }
    }

    /// How much larger than the default the text is; the layout's fixed sizes grow with it.
    pub fn zoom(&self) -> f64 {
        self.font_css / 12.0
    }

    /// Device pixels for `css` CSS pixels at the default text size.
    pub fn px(&self, css: f64) -> i32 {
        (css * self.zoom() * self.dpr).round() as i32
    }

    /// Whether a plot `width` device pixels wide is a phone's: too narrow for a legend lined up
    /// over it (`legend::span`) or a readout's box beside the cursor on every chart at once
    /// (`cursor::paint`). A 390 px phone's chart has 200 px of plot.
    pub fn narrow_plot(&self, width: f64) -> bool {
        width < f64::from(self.px(NARROW_PLOT_CSS))
    }

    pub fn upx(&self, css: f64) -> u32 {
        self.px(css).max(1) as u32
    }

    /// Device pixels for a stroke: hairlines stay at least one pixel.
    pub fn stroke(&self, css: f64) -> u32 {
        ((css * self.dpr).round() as u32).max(1)
    }

    pub fn font(&self, rel: f64) -> FontDesc<'static> {
        // The family as plotters' own value: a name would be lower-cased to be matched, and
        // that brings Unicode's case tables (24 KB) into the page.
        (FontFamily::SansSerif, self.font_css * rel * self.dpr).into_font()
    }

    pub fn text(&self, rel: f64, colour: RGBColor) -> TextStyle<'static> {
        self.font(rel).color(&colour)
    }

    pub fn line(&self, colour: RGBColor, css: f64) -> ShapeStyle {
        colour.stroke_width(self.stroke(css))
    }

    /// Room left of the plotting area for tick labels and the axis name. The same on every
    /// time chart, so their plotting areas, and the cursor, line up down the page.
    pub fn left_area(&self) -> u32 {
        self.upx(74.0)
    }

    /// Room right of the plotting area for the second unit's axis.
    pub fn right_area(&self) -> u32 {
        self.upx(70.0)
    }

    pub fn margin_left(&self) -> u32 {
        self.upx(4.0)
    }

    pub fn margin_right(&self) -> u32 {
        self.upx(6.0)
    }

    /// Room under the plotting area for the time ticks and the axis name.
    pub fn bottom_area(&self) -> u32 {
        self.upx(40.0)
    }
}
