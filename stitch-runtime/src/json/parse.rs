//! Reading the arguments' text into a `Value`, noting each value whose key the text sent twice,
//! so the walk can refuse a declared key sent twice as serde does (`docs/rules.md#duplicates`).
//! A value is noted by its address in the finished `Value`: exact, as nothing moves it once its
//! object is complete (`Duplicates::follow` tracks a flattened union's moved keys), and the values
//! a repeated key replaced are kept alive so no noted address is reused.

use core::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

/// The values whose key the text sent twice in one object.
#[derive(Debug, Default)]
pub(crate) struct Duplicates {
    /// One per repeated key, sorted by the address of the value the `Value` keeps.
    notes: Vec<Note>,
}

/// A key sent more than once: the address of the value kept (the last), and those sent before.
#[derive(Debug)]
struct Note {
    kept: usize,
    earlier: Vec<Value>,
}

impl Duplicates {
    /// No duplicates (what a `Value` arrives with).
    pub(crate) const NONE: Duplicates = Duplicates { notes: Vec::new() };

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.notes.is_empty()
    }

    /// Whether the text sent the key of `value` (a value inside these notes' arguments) twice.
    pub(crate) fn contains(&self, value: &Value) -> bool {
        self.earlier(value).is_some()
    }

    /// The values sent under the key of `value` before it, in order; `None` when sent once.
    pub(crate) fn earlier(&self, value: &Value) -> Option<&[Value]> {
        let kept = address(value);
        let i = self.notes.binary_search_by_key(&kept, |n| n.kept).ok()?;
        Some(&self.notes[i].earlier)
    }
}

impl Duplicates {
    /// The entries of `maps` whose value is noted, by key and address, for [`Duplicates::follow`].
    pub(crate) fn noted_in(&self, maps: &[&Map<String, Value>]) -> Vec<(String, usize)> {
        if self.is_empty() {
            return Vec::new();
        }
        let entries = maps.iter().flat_map(|map| map.iter());
        entries
            .filter(|(_, value)| self.contains(value))
            .map(|(key, value)| (key.clone(), address(value)))
            .collect()
    }

    /// The notes of `noted` follow their entries into `maps`, all at once: an address freed by the
    /// move may be taken again.
    pub(crate) fn follow(&mut self, noted: &[(String, usize)], maps: &[&Map<String, Value>]) {
        let moved: Vec<(usize, usize)> = noted
            .iter()
            .filter_map(|(key, was)| {
                let i = self.notes.binary_search_by_key(was, |n| n.kept).ok()?;
                let now = maps.iter().find_map(|map| map.get(key))?;
                Some((i, address(now)))
            })
            .collect();
        for (i, now) in moved {
            self.notes[i].kept = now;
        }
        self.notes.sort_unstable_by_key(|n| n.kept);
    }
}

fn address(value: &Value) -> usize {
    value as *const Value as usize
}

pub(crate) fn from_str(text: &str) -> Result<(Value, Duplicates), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut found = Duplicates::NONE;
    let value = ValueSeed { found: &mut found }.deserialize(&mut de)?;
    de.end()?;
    found.notes.sort_unstable_by_key(|n| n.kept);
    Ok((value, found))
}

/// Reads a `Value` from any deserializer (`Args<T>`), with the keys it sends twice.
pub(crate) fn from_deserializer<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(Value, Duplicates), D::Error> {
    let mut found = Duplicates::NONE;
    let value = ValueSeed { found: &mut found }.deserialize(deserializer)?;
    found.notes.sort_unstable_by_key(|n| n.kept);
    Ok((value, found))
}

#[cold]
pub(crate) fn duplicate_field(name: &'static str) -> String {
    <super::de::Error as serde::de::Error>::duplicate_field(name).to_string()
}

struct ValueSeed<'a> {
    found: &'a mut Duplicates,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        self.deserialize(deserializer)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(ValueSeed {
            found: &mut *self.found,
        })? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        // Noted once the object is complete: until then its entries may move.
        let mut earlier: Vec<(String, Value)> = Vec::new();
        while let Some(key) = access.next_key::<String>()? {
            let value = access.next_value_seed(ValueSeed {
                found: &mut *self.found,
            })?;
            // The last of duplicate keys wins, as in serde_json's `Value`.
            match map.entry(key) {
                Entry::Vacant(entry) => {
                    entry.insert(value);
                }
                Entry::Occupied(mut entry) => {
                    let replaced = entry.insert(value);
                    earlier.push((entry.key().clone(), replaced));
                }
            }
        }
        if !earlier.is_empty() {
            note(self.found, &map, earlier);
        }
        Ok(Value::Object(map))
    }
}

