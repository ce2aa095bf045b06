//! TEMPORARY: replaced by the zero-allocation scanner.
#![allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    pub min: usize,
    pub max: usize,
}
impl Bounds {
    pub const NONE: Bounds = Bounds {
        min: 0,
        max: usize::MAX,
    };
    pub const fn new(min: Option<usize>, max: Option<usize>) -> Bounds {
        Bounds {
            min: match min {
                Some(m) => m,
                None => 0,
            },
            max: match max {
                Some(m) => m,
                None => usize::MAX,
            },
        }
    }
    pub const fn contains(&self, len: usize) -> bool {
        len >= self.min && len <= self.max
    }
    pub const fn is_none(&self) -> bool {
        self.min == 0 && self.max == usize::MAX
    }
}
pub fn is_text_list(text: &str, mut accepts: impl FnMut(&str) -> bool, bounds: Bounds) -> bool {
    let t = text.trim_start_matches([' ', '\t', '\n', '\r']);
    if !t.starts_with('[') {
        return false;
    }
    match serde_json::from_str::<Vec<serde_json::Value>>(text) {
        Ok(v) => bounds.contains(v.len()) && v.iter().all(|e| accepts(&e.to_string())),
        Err(_) => false,
    }
}
pub fn is_json_string(token: &str) -> bool {
    serde_json::from_str::<String>(token).is_ok()
}
pub fn is_json_char(token: &str) -> bool {
    serde_json::from_str::<char>(token).is_ok()
}
