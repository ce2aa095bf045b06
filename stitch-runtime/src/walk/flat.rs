//! Objects shared by several types (`#[serde(flatten)]`, internally tagged variants): which keys
//! are whose (`docs/rules.md#r4`). A type walking one is handed [`Claims`], the chain of what the
//! levels around it declare, on the stack like [`Path`].

use serde_json::{Map, Value};

use crate::bounds::Bounds;
use crate::path::Path;
use crate::walk::{Coerce, Cx, Fields};

/// The keys of a shared object the types around a flattened one declare: a chain on the stack.
#[derive(Clone, Copy)]
pub struct Claims<'a> {
    declares: Declares,
    outer: Option<&'a Claims<'a>>,
    /// Whether the object is its own, so `deny_unknown_fields` judges it; not for a struct
    /// flattened into another, which reads only its own fields.
    judged: bool,
}

impl Claims<'static> {
    /// An object no one else shares: nothing is claimed.
    pub const NONE: Claims<'static> = Claims {
        declares: Declares::Fn(claims_nothing),
        outer: None,
        judged: true,
    };

    /// An object an enclosing enum shares with this type: `declares` claims the enum's tag.
    pub const fn beside(declares: fn(&str) -> bool) -> Claims<'static> {
        Claims {
            declares: Declares::Fn(declares),
            outer: None,
            judged: true,
        }
    }
}

impl<'a> Claims<'a> {
    /// The claims handed to a type flattened into this level, whose own fields `declares` claims.
    #[inline]
    pub fn within(&'a self, declares: fn(&str) -> bool) -> Claims<'a> {
        Claims {
            declares: Declares::Fn(declares),
            outer: Some(self),
            judged: false,
        }
    }

    /// [`Claims::within`] a struct's table.
    #[inline]
    pub(crate) fn within_fields(&'a self, fields: &'static Fields) -> Claims<'a> {
        Claims {
            declares: Declares::Fields(fields),
            outer: Some(self),
            judged: false,
        }
    }

    /// Whether some level declares `key`.
    pub fn claims(&self, key: &str) -> bool {
        let mut level = Some(self);
        while let Some(claims) = level {
            if claims.declares.declares(key) {
                return true;
            }
            level = claims.outer;
        }
        false
    }

    /// Whether `key`, not the type's own, is unknown under `deny_unknown_fields`.
    #[inline]
    pub fn denies(&self, key: &str) -> bool {
        self.judged && !self.claims(key)
    }
}

fn claims_nothing(_: &str) -> bool {
    false
}

#[derive(Clone, Copy)]
enum Declares {
    Fn(fn(&str) -> bool),
    Fields(&'static Fields),
}

impl Declares {
    #[inline]
    fn declares(self, key: &str) -> bool {
        match self {
            Declares::Fn(declares) => declares(key),
            Declares::Fields(fields) => fields.declares(key),
        }
    }
}

/// Walks the keys of a shared object that `claims` does not claim as `T`s (a flattened map).
#[inline]
pub fn walk_flat_map<T: Coerce>(
    map: &mut Map<String, Value>,
    cx: &mut Cx,
    at: &Path<'_>,
    claims: &Claims<'_>,
) {
    for (key, item) in map.iter_mut() {
        if !claims.claims(key) {
            T::walk(item, cx, &at.key(key), Bounds::NONE);
        }
    }
}
