//! `stitch-proxy wrap FILE` and `stitch-proxy unwrap FILE`: every server of a client's MCP
//! configuration in the common `mcpServers` format (Claude Desktop's
//! `claude_desktop_config.json`, Cursor's `.cursor/mcp.json`, Claude Code's `.mcp.json`) put
//! behind the proxy, and back.
//!
//! The file is edited as text, never re-serialized: only the bytes of the entries wrapped
//! change, so its indentation, key order and every other key stay as they were, and `unwrap`
//! gives back the file byte for byte.
//!
//! - A stdio server (`command`, `args`): `command` becomes the proxy, and the server's own
//!   command, as it was written, goes first in `args` after the proxy's options and `--`
//!   (`"args": [`, a new member after `command`, when the entry had none). `unwrap` moves it
//!   back and takes out what was put before it.
//! - A `url` server (Streamable HTTP): the entry becomes a stdio server, the proxy with
//!   `--upstream URL` and a `--header "Name: value"` per `headers` member; its `type`
//!   (Claude Code's `http`) becomes `stdio`, every other key stays, and the entry as it was
//!   written is kept, as a string, in [`ORIGINAL`], which `unwrap` puts back. A server of
//!   another `type` (`sse`, Claude Code's `ws`, `sse-ide`, …) is left alone (the proxy speaks
//!   Streamable HTTP only).
//! - An entry whose command is already `stitch-proxy` is left alone by `wrap`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::raw::{self, Kind, Member, Node};
use crate::record::quoted;

/// The key under which a wrapped `url` server keeps its entry as it was written.
pub const ORIGINAL: &str = "x-stitch-proxy-original";
/// The key (`true`) that marks a stdio server wrapped by `wrap`: `unwrap` leaves alone one
/// put behind the proxy by hand.
pub const WRAPPED: &str = "x-stitch-proxy-wrapped";

/// What became of one server entry.
#[derive(Debug, PartialEq, Eq)]
pub struct Change {
    pub server: String,
    pub what: String,
    pub changed: bool,
}

/// A file's new text and what became of each server.
#[derive(Debug)]
pub struct Edited {
    pub text: String,
    pub changes: Vec<Change>,
}

/// One replacement of the file's text.
struct Edit {
    range: std::ops::Range<usize>,
    with: String,
}

/// How the proxy is written into the file: its path and the options it is given.
pub struct Proxy<'a> {
    pub command: &'a str,
    pub options: &'a [String],
}

/// The `mcpServers` members of `text`, read; `Err` names the line and column of what is not
/// JSON (after `path`), or says there is no `mcpServers` object.
fn servers<'t>(path: &str, text: &'t str) -> Result<(Node, &'t str), String> {
    if let Err(error) = serde_json::from_str::<serde_json::Value>(text) {
        return Err(format!(
            "{path}:{}:{}: not valid JSON: {error}",
            error.line(),
            error.column()
        ));
    }
    let root = raw::parse(text).ok_or_else(|| format!("{path}: not valid JSON"))?;
    if !matches!(
        root.get("mcpServers").map(|s| &s.kind),
        Some(Kind::Object(_))
    ) {
        return Err(format!(
            "{path}: no \"mcpServers\" object at the top level: nothing to do"
        ));
    }
    Ok((root, text))
}

/// The members of the `mcpServers` object of `root`.
fn members(root: &Node) -> &[Member] {
    match root.get("mcpServers").map(|s| &s.kind) {
        Some(Kind::Object(members)) => members,
        _ => &[],
    }
}

/// Whether `command` names the proxy (`…/stitch-proxy`, `stitch-proxy.exe`).
fn is_proxy(command: &str) -> bool {
    let name = command.rsplit(['/', '\\']).next().unwrap_or(command);
    name == "stitch-proxy" || name == "stitch-proxy.exe"
}

/// `text` with every server of its `mcpServers` behind the proxy.
pub fn wrap(path: &str, text: &str, proxy: &Proxy<'_>) -> Result<Edited, String> {
    edit_each(path, text, |text, entry, edits| {
        wrap_entry(text, entry, proxy, edits)
    })
}

/// `text` with every server `wrap` put behind the proxy as it was.
pub fn unwrap(path: &str, text: &str) -> Result<Edited, String> {
    edit_each(path, text, unwrap_entry)
}

