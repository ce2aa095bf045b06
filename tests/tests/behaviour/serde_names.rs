//! Differential tests against serde: every path stitch reports names a key serde reads.
//!
//! Each type derives `Serialize`, `Deserialize` and `ToolArgs`. serde's own serialization tells
//! the wire names; a text list under each of them must be refused at exactly that name, and the
//! real array under that name must be accepted by serde.

use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
use stitch_tests::issues;

/// For every key of `sample` (serialized by serde), a text list under it is refused at that
/// key, and the array itself is read by serde.
fn every_key_is_walked<T: ToolArgs + Serialize + std::fmt::Debug>(sample: &T) -> Vec<String> {
    let Value::Object(object) = serde_json::to_value(sample).unwrap() else {
        panic!("not an object")
    };
    let keys: Vec<String> = object.keys().cloned().collect();
    for key in &keys {
        let mut args: Map<String, Value> = object.clone();
        args.insert(key.clone(), json!("[\"a\", \"b\"]"));
        let err = T::from_value(Value::Object(args.clone())).unwrap_err();
        assert_eq!(
            issues(&err),
            [(key.clone(), IssueKind::TextList)],
            "key {key}"
        );
        args.insert(key.clone(), json!(["a", "b"]));
        T::from_value(Value::Object(args)).unwrap_or_else(|e| panic!("serde reads {key}: {e}"));
    }
    keys
}

macro_rules! rule_struct {
    ($name:ident, $rule:literal) => {
        #[derive(Debug, Default, Serialize, Deserialize, ToolArgs)]
        #[serde(rename_all = $rule)]
        #[allow(non_snake_case)]
        struct $name {
            very_tasty: OneOrMany<String>,
            a: OneOrMany<String>,
            z42: OneOrMany<String>,
            r#type: OneOrMany<String>,
            myField: OneOrMany<String>,
            #[serde(rename = "Explicit")]
            explicit_beats_rule: OneOrMany<String>,
        }
    };
}

rule_struct!(Lower, "lowercase");
rule_struct!(Upper, "UPPERCASE");
rule_struct!(Pascal, "PascalCase");
rule_struct!(Camel, "camelCase");
rule_struct!(Snake, "snake_case");
rule_struct!(ScreamingSnake, "SCREAMING_SNAKE_CASE");
rule_struct!(Kebab, "kebab-case");
rule_struct!(ScreamingKebab, "SCREAMING-KEBAB-CASE");

#[test]
fn field_rename_rules_match_serde() {
    let all = [
        every_key_is_walked(&Lower::default()),
        every_key_is_walked(&Upper::default()),
        every_key_is_walked(&Pascal::default()),
        every_key_is_walked(&Camel::default()),
        every_key_is_walked(&Snake::default()),
        every_key_is_walked(&ScreamingSnake::default()),
        every_key_is_walked(&Kebab::default()),
        every_key_is_walked(&ScreamingKebab::default()),
    ];
    // The quirks are really exercised: `myField` is kept under kebab-case, `r#type` is `type`.
    assert!(all[6].contains(&"myField".to_owned()));
    assert!(all[4].contains(&"type".to_owned()));
    assert!(all[5].contains(&"TYPE".to_owned()));
    assert!(all.iter().all(|keys| keys.contains(&"Explicit".to_owned())));
}

#[derive(Debug, Serialize, Deserialize, ToolArgs)]
struct Names {
    names: OneOrMany<String>,
}

macro_rules! rule_enum {
    ($name:ident, $rule:literal) => {
        #[derive(Debug, Serialize, Deserialize, ToolArgs)]
        #[serde(rename_all = $rule)]
        #[allow(clippy::upper_case_acronyms)]
        enum $name {
            HTTPServer(Names),
            VeryTasty(Names),
            A(Names),
        }

        impl $name {
            fn samples() -> Vec<$name> {
                let n = || Names {
                    names: OneOrMany::One("x".into()),
                };
                vec![$name::HTTPServer(n()), $name::VeryTasty(n()), $name::A(n())]
            }
        }
    };
}

rule_enum!(VLower, "lowercase");
rule_enum!(VUpper, "UPPERCASE");
rule_enum!(VPascal, "PascalCase");
rule_enum!(VCamel, "camelCase");
rule_enum!(VSnake, "snake_case");
rule_enum!(VScreamingSnake, "SCREAMING_SNAKE_CASE");
rule_enum!(VKebab, "kebab-case");
rule_enum!(VScreamingKebab, "SCREAMING-KEBAB-CASE");

