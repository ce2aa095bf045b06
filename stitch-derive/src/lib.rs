//! `#[derive(ToolArgs)]`: the derive of [`stitch-runtime`](https://docs.rs/stitch-runtime).
//!
//! Use it through `stitch_runtime::ToolArgs`; the attributes are documented there and on
//! [`ToolArgs`](macro@ToolArgs).
//!
//! The pipeline follows serde_derive's, one folder a stage: parse the input into a model that
//! keeps spans (`model`), check it (`check`), then generate the impls (`expand`); `ctxt` and
//! `json` serve them all. Every problem is recorded in a
//! `ctxt::Ctxt` and reported together; when there are any, the impls are still emitted with
//! an empty walk so the user sees only the real mistakes.

// The derive runs at compile time on trusted source, and needs no `unsafe` (SECURITY.md).
#![forbid(unsafe_code)]

mod check;
mod ctxt;
mod expand;
mod json;
mod model;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `stitch_runtime::ToolArgs` (and the `Coerce` walk and `Describe` schema it builds
/// on) for a struct with named fields, a newtype struct, or an enum. The type must also
/// derive serde's `Deserialize`: stitch reads names and shapes the way serde will.
///
/// ```text
/// use serde::Deserialize;
/// use stitch_runtime::{OneOrMany, ToolArgs};
///
/// /// Show files to the user.
/// #[derive(Deserialize, ToolArgs)]
/// struct ViewFile {
///     /// The files to show.
///     #[stitch(max_items = 20)]
///     paths: OneOrMany<String>,
/// }
/// ```
///
/// Every `#[stitch(...)]` key below is checked: an unknown or repeated key, or a value of the
/// wrong type, is a compile error at the token, all of them reported in one compile.
///
/// # On the container (struct or enum)
/// - `crate = "path::to::stitch_runtime"`: where the runtime is, for crates that re-export
///   it (default `::stitch_runtime`).
/// - `description = "…"`: the root schema's description, instead of the doc comment.
/// - `lenient_scalars`: every field reads numbers and booleans written as text (`"5"` for a
///   `u32`, `"true"` for a `bool`; only texts that round-trip, never in a union that takes
///   strings). Nested structs follow their own attributes.
///
/// # On a field (of a struct or of an enum variant)
/// - `max_items = N`, `min_items = N`: bound the array form of a `OneOrMany<T>` or sequence
///   field. A list written as text longer than `max_items` stays one plain value; a real
///   array outside the bounds is refused (`paths: at most 20 items`). On a type with no array
///   form it is a compile error.
/// - `opaque`: leave a field of a type stitch does not know (a `Uuid`, a `DateTime`) to
///   serde, untouched; its schema is `{}` unless `schema` says otherwise.
/// - `schema = "{…}"`: the JSON Schema of an `opaque` field (or of a field read by
///   `#[serde(deserialize_with)]` / `#[serde(with)]`, see below), as JSON text (checked to be
///   JSON during compilation).
/// - `description = "…"`: the property's description, instead of the doc comment.
/// - `lenient_scalars`: this field reads numbers and booleans written as text (see above).
///
/// # On a variant
/// None: a `#[stitch(...)]` on a variant is an error. Put the keys on the variant's fields;
/// a variant's doc comment describes it.
///
/// # serde attributes read
/// - Container: `rename_all` (all eight rules, serde's algorithm, or its `deserialize` half),
///   `rename_all_fields`, `tag`, `content`, `untagged`, `transparent`, `default`,
///   `deny_unknown_fields`, `from`, `try_from`.
/// - Field: `rename` (or `rename(deserialize = …)`), `alias`, `default`, `default = "…"`,
///   `skip`, `skip_deserializing`, `flatten`, `deserialize_with`, `with`.
/// - Variant: `rename`, `alias`, `rename_all`, `skip`, `skip_deserializing`,
///   `deserialize_with`, `with`; `untagged` on one variant is refused (put it on the enum).
///
/// # serde attributes that change what serde reads
/// - `#[serde(deserialize_with = "…")]` or `#[serde(with = "…")]` on a field: your function
///   reads the field, so stitch leaves it exactly as sent on every surface, as if it were
///   `#[stitch(opaque)]` (which may also be written): never repaired, never type-checked,
///   only its depth counted. Its schema is `{}` unless `#[stitch(schema = "…")]` gives one,
///   and on the command line its flag takes the text as a string (or JSON text, by the schema).
///   `lenient_scalars`, `max_items` and `min_items` on it are compile errors.
///   (`serialize_with` alone changes nothing serde reads.)
/// - The same on a newtype variant leaves its content to the function; on a unit, tuple or
///   struct variant it is a compile error (hold the content in one field).
/// - `#[serde(from = "Raw")]` or `#[serde(try_from = "Raw")]` on the container: serde reads
///   `Raw` and converts it, so stitch walks `Raw`, the schema is `Raw`'s (its description
///   included) and the command line takes `Raw`'s flags. `Raw` must derive `ToolArgs` (a
///   compile error at the attribute's string says so); the container's own fields are not read
///   and their types need nothing from stitch, and `#[stitch]` keys on the container's body,
///   `description` or `lenient_scalars` are compile errors (put them on `Raw`). A call of such a
///   type always takes the full path of `from_json`: `Raw`'s item bounds cannot be checked on the
///   converted value.
///
/// Other serde keys, and malformed serde attributes, are left to serde.
#[proc_macro_derive(ToolArgs, attributes(stitch))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

/// The pipeline: parse into the model (recording problems), check it, then expand it, or, on
/// any problem, emit every error beside a stub impl ([`expand::fallback`]).
fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let cont = model::ast::Container::from_ast(&cx, input);
    check::check(&cx, &cont);
    match cx.check() {
        Ok(()) => expand::expand(&cont),
        Err(errors) => {
            let mut out = errors.to_compile_error();
            out.extend(expand::fallback(&cont));
            out
        }
    }
}

#[cfg(test)]
mod budget;
#[cfg(test)]
mod tests;
