//! The model of the input type, with the spans of what the user wrote: the container, its
//! variants and fields (`ast`), read from stitch's attributes (`attr`, with `constraint` and
//! `pattern`), serde's (`serde_attr`, with `case`), and `Self` replaced (`receiver`).

pub mod ast;
pub mod attr;
pub mod case;
pub mod constraint;
pub mod pattern;
pub mod receiver;
pub mod serde_attr;
