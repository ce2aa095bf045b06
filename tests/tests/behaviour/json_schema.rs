//! `json_schema::Coercer`: compiling a schema (and refusing one it cannot compile), a
//! hand-written MCP `inputSchema` in draft-07's words, references and recursion, and the
//! rules' guarantees (every issue at once, the value untouched on refusal, the depth limit).
//! Its agreement with the derive is a property test (`tests/reliability/agreement/`).

use serde_json::{json, Value};
use stitch_runtime::json_schema::{Coercer, SchemaError};
use stitch_runtime::{IssueKind, MAX_DEPTH, MAX_ISSUES};

const TEXT_LIST: &str =
    " is a list written as text \u{2014} pass the array itself, not JSON written as text";

fn compile_error(schema: Value) -> SchemaError {
    Coercer::new(&schema).expect_err("the schema compiled")
}

/// `args` coerced by `schema`: the repaired value, or the issues as `(path, message)`.
fn coerce(coercer: &Coercer, args: Value) -> Result<Value, Vec<(String, String)>> {
    let mut value = args.clone();
    match coercer.coerce(&mut value) {
        Ok(()) => Ok(value),
        Err(e) => {
            assert_eq!(value, args, "a refusal changed the value");
            Err(e
                .issues()
                .iter()
                .map(|i| (i.path().to_owned(), i.message().to_owned()))
                .collect())
        }
    }
}

fn refused_as_text_list(path: &str) -> Vec<(String, String)> {
    vec![(path.to_owned(), format!("{path}{TEXT_LIST}"))]
}

// --- Compile errors: each names the JSON pointer of the bad part ---------------------------

#[test]
fn an_unresolvable_ref_is_an_error_at_its_pointer() {
    let e = compile_error(json!({
        "type": "object",
        "properties": {"row": {"$ref": "#/$defs/Row"}}
    }));
    assert_eq!(e.pointer(), "/properties/row/$ref");
    assert!(e.message().contains("#/$defs/Row"), "{e}");
    assert!(
        e.to_string()
            .starts_with("schema at `#/properties/row/$ref`: "),
        "{e}"
    );
}

#[test]
fn an_unknown_anchor_is_an_error() {
    let e = compile_error(json!({"items": {"$ref": "#Node"}, "type": "array"}));
    assert_eq!(e.pointer(), "/items/$ref");
}

#[test]
fn a_remote_ref_is_an_error() {
    let e = compile_error(json!({"$ref": "https://example.com/schema.json"}));
    assert_eq!(e.pointer(), "/$ref");
    assert!(
        e.message().contains("only references within the schema"),
        "{e}"
    );
}

#[test]
fn a_cycle_of_refs_is_an_error() {
    let e = compile_error(json!({
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        "$ref": "#/$defs/a"
    }));
    assert!(e.message().contains("cycle"), "{e}");
}

#[test]
fn malformed_keywords_are_errors_at_their_pointer() {
    let cases = [
        (json!({"type": 5}), "/type"),
        (json!({"type": "text"}), "/type"),
        (json!({"type": []}), "/type"),
        (json!({"properties": []}), "/properties"),
        (
            json!({"properties": {"a": {"required": "a"}}}),
            "/properties/a/required",
        ),
        (json!({"required": [1]}), "/required"),
        (json!({"items": 3}), "/items"),
        (json!({"prefixItems": {}}), "/prefixItems"),
        (json!({"type": "array", "minItems": -1}), "/minItems"),
        (json!({"type": "array", "maxItems": 1.5}), "/maxItems"),
        (json!({"anyOf": []}), "/anyOf"),
        (json!({"oneOf": {}}), "/oneOf"),
        (json!({"allOf": "x"}), "/allOf"),
        (json!({"enum": "a"}), "/enum"),
        (json!({"nullable": "yes"}), "/nullable"),
        (json!({"$defs": []}), "/$defs"),
        (json!({"$ref": 1}), "/$ref"),
        (json!({"additionalProperties": 1}), "/additionalProperties"),
        (json!({"properties": {"a/b": 7}}), "/properties/a~1b"),
        (json!("string"), ""),
    ];
    for (schema, pointer) in cases {
        let e = compile_error(schema.clone());
        assert_eq!(e.pointer(), pointer, "{schema}: {e}");
    }
}

