//! Whether a typed parse skipped a value: a deserializer around another that notes each value
//! the derived code passes over (a key of no field), without naming it. `serde_ignored` names
//! every key it meets (a `String` each) to report a path; opening a batch only asks whether
//! there was such a key, and then opens it node by node.

use std::cell::Cell;

use serde::Deserialize;
use serde::de::{
    self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor,
};

/// `T` read from `de`, and whether any value in it was skipped.
pub fn deserialize<'de, D, T>(de: D) -> Result<(T, bool), D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let skipped = Cell::new(false);
    let value = T::deserialize(Watch {
        inner: de,
        skipped: &skipped,
    })?;
    Ok((value, skipped.get()))
}

/// A deserializer, visitor, seed or access, passed on with the flag it sets.
struct Watch<'s, X> {
    inner: X,
    skipped: &'s Cell<bool>,
}

impl<'s, X> Watch<'s, X> {
    fn wrap<Y>(&self, inner: Y) -> Watch<'s, Y> {
        Watch {
            inner,
            skipped: self.skipped,
        }
    }
}

macro_rules! forward_deserialize {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
            let visitor = self.wrap(visitor);
            self.inner.$method($($arg,)* visitor)
        })*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Watch<'_, D> {
    type Error = D::Error;

    forward_deserialize! {
        deserialize_any(); deserialize_bool(); deserialize_i8(); deserialize_i16();
        deserialize_i32(); deserialize_i64(); deserialize_i128(); deserialize_u8();
        deserialize_u16(); deserialize_u32(); deserialize_u64(); deserialize_u128();
        deserialize_f32(); deserialize_f64(); deserialize_char(); deserialize_str();
        deserialize_string(); deserialize_bytes(); deserialize_byte_buf(); deserialize_option();
        deserialize_unit(); deserialize_unit_struct(name: &'static str);
        deserialize_newtype_struct(name: &'static str); deserialize_seq();
        deserialize_tuple(len: usize); deserialize_tuple_struct(name: &'static str, len: usize);
        deserialize_map();
        deserialize_struct(name: &'static str, fields: &'static [&'static str]);
        deserialize_enum(name: &'static str, variants: &'static [&'static str]);
        deserialize_identifier();
    }

    /// What the derived code asks for a key of no field: noted, and skipped as before.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.skipped.set(true);
        self.inner.deserialize_ignored_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

macro_rules! forward_visit {
    ($($method:ident($ty:ty);)*) => {
        $(fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
            self.inner.$method(v)
        })*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Watch<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.inner.expecting(f)
    }

    forward_visit! {
        visit_bool(bool); visit_i8(i8); visit_i16(i16); visit_i32(i32); visit_i64(i64);
        visit_i128(i128); visit_u8(u8); visit_u16(u16); visit_u32(u32); visit_u64(u64);
        visit_u128(u128); visit_f32(f32); visit_f64(f64); visit_char(char); visit_str(&str);
        visit_borrowed_str(&'de str); visit_string(String); visit_bytes(&[u8]);
        visit_borrowed_bytes(&'de [u8]); visit_byte_buf(Vec<u8>);
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        let d = self.wrap(d);
        self.inner.visit_some(d)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        let d = self.wrap(d);
        self.inner.visit_newtype_struct(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let seq = self.wrap(seq);
        self.inner.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let map = self.wrap(map);
        self.inner.visit_map(map)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<V::Value, A::Error> {
        let data = self.wrap(data);
        self.inner.visit_enum(data)
    }
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for Watch<'_, T> {
    type Value = T::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T::Value, D::Error> {
        let d = self.wrap(d);
        self.inner.deserialize(d)
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Watch<'_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let seed = self.wrap(seed);
        self.inner.next_element_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Watch<'_, A> {
    type Error = A::Error;

    /// A key is read as it is: what the derived code skips is the value of a key it does not
    /// know, met in `next_value_seed`.
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        self.inner.next_key_seed(seed)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let seed = self.wrap(seed);
        self.inner.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'s, 'de, A: EnumAccess<'de>> EnumAccess<'de> for Watch<'s, A> {
    type Error = A::Error;
    type Variant = Watch<'s, A::Variant>;

    fn variant_seed<T: DeserializeSeed<'de>>(
        self,
        seed: T,
    ) -> Result<(T::Value, Self::Variant), A::Error> {
        let skipped = self.skipped;
        let (value, variant) = self.inner.variant_seed(seed)?;
        Ok((
            value,
            Watch {
                inner: variant,
                skipped,
            },
        ))
    }
}

impl<'de, A: VariantAccess<'de>> VariantAccess<'de> for Watch<'_, A> {
    type Error = A::Error;

    fn unit_variant(self) -> Result<(), A::Error> {
        self.inner.unit_variant()
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, A::Error> {
        let seed = self.wrap(seed);
        self.inner.newtype_variant_seed(seed)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, A::Error> {
        let visitor = self.wrap(visitor);
        self.inner.tuple_variant(len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        let visitor = self.wrap(visitor);
        self.inner.struct_variant(fields, visitor)
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        code: Option<String>,
        kind: Option<Kind>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        NewBuy,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Outer {
        name: Option<String>,
        #[serde(default)]
        list: Vec<Inner>,
        one: Option<Inner>,
    }

    fn read(text: &str) -> (Outer, bool) {
        let mut de = serde_json::Deserializer::from_str(text);
        super::deserialize(&mut de).expect("json")
    }

    #[test]
    fn a_key_of_no_field_is_noted_at_any_depth_and_the_value_read_as_before() {
        let plain = r#"{"name":"a","list":[{"code":"x","kind":"new_buy"}],"one":null}"#;
        let (value, skipped) = read(plain);
        assert!(!skipped);
        assert_eq!(value, serde_json::from_str::<Outer>(plain).expect("json"));

        for extra in [
            r#"{"name":"a","remark":{"deep":[1,2]}}"#,
            r#"{"list":[{"code":"x"},{"code":"y","colour":"red"}]}"#,
            r#"{"one":{"kind":"new_buy","note":null}}"#,
        ] {
            let (value, skipped) = read(extra);
            assert!(skipped, "{extra}");
            assert_eq!(value, serde_json::from_str::<Outer>(extra).expect("json"));
        }
    }

    #[test]
    fn a_value_that_does_not_fit_is_an_error_as_before() {
        let mut de = serde_json::Deserializer::from_str(r#"{"list":[{"kind":"other"}]}"#);
        let err = super::deserialize::<_, Outer>(&mut de).expect_err("unknown variant");
        assert!(
            err.to_string().starts_with("unknown variant `other`"),
            "{err}"
        );
    }
}
