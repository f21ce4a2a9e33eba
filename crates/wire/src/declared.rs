//! What a field of a type is declared to hold, asked of the type's own `Deserialize`: a
//! deserializer hands the derive the one field's key, then notes which kind of value the field's
//! type asks for, and stops. A value that does not fit is then judged by that kind and by the
//! value itself, never by the words of serde's error. The same way, the names of a type's fields.

use serde::de::value::StrDeserializer;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};

/// The kind of value a field's type asks for (through `Option`, newtypes and `deserialize_with`
/// functions that read one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declared {
    /// A whole number between `min` and `max`.
    Whole {
        min: i64,
        max: i64,
    },
    YesNo,
    List,
    Object,
    Text,
    /// One of an enum's names.
    Choice,
    /// Anything else (a number with a fraction, a type that reads any value).
    Other,
}

/// What field `field` of `T` is declared to hold; `Other` for a name `T` does not have.
pub fn declared<T: DeserializeOwned>(field: &'static str) -> Declared {
    let mut found = Declared::Other;
    // The probe always fails (it holds no data): what it recorded on the way is the answer.
    let _ = T::deserialize(Struct {
        field,
        fields: &mut &[][..],
        found: &mut found,
    });
    found
}

/// The field names serde reads for `T`: the derive hands them to `deserialize_struct`, which
/// the probe records.
pub fn fields_of<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    // The probe always fails (it holds no data): what it recorded on the way is the answer.
    let _ = T::deserialize(Struct {
        field: "",
        fields: &mut fields,
        found: &mut Declared::Other,
    });
    fields
}

/// Stops the probe once the kind is noted (and ends every other path of the derive's).
#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("probe")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

/// Answers the derive's `deserialize_struct` with a map of one key, `field`, noting the
/// struct's field names.
struct Struct<'a> {
    field: &'static str,
    fields: &'a mut &'static [&'static str],
    found: &'a mut Declared,
}

impl<'de> de::Deserializer<'de> for Struct<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Stop> {
        *self.fields = fields;
        visitor.visit_map(OneField {
            field: Some(self.field),
            found: self.found,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

struct OneField<'a> {
    field: Option<&'static str>,
    found: &'a mut Declared,
}

impl<'de> MapAccess<'de> for OneField<'_> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Stop> {
        let Some(field) = self.field.take() else {
            return Ok(None);
        };
        let key: StrDeserializer<'_, Stop> = field.into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Stop> {
        seed.deserialize(Kind { found: self.found })
    }
}

/// Notes the kind of value asked for, looking through `Option` and newtypes.
struct Kind<'a> {
    found: &'a mut Declared,
}

impl Kind<'_> {
    fn note<T>(self, kind: Declared) -> Result<T, Stop> {
        *self.found = kind;
        Err(Stop)
    }

    fn whole<T>(self, min: i64, max: i64) -> Result<T, Stop> {
        self.note(Declared::Whole { min, max })
    }
}

impl<'de> de::Deserializer<'de> for Kind<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.note(Declared::Other)
    }
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Stop> {
        visitor.visit_some(self)
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, Stop> {
        visitor.visit_newtype_struct(self)
    }
    fn deserialize_bool<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.note(Declared::YesNo)
    }
    fn deserialize_i8<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.whole(i8::MIN.into(), i8::MAX.into())
    }
    fn deserialize_i16<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.whole(i16::MIN.into(), i16::MAX.into())
    }
    fn deserialize_i32<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.whole(i32::MIN.into(), i32::MAX.into())
    }
    fn deserialize_i64<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.whole(i64::MIN, i64::MAX)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.whole(0, u8::MAX.into())
    }
    fn deserialize_u16<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.whole(0, u16::MAX.into())
    }
    fn deserialize_u32<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.whole(0, u32::MAX.into())
    }
    fn deserialize_u64<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        // Said within what a problem can name; larger values are refused as out of range.
        self.whole(0, i64::MAX)
    }
    fn deserialize_char<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.note(Declared::Text)
    }
    fn deserialize_str<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.note(Declared::Text)
    }
    fn deserialize_string<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.note(Declared::Text)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.note(Declared::List)
    }
    fn deserialize_map<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        self.note(Declared::Object)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        self.note(Declared::Object)
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Stop> {
        self.note(Declared::Choice)
    }

    serde::forward_to_deserialize_any! {
        i128 u128 f32 f64 bytes byte_buf unit unit_struct tuple tuple_struct identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::*;

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Sample {
        sequence: Option<i32>,
        quantity: u16,
        flag: Option<bool>,
        names: Vec<String>,
        #[serde(default, deserialize_with = "crate::de::null_as_empty")]
        tight: Vec<String>,
        kind: Option<crate::kinds::OrderType>,
        label: String,
        nested: Option<Inner>,
        ratio: f64,
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        a: i64,
    }

    #[test]
    fn each_field_says_what_its_type_asks_for() {
        let whole = |min, max| Declared::Whole { min, max };
        assert_eq!(
            declared::<Sample>("sequence"),
            whole(-2147483648, 2147483647)
        );
        assert_eq!(declared::<Sample>("quantity"), whole(0, 65535));
        assert_eq!(declared::<Sample>("flag"), Declared::YesNo);
        assert_eq!(declared::<Sample>("names"), Declared::List);
        assert_eq!(declared::<Sample>("tight"), Declared::List);
        assert_eq!(declared::<Sample>("kind"), Declared::Choice);
        assert_eq!(declared::<Sample>("label"), Declared::Text);
        assert_eq!(declared::<Sample>("nested"), Declared::Object);
        assert_eq!(declared::<Sample>("ratio"), Declared::Other);
        assert_eq!(declared::<Sample>("noSuchField"), Declared::Other);
    }
}
