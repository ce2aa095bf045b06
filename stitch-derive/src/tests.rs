//! Unit tests of the model and the error collector on `parse_quote!` inputs.

use syn::parse_quote;

use crate::check::check;
use crate::ctxt::Ctxt;
use crate::model::ast::{Container, Data, Style, Tagging};

/// Every error `cx` collected, in order, as text.
fn messages(cx: Ctxt) -> Vec<String> {
    match cx.check() {
        Ok(()) => Vec::new(),
        Err(combined) => combined.into_iter().map(|e| e.to_string()).collect(),
    }
}

/// The errors of the model and its checks for `input`.
fn errors(input: &syn::DeriveInput) -> Vec<String> {
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, input);
    check(&cx, &cont);
    messages(cx)
}

#[test]
fn wire_names_follow_serde() {
    let input: syn::DeriveInput = parse_quote! {
        #[serde(rename_all = "camelCase")]
        struct Args {
            file_paths: Vec<String>,
            #[serde(rename = "q", alias = "query", alias = "search")]
            text: String,
            r#type: String,
            #[serde(skip)]
            cache: u8,
            #[serde(flatten)]
            rest: Extra,
        }
    };
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, &input);
    assert!(messages(cx).is_empty());
    let Data::Struct(fields) = &cont.data else {
        panic!("a struct")
    };
    let wire: Vec<&str> = fields.iter().map(|f| f.names.wire.as_str()).collect();
    assert_eq!(wire, ["filePaths", "q", "type", "cache", "rest"]);
    assert_eq!(
        fields[1].names.all().collect::<Vec<_>>(),
        ["q", "query", "search"]
    );
    assert!(fields[3].skip && !fields[3].walked());
    assert!(fields[4].flatten);
}

#[test]
fn enum_tagging_and_variant_names() {
    let input: syn::DeriveInput = parse_quote! {
        #[serde(tag = "type", content = "body", rename_all = "snake_case", rename_all_fields = "kebab-case")]
        enum Action {
            HTTPGet { max_items: u8 },
            #[serde(rename_all = "UPPERCASE")]
            Put { max_items: u8 },
            #[serde(rename = "del", alias = "rm")]
            Delete(String),
            Swap(u8, u8),
            Stop,
        }
    };
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, &input);
    assert!(messages(cx).is_empty());
    assert_eq!(
        cont.tagging(),
        Tagging::Adjacent {
            tag: "type".into(),
            content: "body".into()
        }
    );
    let Data::Enum(variants) = &cont.data else {
        panic!("an enum")
    };
    let names: Vec<&str> = variants.iter().map(|v| v.names.wire.as_str()).collect();
    assert_eq!(names, ["h_t_t_p_get", "put", "del", "swap", "stop"]);
    assert_eq!(variants[0].fields[0].names.wire, "max-items");
    assert_eq!(variants[1].fields[0].names.wire, "MAX_ITEMS");
    assert_eq!(variants[2].names.aliases, ["rm"]);
    let styles: Vec<Style> = variants.iter().map(|v| v.style).collect();
    assert_eq!(
        styles,
        [
            Style::Struct,
            Style::Struct,
            Style::Newtype,
            Style::Tuple,
            Style::Unit
        ]
    );
}

#[test]
fn serde_rename_with_deserialize_half() {
    let input: syn::DeriveInput = parse_quote! {
        #[serde(rename_all(serialize = "UPPERCASE", deserialize = "PascalCase"), some_future_key = "x")]
        struct Args {
            #[serde(rename(serialize = "out"), with = "module")]
            in_path: String,
            #[serde(rename(deserialize = "src", serialize = "dst"))]
            source: String,
        }
    };
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, &input);
    assert!(messages(cx).is_empty());
    let Data::Struct(fields) = &cont.data else {
        panic!("a struct")
    };
    assert_eq!(fields[0].names.wire, "InPath");
    assert_eq!(fields[1].names.wire, "src");
}

#[test]
fn every_mistake_is_reported_in_one_pass() {
    let input: syn::DeriveInput = parse_quote! {
        #[stitch(crate = "::my::rt", color = "blue")]
        struct Args {
            #[stitch(max_items = 2, min_items = 3, colour)]
            a: Vec<String>,
            #[stitch(opaque, max_items = "20")]
            b: Vec<String>,
            #[stitch(max_items = 1)]
            #[stitch(max_items = 2)]
            c: Vec<String>,
            #[stitch(opaque, min_items = 1)]
            d: Vec<String>,
        }
    };
    let messages = errors(&input);
    assert_eq!(
        messages,
        [
            "unknown `stitch` attribute `color`; expected one of `crate`, `description`, `lenient_scalars`",
            "unknown `stitch` attribute `colour`; expected one of `description`, `exclusive_maximum`, `exclusive_minimum`, `format`, `lenient_scalars`, `max_items`, `max_length`, `maximum`, `min_items`, `min_length`, `minimum`, `multiple_of`, `opaque`, `pattern`, `schema`",
            "expected an integer literal for `max_items`, as in `max_items = 20`",
            "duplicate `stitch` attribute `max_items`",
            "`max_items = 2` is less than `min_items = 3`; no list could satisfy both",
            "`opaque` leaves the field to serde, so `min_items` cannot apply to it; remove one of them",
        ]
    );
}

