//! The parsed model of a `#[derive(ToolArgs)]` input: names as serde reads them, our
//! attributes, and the spans to point errors at.

use syn::ext::IdentExt;

use crate::ctxt::Ctxt;
use crate::model::attr::{self, ContainerAttrs, FieldAttrs};
use crate::model::case::RenameRule;
use crate::model::receiver::Receiver;
use crate::model::serde_attr::{DeserializeWith, SerdeContainer, SerdeField, SerdeVariant};

/// The whole input.
pub struct Container<'a> {
    /// The type's name.
    pub ident: &'a syn::Ident,
    /// Its generics, as written.
    pub generics: &'a syn::Generics,
    /// Its body.
    pub data: Data<'a>,
    /// `#[stitch(...)]` on the container.
    pub attrs: ContainerAttrs,
    /// `#[serde(...)]` on the container.
    pub serde: SerdeContainer,
    /// The doc comment.
    pub doc: Option<String>,
}

/// A struct's or an enum's body.
pub enum Data<'a> {
    /// A struct with named fields.
    Struct(Vec<Field>),
    /// A struct with one unnamed field, read as that field (serde's newtype struct).
    Newtype(Box<Field>),
    /// An enum.
    Enum(Vec<Variant<'a>>),
    /// Something we refuse (a union, a unit or tuple struct), the error already recorded; or
    /// a tuple or unit struct read through `#[serde(from)]`, whose body stitch never reads.
    Unsupported,
}

/// How an enum is written on the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tagging {
    /// `{"Variant": content}` or `"Variant"` (serde's default).
    External,
    /// `{"tag": "Variant", …fields}`
    Internal { tag: String },
    /// `{"tag": "Variant", "content": content}`
    Adjacent { tag: String, content: String },
    /// Whichever variant deserializes first.
    Untagged,
}

/// The names a field or variant is read under.
#[derive(Clone, Debug)]
pub struct Names {
    /// The name serde reads (after `rename` / `rename_all`).
    pub wire: String,
    /// Further names serde accepts (`alias`).
    pub aliases: Vec<String>,
}

impl Names {
    /// Every accepted name, the wire name first.
    pub fn all(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.wire.as_str()).chain(self.aliases.iter().map(String::as_str))
    }
}

/// A field of a struct or a variant.
pub struct Field {
    /// The names serde reads it under (for a tuple field: its index).
    pub names: Names,
    /// How Rust names it: `self.paths`, `self.0`.
    pub member: syn::Member,
    /// Its type, with `Self` replaced by the container's own type (see [`Receiver`]).
    pub ty: syn::Type,
    /// The container's type parameters that its type names as written. A `Self` names none:
    /// the impl being generated is the one that covers `Self`, so it needs no bound for it.
    pub type_params: Vec<syn::Ident>,
    /// Its type names the container, as `Self` or by name: the schema of such a field refers
    /// back to the container instead of repeating it.
    pub recursive: bool,
    /// `#[stitch(...)]` on it.
    pub attrs: FieldAttrs,
    /// serde skips it when deserializing.
    pub skip: bool,
    /// `#[serde(default)]` or `#[serde(default = "…")]` on the field.
    pub default: bool,
    /// The default is a function (`default = "…"`), not `Default::default()`.
    pub default_path: bool,
    /// The doc comment.
    pub doc: Option<String>,
    /// `#[serde(flatten)]`
    pub flatten: bool,
    /// Numbers and booleans written as text are read (`lenient_scalars` on the field or the
    /// container).
    pub lenient: bool,
    /// `#[serde(deserialize_with = "…")]` or `#[serde(with = "…")]` on the field (or on the
    /// newtype variant that holds it): the user's function reads the value, so the field is
    /// opaque (see [`Field::opaque_by_serde`]).
    pub with: Option<DeserializeWith>,
}

impl Field {
    /// The one opaque decision for `deserialize_with` / `with`: the user's function must see
    /// the value exactly as sent, so stitch never walks, repairs or type-checks it. The field
    /// is made opaque in the model (`attrs.opaque`, spanned at serde's string), which every
    /// generator already reads: walked for depth only, schema `{}` or its `schema = "…"`, no
    /// `Coerce` bound on its type. An explicit `#[stitch(opaque)]` beside it stays allowed.
    fn opaque_by_serde(&mut self, with: DeserializeWith) {
        self.with.get_or_insert(with);
        self.attrs.opaque.get_or_insert(with.span);
    }

    /// Whether the walk goes into this field's type (not skipped, not opaque).
    pub fn walked(&self) -> bool {
        !self.skip && self.attrs.opaque.is_none()
    }

