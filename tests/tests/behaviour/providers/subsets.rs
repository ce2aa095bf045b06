//! The documented subsets: each format's schema keeps to the keywords its provider documents, and the formats' marks agree with the compile-time check.

use super::*;

// --- The documented subsets -------------------------------------------------------------

/// Gemini `FunctionDeclaration.parameters`: the fields of the `Schema` object, "a select subset
/// of an OpenAPI 3.0 schema object" (Gemini API reference, "Caching" page, section "Schema":
/// https://ai.google.dev/api/caching#Schema).
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// The values of `Schema.type` (same page, "Type": STRING, NUMBER, INTEGER, BOOLEAN, ARRAY,
/// OBJECT, NULL), written in lower case as the function-calling guide's examples write them
/// (https://ai.google.dev/gemini-api/docs/function-calling). One value: the field is an enum,
/// not a list.
const GEMINI_TYPES: &[&str] = &[
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// String formats the Gemini API accepts: "enum" and "date-time" (Firebase AI Logic reference,
/// `Schema.format`: "When using the Gemini Developer API … this must be either 'enum' or
/// 'date-time', otherwise requests will fail").
const GEMINI_FORMATS: &[&str] = &["enum", "date-time"];

/// Gemini `FunctionDeclaration.parametersJsonSchema`: "only the following properties are
/// supported" (Gemini API reference, `GenerationConfig.responseJsonSchema`, the JSON Schema
/// field `parametersJsonSchema` mirrors: https://ai.google.dev/api/generate-content), plus the
/// non-standard `propertyOrdering`. "If `$ref` is set on a sub-schema, no other properties,
/// except for those starting as a `$`, may be set."
const GEMINI_JSON_KEYWORDS: &[&str] = &[
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "oneOf",
    "properties",
    "additionalProperties",
    "required",
    "propertyOrdering",
];

/// Anthropic strict tool use (`"strict": true`): Claude docs, "Structured outputs", section
/// "JSON Schema limitations" (https://platform.claude.com/docs/en/build-with-claude/structured-outputs).
/// Supported: all basic types; `enum` (strings, numbers, booleans, nulls: no complex types);
/// `const`; `anyOf`, `allOf`; `$ref`/`$defs`/`definitions` (local, no recursion); `default`;
/// `required`; `additionalProperties` (must be `false`); string `format`s below; `pattern`;
/// `minItems` of 0 or 1. Not supported: recursive schemas, numerical constraints (`minimum`,
/// `maximum`, `multipleOf`…), string constraints (`minLength`, `maxLength`), array constraints
/// beyond `minItems` 0 or 1.
const ANTHROPIC_STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "enum",
    "const",
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "default",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "format",
    "pattern",
];

/// The string formats of the same section.
const ANTHROPIC_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
];

/// OpenAI strict mode: "Structured Outputs", section "Supported schemas"
/// (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): types string,
/// number, boolean, integer, object, array, enum, anyOf; string `pattern`/`format`; number
/// `multipleOf`/`maximum`/`exclusiveMaximum`/`minimum`/`exclusiveMinimum`; array
/// `minItems`/`maxItems`; `$ref`/`$defs` (recursion allowed); `const`; `description`, `title`.
/// "All fields must be required", "`additionalProperties: false` must always be set in
/// objects", "the root level object must be an object, and not use `anyOf`".
const OPENAI_STRICT_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "title",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "multipleOf",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
];

/// Each subschema of `schema` (itself included) with its path, for the checkers.
pub(super) fn subschemas<'a>(
    schema: &'a Value,
    path: String,
    out: &mut Vec<(String, &'a Map<String, Value>)>,
) {
    let Value::Object(object) = schema else {
        return;
    };
    out.push((path.clone(), object));
    for (key, value) in object {
        match (key.as_str(), value) {
            ("properties" | "$defs" | "definitions", Value::Object(members)) => {
                for (name, member) in members {
                    subschemas(member, format!("{path}/{key}/{name}"), out);
                }
            }
            ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(members)) => {
                for (i, member) in members.iter().enumerate() {
                    subschemas(member, format!("{path}/{key}/{i}"), out);
                }
            }
            ("items" | "additionalProperties" | "not", member @ Value::Object(_)) => {
                subschemas(member, format!("{path}/{key}"), out);
            }
            _ => {}
        }
    }
}

pub(super) fn all_subschemas(schema: &Value) -> Vec<(String, &Map<String, Value>)> {
    let mut out = Vec::new();
    subschemas(schema, String::new(), &mut out);
    out
}

