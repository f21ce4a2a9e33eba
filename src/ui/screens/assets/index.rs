//! What the grid looks assets up by: the filter's text of each asset and the asset numbers,
//! built once per listing and kept as small as the listing itself (one text buffer, no string
//! per asset).

use std::collections::HashMap;

use memchr::memmem::Finder;

use crate::core::wire::AssetList;
use crate::ui::text::i18n::Lang;
use crate::ui::text::labels::license_code_words;

#[derive(Default)]
pub(super) struct ListingIndex {
    /// The lower-case text each asset is found by (number, type in code and words, customer,
    /// extensions), one after another; `ends[i]` is where asset `i`'s ends.
    text: String,
    ends: Vec<u32>,
    /// Positions in the listing, sorted by asset number.
    by_num: Vec<u32>,
}

impl ListingIndex {
    pub(super) fn new(list: &AssetList) -> Self {
        // The type's words in both languages are searched too: a user types "re-issuable" or
        // "可重发", not the code.
        // Once per license type, not per asset: a listing holds a few types.
        let mut type_text: HashMap<&str, String> = HashMap::new();
        let mut text = String::new();
        let mut ends = Vec::with_capacity(list.len());
        let mut one = String::new();
        for a in list.iter() {
            one.clear();
            for part in [a.asset_num(), a.customer_id()] {
                one.push_str(part);
                one.push(' ');
            }
            one.push_str(type_text.entry(a.license_type()).or_insert_with(|| {
                let code = a.license_type();
                format!(
                    "{code} {} {} ",
                    license_code_words(Lang::En, code),
                    license_code_words(Lang::Zh, code)
                )
            }));
            for (code, value) in a.extends() {
                one.push_str(code);
                one.push(' ');
                one.push_str(value);
                one.push(' ');
            }
            text.push_str(&one.to_lowercase());
            // A listing over 4 GiB of text cannot be answered in the first place.
            ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        }
        text.shrink_to_fit();
        let mut by_num: Vec<u32> = (0..ends.len() as u32).collect();
        by_num.sort_by(|&x, &y| {
            let (x, y) = (list.get(x as usize), list.get(y as usize));
            x.asset_num().cmp(y.asset_num())
        });
        Self { text, ends, by_num }
    }

    /// Whether asset `i`'s text holds what `finder` looks for.
    pub(super) fn matches(&self, i: usize, finder: &Finder<'_>) -> bool {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        let end = self.ends[i] as usize;
        finder.find(&self.text.as_bytes()[start..end]).is_some()
    }

    /// The listing's position of the asset numbered `num`.
    pub(super) fn position(&self, list: &AssetList, num: &str) -> Option<usize> {
        self.by_num
            .binary_search_by(|&i| list.get(i as usize).asset_num().cmp(num))
            .ok()
            .map(|k| self.by_num[k] as usize)
    }
}
