//! What each rewrite does, format by format.

use super::*;

// --- What each rewrite does -------------------------------------------------------------

#[test]
fn gemini_writes_tags_as_one_value_enums_and_unions_as_any_of() {
    let parameters = &tool::gemini::<Act>("act", None)["parameters"];
    let members = parameters["properties"]["action"]["anyOf"]
        .as_array()
        .unwrap();
    let tags: Vec<&Value> = members.iter().map(|m| &m["properties"]["action"]).collect();
    assert_eq!(
        tags,
        [
            &json!({"type": "string", "enum": ["copy"]}),
            &json!({"type": "string", "enum": ["delete"]}),
            &json!({"type": "string", "enum": ["edit"]}),
            &json!({"type": "string", "enum": ["noop"]}),
        ]
    );
    // Bounds stay.
    assert_eq!(
        members[1]["properties"]["paths"]["anyOf"][1]["maxItems"],
        50
    );
    let kinds = &tool::gemini::<Kinds>("kinds", None)["parameters"]["properties"];
    // A map of structs: only an empty one.
    assert_eq!(kinds["by_name"]["type"], "object");
    assert_eq!(kinds["by_name"]["maxProperties"], 0);
    assert!(kinds["by_name"]["description"]
        .as_str()
        .unwrap()
        .ends_with("send an empty object."));
    assert_eq!(kinds["labels"]["maxProperties"], 0);
    // A map of any value stays open.
    assert_eq!(
        kinds["extra"],
        json!({"type": "object", "description": "Any object.", "default": {}})
    );
    // A tuple of one type: its length.
    assert_eq!(
        kinds["pair"],
        json!({"type": "array", "description": "A tuple of one type.", "items": {"type": "integer", "minimum": 0, "maximum": 255}, "minItems": 2, "maxItems": 2})
    );
    assert_eq!(kinds["letter"]["maxLength"], 1);
    assert_eq!(
        kinds["any"]["anyOf"][0],
        json!({"type": "string", "nullable": true})
    );
    // An optional tuple of different types is left out; a required one cannot be written.
    let optional = &tool::gemini::<OptionalTuple>("t", None)["parameters"];
    assert_eq!(optional["properties"].as_object().unwrap().len(), 1);
    assert_eq!(optional["required"], json!(["name"]));
}

/// The compile error `tool::gemini::<T>` / `tool::anthropic_strict::<T>` stops the build
/// with, read at run time (`cargo check` does not evaluate it; the `compile_fail` doc example on
/// `tool::gemini` shows the build failing).
pub(super) fn subset_error(
    function: &str,
    what: &str,
    field: &str,
    format: &str,
    instead: &str,
) -> String {
    format!("stitch: `tool::{function}` cannot write {what} at required field `{field}`, which {format} cannot describe; make the field optional (`Option` or `#[serde(default)]`), or give this tool {instead}")
}

const TUPLE: &str = "a tuple of different types (no `prefixItems`)";
const SELF_REFERENCE: &str = "a reference to the type's own type (it has no references, and an unrolled copy cannot end there)";

#[test]
fn a_required_tuple_of_different_types_is_a_compile_error_on_gemini_and_anthropic_strict() {
    use stitch_runtime::__private::{anthropic_strict_error, gemini_error};
    assert_eq!(
        gemini_error::<RequiredTuple>().unwrap(),
        subset_error(
            "gemini",
            TUPLE,
            "pair",
            "Gemini's `parameters`",
            "`tool::gemini_json_schema`"
        )
    );
    assert_eq!(
        anthropic_strict_error::<RequiredTuple>().unwrap(),
        subset_error(
            "anthropic_strict",
            TUPLE,
            "pair",
            "Anthropic's strict mode",
            "the non-strict definition (`tool::anthropic`)"
        )
    );
    // Optional, it is left out instead (see above); JSON Schema formats still take it.
    assert_eq!(gemini_error::<OptionalTuple>(), None);
    assert_eq!(anthropic_strict_error::<OptionalTuple>(), None);
    let json_schema = &tool::gemini_json_schema::<RequiredTuple>("t", None)["parametersJsonSchema"];
    assert_eq!(
        json_schema["properties"]["pair"]["prefixItems"][1]["type"],
        "string"
    );
}

