//! serde_json's depth limit, defined once (rule R7), and how its refusal is recognised.
//!
//! The walk counts the levels it enters and stops at [`MAX_DEPTH`]. serde_json's parser keeps
//! a budget of the same number, 128, takes one from it for each array or object it opens, and
//! refuses the container that brings it to zero: so [`MAX_OPEN`] = `MAX_DEPTH - 1` containers
//! may be open at once, the outermost included. Everything that must agree with serde_json's
//! parser (the JSON-array check, the plain-text scan, the too-deep path below) counts opens
//! against [`MAX_OPEN`]; the walk counts levels against [`MAX_DEPTH`].

use crate::path::{render_leaf_first, Segment};

/// Nesting deeper than this many levels is refused (rule R7) with an
/// [`IssueKind::TooDeep`](crate::IssueKind::TooDeep) issue, never a stack overflow.
/// serde_json's own parser stops at the same depth.
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
/// let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
/// let err = Note::from_json(&format!(r#"{{"data": {deep}}}"#)).unwrap_err();
/// assert_eq!(err.issues()[0].kind(), IssueKind::TooDeep);
/// ```
pub const MAX_DEPTH: usize = 128;

/// How many arrays or objects serde_json's parser lets be open at once (see the module docs).
pub(crate) const MAX_OPEN: usize = MAX_DEPTH - 1;

/// Whether `e` is serde_json's refusal of text nesting past [`MAX_OPEN`]. serde_json gives
/// that error no code of its own to ask for, so it is recognised here, once, by its text.
#[cold]
pub(crate) fn is_recursion_limit(e: &serde_json::Error) -> bool {
    e.is_syntax() && e.to_string().starts_with("recursion limit exceeded")
}

/// Where text that nests past [`MAX_OPEN`] stops: the dotted path of the container that goes
/// one level too far, found by a scan that keeps only the current path (bounded by the limit)
/// and decodes only the keys on it.
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
                if stack.len() >= MAX_OPEN {
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
