//! Reading the arguments' text into a `Value`, noting every key the text sends twice in one
//! object.
//!
//! A `Value` keeps the last of duplicate keys, while serde refuses a struct's field sent twice
//! (`duplicate field `paths``). So the full path of `from_json` (and `Args<T>`) reads the text
//! with [`ValueSeed`], which builds the same `Value` as serde_json's own and notes the path of
//! each duplicated key; the walk then refuses a duplicated *declared* field where it meets it
//! (`Cx::sent_once`), and lets any other key repeat, as serde
//! does. `from_value` cannot see duplicates: its input is a `Value` already.
//!
//! Nothing is allocated for the notes when no key repeats. The seed recurses once per array or
//! object, as serde_json's parser does, within its depth limit ([`MAX_DEPTH`](super::depth)),
//! and the time is linear in the text.

use core::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::map::Entry;
use serde_json::{Map, Number, Value};

use crate::path::{Path, Segment};

/// The paths at which the text sent a key twice in one object.
///
/// Each is kept as its fingerprint, its depth and its leaf key only, never as a copy of its
/// ancestors' keys: a text with a long ancestor key and many duplicated keys beneath it would
/// otherwise copy that ancestor once per duplicate (quadratic memory). Each leaf key kept is a
/// key of the text, so what is kept is bounded by the text.
#[derive(Debug, Default)]
pub(crate) struct Duplicates {
    /// Sorted by fingerprint.
    paths: Vec<Noted>,
}

/// One duplicated key: the fingerprint of its whole path, the path's depth, its leaf segment.
///
/// [`Duplicates::contains`] matches all three exactly. A false positive therefore needs two
/// paths of the same depth and the same leaf whose fingerprints are equal: a 64-bit
/// collision of two distinct paths, or (since [`fingerprint`] samples each key's length and
/// at most its first and last eight bytes) two paths whose *ancestor* keys differ only in
/// their middles. Neither is produced by chance; the latter can be written on purpose, and
/// then refuses a field that the text sent once, beside a sibling that it sent twice.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Noted {
    print: u64,
    depth: usize,
    leaf: Owned,
}

/// An owned path segment.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Owned {
    Key(Box<str>),
    Index(usize),
}

impl Duplicates {
    /// No duplicates (what a `Value` arrives with).
    pub(crate) const NONE: Duplicates = Duplicates { paths: Vec::new() };

    /// Whether no key was sent twice.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Whether nothing of it is on the heap (no key sent twice, nothing ever recorded).
    #[inline]
    pub(crate) fn owns_nothing(&self) -> bool {
        self.paths.capacity() == 0
    }

    /// Whether the text sent the key at `at` twice (up to the collisions told at [`Noted`]).
    pub(crate) fn contains(&self, at: &Path<'_>) -> bool {
        let print = fingerprint(at.segments());
        let first = self.paths.partition_point(|noted| noted.print < print);
        let mut candidates = self.paths[first..]
            .iter()
            .take_while(|noted| noted.print == print)
            .peekable();
        if candidates.peek().is_none() {
            return false;
        }
        let depth = at.segments().count();
        let Some(leaf) = at.segments().next() else {
            return false;
        };
        candidates.any(|noted| noted.depth == depth && same(leaf, &noted.leaf))
    }
}

/// Whether `segment` is the owned segment `owned`.
fn same(segment: Segment<'_>, owned: &Owned) -> bool {
    match (segment, owned) {
        (Segment::Key(a) | Segment::Field(a, _), Owned::Key(b)) => a == &**b,
        (Segment::Index(a), Owned::Index(b)) => a == *b,
        _ => false,
    }
}

/// A cheap hash of a path, leaf first: per key its length and at most its first and last
/// eight bytes, so hashing a path costs the same however long its keys are (O(depth)).
fn fingerprint<'a>(segments: impl Iterator<Item = Segment<'a>>) -> u64 {
    let mut hash = 0u64;
    let mut mix = |word: u64| {
        hash = (hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    };
    for segment in segments {
        match segment {
            Segment::Key(key) | Segment::Field(key, _) => {
                let b = key.as_bytes();
                mix(b.len() as u64);
                let mut word = [0u8; 8];
                let head = b.len().min(8);
                word[..head].copy_from_slice(&b[..head]);
                mix(u64::from_le_bytes(word));
                let tail = b.len().saturating_sub(8);
                let mut word = [0u8; 8];
                word[..b.len() - tail].copy_from_slice(&b[tail..]);
                mix(u64::from_le_bytes(word));
            }
            Segment::Index(i) => {
                mix(u64::MAX);
                mix(i as u64);
            }
        }
    }
    hash
}

/// Reads JSON text into a `Value`, with the keys it sends twice.
pub(crate) fn from_str(text: &str) -> Result<(Value, Duplicates), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut found = Vec::new();
    let value = ValueSeed {
        at: &Path::ROOT,
        found: &mut found,
    }
    .deserialize(&mut de)?;
    de.end()?;
    Ok((value, collect(found)))
}

