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
    /// One allocation, of the exact length.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(self.rendered_len());
        self.write_to(&mut out);
        out
    }

    fn rendered_len(&self) -> usize {
        let mut len = 0usize;
        let mut segments = 0usize;
        let mut node = Some(self);
        while let Some(p) = node {
            len += match p.segment {
                Segment::Root => 0,
                Segment::Field(name) => name.len(),
                Segment::Key(key) => key.len(),
                Segment::Index(i) => decimal_len(i),
            };
            if !matches!(p.segment, Segment::Root) {
                segments += 1;
            }
            node = p.parent;
        }
        len + segments.saturating_sub(1)
    }

    /// Writes parents first; `true` when a segment was written. Recursion depth is the
    /// path's length, which the walk bounds.
    fn write_to(&self, out: &mut String) -> bool {
        let wrote_parent = self.parent.is_some_and(|p| p.write_to(out));
        let mut digits = [0u8; 20];
        let text = match self.segment {
            Segment::Root => return wrote_parent,
            Segment::Field(name) => name,
            Segment::Key(key) => key,
            Segment::Index(i) => format_decimal(i, &mut digits),
        };
        if wrote_parent {
            out.push('.');
        }
        out.push_str(text);
        true
    }
}

fn decimal_len(mut i: usize) -> usize {
    let mut n = 1;
    while i >= 10 {
        i /= 10;
        n += 1;
    }
    n
}

fn format_decimal(mut i: usize, buf: &mut [u8; 20]) -> &str {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (i % 10) as u8;
        i /= 10;
        if i == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    core::str::from_utf8(&buf[at..]).unwrap_or_default()
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
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
