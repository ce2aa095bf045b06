//! The walk: the [`Coerce`] trait that every argument type implements, and the [`Cx`] it
//! carries down the arguments.
//!
//! Each position in an argument type knows its own rule (see the crate docs, R1–R7). The derive
//! implements [`Coerce`] for structs and enums; this module implements it for the standard
//! types. A call is walked twice at most: a *check* pass that reads and collects issues but
//! changes nothing, then, only when the check found JSON text to repair and no issue, an *apply*
//! pass that writes the repairs. So a refused call leaves the caller's value exactly as it was,
//! and a well-formed call is read once and allocates nothing.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::error::{ArgsError, Issue, MAX_ISSUES};
use crate::path::Path;
use crate::schema::Describe;
use crate::text_list::Bounds;

/// Nesting deeper than this many levels is refused (rule R7); serde_json's own parser stops at
/// about the same depth.
pub const MAX_DEPTH: usize = 128;

/// What a type accepts at its position, as far as the walk needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The kind of position.
    pub kind: Kind,
    /// A JSON string is a valid value here: a string-like type, or a union with a string-like
    /// member (a *string-bearing* union).
    pub strings: bool,
    /// A JSON array is a valid value here.
    pub arrays: bool,
    /// A JSON object is a valid value here.
    pub objects: bool,
}

impl Shape {
    /// `String`, `PathBuf`, `char`, unit-variant enums and newtypes of these.
    pub const STRING_LIKE: Shape = Shape::new(Kind::StringLike, true, false, false);
    /// Numbers, `bool`, `()`.
    pub const SCALAR: Shape = Shape::new(Kind::Scalar, false, false, false);
    /// `Vec<T>` and the other sequences: an array member of a union.
    pub const SEQUENCE: Shape = Shape::new(Kind::Sequence, false, true, false);
    /// A struct deriving `ToolArgs`.
    pub const OBJECT: Shape = Shape::new(Kind::Object, false, false, true);
    /// `HashMap<String, T>` and the like.
    pub const MAP: Shape = Shape::new(Kind::Map, false, false, true);
    /// A tuple, read from an array; not an array member.
    pub const TUPLE: Shape = Shape::new(Kind::Tuple, false, true, false);
    /// `serde_json::Value`: never touched.
    pub const ANY: Shape = Shape::new(Kind::Any, true, true, true);

    /// A shape from its parts.
    pub const fn new(kind: Kind, strings: bool, arrays: bool, objects: bool) -> Shape {
        Shape {
            kind,
            strings,
            arrays,
            objects,
        }
    }

    /// The shape of a union of members with these shapes.
    pub const fn union(self, other: Shape) -> Shape {
        Shape {
            kind: Kind::Union,
            strings: self.strings || other.strings,
            arrays: self.arrays || other.arrays,
            objects: self.objects || other.objects,
        }
    }
}

/// The kinds of position of `coercion-rules.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// Read from a string. The walk of a string-like type does nothing to a value that is not
    /// an array or an object (callers may skip it there).
    StringLike,
    /// A number, `bool` or `()`.
    Scalar,
    /// An array member: `Vec<T>`, sets, slices, arrays.
    Sequence,
    /// A struct.
    Object,
    /// A map with string keys.
    Map,
    /// A tuple.
    Tuple,
    /// One of several members: `OneOrMany<T>`, an enum with data.
    Union,
    /// `serde_json::Value`.
    Any,
}

/// A type stitch can walk: every field type of a `#[derive(ToolArgs)]` type implements it.
///
/// Implemented for the standard types listed in the crate docs and by `#[derive(ToolArgs)]`.
/// For a type of another crate (a `Uuid`, a `DateTime`), mark the field `#[stitch(opaque)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a type stitch knows how to walk",
    label = "this field's type does not implement `Coerce`",
    note = "derive `ToolArgs` for `{Self}`, or mark the field `#[stitch(opaque)]` to leave it to serde untouched"
)]
pub trait Coerce: DeserializeOwned + Describe {
    /// What this type accepts, for the unions that hold it.
    const SHAPE: Shape;