#[test]
fn a_required_self_reference_is_a_compile_error_on_anthropic_strict() {
    use stitch_runtime::__private::{anthropic_strict_error, gemini_error};
    assert_eq!(
        anthropic_strict_error::<Outline>().unwrap(),
        subset_error(
            "anthropic_strict",
            SELF_REFERENCE,
            "sections",
            "Anthropic's strict mode",
            "the non-strict definition (`tool::anthropic`)"
        )
    );
    // Gemini ends the list empty (below); a required `Box` of itself has no such end.
    assert_eq!(gemini_error::<Outline>(), None);
    assert_eq!(
        gemini_error::<Chain>().unwrap(),
        subset_error(
            "gemini",
            SELF_REFERENCE,
            "next",
            "Gemini's `parameters`",
            "`tool::gemini_json_schema`"
        )
    );
    // An optional or defaulted self-reference is cut where it goes too deep.
    assert_eq!(gemini_error::<Tree>(), None);
    assert_eq!(anthropic_strict_error::<Tree>(), None);
    assert_eq!(anthropic_strict_error::<Eval>(), None);
}

/// A required list of itself that may not be empty: Gemini cannot end it either.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct NonEmptyOutline {
    /// The heading.
    title: String,
    /// At least one section.
    #[stitch(min_items = 1)]
    sections: Vec<NonEmptyOutline>,
}

/// One or many of itself, required: Gemini ends it in an empty list, Anthropic cannot.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Branches {
    /// A name.
    name: String,
    /// One branch or a list of them.
    below: OneOrMany<Box<Branches>>,
}

/// A required tuple of different types inside a flattened struct, and one in an untagged
/// union beside a member that can be written.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Flat {
    /// A name.
    name: String,
    #[serde(flatten)]
    inner: RequiredTuple,
}

/// A tuple of different types or a string.
#[derive(Debug, Deserialize, ToolArgs)]
#[serde(untagged)]
pub enum PairOrName {
    /// A number and a label.
    Pair(u8, String),
    /// A name.
    Name(String),
}

/// Holds [`PairOrName`].
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Either2 {
    /// The pair or the name.
    pick: PairOrName,
}

#[test]
fn the_compile_time_check_follows_what_the_rewrite_can_leave_out() {
    use stitch_runtime::__private::{anthropic_strict_error, gemini_error};
    let gemini = |field: &str, what: &str| {
        subset_error(
            "gemini",
            what,
            field,
            "Gemini's `parameters`",
            "`tool::gemini_json_schema`",
        )
    };
    let anthropic = |field: &str, what: &str| {
        subset_error(
            "anthropic_strict",
            what,
            field,
            "Anthropic's strict mode",
            "the non-strict definition (`tool::anthropic`)",
        )
    };
    assert_eq!(
        gemini_error::<NonEmptyOutline>(),
        Some(gemini("sections", SELF_REFERENCE))
    );
    assert_eq!(gemini_error::<Branches>(), None);
    assert_eq!(
        anthropic_strict_error::<Branches>(),
        Some(anthropic("below", SELF_REFERENCE))
    );
    assert_eq!(gemini_error::<Flat>(), Some(gemini("pair", TUPLE)));
    assert_eq!(
        anthropic_strict_error::<Flat>(),
        Some(anthropic("pair", TUPLE))
    );
    // The union's string member is written; the tuple member is left out.
    assert_eq!(gemini_error::<Either2>(), None);
    assert_eq!(anthropic_strict_error::<Either2>(), None);
    // What the check lets through, the rewrite writes (no fallback), and what it writes is
    // read back.
    meets_subsets::<Either2>();
    let pick = &tool::gemini::<Either2>("t", None)["parameters"]["properties"]["pick"];
    assert_eq!(pick["anyOf"], json!([{"type": "string"}]), "{pick}");
    check_gemini(&tool::gemini::<Branches>("t", None)["parameters"]);
    round_trip::<Branches>(&tool::gemini::<Branches>("t", None)["parameters"], 29, 100);
}

/// A required self-reference that is not a list: no finite schema.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct Chain {
    /// A value.
    v: u8,
    /// The rest.
    next: Box<Chain>,
}

/// Schema text the compile-time check takes at its word: a required part the rewrite cannot
/// write there leaves an empty object that says why, not a panic.
#[derive(Debug, Deserialize, ToolArgs)]
pub struct RawPair {
    /// A name.
    name: String,
    /// A number and a label, as schema text.
    #[stitch(
        opaque,
        schema = r#"{"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false}"#
    )]
    pair: Stamp2,
}

/// A foreign pair, read by serde alone.
#[derive(Debug, Deserialize)]
pub struct Stamp2(u8, String);

