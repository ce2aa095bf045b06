//! Property 2: the text-list verdict equals the oracle on every surface.

use super::*;

macro_rules! names_type {
    ($($(#[$attr:meta])* $name:ident, $min:expr, $max:expr;)*) => {$(
        #[derive(Debug, PartialEq, Deserialize, ToolArgs)]
        pub struct $name {
            $(#[$attr])*
            pub names: OneOrMany<String>,
        }

        impl $name {
            pub const BOUNDS: Bounds = Bounds::new($min, $max);
        }
    )*};
}

names_type! {
    Names, None, None;
    #[stitch(max_items = 0)] Names0, None, Some(0);
    #[stitch(max_items = 1)] Names1, None, Some(1);
    #[stitch(max_items = 3)] Names3, None, Some(3);
    #[stitch(min_items = 1)] NamesMin1, Some(1), None;
    #[stitch(min_items = 2, max_items = 3)] Names2To3, Some(2), Some(3);
    #[stitch(max_items = 20)] Names20, None, Some(20);
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Picker {
    pub pick: Pick,
}

/// The oracle's first condition: the text opens with `[` after JSON whitespace.
pub fn starts_with_bracket(text: &str) -> bool {
    text.trim_start_matches([' ', '\t', '\n', '\r'])
        .starts_with('[')
}

/// The oracle of rule R3 for string items.
pub fn oracle(text: &str, bounds: Bounds) -> bool {
    starts_with_bracket(text)
        && serde_json::from_str::<Vec<String>>(text).is_ok_and(|v| bounds.contains(v.len()))
}

/// One surface's answer for `args`: refused at exactly `path` as a text list when `refused`,
/// otherwise accepted with the string kept (`kept`).
fn verdict<T: ToolArgs + Debug>(
    args: &Value,
    path: &str,
    refused: bool,
    kept: impl Fn(&T) -> bool,
) -> Outcome {
    let name = std::any::type_name::<T>();
    let text = args.to_string();
    for (surface, got) in [
        ("from_value", T::from_value(args.clone())),
        ("from_json", T::from_json(&text)),
    ] {
        let ok = match &got {
            Ok(v) => !refused && kept(v),
            Err(e) => {
                refused
                    && e.issues().len() == 1
                    && e.issues()[0].kind() == IssueKind::TextList
                    && e.issues()[0].path() == path
                    && e.to_string() == text_list_message(path)
            }
        };
        if !ok {
            return Err(format!(
                "{name}::{surface}: the oracle says refused = {refused}, got {got:?}\n args {args}"
            ));
        }
    }
    let mut value = args.clone();
    let got = T::coerce_value(&mut value);
    if got.is_err() != refused || value != *args {
        return Err(format!(
            "{name}::coerce_value: the oracle says refused = {refused}, got {got:?}, value {value}\n args {args}"
        ));
    }
    Ok(())
}

fn one(text: &str) -> OneOrMany<String> {
    OneOrMany::One(text.to_owned())
}

macro_rules! names_verdicts {
    ($text:expr; $($name:ident),*) => {{
        let text: &str = $text;
        $(
            verdict::<$name>(
                &Value::Object(Map::from_iter([("names".to_owned(), Value::from(text))])),
                "names",
                oracle(text, $name::BOUNDS),
                |v| v.names == one(text),
            )?;
        )*
    }};
}

/// Property 2: the fast check on `text` with `bounds` equals the oracle, directly and with
/// serde_json's own element check; and through every surface of the `OneOrMany<String>` types
/// above (bounds from their attributes), a nested row, and a string-bearing untagged enum.
pub fn check_text_list(text: &str, bounds: Bounds) -> Outcome {
    let want = oracle(text, bounds);
    let fast = is_text_list(text, is_json_string, bounds);
    let serde_elements = is_text_list(text, |e| serde_json::from_str::<String>(e).is_ok(), bounds);
    if fast != want || serde_elements != want {
        return Err(format!(
            "is_text_list({text:?}, {bounds:?}) = {fast} (serde elements: {serde_elements}), the oracle says {want}"
        ));
    }
    names_verdicts!(text; Names, Names0, Names1, Names3, NamesMin1, Names2To3, Names20);
    let rows = serde_json::json!({"rows": [{"names": "plain"}, {"names": text}]});
    verdict::<Rows3>(
        &rows,
        "rows.1.names",
        oracle(text, Bounds::new(None, Some(3))),
        |v| v.rows.len() == 2 && v.rows[1].names == Some(one(text)),
    )?;
    let refused = starts_with_bracket(text) && serde_json::from_str::<Vec<u32>>(text).is_ok();
    verdict::<Picker>(&serde_json::json!({ "pick": text }), "pick", refused, |v| {
        v.pick == Pick::Name(text.to_owned())
    })?;
    Ok(())
}

/// The bounds a fuzz input's first two bytes stand for: a byte with its high bit clear is no
/// bound, otherwise its low three bits are the bound (so printable seeds have no bounds).
pub fn bounds_of(min: u8, max: u8) -> Bounds {
    let bound = |b: u8| (b & 0x80 != 0).then_some(usize::from(b & 7));
    Bounds::new(bound(min), bound(max))
}

/// Fuzz entry of property 2: two bytes of bounds, then the string (read lossily).
pub fn text_list_input(data: &[u8]) -> Outcome {
    let (bounds, text) = match data {
        [min, max, text @ ..] => (bounds_of(*min, *max), text),
        _ => (Bounds::NONE, data),
    };
    check_text_list(&String::from_utf8_lossy(text), bounds)
}
