//! Refuses, when the coercer is built, a schema whose unions would make the walk of a peer's
//! call endless (`a = anyOf[a, …]`) or exponential (unions sharing members), so the walk stays
//! linear in the call.

use super::node::{resolve, Form, Id, Node};
use super::SchemaError;

/// The most schemas one value may be walked against at one position, its own and every union
/// member's under it that takes the same value (a 20-member union of 20-member unions is 421).
pub const MAX_UNION_WALK: u64 = 1000;

/// A union's members.
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

/// Refuses a union that reaches itself without entering an array or object, and a position
/// walking one value against more than [`MAX_UNION_WALK`] schemas; iterative, so a peer's
/// schema cannot overflow the stack.
pub(crate) fn check(nodes: &[Node]) -> Result<(), SchemaError> {
    const NEW: u64 = 0;
    const OPEN: u64 = u64::MAX;
    // Schemas a value is walked against at each node, once decided.
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