#[test]
fn a_subschema_the_validator_refuses_is_an_error() {
    // An array member with a keyword only the validator reads (`propertyNames`), whose
    // pattern is not a regular expression: its validator cannot be built.
    let e = compile_error(json!({
        "type": "object",
        "properties": {"names": {"anyOf": [
            {"type": "string"},
            {"type": "array", "items": {"type": "object", "propertyNames": {"pattern": "("}}}
        ]}}
    }));
    assert_eq!(e.pointer(), "/properties/names/anyOf/1");
}

// --- A hand-written MCP inputSchema, draft-07 -----------------------------------------------

fn mcp_schema() -> Value {
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "definitions": {
            "paths": {
                "anyOf": [
                    {"type": "string"},
                    {"type": "array", "items": {"type": "string"}, "maxItems": 3}
                ]
            },
            "options": {
                "type": "object",
                "properties": {
                    "depth": {"type": "integer", "minimum": 0, "maximum": 255},
                    "exclude": {"type": "array", "items": {"type": "string"}}
                },
                "additionalProperties": false
            }
        },
        "properties": {
            "paths": {"$ref": "#/definitions/paths"},
            "label": {"type": ["string", "null"]},
            "note": {"type": "string", "nullable": true},
            "tags": {"type": "array", "items": {"type": "string"}},
            "options": {"$ref": "#/definitions/options"},
            "pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}
        },
        "required": ["paths"]
    })
}

#[test]
fn an_mcp_input_schema_refuses_a_list_written_as_text_by_name() {
    let coercer = Coercer::new(&mcp_schema()).unwrap();
    assert_eq!(
        coerce(&coercer, json!({"paths": "[\"a.png\", \"b.png\"]"})),
        Err(refused_as_text_list("paths"))
    );
    // Too long for `maxItems`, not JSON, not a list: one plain value each.
    for plain in [
        "[\"a\",\"b\",\"c\",\"d\"]",
        "[preview].png",
        "[1,2",
        "123",
        "null",
        "[{\"a\":1}]",
    ] {
        let args = json!({ "paths": plain });
        assert_eq!(coerce(&coercer, args.clone()), Ok(args));
    }
}

#[test]
fn an_mcp_input_schema_repairs_text_where_no_string_is_expected() {
    let coercer = Coercer::new(&mcp_schema()).unwrap();
    let args = json!({
        "paths": ["a.png"],
        "tags": "[\"x\", \"y\"]",
        "options": "{\"exclude\": \"[\\\"target\\\"]\", \"depth\": 2}",
        "pair": "[\"a\", 1]"
    });
    assert_eq!(
        coerce(&coercer, args),
        Ok(json!({
            "paths": ["a.png"],
            "tags": ["x", "y"],
            "options": {"exclude": ["target"], "depth": 2},
            "pair": ["a", 1]
        }))
    );
}

#[test]
fn an_mcp_input_schema_takes_null_where_it_says_so() {
    let coercer = Coercer::new(&mcp_schema()).unwrap();
    let args = json!({"paths": "a", "label": null, "note": null});
    assert_eq!(coerce(&coercer, args.clone()), Ok(args));
    // Text at a nullable string stays a string, whatever it looks like.
    let args = json!({"paths": "a", "label": "[\"x\"]", "note": "null"});
    assert_eq!(coerce(&coercer, args.clone()), Ok(args));
}