pub(super) fn only_keywords(schema: &Value, allowed: &[&str], format: &str) {
    for (path, object) in all_subschemas(schema) {
        for key in object.keys() {
            assert!(
                allowed.contains(&key.as_str()),
                "{format}: `{key}` at {path} is not in the documented subset: {schema}"
            );
        }
    }
}

pub(super) fn is_object_type(object: &Map<String, Value>) -> bool {
    object.get("type") == Some(&json!("object"))
}

/// Gemini's `parameters`: documented keywords, one `type` string, no reference, string enums,
/// string formats Gemini takes, arrays with `items`, `required` among the properties.
pub(super) fn check_gemini(schema: &Value) {
    only_keywords(schema, GEMINI_KEYWORDS, "gemini");
    let text = schema.to_string();
    for banned in [
        "$ref",
        "$anchor",
        "$defs",
        "$schema",
        "const",
        "oneOf",
        "additionalProperties",
        "prefixItems",
    ] {
        assert!(
            !text.contains(&format!("\"{banned}\"")),
            "{banned} in {text}"
        );
    }
    for (path, object) in all_subschemas(schema) {
        if let Some(t) = object.get("type") {
            let t = t
                .as_str()
                .unwrap_or_else(|| panic!("type at {path} is not one string: {t}"));
            assert!(GEMINI_TYPES.contains(&t), "type {t} at {path}");
        } else {
            assert!(
                object.contains_key("anyOf"),
                "no type at {path} (Gemini requires one): {schema}"
            );
        }
        if let Some(values) = object.get("enum") {
            assert!(
                values.as_array().unwrap().iter().all(Value::is_string),
                "{path}"
            );
            assert_eq!(object["type"], "string", "{path}: enum values are strings");
        }
        if let Some(f) = object.get("format") {
            assert!(
                GEMINI_FORMATS.contains(&f.as_str().unwrap()),
                "format {f} at {path}"
            );
        }
        if object.get("type") == Some(&json!("array")) {
            assert!(object["items"].is_object(), "array without items at {path}");
        }
        if let Some(required) = object.get("required") {
            for name in required.as_array().unwrap() {
                assert!(
                    object["properties"].get(name.as_str().unwrap()).is_some(),
                    "{path}: required {name} is not a property"
                );
            }
        }
        if let Some(n) = object.get("nullable") {
            assert!(n.is_boolean(), "{path}");
        }
    }
}

/// Anthropic's strict mode: documented keywords, `additionalProperties: false` on every object,
/// no reference (no recursion), `minItems` 0 or 1, primitive enums, supported formats.
pub(super) fn check_anthropic_strict(schema: &Value) {
    only_keywords(schema, ANTHROPIC_STRICT_KEYWORDS, "anthropic_strict");
    assert!(!schema.to_string().contains("\"$ref\""), "{schema}");
    for (path, object) in all_subschemas(schema) {
        // Every object is closed, a union of objects (a tagged enum under a field) too: it
        // lists its members' keys beside them (issue #33: it was left open).
        if is_object_type(object) || object.contains_key("properties") {
            assert_eq!(
                object.get("additionalProperties"),
                Some(&json!(false)),
                "object without additionalProperties: false at {path}"
            );
        }
        if let Some(n) = object.get("minItems") {
            assert!(n == 0 || n == 1, "minItems {n} at {path}");
        }
        if let Some(values) = object.get("enum") {
            assert!(
                values
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|v| !v.is_object() && !v.is_array()),
                "complex enum at {path}"
            );
        }
        if let Some(f) = object.get("format") {
            assert!(
                ANTHROPIC_FORMATS.contains(&f.as_str().unwrap()),
                "format {f} at {path}"
            );
        }
    }
}

/// Gemini's `parametersJsonSchema`: documented keywords, every `$ref` resolves into `$defs` (or
/// is the root) and stands alone, and the schema compiles.
pub(super) fn check_gemini_json(schema: &Value) {
    only_keywords(schema, GEMINI_JSON_KEYWORDS, "gemini_json_schema");
    for (path, object) in all_subschemas(schema) {
        if let Some(target) = object.get("$ref") {
            let target = target.as_str().unwrap();
            assert!(
                object.keys().all(|k| k.starts_with('$')),
                "{path}: a $ref with other keywords"
            );
            if target != "#" {
                let name = target
                    .strip_prefix("#/$defs/")
                    .unwrap_or_else(|| panic!("{target}"));
                assert!(
                    schema["$defs"].get(name).is_some(),
                    "{target} does not resolve"
                );
            }
        }
    }
    jsonschema::validator_for(schema).expect("a schema every reference of which resolves");
}

