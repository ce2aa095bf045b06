//! The walk: [`Coerce`], which every argument type implements, [`run`], and the walker state
//! [`Cx`]. A call is walked twice at most: a check pass that changes nothing, then, only when it
//! found JSON text to repair and no issue, an apply pass; so a refused call leaves the caller's
//! value exactly as it was.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::limits::Limits;
use crate::path::Path;
use crate::report::Repair;
use crate::schema::{Describe, FieldOf};

mod cx;
mod fields;
mod flat;
mod flat_enum;
mod helpers;
mod std;
mod union;
mod untagged;

pub use self::cx::Cx;
pub use self::fields::{walk_fields, FieldType, FieldWalk, Fields, FlatField};
pub use self::flat::{walk_flat_map, Claims};
pub(crate) use self::flat_enum::walk_flat_option;
pub use self::flat_enum::{flat_refused, no_flat_variant, walk_flat_whole};
pub(crate) use self::helpers::{drop_absent, items_hold, set_holds};
pub use self::helpers::{
    null_is_absent, untyped_entries, walk_items, walk_leaf, walk_map, walk_object, walk_seq,
};
pub(crate) use self::union::pattern_claims;
pub use self::union::union_string;
pub use self::untagged::{deserialized, untagged, Member};

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

/// The kinds of position the rules tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// Read from a string; its walk does nothing to a value that is not an array or an object.
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

/// A type stitch can walk: implemented for the std types (`walk/std`) and by the derive, not an
/// extension point.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a type stitch knows how to walk",
    label = "this field's type does not implement `Coerce`",
    note = "a type of your own crate: derive `ToolArgs` for it; a type of another crate (a `Uuid`, an `IpAddr`): mark the field `#[stitch(opaque)]` (serde reads it untouched; its schema is `{{}}` unless `#[stitch(schema = \"…\")]` gives one), or wrap it in a newtype of your own that derives `ToolArgs`"
)]
pub trait Coerce: DeserializeOwned + Describe {
    /// What this type accepts, for the unions that hold it.
    const SHAPE: Shape;

    /// The type's schema constants, read by the derive's properties (see [`FieldOf`]); a
    /// reference, which the compiler checks in a constant without a trait query.
    #[doc(hidden)]
    const FIELD: &'static FieldOf = &FieldOf {
        // A field serde requires but whose `null` it reads (a newtype of an `Option`) says `null`
        // as an item does.
        schema: if <Self as Describe>::NULLABLE && !<Self as Describe>::OPTIONAL {
            <Self as Describe>::ITEM_SCHEMA
        } else {
            <Self as Describe>::SCHEMA
        },
        optional: <Self as Describe>::OPTIONAL,
        default: <Self as Describe>::DEFAULT,
    };

    /// A field table's entry for a field of this type with no attribute (see [`FieldType`]).
    #[doc(hidden)]
    const FIELD_TYPE: &'static FieldType = &FieldType {
        walk: Some(Self::walk),
        bounds: Bounds::NONE,
        limits: None,
        lenient: false,
        null_absent: null_is_absent::<Self>(),
        optional: <Self as Describe>::OPTIONAL,
        wire: None,
    };

    /// A struct's named fields, read by the default `walk_flat`, `declares_key` and `owns_key`.
    #[doc(hidden)]
    const FIELDS: Option<&'static Fields> = None;

    /// A flattened field's hooks (see [`FlatField`]).
    #[doc(hidden)]
    const FLAT_FIELD: &'static FlatField = &FlatField {
        walk: Self::walk_flat,
        declares: Self::declares_key,
        owns: Self::owns_key,
        fields: Self::FIELDS,
    };

    /// Whether a lone number or string may break a constraint the type carries itself, so an
    /// untagged enum holding it walks serde's pick for those too (`docs/rules.md#constraints`).
    #[doc(hidden)]
    const LIMITED: bool = false;

    /// Walks `value` at `at`; `bounds` are the field's `min_items` / `max_items` for its array
    /// form. The default is a struct's (`walk_object`).
    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, bounds: Bounds) {
        let _ = bounds;
        walk_object::<Self>(value, cx, at);
    }

    /// Whether one array element's exact JSON text is accepted (R3, condition 3); must agree with
    /// `serde_json::from_str::<Self>(text).is_ok()`.
    fn accepts_element(text: &str) -> bool {
        serde_json::from_str::<Self>(text).is_ok()
    }

    /// Whether `text` is a list written as text that this type's array form accepts within
    /// `bounds` (R3); no default, so a new type cannot forget its array form.
    fn accepts_text_list(text: &str, bounds: Bounds) -> bool;

    /// Whether a value read straight from text keeps the item bounds the walk would check.
    fn bounds_hold(&self, bounds: Bounds) -> bool;

    /// Whether a value read straight from text keeps a field's `limits` as the walk would judge
    /// them; `false` (the default) where a type cannot say exactly.
    #[doc(hidden)]
    fn limits_hold(&self, limits: &Limits) -> bool {
        let _ = limits;
        false
    }

    /// Walks the keys this type reads from an object it shares with its parent (flatten,
    /// internally tagged variants); `claims` are what the levels around it declare.
    #[doc(hidden)]
    fn walk_flat(map: &mut Map<String, Value>, cx: &mut Cx, at: &Path<'_>, claims: &Claims<'_>) {
        if let Some(fields) = Self::FIELDS {
            walk_fields(map, cx, at, claims, fields);
        }
    }

    /// Whether a declared field of this type, flattened, reads `key`.
    #[doc(hidden)]
    fn declares_key(key: &str) -> bool {
        match Self::FIELDS {
            Some(fields) => fields.declares(key),
            None => false,
        }
    }

    /// Whether this type, flattened, reads `key` at all (a flattened map inside reads any).
    #[doc(hidden)]
    fn owns_key(key: &str) -> bool {
        match Self::FIELDS {
            Some(fields) => fields.owns(key),
            None => Self::declares_key(key),
        }
    }
}

