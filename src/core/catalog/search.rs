//! Finding catalog items and customers as a clerk types: every word of the query must be in
//! an item's names or ids, or in the pinyin of its names, whole (`jijia`) or by initials
//! (`jjrj` finds 计价软件). Recently used items come first.

use pinyin::ToPinyin;

/// The keys of a list of items, built once (off the window's thread) and searched each time
/// the query changes. All keys are in one text, item after item, so that a query is one fast
/// scan of it rather than a look at each item.
#[derive(Default)]
pub struct SearchIndex {
    /// Each item's names and ids (lower-cased), its names in pinyin whole and by initials,
    /// apart by `\u{1}`; items apart by `\u{0}`.
    keys: String,
    /// Where each item's keys start in `keys`.
    starts: Vec<usize>,
    /// Larger first: when each item was last used (0 if never).
    ranks: Vec<i64>,
}

/// One item to index: its names (spelled in pinyin too), its ids, and when it was last used.
pub struct Entry<'a> {
    pub names: Vec<&'a str>,
    pub ids: Vec<&'a str>,
    pub last_used: i64,
}

impl SearchIndex {
    pub fn new<'a>(entries: impl IntoIterator<Item = Entry<'a>>) -> Self {
        let mut index = SearchIndex::default();
        for e in entries {
            index.starts.push(index.keys.len());
            index.ranks.push(e.last_used);
            let keys = &mut index.keys;
            for part in e.names.iter().chain(&e.ids) {
                keys.extend(part.chars().flat_map(char::to_lowercase));
                keys.push('\u{1}');
            }
            let mut initials = String::new();
            for name in &e.names {
                spell(name, keys, &mut initials);
                keys.push('\u{1}');
                initials.push('\u{1}');
            }
            keys.push_str(&initials);
            keys.push('\u{0}');
        }
        index
    }

    pub fn len(&self) -> usize {
        self.starts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Item `i`'s keys.
    fn keys_of(&self, i: usize) -> &str {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.keys.len());
        &self.keys[self.starts[i]..end]
    }

    /// The positions of the items the query finds, recently used first (then in their order),
    /// at most `limit` of them. An empty query finds everything.
    pub fn find(&self, query: &str, limit: usize) -> Vec<usize> {
        let mut words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        // The longest word is scanned for; the others are looked for in what it finds.
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        let mut found: Vec<usize> = match words.split_first() {
            None => (0..self.len()).collect(),
            Some((first, rest)) => {
                let mut items = Vec::new();
                for at in memchr::memmem::find_iter(self.keys.as_bytes(), first.as_bytes()) {
                    let i = self.starts.partition_point(|s| *s <= at) - 1;
                    if items.last() != Some(&i)
                        && rest.iter().all(|w| self.keys_of(i).contains(w.as_str()))
                    {
                        items.push(i);
                    }
                }
                items
            }
        };
        let by_rank = |i: &usize| (std::cmp::Reverse(self.ranks[*i]), *i);
        if limit > 0 && found.len() > limit {
            found.select_nth_unstable_by_key(limit - 1, by_rank);
            found.truncate(limit);
        }
        found.sort_unstable_by_key(by_rank);
        found.truncate(limit);
        found
    }
}

/// `name` in pinyin, whole and by initials; what is not Chinese stays as it is, lower-cased.
fn spell(name: &str, whole: &mut String, initials: &mut String) {
    for (c, sound) in name.chars().zip(name.to_pinyin()) {
        match sound {
            Some(p) => {
                whole.push_str(p.plain());
                initials.push_str(p.first_letter());
            }
            None if c.is_alphanumeric() => {
                for lower in c.to_lowercase() {
                    whole.push(lower);
                    initials.push(lower);
                }
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Entry, SearchIndex};

    fn index() -> SearchIndex {
        let items = [
            ("计价软件", "gms:1001", 0),
            ("算量软件", "gms:1002", 0),
            ("计价软件 网络版", "gms:1003", 5),
            ("Cloud Pricing", "gms:2001", 0),
        ];
        SearchIndex::new(items.iter().map(|(name, uri, used)| Entry {
            names: vec![name],
            ids: vec![uri],
            last_used: *used,
        }))
    }

    #[test]
    fn chinese_names_are_found_by_pinyin_initials_ids_and_words() {
        let index = index();
        // The one used lately first.
        assert_eq!(index.find("jjrj", 10), vec![2, 0]);
        assert_eq!(index.find("jijia", 10), vec![2, 0]);
        assert_eq!(index.find("计价", 10), vec![2, 0]);
        assert_eq!(index.find("jjrj wl", 10), vec![2]);
        assert_eq!(index.find("GMS:1002", 10), vec![1]);
        assert_eq!(index.find("cloud", 10), vec![3]);
        assert_eq!(index.find("", 2), vec![2, 0]);
        assert!(index.find("zzz", 10).is_empty());
    }
}
