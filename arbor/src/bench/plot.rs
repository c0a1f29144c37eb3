//! SVG line charts of throughput against message size (plotters, SVG backend only).

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

fn size_label(bytes: &f64) -> String {
    let b = *bytes;
    if b >= 1024.0 * 1024.0 {
        format!("{:.0} MiB", b / (1024.0 * 1024.0))
    } else if b >= 1024.0 {
        format!("{:.0} KiB", b / 1024.0)
    } else {
        format!("{b:.0} B")
    }
}

/// Writes the panels side by side as one SVG, GB/s (linear) against size (logarithmic).
pub fn write_svg(path: &Path, panels: &[Panel]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("plotting {}: {e}", path.display());
    let width = 900 * panels.len().max(1) as u32;
    let root = SVGBackend::new(path, (width, 700)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let areas = root.split_evenly((1, panels.len().max(1)));
    for (panel, area) in panels.iter().zip(areas) {
        let points = panel.series.iter().flat_map(|s| s.points.iter());
        let (mut x_min, mut x_max, mut y_max) = (f64::MAX, f64::MIN, 0.0f64);
        for &(x, y) in points {
            x_min = x_min.min(x);
            x_max = x_max.max(x);
            y_max = y_max.max(y);
        }
        if x_min > x_max {
            continue;
        }
        if x_min == x_max {
            x_max = x_min * 2.0;
        }
        let mut chart = ChartBuilder::on(&area)
            .caption(&panel.title, ("sans-serif", 22))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d((x_min..x_max).log_scale(), 0.0..y_max * 1.05 + 1e-9)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc("message size")
            .y_desc("GB/s")
            .x_label_formatter(&size_label)
            .draw()
            .map_err(|e| err(&e))?;
        for (i, s) in panel.series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            chart
                .draw_series(LineSeries::new(
                    s.points.iter().copied(),
                    color.stroke_width(2),
                ))
                .map_err(|e| err(&e))?
                .label(&s.label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 12))
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}
