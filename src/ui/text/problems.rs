//! Problems in words: each kind the shared validation reports, in the UI's language, and its
//! field path as the user sees it (`Order 1 › Asset 2 › Product URI`). The platform renders the
//! same kinds in its English messages; nothing here reads those.

use crate::core::wire::validate::{Expected, Item, Limit, Problem, ProblemKind, Seg};
use crate::ui::text::i18n::{Label, Lang, label, t, tr};
use crate::ui::text::labels::{field_label, license_type_words, order_type_words};

/// The problem's path in words, then what is wrong.
pub fn problem_words(lang: Lang, problem: &Problem) -> String {
    at_words(lang, &problem.path.0, &problem.kind)
}

/// `where: what`, with the colon of the language.
pub fn at_words(lang: Lang, path: &[Seg], kind: &ProblemKind) -> String {
    tr!(
        lang,
        "problem-at",
        path = path_words(lang, path),
        problem = kind_words(lang, kind)
    )
}

/// `orderList[0].assets[1].assetNos[3]` → `Order 1 › Asset 2 › Asset numbers, line 4`.
pub fn path_words(lang: Lang, path: &[Seg]) -> String {
    let words: Vec<String> = path.iter().map(|seg| seg_words(lang, *seg)).collect();
    words.join(" › ")
}

fn seg_words(lang: Lang, seg: Seg) -> String {
    match seg {
        Seg::Field(name) => field_label(lang, name).to_owned(),
        Seg::Item(name, i) => match node_noun(name) {
            Some(noun) => format!("{} {}", noun.text(lang), i + 1),
            None => {
                let line = i + 1;
                tr!(
                    lang,
                    "problem-on-line",
                    line = line,
                    problem = field_label(lang, name)
                )
            }
        },
    }
}

/// The node a list field's items are, in the composer's tree.
fn node_noun(list: &str) -> Option<Label> {
    Some(match list {
        "orderList" => label!("order"),
        "assets" => label!("asset"),
        "products" | "licenseOrderProductList" => label!("product"),
        "productFeatures" => label!("feature"),
        "merchandises" | "children" => label!("package"),
        _ => return None,
    })
}

/// What is wrong, without where: shown under the field it belongs to.
pub fn kind_words(lang: Lang, kind: &ProblemKind) -> String {
    use ProblemKind::*;
    match kind {
        Required => t!(lang, "field-required").to_owned(),
        RequiredFor(op) => tr!(
            lang,
            "problem-required-for",
            op = order_type_words(lang, *op)
        ),
        CustomerIdRequired => tr!(lang, "problem-customer-id"),
        SourceOrderRequired {
            order_type,
            license_type,
        } => tr!(
            lang,
            "problem-source-order",
            op = order_type_words(lang, *order_type),
            license = license_type_words(lang, *license_type)
        ),
        Blank => tr!(lang, "problem-blank"),
        TooLong { max } => {
            let n = *max;
            tr!(lang, "at-most-chars", n = n)
        }
        SpacesOrControls => tr!(lang, "problem-spaces"),
        Controls => tr!(lang, "problem-controls"),
        NotMobile => t!(lang, "not-mobile").to_owned(),
        NotEmail => tr!(lang, "problem-not-email"),
        NotHttpUrl => tr!(lang, "problem-not-url"),
        UrlWithCredentials => tr!(lang, "problem-url-credentials"),
        Negative => tr!(lang, "problem-negative"),
        NotFlag => tr!(lang, "problem-not-flag"),
        EndBeforeStart => tr!(lang, "problem-end-before-start"),
        AtLeastOne(item) => tr!(lang, "problem-at-least-one", item = item_key(*item)),
        TooMany { max, item } => {
            let n = *max;
            tr!(lang, "problem-too-many", n = n, item = item_key(*item))
        }
        OutOfRange { min, max } => {
            let (min, max) = (*min, *max);
            tr!(lang, "problem-out-of-range", min = min, max = max)
        }
        SequenceTaken { sequence, first } => sequence_taken_words(lang, *sequence, *first),
        AssetNumberRepeated { number, first } => number_repeated_words(lang, number, *first),
        NothingBought => tr!(lang, "problem-nothing-bought"),
        NotForDeleteAsset { products: true } => tr!(lang, "problem-delete-asset-products"),
        NotForDeleteAsset { products: false } => tr!(lang, "problem-delete-asset-merchandise"),
        NoProductToDelete => tr!(lang, "problem-no-product-to-delete"),
        MerchandiseInDeleteProduct => tr!(lang, "problem-merchandise-in-delete-product"),
        TooDeep { max } => {
            let max = *max;
            tr!(lang, "problem-too-deep", max = max)
        }
        OverLimit { limit, count } => limit_words(lang, *limit, *count),
        NotJson => tr!(lang, "problem-not-json"),
        NotAWholeNumber => t!(lang, "not-a-number").to_owned(),
        NotADate => tr!(lang, "problem-not-a-date"),
        NotADuration => tr!(lang, "problem-not-a-duration"),
        UnknownValue { value } => tr!(lang, "problem-unknown-value", value = value.as_str()),
        LetterForDigit { meant: Some(meant) } => {
            tr!(
                lang,
                "problem-letter-for-digit-meant",
                meant = meant.as_str()
            )
        }
        LetterForDigit { meant: None } => tr!(lang, "problem-letter-for-digit"),
        LockDigits { count, digits } => {
            let (count, digits) = (*count, *digits);
            tr!(lang, "problem-lock-digits", count = count, digits = digits)
        }
        NearField { key, field } => {
            let (key, field) = (key.as_str(), *field);
            tr!(lang, "problem-near-field", key = key, field = field)
        }
        WrongType { expected } => tr!(
            lang,
            "problem-wrong-type",
            expected = expected_key(*expected)
        ),
    }
}