#[cold]
fn note(found: &mut Duplicates, map: &Map<String, Value>, mut earlier: Vec<(String, Value)>) {
    earlier.sort_by(|a, b| a.0.cmp(&b.0));
    let mut rest = earlier.into_iter().peekable();
    while let Some((key, first)) = rest.next() {
        let mut values = vec![first];
        while let Some((_, value)) = rest.next_if(|(k, _)| *k == key) {
            values.push(value);
        }
        if let Some(kept) = map.get(&key) {
            found.notes.push(Note {
                kept: address(kept),
                earlier: values,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_serde_json_reads() {
        for text in [
            r#"{"a":[1,-2,3.5,"x",true,null,{"b":{}}],"c":"\u00e9\ud83d\ude00"}"#,
            r#"[{"k":1,"k":2},{"k":[3]}]"#,
            "18446744073709551616",
            r#"  {"a" : { "b" : [ ] } }  "#,
        ] {
            let (value, _) = from_str(text).unwrap();
            assert_eq!(
                value,
                serde_json::from_str::<Value>(text).unwrap(),
                "{text}"
            );
        }
        for text in ["{", r#"{"a":1,}"#, "[1] x", r#""\ud800""#] {
            assert_eq!(
                from_str(text)
                    .map(|(value, _)| value)
                    .map_err(|e| e.to_string()),
                serde_json::from_str::<Value>(text).map_err(|e| e.to_string()),
                "{text}"
            );
        }
    }

    #[test]
    fn notes_exactly_the_values_whose_key_repeats() {
        let (_, found) = from_str(r#"{"a":1,"b":{"c":1}}"#).unwrap();
        assert!(found.is_empty() && found.notes.capacity() == 0);
        let text = r#"{"a":1,"a":2,"rows":[{"n":1},{"n":1,"n":2,"n":3}],"m":{"a.b":{"x":0,"x":1}},"z":{"x":5}}"#;
        let (value, found) = from_str(text).unwrap();
        assert_eq!(value["a"], 2);
        assert_eq!(value["rows"][1]["n"], 3);
        assert_eq!(found.notes.len(), 3);
        assert!(found.contains(&value["a"]));
        assert!(found.contains(&value["rows"][1]["n"]));
        assert!(!found.contains(&value["rows"][0]["n"]));
        assert!(found.contains(&value["m"]["a.b"]["x"]));
        assert!(!found.contains(&value["z"]["x"]));
        assert!(!found.contains(&value["m"]));
        assert_eq!(found.earlier(&value["rows"][1]["n"]).unwrap(), [1, 2]);
        // A copy is another value.
        let copy = value["a"].clone();
        assert!(!found.contains(&copy));
    }

    #[test]
    fn keys_that_differ_only_in_their_middles_are_told_apart() {
        let text = r#"{"aaaaaaaa_x_bbbbbbbb":{"names":"a","names":"b"},"aaaaaaaa_y_bbbbbbbb":{"names":"c"}}"#;
        let (value, found) = from_str(text).unwrap();
        assert!(found.contains(&value["aaaaaaaa_x_bbbbbbbb"]["names"]));
        assert!(!found.contains(&value["aaaaaaaa_y_bbbbbbbb"]["names"]));
    }

    #[test]
    fn a_replaced_object_leaves_no_note_behind() {
        // The first `a` held a repeated key; the `a` that replaced it holds none.
        let text = r#"{"a":{"x":1,"x":2},"a":{"x":3}}"#;
        let (value, found) = from_str(text).unwrap();
        assert!(found.contains(&value["a"]));
        assert!(!found.contains(&value["a"]["x"]));
    }

    #[test]
    fn notes_stay_linear_under_a_long_key() {
        let long = "x".repeat(1 << 16);
        let mut text = format!(r#"{{"{long}":{{"a":0,"#);
        for i in 0..100 {
            text.push_str(&format!(r#""k{i}":0,"k{i}":1,"#));
        }
        text.push_str(r#""z":[{"k0":0}]}}"#);
        let (value, found) = from_str(&text).unwrap();
        // One word per repeated key; no key is copied for the notes.
        assert_eq!(found.notes.len(), 100);
        let inner = &value[&long];
        assert!(found.contains(&inner["k0"]));
        assert!(found.contains(&inner["k99"]));
        assert!(!found.contains(&inner["a"]));
        assert!(!found.contains(&inner["z"][0]["k0"]));
    }
}