/// Where a call's repairs go: nowhere, or a list for the `*_reported` surfaces. A value, not a
/// type parameter, so the steps around a walk compile once.
pub(crate) type Record<'a> = Option<&'a mut Vec<Repair>>;

pub(crate) type WalkFn = fn(&mut Value, &mut Cx, &Path<'_>, Bounds);

/// A tool's argument type without the type, so the steps around its walk compile once.
#[derive(Clone, Copy)]
pub(crate) struct Tool {
    walk: WalkFn,
    object: bool,
    pub(crate) name: fn() -> &'static str,
}

impl Tool {
    pub(crate) const fn of<T: Coerce>() -> Tool {
        Tool {
            walk: T::walk,
            object: crate::schema::is_object(T::SCHEMA),
            name: core::any::type_name::<T>,
        }
    }
}

/// The outcome of [`run`]: `Err` carries whether the value nests too deep to drop recursively.
#[inline]
pub(crate) fn run<T: Coerce>(
    args: &mut Value,
    record: Record<'_>,
) -> Result<(), (crate::ArgsError, bool)> {
    run_with(args, Cx::new(false), record, const { Tool::of::<T>() })
}

/// [`run`] with a check pass by `cx` (which knows the keys the text sent twice).
pub(crate) fn run_with(
    args: &mut Value,
    mut cx: Cx,
    record: Record<'_>,
    tool: Tool,
) -> Result<(), (crate::ArgsError, bool)> {
    // Arguments are an object by every schema stitch writes; serde would read a struct from an
    // array too. A string goes by R1.
    if tool.object && !matches!(args, Value::Object(_) | Value::String(_)) {
        return Err(not_an_object(args));
    }
    (tool.walk)(args, &mut cx, &Path::ROOT, Bounds::NONE);
    if cx.found_issues() {
        return Err(cx.refusal());
    }
    if cx.pending() {
        apply(args, record, tool);
    }
    Ok(())
}

#[cold]
#[inline(never)]
fn not_an_object(args: &Value) -> (crate::ArgsError, bool) {
    let message = crate::error::not_an_object(args);
    let issue = crate::error::Issue::invalid("", message);
    (crate::ArgsError::single(issue), false)
}

/// [`run_with`] for text that sent some key twice: the notes come back when nothing was
/// repaired, so the caller may replay the text's own answer (`json::replay`).
#[cold]
#[inline(never)]
pub(crate) fn run_noting(
    args: &mut Value,
    duplicates: crate::json::parse::Duplicates,
    record: Record<'_>,
    tool: Tool,
) -> Result<Option<crate::json::parse::Duplicates>, (crate::ArgsError, bool)> {
    if tool.object && !matches!(args, Value::Object(_) | Value::String(_)) {
        return Err(not_an_object(args));
    }
    let mut cx = Cx::with_duplicates(duplicates);
    (tool.walk)(args, &mut cx, &Path::ROOT, Bounds::NONE);
    if cx.found_issues() {
        return Err(cx.refusal());
    }
    if cx.pending() {
        apply(args, record, tool);
        return Ok(None);
    }
    Ok(Some(cx.into_duplicates()))
}

/// Writes the repairs and records them for `record` or a `tracing` subscriber.
#[cold]
#[inline(never)]
fn apply(args: &mut Value, record: Record<'_>, tool: Tool) {
    let wanted = record.is_some() || crate::trace::wants_repairs();
    if !wanted {
        let mut apply = Cx::apply_pass(false);
        (tool.walk)(args, &mut apply, &Path::ROOT, Bounds::NONE);
        return;
    }
    let mut repairs = cx::recording(&mut || {
        let mut apply = Cx::apply_pass(true);
        (tool.walk)(args, &mut apply, &Path::ROOT, Bounds::NONE);
    });
    repairs.sort_by_key(|r| r.order());
    crate::trace::repaired(tool.name, &repairs);
    if let Some(record) = record {
        *record = repairs;
    }
}

/// Drops a value without recursion: serde_json's own `Drop` recurses.
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
