//! Collects every user error of one derive, so that one compile reports them all.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::TokenStream;
use quote::ToTokens;

/// The error collector. Parsers and checks record problems here and carry on.
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// A new, empty collector.
    pub fn new() -> Ctxt {
        Ctxt::default()
    }

    /// Records `msg` pointing at `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, msg: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), msg));
    }

    /// Records a syn error as it is.
    pub fn syn_error(&self, err: syn::Error) {
        self.errors.borrow_mut().push(err);
    }

    /// Finishes: `Ok` when nothing was recorded, else every error as one combined `syn::Error`.
    pub fn check(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }

    /// The recorded errors as `compile_error!` invocations (for tests).
    #[cfg(test)]
    pub fn messages(&self) -> Vec<String> {
        self.errors.borrow().iter().map(|e| e.to_string()).collect()
    }
}

/// Renders errors as `compile_error!`s.
pub fn to_compile_errors(err: syn::Error) -> TokenStream {
    err.to_compile_error()
}
