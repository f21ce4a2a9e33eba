//! A problem as data: what is wrong (a kind, with the values its message needs) and where (a
//! typed field path). The platform renders it in English for its `message`; the console renders
//! the kind in the UI's language and walks the path to the field, so nothing parses a message.

use std::fmt;

use crate::kinds::{LicenseType, OrderType};

/// One step of a field path: a field, or an item of a list field (`assets[2]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seg {
    Field(&'static str),
    Item(&'static str, usize),
}

impl Seg {
    pub fn name(self) -> &'static str {
        match self {
            Self::Field(name) | Self::Item(name, _) => name,
        }
    }
}

impl fmt::Display for Seg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Field(name) => f.write_str(name),
            Self::Item(name, i) => write!(f, "{name}[{i}]"),
        }
    }
}

/// Where a problem is, as the interface names it: `orderList[2].assets[0].productUri`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct FieldPath(pub Vec<Seg>);

impl FieldPath {
    pub fn field(name: &'static str) -> Self {
        Self(vec![Seg::Field(name)])
    }

    /// Whether this is the top-level field `name` (the forms' fields are all top-level).
    pub fn is_field(&self, name: &str) -> bool {
        matches!(self.0.as_slice(), [Seg::Field(f)] if *f == name)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, seg) in self.0.iter().enumerate() {
            if n > 0 {
                f.write_str(".")?;
            }
            write!(f, "{seg}")?;
        }
        Ok(())
    }
}

/// A path being walked by a check, borrowed from its parent's: a valid batch of thousands of
/// products builds no path at all; one is collected only for a problem.
#[derive(Clone, Copy)]
pub struct At<'a> {
    up: Option<&'a At<'a>>,
    seg: Option<Seg>,
}

impl<'a> At<'a> {
    pub const ROOT: At<'static> = At {
        up: None,
        seg: None,
    };

    pub fn field(&'a self, name: &'static str) -> At<'a> {
        At {
            up: Some(self),
            seg: Some(Seg::Field(name)),
        }
    }

    pub fn item(&'a self, name: &'static str, i: usize) -> At<'a> {
        At {
            up: Some(self),
            seg: Some(Seg::Item(name, i)),
        }
    }

    pub fn path(&self) -> FieldPath {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(a) = at {
            segs.extend(a.seg);
            at = a.up;
        }
        segs.reverse();
        FieldPath(segs)
    }
}

/// What a list must hold at least one of, or at most so many of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Order,
    Asset,
    AssetNumber,
}

/// What is wrong with a field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemKind {
    Required,
    /// A product's `productUri`, in an order of this type.
    RequiredFor(OrderType),
    /// An order's `customerId` when its `channelCustomerId` is empty too.
    CustomerIdRequired,
    /// A cloud license's change needs the order it changes.
    SourceOrderRequired {
        order_type: OrderType,
        license_type: LicenseType,
    },
    Blank,
    TooLong {
        max: usize,
    },
    SpacesOrControls,
    /// Control characters (NUL, ESC…) inside an identifier or a text.
    Controls,
    NotMobile,
    NotEmail,
    NotHttpUrl,
    /// An address with a user name or password in it (`user:pass@host`): it would be kept in
    /// clear in the profiles file and sent instead of the token.
    UrlWithCredentials,
    Negative,
    NotFlag,
    EndBeforeStart,
    AtLeastOne(Item),
    TooMany {
        max: usize,
        item: Item,
    },
    OutOfRange {
        min: i64,
        max: i64,
    },
    SequenceTaken {
        sequence: i32,
        first: usize,
    },
    AssetNumberRepeated {
        number: String,
        first: usize,
    },
    /// A new purchase buys something.
    NothingBought,
    /// Products or merchandise in an order that removes whole assets.
    NotForDeleteAsset {
        products: bool,
    },
    /// A product removal names its products.
    NoProductToDelete,
    /// A product removal names products, not merchandise.
    MerchandiseInDeleteProduct,
    TooDeep {
        max: usize,
    },
    /// More in one place than the platform takes at once (each call's work is bounded).
    OverLimit {
        limit: Limit,
        count: usize,
    },
    NotJson,
    /// Text typed (or read from a file) where a whole number goes.
    NotAWholeNumber,
    /// Text typed where a date (`2027-11-23`) goes.
    NotADate,
    /// A time expression not in the interface's years-months-days form (`1-0-0`).
    NotADuration,
    /// Not given, while the node has `key`, which is no field of the interface and is likely
    /// this field misspelt (`endDate` for `limitEndDate`): the platform would ignore it.
    NearField {
        key: String,
        field: &'static str,
    },
    /// A lock's asset number with a letter where a digit goes (`80000001O2`); what it likely
    /// meant when that is 10 digits.
    LetterForDigit {
        meant: Option<String>,
    },
    /// A lock's asset number of digits, too many or too few.
    LockDigits {
        count: usize,
        digits: usize,
    },
    /// A value that is not one the interface lists for the field (`golden_usbkey`).
    UnknownValue {
        value: String,
    },
    /// A value of another JSON type than the field's.
    WrongType {
        expected: Expected,
    },
}

