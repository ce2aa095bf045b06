//! The command line: `T::from_argv(["--paths", "a.png", "--paths", "b.png"])` reads the
//! flags into the arguments object here, below `ToolArgs`, which then checks and reads it.
//!
//! A command line carries only text, so the field's type, as its schema tree describes it
//! (`T::SCHEMA`, known during compilation), decides what each value becomes:
//! - a string field takes the text; a number or boolean field parses it (a command line has
//!   nothing else); a boolean field is also a bare `--flag`, and takes a value only after `=`
//!   (`--dry-run=false`: `--dry-run false` is refused with that hint);
//! - a list field takes one item per occurrence of its flag (`--tag a --tag b`); given once
//!   with text that is one JSON array (`--tag '["a", "b"]'`), that text is the whole list,
//!   repaired by rule R1 as on MCP; any other text is one item, even when it starts with `[`
//!   (`--tag "[preview].png"`);
//! - a one-or-many field (`OneOrMany<T>`) given once is one value, and refuses a list written
//!   as text (rule R3) exactly as on MCP; given several times, it is a list;
//! - a structured field (a struct, a map, a tagged enum) takes JSON text, repaired by R1;
//! - a flattened enum's keys are flags of their own (`docs/rules.md#flattened-unions`): its
//!   tag (`--op Move`), content key (`--args '{…}'`) or variant key (`--move '{…}'`, a unit
//!   variant's a bare `--stop`), and its variants' fields, each as its form says.
//!
//! The object built this way then goes through `ToolArgs::from_value`. Flags are the wire
//! names (`--max_hits`, `--maxHits`) or their kebab-case form (`--max-hits`). A bare `--`
//! ends the flags; a tool takes no positional arguments, so any word after it is refused.
//!
//! A refused command line lists every issue at once: the mistakes in the flags (an unknown
//! flag, a flag without its value, a single-value flag given twice, then each missing
//! required flag by name, `missing required flag `--paths``, in the type's field order), then
//! the issues `from_value` finds in the values that were given.

mod form;
mod help;

use serde_json::{Map, Value};

use crate::error::{self, ArgsError, Issue, IssueKind, MAX_ISSUES};
use crate::path::Path;
use crate::schema::Schema;
use form::{fields_of, item_value, kebab, Form, Item};

struct Flag {
    wire: String,
    form: Form,
    values: Vec<String>,
    /// How it was written first, for messages.
    spelled: String,
}

fn flag_list(flags: &[Flag]) -> String {
    let names: Vec<String> = flags
        .iter()
        .map(|f| format!("--{}", kebab(&f.wire)))
        .collect();
    names.join(", ")
}

/// A command line read into the arguments object, before `from_value` checks and reads the
/// values: the flags' own mistakes so far, and the flags, to say later issues of them.
pub(crate) struct Read {
    object: Map<String, Value>,
    issues: Vec<Issue>,
    flags: Vec<Flag>,
}

/// Reads command-line arguments into the arguments object of the type whose schema tree is
/// `schema` (see the module docs). `--help` answers with one issue of kind
/// [`IssueKind::Help`] whose message is the help text.
pub(crate) fn read<I, S>(name: &str, schema: &'static Schema, args: I) -> Result<Read, ArgsError>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let (_, fields) = fields_of(schema);
    let mut flags: Vec<Flag> = fields
        .iter()
        .map(|field| Flag {
            wire: field.wire.clone(),
            form: field.form,
            values: Vec::new(),
            spelled: String::new(),
        })
        .collect();
    let mut issues = Vec::new();
    let args: Vec<String> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            // A bare `--` ends the flags: every word after it is positional, and a tool takes
            // flags only.
            for rest in &args[i..] {
                issues.push(Issue::usage("", error::no_positionals(rest, name)));
            }
            break;
        }
        if arg == "--help" || arg == "-h" {
            return Err(ArgsError::single(Issue::new(
                IssueKind::Help,
                "",
                help::help(name, schema),
            )));
        }
        let Some(body) = arg.strip_prefix("--") else {
            issues.push(Issue::usage("", error::unexpected_argument(arg)));
            continue;
        };
        let (key, inline) = match body.split_once('=') {
            Some((key, value)) => (key, Some(value.to_owned())),
            None => (body, None),
        };
        let Some(flag) = flags
            .iter_mut()
            .find(|f| f.wire == key || kebab(&f.wire) == key)
        else {
            let known = flag_list(&flags);
            issues.push(Issue::usage(key, error::unknown_flag(key, &known)));
            // Its value, if it has one, goes with it.
            if inline.is_none() && args.get(i).is_some_and(|next| !next.starts_with("--")) {
                i += 1;
            }
            continue;
        };
        if flag.spelled.is_empty() {
            flag.spelled = format!("--{key}");
        }
        let value = match (inline, flag.form) {
            (Some(value), _) => value,
            // `--dry-run false` would set the flag and leave `false` over: a boolean flag
            // takes its value after `=` only, so say how to write it.
            (None, Form::Flag | Form::Unit) => match args.get(i).map(String::as_str) {
                Some(word @ ("true" | "false")) => {
                    i += 1;
                    issues.push(Issue::usage(
                        flag.wire.as_str(),
                        error::flag_value_apart(key, word),
                    ));
                    continue;
                }
                _ => "true".to_owned(),
            },
            (None, _) => match args.get(i) {
                Some(next) if !next.starts_with("--") => {
                    i += 1;
                    next.clone()
                }
                _ => {
                    issues.push(Issue::usage(flag.wire.as_str(), error::needs_value(key)));
                    continue;
                }
            },
        };
        flag.values.push(value);
    }
    let mut object = Map::new();
    let mut missing = Vec::new();
    for (flag, field) in flags.iter().zip(&fields) {
        let Some(first) = flag.values.first() else {
            // A flag that was written but has no value is already an issue.
            if field.required && flag.spelled.is_empty() {
                missing.push((field.order, flag.wire.clone()));
            }
            continue;
        };
        let repeated = flag.values.len() > 1;
        let value = match flag.form {
            // Given once, only text that is a JSON array is the whole list, for rule R1 to
            // repair (or R3 to refuse) as on MCP; any other text, `[preview].png` included,
            // is one item.
            Form::List(_) if !repeated && is_json_array(first) => Value::String(first.clone()),
            Form::List(item) => {
                Value::Array(flag.values.iter().map(|v| item_value(v, item)).collect())
            }
            Form::OneOrMany(item) if repeated => {
                Value::Array(flag.values.iter().map(|v| item_value(v, item)).collect())
            }
            // Given once: one value; a list written as text is refused by R3.
            Form::OneOrMany(item) => item_value(first, item),
            _ if repeated => {
                issues.push(Issue::usage(
                    flag.wire.as_str(),
                    error::given_repeatedly(&flag.spelled, flag.values.len()),
                ));
                continue;
            }
            Form::Text => Value::String(first.clone()),
            Form::Number => item_value(first, Item::Number),
            Form::Flag => item_value(first, Item::Boolean),
            // A unit variant named (`--stop`): its key holds `null`; `--stop=false` leaves
            // it out.
            Form::Unit => match first.as_str() {
                "true" => Value::Null,
                "false" => continue,
                _ => Value::String(first.clone()),
            },
            Form::Structured => Value::String(first.clone()),
        };
        object.insert(flag.wire.clone(), value);
    }
    // Every missing required flag, in the type's field order.
    missing.sort_by_key(|&(order, _)| order);
    for (_, wire) in missing {
        issues.push(Issue::usage(
            wire.as_str(),
            error::missing_flag(&kebab(&wire)),
        ));
    }
    Ok(Read {
        object,
        issues,
        flags,
    })
}

