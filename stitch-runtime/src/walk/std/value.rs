//! `serde_json::Value`: any JSON, never touched (checked for depth only).

use serde_json::Value;

use crate::bounds::Bounds;
use crate::path::Path;
use crate::schema::{Describe, Schema};
use crate::walk::{Coerce, Cx, Shape};

impl Coerce for Value {
    const SHAPE: Shape = Shape::ANY;

    #[inline]
    fn walk(value: &mut Value, cx: &mut Cx, at: &Path<'_>, _: Bounds) {
        cx.untyped(value, at);
    }
    // `accepts_element` stays serde_json's verdict: a `Value` refuses numbers out of range.
    no_array_form!();
}

impl Describe for Value {
    const SCHEMA: &'static Schema = &Schema::Any;
    const DEFAULT: Option<&'static str> = Some("null");
    const NULLABLE: bool = true;
}