#[test]
fn unsupported_shapes_are_errors() {
    let tuple: syn::DeriveInput = parse_quote!(
        struct Pair(String, u8);
    );
    assert_eq!(errors(&tuple).len(), 1);
    assert!(errors(&tuple)[0].contains("tuple struct"));
    let unit: syn::DeriveInput = parse_quote!(
        struct Nothing;
    );
    assert!(errors(&unit)[0].contains("unit struct"));
    let union: syn::DeriveInput = parse_quote!(union U { a: u8, b: u16 });
    assert!(errors(&union)[0].contains("union"));
    let newtype: syn::DeriveInput = parse_quote!(
        struct Name(String);
    );
    assert!(errors(&newtype).is_empty());
}

#[test]
fn malformed_serde_attributes_are_left_to_serde() {
    let input: syn::DeriveInput = parse_quote! {
        #[serde(rename_all = 5, tag)]
        struct Args {
            #[serde(rename = , alias)]
            a: String,
        }
    };
    assert!(errors(&input).is_empty());
}

#[test]
fn expansion_never_panics_on_broken_input() {
    let inputs: Vec<syn::DeriveInput> = vec![
        parse_quote!(
            struct A {
                #[stitch]
                a: u8,
            }
        ),
        parse_quote!(
            struct A {
                #[stitch(max_items)]
                a: u8,
            }
        ),
        parse_quote!(
            struct A {
                #[stitch(max_items = )]
                a: u8,
            }
        ),
        parse_quote!(
            struct A {
                #[stitch(max_items = 99999999999999999999999999)]
                a: u8,
            }
        ),
        parse_quote!(
            struct A {
                #[stitch = "x"]
                a: u8,
            }
        ),
        parse_quote!(
            #[stitch(crate)]
            struct A {
                a: u8,
            }
        ),
        parse_quote!(
            #[serde(transparent)]
            struct A {
                a: u8,
                b: u8,
            }
        ),
        parse_quote!(
            enum E {
                #[stitch(opaque)]
                A(u8),
            }
        ),
        parse_quote!(
            enum E {}
        ),
    ];
    for input in &inputs {
        let out = crate::derive(input).to_string();
        assert!(!out.is_empty());
    }
    // An empty `#[stitch()]` says nothing, as an empty `#[serde()]` does.
    let empty: syn::DeriveInput = parse_quote!(
        struct A {
            #[stitch()]
            a: u8,
        }
    );
    assert!(errors(&empty).is_empty());
    // Each broken input above reports at least one error, except the empty enum.
    let with_errors = inputs.iter().filter(|i| !errors(i).is_empty()).count();
    assert_eq!(with_errors, inputs.len() - 1);
}

#[test]
fn the_collector_keeps_errors_in_order_and_combines_them() {
    let cx = Ctxt::new();
    cx.error_spanned_by(quote::quote!(a), "first");
    cx.syn_error(syn::Error::new(proc_macro2::Span::call_site(), "second"));
    assert_eq!(messages(cx), ["first", "second"]);
    assert!(Ctxt::new().check().is_ok());
}

#[test]
#[should_panic(expected = "forgot to check for errors")]
fn a_collector_dropped_without_check_panics() {
    let cx = Ctxt::new();
    cx.error_spanned_by(quote::quote!(a), "never reported");
    drop(cx);
}

#[test]
#[should_panic(expected = "forgot to check for errors")]
fn an_empty_collector_dropped_without_check_panics_too() {
    // Even with nothing recorded: the path that forgot `check` would forget real errors too.
    drop(Ctxt::new());
}

#[test]
fn self_is_replaced_once_in_the_model() {
    let input: syn::DeriveInput = parse_quote! {
        struct Node<'a, T, U: Clone> {
            value: T,
            next: Option<Box<Self>>,
            assoc: Vec<Self::Item>,
            named: Vec<Node<'a, T, U>>,
            #[stitch(opaque)]
            other: U,
            text: std::borrow::Cow<'a, str>,
        }
    };
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, &input);
    assert!(messages(cx).is_empty());
    let Data::Struct(fields) = &cont.data else {
        panic!("a struct")
    };
    let types: Vec<String> = fields
        .iter()
        .map(|f| {
            let ty = &f.ty;
            quote::quote!(#ty).to_string()
        })
        .collect();
    assert_eq!(
        types,
        [
            "T",
            "Option < Box < Node < 'a , T , U > > >",
            "Vec < < Node < 'a , T , U > > :: Item >",
            "Vec < Node < 'a , T , U > >",
            "U",
            "std :: borrow :: Cow < 'a , str >",
        ]
    );
    // `Self` names no type parameter (the impl covers it); the container's name, written
    // out, names what its arguments name.
    let params: Vec<Vec<String>> = fields
        .iter()
        .map(|f| f.type_params.iter().map(|p| p.to_string()).collect())
        .collect();
    let expected: [&[&str]; 6] = [&["T"], &[], &[], &["T", "U"], &["U"], &[]];
    assert_eq!(params, expected);
    let recursive: Vec<bool> = fields.iter().map(|f| f.recursive).collect();
    assert_eq!(recursive, [false, true, true, true, false, false]);
    assert!(cont.recursive());
}

#[test]
fn self_in_a_type_without_generics_becomes_the_bare_name() {
    let input: syn::DeriveInput = parse_quote! {
        enum Tree {
            Leaf(String),
            Node { children: Vec<Self>, first: Self::Item },
        }
    };
    let cx = Ctxt::new();
    let cont = Container::from_ast(&cx, &input);
    assert!(messages(cx).is_empty());
    let types: Vec<String> = cont
        .all_fields()
        .map(|f| {
            let ty = &f.ty;
            quote::quote!(#ty).to_string()
        })
        .collect();
    assert_eq!(types, ["String", "Vec < Tree >", "Tree :: Item"]);
}