    /// Whether serde's `transparent` may read through this field: not skipped, no default,
    /// not a `PhantomData` (serde's own rule).
    pub fn transparent_candidate(&self) -> bool {
        let phantom = match &self.ty {
            syn::Type::Path(path) => path
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "PhantomData"),
            _ => false,
        };
        !self.skip && !self.default && !phantom
    }
}

/// The field serde's `transparent` reads through, if there is exactly one.
pub fn transparent_field(fields: &[Field]) -> Option<&Field> {
    let mut candidates = fields.iter().filter(|f| f.transparent_candidate());
    match (candidates.next(), candidates.next()) {
        (Some(field), None) => Some(field),
        _ => None,
    }
}

/// How a variant holds its data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// `A`
    Unit,
    /// `A(T)`
    Newtype,
    /// `A(T, U)`
    Tuple,
    /// `A { x: T }`
    Struct,
}

/// A variant of an enum.
pub struct Variant<'a> {
    /// Its Rust name.
    pub ident: &'a syn::Ident,
    /// The names serde reads it under.
    pub names: Names,
    /// How it holds its data.
    pub style: Style,
    /// Its fields (named for `Struct`, in order for `Newtype`/`Tuple`).
    pub fields: Vec<Field>,
    /// serde skips it when deserializing.
    pub skip: bool,
    /// `#[serde(other)]`: serde reads any tag no other variant names as this one.
    pub other: bool,
    /// The doc comment.
    pub doc: Option<String>,
    /// `#[serde(deserialize_with = "…")]` or `#[serde(with = "…")]` on the variant: its
    /// content goes to the user's function. A newtype variant's field is then opaque; `check`
    /// refuses it on the other styles.
    pub with: Option<DeserializeWith>,
}

/// The doc comment of an item: its `#[doc = "…"]` lines, each without the one space that
/// follows `///`, joined with newlines and trimmed; `None` when there is none.
pub fn doc_of(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                let text = s.value();
                for line in text.lines() {
                    lines.push(line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned());
                }
            }
        }
    }
    let joined = lines.join("\n");
    let trimmed = joined.trim();
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

impl<'a> Container<'a> {
    /// Builds the model, recording every problem in `cx`.
    pub fn from_ast(cx: &Ctxt, input: &'a syn::DeriveInput) -> Container<'a> {
        let attrs = ContainerAttrs::from_attrs(cx, &input.attrs);
        let serde = SerdeContainer::from_attrs(&input.attrs);
        let receiver = Receiver::new(&input.ident, &input.generics);
        let data = match &input.data {
            syn::Data::Struct(data) => match &data.fields {
                syn::Fields::Named(named) => Data::Struct(fields_from_ast(
                    cx,
                    &receiver,
                    named.named.iter(),
                    serde.rename_all.unwrap_or(RenameRule::None),
                )),
                syn::Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
                    let mut fields =
                        fields_from_ast(cx, &receiver, unnamed.unnamed.iter(), RenameRule::None);
                    Data::Newtype(Box::new(fields.remove(0)))
                }
                // serde reads a `from` type through its source type, whatever its own body.
                syn::Fields::Unnamed(_) | syn::Fields::Unit if serde.from.is_some() => {
                    Data::Unsupported
                }
                syn::Fields::Unnamed(unnamed) => {
                    cx.error_spanned_by(
                        unnamed,
                        "`ToolArgs` cannot be derived for a tuple struct; name its fields, since a tool's arguments are a JSON object",
                    );
                    Data::Unsupported
                }
                syn::Fields::Unit => {
                    cx.error_spanned_by(
                        &input.ident,
                        "`ToolArgs` cannot be derived for a unit struct; give it named fields (`struct NoArgs {}` takes no arguments)",
                    );
                    Data::Unsupported
                }
            },
            syn::Data::Enum(data) => Data::Enum(
                data.variants
                    .iter()
                    .map(|v| variant_from_ast(cx, &receiver, v, &serde))
                    .collect(),
            ),
            syn::Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "`ToolArgs` cannot be derived for a union; use a struct with named fields or an enum",
                );
                Data::Unsupported
            }
        };
        let mut data = data;
        if attrs.lenient_scalars.is_some() {
            let fields: Vec<&mut Field> = match &mut data {
                Data::Struct(fields) => fields.iter_mut().collect(),
                Data::Newtype(field) => vec![&mut **field],
                Data::Enum(variants) => variants
                    .iter_mut()
                    .flat_map(|v| v.fields.iter_mut())
                    .collect(),
                Data::Unsupported => Vec::new(),
            };
            for field in fields {
                field.lenient = true;
            }
        }
        Container {
            ident: &input.ident,
            generics: &input.generics,
            data,
            attrs,
            serde,
            doc: doc_of(&input.attrs),
        }
    }

    /// How the enum is tagged (meaningless for structs).
    pub fn tagging(&self) -> Tagging {
        match (&self.serde.tag, &self.serde.content, self.serde.untagged) {
            (_, _, true) => Tagging::Untagged,
            (Some(tag), Some(content), false) => Tagging::Adjacent {
                tag: tag.clone(),
                content: content.clone(),
            },
            (Some(tag), None, false) => Tagging::Internal { tag: tag.clone() },
            (None, _, false) => Tagging::External,
        }
    }

    /// Every field of the body: a struct's, a newtype's, or each variant's in turn.
    pub fn all_fields(&self) -> Box<dyn Iterator<Item = &Field> + '_> {
        match &self.data {
            Data::Struct(fields) => Box::new(fields.iter()),
            Data::Newtype(field) => Box::new(std::iter::once(&**field)),
            Data::Enum(variants) => Box::new(variants.iter().flat_map(|v| v.fields.iter())),
            Data::Unsupported => Box::new(std::iter::empty()),
        }
    }

    /// Whether a field's type names the container itself.
    pub fn recursive(&self) -> bool {
        self.all_fields().any(|f| f.recursive)
    }

    /// The path of the runtime crate: `#[stitch(crate = "…")]` or `::stitch_runtime`.
    pub fn krate(&self) -> syn::Path {
        match &self.attrs.krate {
            Some(k) => k.value.clone(),
            None => syn::parse_quote!(::stitch_runtime),
        }
    }
}

