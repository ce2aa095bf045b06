//! The command line read into the arguments object, below `ToolArgs::from_argv` (whose doc
//! states the forms); `from_value` then checks and reads it. A refusal lists the flags' own
//! mistakes (missing required flags last, in field order), then the values' issues.

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
    /// As first written, for messages.
    spelled: String,
}

/// A command line read into the arguments object, with the flags' own mistakes and the flags
/// to say later issues of.
pub(crate) struct Read {
    object: Map<String, Value>,
    issues: Vec<Issue>,
    flags: Vec<Flag>,
}

/// `--help` answers with one [`IssueKind::Help`] issue whose message is the help text.
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
            // Words after `--` are positional, and a tool takes flags only.
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
            let known: Vec<String> = (flags.iter())
                .map(|f| format!("--{}", kebab(&f.wire)))
                .collect();
            issues.push(Issue::usage(
                key,
                error::unknown_flag(key, &known.join(", ")),
            ));
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
            // `--dry-run false` would leave `false` over: a boolean takes its value after `=`.
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
            // A flag written without its value is already an issue.
            if field.required && flag.spelled.is_empty() {
                missing.push((field.order, flag.wire.clone()));
            }
            continue;
        };
        let repeated = flag.values.len() > 1;
        let value = match flag.form {
            // Given once, only a JSON array is the whole list, for R1 to repair or R3 to
            // refuse as on MCP; any other text, `[preview].png` included, is one item.
            Form::List(_) if !repeated && is_json_array(first) => Value::String(first.clone()),
            Form::List(item) => {
                Value::Array(flag.values.iter().map(|v| item_value(v, item)).collect())
            }
            Form::OneOrMany(item) if repeated => {
                Value::Array(flag.values.iter().map(|v| item_value(v, item)).collect())
            }
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
            // A unit variant (`--stop`): its key holds `null`; `--stop=false` leaves it out.
            Form::Unit => match first.as_str() {
                "true" => Value::Null,
                "false" => continue,
                _ => Value::String(first.clone()),
            },
            Form::Structured => Value::String(first.clone()),
        };
        object.insert(flag.wire.clone(), value);
    }
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
    pub(crate) fn arguments(&mut self) -> Value {
        Value::Object(core::mem::take(&mut self.object))
    }

    /// With no mistake in the flags, `from_value`'s issues said of their flags; else the
    /// flags' mistakes, then the values' issues but those that follow from a mistake (its
    /// field missing, an issue of the whole arguments).
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

/// `from_value`'s issue said of the flag as written (`` `--timeout-secs`: … ``), its path
/// unchanged; a list written as text at a one-or-many flag says to repeat the flag.
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

/// One JSON array as serde_json reads it, rather than one item that starts with `[`.
fn is_json_array(text: &str) -> bool {
    text.trim_start().starts_with('[')
        && matches!(serde_json::from_str::<Value>(text), Ok(Value::Array(_)))
}
