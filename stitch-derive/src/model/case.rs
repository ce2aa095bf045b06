//! serde's `rename_all` rules, with serde's exact algorithm (quirks included).
//!
//! Variants are assumed PascalCase and fields snake_case, as serde assumes: so `HTTPServer`
//! becomes `h_t_t_p_server` under `snake_case`, and a field `myField` stays `myField` under
//! `kebab-case`. `heck` gives other answers, which is why it is not used.

use self::RenameRule::*;

/// One of serde's eight case rules, or none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    /// Names as written in Rust.
    None,
    /// `lowercase`
    LowerCase,
    /// `UPPERCASE`
    UpperCase,
    /// `PascalCase`
    PascalCase,
    /// `camelCase`
    CamelCase,
    /// `snake_case`
    SnakeCase,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnakeCase,
    /// `kebab-case`
    KebabCase,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebabCase,
}

/// The spellings serde accepts in `rename_all = "…"`.
pub const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", LowerCase),
    ("UPPERCASE", UpperCase),
    ("PascalCase", PascalCase),
    ("camelCase", CamelCase),
    ("snake_case", SnakeCase),
    ("SCREAMING_SNAKE_CASE", ScreamingSnakeCase),
    ("kebab-case", KebabCase),
    ("SCREAMING-KEBAB-CASE", ScreamingKebabCase),
];

impl RenameRule {
    /// The rule spelled `name`, if serde knows it.
    pub fn from_str(name: &str) -> Option<RenameRule> {
        RULES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, rule)| *rule)
    }

    /// The wire name of a variant named `variant` in Rust.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            None | PascalCase => variant.to_owned(),
            LowerCase => variant.to_ascii_lowercase(),
            UpperCase => variant.to_ascii_uppercase(),
            CamelCase => lower_first(variant),
            SnakeCase => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            ScreamingSnakeCase => SnakeCase.apply_to_variant(variant).to_ascii_uppercase(),
            KebabCase => SnakeCase.apply_to_variant(variant).replace('_', "-"),
            ScreamingKebabCase => ScreamingSnakeCase
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }

    /// The wire name of a field named `field` in Rust (after `r#` is removed).
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            None | LowerCase | SnakeCase => field.to_owned(),
            UpperCase | ScreamingSnakeCase => field.to_ascii_uppercase(),
            PascalCase => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            CamelCase => lower_first(&PascalCase.apply_to_field(field)),
            KebabCase => field.replace('_', "-"),
            ScreamingKebabCase => ScreamingSnakeCase.apply_to_field(field).replace('_', "-"),
        }
    }
}

/// The first character lowercased (ASCII only, as serde does), the rest unchanged.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => {
            let mut out = String::with_capacity(s.len());
            out.push(first.to_ascii_lowercase());
            out.push_str(chars.as_str());
            out
        }
        Option::None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants() {
        let cases: &[(&str, [&str; 8])] = &[
            (
                "Outcome",
                [
                    "outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome",
                    "OUTCOME",
                ],
            ),
            (
                "VeryTasty",
                [
                    "verytasty",
                    "VERYTASTY",
                    "VeryTasty",
                    "veryTasty",
                    "very_tasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("A", ["a", "A", "A", "a", "a", "A", "a", "A"]),
            (
                "HTTPServer",
                [
                    "httpserver",
                    "HTTPSERVER",
                    "HTTPServer",
                    "hTTPServer",
                    "h_t_t_p_server",
                    "H_T_T_P_SERVER",
                    "h-t-t-p-server",
                    "H-T-T-P-SERVER",
                ],
            ),
        ];
        for (original, expected) in cases {
            for ((_, rule), want) in RULES.iter().zip(expected) {
                assert_eq!(
                    rule.apply_to_variant(original),
                    *want,
                    "{rule:?} {original}"
                );
            }
            assert_eq!(None.apply_to_variant(original), *original);
        }
    }

    #[test]
    fn fields() {
        let cases: &[(&str, [&str; 8])] = &[
            (
                "outcome",
                [
                    "outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome",
                    "OUTCOME",
                ],
            ),
            (
                "very_tasty",
                [
                    "very_tasty",
                    "VERY_TASTY",
                    "VeryTasty",
                    "veryTasty",
                    "very_tasty",
                    "VERY_TASTY",
                    "very-tasty",
                    "VERY-TASTY",
                ],
            ),
            ("a", ["a", "A", "A", "a", "a", "A", "a", "A"]),
            (
                "z42",
                ["z42", "Z42", "Z42", "z42", "z42", "Z42", "z42", "Z42"],
            ),
            (
                "myField",
                [
                    "myField", "MYFIELD", "MyField", "myField", "myField", "MYFIELD", "myField",
                    "MYFIELD",
                ],
            ),
        ];
        for (original, expected) in cases {
            for ((_, rule), want) in RULES.iter().zip(expected) {
                assert_eq!(rule.apply_to_field(original), *want, "{rule:?} {original}");
            }
        }
    }

    #[test]
    fn spellings() {
        assert_eq!(RenameRule::from_str("kebab-case"), Some(KebabCase));
        assert_eq!(RenameRule::from_str("Kebab-Case"), Option::None);
    }
}
