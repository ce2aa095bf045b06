//! Collects every user error of one derive, so that one compile reports them all.
//!
//! Parsers and checks record a problem and carry on; the derive reads the collection once, at
//! the end, with [`Ctxt::check`]. A `Ctxt` dropped without that call panics (as serde_derive's
//! does): a code path that forgot to report what it collected fails every test that reaches
//! it, instead of silently emitting impls for a broken input.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// The error collector. Parsers and checks record problems here and carry on.
pub struct Ctxt {
    /// The errors so far; `None` once [`Ctxt::check`] has taken them.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// A new, empty collector. It must be finished with [`Ctxt::check`].
    pub fn new() -> Ctxt {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Records `msg` pointing at `tokens`.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, msg: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), msg));
    }

    /// Records a syn error as it is.
    pub fn syn_error(&self, err: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(err);
    }

    /// Finishes: `Ok` when nothing was recorded, else every error as one combined `syn::Error`
    /// (in the order recorded; `into_iter` on it gives them back one by one).
    pub fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        // Not while unwinding from another panic: that one is the news, and a second panic
        // would abort.
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors: a `Ctxt` must be finished with `check()`");
        }
    }
}