#[test]
fn schema_text_a_format_cannot_write_is_offered_empty_without_a_panic() {
    use stitch_runtime::__private::{anthropic_strict_error, gemini_error};
    assert_eq!(gemini_error::<RawPair>(), None);
    assert_eq!(anthropic_strict_error::<RawPair>(), None);
    let gemini = &tool::gemini::<RawPair>("t", None)["parameters"];
    let claude = &tool::anthropic_strict::<RawPair>("t", None)["input_schema"];
    check_gemini(gemini);
    check_anthropic_strict(claude);
    for (schema, format) in [
        (gemini, "Gemini's `parameters`"),
        (claude, "Anthropic's strict mode"),
    ] {
        assert_eq!(schema["properties"], json!({}), "{schema}");
        assert_eq!(
            schema["description"],
            format!("Cannot be described here: `pair` is a tuple of different types, which {format} cannot describe."),
        );
    }
    // Nothing but `{}` is offered, which the tool refuses by name.
    assert_eq!(gemini["maxProperties"], 0);
    assert_eq!(claude["additionalProperties"], false);
    assert!(RawPair::from_value(json!({})).is_err());
}

#[test]
fn a_required_self_reference_ends_in_an_empty_list_on_gemini() {
    // A required `Vec<Outline>`: at the cut the list can only be empty, which Gemini says
    // with `maxItems: 0`.
    let mut level = &tool::gemini::<Outline>("t", None)["parameters"];
    for _ in 0..tool::UNROLL_DEPTH {
        assert_eq!(level["required"], json!(["title", "sections"]));
        level = &level["properties"]["sections"]["items"];
    }
    assert_eq!(level["properties"]["sections"]["maxItems"], 0);
}

#[test]
fn anthropic_strict_states_the_bounds_it_cannot_keep() {
    let schema = &tool::anthropic_strict::<ViewFile>("view_file", None)["input_schema"];
    let paths = &schema["properties"]["paths"]["anyOf"][1];
    assert_eq!(paths["minItems"], 1);
    assert!(paths.get("maxItems").is_none());
    assert_eq!(paths["description"], "At most 20 items.");
    assert_eq!(
        schema["properties"]["max_pixels"]["description"],
        "Largest side of an image, in pixels. From 0 to 4294967295."
    );
    let kinds = &tool::anthropic_strict::<Kinds>("kinds", None)["input_schema"]["properties"];
    assert_eq!(
        kinds["letter"]["description"],
        "One character. Exactly 1 character."
    );
    assert_eq!(
        kinds["fixed"],
        json!({"type": "array", "description": "An array. Exactly 2 items.", "items": {"type": "boolean"}, "minItems": 1})
    );
    assert_eq!(
        kinds["by_name"],
        json!({"type": "object", "description": "A map of structs. Strict mode cannot describe a map: send an empty object.", "additionalProperties": false, "default": {}})
    );
    // Optional properties stay optional: no `null` is offered.
    assert_eq!(schema["required"], json!(["paths"]));
    assert!(!schema.to_string().contains("null"));
}

#[test]
fn gemini_json_schema_keeps_maps_tuples_and_references() {
    let schema = &tool::gemini_json_schema::<Kinds>("kinds", None)["parametersJsonSchema"];
    let p = &schema["properties"];
    assert_eq!(
        p["by_name"]["additionalProperties"]["properties"]["x"]["minimum"],
        -128
    );
    assert_eq!(p["pair"]["prefixItems"].as_array().unwrap().len(), 2);
    assert_eq!(p["pair"]["maxItems"], 2);
    assert!(p["pair"].get("items").is_none());
    assert_eq!(
        p["op"]["anyOf"][0]["properties"]["op"],
        json!({"type": "string", "enum": ["stop"]})
    );
    assert_eq!(
        p["letter"]["description"],
        "One character. Exactly 1 character."
    );
    // A recursive type nested in another: its anchor is a `$defs` entry.
    let eval = &tool::gemini_json_schema::<Eval>("eval", None)["parametersJsonSchema"];
    assert_eq!(eval["$defs"].as_object().unwrap().len(), 2);
    assert_eq!(
        eval["properties"]["tree"]["properties"]["children"]["items"],
        json!({"$ref": "#/$defs/Tree"})
    );
    let v = jsonschema::validator_for(eval).unwrap();
    let deep = json!({"expr": {"neg": {"of": {"add": [{"lit": 1}, {"neg": {"of": {"neg": {"of": {"lit": 2}}}}}]}}}});
    assert!(v.is_valid(&deep));
    assert!(Eval::from_value(deep).is_ok());
    assert!(!v.is_valid(&json!({"expr": {"lit": 300}})));
}
