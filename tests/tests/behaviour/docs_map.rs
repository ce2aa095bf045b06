//! ARCHITECTURE.md is a map of today's files: every file it names (`walk/union.rs`,
//! `expand/{mod,fields}.rs`, `docs/rules.md`) exists in the repository.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every file of the repository below `root`, as `/`-separated paths relative to it (build
/// output, git's own files and the fuzz corpora left out).
fn files(root: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut dirs = vec![PathBuf::new()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if matches!(name.as_str(), "target" | ".git" | "corpus" | "node_modules") {
                continue;
            }
            let path = dir.join(&name);
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                dirs.push(path);
            } else {
                out.insert(path.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

/// `a/{b,c}.rs` as `a/b.rs` and `a/c.rs`.
fn expand(token: &str) -> Vec<String> {
    match (token.find('{'), token.find('}')) {
        (Some(open), Some(close)) if open < close => token[open + 1..close]
            .split(',')
            .flat_map(|part| expand(&format!("{}{part}{}", &token[..open], &token[close + 1..])))
            .collect(),
        _ => vec![token.to_owned()],
    }
}

/// The file names in `text`: runs of path characters ending in a known extension.
fn named_files(text: &str) -> Vec<String> {
    // A brace group may wrap onto the next line: join it first.
    let mut joined = String::new();
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            '\n' if depth > 0 => {
                while chars.peek().is_some_and(|c| *c == ' ') {
                    chars.next();
                }
                continue;
            }
            _ => {}
        }
        joined.push(c);
    }
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_./{},-".contains(c);
    let mut out = Vec::new();
    for ext in [".rs", ".md", ".sh", ".py", ".toml"] {
        for (at, _) in joined.match_indices(ext) {
            let end = at + ext.len();
            if joined[end..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric())
            {
                continue;
            }
            let start = joined[..at]
                .char_indices()
                .rev()
                .take_while(|(_, c)| path_char(*c))
                .last()
                .map_or(at, |(i, _)| i);
            let token = joined[start..end].trim_start_matches(['.', ',', '{', '}', '-', '/']);
            // Inside a brace group the run starts mid-list: take it from its opening brace.
            if token.contains('}') && !token.contains('{') {
                continue;
            }
            if token.len() > ext.len() && token.ends_with(ext) {
                out.extend(expand(token));
            }
        }
    }
    out
}

#[test]
fn every_file_architecture_names_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let files = files(&root);
    let named = named_files(&text);
    assert!(named.len() > 50, "the map names only {} files", named.len());
    let missing: Vec<&String> = named
        .iter()
        .filter(|name| {
            let suffix = format!("/{name}");
            !files.iter().any(|f| f == *name || f.ends_with(&suffix))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names files that do not exist: {missing:?}"
    );
}

#[test]
fn the_map_reader_finds_wrapped_groups_and_plain_names() {
    let text = "expand/{mod,generics,\n   fields}.rs and walk/union.rs, docs/rules.md#r3 (lib.rs)";
    assert_eq!(
        named_files(text),
        [
            "expand/mod.rs",
            "expand/generics.rs",
            "expand/fields.rs",
            "walk/union.rs",
            "lib.rs",
            "docs/rules.md"
        ]
    );
}