#[derive(Debug, Serialize, Deserialize, ToolArgs)]
struct Call<A> {
    action: A,
}

/// The variant key serde writes is the segment stitch reports.
fn variant_keys_match<A: ToolArgs + Serialize + std::fmt::Debug>(samples: Vec<A>) -> Vec<String> {
    let mut keys = Vec::new();
    for sample in samples {
        let value = serde_json::to_value(Call { action: sample }).unwrap();
        let key = value["action"]
            .as_object()
            .unwrap()
            .keys()
            .next()
            .unwrap()
            .clone();
        let args = json!({"action": { key.clone(): {"names": "[\"a\"]"} }});
        let err = Call::<A>::from_value(args).unwrap_err();
        assert_eq!(
            issues(&err),
            [(format!("action.{key}.names"), IssueKind::TextList)]
        );
        Call::<A>::from_value(json!({"action": { key.clone(): {"names": ["a"]} }})).unwrap();
        keys.push(key);
    }
    keys
}

#[test]
fn variant_rename_rules_match_serde() {
    let snake = variant_keys_match(VSnake::samples());
    assert_eq!(snake[0], "h_t_t_p_server");
    variant_keys_match(VLower::samples());
    variant_keys_match(VUpper::samples());
    variant_keys_match(VPascal::samples());
    let camel = variant_keys_match(VCamel::samples());
    assert_eq!(camel[0], "hTTPServer");
    variant_keys_match(VScreamingSnake::samples());
    variant_keys_match(VKebab::samples());
    variant_keys_match(VScreamingKebab::samples());
}

#[derive(Debug, Deserialize, ToolArgs)]
#[serde(rename_all(deserialize = "camelCase", serialize = "SCREAMING_SNAKE_CASE"))]
struct SplitRules {
    file_paths: OneOrMany<String>,
    #[serde(
        rename(serialize = "out", deserialize = "input"),
        alias = "source",
        alias = "src"
    )]
    in_path: OneOrMany<String>,
}

#[test]
fn deserialize_names_and_aliases_are_used() {
    let err = SplitRules::from_value(json!({"filePaths": "[\"a\"]", "input": "x"})).unwrap_err();
    assert_eq!(
        issues(&err),
        [("filePaths".to_owned(), IssueKind::TextList)]
    );
    // A path names the key the caller used, alias or not.
    for key in ["input", "source", "src"] {
        let err = SplitRules::from_value(json!({"filePaths": "a", key: "[\"x\"]"})).unwrap_err();
        assert_eq!(issues(&err), [(key.to_owned(), IssueKind::TextList)]);
        SplitRules::from_value(json!({"filePaths": "a", key: ["x"]})).unwrap();
    }
    // The serialize names are not read.
    let args = json!({"FILE_PATHS": "[\"a\"]", "filePaths": "a", "input": "b", "out": "[\"c\"]"});
    let mut value = args.clone();
    SplitRules::coerce_value(&mut value).unwrap();
    assert_eq!(value, args);
}

#[derive(Debug, Deserialize, ToolArgs)]
#[serde(tag = "kind", rename_all = "SCREAMING-KEBAB-CASE")]
enum Tagged {
    #[serde(rename_all = "PascalCase")]
    EditRows { row_names: OneOrMany<String> },
    #[serde(rename = "look", alias = "peek")]
    ViewFile { file_paths: OneOrMany<String> },
}

#[test]
fn tags_use_serde_variant_names() {
    let err =
        Call::<Tagged>::from_value(json!({"action": {"kind": "EDIT-ROWS", "RowNames": "[\"a\"]"}}))
            .unwrap_err();
    assert_eq!(
        issues(&err),
        [("action.RowNames".to_owned(), IssueKind::TextList)]
    );
    for tag in ["look", "peek"] {
        let err =
            Call::<Tagged>::from_value(json!({"action": {"kind": tag, "file_paths": "[\"a\"]"}}))
                .unwrap_err();
        assert_eq!(
            issues(&err),
            [("action.file_paths".to_owned(), IssueKind::TextList)]
        );
    }
}
