//! [`Coerce`](crate::walk::Coerce) and [`Describe`](crate::schema::Describe) for the standard
//! types, one file per family; each family's macro writes both impls of a type together.

/// The two array-form items of a type that has no array form (no list written as text is
/// its to take, no bounds to keep): written out by every such impl, as `Coerce` has no
/// defaults for them.
macro_rules! no_array_form {
    () => {
        #[inline]
        fn accepts_text_list(_: &str, _: $crate::bounds::Bounds) -> bool {
            false
        }

        #[inline]
        fn bounds_hold(&self, _: $crate::bounds::Bounds) -> bool {
            true
        }
    };
}

mod maps;
mod scalars;
mod sequences;
mod strings;
mod tuples;
mod value;
mod wrappers;