/// The JSON type a field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    Text,
    /// A date as the interface writes it: epoch milliseconds.
    Millis,
    YesNo,
    List,
    Object,
}

impl fmt::Display for ProblemKind {
    /// The platform's English, as its `message` has always read.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Required => f.write_str("required"),
            Self::RequiredFor(op) => write!(f, "required for {}", op.as_str()),
            Self::CustomerIdRequired => f.write_str("required when channelCustomerId is empty"),
            Self::SourceOrderRequired {
                order_type,
                license_type,
            } => write!(
                f,
                "required for {} orders of the cloud license type {}",
                order_type.as_str(),
                license_type.as_str()
            ),
            Self::Blank => f.write_str("must not be blank"),
            Self::TooLong { max } => write!(f, "at most {max} characters"),
            Self::SpacesOrControls => f.write_str("must not contain spaces or control characters"),
            Self::Controls => f.write_str("must not contain control characters (such as NUL or ESC)"),
            Self::NotMobile => f.write_str("must be a mobile number: 1 followed by 10 digits"),
            Self::NotEmail => f.write_str("must be an e-mail address"),
            Self::NotHttpUrl => f.write_str("an http:// or https:// address is required"),
            Self::UrlWithCredentials => f.write_str(
                "an address with a user name or password (user:pass@) is refused: the app secret goes in its own field",
            ),
            Self::Negative => f.write_str("must not be negative"),
            Self::NotFlag => f.write_str("must be 0 or 1"),
            Self::EndBeforeStart => f.write_str("must not be before limitStartDate"),
            Self::AtLeastOne(item) => write!(f, "at least one {} required", item.english(1)),
            Self::TooMany { max, item } => {
                let per = if *item == Item::Order { "batch" } else { "call" };
                write!(f, "at most {max} {} per {per}", item.english(2))
            }
            Self::OutOfRange { min, max } => write!(f, "must be between {min} and {max}"),
            Self::SequenceTaken { sequence, first } => {
                write!(f, "{sequence} is already used by orderList[{first}]")
            }
            Self::AssetNumberRepeated { number, first } => {
                write!(f, "{number} is already listed at assetNos[{first}]")
            }
            Self::NothingBought => {
                f.write_str("at least one product or merchandise required for new_buy")
            }
            Self::NotForDeleteAsset { products: true } => f.write_str(
                "must be empty for delete_asset, which removes whole assets (use delete_product to remove products)",
            ),
            Self::NotForDeleteAsset { products: false } => {
                f.write_str("must be empty for delete_asset")
            }
            Self::NoProductToDelete => {
                f.write_str("at least one product required for delete_product")
            }
            Self::MerchandiseInDeleteProduct => {
                f.write_str("must be empty for delete_product: name the products to remove")
            }
            Self::TooDeep { max } => {
                write!(f, "merchandise trees are at most {max} levels deep")
            }
            Self::OverLimit { limit, count } => write!(f, "{}", over_limit(*limit, *count)),
            Self::NotJson => f.write_str("must be an object or a string holding JSON"),
            Self::NotAWholeNumber => f.write_str("must be a whole number"),
            Self::NotADate => f.write_str("must be a date: year-month-day, as 2027-11-23"),
            Self::NotADuration => {
                f.write_str("must be years-months-days, as 1-0-0 for one year or 0-6-0 for six months")
            }
            Self::UnknownValue { value } => {
                write!(f, "{value} is not a value the interface lists for this field")
            }
            Self::LetterForDigit { .. } | Self::LockDigits { .. } | Self::NearField { .. } => {
                console_english(self, f)
            }
            Self::WrongType { expected } => f.write_str(expected.english()),
        }
    }
}

