//! Tables printed with aligned columns, or as Markdown.

/// A table of text cells; numeric-looking cells are right-aligned.
pub struct Table {
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn is_numeric(cell: &str) -> bool {
    let cell = cell.trim_end_matches(['%', 'x']);
    !cell.is_empty() && cell.parse::<f64>().is_ok()
}

impl Table {
    /// An empty table with these column headers.
    pub fn new(headers: &[&str]) -> Table {
        Table {
            headers: headers.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row; it must have one cell per column.
    pub fn row(&mut self, cells: Vec<String>) {
        assert_eq!(cells.len(), self.headers.len(), "row width");
        self.rows.push(cells);
    }

    fn widths(&self) -> Vec<usize> {
        (0..self.headers.len())
            .map(|i| {
                self.rows
                    .iter()
                    .map(|r| r[i].chars().count())
                    .chain([self.headers[i].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect()
    }

    fn line(cells: &[String], widths: &[usize], numeric: &[bool], sep: &str) -> String {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .zip(numeric)
            .map(|((c, &w), &right)| {
                if right {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                }
            })
            .collect();
        padded.join(sep)
    }

    /// Which columns hold numbers in every row.
    fn numeric_columns(&self) -> Vec<bool> {
        (0..self.headers.len())
            .map(|i| {
                !self.rows.is_empty() && self.rows.iter().all(|r| is_numeric(&r[i]) || r[i] == "-")
            })
            .collect()
    }

    /// Plain text, columns separated by two spaces, a dashed rule under the header.
    pub fn to_text(&self) -> String {
        let widths = self.widths();
        let numeric = self.numeric_columns();
        let mut out = Table::line(&self.headers, &widths, &numeric, "  ");
        out.push('\n');
        let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
        out.push_str(&rule.join("  "));
        out.push('\n');
        for r in &self.rows {
            out.push_str(Table::line(r, &widths, &numeric, "  ").trim_end());
            out.push('\n');
        }
        out
    }

    /// A GitHub Markdown table with numeric columns right-aligned.
    pub fn to_markdown(&self) -> String {
        let widths = self.widths();
        let numeric = self.numeric_columns();
        let mut out = format!(
            "| {} |\n",
            Table::line(&self.headers, &widths, &numeric, " | ")
        );
        let rule: Vec<String> = widths
            .iter()
            .zip(&numeric)
            .map(|(&w, &right)| {
                let w = w.max(3);
                if right {
                    format!("{}:", "-".repeat(w - 1))
                } else {
                    "-".repeat(w)
                }
            })
            .collect();
        out.push_str(&format!("| {} |\n", rule.join(" | ")));
        for r in &self.rows {
            out.push_str(&format!(
                "| {} |\n",
                Table::line(r, &widths, &numeric, " | ")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_align() {
        let mut t = Table::new(&["name", "MB/s"]);
        t.row(vec!["BLAKE3".into(), "1234.5".into()]);
        t.row(vec!["NOP".into(), "7".into()]);
        let text = t.to_text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[2], "BLAKE3  1234.5");
        assert_eq!(lines[3], "NOP          7");
        assert!(t.to_markdown().contains("| ------ | -----: |"));
    }
}
