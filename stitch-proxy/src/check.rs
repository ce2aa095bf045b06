//! The rule itself: each tool's `inputSchema` compiled once into stitch's schema-driven
//! coercer, and what a call's arguments come to.

use serde_json::Value;
use stitch_runtime::json_schema::Coercer;

/// One tool's compiled schema.
pub struct Check {
    coercer: Coercer,
}

/// What the rule says of one call's arguments.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Accepted as they are: the call is forwarded byte for byte.
    Clean,
    /// Accepted once repaired: the call is forwarded with these arguments.
    Repaired(Value),
    /// Refused: stitch's messages, one line per issue.
    Refused(String),
}

impl Check {
    /// Compiles a tool's `inputSchema`; the error says why it cannot be read (the proxy then
    /// forwards that tool's calls unchecked).
    pub fn new(schema: &Value) -> Result<Check, String> {
        Coercer::new(schema)
            .map(|coercer| Check { coercer })
            .map_err(|error| error.to_string())
    }

    /// Runs the rule on a call's arguments.
    pub fn run(&self, arguments: &Value) -> Verdict {
        // The coercer changes the value only to repair it, and leaves it untouched when it
        // refuses; comparing with the value as it came tells a repair from a clean call.
        let mut coerced = arguments.clone();
        match self.coercer.coerce(&mut coerced) {
            Ok(()) if coerced == *arguments => Verdict::Clean,
            Ok(()) => Verdict::Repaired(coerced),
            Err(issues) => Verdict::Refused(issues.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn view() -> Check {
        Check::new(&json!({"type": "object", "properties": {
            "paths": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
            "tags": {"type": "array", "items": {"type": "string"}}}}))
        .unwrap()
    }

    #[test]
    fn the_three_verdicts() {
        let check = view();
        assert_eq!(
            check.run(&json!({"paths": "[preview].png"})),
            Verdict::Clean
        );
        assert_eq!(check.run(&json!({"paths": ["a", "b"]})), Verdict::Clean);
        assert_eq!(
            check.run(&json!({"tags": "[\"a\"]", "paths": "a"})),
            Verdict::Repaired(json!({"tags": ["a"], "paths": "a"}))
        );
        assert_eq!(
            check.run(&json!({"paths": "[\"a\"]", "tags": "[\"b\"]"})),
            Verdict::Refused(
                "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
                    .into()
            )
        );
    }

    #[test]
    fn every_issue_on_its_own_line() {
        let check = Check::new(&json!({"type": "object", "properties": {
            "a": {"type": ["string", "array"], "items": {"type": "string"}},
            "b": {"anyOf": [{"type": "string"}, {"type": "array"}]}}}))
        .unwrap();
        let Verdict::Refused(text) = check.run(&json!({"a": "[\"x\"]", "b": "[1]"})) else {
            panic!("not refused")
        };
        assert_eq!(
            text.lines().collect::<Vec<_>>(),
            [
                "a is a list written as text \u{2014} pass the array itself, not JSON written as text",
                "b is a list written as text \u{2014} pass the array itself, not JSON written as text"
            ]
        );
    }

    #[test]
    fn a_schema_the_coercer_cannot_read_is_an_error() {
        let error = Check::new(&json!({"type": "object", "properties": {
            "x": {"$ref": "#/$defs/Missing"}}}))
        .err()
        .unwrap();
        assert!(error.contains("/properties/x"), "{error}");
    }
}
