//! SVG line charts of throughput against message size (plotters, SVG backend only), both axes
//! logarithmic so that hashes and memcpy fit on one chart. Sizes are plotted as their base-2
//! logarithm so that the ticks fall on powers of two.

use plotters::prelude::*;
use std::path::Path;

/// One line: its legend label and (size in bytes, GB/s) points.
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// One chart of a figure.
pub struct Panel {
    pub title: String,
    pub series: Vec<Series>,
}

const CHART_HEIGHT: u32 = 620;
const PANEL_WIDTH: u32 = 900;
const LEGEND_LINE: u32 = 18;
const LEGEND_COLUMNS: usize = 2;

/// Labels a tick at log2(size).
fn size_label(log2_bytes: &f64) -> String {
    let b = log2_bytes.exp2().round();
    if b >= 1024.0 * 1024.0 {
        format!("{:.0} MiB", b / (1024.0 * 1024.0))
    } else if b >= 1024.0 {
        format!("{:.0} KiB", b / 1024.0)
    } else {
        format!("{b:.0} B")
    }
}

fn rate_label(gbps: &f64) -> String {
    if *gbps >= 1.0 {
        format!("{gbps:.0}")
    } else {
        format!("{gbps:.2}")
    }
}

/// Writes the panels side by side as one SVG, each a chart above its legend.
pub fn write_svg(path: &Path, panels: &[Panel]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("plotting {}: {e}", path.display());
    let most_series = panels.iter().map(|p| p.series.len()).max().unwrap_or(0);
    let legend_rows = most_series.div_ceil(LEGEND_COLUMNS) as u32;
    let height = CHART_HEIGHT + legend_rows * LEGEND_LINE + 20;
    let width = PANEL_WIDTH * panels.len().max(1) as u32;
    let root = SVGBackend::new(path, (width, height)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let columns = root.split_evenly((1, panels.len().max(1)));
    for (panel, column) in panels.iter().zip(columns) {
        let (chart_area, legend_area) = column.split_vertically(CHART_HEIGHT);
        let points = || panel.series.iter().flat_map(|s| s.points.iter());
        let positive = |v: f64| v.is_finite() && v > 0.0;
        let xs = points()
            .map(|p| p.0)
            .filter(|&x| positive(x))
            .map(f64::log2);
        let ys = points().map(|p| p.1).filter(|&y| positive(y));
        let (x_min, x_max) = xs.fold((f64::MAX, f64::MIN), |(a, b), x| (a.min(x), b.max(x)));
        let (y_min, y_max) = ys.fold((f64::MAX, 0.0f64), |(a, b), y| (a.min(y), b.max(y)));
        if x_min > x_max || y_max <= 0.0 {
            continue;
        }
        let mut chart = ChartBuilder::on(&chart_area)
            .caption(&panel.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(
                x_min..x_max.max(x_min + 1.0),
                (y_min * 0.8..y_max * 1.25).log_scale(),
            )
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("message size")
            .y_desc("GB/s")
            .x_label_formatter(&size_label)
            .y_label_formatter(&rate_label)
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in panel.series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let style = color.stroke_width(2);
            let line = s
                .points
                .iter()
                .filter(|&&(x, y)| positive(x) && positive(y))
                .map(|&(x, y)| (x.log2(), y));
            chart
                .draw_series(LineSeries::new(line, style))
                .map_err(|e| err(&e))?;
            let col = (i % LEGEND_COLUMNS) as i32;
            let row = (i / LEGEND_COLUMNS) as i32;
            let (x, y) = (
                20 + col * (PANEL_WIDTH as i32 / LEGEND_COLUMNS as i32),
                10 + row * LEGEND_LINE as i32,
            );
            legend_area
                .draw(&PathElement::new(vec![(x, y), (x + 24, y)], style))
                .map_err(|e| err(&e))?;
            legend_area
                .draw(&Text::new(
                    s.label.clone(),
                    (x + 32, y - 7),
                    ("sans-serif", 13).into_font(),
                ))
                .map_err(|e| err(&e))?;
        }
    }
    root.present().map_err(|e| err(&e))
}
