//! What the providers' formats can express, as marker traits the derive implements where a
//! type's shape allows and `tool::*` requires: a type a format cannot take is a type error at
//! the user's call, naming the field. `check` stays behind them for what a bound cannot see.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;

/// A type whose arguments are a JSON object: what every provider takes as a tool's input.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's arguments: a tool takes a JSON object",
    label = "not an object at the root",
    note = "every provider takes an object: a struct with named fields, or an enum whose every variant is an object (internally or adjacently tagged, externally tagged with data in every variant, or untagged with object members only)"
)]
pub trait ObjectRoot {}

/// A type OpenAI's strict mode can take at the root: a struct with named fields.
#[diagnostic::on_unimplemented(
    message = "`tool::openai_strict` cannot take `{Self}` as a tool's arguments",
    label = "strict mode wants a struct with named fields at the root",
    note = "strict mode requires the root to be an object with properties, not an enum's `anyOf`: give this tool the non-strict definition (`tool::openai`), or wrap the enum in a struct field"
)]
pub trait StrictRoot {}

/// A type OpenAI's strict mode can say exactly: no map and no tuple anywhere (it closes every
/// object and has no `prefixItems`).
#[diagnostic::on_unimplemented(
    message = "OpenAI's strict mode cannot express `{Self}`",
    label = "a part strict mode cannot say",
    note = "strict mode closes every object and has no tuples, so a map, a flattened map or a tuple would be advertised as other values than the tool accepts: give this tool the non-strict definition (`tool::openai`), or make the part a struct"
)]
pub trait StrictPart {}

macro_rules! strict_parts {
    ($($ty:ty),* $(,)?) => {$(
        impl StrictPart for $ty {}
    )*};
}

strict_parts!(
    String,
    Box<str>,
    PathBuf,
    char,
    bool,
    (),
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    serde_json::Value,
);
impl StrictPart for Cow<'_, str> {}
impl<T: StrictPart> StrictPart for Option<T> {}
impl<T: StrictPart> StrictPart for Box<T> {}
impl<T: StrictPart> StrictPart for Arc<T> {}
impl<T: StrictPart> StrictPart for Rc<T> {}
impl<T: StrictPart> StrictPart for Vec<T> {}
impl<T: StrictPart> StrictPart for VecDeque<T> {}
impl<T: StrictPart> StrictPart for Box<[T]> {}
impl<T: StrictPart> StrictPart for BTreeSet<T> {}
impl<T: StrictPart, S> StrictPart for HashSet<T, S> {}
impl<T: StrictPart, const N: usize> StrictPart for [T; N] {}

// A map is an object at the root, for every format but strict mode's.
impl<T, S> ObjectRoot for HashMap<String, T, S> {}
impl<T> ObjectRoot for std::collections::BTreeMap<String, T> {}
impl ObjectRoot for serde_json::Map<String, serde_json::Value> {}
impl<T: ObjectRoot> ObjectRoot for Box<T> {}
impl<T: ObjectRoot> ObjectRoot for Arc<T> {}
impl<T: ObjectRoot> ObjectRoot for Rc<T> {}
impl<T: StrictRoot> StrictRoot for Box<T> {}
impl<T: StrictRoot> StrictRoot for Arc<T> {}
impl<T: StrictRoot> StrictRoot for Rc<T> {}
