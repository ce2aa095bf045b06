//! The shared helpers' own checks: the reformatter keeps the JSON it lays out.

use serde_json::{json, Value};
use stitch_tests::reformat::{compact, pretty, spaced};

#[test]
fn the_layouts_are_the_same_json() {
    let value = json!({
        "a": [1, -2.5e3, true, null, [], {}, [[]], {"b": {}}],
        "s": "x \" \\ , : { [ \n\t y",
        "": [" ", "\u{2014}"],
    });
    let compact_text = value.to_string();
    let pretty_text = serde_json::to_string_pretty(&value).unwrap();
    assert_eq!(compact(&pretty_text), compact_text);
    assert_eq!(pretty(&compact_text), pretty_text);
    assert_eq!(pretty(&pretty_text), pretty_text);
    let mut changed = 0;
    for seed in 0..64 {
        let text = spaced(&compact_text, seed);
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            value,
            "{text:?}"
        );
        assert_eq!(compact(&text), compact_text);
        changed += usize::from(text != compact_text);
    }
    assert!(changed > 60);
}
