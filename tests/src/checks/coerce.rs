//! Property 3: `coerce_value` is all or nothing, idempotent, and changes only what the rules repair.

use super::*;

/// Invariants of any refusal: 1 to `MAX_ISSUES` issues, each with a message that names its
/// path, text lists with the exact message, and the whole serializable.
pub fn check_error(err: &ArgsError) -> Outcome {
    let issues = err.issues();
    if issues.is_empty() || issues.len() > MAX_ISSUES {
        return Err(format!("{} issues in {err:?}", issues.len()));
    }
    for issue in issues {
        let message = issue.message();
        let ok = match issue.kind() {
            IssueKind::TextList => message == text_list_message(issue.path()),
            _ if issue.path().is_empty() => !message.is_empty(),
            _ => message.starts_with(&format!("{}: ", issue.path())),
        };
        if !ok {
            return Err(format!(
                "issue {issue:?}: its message does not name its path"
            ));
        }
    }
    if err.to_string().is_empty() || serde_json::to_string(err).is_err() {
        return Err(format!("{err:?} does not display or serialize"));
    }
    Ok(())
}

/// Property 3 for one type: see the module docs. Also: `from_value` is `coerce_value` then
/// deserialize, with the same error on a refusal.
pub fn check_coerce<T: ToolArgs + Debug>(schema: &Sch, original: &Value) -> Outcome {
    let name = std::any::type_name::<T>();
    let mut value = original.clone();
    let coerced = T::coerce_value(&mut value);
    match &coerced {
        Err(err) => {
            // Equal as values, and byte for byte as text.
            let bytes = |v: &Value| serde_json::to_vec(v).ok();
            if value != *original || bytes(&value) != bytes(original) {
                return Err(format!(
                    "{name}: coerce_value changed the value on Err ({err})\n before {original}\n after  {value}"
                ));
            }
            check_error(err).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(()) => {
            let mut again = value.clone();
            if let Err(err) = T::coerce_value(&mut again) {
                return Err(format!(
                    "{name}: a second coerce_value refused what the first accepted ({err})\n input {original}\n after {value}"
                ));
            }
            if again != value {
                return Err(format!(
                    "{name}: coerce_value is not idempotent\n input  {original}\n first  {value}\n second {again}"
                ));
            }
            only_repairs(schema, original, &value).map_err(|e| {
                format!("{name}: coerce_value changed more than repairs: {e}\n input {original}\n after {value}")
            })?;
        }
    }
    let direct = T::from_value(original.clone());
    match (&coerced, &direct) {
        (Err(a), Err(b)) if a == b => Ok(()),
        (Err(a), _) => Err(format!(
            "{name}: coerce_value refused ({a}) but from_value gave {direct:?}\n input {original}"
        )),
        (Ok(()), _) => {
            let staged = serde_json::from_value::<T>(value.clone());
            if staged.is_ok() == direct.is_ok() {
                Ok(())
            } else {
                Err(format!(
                    "{name}: from_value gave {direct:?} but coerce_value and serde gave {staged:?}\n input {original}"
                ))
            }
        }
    }
}

/// Property 3 for every tool type of this module.
pub fn check_coerce_all(value: &Value) -> Outcome {
    check_coerce::<Paths20>(&PATHS20, value)?;
    check_coerce::<Search>(&SEARCH, value)?;
    check_coerce::<Edit>(&EDIT, value)?;
    check_coerce::<Call>(&CALL, value)?;
    check_coerce::<Node>(&NODE, value)?;
    check_coerce::<Flat>(&FLAT, value)?;
    check_coerce::<Renamed>(&RENAMED, value)?;
    check_coerce::<Misc>(&MISC, value)?;
    // The enums as the arguments themselves.
    check_coerce::<Action>(&ACTION, value)?;
    check_coerce::<External>(&EXTERNAL, value)?;
    check_coerce::<Adjacent>(&ADJACENT, value)?;
    check_coerce::<Pick>(&PICK, value)?;
    Ok(())
}

/// Fuzz entry of property 3: bytes that are JSON text (others are skipped).
pub fn coerce_input(data: &[u8]) -> Outcome {
    match serde_json::from_slice::<Value>(data) {
        Ok(value) => check_coerce_all(&value),
        Err(_) => Ok(()),
    }
}