    /// Walks `value`, found at `at`, as a position of this type. `bounds` are the
    /// `min_items` / `max_items` of the field, for its array form.
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds);

    /// Whether the exact JSON text of one array element is accepted by this type
    /// (rule R3, condition 3). Must agree with `serde_json::from_str::<Self>(text).is_ok()`.
    fn accepts_element(text: &str) -> bool {
        serde_json::from_str::<Self>(text).is_ok()
    }

    /// Whether `text` is a list written as text that this type's array form accepts within
    /// `bounds` (rule R3). `false` for a type with no array form.
    fn accepts_text_list(text: &str, bounds: Bounds) -> bool {
        let _ = (text, bounds);
        false
    }

    /// Whether a value deserialized straight from text (the fast path of
    /// [`ToolArgs::from_json`](crate::ToolArgs::from_json)) keeps the item bounds the walk
    /// would check; `bounds` are the field's. `false` sends the call down the full path.
    #[doc(hidden)]
    fn bounds_hold(&self, bounds: Bounds) -> bool {
        let _ = bounds;
        true
    }

    /// Walks the keys this type reads from `map`, an object it shares with its parent
    /// (`#[serde(flatten)]`, internally tagged variants). A struct walks its fields; a map
    /// walks the keys that `owned` (the parent's fields) does not claim. A no-op otherwise.
    #[doc(hidden)]
    fn walk_flat(
        map: &mut Map<String, Value>,
        cx: &mut Cx,
        at: &Path<'_>,
        owned: fn(&str) -> bool,
    ) {
        let _ = (map, cx, at, owned);
    }

    /// Whether this type, flattened into a shared object, reads its key `key`.
    #[doc(hidden)]
    fn owns_key(key: &str) -> bool {
        let _ = key;
        false
    }
}

/// The state of one walk: the mode, the depth, and the issues found.
#[derive(Debug)]
pub struct Cx {
    apply: bool,
    lenient: bool,
    pending: bool,
    too_deep: bool,
    depth: usize,
    issues: Vec<Issue>,
    omitted: usize,
}

impl Cx {
    fn new(apply: bool) -> Cx {
        Cx {
            apply,
            lenient: false,
            pending: false,
            too_deep: false,
            depth: 0,
            issues: Vec::new(),
            omitted: 0,
        }
    }

    /// Sets whether numbers and booleans written as text are read (`lenient_scalars`),
    /// returning the previous setting.
    #[inline]
    pub fn set_lenient(&mut self, lenient: bool) -> bool {
        core::mem::replace(&mut self.lenient, lenient)
    }

    /// Whether numbers and booleans written as text are read here.
    #[inline]
    pub fn is_lenient(&self) -> bool {
        self.lenient
    }

    /// Replaces `value` with `new` (in the apply pass; the check pass only notes that a
    /// change is due).
    pub fn replace(&mut self, value: &mut Value, new: Value) {
        if self.apply {
            *value = new;
        } else {
            self.pending = true;
        }
    }

    /// Records an issue, built only if it will be kept.
    #[cold]
    pub fn report(&mut self, issue: impl FnOnce() -> Issue) {
        if self.apply {
            return;
        }
        if self.issues.len() < MAX_ISSUES {
            if self.issues.capacity() == 0 {
                self.issues.reserve_exact(4);
            }
            self.issues.push(issue());
        } else {
            self.omitted += 1;
        }
    }

    /// Refuses a list written as text at `at` (rule R3).
    #[cold]
    pub fn text_list(&mut self, at: &Path<'_>) {
        self.report(|| Issue::text_list(at.render()));
    }

    /// Checks a real array's length against the field's bounds.
    #[inline]
    pub fn check_len(&mut self, len: usize, bounds: Bounds, at: &Path<'_>) {
        if bounds.contains(len) {
            return;
        }
        self.report(|| {
            let (word, n) = if len < bounds.min {
                ("at least", bounds.min)
            } else {
                ("at most", bounds.max)
            };
            let items = if n == 1 { "item" } else { "items" };
            Issue::invalid(at.render(), format_args!("{word} {n} {items}"))
        });
    }

