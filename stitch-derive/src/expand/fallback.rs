//! The stub emitted beside the `compile_error!`s of a broken input.

use proc_macro2::TokenStream;
use quote::quote;

use super::{no_bounds, no_text_list, wrap, Parts};
use crate::model::ast::Container;

/// The impls with an empty walk and an anything-goes schema, emitted beside the errors so that
/// the user's other uses of the type (`Args::from_json`, `Args::INPUT_SCHEMA`) still resolve
/// and only the real mistakes show:
///
/// ```text
/// impl _stitch::Coerce for Args {
///     const SHAPE: _stitch::Shape = _stitch::Shape::OBJECT;
///     fn walk(_: &mut _stitch::Value, _: &mut _stitch::Cx, _: &_stitch::Path<'_>, _: _stitch::Bounds) {}
///     fn accepts_text_list(_: &str, _: _stitch::Bounds) -> bool { false }
///     fn bounds_hold(&self, _: _stitch::Bounds) -> bool { true }
/// }
/// impl _stitch::Describe for Args {
///     const SCHEMA: &'static _stitch::Schema = &_stitch::Schema::Any;
/// }
/// // and `ToolArgs`, in the same shell as a working expansion
/// ```
pub fn fallback(cont: &Container) -> TokenStream {
    let (text_list, bounds_hold) = (no_text_list(), no_bounds());
    let body = quote! {
        #text_list
        #bounds_hold
        const SHAPE: _stitch::Shape = _stitch::Shape::OBJECT;
        #[inline]
        fn walk(
            _: &mut _stitch::Value,
            _: &mut _stitch::Cx,
            _: &_stitch::Path<'_>,
            _: _stitch::Bounds,
        ) {
        }
    };
    let describe = quote! {
        const SCHEMA: &'static _stitch::Schema = &_stitch::Schema::Any;
    };
    let parts = Parts {
        body,
        helpers: quote!(),
        asserts: quote!(),
        describe,
        marks: super::formats::Marks::All,
    };
    wrap(cont, parts)
}
