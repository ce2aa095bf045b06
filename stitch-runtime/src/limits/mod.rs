//! Value constraints (`#[stitch(minimum = …, max_length = …, pattern = "…")]`) and the check
//! of one value against them (`docs/rules.md#constraints`). The derive's walk and the
//! schema-driven coercer both ask [`Limits::broken`], so they word every refusal alike; a
//! value of the wrong kind is the type's to report, never this module's.

use core::fmt;
use serde_json::{Number, Value};

mod multiple;
mod pattern;

pub use self::pattern::Pattern;
#[cfg(feature = "pattern")]
pub use self::pattern::{compile_once, PatternMatcher};

/// The keywords the walk checks, in the order a value is judged (`format` is advertised only).
pub(crate) const KEYWORDS: [&str; 8] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
];

/// A bound on a number: an integer, read exactly, or any other number with its text as
/// written, for the schema.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// An integer.
    Int(i128),
    /// Any other finite number, with its text as written in the attribute (empty when read
    /// from a schema: then shown as JSON writes it).
    Float(f64, &'static str),
}

impl Num {
    /// The number as an `f64` (exact for integers up to 2^53).
    pub const fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f, _) => f,
        }
    }

    /// JSON Schema's reading: an integer when it is one.
    pub(crate) fn from_f64(f: f64) -> Option<Num> {
        if !f.is_finite() {
            return None;
        }
        if f.fract() == 0.0 && f.abs() < 1e38 {
            return Some(Num::Int(f as i128));
        }
        Some(Num::Float(f, ""))
    }

    /// An integer when JSON Schema counts it one (`1.0` is); `None` when not finite.
    pub(crate) fn from_json(n: &Number) -> Option<Num> {
        if let Some(i) = n.as_i64() {
            return Some(Num::Int(i128::from(i)));
        }
        if let Some(u) = n.as_u64() {
            return Some(Num::Int(i128::from(u)));
        }
        Num::from_f64(n.as_f64()?)
    }

    /// A schema's bound: an integer only when JSON wrote one, so `1.0` shows as `1.0`, as the
    /// derive shows its literal; `None` when not finite.
    #[cfg(feature = "json-schema")]
    pub(crate) fn from_schema(n: &Number) -> Option<Num> {
        if let Some(i) = n.as_i64() {
            return Some(Num::Int(i128::from(i)));
        }
        if let Some(u) = n.as_u64() {
            return Some(Num::Int(i128::from(u)));
        }
        n.as_f64()
            .filter(|f| f.is_finite())
            .map(|f| Num::Float(f, ""))
    }

    /// `multipleOf` must be.
    #[cfg(feature = "json-schema")]
    pub(crate) fn is_positive(self) -> bool {
        match self {
            Num::Int(i) => i > 0,
            Num::Float(f, _) => f > 0.0,
        }
    }

    /// Exact when both are integers.
    fn cmp(self, other: Num) -> core::cmp::Ordering {
        match (self, other) {
            (Num::Int(a), Num::Int(b)) => a.cmp(&b),
            (a, b) => a
                .as_f64()
                .partial_cmp(&b.as_f64())
                .unwrap_or(core::cmp::Ordering::Equal),
        }
    }

    /// `step` is above zero.
    fn is_multiple_of(self, step: Num) -> bool {
        match (self, step) {
            (Num::Int(a), Num::Int(b)) => b != 0 && a % b == 0,
            (a, b) => multiple::is_multiple(a.as_f64(), b.as_f64()),
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(_, text) if !text.is_empty() => f.write_str(text),
            // As serde_json writes it, which is how the schema held it.
            Num::Float(x, _) => match Number::from_f64(*x) {
                Some(n) => write!(f, "{n}"),
                None => write!(f, "{x}"),
            },
        }
    }
}

/// The constraints of one field on each number or string it holds (each item of a list, each
/// value of a map). Every part is optional; [`Limits::NONE`] has none.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// `minimum`: the value is at least this.
    pub minimum: Option<Num>,
    /// `maximum`: the value is at most this.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum`: the value is above this.
    pub exclusive_minimum: Option<Num>,
    /// `exclusiveMaximum`: the value is below this.
    pub exclusive_maximum: Option<Num>,
    /// `multipleOf`: the value divided by this is a whole number.
    pub multiple_of: Option<Num>,
    /// `minLength`, in Unicode code points (as JSON Schema counts).
    pub min_length: Option<usize>,
    /// `maxLength`, in Unicode code points.
    pub max_length: Option<usize>,
    /// `pattern`.
    pub pattern: Option<Pattern>,
    /// `format` (`email`, `uuid`, …): advertised in the schema, never checked
    /// (`docs/rules.md#constraints`).
    pub format: Option<&'static str>,
}

impl Limits {
    /// No constraint.
    pub const NONE: Limits = Limits {
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        multiple_of: None,
        min_length: None,
        max_length: None,
        pattern: None,
        format: None,
    };

    /// Whether any number constraint is set.
    pub const fn on_numbers(&self) -> bool {
        self.minimum.is_some()
            || self.maximum.is_some()
            || self.exclusive_minimum.is_some()
            || self.exclusive_maximum.is_some()
            || self.multiple_of.is_some()
    }

    /// Whether any string constraint is set.
    pub const fn on_strings(&self) -> bool {
        self.min_length.is_some() || self.max_length.is_some() || self.pattern.is_some()
    }