/// `text` with `edit` asked of each server entry of its `mcpServers`: the edits it makes,
/// and for each entry what it did (`Ok`) or why it left the entry alone (`Err`).
fn edit_each(
    path: &str,
    text: &str,
    mut edit: impl FnMut(&str, &Node, &mut Vec<Edit>) -> Result<String, String>,
) -> Result<Edited, String> {
    let (root, text) = servers(path, text)?;
    let mut edits = Vec::new();
    let mut changes = Vec::new();
    for member in members(&root) {
        let (what, changed) = match edit(text, &member.value, &mut edits) {
            Ok(what) => (what, true),
            Err(why) => (why, false),
        };
        changes.push(Change {
            server: member.key.value.clone(),
            what,
            changed,
        });
    }
    Ok(Edited {
        text: apply(text, edits),
        changes,
    })
}

/// `text` with `edits` (which do not overlap) made.
fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.range.start));
    let mut out = text.to_owned();
    for edit in edits {
        out.replace_range(edit.range, &edit.with);
    }
    out
}

/// The string items of an array node, or `None` when it is not an array of strings.
fn strings(node: &Node) -> Option<&[Node]> {
    match &node.kind {
        Kind::Array(items) if items.iter().all(|i| matches!(i.kind, Kind::String(_))) => {
            Some(items)
        }
        _ => None,
    }
}

/// The white space after the comma that follows `items[0]` (the array's own spacing), or
/// what is before `items[0]` when it holds a line end, else one space.
fn spacing<'t>(text: &'t str, open: usize, items: &[Node]) -> &'t str {
    if let [first, second, ..] = items {
        let between = &text[first.span.end..second.span.start];
        if let Some((_, after)) = between.split_once(',') {
            return after;
        }
    }
    let before = &text[open + 1..items[0].span.start];
    if before.contains('\n') {
        before
    } else {
        " "
    }
}