    /// Goes one level deeper at `at`; `false` (and a `TooDeep` issue) past [`MAX_DEPTH`].
    /// Every `true` must be matched by [`Cx::leave`].
    #[inline]
    pub fn enter(&mut self, at: &Path<'_>) -> bool {
        if self.depth >= MAX_DEPTH {
            self.too_deep = true;
            self.report(|| Issue::too_deep(at.render(), MAX_DEPTH));
            return false;
        }
        self.depth += 1;
        true
    }

    /// Comes back up one level.
    #[inline]
    pub fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Rule R1: `value` is a string at a position of type `T` that expects no string. If it
    /// parses as JSON, the parsed value replaces it (in the apply pass) and is walked as `T`.
    #[inline]
    pub fn repair<T: Coerce>(&mut self, value: &mut Value, at: &Path<'_>, bounds: Bounds) {
        self.repair_by(value, at, &mut |parsed, cx| T::walk(parsed, cx, at, bounds));
    }

    /// Rule R1 for a position without a type of its own (an enum variant's content): like
    /// [`Cx::repair`], walking the parsed value with `walk`.
    pub fn repair_with(
        &mut self,
        value: &mut Value,
        at: &Path<'_>,
        walk: fn(&mut Value, &mut Cx, &Path<'_>),
    ) {
        self.repair_by(value, at, &mut |parsed, cx| walk(parsed, cx, at));
    }

    // Not generic (the walk is a trait object), so each type that can be repaired adds one
    // small closure, not a copy of this.
    fn repair_by(
        &mut self,
        value: &mut Value,
        at: &Path<'_>,
        walk: &mut dyn FnMut(&mut Value, &mut Cx),
    ) {
        let Value::String(text) = value else {
            return;
        };
        let Some(mut parsed) = self.parse_text(text, at) else {
            return;
        };
        if !self.enter(at) {
            return;
        }
        walk(&mut parsed, self);
        self.leave();
        if self.apply {
            *value = parsed;
        } else {
            self.pending = true;
        }
    }

    fn parse_text(&mut self, text: &str, at: &Path<'_>) -> Option<Value> {
        match serde_json::from_str::<Value>(text) {
            Ok(parsed) => Some(parsed),
            Err(e) => {
                if e.is_syntax() && e.to_string().starts_with("recursion limit exceeded") {
                    self.too_deep = true;
                    self.report(|| Issue::too_deep(at.render(), MAX_DEPTH));
                }
                None
            }
        }
    }

    /// A value at a position stitch does not walk into (unknown keys, `serde_json::Value`,
    /// opaque fields, a container where a scalar is expected): checked for depth only.
    pub fn untyped(&mut self, value: &Value, at: &Path<'_>) {
        match value {
            Value::Array(items) if self.enter(at) => {
                for (i, item) in items.iter().enumerate() {
                    if is_container(item) {
                        self.untyped(item, &at.index(i));
                    }
                }
                self.leave();
            }
            Value::Object(map) if self.enter(at) => {
                for (key, item) in map {
                    if is_container(item) {
                        self.untyped(item, &at.key(key));
                    }
                }
                self.leave();
            }
            _ => {}
        }
    }
}

#[inline]
fn is_container(value: &Value) -> bool {
    matches!(value, Value::Array(_) | Value::Object(_))
}

/// The outcome of [`run`]: `Err` carries whether the value nests too deep to drop recursively.
#[inline]
pub(crate) fn run<T: Coerce>(args: &mut Value) -> Result<(), (ArgsError, bool)> {
    let mut cx = Cx::new(false);
    T::walk(args, &mut cx, &Path::ROOT, Bounds::NONE);
    if !cx.issues.is_empty() || cx.omitted > 0 {
        return Err(cx.refusal());
    }
    if cx.pending {
        T::walk(args, &mut Cx::new(true), &Path::ROOT, Bounds::NONE);
    }
    Ok(())
}

impl Cx {
    /// The issues of a check pass that found some (not generic: one copy for every type).
    #[cold]
    fn refusal(self) -> (ArgsError, bool) {
        (
            ArgsError::with_omitted(self.issues, self.omitted),
            self.too_deep,
        )
    }
}

/// Drops a value without recursion, however deep it nests (serde_json's own `Drop` recurses).
pub(crate) fn dispose(value: Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Walks a leaf position (string-like or scalar): nothing to repair, only depth to check when
/// a container arrived instead.
#[inline]
pub fn walk_leaf(value: &Value, cx: &mut Cx, at: &Path<'_>) {
    if is_container(value) {
        cx.untyped(value, at);
    }
}

/// Walks a sequence position of element type `T` (`S` is the sequence type, for R1).
#[inline]
pub fn walk_seq<S: Coerce, T: Coerce>(
    value: &mut Value,
    cx: &mut Cx,
    at: &Path<'_>,
    bounds: Bounds,
) {
    match value {
        Value::Array(items) => {
            cx.check_len(items.len(), bounds, at);
            walk_items::<T>(items, cx, at);
        }
        Value::String(_) => cx.repair::<S>(value, at, bounds),
        other => walk_leaf(other, cx, at),
    }
}

/// Walks each item of a real array as a `T`.
#[inline]
pub fn walk_items<T: Coerce>(items: &mut [Value], cx: &mut Cx, at: &Path<'_>) {
    if !cx.enter(at) {
        return;
    }
    if T::SHAPE.kind == Kind::StringLike {
        // A string-like item has nothing to repair: only a container in its place is walked
        // (for depth). Finding those first keeps the common loop to a tag check per item.
        for (i, item) in items.iter_mut().enumerate() {
            if is_container(item) {
                T::walk(item, cx, &at.index(i), Bounds::NONE);
            }
        }
    } else {
        for (i, item) in items.iter_mut().enumerate() {
            T::walk(item, cx, &at.index(i), Bounds::NONE);
        }
    }
    cx.leave();
}

/// Walks a map position with values of type `T` (`M` is the map type, for R1).
#[inline]
pub fn walk_map<M: Coerce, T: Coerce>(value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
    match value {
        Value::Object(map) => {
            if cx.enter(at) {
                for (key, item) in map.iter_mut() {
                    T::walk(item, cx, &at.key(key), Bounds::NONE);
                }
                cx.leave();
            }
        }
        Value::String(_) => cx.repair::<M>(value, at, Bounds::NONE),
        other => walk_leaf(other, cx, at),
    }
}

/// Walks an object position of a struct type `T`: R1 for a string, then `T`'s fields.
#[inline]
pub fn walk_object<T: Coerce>(value: &mut Value, cx: &mut Cx, at: &Path<'_>) {
    match value {
        Value::Object(map) => {
            if cx.enter(at) {
                // A struct's fields follow its own `lenient_scalars`, not the parent's.
                let lenient = cx.set_lenient(false);
                T::walk_flat(map, cx, at, owns_nothing);
                cx.set_lenient(lenient);
                cx.leave();
            }
        }
        Value::String(_) => cx.repair::<T>(value, at, Bounds::NONE),
        other => walk_leaf(other, cx, at),
    }
}

/// Walks the keys of a shared object that `owned` does not claim as values of type `T`
/// (a flattened map).
#[inline]
pub fn walk_flat_map<T: Coerce>(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    owned: fn(&str) -> bool,
) {
    for (key, item) in map.iter_mut() {
        if !owned(key) {
            T::walk(item, cx, &at.key(key), Bounds::NONE);
        }
    }
}

/// Walks every entry of `map` for depth only (an object whose variant is unknown).
pub fn untyped_entries(map: &Map<String, Value>, cx: &mut Cx, at: &Path<'_>) {
    for (key, item) in map {
        cx.untyped(item, &at.key(key));
    }
}

/// Claims no key: the `owned` of an object that is not shared.
pub fn owns_nothing(_: &str) -> bool {
    false
}