fn fields_from_ast<'a>(
    cx: &Ctxt,
    receiver: &Receiver,
    fields: impl Iterator<Item = &'a syn::Field>,
    rule: RenameRule,
) -> Vec<Field> {
    fields
        .enumerate()
        .map(|(i, field)| {
            let serde = SerdeField::from_attrs(&field.attrs);
            let attrs = FieldAttrs::from_attrs(cx, &field.attrs);
            let wire = match (&serde.rename, &field.ident) {
                (Some(name), _) => name.clone(),
                (None, Some(ident)) => rule.apply_to_field(&ident.unraw().to_string()),
                (None, None) => i.to_string(),
            };
            let (ty, type_params, recursive) = receiver.rewrite(&field.ty);
            let member = match &field.ident {
                Some(ident) => syn::Member::Named(ident.clone()),
                None => syn::Member::Unnamed(syn::Index::from(i)),
            };
            let mut field = Field {
                names: Names {
                    wire,
                    aliases: serde.aliases,
                },
                member,
                ty,
                type_params,
                recursive,
                skip: serde.skip,
                default: serde.default,
                default_path: serde.default_path,
                doc: doc_of(&field.attrs),
                flatten: serde.flatten,
                lenient: attrs.lenient_scalars.is_some(),
                attrs,
                with: None,
            };
            if let Some(with) = serde.with {
                field.opaque_by_serde(with);
            }
            field
        })
        .collect()
}

fn variant_from_ast<'a>(
    cx: &Ctxt,
    receiver: &Receiver,
    variant: &'a syn::Variant,
    container: &SerdeContainer,
) -> Variant<'a> {
    attr::reject_on_variant(cx, &variant.attrs);
    let serde = SerdeVariant::from_attrs(&variant.attrs);
    let wire = match &serde.rename {
        Some(name) => name.clone(),
        None => container
            .rename_all
            .unwrap_or(RenameRule::None)
            .apply_to_variant(&variant.ident.unraw().to_string()),
    };
    let field_rule = serde
        .rename_all
        .or(container.rename_all_fields)
        .unwrap_or(RenameRule::None);
    let (style, mut fields) = match &variant.fields {
        syn::Fields::Unit => (Style::Unit, Vec::new()),
        syn::Fields::Named(named) => (
            Style::Struct,
            fields_from_ast(cx, receiver, named.named.iter(), field_rule),
        ),
        syn::Fields::Unnamed(unnamed) => {
            let style = if unnamed.unnamed.len() == 1 {
                Style::Newtype
            } else {
                Style::Tuple
            };
            (
                style,
                fields_from_ast(cx, receiver, unnamed.unnamed.iter(), RenameRule::None),
            )
        }
    };
    if serde.untagged && !container.untagged {
        cx.error_spanned_by(
            &variant.ident,
            "stitch does not walk `#[serde(untagged)]` on a single variant; put `#[serde(untagged)]` on the enum, or mark the fields that hold this enum `#[stitch(opaque)]`",
        );
    }
    if let (Some(with), Style::Newtype) = (serde.with, style) {
        // The function reads the newtype variant's content, which is its one field.
        fields[0].opaque_by_serde(with);
    }
    Variant {
        ident: &variant.ident,
        names: Names {
            wire,
            aliases: serde.aliases,
        },
        style,
        fields,
        skip: serde.skip,
        other: serde.other,
        doc: doc_of(&variant.attrs),
        with: serde.with,
    }
}