/// Wraps one entry (edits pushed); `Err` says why it is left alone.
fn wrap_entry(
    text: &str,
    entry: &Node,
    proxy: &Proxy<'_>,
    edits: &mut Vec<Edit>,
) -> Result<String, String> {
    if !matches!(entry.kind, Kind::Object(_)) {
        return Err("left alone: not an object".into());
    }
    if let Some(command) = entry.get("command") {
        let name = command
            .as_str()
            .ok_or("left alone: its command is not a string")?;
        if is_proxy(name) {
            return Err("left alone: already behind stitch-proxy".into());
        }
        let args = entry.get("args");
        // The proxy's options, `--`, then the server's command as it was written.
        let mut prefix: Vec<String> = proxy.options.iter().map(|o| quoted(o)).collect();
        prefix.push(quoted("--"));
        prefix.push(text[command.span.clone()].to_owned());
        edits.push(Edit {
            range: command.span.clone(),
            with: quoted(proxy.command),
        });
        let marker = format!("{}{}: true", separator(text, entry), quoted(WRAPPED));
        match args {
            None => edits.push(Edit {
                // A new member, in the form `unwrap` recognizes as one it may take out.
                range: command.span.end..command.span.end,
                with: format!(r#", "args": [{}]{marker}"#, prefix.join(", ")),
            }),
            Some(args) => {
                edits.push(Edit {
                    range: args.span.end..args.span.end,
                    with: marker,
                });
                let items = strings(args).ok_or("left alone: its args are not strings")?;
                if items.is_empty() {
                    // No spaces: not the form of a new member, which `unwrap` takes out.
                    edits.push(Edit {
                        range: args.span.start + 1..args.span.start + 1,
                        with: prefix.join(","),
                    });
                } else {
                    let space = spacing(text, args.span.start, items);
                    let mut with = String::new();
                    for item in &prefix {
                        let _ = write!(with, "{item},{space}");
                    }
                    edits.push(Edit {
                        range: items[0].span.start..items[0].span.start,
                        with,
                    });
                }
            }
        }
        return Ok(format!("stdio server {name} behind stitch-proxy"));
    }
    let url = entry
        .get("url")
        .ok_or("left alone: neither a command nor a url")?;
    let url = url.as_str().ok_or("left alone: its url is not a string")?;
    // Streamable HTTP only: no `type` (Cursor), `http` or `streamable-http` (Claude Code).
    match entry.get("type").map(|t| t.as_str()) {
        None | Some(Some("http" | "streamable-http")) => {}
        Some(Some(kind)) => {
            return Err(format!(
                "left alone: a {kind} server (the proxy speaks Streamable HTTP)"
            ))
        }
        Some(None) => return Err("left alone: its type is not a string".into()),
    }
    let mut args: Vec<String> = proxy.options.iter().map(|o| quoted(o)).collect();
    args.push(quoted("--upstream"));
    args.push(quoted(url));
    if let Some(headers) = entry.get("headers") {
        let Kind::Object(headers) = &headers.kind else {
            return Err("left alone: its headers are not an object".into());
        };
        for header in headers {
            let value = header
                .value
                .as_str()
                .ok_or("left alone: a header value is not a string")?;
            args.push(quoted("--header"));
            args.push(quoted(&format!("{}: {value}", header.key.value)));
        }
    }
    edits.push(Edit {
        range: entry.span.clone(),
        with: wrapped_url_entry(text, entry, proxy.command, &args),
    });
    Ok(format!("url server {url} behind stitch-proxy --upstream"))
}

/// The text of a `url` entry wrapped: its members in order, `url` replaced by the proxy's
/// `command` and `args`, `headers` left out, `type` made `stdio`, and the entry as it was
/// under [`ORIGINAL`].
fn wrapped_url_entry(text: &str, entry: &Node, command: &str, args: &[String]) -> String {
    let Kind::Object(members) = &entry.kind else {
        return text[entry.span.clone()].to_owned();
    };
    let first = members.first().map_or(entry.span.end - 1, |m| m.start);
    let open = &text[entry.span.start..first];
    let last = members.last().map_or(first, |m| m.value.span.end);
    let close = &text[last..entry.span.end];
    let separator = separator(text, entry);
    let mut out: Vec<String> = Vec::new();
    for member in members {
        let key = &text[member.start..member.value.span.start];
        match member.key.value.as_str() {
            "url" => {
                out.push(format!(r#""command": {}"#, quoted(command)));
                out.push(format!(r#""args": [{}]"#, args.join(", ")));
            }
            "headers" => {}
            "type" => out.push(format!(r#"{key}"stdio""#)),
            _ => out.push(text[member.start..member.value.span.end].to_owned()),
        }
    }
    out.push(format!(
        "{}: {}",
        quoted(ORIGINAL),
        quoted(&text[entry.span.clone()])
    ));
    format!("{open}{}{close}", out.join(&separator))
}

/// What is between two members of `entry` (a comma and white space): as the entry has it
/// between its first two; else one line, or a line each at the first member's indent.
fn separator(text: &str, entry: &Node) -> String {
    let Kind::Object(members) = &entry.kind else {
        return ", ".to_owned();
    };
    match members.as_slice() {
        [a, b, ..] => text[a.value.span.end..b.start].to_owned(),
        [a] if text[entry.span.start + 1..a.start].contains('\n') => {
            format!(",{}", &text[entry.span.start + 1..a.start])
        }
        _ => ", ".to_owned(),
    }
}

/// Unwraps one entry (edits pushed); `Err` says why it is left alone.
fn unwrap_entry(text: &str, entry: &Node, edits: &mut Vec<Edit>) -> Result<String, String> {
    let command_node = entry
        .get("command")
        .filter(|c| c.as_str().is_some_and(is_proxy))
        .ok_or("left alone: not behind stitch-proxy")?;
    if let Some(original) = entry.get(ORIGINAL).and_then(Node::as_str) {
        if raw::parse(original).is_none_or(|node| !matches!(node.kind, Kind::Object(_))) {
            return Err(format!("left alone: its {ORIGINAL} is not a JSON object"));
        }
        edits.push(Edit {
            range: entry.span.clone(),
            with: original.to_owned(),
        });
        return Ok("url server as it was".into());
    }
    let Kind::Object(members) = &entry.kind else {
        return Err("left alone: not an object".into());
    };
    let marker = members
        .iter()
        .position(|m| m.key.value == WRAPPED && matches!(m.value.kind, Kind::Bool(true)))
        .ok_or("left alone: behind stitch-proxy, but not by wrap")?;
    let args = entry
        .get("args")
        .ok_or("left alone: no args (not written by wrap)")?;
    let items = strings(args).ok_or("left alone: its args are not strings")?;
    let dashes = items
        .iter()
        .position(|i| i.as_str() == Some("--"))
        .filter(|at| at + 1 < items.len())
        .ok_or("left alone: no server command after -- (not written by wrap)")?;
    let server = &items[dashes + 1];
    edits.push(Edit {
        range: command_node.span.clone(),
        with: text[server.span.clone()].to_owned(),
    });
    // The member `wrap` adds to an entry without args, exactly.
    let prefix: Vec<&str> = items.iter().map(|i| &text[i.span.clone()]).collect();
    let added = format!(r#", "args": [{}]"#, prefix.join(", "));
    let range = if items.len() == dashes + 2
        && text.get(command_node.span.end..args.span.end) == Some(added.as_str())
    {
        command_node.span.end..args.span.end
    } else if let Some(next) = items.get(dashes + 2) {
        items[0].span.start..next.span.start
    } else {
        items[0].span.start..server.span.end
    };
    edits.push(Edit {
        range,
        with: String::new(),
    });
    // The marker, with what separates it from the member before it (wrap put it after args).
    let after = members[marker].value.span.end;
    let range = match marker.checked_sub(1) {
        Some(before) => members[before].value.span.end..after,
        None => members[marker].start..members.get(1).map_or(after, |m| m.start),
    };
    edits.push(Edit {
        range,
        with: String::new(),
    });
    Ok(format!(
        "stdio server {} as it was",
        server.as_str().unwrap_or_default()
    ))
}

#[path = "wrap_cli.rs"]
mod cli;
pub use cli::main;

/// A unified diff of `old` and `new`, by line, with `context` lines around each change.
pub fn diff(old: &str, new: &str, name: &str, context: usize) -> String {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    // Common prefix and suffix first: the changes of a wrap are few and local.
    let head = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (x, y) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    // Longest common subsequence of the middle (a table of its size; a config is small).
    let mut lcs = vec![vec![0u32; y.len() + 1]; x.len() + 1];
    for i in (0..x.len()).rev() {
        for j in (0..y.len()).rev() {
            lcs[i][j] = if x[i] == y[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    // Each line: ' ', '-' or '+', with its line numbers in old and new.
    let mut ops: Vec<(char, &str)> = a[..head].iter().map(|l| (' ', *l)).collect();
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        if i < x.len() && j < y.len() && x[i] == y[j] {
            ops.push((' ', x[i]));
            i += 1;
            j += 1;
        } else if i < x.len() && (j == y.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', x[i]));
            i += 1;
        } else {
            ops.push(('+', y[j]));
            j += 1;
        }
    }
    ops.extend(a[a.len() - tail..].iter().map(|l| (' ', *l)));
    hunks(&ops, name, context)
}

/// The hunks of a line diff `ops`.
fn hunks(ops: &[(char, &str)], name: &str, context: usize) -> String {
    let mut out = String::new();
    if ops.iter().all(|(op, _)| *op == ' ') {
        return out;
    }
    let _ = writeln!(out, "--- {name}\n+++ {name}");
    let changed: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].0 != ' ').collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(context);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * context + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + context + 1).min(ops.len());
        let old_at = ops[..start].iter().filter(|(op, _)| *op != '+').count() + 1;
        let new_at = ops[..start].iter().filter(|(op, _)| *op != '-').count() + 1;
        let old_n = ops[start..end].iter().filter(|(op, _)| *op != '+').count();
        let new_n = ops[start..end].iter().filter(|(op, _)| *op != '-').count();
        let _ = writeln!(out, "@@ -{old_at},{old_n} +{new_at},{new_n} @@");
        for (op, line) in &ops[start..end] {
            out.push(*op);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
    }
    out
}

/// Where the backup of `file` goes: `FILE.bak`, or `FILE.<time>.bak` when that exists.
pub fn backup_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".bak");
    let plain = PathBuf::from(name);
    if !plain.exists() {
        return plain;
    }
    let stamp = crate::record::now().replace([':', '.'], "-");
    let mut name = file.as_os_str().to_owned();
    name.push(format!(".{stamp}.bak"));
    PathBuf::from(name)
}

#[cfg(test)]
#[path = "wrap_tests.rs"]
mod tests;
