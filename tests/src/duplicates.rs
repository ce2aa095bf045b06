//! Text that sends a key twice in one object: only text can, and there serde's answer for the
//! text is the oracle of the text surfaces (`docs/rules.md#duplicates`).

use std::collections::BTreeSet;
use std::fmt::Debug;

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::Value;
use stitch_runtime::{ArgsError, ToolArgs};

/// Whether JSON `text` sends some key twice in one object (`false` for text that is not
/// JSON).
pub fn sends_a_key_twice(text: &str) -> bool {
    serde_json::from_str::<Twice>(text).is_ok_and(|t| t.0)
}

struct Twice(bool);

impl<'de> Deserialize<'de> for Twice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Twice, D::Error> {
        d.deserialize_any(TwiceVisitor)
    }
}

struct TwiceVisitor;

impl<'de> Visitor<'de> for TwiceVisitor {
    type Value = Twice;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON")
    }

    fn visit_bool<E>(self, _: bool) -> Result<Twice, E> {
        Ok(Twice(false))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Twice, E> {
        Ok(Twice(false))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Twice, E> {
        Ok(Twice(false))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Twice, E> {
        Ok(Twice(false))
    }
    fn visit_str<E>(self, _: &str) -> Result<Twice, E> {
        Ok(Twice(false))
    }
    fn visit_unit<E>(self) -> Result<Twice, E> {
        Ok(Twice(false))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Twice, A::Error> {
        let mut any = false;
        while let Some(t) = seq.next_element::<Twice>()? {
            any |= t.0;
        }
        Ok(Twice(any))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Twice, A::Error> {
        let mut keys = BTreeSet::new();
        let mut any = false;
        while let Some(key) = map.next_key::<String>()? {
            any |= !keys.insert(key);
            any |= map.next_value::<Twice>()?.0;
        }
        let _ = IgnoredAny;
        Ok(Twice(any))
    }
}

/// The answer of `from_json` (`got`) to `text`, which sends a key twice and which stitch
/// parses to `parsed`, against serde's answer for the text: when the walk repairs nothing,
/// the same value, or a refusal where serde refuses (or where stitch refuses the `Value` too,
/// by a rule of its own); `None` when the walk repairs something (the caller compares with
/// `from_value` then).
pub fn against_serde<T: ToolArgs + Debug>(
    text: &str,
    parsed: &Value,
    got: &Result<T, ArgsError>,
) -> Option<Result<(), String>> {
    let mut coerced = parsed.clone();
    if T::coerce_value(&mut coerced).is_ok() && coerced != *parsed {
        return None;
    }
    let serde = serde_json::from_str::<T>(text);
    Some(match (got, &serde) {
        (Ok(a), Ok(b)) if format!("{a:?}") == format!("{b:?}") => Ok(()),
        (Err(_), Err(_)) => Ok(()),
        (Err(_), Ok(_)) if T::from_value(parsed.clone()).is_err() => Ok(()),
        _ => Err(format!(
            "from_json gave {got:?}, serde reads the text as {serde:?}\n text {text:?}"
        )),
    })
}
