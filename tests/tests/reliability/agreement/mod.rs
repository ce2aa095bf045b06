//! Agreement with the derive (issue #13): the coercer built from `T::input_schema()` gives the
//! same answer as `T::coerce_value` on generated calls near every shape of the corpus: both
//! accept, with the same repaired value, or both refuse, with the same issues, leaving the
//! value as it was.
//!
//! Where the two must differ, the difference is named here and in `docs/rules.md` ("The
//! schema-driven coercer"), and only that is set aside:
//!
//! - a message that names a Rust type (`expected struct Meta`, `untagged enum NumOrStr`,
//!   `internally tagged enum Internal`) is compared without the name, which the schema does
//!   not carry ([`normalized`]);
//! - a list of expected field names is compared as a set: the schema's `properties` come in
//!   the order the `Value` holds them (sorted), serde lists them as declared; for the same
//!   reason issues are compared as a set (the order follows the properties' order);
//! - `null` at an `Option` field: both drop `null` at a field the schema lets out and whose
//!   schema does not take `null` (rule R8), but the schema of a defaulted field and of an
//!   `Option` field are the same (not `required`, not nullable), so the coercer drops the
//!   `null` at an `Option` field too, where the derive's walk keeps it for serde to read as
//!   `None`. Only that is accepted: the repaired values agree once such `null` members of the
//!   derive's value, absent from the coercer's, are taken out, and `T` reads both values
//!   the same ([`null_kept_at_option`]).
//!
//! - at an integer whose `minimum`/`maximum` are a constraint (`#[stitch(maximum = 3600)]
//!   timeout: u32`), not its type's range, the schema cannot say the Rust type: serde's
//!   `invalid value: integer `5000000000`, expected u32` is the coercer's `5000000000 is
//!   greater than the maximum of 3600`, and a value of another type is `expected an integer`
//!   ([`limited::beyond_the_type`]); any other message at such an integer must be the same.
//!
//! The same generated calls go through `stitch-proxy`'s routing (the "forwarded untouched"
//! oracle, issue #19): a call the rules neither refuse nor repair reaches the server as the
//! client's exact bytes, written compactly or with spaces; a repaired one reaches it holding
//! the coercer's repaired value; a refused one never reaches it ([`forwarded`]).

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::Value;
use stitch_runtime::json_schema::Coercer;
use stitch_runtime::{ArgsError, Issue, IssueKind, ToolArgs};
use stitch_tests::tools::{Act, Edit, Search, ViewFile};

use crate::one_answer::{
    near, Flat, Query, Reads, Span, Tagged, Unions, FLAT, QUERY, RAW_SPAN, READS, TAGGED, UNIONS,
};
use crate::properties::CASES;

mod limited;
mod shapes;

use self::limited::{Limited, LIMITED};
use self::shapes::{Misc, Tree, ACT, EDIT, MISC, SEARCH, TREE, VIEW_FILE};

// --- The comparison ----------------------------------------------------------------------------

/// A message with what the schema cannot say set aside: the Rust type's name, the order of a
/// list of expected field names.
fn normalized(message: &str) -> String {
    let mut m = message.to_owned();
    // The name of a struct or an enum: serde's, which the schema does not carry.
    for (pattern, with) in [
        ("expected struct ", "expected an object"),
        ("expected internally tagged enum ", "expected an object"),
        ("expected adjacently tagged enum ", "expected an object"),
        ("expected enum ", "expected an object"),
    ] {
        if let Some(at) = m.find(pattern) {
            m.truncate(at);
            m.push_str(with);
        }
    }
    if let Some(at) = m.find("data did not match any variant") {
        m.truncate(at);
        m.push_str("data did not match any variant");
    }
    // `expected one of `a`, `b`` and `expected `a` or `b``: as a set of names.
    if let Some(at) = m.find(", expected ") {
        let (head, list) = m.split_at(at);
        if head.contains("unknown field") {
            let mut names: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
            names.sort_unstable();
            m = format!("{head}, expected {names:?}");
        }
    }
    m
}

fn issues(e: &ArgsError) -> Vec<(String, String, String)> {
    let mut all: Vec<_> = e
        .issues()
        .iter()
        .map(|i: &Issue| {
            (
                i.path().to_owned(),
                i.kind().as_str().to_owned(),
                normalized(i.message()),
            )
        })
        .collect();
    all.sort();
    all
}

