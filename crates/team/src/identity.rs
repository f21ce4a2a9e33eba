//! Who a person is, whatever they type: a sign-in name's key is its NFKC form, case-folded,
//! without default-ignorable characters (soft hyphens, zero-width spaces: what Unicode's
//! NFKC_Casefold drops too) and normalised again, so `ＺｈａｎｇＳａｎ`, `zhang\u{ad}san`,
//! `zhangſan` and `zhangsan` are one name everywhere names are compared: sign-in, roles,
//! disabling, sessions, the audit and "not your own request". A directory person is further
//! known by the directory's own stable id (`ldap::DirectoryPerson::id`), never by the name.

use icu_casemap::CaseMapper;
use icu_normalizer::ComposingNormalizerBorrowed;
use icu_properties::CodePointSetData;
use icu_properties::props::DefaultIgnorableCodePoint;

/// The key a name is stored and compared under.
pub fn name_key(name: &str) -> String {
    let nfkc = ComposingNormalizerBorrowed::new_nfkc();
    let ignorable = CodePointSetData::new::<DefaultIgnorableCodePoint>();
    let once = nfkc.normalize(name.trim());
    let folded = CaseMapper::new().fold_string(&once);
    let kept: String = folded.chars().filter(|c| !ignorable.contains(*c)).collect();
    nfkc.normalize(&kept).trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::name_key;

    #[test]
    fn every_spelling_of_a_name_has_one_key() {
        for spelling in [
            "zhangsan",
            " ZhangSan ",
            "ｚｈａｎｇｓａｎ",
            "zhangſan",
            "ＺＨＡＮＧＳＡＮ",
        ] {
            assert_eq!(name_key(spelling), "zhangsan", "{spelling:?}");
        }
        assert_eq!(name_key("Straße"), "strasse");
        assert_eq!(name_key("王五"), "王五");
        assert_ne!(name_key("lisi"), name_key("li si"));
    }
}
