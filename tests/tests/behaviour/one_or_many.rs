//! The `OneOrMany<T>` API and its serde forms.

use std::collections::HashSet;

use serde_json::json;
use stitch_runtime::OneOrMany;

#[test]
fn reads_one_value_or_an_array() {
    let one: OneOrMany<u32> = serde_json::from_value(json!(5)).unwrap();
    assert_eq!(one, OneOrMany::One(5));
    let many: OneOrMany<u32> = serde_json::from_value(json!([1, 2])).unwrap();
    assert_eq!(many, OneOrMany::Many(vec![1, 2]));
    let empty: OneOrMany<String> = serde_json::from_str("[]").unwrap();
    assert!(empty.is_empty());
    let err = serde_json::from_value::<OneOrMany<u32>>(json!("x")).unwrap_err();
    assert!(err.to_string().contains("expected u32"), "{err}");
}

#[test]
fn reads_structs_and_options_as_one_value() {
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct P {
        x: i32,
    }
    let one: OneOrMany<P> = serde_json::from_str(r#"{"x": 1}"#).unwrap();
    assert_eq!(one, OneOrMany::One(P { x: 1 }));
    let many: OneOrMany<Option<u8>> = serde_json::from_str("[null, 3]").unwrap();
    assert_eq!(many, OneOrMany::Many(vec![None, Some(3)]));
    let none: OneOrMany<Option<u8>> = serde_json::from_str("null").unwrap();
    assert_eq!(none, OneOrMany::One(None));
    let borrowed: OneOrMany<&str> = serde_json::from_str(r#""a""#).unwrap();
    assert_eq!(borrowed.as_slice(), ["a"]);
}

#[test]
fn writes_back_the_form_it_came_from() {
    assert_eq!(
        serde_json::to_value(OneOrMany::One("a")).unwrap(),
        json!("a")
    );
    assert_eq!(
        serde_json::to_value(OneOrMany::Many(vec!["a"])).unwrap(),
        json!(["a"])
    );
}

#[test]
fn accessors_and_conversions() {
    let mut values: OneOrMany<i32> = vec![1, 2, 3].into();
    assert_eq!(values.len(), 3);
    assert_eq!(values.first(), Some(&1));
    assert_eq!(values.iter().sum::<i32>(), 6);
    for v in &mut values {
        *v *= 2;
    }
    assert_eq!(values.as_slice(), [2, 4, 6]);
    assert_eq!((&values).into_iter().count(), 3);
    assert_eq!(values.clone().into_iter().collect::<Vec<_>>(), [2, 4, 6]);
    let one = OneOrMany::from(7);
    assert_eq!(one.len(), 1);
    assert_eq!(one.into_vec(), [7]);
    let collected: OneOrMany<u8> = (1..=3).collect();
    assert_eq!(collected, OneOrMany::Many(vec![1, 2, 3]));
    let empty = OneOrMany::<u8>::default();
    assert!(empty.is_empty());
    assert_eq!(empty.first(), None);
    let set: HashSet<OneOrMany<u8>> = [OneOrMany::One(1), OneOrMany::One(1)].into_iter().collect();
    assert_eq!(set.len(), 1);
    let v: Vec<u8> = OneOrMany::One(9).into();
    assert_eq!(v, [9]);
}
