//! The reader's error: serde's message and the path to it, built only as the error travels
//! back up.

use core::fmt;

use serde::de::{self, Unexpected};
use serde_json::Number;

use crate::path::{render_leaf_first, Segment as PathSegment};

/// A deserialization failure and where it happened. Boxed, as serde_json's is, to keep every
/// `Result` of the read small.
#[derive(Debug)]
pub(crate) struct Error(Box<Failure>);

#[derive(Debug)]
struct Failure {
    /// From the failure up to the root.
    rev_path: Vec<Segment>,
    message: String,
}

#[derive(Debug)]
pub(super) enum Segment {
    Key(String),
    Index(usize),
}

impl Error {
    #[cold]
    pub(super) fn at(mut self, segment: Segment) -> Error {
        self.0.rev_path.push(segment);
        self
    }

    /// The dotted path (R5) and the message.
    pub(crate) fn into_parts(self) -> (String, String) {
        let Failure { rev_path, message } = *self.0;
        let path = render_leaf_first(rev_path.iter().map(|segment| match segment {
            Segment::Key(key) => PathSegment::Key(key),
            Segment::Index(i) => PathSegment::Index(*i),
        }));
        (path, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Error {}

impl de::Error for Error {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Error {
        Error(Box::new(Failure {
            rev_path: Vec::new(),
            message: msg.to_string(),
        }))
    }

    // As serde_json words them: `null` for a unit, floats as JSON prints them.
    #[cold]
    fn invalid_type(unexp: Unexpected, exp: &dyn de::Expected) -> Error {
        de::Error::custom(format_args!(
            "invalid type: {}, expected {exp}",
            JsonUnexpected(unexp)
        ))
    }

    #[cold]
    fn invalid_value(unexp: Unexpected, exp: &dyn de::Expected) -> Error {
        de::Error::custom(format_args!(
            "invalid value: {}, expected {exp}",
            JsonUnexpected(unexp)
        ))
    }
}

struct JsonUnexpected<'a>(Unexpected<'a>);

impl fmt::Display for JsonUnexpected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Unexpected::Unit => f.write_str("null"),
            Unexpected::Float(value) => match Number::from_f64(value) {
                Some(n) => write!(f, "floating point `{n}`"),
                None => write!(f, "floating point `{value}`"),
            },
            other => write!(f, "{other}"),
        }
    }
}
