//! Reading a JSON body into a wire type, naming the field path of any error.

use serde::de::DeserializeOwned;

/// Why a body is not the expected shape; `path` is empty for the body as a whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", if path.is_empty() { "body" } else { path.as_str() })]
pub struct ParseError {
    pub path: String,
    /// serde_json's message, which ends with the line and column.
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// Parses `bytes` as JSON into `T`; trailing characters are an error.
pub fn json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ParseError> {
    // Tracking the path costs on every field; only a body that fails is read a second time.
    match serde_json::from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(plain) => match json_with_path::<T>(bytes) {
            Err(e) => Err(e),
            Ok(_) => Err(ParseError {
                path: String::new(),
                message: plain.to_string(),
                line: plain.line(),
                column: plain.column(),
            }),
        },
    }
}

fn json_with_path<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ParseError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        // Where a key could not be read the path holds `?`: name the field around it instead;
        // line and column say exactly where.
        let known = path
            .split('?')
            .next()
            .unwrap_or_default()
            .trim_end_matches('.');
        ParseError {
            path: known.to_owned(),
            message: inner.to_string(),
            line: inner.line(),
            column: inner.column(),
        }
    })?;
    de.end().map_err(|e| ParseError {
        path: String::new(),
        message: e.to_string(),
        line: e.line(),
        column: e.column(),
    })?;
    Ok(value)
}

/// A request body read from JSON. Bodies are read strictly, but for a batch order, which opens
/// whole (its values that do not fit kept, to be listed with every other problem of it).
pub trait FromJson: Sized {
    fn from_json(bytes: &[u8]) -> Result<Self, ParseError>;
}

macro_rules! strict {
    ($($t:ty),*) => {
        $(impl FromJson for $t {
            fn from_json(bytes: &[u8]) -> Result<Self, ParseError> {
                json(bytes)
            }
        })*
    };
}

strict!(
    super::customer::BindRequest,
    super::customer::EnterpriseRequest,
    super::asset::LockRequest,
    super::asset::ShellnumsRequest,
    super::activity::ClaimRequest
);

impl FromJson for super::order::BatchOrderRequest {
    fn from_json(bytes: &[u8]) -> Result<Self, ParseError> {
        // What cannot be opened at all is said as for any other body (the field it is in,
        // serde's words, the place).
        super::open::open_batch(bytes).or_else(|e| {
            json::<Self>(bytes)?;
            let (line, column) = e.at();
            Err(ParseError {
                path: String::new(),
                message: e.to_string(),
                line,
                column,
            })
        })
    }
}
