//! The rule itself: each tool's `inputSchema` compiled once into stitch's schema-driven
//! coercer, and what a call's arguments come to.
//!
//! By default the proxy acts only where stitch's rules act: a list written as text is refused
//! (R3), JSON text where no string is expected is repaired (R1), `null` at a property that may
//! be left out is dropped (R8); every other call goes to the server as it came, for the
//! server to judge. With `--refuse-invalid` a call the schema rejects is refused too, with
//! every issue at once: the coercer's, then the schema validator's at the places the coercer
//! did not speak of (keywords the coercer does not check: `format`, `uniqueItems`, …).

use serde_json::Value;
use stitch_runtime::json_schema::Coercer;

use crate::raw::{self, Node};
use crate::record::Issue;
use crate::rewrite::rewrite;

/// One tool's compiled schema.
pub struct Check {
    coercer: Coercer,
    /// The whole schema's validator, for `--refuse-invalid`; `None` when it was not asked for
    /// or cannot be built.
    validator: Option<jsonschema::Validator>,
}

/// What the rule says of one call's arguments.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Forwarded as it came, byte for byte.
    Clean,
    /// Forwarded with these arguments (the client's text with the repaired strings
    /// replaced); `issues`: the positions repaired, each with its rule.
    Repaired {
        arguments: String,
        issues: Vec<Issue>,
    },
    /// Refused: stitch's messages, one line per issue, and the positions refused, each with
    /// its rule.
    Refused {
        messages: String,
        issues: Vec<Issue>,
    },
}

impl Check {
    /// Compiles a tool's `inputSchema` (and, for `refuse_invalid`, its validator); the error
    /// says why it cannot be read (the proxy then forwards that tool's calls unchecked).
    pub fn new(schema: &Value, refuse_invalid: bool) -> Result<Check, String> {
        let coercer = Coercer::new(schema).map_err(|error| error.to_string())?;
        let validator = if refuse_invalid {
            Some(jsonschema::validator_for(schema).map_err(|e| e.to_string())?)
        } else {
            None
        };
        Ok(Check { coercer, validator })
    }

    /// Runs the rule on a call's arguments: `node`, read from `text` (the whole line).
    pub fn run(&self, text: &str, node: &Node) -> Verdict {
        let sent = raw::to_value(text, node);
        let mut coerced = sent.clone();
        let Some(validator) = &self.validator else {
            if let Err(issues) = self.coercer.coerce_rules_only(&mut coerced) {
                return refused(
                    issues
                        .issues()
                        .iter()
                        .map(|i| (i.path(), rule_of(i.kind()), i.to_string())),
                );
            }
            return self.forwarded(text, node, &sent, &coerced);
        };
        // `--refuse-invalid`: the coercer's issues, and the validator's at every other path
        // (keywords the coercer leaves to it), on the arguments as the rules repair them.
        let coercer_issues = self.coercer.coerce(&mut coerced).err();
        let mut repaired = sent.clone();
        let checked = match self.coercer.coerce_rules_only(&mut repaired) {
            Ok(()) => &repaired,
            Err(_) => &sent,
        };
        let mut issues: Vec<(String, &'static str, String)> = coercer_issues
            .iter()
            .flat_map(|e| e.issues())
            .map(|i| (i.path().to_owned(), rule_of(i.kind()), i.to_string()))
            .collect();
        let said: Vec<String> = issues.iter().map(|(path, ..)| path.clone()).collect();
        for error in validator.iter_errors(checked) {
            let path = dotted(error.instance_path().as_str());
            // A place the coercer spoke of, or one inside it, is said once.
            let covered = said
                .iter()
                .any(|p| *p == path || path.starts_with(&format!("{p}.")) || p.is_empty());
            if covered {
                continue;
            }
            let message = match path.as_str() {
                "" => error.to_string(),
                at => format!("{at}: {error}"),
            };
            issues.push((path, "schema", message));
        }
        if !issues.is_empty() {
            return refused(issues.iter().map(|(p, r, m)| (p.as_str(), *r, m.clone())));
        }
        self.forwarded(text, node, &sent, &coerced)
    }

    /// An accepted call: as it came, or with its repaired strings replaced.
    fn forwarded(&self, text: &str, node: &Node, sent: &Value, coerced: &Value) -> Verdict {
        if coerced == sent {
            return Verdict::Clean;
        }
        let mut issues = Vec::new();
        let arguments = rewrite(text, node, sent, coerced, &mut issues);
        // What the rewrite cannot write back (a string holding a lone surrogate is left as
        // sent) leaves the call as it came: no repair to forward or to log.
        if issues.is_empty() || arguments == text[node.span.clone()] {
            return Verdict::Clean;
        }
        Verdict::Repaired { arguments, issues }
    }
}

/// A refusal of `issues`, each a path, its rule and its message (one line each).
fn refused<'a>(issues: impl Iterator<Item = (&'a str, &'static str, String)>) -> Verdict {
    let (issues, messages): (Vec<Issue>, Vec<String>) = issues
        .map(|(path, rule, message)| {
            let path = path.to_owned();
            (Issue { path, rule }, message)
        })
        .unzip();
    Verdict::Refused {
        messages: messages.join("\n"),
        issues,
    }
}