/// Reads a `Value` from any deserializer (`Args<T>`), with the keys it sends twice.
pub(crate) fn from_deserializer<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<(Value, Duplicates), D::Error> {
    let mut found = Vec::new();
    let value = ValueSeed {
        at: &Path::ROOT,
        found: &mut found,
    }
    .deserialize(deserializer)?;
    Ok((value, collect(found)))
}

fn collect(mut found: Vec<Noted>) -> Duplicates {
    if !found.is_empty() {
        // By fingerprint first; a key sent three times is noted twice.
        found.sort_unstable();
        found.dedup();
    }
    Duplicates { paths: found }
}

/// serde's message for a field sent twice, in serde's words.
#[cold]
pub(crate) fn duplicate_field(name: &'static str) -> String {
    <super::de::Error as serde::de::Error>::duplicate_field(name).to_string()
}

/// Reads one value at `at` as serde_json's `Value` does, noting duplicated keys in `found`.
struct ValueSeed<'a, 'p> {
    at: &'a Path<'p>,
    found: &'a mut Vec<Noted>,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_, '_> {
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
        loop {
            let at = self.at.index(items.len());
            let seed = ValueSeed {
                at: &at,
                found: &mut *self.found,
            };
            match seq.next_element_seed(seed)? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<String>()? {
            let value = {
                let at = self.at.key(&key);
                access.next_value_seed(ValueSeed {
                    at: &at,
                    found: &mut *self.found,
                })?
            };
            // The last of duplicate keys wins, as in serde_json's `Value`.
            match map.entry(key) {
                Entry::Vacant(entry) => {
                    entry.insert(value);
                }
                Entry::Occupied(mut entry) => {
                    note(self.found, &self.at.key(entry.key()));
                    entry.insert(value);
                }
            }
        }
        Ok(Value::Object(map))
    }
}

#[cold]
fn note(found: &mut Vec<Noted>, at: &Path<'_>) {
    let Some(leaf) = at.segments().next() else {
        return;
    };
    let leaf = match leaf {
        Segment::Key(key) | Segment::Field(key, _) => Owned::Key(key.into()),
        Segment::Index(i) => Owned::Index(i),
    };
    found.push(Noted {
        print: fingerprint(at.segments()),
        depth: at.segments().count(),
        leaf,
    });
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
    fn notes_each_duplicated_key_at_its_path() {
        let (_, found) = from_str(r#"{"a":1,"b":{"c":1}}"#).unwrap();
        assert!(found.is_empty());
        let text =
            r#"{"a":1,"a":2,"rows":[{"n":1},{"n":1,"n":2,"n":3}],"m":{"a.b":{"x":0,"x":1}}}"#;
        let (value, found) = from_str(text).unwrap();
        assert_eq!(value["a"], 2);
        assert_eq!(value["rows"][1]["n"], 3);
        assert_eq!(found.paths.len(), 3);
        let root = Path::ROOT;
        assert!(found.contains(&root.key("a")));
        let rows = root.key("rows");
        assert!(found.contains(&rows.index(1).key("n")));
        assert!(!found.contains(&rows.index(0).key("n")));
        let m = root.key("m");
        assert!(found.contains(&m.key("a.b").key("x")));
        // The same dotted text, other segments.
        assert!(!found.contains(&m.key("a").key("b").key("x")));
        assert!(!found.contains(&root.key("m")));
    }

    #[test]
    fn notes_duplicates_under_a_long_key_by_leaf_depth_and_fingerprint() {
        let long = "x".repeat(1 << 16);
        let mut text = format!(r#"{{"{long}":{{"a":0,"#);
        for i in 0..100 {
            text.push_str(&format!(r#""k{i}":0,"k{i}":1,"#));
        }
        text.push_str(r#""z":[{"k0":0}]}}"#);
        let (_, found) = from_str(&text).unwrap();
        assert_eq!(found.paths.len(), 100);
        // Only the leaf keys are kept.
        assert!(found
            .paths
            .iter()
            .all(|noted| matches!(&noted.leaf, Owned::Key(k) if k.len() <= 3)));
        let root = Path::ROOT;
        let parent = root.key(&long);
        assert!(found.contains(&parent.key("k0")));
        assert!(found.contains(&parent.key("k99")));
        assert!(!found.contains(&parent.key("a")));
        assert!(!found.contains(&root.key("k0")));
        assert!(!found.contains(&parent.key("z").index(0).key("k0")));
        let other = "y".repeat(1 << 16);
        assert!(!found.contains(&root.key(&other).key("k0")));
    }
}
