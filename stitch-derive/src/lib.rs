//! `#[derive(ToolArgs)]`: the derive of [`stitch-runtime`](https://docs.rs/stitch-runtime).
//!
//! Use it through `stitch_runtime::ToolArgs`; the attributes are documented there and on
//! [`ToolArgs`](macro@ToolArgs).
//!
//! The pipeline follows serde_derive's: parse the input into a model that keeps spans
//! ([`ast`]), check it ([`check`]), then generate the impls ([`expand`]). Every problem is
//! recorded in a [`ctxt::Ctxt`] and reported together; when there are any, the impls are still
//! emitted with an empty walk so the user sees only the real mistakes.

mod ast;
mod attr;
mod case;
mod check;
mod ctxt;
mod expand;
mod json;
mod serde_attr;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

/// Derives `stitch_runtime::ToolArgs` (and the `Coerce` walk it builds on).
///
/// # On the container
/// - `#[stitch(crate = "path::to::stitch_runtime")]`: where the runtime is, for crates that
///   re-export it.
///
/// # On a field
/// - `#[stitch(max_items = N)]`, `#[stitch(min_items = N)]`: bound the array form of a
///   `OneOrMany<T>` or sequence field. A list written as text longer than `max_items` stays
///   one plain value; a real array outside the bounds is refused (`paths: at most 20 items`).
/// - `#[stitch(opaque)]`: leave a field of a type stitch does not know (a `Uuid`, a
///   `DateTime`) to serde, untouched.
///
/// # serde attributes read
/// `rename`, `rename(deserialize = …)`, `rename_all` (all eight rules, serde's algorithm),
/// `rename_all_fields`, `alias`, `default`, `skip`, `skip_deserializing`, `flatten`, `tag`,
/// `content`, `untagged`, `deny_unknown_fields`, `transparent`. Other serde keys are left to
/// serde.
#[proc_macro_derive(ToolArgs, attributes(stitch))]
pub fn derive_tool_args(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input).into()
}

fn derive(input: &DeriveInput) -> proc_macro2::TokenStream {
    let cx = ctxt::Ctxt::new();
    let cont = ast::Container::from_ast(&cx, input);
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
mod tests;