/// The subschema of the property a dotted path names, as far as the path leads through
/// `properties`, `items`, `additionalProperties` and the members of unions.
fn schema_at<'s>(schema: &'s Value, path: &str) -> Option<&'s Value> {
    let mut here = schema;
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        here = step(here, seg)?;
    }
    Some(here)
}

fn step<'s>(schema: &'s Value, seg: &str) -> Option<&'s Value> {
    if let Some(found) = schema.pointer(&format!("/properties/{seg}")) {
        return Some(found);
    }
    if seg.parse::<usize>().is_ok() {
        if let Some(items) = schema.get("items").filter(|i| i.is_object()) {
            return Some(items);
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(members) = schema.get(key).and_then(Value::as_array) {
            if let Some(found) = members.iter().find_map(|m| step(m, seg)) {
                return Some(found);
            }
        }
    }
    schema.get("additionalProperties").filter(|a| a.is_object())
}

/// A required property whose absence the derive's walk leaves to serde, which refuses it
/// after the walk, where the coercer reports it with the other issues: a field read by
/// `deserialize_with` or `with` (its schema is `{}`, a description at most), and the content
/// of an adjacently tagged enum (an object of exactly the constant tag and the content).
fn missing_left_to_serde(schema: &Value, issue: &Issue) -> bool {
    let path = issue.path();
    if !issue
        .message()
        .ends_with(&format!("missing field `{}`", last(path)))
    {
        return false;
    }
    let opaque = schema_at(schema, path)
        .and_then(Value::as_object)
        .is_some_and(|m| m.keys().all(|k| k == "description"));
    let parent = path.rsplit_once('.').map_or("", |(p, _)| p);
    let adjacent = schema_at(schema, parent)
        .and_then(|s| s.get("oneOf"))
        .and_then(Value::as_array)
        .is_some_and(|members| {
            members.iter().all(|m| {
                let properties = m.get("properties").and_then(Value::as_object);
                properties
                    .is_some_and(|p| p.len() <= 2 && p.values().any(|v| v.get("const").is_some()))
            })
        });
    opaque || adjacent
}

/// A type error at the content of an externally or adjacently tagged variant whose content
/// is an object: the derive's walk leaves a struct variant's content of another kind to serde
/// (which refuses it after the walk), and reports it for a newtype variant of a struct; the
/// schema cannot tell the two apart, and the coercer reports both.
fn content_left_to_serde(schema: &Value, issue: &Issue) -> bool {
    let path = issue.path();
    let parent = path.rsplit_once('.').map_or("", |(p, _)| p);
    let reason = issue.message().strip_prefix(path).unwrap_or("");
    let object = schema_at(schema, path).is_some_and(|s| s.get("properties").is_some());
    let tagged = schema_at(schema, parent)
        .and_then(|s| s.get("oneOf"))
        .and_then(Value::as_array)
        .is_some_and(|members| {
            members.iter().any(|m| {
                let properties = m.get("properties").and_then(Value::as_object);
                properties.is_some_and(|p| p.contains_key(last(path)) && p.len() <= 2)
            })
        });
    reason.starts_with(": invalid type:") && object && tagged
}

fn last(path: &str) -> &str {
    path.rsplit('.').next().unwrap_or(path)
}

/// The one way the repaired values may differ: `null` members of objects in `derived` (the
/// derive's) that `coerced` (the coercer's) lacks at the same place, kept by the derive's walk
/// at an `Option` field and dropped by the coercer (see the module docs). With them taken out
/// the values must be equal, and `T` must read both values the same (as the same arguments,
/// `None` either way, or with the same refusal of something else), which no field but an
/// `Option` does for a `null` the derive kept.
fn null_kept_at_option<T: ToolArgs + PartialEq>(derived: &Value, coerced: &Value) -> bool {
    let mut kept = derived.clone();
    if !take_out_nulls(&mut kept, coerced) || kept != *coerced {
        return false;
    }
    match (
        T::from_value(derived.clone()),
        T::from_value(coerced.clone()),
    ) {
        (Ok(a), Ok(b)) => a == b,
        // `coerce_value` leaves a string-like value to serde: both may hold one it refuses.
        (Err(a), Err(b)) => a.to_string() == b.to_string(),
        _ => false,
    }
}

