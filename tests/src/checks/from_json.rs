//! Property 1: `from_json` never panics and agrees with `from_value`, in every layout.

use super::*;

/// Property 1 for one type: `from_json` never panics, refuses text that is not JSON with one
/// issue at the root, refuses a declared field sent twice only where serde refuses the text
/// too, and otherwise gives exactly what `from_value` gives for the parsed value.
pub fn check_from_json<T: ToolArgs + Debug>(text: &str) -> Outcome {
    let name = std::any::type_name::<T>();
    let got = T::from_json(text);
    let parsed = match serde_json::from_str::<Value>(text) {
        Ok(parsed) => parsed,
        Err(e) => {
            let want = if e.to_string().starts_with("recursion limit exceeded") {
                IssueKind::TooDeep
            } else {
                IssueKind::Invalid
            };
            return match &got {
                Err(err)
                    // Text that is not JSON is refused at the root; text nested too deep at
                    // the path where it stops.
                    if err.issues().len() == 1
                        && (err.issues()[0].path().is_empty() || want == IssueKind::TooDeep)
                        && err.issues()[0].kind() == want =>
                {
                    check_error(err).map_err(|e| format!("{name}: {e}"))
                }
                _ => Err(format!(
                    "{name}: text that is not JSON ({e}) gave {got:?}\n text {text:?}"
                )),
            };
        }
    };
    // JSON text: the same call laid out otherwise gets the same answer, to the issue.
    same_across_layouts(text, &got).map_err(|e| format!("{name}: {e}"))?;
    // Text that sends a key twice: serde's answer for the text is the oracle, where nothing
    // is repaired (a `Value` keeps only the last, so `from_value` answers for another value).
    if crate::duplicates::sends_a_key_twice(text) {
        if let Some(outcome) = crate::duplicates::against_serde::<T>(text, &parsed, &got) {
            if let Err(err) = &got {
                check_error(err).map_err(|e| format!("{name}: {e}\n text {text:?}"))?;
            }
            return outcome.map_err(|e| format!("{name}: {e}"));
        }
    }
    // A declared field the text sends twice is refused, as serde refuses it; a `Value` keeps
    // only the last, so `from_value` cannot see it.
    if let Err(err) = &got {
        let duplicated = |issue: &stitch_runtime::Issue| {
            issue.kind() == IssueKind::Invalid
                && (issue.message().contains(": duplicate field `")
                    || issue
                        .message()
                        .ends_with(": invalid value: map, expected map with a single key")
                    || issue
                        .message()
                        .contains(": data did not match any variant of untagged enum"))
        };
        if err.issues().iter().any(duplicated) {
            return match serde_json::from_str::<T>(text) {
                Err(_) => check_error(err).map_err(|e| format!("{name}: {e}\n text {text:?}")),
                Ok(read) => Err(format!(
                    "{name}: from_json refused a duplicate serde accepts ({read:?}): {err:?}\n text {text:?}"
                )),
            };
        }
    }
    let mut coerced = parsed.clone();
    let staged = T::coerce_value(&mut coerced).map(|()| serde_json::from_value::<T>(coerced));
    let via_value = T::from_value(parsed);
    let same = match (&got, &via_value) {
        (Ok(a), Ok(b)) => format!("{a:?}") == format!("{b:?}"),
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    if !same {
        return Err(format!(
            "{name}: from_json gave {got:?} but from_value gave {via_value:?}\n text {text:?}"
        ));
    }
    match (&got, &staged) {
        // Accepted: exactly what serde reads from the repaired value, nothing lost.
        (Ok(a), Ok(Ok(b))) if format!("{a:?}") == format!("{b:?}") => Ok(()),
        // Refused by the walk: the same issues as coerce_value.
        (Err(a), Err(b)) if a == b => check_error(a),
        // Refused by serde after the walk.
        (Err(a), Ok(Err(_))) if a.issues().len() == 1 => check_error(a),
        _ => Err(format!(
            "from_json gave {got:?} but coerce_value and serde gave {staged:?}"
        )),
    }
    .map_err(|e| format!("{name}: {e}\n text {text:?}"))
}

/// `T::from_json` of `text` (JSON text, whose answer is `got`) compact, pretty-printed and
/// with random whitespace between its tokens (seeded by the text) gives `got` again: the
/// layout of a call never changes its answer (issue #11, item 1).
pub fn same_across_layouts<T: ToolArgs + Debug>(text: &str, got: &Result<T, ArgsError>) -> Outcome {
    use std::hash::{Hash, Hasher};

    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    let compact = reformat::compact(text);
    let pretty = reformat::pretty(&compact);
    let spaced = reformat::spaced(&compact, hasher.finish());
    for (layout, other) in [("compact", compact), ("pretty", pretty), ("spaced", spaced)] {
        let again = T::from_json(&other);
        let same = match (got, &again) {
            (Ok(a), Ok(b)) => format!("{a:?}") == format!("{b:?}"),
            (Err(a), Err(b)) => a == b,
            _ => false,
        };
        if !same {
            return Err(format!(
                "from_json gave {got:?} but {again:?} for the text laid out {layout}\n text {text:?}\n {layout} {other:?}"
            ));
        }
    }
    Ok(())
}

/// Property 1 for every tool type of this module.
pub fn check_from_json_all(text: &str) -> Outcome {
    check_from_json::<Paths20>(text)?;
    check_from_json::<Search>(text)?;
    check_from_json::<Edit>(text)?;
    check_from_json::<Call>(text)?;
    check_from_json::<Node>(text)?;
    check_from_json::<Flat>(text)?;
    check_from_json::<Renamed>(text)?;
    check_from_json::<Misc>(text)?;
    check_from_json::<Action>(text)?;
    check_from_json::<External>(text)?;
    check_from_json::<Adjacent>(text)?;
    check_from_json::<Pick>(text)?;
    // Flatten chains, every tagging, untagged members with maps (issue 18).
    check_from_json::<crate::shapes::Chain>(text)?;
    check_from_json::<crate::shapes::FlatTagged>(text)?;
    check_from_json::<crate::shapes::Top>(text)?;
    check_from_json::<crate::shapes::Loose>(text)?;
    Ok(())
}

/// Fuzz entry of property 1: any bytes (not UTF-8 ones are read lossily, as a server would
/// have to).
pub fn from_json_input(data: &[u8]) -> Outcome {
    check_from_json_all(&String::from_utf8_lossy(data))
}
