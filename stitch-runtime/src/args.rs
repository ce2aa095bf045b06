//! The [`ToolArgs`] trait: the three surfaces a tool's arguments arrive through.

use serde_json::Value;

use crate::coerce::{dispose, run, Coerce};
use crate::error::{ArgsError, Issue};

/// A tool's argument type: `#[derive(ToolArgs)]` implements it.
///
/// All three methods are provided; the derive supplies the walk through [`Coerce`].
///
/// ```
/// use stitch_runtime::{OneOrMany, ToolArgs};
///
/// /// Show one or more images to the model.
/// #[derive(Debug, serde::Deserialize, ToolArgs)]
/// struct ViewFile {
///     /// One path or a list of paths.
///     #[stitch(max_items = 20)]
///     paths: OneOrMany<String>,
/// }
///
/// let err = ViewFile::from_value(serde_json::json!({"paths": "[\"a.png\"]"})).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "paths is a list written as text \u{2014} pass the array itself, not JSON written as text"
/// );
///
/// let ok = ViewFile::from_json(r#"{"paths": "[preview].png"}"#).unwrap();
/// assert_eq!(ok.paths, OneOrMany::One("[preview].png".to_string()));
/// ```
pub trait ToolArgs: Coerce {
    /// The input schema as JSON text, rendered during compilation: a JSON Schema (2020-12)
    /// object with `properties` by serde's wire names and `required` as serde requires.
    ///
    /// It is evaluated only where it is named, so a build that does not use it does not pay
    /// for it; where it is named, the text sits in a buffer of
    /// [`MAX_SCHEMA_TEXT`](crate::schema::MAX_SCHEMA_TEXT) bytes in the binary. A longer
    /// schema is a compile error pointing to [`ToolArgs::input_schema`], which builds any
    /// schema once at run time.
    const INPUT_SCHEMA: &'static str = <Self as crate::schema::SchemaText>::TEXT;

    /// The input schema as a value (built once, then shared).
    fn input_schema() -> &'static Value {
        crate::schema::cached::<Self>()
    }

    /// The raw surface: applies the rules to `args` in place and deserializes nothing.
    ///
    /// On `Ok`, JSON text at structured positions has been replaced by what it parses to;
    /// nothing else changed and no key was added, dropped or reordered. On `Err`, `args` is
    /// exactly as it was.
    #[inline]
    fn coerce_value(args: &mut Value) -> Result<(), ArgsError> {
        run::<Self>(args).map_err(|(error, _)| error)
    }

    /// The typed surface: coerces `args`, then deserializes it. A deserialization failure is
    /// one [`IssueKind::Invalid`](crate::IssueKind::Invalid) issue naming its path.
    #[inline]
    fn from_value(mut args: Value) -> Result<Self, ArgsError> {
        if let Err((error, too_deep)) = run::<Self>(&mut args) {
            if too_deep {
                // serde_json drops a `Value` recursively; a deep one would overflow the stack.
                dispose(args);
            }
            return Err(error);
        }
        deserialize(args)
    }

    /// The command-line surface: flags by wire name or kebab-case, one item per repeated
    /// flag, values parsed as the field's type decides (see [`crate::cli`]). `name` is the
    /// command's name, for `--help`.
    fn from_argv<I, S>(name: &str, args: I) -> Result<Self, ArgsError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        crate::cli::from_argv::<Self, I, S>(name, args)
    }

    /// The same from the arguments' JSON text, as a model's tool call carries it.
    #[inline]
    fn from_json(text: &str) -> Result<Self, ArgsError> {
        // Text in which no rule could act goes straight to serde_json (see `fast`).
        if crate::fast::plain(text) {
            if let Ok(args) = serde_json::from_str::<Self>(text) {
                if args.bounds_hold(crate::Bounds::NONE) {
                    return Ok(args);
                }
            }
        }
        let args = serde_json::from_str::<Value>(text).map_err(|e| {
            let issue = if e.to_string().starts_with("recursion limit exceeded") {
                Issue::too_deep(deep_path(text), crate::coerce::MAX_DEPTH)
            } else {
                Issue::invalid("", format_args!("the arguments are not valid JSON: {e}"))
            };
            ArgsError::single(issue)
        })?;
        Self::from_value(args)
    }
}

fn deserialize<T: Coerce>(args: Value) -> Result<T, ArgsError> {
    match crate::de::from_value(args) {
        Ok(args) => Ok(args),
        Err(e) => Err(invalid(e)),
    }
}

#[cold]
fn invalid(e: crate::de::Error) -> ArgsError {
    let (path, message) = e.into_parts();
    ArgsError::single(Issue::invalid(path, message))
}

/// Where text that nests too deep for serde_json's parser (127 open arrays and objects) stops:
/// the dotted path of the container that goes one level too far, found by a scan that keeps
/// only the current path (bounded by the limit) and decodes only the keys on it.
fn deep_path(text: &str) -> String {
    enum Frame {
        Object {
            key: Option<String>,
            expect_key: bool,
        },
        Array(usize),
    }
    let b = text.as_bytes();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Frame::Object { key, expect_key }) = stack.last_mut() {
                    if *expect_key {
                        let token = text.get(start..=i.min(b.len() - 1)).unwrap_or("");
                        *key = serde_json::from_str::<String>(token).ok();
                        *expect_key = false;
                    }
                }
            }
            b'[' | b'{' => {
                if stack.len() >= 127 {
                    break;
                }
                stack.push(if b[i] == b'[' {
                    Frame::Array(0)
                } else {
                    Frame::Object {
                        key: None,
                        expect_key: true,
                    }
                });
            }
            b']' | b'}' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array(n)) => *n += 1,
                Some(Frame::Object { expect_key, .. }) => *expect_key = true,
                None => {}
            },
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for frame in &stack {
        let segment = match frame {
            Frame::Object { key: Some(key), .. } => key.clone(),
            Frame::Object { key: None, .. } => continue,
            Frame::Array(n) => n.to_string(),
        };
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(&segment);
    }
    path
}