/// Takes out of `derived`'s objects each `null` member whose key the object at the same place
/// in `coerced` lacks; whether it took any out.
fn take_out_nulls(derived: &mut Value, coerced: &Value) -> bool {
    match (derived, coerced) {
        (Value::Object(d), Value::Object(c)) => {
            let before = d.len();
            d.retain(|key, value| !value.is_null() || c.contains_key(key));
            let mut took = d.len() < before;
            for (key, value) in d.iter_mut() {
                if let Some(other) = c.get(key) {
                    took |= take_out_nulls(value, other);
                }
            }
            took
        }
        (Value::Array(d), Value::Array(c)) => {
            let mut took = false;
            for (value, other) in d.iter_mut().zip(c) {
                took |= take_out_nulls(value, other);
            }
            took
        }
        _ => false,
    }
}

fn left_to_serde(schema: &Value, issue: &Issue) -> bool {
    missing_left_to_serde(schema, issue) || content_left_to_serde(schema, issue)
}

/// The coercer and `T::coerce_value` agree on `args`.
fn agree<T: ToolArgs + PartialEq>(coercer: &Coercer, args: &Value) -> Result<(), String> {
    let mut derived = args.clone();
    let by_type = T::coerce_value(&mut derived);
    let mut coerced = args.clone();
    let by_schema = coercer.coerce(&mut coerced);
    if by_schema.is_err() && coerced != *args {
        return Err(format!("a refused coerce changed the value\n args {args}"));
    }
    // The issues each side reports, less the differences by design (see the module docs).
    let schema = T::input_schema();
    let kept = |result: &Result<(), ArgsError>| -> Vec<(String, String, String)> {
        let Err(e) = result else {
            return Vec::new();
        };
        let kept: Vec<Issue> = e
            .issues()
            .iter()
            .filter(|i| !left_to_serde(schema, i))
            .cloned()
            .collect();
        issues(&ArgsError::new(kept))
    };
    let omitted = |result: &Result<(), ArgsError>| result.as_ref().is_err_and(|e| e.omitted() > 0);
    // The derive's words where the schema cannot say the Rust type of a constrained integer,
    // as the coercer must say them.
    let mut a: Vec<_> = kept(&by_type)
        .into_iter()
        .map(|(path, kind, message)| {
            let message = limited::beyond_the_type(schema, &path, &message).unwrap_or(message);
            (path, kind, message)
        })
        .collect();
    a.sort();
    let b = kept(&by_schema);
    match (&by_type, &by_schema) {
        (Ok(()), Ok(())) if derived == coerced => Ok(()),
        (Ok(()), Ok(())) if null_kept_at_option::<T>(&derived, &coerced) => Ok(()),
        (Ok(()), Ok(())) => Err(format!(
            "repaired differently: by type {derived}, by schema {coerced}\n args {args}"
        )),
        // Past `MAX_ISSUES`, which issues are kept depends on their order.
        (Err(_), Err(_)) if omitted(&by_type) || omitted(&by_schema) => Ok(()),
        _ if a == b => Ok(()),
        _ => Err(format!(
            "different answers:\n by type   {by_type:?} {a:?}\n by schema {by_schema:?} {b:?}\n args {args}"
        )),
    }
}

/// How the coercer ended a call, for the guard that the generator reaches every outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Ending {
    Accepted,
    Repaired,
    TextList,
    Invalid,
}

fn ending(coercer: &Coercer, args: &Value) -> Ending {
    let mut value = args.clone();
    match coercer.coerce(&mut value) {
        Ok(()) if value == *args => Ending::Accepted,
        Ok(()) => Ending::Repaired,
        Err(e) if e.issues().iter().any(|i| i.kind() == IssueKind::TextList) => Ending::TextList,
        Err(_) => Ending::Invalid,
    }
}

/// `value`'s JSON with a space after each `:` and `,` outside strings: another way a client
/// writes the same call.
fn spaced(value: &Value) -> String {
    let compact = value.to_string();
    let mut out = String::with_capacity(compact.len() * 2);
    let (mut in_string, mut escaped) = (false, false);
    for c in compact.chars() {
        out.push(c);
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
        } else if c == ':' || c == ',' {
            out.push(' ');
        }
    }
    out
}

