//! Finding catalog items and customers as a clerk types: every word of the query must be in
//! an item's names or ids, or in the pinyin of its names, whole (`jijia`) or by initials
//! (`jjrj` finds 计价软件). Recently used items come first.

use pinyin::ToPinyin;

/// What one item is found by.
struct Key {
    /// Names and ids, lower-cased, apart.
    text: String,
    /// The names in pinyin without tones or spaces, and by initials.
    spelled: String,
    initials: String,
    /// Larger first: when it was last used (0 if never).
    rank: i64,
}

/// The keys of a list of items, built once (off the window's thread) and searched each time
/// the query changes.
#[derive(Default)]
pub struct SearchIndex {
    keys: Vec<Key>,
}

/// One item to index: its names (spelled in pinyin too), its ids, and when it was last used.
pub struct Entry<'a> {
    pub names: Vec<&'a str>,
    pub ids: Vec<&'a str>,
    pub last_used: i64,
}

impl SearchIndex {
    pub fn new<'a>(entries: impl IntoIterator<Item = Entry<'a>>) -> Self {
        let keys = entries
            .into_iter()
            .map(|e| {
                let mut text = String::new();
                for part in e.names.iter().chain(&e.ids) {
                    text.push_str(&part.to_lowercase());
                    text.push('\u{1}');
                }
                let (mut spelled, mut initials) = (String::new(), String::new());
                for name in &e.names {
                    spell(name, &mut spelled, &mut initials);
                    spelled.push('\u{1}');
                    initials.push('\u{1}');
                }
                Key {
                    text,
                    spelled,
                    initials,
                    rank: e.last_used,
                }
            })
            .collect();
        Self { keys }
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The positions of the items the query finds, recently used first (then in their order),
    /// at most `limit` of them. An empty query finds everything.
    pub fn find(&self, query: &str, limit: usize) -> Vec<usize> {
        let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
        let mut found: Vec<usize> = (0..self.keys.len())
            .filter(|&i| {
                let key = &self.keys[i];
                words.iter().all(|w| {
                    key.text.contains(w.as_str())
                        || key.spelled.contains(w.as_str())
                        || key.initials.contains(w.as_str())
                })
            })
            .collect();
        let by_rank = |i: &usize| (std::cmp::Reverse(self.keys[*i].rank), *i);
        if found.len() > limit && limit > 0 {
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
