//! What a schema may cost the walk of one call, decided when the coercer is built.
//!
//! A union walks the value it is given against its members, and a member that is itself a
//! union (through `$ref`s) walks the same value again. A schema from a peer may make that
//! endless (`a = anyOf[a, …]`) or exponential (a chain of unions sharing their members);
//! such a schema is refused here, so the coercer's walk of a call stays linear in the call.

use super::node::{resolve, Form, Id, Node};
use super::SchemaError;

/// The most schemas one value may be walked against at one position, the position's own
/// and those of every union member under it that takes the same value (a 20-member union of
/// 20-member unions is 421).
pub const MAX_UNION_WALK: u64 = 1000;

/// The nodes a value walked at `id` is walked against too: a union's members.
fn same_value(nodes: &[Node], id: Id) -> Vec<Id> {
    let node = &nodes[id];
    let ids: Vec<Id> = match &node.form {
        Form::Untagged => node.members.clone(),
        Form::OneOrMany { one, many } => vec![*one, *many],
        Form::Lenient { scalar } => vec![*scalar],
        Form::Tagged { tags, other, .. } => tags.iter().map(|(_, id)| *id).chain(*other).collect(),
        Form::Any | Form::Typed | Form::Keyed { .. } => Vec::new(),
    };
    ids.into_iter().map(|id| resolve(nodes, id)).collect()
}

/// Refuses a union that reaches itself without going into an array or an object, and a
/// position whose unions walk one value against more than [`MAX_UNION_WALK`] schemas.
/// Iterative (an explicit stack): a peer's schema cannot overflow this one either.
pub(crate) fn check(nodes: &[Node]) -> Result<(), SchemaError> {
    const NEW: u64 = 0;
    const OPEN: u64 = u64::MAX;
    // The number of schemas a value is walked against at each node, once decided.
    let mut walks = vec![NEW; nodes.len()];
    for start in 0..nodes.len() {
        if walks[start] != NEW {
            continue;
        }
        let mut stack = vec![(start, same_value(nodes, start), 0)];
        walks[start] = OPEN;
        while let Some((id, members, next)) = stack.last_mut() {
            let Some(&member) = members.get(*next) else {
                let total = members
                    .iter()
                    .fold(1u64, |sum, &m| sum.saturating_add(walks[m]));
                let id = *id;
                stack.pop();
                if total > MAX_UNION_WALK {
                    return Err(SchemaError::new(
                        nodes[id].pointer.clone(),
                        format!(
                            "its unions walk one value against more than {MAX_UNION_WALK} schemas"
                        ),
                    ));
                }
                walks[id] = total;
                continue;
            };
            *next += 1;
            match walks[member] {
                OPEN => {
                    return Err(SchemaError::new(
                        nodes[member].pointer.clone(),
                        "a union that is its own member (through `anyOf`, `oneOf` or `$ref`) \
                         stands for no value"
                            .into(),
                    ))
                }
                NEW => {
                    walks[member] = OPEN;
                    stack.push((member, same_value(nodes, member), 0));
                }
                _ => {}
            }
        }
    }
    Ok(())
}