/// What reaches the server for a call of `args` to a tool of `schema`, through the proxy's
/// routing in its default mode, checked against the coercer's `coerce_rules_only`: untouched
/// (byte for byte), repaired (the repaired value), or refused (nothing).
fn forwarded(schema: &Value, args: &Value) -> Result<(), String> {
    use stitch_proxy::routing::{Core, Options};

    let coercer = Coercer::new(schema).map_err(|e| e.to_string())?;
    let mut expected = args.clone();
    let verdict = coercer.coerce_rules_only(&mut expected);
    for text in [args.to_string(), spaced(args)] {
        let mut proxy = Core::new(Options::default());
        proxy.client_sent(br#"{"jsonrpc":"2.0","id":"l","method":"tools/list"}"#.to_vec());
        let tools = serde_json::json!({"jsonrpc": "2.0", "id": "l",
            "result": {"tools": [{"name": "t", "inputSchema": schema}]}});
        proxy.server_sent(tools.to_string().into_bytes());
        proxy.take_lines();
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{text}}}}}"#
        );
        proxy.client_sent(line.clone().into_bytes());
        let reached: Vec<String> = proxy
            .take_lines()
            .0
            .into_iter()
            .map(|bytes| String::from_utf8(bytes).unwrap())
            .collect();
        match (&verdict, reached.as_slice()) {
            (Ok(()), [got]) if expected == *args => {
                if *got != format!("{line}\n") {
                    return Err(format!(
                        "not forwarded untouched:\n sent {line}\n got  {got}"
                    ));
                }
            }
            (Ok(()), [got]) => {
                let got: Value = serde_json::from_str(got).map_err(|e| e.to_string())?;
                if got["params"]["arguments"] != expected {
                    return Err(format!(
                        "repaired differently: {} for {expected}\n sent {line}",
                        got["params"]["arguments"]
                    ));
                }
            }
            (Err(_), []) => {}
            _ => {
                return Err(format!(
                    "{verdict:?}, and the server got {reached:?}\n sent {line}"
                ))
            }
        }
    }
    Ok(())
}

macro_rules! shapes {
    ($($test:ident, $forwarded:ident: $ty:ty = $g:expr;)*) => {
        /// The calls generated for each shape reach every ending of the coercer (so the
        /// agreement is not passing on easy cases only).
        #[test]
        fn the_generator_reaches_every_ending_of_the_coercer() {
            use proptest::strategy::ValueTree;
            use proptest::test_runner::TestRunner;

            $({
                let coercer = Coercer::new(<$ty as ToolArgs>::input_schema()).unwrap();
                let mut runner = TestRunner::deterministic();
                let strategy = near($g);
                let mut seen = BTreeMap::<Ending, u32>::new();
                for _ in 0..CASES {
                    let args = strategy.new_tree(&mut runner).unwrap().current();
                    *seen.entry(ending(&coercer, &args)).or_default() += 1;
                }
                for e in [Ending::Accepted, Ending::Repaired, Ending::TextList, Ending::Invalid] {
                    assert!(
                        seen.get(&e).copied().unwrap_or(0) > 0,
                        "{}: no {e:?} in {seen:?}",
                        stringify!($ty)
                    );
                }
            })*
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(stitch_tests::cases(CASES)))]
            $(
                /// The coercer built from the type's schema agrees with its derive.
                #[test]
                fn $test(args in near($g)) {
                    let coercer = Coercer::new(<$ty as ToolArgs>::input_schema()).unwrap();
                    if let Err(e) = agree::<$ty>(&coercer, &args) {
                        prop_assert!(false, "{}", e);
                    }
                }

                /// Through the proxy: untouched unless the rules act.
                #[test]
                fn $forwarded(args in near($g)) {
                    if let Err(e) = forwarded(<$ty as ToolArgs>::input_schema(), &args) {
                        prop_assert!(false, "{}", e);
                    }
                }
            )*
        }
    };
}

shapes! {
    untagged_unions_agree, untagged_unions_forwarded: Unions = &UNIONS;
    opaque_and_from_fields_agree, opaque_and_from_fields_forwarded: Reads = &READS;
    from_container_agrees, from_container_forwarded: Span = &RAW_SPAN;
    flattened_struct_and_map_agree, flattened_struct_and_map_forwarded: Flat = &FLAT;
    tagged_enums_agree, tagged_enums_forwarded: Tagged = &TAGGED;
    one_or_many_denying_unknown_fields_agree, one_or_many_denying_unknown_fields_forwarded: Query = &QUERY;
    view_file_agrees, view_file_forwarded: ViewFile = &VIEW_FILE;
    search_agrees, search_forwarded: Search = &SEARCH;
    edit_agrees, edit_forwarded: Edit = &EDIT;
    act_agrees, act_forwarded: Act = &ACT;
    recursive_type_agrees, recursive_type_forwarded: Tree = &TREE;
    unit_enums_maps_tuples_and_bounds_agree, unit_enums_maps_tuples_and_bounds_forwarded: Misc = &MISC;
    constraints_agree, constraints_forwarded: Limited = &LIMITED;
}
