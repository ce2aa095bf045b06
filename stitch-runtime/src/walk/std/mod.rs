//! [`Coerce`](crate::walk::Coerce) and [`Describe`](crate::schema::Describe) for the standard
//! types, one file per family; each family's macro writes both impls of a type together.

/// `Coerce`'s array-form items for a type with none (`Coerce` has no defaults for them).
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
