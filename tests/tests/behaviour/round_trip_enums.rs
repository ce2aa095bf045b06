//! The round trip (`round_trip.rs`) over tagged enums, nested under fields and at the root,
//! in every provider format that compiles for them, each instance validated against the
//! whole schema before stitch reads it (issue 18 item 7 and its proof).
//!
//! Which format compiles for a type is decided when the type is used as that tool (a
//! post-monomorphization error), so each type lists its formats; `every_format_that_compiles`
//! checks the lists against the runtime's own answer.

use serde::Deserialize;
use stitch_runtime::__private::{anthropic_strict_error, gemini_error, strict_error};
use stitch_runtime::{tool, ToolArgs};

use super::round_trip::{
    open_formats, parameters, round_trip, strict_formats, Adjacent, Either, External, FileAct,
};

/// Tagged enums of every tagging under fields: OpenAI's strict mode takes it.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct Nested {
    act: FileAct,
    adjacent: Option<Adjacent>,
    #[serde(default)]
    external: Vec<External>,
    either: Option<Either>,
}

/// An internally tagged enum with a unit variant and optional fields, under a field.
#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Query {
    Sql { sql: String },
    Search { text: String, limit: Option<u32> },
    Stop,
}

#[derive(Debug, PartialEq, Deserialize, ToolArgs)]
pub struct HoldsQuery {
    query: Query,
    note: Option<String>,
}

#[test]
fn the_lists_are_the_formats_that_compile() {
    for (name, strict, anthropic, gemini) in [
        (
            "Nested",
            strict_error::<Nested>(),
            anthropic_strict_error::<Nested>(),
            gemini_error::<Nested>(),
        ),
        (
            "HoldsQuery",
            strict_error::<HoldsQuery>(),
            anthropic_strict_error::<HoldsQuery>(),
            gemini_error::<HoldsQuery>(),
        ),
    ] {
        assert_eq!((strict, anthropic, gemini), (None, None, None), "{name}");
    }
    for (name, strict, anthropic) in [
        (
            "FileAct",
            strict_error::<FileAct>(),
            anthropic_strict_error::<FileAct>(),
        ),
        (
            "Adjacent",
            strict_error::<Adjacent>(),
            anthropic_strict_error::<Adjacent>(),
        ),
        (
            "External",
            strict_error::<External>(),
            anthropic_strict_error::<External>(),
        ),
        (
            "Query",
            strict_error::<Query>(),
            anthropic_strict_error::<Query>(),
        ),
    ] {
        // An enum at the root: OpenAI's strict mode cannot take it (a compile error stays).
        assert!(strict.is_some(), "{name}");
        assert_eq!(anthropic, None, "{name}");
    }
}

#[test]
fn tagged_enums_under_fields_round_trip_in_every_format() {
    round_trip::<HoldsQuery>(strict_formats::<HoldsQuery>(), 80);
    round_trip::<Nested>(strict_formats::<Nested>(), 200);
}

#[test]
fn tagged_enums_at_the_root_round_trip_in_every_format() {
    round_trip::<Query>(open_formats::<Query>(), 60);
    round_trip::<FileAct>(open_formats::<FileAct>(), 80);
    round_trip::<Adjacent>(open_formats::<Adjacent>(), 60);
    round_trip::<External>(open_formats::<External>(), 40);
    round_trip::<Either>(open_formats::<Either>(), 40);
}

#[test]
fn a_strict_union_is_not_closed_again_beside_its_members() {
    let schema = parameters(&tool::openai_strict::<HoldsQuery>("t", None));
    let query = &schema["properties"]["query"];
    assert!(
        query.get("type").is_none() && query.get("properties").is_none(),
        "{query}"
    );
    let call =
        serde_json::json!({"query": {"kind": "search", "text": "x", "limit": null}, "note": null});
    assert!(jsonschema::is_valid(&schema, &call), "{schema}");
    HoldsQuery::from_value(call).unwrap();
    // A call mixing two variants is refused by the schema as by stitch.
    let mixed =
        serde_json::json!({"query": {"kind": "sql", "sql": "s", "text": "x"}, "note": null});
    assert!(!jsonschema::is_valid(&schema, &mixed));

    let root = parameters(&tool::anthropic_strict::<Query>("t", None));
    assert_eq!(root["additionalProperties"], false, "{root}");
    assert_eq!(root["type"], "object");
    let call = serde_json::json!({"kind": "sql", "sql": "select 1"});
    assert!(jsonschema::is_valid(&root, &call), "{root}");
    Query::from_value(call).unwrap();
    let unknown = serde_json::json!({"kind": "sql", "sql": "s", "other": 1});
    assert!(!jsonschema::is_valid(&root, &unknown));
    // At the root the union is one object (`docs/rules.md#flattened-unions`): a tag with
    // another variant's field is taken there, and stitch judges it when the call arrives.
    let mixed = serde_json::json!({"kind": "stop", "sql": "s"});
    assert!(jsonschema::is_valid(&root, &mixed));
    assert!(root.get("anyOf").is_none(), "{root}");
}