/// A sequence an earlier order (0-based `first`) has.
fn sequence_taken_words(lang: Lang, sequence: i32, first: usize) -> String {
    let order = first + 1;
    tr!(
        lang,
        "problem-sequence-taken",
        sequence = sequence,
        order = order
    )
}

/// An asset number an earlier line (0-based `first`) has.
fn number_repeated_words(lang: Lang, number: &str, first: usize) -> String {
    let line = first + 1;
    tr!(
        lang,
        "problem-asset-number-repeated",
        number = number,
        line = line
    )
}

/// The selector value the wrong-type message chooses its words by.
fn expected_key(expected: Expected) -> &'static str {
    match expected {
        Expected::Text => "text",
        Expected::Millis => "millis",
        Expected::YesNo => "yes-no",
        Expected::List => "list",
        Expected::Object => "object",
    }
}

/// The selector value the messages choose their noun by.
fn limit_words(lang: Lang, limit: Limit, count: usize) -> String {
    let max = limit.max();
    let limit = match limit {
        Limit::BatchAssetNumbers => "batch-asset-numbers",
        Limit::BatchGrants => "batch-grants",
        Limit::AssetProducts => "asset-products",
        Limit::AssetPackages => "asset-packages",
    };
    tr!(
        lang,
        "problem-over-limit",
        limit = limit,
        max = max,
        count = count
    )
}

fn item_key(item: Item) -> &'static str {
    match item {
        Item::Order => "order",
        Item::Asset => "asset",
        Item::AssetNumber => "asset-number",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::wire::validate::FieldPath;
    use crate::core::wire::{LicenseType, OrderType};

    fn every_kind() -> Vec<ProblemKind> {
        use ProblemKind::*;
        vec![
            Required,
            RequiredFor(OrderType::NewBuy),
            CustomerIdRequired,
            SourceOrderRequired {
                order_type: OrderType::DeleteProduct,
                license_type: LicenseType::CloudAccount,
            },
            Blank,
            TooLong { max: 64 },
            SpacesOrControls,
            Controls,
            NotMobile,
            NotEmail,
            NotHttpUrl,
            UrlWithCredentials,
            Negative,
            NotFlag,
            EndBeforeStart,
            AtLeastOne(Item::Order),
            AtLeastOne(Item::Asset),
            AtLeastOne(Item::AssetNumber),
            TooMany {
                max: 10_000,
                item: Item::Order,
            },
            TooMany {
                max: 10_000,
                item: Item::AssetNumber,
            },
            OutOfRange { min: 1, max: 1000 },
            SequenceTaken {
                sequence: 3,
                first: 0,
            },
            AssetNumberRepeated {
                number: "8000000100".to_owned(),
                first: 0,
            },
            NothingBought,
            NotForDeleteAsset { products: true },
            NotForDeleteAsset { products: false },
            NoProductToDelete,
            MerchandiseInDeleteProduct,
            TooDeep { max: 16 },
            OverLimit {
                limit: Limit::BatchAssetNumbers,
                count: 20_001,
            },
            OverLimit {
                limit: Limit::BatchGrants,
                count: 100_001,
            },
            OverLimit {
                limit: Limit::AssetProducts,
                count: 201,
            },
            OverLimit {
                limit: Limit::AssetPackages,
                count: 201,
            },
            NotJson,
            NotAWholeNumber,
            NotADate,
            NotADuration,
        ]
    }

    #[test]
    fn every_kind_is_said_in_chinese_and_differs_from_the_others() {
        let kinds = every_kind();
        let mut said = std::collections::HashSet::new();
        for kind in &kinds {
            let zh = kind_words(Lang::Zh, kind);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{kind:?} in Chinese: {zh}"
            );
            assert!(said.insert(zh), "{kind:?} said like another kind");
        }
    }

    #[test]
    fn english_words_name_the_values_and_plurals() {
        let words = |k: &ProblemKind| kind_words(Lang::En, k);
        assert_eq!(
            words(&ProblemKind::TooMany {
                max: 10_000,
                item: Item::Order
            }),
            "at most 10000 orders per batch"
        );
        assert_eq!(
            words(&ProblemKind::AtLeastOne(Item::AssetNumber)),
            "at least one asset number required"
        );
        assert_eq!(
            words(&ProblemKind::SequenceTaken {
                sequence: 3,
                first: 0
            }),
            "3 is already the sequence of order 1"
        );
    }

    #[test]
    fn a_path_is_said_as_the_tree_names_its_nodes() {
        let path = FieldPath(vec![
            Seg::Item("orderList", 0),
            Seg::Item("assets", 1),
            Seg::Item("assetNos", 3),
        ]);
        let problem = Problem::new(path, ProblemKind::Blank);
        assert_eq!(
            problem_words(Lang::En, &problem),
            "Order 1 › Asset 2 › Asset numbers, line 4: must not be blank"
        );
        assert_eq!(
            problem_words(Lang::Zh, &problem),
            "订单 1 › 资产 2 › 资产编号第 4 行：不能为空"
        );
    }
}
