//! The writer's numbers: an integer's and an `f32`'s range (a field's own bounds replace
//! them), and `lenient_scalars` leaves with the text they may be written as.

use super::{Extras, Writer, NO_BOUNDS};
use crate::schema::Schema;

/// The text a lenient integer or number may be written as (JSON-escaped), which the coercer
/// recognises.
pub(crate) const LENIENT_UNSIGNED: &str = "^(0|[1-9][0-9]*)$";
pub(crate) const LENIENT_SIGNED: &str = "^(0|-?[1-9][0-9]*)$";
const LENIENT_NUMBER: &str = "^-?(0|[1-9][0-9]*)(\\\\.[0-9]+)?([eE][-+]?[0-9]+)?$";

/// As serde_json writes it as an `f64`; the coercer recognises the pair.
const F32_MAX: &str = "3.4028234663852886e38";
const F32_MIN: &str = "-3.4028234663852886e38";

/// A type's own bound, written where the field states none.
#[derive(Clone, Copy)]
enum Bound {
    /// A number as its text (`f32::MAX`).
    Text(&'static str),
    Signed(i128),
    Unsigned(u128),
}

impl Writer<'_> {
    pub(super) const fn number(&mut self, schema: &Schema, extras: Extras) {
        match schema {
            Schema::Number => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("number");
                self.number_limits(&mut first, true);
                self.raw(b"}");
            }
            Schema::Float32 => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("number");
                self.type_bounds(&mut first, Bound::Text(F32_MIN), Bound::Text(F32_MAX));
                self.number_limits(&mut first, false);
                self.raw(b"}");
            }
            Schema::Integer { min, max } => {
                let mut first = self.open(extras);
                self.key(&mut first, "type");
                self.string("integer");
                self.type_bounds(&mut first, Bound::Signed(*min), Bound::Unsigned(*max));
                self.number_limits(&mut first, false);
                self.raw(b"}");
            }
            _ => {}
        }
    }

    /// The field's own (the derive checked it within the type's range), else the type's.
    const fn type_bounds(&mut self, first: &mut bool, min: Bound, max: Bound) {
        let own = match self.limits {
            Some(limits) => (limits.minimum, limits.maximum),
            None => (None, None),
        };
        self.key(first, "minimum");
        match own.0 {
            Some(n) => self.num(n),
            None => self.bound(min),
        }
        self.key(first, "maximum");
        match own.1 {
            Some(n) => self.num(n),
            None => self.bound(max),
        }
    }

    const fn bound(&mut self, bound: Bound) {
        match bound {
            Bound::Text(text) => self.s(text),
            Bound::Signed(n) => self.signed(n),
            Bound::Unsigned(n) => self.unsigned(n),
        }
    }

    /// Writes `schema` when `lenient_scalars` changes it here, and says so.
    pub(super) const fn lenient_at(
        &mut self,
        schema: &Schema,
        extras: Extras,
        bounds: (usize, usize),
    ) -> bool {
        match schema {
            Schema::Integer { .. } | Schema::Number | Schema::Float32 | Schema::Boolean => {
                self.lenient_leaf(schema, extras);
                true
            }
            // Not into a nested struct, an enum or a union, as the derive's walk; an `Option`
            // item is its `T`.
            Schema::AnyOf([_, Schema::Null]) => false,
            Schema::Object(_)
            | Schema::AnyOf(_)
            | Schema::OneOf(_)
            | Schema::Tagged { .. }
            | Schema::Adjacent { .. }
            | Schema::External { .. }
            | Schema::Ref(_)
            | Schema::Anchored { .. } => {
                self.lenient = false;
                self.schema(schema, extras, bounds);
                self.lenient = true;
                true
            }
            _ => false,
        }
    }

    /// `{"anyOf": [leaf, text]}`, the text as the derive reads it; the range is the leaf's.
    const fn lenient_leaf(&mut self, leaf: &Schema, extras: Extras) {
        let mut first = self.open(extras);
        self.key(&mut first, "anyOf");
        self.raw(b"[");
        self.lenient = false;
        self.schema(leaf, Extras::NONE, NO_BOUNDS);
        self.lenient = true;
        self.raw(b",{\"type\":\"string\",");
        match leaf {
            Schema::Boolean => self.raw(b"\"enum\":[\"true\",\"false\"]"),
            Schema::Integer { min, .. } if *min >= 0 => {
                self.raw(b"\"pattern\":");
                self.string(LENIENT_UNSIGNED);
            }
            Schema::Integer { .. } => {
                self.raw(b"\"pattern\":");
                self.string(LENIENT_SIGNED);
            }
            _ => {
                self.raw(b"\"pattern\":");
                self.string(LENIENT_NUMBER);
            }
        }
        self.raw(b"}]}");
    }
}
