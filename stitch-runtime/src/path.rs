//! The dotted path of a position (`rows.0.names`, `docs/rules.md#r5`) and its one renderer,
//! [`render_leaf_first`]. A [`Path`] lives on the stack as the walk descends; nothing is
//! allocated until an issue renders it.

use core::fmt;

/// One segment of a path: a key as the caller sent it, or an array index.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Segment<'a> {
    Key(&'a str),
    /// A declared field: its ordinal sorts issues in the type's field order, not the map's.
    Field(&'a str, u32),
    Index(usize),
}

/// Segments come leaf first (a chain of parents reads so), so the one exact-length buffer is
/// filled from its end. A key holding `.` or `[`, or empty, is bracketed: `labels["team.name"]`.
pub(crate) fn render_leaf_first<'a, I>(segments: I) -> String
where
    I: Iterator<Item = Segment<'a>> + Clone,
{
    if segments.clone().any(|s| s.quoted()) {
        return render_quoted(segments);
    }
    let mut digits = [0u8; 20];
    let mut len = 0usize;
    let mut count = 0usize;
    for segment in segments.clone() {
        len += segment.text(&mut digits).len();
        count += 1;
    }
    len += count.saturating_sub(1);
    let mut out = vec![0u8; len];
    let mut end = len;
    for (n, segment) in segments.enumerate() {
        if n > 0 {
            end -= 1;
            out[end] = b'.';
        }
        let text = segment.text(&mut digits).as_bytes();
        out[end - text.len()..end].copy_from_slice(text);
        end -= text.len();
    }
    String::from_utf8(out).unwrap_or_default()
}

/// The rare bracketed case, simply built root first.
#[cold]
fn render_quoted<'a, I>(segments: I) -> String
where
    I: Iterator<Item = Segment<'a>>,
{
    let mut root_first: Vec<Segment<'a>> = segments.collect();
    root_first.reverse();
    let mut digits = [0u8; 20];
    let mut out = String::new();
    for (n, segment) in root_first.into_iter().enumerate() {
        if segment.quoted() {
            out.push('[');
            out.push_str(&serde_json::Value::from(segment.text(&mut digits)).to_string());
            out.push(']');
        } else {
            if n > 0 {
                out.push('.');
            }
            out.push_str(segment.text(&mut digits));
        }
    }
    out
}

impl<'a> Segment<'a> {
    fn quoted(self) -> bool {
        match self {
            Segment::Key(key) | Segment::Field(key, _) => {
                key.is_empty() || key.bytes().any(|b| b == b'.' || b == b'[')
            }
            Segment::Index(_) => false,
        }
    }

    fn text<'b>(self, digits: &'b mut [u8; 20]) -> &'b str
    where
        'a: 'b,
    {
        match self {
            Segment::Key(key) | Segment::Field(key, _) => key,
            Segment::Index(i) => format_decimal(i, digits),
        }
    }
}

/// Where an issue sorts ([`Path::order`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Order {
    segments: [u64; Order::DEPTH],
    len: usize,
}

impl Order {
    pub(crate) const DEPTH: usize = 8;
}

/// A position in the arguments, as a chain of segments back to the root (which renders `""`).
#[derive(Clone, Copy)]
pub struct Path<'a> {
    parent: Option<&'a Path<'a>>,
    segment: Option<Segment<'a>>,
}

impl<'a> Path<'a> {
    /// The root: the arguments object itself.
    pub const ROOT: Path<'static> = Path {
        parent: None,
        segment: None,
    };

    /// The field `name` below; `ordinal` is its place among the type's declared fields.
    #[inline]
    pub const fn field(&'a self, name: &'static str, ordinal: u32) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Some(Segment::Field(name, ordinal)),
        }
    }

    /// [`Path::field`] for a name that is not `'static`.
    pub(crate) const fn declared(&'a self, name: &'a str, ordinal: u32) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Some(Segment::Field(name, ordinal)),
        }
    }

    /// The map key `key` below this position.
    #[inline]
    pub const fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Some(Segment::Key(key)),
        }
    }

    /// The array index `index` below this position.
    #[inline]
    pub const fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            segment: Some(Segment::Index(index)),
        }
    }

    /// Whether this is the root.
    pub const fn is_root(&self) -> bool {
        self.segment.is_none()
    }

    /// The dotted form.
    pub fn render(&self) -> String {
        render_leaf_first(self.segments())
    }

    /// Root first: a field by ordinal, an index by value, other keys after every field. Only
    /// the first [`Order::DEPTH`] segments decide; the sort is stable, so ties keep walk order.
    pub(crate) fn order(&self) -> Order {
        let mut all = [0u64; 128];
        let mut n = 0;
        for s in self.segments() {
            if n == all.len() {
                break;
            }
            all[n] = match s {
                Segment::Field(_, ordinal) => u64::from(ordinal),
                Segment::Index(i) => i as u64,
                Segment::Key(_) => u64::MAX,
            };
            n += 1;
        }
        let mut order = Order {
            segments: [0; Order::DEPTH],
            len: 0,
        };
        for (slot, v) in order.segments.iter_mut().zip(all[..n].iter().rev()) {
            *slot = *v;
            order.len += 1;
        }
        order
    }

    pub(crate) fn segments(&self) -> impl Iterator<Item = Segment<'a>> + Clone + '_ {
        let mut node = Some(self);
        core::iter::from_fn(move || {
            let p = node?;
            node = p.parent;
            Some(p.segment)
        })
        .flatten()
    }
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

    fn order(path: &Path<'_>) -> Vec<u64> {
        let order = path.order();
        order.segments[..order.len].to_vec()
    }

    #[test]
    fn renders_dotted() {
        let root = Path::ROOT;
        assert_eq!(root.render(), "");
        let rows = root.field("rows", 0);
        let zero = rows.index(0);
        let names = zero.field("names", 1);
        assert_eq!(names.render(), "rows.0.names");
        assert_eq!(order(&names), [0, 0, 1]);
        let key = root.field("files", 2);
        let readme = key.key("readme");
        assert_eq!(readme.key("tags").render(), "files.readme.tags");
        let deep = readme.index(1234567890);
        assert_eq!(deep.render(), "files.readme.1234567890");
        assert_eq!(order(&deep), [2, u64::MAX, 1234567890]);
    }

    #[test]
    fn renders_owned_segments_leaf_first() {
        let segments = [Segment::Index(10), Segment::Key("rows")];
        assert_eq!(render_leaf_first(segments.into_iter()), "rows.10");
        assert_eq!(render_leaf_first(core::iter::empty()), "");
    }

    #[test]
    fn keys_a_dot_would_make_ambiguous_are_written_in_brackets() {
        let root = Path::ROOT;
        let labels = root.field("labels", 0);
        let team = labels.key("team.name");
        assert_eq!(team.render(), r#"labels["team.name"]"#);
        assert_eq!(team.key("owner").render(), r#"labels["team.name"].owner"#);
        assert_eq!(team.index(2).render(), r#"labels["team.name"].2"#);
        assert_eq!(labels.key("team").key("name").render(), "labels.team.name");
        assert_eq!(root.key("").render(), r#"[""]"#);
        assert_eq!(root.key("a.b").key("").render(), r#"["a.b"][""]"#);
        assert_eq!(labels.key("[x]").render(), r#"labels["[x]"]"#);
        assert_eq!(
            labels.key("say \"a.b\"").render(),
            r#"labels["say \"a.b\""]"#
        );
        let segments = [Segment::Key("x"), Segment::Key("a.b"), Segment::Index(1)];
        assert_eq!(render_leaf_first(segments.into_iter()), r#"1["a.b"].x"#);
    }
}
