//! What stitch repaired in an accepted call: [`Repair`], [`Repairs`], [`Reported<T>`].
//! Filled only by the apply pass, so a call with nothing to repair never allocates one.

use core::fmt;

use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;

use crate::path::Order;

/// What stitch did at a repaired position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RepairKind {
    /// JSON text where no string is expected was replaced by what it parses to (rule R1).
    JsonText,
    /// JSON text encoded more than once (`"\"[1,2]\""`), parsed until it was not a string.
    NestedJsonText,
    /// A number or boolean written as text (`"5"`, `"true"`) was read as one, under
    /// `#[stitch(lenient_scalars)]`.
    ScalarText,
    /// `null` at a defaulted field was taken as the field left out (rule R8).
    NullLeftOut,
}

impl RepairKind {
    /// The kind's name as serialized: `json_text`, `nested_json_text`, `scalar_text`,
    /// `null_left_out`.
    pub const fn as_str(self) -> &'static str {
        match self {
            RepairKind::JsonText => "json_text",
            RepairKind::NestedJsonText => "nested_json_text",
            RepairKind::ScalarText => "scalar_text",
            RepairKind::NullLeftOut => "null_left_out",
        }
    }

    /// What was done, in words: `JSON text parsed`.
    pub const fn describe(self) -> &'static str {
        match self {
            RepairKind::JsonText => "JSON text parsed",
            RepairKind::NestedJsonText => "JSON text parsed more than once",
            RepairKind::ScalarText => "number or boolean written as text read",
            RepairKind::NullLeftOut => "null taken as the field left out",
        }
    }
}

impl fmt::Display for RepairKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RepairKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// One repaired position: its dotted path (as an [`Issue`](crate::Issue)'s) and what was done.
#[derive(Clone, Debug)]
pub struct Repair {
    path: String,
    kind: RepairKind,
    order: Order,
    // Kept only when `tracing` events carry values.
    #[cfg(feature = "tracing")]
    pub(crate) sent: Option<Box<str>>,
}

impl Repair {
    pub(crate) fn new(path: String, kind: RepairKind, order: Order) -> Repair {
        Repair {
            path,
            kind,
            order,
            #[cfg(feature = "tracing")]
            sent: None,
        }
    }

    /// The dotted path, as [`Issue::path`](crate::Issue::path): `rows.0.names`, `""` for the root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was done there.
    pub fn kind(&self) -> RepairKind {
        self.kind
    }

    pub(crate) fn order(&self) -> Order {
        self.order
    }

    pub(crate) fn kind_mut(&mut self) -> &mut RepairKind {
        &mut self.kind
    }
}

// Equal by path and kind: `order` and `sent` are bookkeeping.
impl PartialEq for Repair {
    fn eq(&self, other: &Repair) -> bool {
        self.path == other.path && self.kind == other.kind
    }
}

impl Eq for Repair {}

impl core::hash::Hash for Repair {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.path.hash(state);
        self.kind.hash(state);
    }
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "the arguments"
        } else {
            &self.path
        };
        write!(f, "{path}: {}", self.kind.describe())
    }
}

impl Serialize for Repair {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Repair", 2)?;
        s.serialize_field("path", &self.path)?;
        s.serialize_field("kind", &self.kind)?;
        s.end()
    }
}

/// The positions repaired in one accepted call, in the type's field order; empty (and not
/// allocated) when none was. `Display` writes one a line (`tags: JSON text parsed`);
/// `Serialize`, a list of `{"path", "kind"}` objects.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Repairs(Vec<Repair>);

impl Repairs {
    /// No repair.
    pub const fn new() -> Repairs {
        Repairs(Vec::new())
    }

    pub(crate) fn from_walk(repairs: Vec<Repair>) -> Repairs {
        Repairs(repairs)
    }

    /// Whether nothing was repaired.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many positions were repaired.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The repairs, in order.
    pub fn iter(&self) -> core::slice::Iter<'_, Repair> {
        self.0.iter()
    }

    /// The repairs as a slice.
    pub fn as_slice(&self) -> &[Repair] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Repairs {
    type Item = &'a Repair;
    type IntoIter = core::slice::Iter<'a, Repair>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for Repairs {
    type Item = Repair;
    type IntoIter = std::vec::IntoIter<Repair>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl fmt::Display for Repairs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, repair) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{repair}")?;
        }
        Ok(())
    }
}

impl Serialize for Repairs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(&self.0)
    }
}

/// Accepted arguments and what was repaired in them. Like `Args<T>`, it
/// deserializes through stitch, for serde-based frameworks (`Parameters<Reported<T>>` in rmcp).
///
/// ```
/// use stitch_runtime::{RepairKind, Reported, ToolArgs};
///
/// /// Tag some files.
/// #[derive(Debug, serde::Deserialize, ToolArgs)]
/// struct Tag {
///     files: Vec<String>,
///     tags: Vec<String>,
/// }
///
/// // The model wrote `tags` as JSON text: accepted, and the report says where.
/// let Reported { args, repairs } =
///     Tag::from_json_reported(r#"{"files": ["a.png"], "tags": "[\"x\", \"y\"]"}"#).unwrap();
/// assert_eq!(args.tags, ["x", "y"]);
/// assert_eq!(repairs.len(), 1);
/// let repair = repairs.iter().next().unwrap();
/// assert_eq!((repair.path(), repair.kind()), ("tags", RepairKind::JsonText));
/// assert_eq!(repairs.to_string(), "tags: JSON text parsed");
///
/// // A call that needed no repair reports none (and allocates nothing for it).
/// let clean = Tag::from_value_reported(serde_json::json!({"files": [], "tags": []})).unwrap();
/// assert!(clean.repairs.is_empty());
///
/// // Through serde, as `Args<T>`:
/// let framed: Reported<Tag> = serde_json::from_str(r#"{"files": "[\"b\"]", "tags": []}"#).unwrap();
/// assert_eq!(framed.repairs.to_string(), "files: JSON text parsed");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reported<T> {
    /// The accepted arguments.
    pub args: T,
    /// What was repaired in them.
    pub repairs: Repairs,
}

impl<T> Reported<T> {
    /// The arguments, without the report.
    pub fn into_inner(self) -> T {
        self.args
    }

    /// Whether stitch repaired anything.
    pub fn was_repaired(&self) -> bool {
        !self.repairs.is_empty()
    }
}