    pub(crate) fn number_holds(&self, n: Num) -> bool {
        !self.on_numbers() || self.broken_number(n).is_none()
    }

    pub(crate) fn text_holds(&self, s: &str) -> bool {
        !self.on_strings() || self.broken_string(s).is_none()
    }

    /// The first constraint `value` breaks, in the order of the fields above; `None` when it
    /// keeps them all or is neither a number nor a string.
    pub fn broken<'v>(&'v self, value: &'v Value) -> Option<Broken<'v>> {
        match value {
            Value::Number(sent) if self.on_numbers() => {
                let n = Num::from_json(sent)?;
                self.broken_number(n).map(|(why, bound)| Broken::Number {
                    value: sent,
                    why,
                    bound,
                })
            }
            Value::String(s) if self.on_strings() => self.broken_string(s),
            _ => None,
        }
    }

    fn broken_number(&self, n: Num) -> Option<(NumberRule, Num)> {
        use core::cmp::Ordering::{Greater, Less};
        if let Some(min) = self.minimum {
            if n.cmp(min) == Less {
                return Some((NumberRule::Minimum, min));
            }
        }
        if let Some(max) = self.maximum {
            if n.cmp(max) == Greater {
                return Some((NumberRule::Maximum, max));
            }
        }
        if let Some(min) = self.exclusive_minimum {
            if n.cmp(min) != Greater {
                return Some((NumberRule::ExclusiveMinimum, min));
            }
        }
        if let Some(max) = self.exclusive_maximum {
            if n.cmp(max) != Less {
                return Some((NumberRule::ExclusiveMaximum, max));
            }
        }
        if let Some(step) = self.multiple_of {
            if !n.is_multiple_of(step) {
                return Some((NumberRule::MultipleOf, step));
            }
        }
        None
    }

    fn broken_string<'v>(&'v self, s: &'v str) -> Option<Broken<'v>> {
        if self.min_length.is_some() || self.max_length.is_some() {
            let len = s.chars().count();
            if let Some(min) = self.min_length.filter(|&min| len < min) {
                return Some(Broken::Length {
                    text: s,
                    len,
                    min: true,
                    bound: min,
                });
            }
            if let Some(max) = self.max_length.filter(|&max| len > max) {
                return Some(Broken::Length {
                    text: s,
                    len,
                    min: false,
                    bound: max,
                });
            }
        }
        match &self.pattern {
            Some(pattern) if !pattern.is_match(s) => Some(Broken::Pattern {
                text: s,
                source: pattern.source(),
            }),
            _ => None,
        }
    }
}

/// A schema pattern's refusal, worded as [`Limits::broken`] words the derive's.
#[cfg(feature = "json-schema")]
pub(crate) fn pattern_broken<'v>(text: &'v str, source: &'v str) -> Broken<'v> {
    Broken::Pattern { text, source }
}

/// Which number constraint a value breaks.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum NumberRule {
    Minimum,
    Maximum,
    ExclusiveMinimum,
    ExclusiveMaximum,
    MultipleOf,
}

/// A constraint a value breaks; its `Display` is the reason an issue gives
/// (`0 is less than the minimum of 1`).
#[derive(Debug)]
pub enum Broken<'v> {
    /// A number out of range, or not a multiple.
    #[doc(hidden)]
    Number {
        value: &'v Number,
        why: NumberRule,
        bound: Num,
    },
    /// A string too short (`min`) or too long.
    #[doc(hidden)]
    Length {
        text: &'v str,
        len: usize,
        min: bool,
        bound: usize,
    },
    /// A string the pattern does not match.
    #[doc(hidden)]
    Pattern { text: &'v str, source: &'v str },
}

/// Longer strings are named by their length in a message, not quoted.
const QUOTED: usize = 40;

struct Shown<'v>(&'v str, usize);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.1 <= QUOTED {
            match serde_json::to_string(self.0) {
                Ok(quoted) => f.write_str(&quoted),
                Err(_) => f.write_str("the string"),
            }
        } else {
            write!(f, "a string of {} characters", self.1)
        }
    }
}

impl fmt::Display for Broken<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Broken::Number { value, why, bound } => match why {
                NumberRule::Minimum => write!(f, "{value} is less than the minimum of {bound}"),
                NumberRule::Maximum => write!(f, "{value} is greater than the maximum of {bound}"),
                NumberRule::ExclusiveMinimum => write!(
                    f,
                    "{value} is not greater than the exclusive minimum of {bound}"
                ),
                NumberRule::ExclusiveMaximum => {
                    write!(
                        f,
                        "{value} is not less than the exclusive maximum of {bound}"
                    )
                }
                NumberRule::MultipleOf => write!(f, "{value} is not a multiple of {bound}"),
            },
            Broken::Length {
                text,
                len,
                min,
                bound,
            } => {
                let shown = Shown(text, *len);
                let (word, side) = if *min {
                    ("shorter", "minimum")
                } else {
                    ("longer", "maximum")
                };
                let unit = if *bound == 1 {
                    "character"
                } else {
                    "characters"
                };
                write!(
                    f,
                    "{shown} is {word} than the {side} length of {bound} {unit}"
                )
            }
            Broken::Pattern { text, source } => {
                let shown = Shown(text, text.chars().count());
                write!(f, "{shown} does not match the pattern `{source}`")
            }
        }
    }
}

#[cfg(test)]
mod tests;
