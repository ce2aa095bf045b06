//! [`Coerce`](crate::walk::Coerce) and [`Describe`](crate::schema::Describe) for the standard
//! types, one file per family; each family's macro writes both impls of a type together.

mod maps;
mod scalars;
mod sequences;
mod strings;
mod tuples;
mod value;
mod wrappers;
