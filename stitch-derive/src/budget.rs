//! The size of what the derive writes for the benchmarks' corpus (`benches/src/corpus.rs`:
//! four realistic tools and the types they hold), in tokens, against a recorded budget.
//!
//! Every token the derive emits is parsed, resolved and type-checked in every user's build,
//! so its count follows build time closely (`benches/build-time.sh` measures the time itself,
//! but takes minutes). A change that makes the output grow past the budget fails here and
//! has to say so by raising [`BUDGET`], with its measured build time in BENCHMARKS.md. The
//! check is one-way: a smaller output passes (lower the budget when it is worth recording).

use proc_macro2::{TokenStream, TokenTree};

/// Tokens the derive writes for the corpus, with 2% headroom.
const BUDGET: usize = 5_843;

/// Tokens in `stream`, groups counted with their contents.
fn count(stream: TokenStream) -> usize {
    stream
        .into_iter()
        .map(|tt| match tt {
            TokenTree::Group(g) => 1 + count(g.stream()),
            _ => 1,
        })
        .sum()
}

/// Each `#[derive(…)]` item of `text`: from the attribute to the `}` that closes it, at the
/// start of a line.
fn items(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("#[derive(") {
            current = Some(String::new());
        }
        if let Some(item) = current.as_mut() {
            item.push_str(line);
            item.push('\n');
            if line == "}" {
                items.extend(current.take());
            }
        }
    }
    items
}

#[test]
fn the_corpus_output_stays_within_its_budget() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../benches/src/corpus.rs");
    let text = std::fs::read_to_string(path).expect("the corpus, benches/src/corpus.rs");
    let items = items(&text);
    assert!(
        items.len() >= 8,
        "the corpus's types were not found: {}",
        items.len()
    );
    let mut total = 0;
    for item in &items {
        let input: syn::DeriveInput = syn::parse_str(item).expect("a derive input");
        let out = crate::derive(&input);
        assert!(
            !out.to_string().contains("compile_error"),
            "{}: the derive refused it",
            input.ident
        );
        total += count(out);
    }
    eprintln!("the derive writes {total} tokens for the corpus (budget {BUDGET})");
    assert!(
        total <= BUDGET,
        "the derive's output for the corpus grew to {total} tokens, past its budget of \
         {BUDGET}: measure benches/build-time.sh, record it in BENCHMARKS.md, and raise BUDGET \
         in stitch-derive/src/budget.rs if the growth is meant"
    );
}
