//! The dotted path of a position in the arguments (`rows.0.names`).
//!
//! A [`Path`] is a chain of borrowed segments that lives on the stack while the walk goes down;
//! nothing is allocated until an issue is reported and the path is rendered with
//! [`Path::render`].

use core::fmt;

/// A position in the arguments, as a chain of segments back to the root.
///
/// Segments are field names as the caller sent them (a `&'static str` from the derive),
/// array indices, and map keys. The root renders as the empty string.
#[derive(Clone, Copy)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Segment<'a>,
}

#[derive(Clone, Copy)]
enum Segment<'a> {
    Root,
    Field(&'static str),
    Key(&'a str),
    Index(usize),
}

impl<'a> Path<'a> {
    /// The root: the arguments object itself.
    pub const ROOT: Path<'static> = Path {
        parent: None,
        segment: Segment::Root,
    };

    /// The field `name` (a static wire name, as the derive emits) below this position.
    #[inline]
    pub const fn field(&'a self, name: &'static str) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Field(name),
        }
    }

    /// The map key `key` below this position.
    #[inline]
    pub const fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Key(key),
        }
    }

    /// The array index `index` below this position.
    #[inline]
    pub const fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Segment::Index(index),
        }
    }

    /// Whether this is the root.
    pub const fn is_root(&self) -> bool {
        matches!(self.segment, Segment::Root)
    }

    /// The dotted form: segments joined with `.`, indices in decimal, the root as `""`.
    pub fn render(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Rendering happens only when an issue is reported, so collecting the chain is fine.
        let mut chain = Vec::new();
        let mut node = Some(self);
        while let Some(p) = node {
            if !matches!(p.segment, Segment::Root) {
                chain.push(p.segment);
            }
            node = p.parent;
        }
        for (n, segment) in chain.iter().rev().enumerate() {
            if n > 0 {
                f.write_str(".")?;
            }
            match *segment {
                Segment::Root => {}
                Segment::Field(name) => f.write_str(name)?,
                Segment::Key(key) => f.write_str(key)?,
                Segment::Index(i) => write!(f, "{i}")?,
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Path({:?})", self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_dotted() {
        let root = Path::ROOT;
        assert_eq!(root.render(), "");
        let rows = root.field("rows");
        let zero = rows.index(0);
        let names = zero.field("names");
        assert_eq!(names.render(), "rows.0.names");
        let key = root.field("files");
        let readme = key.key("readme");
        assert_eq!(readme.key("tags").render(), "files.readme.tags");
    }
}
