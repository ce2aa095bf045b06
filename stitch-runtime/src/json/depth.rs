//! serde_json's depth limit, defined once (`docs/rules.md#r7`), and its refusal recognised. Every
//! surface counts the arguments' own object as the first container (the walk, the array check,
//! the plain-text scan), so `from_value` refuses exactly what `from_json` does, at the same path.

use crate::path::{render_leaf_first, Segment};

/// At most this many arrays and objects may be open at once, the arguments' own object
/// included: the one more is refused (R7) with an [`IssueKind::TooDeep`](crate::IssueKind::TooDeep)
/// issue at its path, never a stack overflow. serde_json's parser stops at the same container,
/// so every surface gives the same answer.
///
/// ```
/// use stitch_runtime::{IssueKind, ToolArgs, MAX_DEPTH};
///
/// #[derive(Debug, serde::Deserialize, ToolArgs)]
/// struct Note {
///     #[stitch(opaque)]
///     data: serde_json::Value,
/// }
///
/// // The arguments' object and `MAX_DEPTH - 1` arrays: accepted.
/// let arrays = |n| format!(r#"{{"data": {}{}}}"#, "[".repeat(n), "]".repeat(n));
/// assert!(Note::from_json(&arrays(MAX_DEPTH - 1)).is_ok());
/// // One more array: refused, on the text and on the value alike.
/// let err = Note::from_json(&arrays(MAX_DEPTH)).unwrap_err();
/// assert_eq!(err.issues()[0].kind(), IssueKind::TooDeep);
/// let value: serde_json::Value = serde_json::from_str(&arrays(MAX_DEPTH - 1)).unwrap();
/// let mut deeper = value.clone();
/// deeper["data"] = serde_json::json!([value["data"].clone()]);
/// assert_eq!(Note::from_value(deeper).unwrap_err(), err);
/// ```
pub const MAX_DEPTH: usize = 127;

/// Whether `e` is serde_json's refusal of text nesting past [`MAX_DEPTH`]: that error has no
/// code of its own, so it is recognised here, once, by its text.
#[cold]
pub(crate) fn is_recursion_limit(e: &serde_json::Error) -> bool {
    e.is_syntax() && e.to_string().starts_with("recursion limit exceeded")
}

/// The path of the container in `text` that goes one level past [`MAX_DEPTH`].
#[cold]
pub(crate) fn deep_path(text: &str) -> String {
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
                if stack.len() >= MAX_DEPTH {
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
    // An object whose key is not known yet adds no segment.
    render_leaf_first(stack.iter().rev().filter_map(|frame| match frame {
        Frame::Object { key: Some(key), .. } => Some(Segment::Key(key)),
        Frame::Object { key: None, .. } => None,
        Frame::Array(n) => Some(Segment::Index(*n)),
    }))
}