/// The console's own kinds (`validate::console_check`), in English for `order check`.
fn console_english(kind: &ProblemKind, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match kind {
        ProblemKind::LetterForDigit { meant: Some(meant) } => write!(
            f,
            "has a letter where a digit goes (O for 0, I or l for 1): {meant}?"
        ),
        ProblemKind::LockDigits { count, digits } => write!(
            f,
            "a lock's asset number is {digits} digits; this one has {count}"
        ),
        ProblemKind::NearField { key, field } => write!(
            f,
            "{key} is not a field of the interface and would be ignored: rename it {field}"
        ),
        ProblemKind::LetterForDigit { meant: None } => {
            f.write_str("has a letter where a digit goes (O for 0, I or l for 1)")
        }
        // The platform's kinds are said by `Display` itself.
        _ => Ok(()),
    }
}

/// A limit of the interface passed, and how to stay within it.
fn over_limit(limit: Limit, count: usize) -> String {
    let max = limit.max();
    match limit {
        Limit::BatchAssetNumbers => format!(
            "{count} asset numbers in the batch; at most {max} per batch: split it into several batches"
        ),
        Limit::BatchGrants => format!(
            "{count} products granted or removed in all (asset numbers × products); at most {max} per batch: split it into several batches"
        ),
        Limit::AssetProducts => {
            format!("{count} products on one asset entry, packages included; at most {max}")
        }
        Limit::AssetPackages => format!("{count} packages in one asset entry; at most {max}"),
    }
}

impl Expected {
    fn english(self) -> &'static str {
        match self {
            Self::Text => "must be text (a JSON string)",
            Self::Millis => "must be a date as epoch milliseconds (a whole number)",
            Self::YesNo => "must be true or false",
            Self::List => "must be a list (a JSON array)",
            Self::Object => "must be an object",
        }
    }
}

impl Item {
    fn english(self, n: usize) -> &'static str {
        match (self, n == 1) {
            (Self::Order, true) => "order",
            (Self::Order, false) => "orders",
            (Self::Asset, true) => "asset",
            (Self::Asset, false) => "assets",
            (Self::AssetNumber, true) => "asset number",
            (Self::AssetNumber, false) => "asset numbers",
        }
    }
}

/// A bound on the work of one call: what it counts, and how many it takes at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Asset numbers in all the orders of a batch.
    BatchAssetNumbers,
    /// Product instances a batch writes or removes: each asset number times its entry's
    /// products (a whole-asset removal counts one).
    BatchGrants,
    /// Products of one asset entry, those in its packages included.
    AssetProducts,
    /// Packages (merchandise nodes) of one asset entry, at every level.
    AssetPackages,
}

impl Limit {
    pub const fn max(self) -> usize {
        match self {
            Self::BatchAssetNumbers => 20_000,
            Self::BatchGrants => 100_000,
            Self::AssetProducts => 200,
            Self::AssetPackages => 200,
        }
    }
}

/// One thing wrong with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: FieldPath,
    pub kind: ProblemKind,
}

impl Problem {
    pub fn new(path: FieldPath, kind: ProblemKind) -> Self {
        Self { path, kind }
    }

    /// The platform's English message, without the path.
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.kind)
    }
}