/// The rule behind a coercer's issue: R3 (a list written as text), R7 (too deep), or
/// `invalid` (what `--refuse-invalid` refuses).
fn rule_of(kind: stitch_runtime::IssueKind) -> &'static str {
    match kind {
        stitch_runtime::IssueKind::TextList => "R3",
        stitch_runtime::IssueKind::TooDeep => "R7",
        _ => "invalid",
    }
}

/// A JSON pointer (`/rows/0/names`) as a dotted path (`rows.0.names`).
fn dotted(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .map(|token| token.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TEXT_LIST: &str =
        "is a list written as text \u{2014} pass the array itself, not JSON written as text";

    fn view(refuse_invalid: bool) -> Check {
        Check::new(
            &json!({"type": "object", "properties": {
            "paths": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            "tags": {"type": "array", "items": {"type": "string"}},
            "n": {"type": "integer"},
            "code": {"type": "string", "not": {"pattern": "^[A-Z]+$"}}}}),
            refuse_invalid,
        )
        .unwrap()
    }

    fn at(path: &str, rule: &'static str) -> Issue {
        Issue {
            path: path.into(),
            rule,
        }
    }

    fn run(check: &Check, text: &str) -> Verdict {
        check.run(text, &raw::parse(text).unwrap())
    }

    #[test]
    fn the_three_verdicts() {
        let check = view(false);
        assert_eq!(run(&check, r#"{"paths": "[preview].png"}"#), Verdict::Clean);
        assert_eq!(run(&check, r#"{"paths":["a", "b"]}"#), Verdict::Clean);
        assert_eq!(
            run(&check, r#"{"tags": "[\"a\"]", "paths":"a"}"#),
            Verdict::Repaired {
                arguments: r#"{"tags": ["a"], "paths":"a"}"#.into(),
                issues: vec![at("tags", "R1")]
            }
        );
        assert_eq!(
            run(
                &check,
                r#"{"paths": "[\"a\"]", "tags": "[\"b\"]", "n": "x"}"#
            ),
            Verdict::Refused {
                messages: format!("paths {TEXT_LIST}"),
                issues: vec![at("paths", "R3")]
            }
        );
    }

    #[test]
    fn what_the_server_judges_is_forwarded_unless_asked() {
        let text = r#"{"n": "1", "code": "ABC", "x": 1e400}"#;
        assert_eq!(run(&view(false), text), Verdict::Clean);
        let Verdict::Refused { messages, issues } = run(&view(true), text) else {
            panic!("not refused")
        };
        // The coercer's issue, then the validator's (`code`'s `not`, a keyword the coercer
        // leaves to it), every one at once.
        assert_eq!(issues, [at("n", "invalid"), at("code", "schema")]);
        assert!(
            messages.starts_with("n: invalid type: string \"1\""),
            "{messages}"
        );
        assert!(
            messages.lines().nth(1).unwrap().starts_with("code: "),
            "{messages}"
        );
        let Verdict::Refused { issues, .. } = run(&view(true), r#"{"code": "ABC"}"#) else {
            panic!("not refused")
        };
        assert_eq!(issues, [at("code", "schema")]);
        assert_eq!(
            run(&view(true), r#"{"n": 1.0, "code": "abc"}"#),
            Verdict::Clean
        );
    }

    #[test]
    fn a_schema_the_coercer_cannot_read_is_an_error() {
        let error = Check::new(
            &json!({"type": "object", "properties": {
            "x": {"$ref": "#/$defs/Missing"}}}),
            false,
        )
        .err()
        .unwrap();
        assert!(error.contains("/properties/x"), "{error}");
    }
}
