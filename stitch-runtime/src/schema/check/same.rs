//! Whether two schema trees are written as the same schema (a tuple's members).

use crate::schema::{str_eq, Object, Schema};

const fn opt_str_eq(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => str_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

const fn all_same(a: &[&Schema], b: &[&Schema]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !same(a[i], b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// As far as a tuple's members go; two anchored members never are (the second is a reference).
pub(super) const fn same(a: &Schema, b: &Schema) -> bool {
    match (a, b) {
        (Schema::Any, Schema::Any)
        | (Schema::Null, Schema::Null)
        | (Schema::Boolean, Schema::Boolean)
        | (Schema::Number, Schema::Number)
        | (Schema::Float32, Schema::Float32)
        | (Schema::String, Schema::String)
        | (Schema::Char, Schema::Char) => true,
        (Schema::Integer { min: a1, max: a2 }, Schema::Integer { min: b1, max: b2 }) => {
            *a1 == *b1 && *a2 == *b2
        }
        (Schema::Enum(a), Schema::Enum(b)) => {
            if a.len() != b.len() {
                return false;
            }
            let mut i = 0;
            while i < a.len() {
                if !str_eq(a[i], b[i]) {
                    return false;
                }
                i += 1;
            }
            true
        }
        (
            Schema::Array {
                items: ai,
                min_items: amin,
                max_items: amax,
                unique: au,
            },
            Schema::Array {
                items: bi,
                min_items: bmin,
                max_items: bmax,
                unique: bu,
            },
        ) => {
            let max = match (amax, bmax) {
                (Some(a), Some(b)) => *a == *b,
                (None, None) => true,
                _ => false,
            };
            max && *amin == *bmin && *au == *bu && same(ai, bi)
        }
        (Schema::Tuple(a), Schema::Tuple(b))
        | (Schema::AnyOf(a), Schema::AnyOf(b))
        | (Schema::OneOf(a), Schema::OneOf(b)) => all_same(a, b),
        (Schema::Map(a), Schema::Map(b)) | (Schema::OneOrMany(a), Schema::OneOrMany(b)) => {
            same(a, b)
        }
        (Schema::Object(a), Schema::Object(b)) => objects_same(a, b),
        (Schema::Raw(a), Schema::Raw(b)) => str_eq(a, b),
        (
            Schema::Tagged {
                tag: at,
                value: av,
                body: ab,
            },
            Schema::Tagged {
                tag: bt,
                value: bv,
                body: bb,
            },
        ) => str_eq(at, bt) && str_eq(av, bv) && same(ab, bb),
        (
            Schema::Adjacent {
                tag: at,
                value: av,
                content_key: ak,
                content: ac,
            },
            Schema::Adjacent {
                tag: bt,
                value: bv,
                content_key: bk,
                content: bc,
            },
        ) => {
            let content = match (ac, bc) {
                (Some(a), Some(b)) => same(a, b),
                (None, None) => true,
                _ => false,
            };
            content && str_eq(at, bt) && str_eq(av, bv) && str_eq(ak, bk)
        }
        (
            Schema::External {
                key: ak,
                content: ac,
            },
            Schema::External {
                key: bk,
                content: bc,
            },
        ) => str_eq(ak, bk) && same(ac, bc),
        (
            Schema::Described {
                description: ad,
                inner: ai,
            },
            Schema::Described {
                description: bd,
                inner: bi,
            },
        ) => str_eq(ad, bd) && same(ai, bi),
        (
            Schema::Bounded {
                inner: ai,
                min: amin,
                max: amax,
            },
            Schema::Bounded {
                inner: bi,
                min: bmin,
                max: bmax,
            },
        ) => *amin == *bmin && *amax == *bmax && same(ai, bi),
        (Schema::Lenient(a), Schema::Lenient(b)) => same(a, b),
        _ => false,
    }
}

const fn objects_same(a: &Object, b: &Object) -> bool {
    if a.properties.len() != b.properties.len()
        || a.flatten.len() != b.flatten.len()
        || a.deny_unknown_fields != b.deny_unknown_fields
        || !opt_str_eq(a.description, b.description)
    {
        return false;
    }
    let mut i = 0;
    while i < a.properties.len() {
        let (p, q) = (&a.properties[i], &b.properties[i]);
        if !str_eq(p.name(), q.name())
            || p.required() != q.required()
            || !opt_str_eq(p.description(), q.description())
            || !opt_str_eq(p.default(), q.default())
            || !same(p.schema(), q.schema())
        {
            return false;
        }
        i += 1;
    }
    let mut f = 0;
    while f < a.flatten.len() {
        let (p, q) = (&a.flatten[f], &b.flatten[f]);
        if p.optional != q.optional || !same(p.schema, q.schema) {
            return false;
        }
        f += 1;
    }
    true
}