#[test]
fn an_mcp_input_schema_reports_every_issue_at_once_in_serde_words() {
    let coercer = Coercer::new(&mcp_schema()).unwrap();
    let issues = coerce(
        &coercer,
        json!({"tags": "nope", "label": 5, "options": {"depth": 300, "extra": true}}),
    )
    .unwrap_err();
    let messages: Vec<&str> = issues.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        messages,
        [
            "label: invalid type: integer `5`, expected a string",
            "options.depth: invalid value: integer `300`, expected u8",
            "options.extra: unknown field `extra`, expected `depth` or `exclude`",
            "paths: missing field `paths`",
            "tags: invalid type: string \"nope\", expected a sequence",
        ]
    );
}

// --- References, recursion, unions ------------------------------------------------------------

#[test]
fn a_recursive_schema_is_walked_through_its_anchor_and_its_root() {
    for schema in [
        json!({
            "$anchor": "Node",
            "type": "object",
            "properties": {
                "names": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
                "children": {"type": "array", "items": {"$ref": "#Node"}}
            }
        }),
        json!({
            "type": "object",
            "properties": {
                "names": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
                "children": {"type": "array", "items": {"$ref": "#"}}
            }
        }),
    ] {
        let coercer = Coercer::new(&schema).unwrap();
        let args = json!({"children": [{"children": "[{\"names\": \"[\\\"a\\\"]\"}]"}]});
        assert_eq!(
            coerce(&coercer, args),
            Err(refused_as_text_list("children.0.children.0.names"))
        );
        let args = json!({"children": [{"children": "[{\"names\": \"a\"}]"}]});
        assert_eq!(
            coerce(&coercer, args),
            Ok(json!({"children": [{"children": [{"names": "a"}]}]}))
        );
    }
}

#[test]
fn a_one_of_discriminated_by_a_const_is_walked_into_its_member() {
    let coercer = Coercer::new(&json!({
        "type": "object",
        "properties": {"op": {"oneOf": [
            {"type": "object", "properties": {
                "kind": {"const": "copy"},
                "from": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
            }, "required": ["kind"]},
            {"type": "object", "properties": {
                "kind": {"enum": ["tag"]},
                "tags": {"type": "array", "items": {"type": "string"}}
            }, "required": ["kind"]}
        ]}}
    }))
    .unwrap();
    assert_eq!(
        coerce(&coercer, json!({"op": {"kind": "copy", "from": "[\"a\"]"}})),
        Err(refused_as_text_list("op.from"))
    );
    assert_eq!(
        coerce(&coercer, json!({"op": {"kind": "tag", "tags": "[\"a\"]"}})),
        Ok(json!({"op": {"kind": "tag", "tags": ["a"]}}))
    );
    assert_eq!(
        coerce(&coercer, json!({"op": {"kind": "move"}})),
        Err(vec![(
            "op".to_owned(),
            "op: unknown variant `move`, expected `copy` or `tag`".to_owned()
        )])
    );
}

#[test]
fn an_all_of_with_one_ref_stands_for_its_member() {
    let coercer = Coercer::new(&json!({
        "type": "object",
        "$defs": {"Tags": {"type": "array", "items": {"type": "string"}}},
        "properties": {"tags": {"allOf": [{"$ref": "#/$defs/Tags"}], "description": "Tags."}}
    }))
    .unwrap();
    assert_eq!(
        coerce(&coercer, json!({"tags": "[\"a\"]"})),
        Ok(json!({"tags": ["a"]}))
    );
}

#[test]
fn the_array_member_decides_with_a_real_validator() {
    // Items of an enum: only a list of known names is a list written as text.
    let coercer = Coercer::new(&json!({
        "type": "object",
        "properties": {"modes": {"anyOf": [
            {"type": "string", "enum": ["fast", "slow"]},
            {"type": "array", "items": {"type": "string", "enum": ["fast", "slow"]}, "minItems": 2}
        ]}}
    }))
    .unwrap();
    assert_eq!(
        coerce(&coercer, json!({"modes": "[\"fast\", \"slow\"]"})),
        Err(refused_as_text_list("modes"))
    );
    // One item is below `minItems`; `warp` is not a mode: kept, and refused as a string.
    assert!(coerce(&coercer, json!({"modes": "[\"fast\"]"}))
        .unwrap_err()
        .iter()
        .all(|(_, m)| m.contains("unknown variant")));
    assert!(coerce(&coercer, json!({"modes": "[\"fast\", \"warp\"]"}))
        .unwrap_err()
        .iter()
        .all(|(_, m)| m.contains("unknown variant")));
}

