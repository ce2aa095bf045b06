//! The tool formats, schemars and serde_json read the same schema and the same values.

use super::*;

#[test]
fn tool_definitions_in_three_formats() {
    let mcp = tool::mcp::<ViewFile>("view_file", None);
    assert_eq!(mcp["name"], "view_file");
    assert_eq!(
        mcp["description"],
        "Show one or more image or text files to the model."
    );
    assert_eq!(&mcp["inputSchema"], ViewFile::input_schema());
    let anthropic = tool::anthropic::<ViewFile>("view_file", Some("Look at files."));
    assert_eq!(anthropic["description"], "Look at files.");
    assert_eq!(&anthropic["input_schema"], ViewFile::input_schema());
    let openai = tool::openai::<Search>("search", None);
    assert_eq!(openai["type"], "function");
    assert_eq!(&openai["function"]["parameters"], Search::input_schema());
    assert!(openai["function"].get("strict").is_none());
}

/// Checks OpenAI's strict-mode rules on every object of a schema.
pub(super) fn assert_strict(schema: &Value) {
    match schema {
        Value::Object(object) => {
            assert!(!object.contains_key("oneOf"), "oneOf in strict mode");
            assert!(!object.contains_key("default"), "default in strict mode");
            if object.get("type") == Some(&json!("object")) {
                assert_eq!(object["additionalProperties"], false, "{schema}");
                let properties = object["properties"].as_object().unwrap();
                let required: Vec<&str> = object["required"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r.as_str().unwrap())
                    .collect();
                let names: Vec<&str> = properties.keys().map(String::as_str).collect();
                assert_eq!(required, names, "every property is required");
            }
            object.values().for_each(assert_strict);
        }
        Value::Array(items) => items.iter().for_each(assert_strict),
        _ => {}
    }
}

#[test]
fn strict_openai_tools_meet_strict_mode_rules() {
    let strict = tool::openai_strict::<Search>("search", None);
    assert_eq!(strict["function"]["strict"], true);
    let parameters = &strict["function"]["parameters"];
    assert_strict(parameters);
    // An optional property may be null instead.
    assert_eq!(
        parameters["properties"]["filters"]["anyOf"][1],
        json!({"type": "null"})
    );
    let view = tool::openai_strict::<ViewFile>("view_file", None);
    assert_strict(&view["function"]["parameters"]);
    let tree = tool::openai_strict::<Tree>("tree", None);
    assert_strict(&tree["function"]["parameters"]);
    assert_eq!(
        tree["function"]["parameters"]["properties"]["children"]["anyOf"][0]["items"],
        json!({"$ref": "#"})
    );
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct BesideSchemars {
    paths: OneOrMany<String>,
    edit: stitch_runtime::Args<Edit>,
}

#[test]
fn schemars_sees_the_same_schema() {
    let generated = schemars::schema_for!(BesideSchemars).to_value();
    let paths = &generated["properties"]["paths"];
    let ours = &Generic::<String>::input_schema()["properties"]["items"];
    assert_eq!(paths, ours, "a OneOrMany field is described the same way");
    assert_eq!(
        &generated["properties"]["edit"],
        Edit::input_schema(),
        "a derived type, through Args, is inline"
    );
    assert!(generated.get("$defs").is_none(), "{generated}");
}

/// stitch reads a coerced value exactly as serde_json's own `Value` deserializer does: the
/// same verdict and the same message (stitch adds the path in front).
pub(super) fn reads_as_serde_json<T: ToolArgs + PartialEq + std::fmt::Debug>(
    seed: u64,
    runs: usize,
) -> (usize, usize) {
    let schema = T::input_schema();
    let mut rng = Rng(seed);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..runs {
        let mut args = sample(schema, schema, &mut rng, 0);
        if let Err(walk) = T::coerce_value(&mut args) {
            // The check pass refuses a type error only where serde refuses it too.
            // (Item bounds are stitch's own: serde does not know them.)
            let bounds = |m: &str| m.ends_with(" item") || m.ends_with(" items");
            let typed = walk
                .issues()
                .iter()
                .all(|i| i.kind() == IssueKind::Invalid && !bounds(i.message()));
            if typed {
                assert!(serde_json::from_value::<T>(args.clone()).is_err(), "{args}");
                err += 1;
            }
            continue;
        }
        match (
            T::from_value(args.clone()),
            serde_json::from_value::<T>(args.clone()),
        ) {
            (Ok(ours), Ok(theirs)) => {
                assert_eq!(ours, theirs, "{args}");
                ok += 1;
            }
            (Err(ours), Err(theirs)) => {
                let message = ours.issues()[0].message();
                assert!(
                    message.ends_with(&theirs.to_string()),
                    "{args}: {message} vs {theirs}"
                );
                err += 1;
            }
            (ours, theirs) => panic!("{args}: stitch {ours:?}, serde_json {theirs:?}"),
        }
    }
    (ok, err)
}

#[test]
fn deserialization_agrees_with_serde_json() {
    for (name, (ok, err)) in [
        ("view_file", reads_as_serde_json::<ViewFile>(11, 1500)),
        ("search", reads_as_serde_json::<Search>(12, 1500)),
        ("edit", reads_as_serde_json::<Edit>(13, 1500)),
        ("act", reads_as_serde_json::<Act>(14, 1500)),
        ("tree", reads_as_serde_json::<Tree>(15, 1500)),
        ("shapes", reads_as_serde_json::<Shapes>(16, 3000)),
    ] {
        assert!(
            ok >= 20 && err >= 20,
            "{name}: {ok} accepted, {err} refused"
        );
    }
}

/// `from_json` (which deserializes plain text directly) and `from_value` (which always walks)
/// give the same answer: the same value, or the same issues.
pub(super) fn surfaces_agree<T: ToolArgs + PartialEq + std::fmt::Debug>(
    seed: u64,
    runs: usize,
) -> (usize, usize) {
    let schema = T::input_schema();
    let mut rng = Rng(seed);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..runs {
        let args = sample(schema, schema, &mut rng, 0);
        let text = if rng.chance(50) {
            args.to_string()
        } else {
            serde_json::to_string_pretty(&args).unwrap()
        };
        match (T::from_json(&text), T::from_value(args.clone())) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{text}");
                ok += 1;
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "{text}");
                err += 1;
            }
            (a, b) => panic!("{text}: from_json {a:?}, from_value {b:?}"),
        }
    }
    (ok, err)
}

#[test]
fn from_json_and_from_value_agree() {
    for (name, (ok, err)) in [
        ("view_file", surfaces_agree::<ViewFile>(21, 1500)),
        ("search", surfaces_agree::<Search>(22, 1500)),
        ("edit", surfaces_agree::<Edit>(23, 1500)),
        ("act", surfaces_agree::<Act>(24, 1500)),
        ("tree", surfaces_agree::<Tree>(25, 1500)),
        ("shapes", surfaces_agree::<Shapes>(26, 3000)),
    ] {
        assert!(
            ok >= 20 && err >= 20,
            "{name}: {ok} accepted, {err} refused"
        );
    }
}