/// OpenAI strict mode: documented keywords, `additionalProperties: false` and every property
/// required on every object, an object at the root.
pub(super) fn check_openai_strict(schema: &Value) {
    only_keywords(schema, OPENAI_STRICT_KEYWORDS, "openai_responses_strict");
    assert_eq!(schema["type"], "object", "the root is an object");
    assert!(schema.get("anyOf").is_none(), "no anyOf at the root");
    for (path, object) in all_subschemas(schema) {
        if is_object_type(object) {
            assert_eq!(
                object.get("additionalProperties"),
                Some(&json!(false)),
                "{path}"
            );
            let names: Vec<&String> = object["properties"].as_object().unwrap().keys().collect();
            let required: Vec<&str> = object["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.as_str().unwrap())
                .collect();
            assert_eq!(required, names, "{path}: every property is required");
        }
    }
}

/// Runs the subset checkers of the four formats every object-root type has on `T`'s
/// definitions.
pub(super) fn meets_subsets<T: ObjectArgs>() {
    let name = std::any::type_name::<T>();
    assert_eq!(stitch_runtime::__private::tool_error::<T>(), None, "{name}");
    assert_eq!(
        stitch_runtime::__private::gemini_error::<T>(),
        None,
        "{name}"
    );
    assert_eq!(
        stitch_runtime::__private::anthropic_strict_error::<T>(),
        None,
        "{name}"
    );
    let gemini = tool::gemini::<T>("t", None);
    check_gemini(&gemini["parameters"]);
    let claude = tool::anthropic_strict::<T>("t", None);
    check_anthropic_strict(&claude["input_schema"]);
    // The compile-time check and the rewrite agree: what the check lets through is written.
    for written in [&gemini, &claude] {
        assert!(
            !written.to_string().contains("Cannot be described here"),
            "{name}: {written}"
        );
    }
    let json_schema = tool::gemini_json_schema::<T>("t", None);
    check_gemini_json(&json_schema["parametersJsonSchema"]);
    let responses = tool::openai_responses::<T>("t", None);
    // The input schema, a root union written as one object (`docs/rules.md#flattened-unions`).
    let mcp = tool::mcp::<T>("t", None);
    assert_eq!(responses["parameters"], mcp["inputSchema"], "{name}");
    assert!(
        !crate::round_trip::root_union(&mcp["inputSchema"]),
        "{name}"
    );
}

/// [`meets_subsets`], and OpenAI's strict subset for a type strict mode takes.
pub(super) fn meets_strict_subset<T: StrictArgs>() {
    let name = std::any::type_name::<T>();
    assert_eq!(
        stitch_runtime::__private::strict_error::<T>(),
        None,
        "{name}"
    );
    meets_subsets::<T>();
    check_openai_strict(&tool::openai_responses_strict::<T>("t", None)["parameters"]);
}

/// The compile error `tool::openai_responses_strict::<T>` stops the build with names `why`.
pub(super) fn strict_refuses<T: ToolArgs>(why: &str) {
    let name = std::any::type_name::<T>();
    let error = stitch_runtime::__private::strict_error::<T>()
        .unwrap_or_else(|| panic!("{name}: strict mode takes it"));
    assert!(error.contains(why), "{name}: {error}");
}

/// The compile error every `tool` function stops the build with for `T` says `T` is `what`.
pub(super) fn not_a_tool<T: ToolArgs>(what: &str) {
    let name = std::any::type_name::<T>();
    let error = stitch_runtime::__private::tool_error::<T>()
        .unwrap_or_else(|| panic!("{name}: it can be a tool"));
    assert_eq!(
        error,
        format!("stitch: a tool's arguments must be a JSON object (a struct with named fields, or an enum whose every variant is an object: internally or adjacently tagged, or externally tagged with data); this type is {what}"),
        "{name}"
    );
    // Every `tool` function refuses it, the checked ones with the same message.
    assert_eq!(
        stitch_runtime::__private::strict_error::<T>(),
        Some(error.clone())
    );
    assert_eq!(
        stitch_runtime::__private::gemini_error::<T>(),
        Some(error.clone())
    );
    assert_eq!(
        stitch_runtime::__private::anthropic_strict_error::<T>(),
        Some(error)
    );
}

#[test]
fn every_format_stays_in_its_documented_subset() {
    meets_strict_subset::<ViewFile>();
    meets_strict_subset::<Search>();
    meets_strict_subset::<Filters>();
    meets_strict_subset::<Paths20>();
    meets_strict_subset::<Names3>();
    meets_strict_subset::<Rows3>();
    meets_strict_subset::<Row3>();
    meets_strict_subset::<RowWithoutNotes>();
    meets_strict_subset::<Paths>();
    meets_strict_subset::<Meta>();
    meets_strict_subset::<Tree>();
    // Strict mode closes every object and has no tuples and no enum at the root: the strict
    // definition of these is a compile error (read here at run time), the others are checked.
    let map = "a map (an object with open keys: strict mode closes every object)";
    let tuple = "a tuple (`prefixItems`)";
    let enum_root = "its arguments are an enum";
    meets_subsets::<Edit>();
    strict_refuses::<Edit>(map);
    meets_subsets::<Row>();
    strict_refuses::<Row>(&format!("{map} at field `notes`"));
    meets_subsets::<Act>();
    strict_refuses::<Act>(&format!("{map} at field `notes`"));
    meets_subsets::<Eval>();
    strict_refuses::<Eval>(&format!("{tuple} at field `expr`"));
    meets_subsets::<OptionalTuple>();
    strict_refuses::<OptionalTuple>(&format!("{tuple} at field `pair`"));
    meets_subsets::<Kinds>();
    strict_refuses::<Kinds>(&format!("{tuple} at field `adjacent`"));
    meets_subsets::<Op>();
    strict_refuses::<Op>(enum_root);
    meets_subsets::<Adjacent>();
    strict_refuses::<Adjacent>(enum_root);
    meets_subsets::<Expr>();
    strict_refuses::<Expr>(enum_root);
    // A required self-reference: no strict Anthropic definition (see below).
    check_gemini(&tool::gemini::<Outline>("t", None)["parameters"]);
    check_gemini_json(&tool::gemini_json_schema::<Outline>("t", None)["parametersJsonSchema"]);
    // Not an object: no `tool` function compiles for these.
    not_a_tool::<EntryKind>("a string (an enum whose variants are all units)");
    let untagged = "an untagged enum with a member that is not an object";
    not_a_tool::<NumOrStr>(untagged);
    not_a_tool::<Nesting>(untagged);
    not_a_tool::<MetasOrNames>(untagged);
    not_a_tool::<ManyOrOne>(untagged);
}

/// `(object, strict)`: whether `$ty` has the public bounds the `tool` functions require (every
/// one: `ObjectArgs`; the strict ones: `StrictArgs`), read without a compile
/// error: an inherent method applies only where its bounds hold, the trait's is the fallback.
macro_rules! marks {
    ($ty:ty) => {{
        struct Probe<T>(std::marker::PhantomData<T>);
        trait Unmarked {
            fn object(&self) -> bool {
                false
            }
            fn strict(&self) -> bool {
                false
            }
        }
        impl<T> Unmarked for Probe<T> {}
        #[allow(dead_code)]
        impl<T: ObjectArgs> Probe<T> {
            fn object(&self) -> bool {
                true
            }
        }
        #[allow(dead_code)]
        impl<T: StrictArgs> Probe<T> {
            fn strict(&self) -> bool {
                true
            }
        }
        let probe = Probe::<$ty>(std::marker::PhantomData);
        (probe.object(), probe.strict())
    }};
}

/// The marks the derive writes (a type error at the user's call) and the compile-time check
/// of the schema tree (the error behind them) agree on every type of this file's checks:
/// whatever the marks let through, the check lets through, and the reverse.
#[test]
fn the_marks_agree_with_the_compile_time_checks() {
    macro_rules! agree {
        ($($ty:ty),* $(,)?) => {$({
            let name = stringify!($ty);
            let (object, strict) = marks!($ty);
            let tool_ok = stitch_runtime::__private::tool_error::<$ty>().is_none();
            let strict_ok = stitch_runtime::__private::strict_error::<$ty>().is_none();
            assert_eq!(object, tool_ok, "{name}: ObjectArgs");
            assert_eq!(object && strict, strict_ok, "{name}: strict");
        })*};
    }
    agree!(
        ViewFile,
        Search,
        Edit,
        Act,
        Row,
        RowWithoutNotes,
        Meta,
        Paths,
        Filters,
        Tree,
        Eval,
        OptionalTuple,
        Kinds,
        Op,
        Adjacent,
        Expr,
        Outline,
        EntryKind,
        NumOrStr,
        Nesting,
        MetasOrNames,
        ManyOrOne,
    );
    // The marks are not vacuous: some types have each, some lack each.
    assert_eq!(marks!(ViewFile), (true, true));
    assert_eq!(marks!(Edit), (true, false));
    assert_eq!(marks!(Op), (true, false));
    assert_eq!(marks!(EntryKind), (false, false));
}