impl Read {
    /// The arguments object the flags made, for `from_value`.
    pub(crate) fn arguments(&mut self) -> Value {
        Value::Object(core::mem::take(&mut self.object))
    }

    /// The answer, from what `from_value` made of [`Read::arguments`]: with no mistake in the
    /// flags, its own, each issue said of its flag; else the flags' mistakes first, then the
    /// issues of the values that were given (so one refusal lists every issue), leaving out
    /// what follows from a flag's mistake (its field missing, or an issue of the whole
    /// arguments): the flag's issue already says it.
    pub(crate) fn finish<T>(self, found: Result<T, ArgsError>) -> Result<T, ArgsError> {
        let Read {
            mut issues, flags, ..
        } = self;
        if issues.is_empty() {
            return found.map_err(|found| {
                let omitted = found.omitted();
                let issues = found.issues().iter().map(|i| said_of_flags(i, &flags));
                ArgsError::with_omitted(issues.collect(), omitted)
            });
        }
        let Err(found) = found else {
            return Err(ArgsError::new(issues));
        };
        let named: Vec<String> = issues
            .iter()
            .map(|issue| issue.path().to_owned())
            .filter(|p| !p.is_empty())
            .collect();
        let follows = |path: &str| {
            path.is_empty()
                || named.iter().any(|n| {
                    path.strip_prefix(n.as_str())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                })
        };
        issues.extend(
            found
                .issues()
                .iter()
                .filter(|issue| !follows(issue.path()))
                .map(|issue| said_of_flags(issue, &flags)),
        );
        let omitted = issues.len().saturating_sub(MAX_ISSUES) + found.omitted();
        issues.truncate(MAX_ISSUES);
        Err(ArgsError::with_omitted(issues, omitted))
    }
}

/// An issue `from_value` found in a flag's value, said the command line's way: it names the
/// flag as it was written (`` `--timeout-secs`: invalid type… ``, `` `--filters.case`: … ``
/// below it), and a list written as text at a one-or-many flag says to repeat the flag. The
/// path stays the field's, as on every surface.
fn said_of_flags(issue: &Issue, flags: &[Flag]) -> Issue {
    let path = issue.path();
    let found = flags.iter().find_map(|flag| {
        let top = Path::ROOT.declared(&flag.wire, 0).render();
        let rest = path.strip_prefix(top.as_str())?;
        (rest.is_empty() || rest.starts_with(['.', '['])).then(|| (flag, rest.to_owned()))
    });
    let Some((flag, rest)) = found else {
        return issue.clone();
    };
    let name = if flag.spelled.is_empty() {
        format!("--{}", kebab(&flag.wire))
    } else {
        flag.spelled.clone()
    };
    let message = match issue.kind() {
        IssueKind::TextList if rest.is_empty() => error::text_list_flag(&name),
        IssueKind::TextList => return issue.clone(),
        _ => match issue
            .message()
            .strip_prefix(path)
            .and_then(|m| m.strip_prefix(": "))
        {
            Some(reason) => error::in_flag(&name, &rest, reason),
            None => return issue.clone(),
        },
    };
    Issue::new(issue.kind(), path, message)
}

/// Whether `text` is one JSON array (surrounding JSON whitespace allowed), as serde_json reads
/// it: the whole list written as text, rather than one item that happens to start with `[`.
fn is_json_array(text: &str) -> bool {
    text.trim_start().starts_with('[')
        && matches!(serde_json::from_str::<Value>(text), Ok(Value::Array(_)))
}
