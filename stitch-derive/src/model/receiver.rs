//! `Self` in a container's field types, replaced by the container's own type while the model
//! is built ([`Receiver`]), noting the type parameters and the container each type names.

use proc_macro2::{Group, Punct, Spacing, Span, TokenStream, TokenTree};
use quote::ToTokens;

/// Replaces `Self` in field types with the container's own type, once, while the model is
/// built (serde_derive's `replace_receiver` does the same): every generator after it sees
/// concrete types and can name them anywhere, in the impls or in a `const` beside them.
///
/// The same pass over a field type's tokens notes which of the container's type parameters
/// it names and whether it names the container (see [`Field::type_params`] and
/// [`Field::recursive`]).
pub(crate) struct Receiver<'a> {
    /// The container's name.
    ident: &'a syn::Ident,
    /// Its type arguments as it names itself (`<'a, T, N>`), empty without generics.
    args: TokenStream,
    /// Its type parameters (lifetimes and consts are never bounded).
    params: Vec<&'a syn::Ident>,
}

impl<'a> Receiver<'a> {
    pub(crate) fn new(ident: &'a syn::Ident, generics: &'a syn::Generics) -> Receiver<'a> {
        let (_, args, _) = generics.split_for_impl();
        Receiver {
            ident,
            args: args.to_token_stream(),
            params: generics.type_params().map(|p| &p.ident).collect(),
        }
    }

    /// `ty` with `Self` replaced, the type parameters it names as written, and whether it
    /// names the container.
    pub(crate) fn rewrite(&self, ty: &syn::Type) -> (syn::Type, Vec<syn::Ident>, bool) {
        let mut seen = Seen {
            params: vec![false; self.params.len()],
            container: false,
            receiver: false,
        };
        let tokens = self.rewrite_tokens(ty.to_token_stream(), &mut seen);
        // Tokens rewritten this way always parse again as a type; should one not, the type as
        // written still compiles inside the impls, where `Self` is the container.
        let ty = match seen.receiver {
            true => syn::parse2(tokens).unwrap_or_else(|_| ty.clone()),
            false => ty.clone(),
        };
        let params = self.params.iter().zip(&seen.params);
        let params = params.filter(|(_, &used)| used).map(|(p, _)| (*p).clone());
        (ty, params.collect(), seen.container)
    }

    /// The token walk of [`Receiver::rewrite`]. It works on tokens rather than syn's type
    /// tree so that it reaches every `Self` and every name: in paths, in `<T as Trait>`, in
    /// a macro's arguments, in an array's length.
    fn rewrite_tokens(&self, tokens: TokenStream, seen: &mut Seen) -> TokenStream {
        let mut out = TokenStream::new();
        let mut tokens = tokens.into_iter().peekable();
        while let Some(tt) = tokens.next() {
            match tt {
                TokenTree::Ident(ident) if ident == "Self" => {
                    seen.receiver = true;
                    seen.container = true;
                    // `Self::Assoc` becomes `<Name<T>>::Assoc`: `Name<T>::Assoc` does not parse.
                    let qualified = !self.args.is_empty()
                        && matches!(tokens.peek(), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                    out.extend(self.concrete(ident.span(), qualified));
                }
                TokenTree::Ident(ident) => {
                    if ident == *self.ident {
                        seen.container = true;
                    }
                    if let Some(i) = self.params.iter().position(|p| **p == ident) {
                        seen.params[i] = true;
                    }
                    out.extend([TokenTree::Ident(ident)]);
                }
                TokenTree::Group(group) => {
                    let inner = self.rewrite_tokens(group.stream(), seen);
                    let mut rebuilt = Group::new(group.delimiter(), inner);
                    rebuilt.set_span(group.span());
                    out.extend([TokenTree::Group(rebuilt)]);
                }
                other => out.extend([other]),
            }
        }
        out
    }

    /// The container's own type (`Name`, `Name<'a, T>`, or `<Name<'a, T>>` before `::`), every
    /// token spanned at the `Self` it replaces, so that errors point where the user wrote it.
    fn concrete(&self, span: Span, qualified: bool) -> TokenStream {
        let mut ty = TokenStream::new();
        ty.extend([TokenTree::Ident(syn::Ident::new(
            &self.ident.to_string(),
            span,
        ))]);
        ty.extend(respan(self.args.clone(), span));
        if !qualified {
            return ty;
        }
        let mut out = TokenStream::new();
        let angle = |c| {
            let mut p = Punct::new(c, Spacing::Alone);
            p.set_span(span);
            TokenTree::Punct(p)
        };
        out.extend([angle('<')]);
        out.extend(ty);
        out.extend([angle('>')]);
        out
    }
}

/// What [`Receiver::rewrite_tokens`] found in one type.
struct Seen {
    /// For each of the container's type parameters, whether the type names it.
    params: Vec<bool>,
    /// The type names the container, as `Self` or by name.
    container: bool,
    /// The type held a `Self`, now replaced.
    receiver: bool,
}

/// `tokens` with every span set to `span`.
fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tt| {
            if let TokenTree::Group(g) = &tt {
                let mut group = Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                tt = TokenTree::Group(group);
            }
            tt.set_span(span);
            tt
        })
        .collect()
}
