//! Dashed lines, the theory lines of every chart, stroked by the backend in one path: the
//! canvas dashes a path itself (`setLineDash`) and SVG has `stroke-dasharray`, where plotters'
//! `DashedLineSeries` makes a path of each dash.

use plotters::element::{Drawable, PointCollection};
use plotters::prelude::{DrawingBackend, ShapeStyle};
use plotters::style::Color;
use plotters_backend::{BackendColor, BackendCoord, DrawingErrorKind};

/// How a dashed path is stroked, in device pixels.
#[derive(Clone, Copy)]
pub struct Stroke {
    pub colour: BackendColor,
    pub width: u32,
    /// The length of a dash, and of the gap after it.
    pub on: u32,
    pub off: u32,
}

impl Stroke {
    pub fn new(style: ShapeStyle, on: u32, off: u32) -> Stroke {
        Stroke {
            colour: style.color.to_backend_color(),
            width: style.stroke_width,
            on: on.max(1),
            off: off.max(1),
        }
    }
}

/// A backend that strokes a dashed polyline as one path, its dashes running on across the
/// path's corners.
pub trait Dashes: DrawingBackend {
    fn dashed_path(
        &mut self,
        path: &[BackendCoord],
        stroke: Stroke,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>>;
}

/// A polyline drawn dashed, as an element any chart's coordinates can place.
pub struct DashedPath<C> {
    points: Vec<C>,
    stroke: Stroke,
}

impl<C> DashedPath<C> {
    pub fn new(points: impl IntoIterator<Item = C>, stroke: Stroke) -> DashedPath<C> {
        DashedPath {
            points: points.into_iter().collect(),
            stroke,
        }
    }
}

impl<'a, C: 'a> PointCollection<'a, C> for &'a DashedPath<C> {
    type Point = &'a C;
    type IntoIter = &'a [C];
    fn point_iter(self) -> &'a [C] {
        &self.points
    }
}

impl<C, DB: Dashes> Drawable<DB> for DashedPath<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        pos: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let path: Vec<BackendCoord> = pos.collect();
        if path.len() < 2 {
            return Ok(());
        }
        backend.dashed_path(&path, self.stroke)
    }
}