// --- The guarantees -------------------------------------------------------------------------------

#[test]
fn at_most_max_issues_are_kept_and_the_rest_counted() {
    let n = MAX_ISSUES + 5;
    let properties: serde_json::Map<String, Value> = (0..n)
        .map(|i| {
            let schema = json!({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]});
            (format!("p{i:02}"), schema)
        })
        .collect();
    let coercer = Coercer::new(&json!({"type": "object", "properties": properties})).unwrap();
    let args: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("p{i:02}"), json!("[\"a\"]")))
        .collect();
    let mut value = Value::Object(args);
    let before = value.clone();
    let e = coercer.coerce(&mut value).unwrap_err();
    assert_eq!(e.issues().len(), MAX_ISSUES);
    assert_eq!(e.omitted(), 5);
    assert!(e.issues().iter().all(|i| i.kind() == IssueKind::TextList));
    assert_eq!(value, before);
}

#[test]
fn a_refusal_leaves_the_value_as_it_was_even_where_it_could_repair() {
    let coercer = Coercer::new(&mcp_schema()).unwrap();
    let args = json!({"paths": "[\"a\"]", "tags": "[\"x\"]"});
    assert_eq!(coerce(&coercer, args), Err(refused_as_text_list("paths")));
}

#[test]
fn the_depth_limit_is_the_derives() {
    let coercer = Coercer::new(&json!({"type": "object", "properties": {"data": {}}})).unwrap();
    let nested = |n: usize| {
        let mut v = json!(1);
        for _ in 0..n {
            v = json!([v]);
        }
        json!({ "data": v })
    };
    assert!(coercer.coerce(&mut nested(MAX_DEPTH - 1)).is_ok());
    let e = coercer.coerce(&mut nested(MAX_DEPTH)).unwrap_err();
    assert_eq!(e.issues()[0].kind(), IssueKind::TooDeep);
    assert_eq!(
        e.issues()[0].path(),
        format!("data{}", ".0".repeat(MAX_DEPTH - 1))
    );
}

#[test]
fn a_coercer_is_shared_between_threads() {
    let coercer = std::sync::Arc::new(Coercer::new(&mcp_schema()).unwrap());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let coercer = coercer.clone();
            std::thread::spawn(move || {
                let mut args = json!({"paths": "a", "tags": "[\"x\"]"});
                coercer.coerce(&mut args).unwrap();
                args
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), json!({"paths": "a", "tags": ["x"]}));
    }
}

/// An `enum` or a one-character item judges its string: an item of a list that it refuses is
/// an issue beside the others (every issue at once), as a single such value is.
#[test]
fn list_items_that_judge_their_string_are_reported_with_the_rest() {
    let coercer = Coercer::new(&json!({
        "type": "object",
        "properties": {
            "shades": {"type": "array", "items": {"type": "string", "enum": ["light", "dark"]}},
            "names": {"type": "array", "items": {"type": "string"}},
            "count": {"type": "integer"}
        }
    }))
    .unwrap();
    let issues = coerce(
        &coercer,
        json!({"shades": ["light", "pale"], "names": ["any", "text"], "count": "7"}),
    )
    .unwrap_err();
    let paths: Vec<&str> = issues.iter().map(|(path, _)| path.as_str()).collect();
    assert_eq!(paths, ["count", "shades.1"], "{issues:?}");
    let ok = coerce(
        &coercer,
        json!({"shades": ["dark"], "names": ["x"], "count": 7}),
    );
    assert!(ok.is_ok(), "{ok:?}");
}
