//! Property tests: text lists are refused at the right path, everything else is kept, and the
//! refusal agrees with the oracle `serde_json::from_str::<Vec<String>>` plus the bounds.

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::json;
use stitch_runtime::__private::Bounds;
use stitch_runtime::{IssueKind, OneOrMany, ToolArgs};
use stitch_tests::checks::oracle;

#[derive(Debug, Deserialize, ToolArgs)]
struct Row5 {
    #[stitch(max_items = 5)]
    names: OneOrMany<String>,
}

#[derive(Debug, Deserialize, ToolArgs)]
struct Rows5 {
    rows: Vec<Row5>,
}

fn ws() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![Just(' '), Just('\t'), Just('\n'), Just('\r')],
        0..3,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(stitch_tests::cases(256)))]

    #[test]
    fn text_form_of_a_list_in_bounds_is_refused_at_its_path(
        items in proptest::collection::vec(any::<String>(), 0..=5),
        row in 0usize..4,
        before in ws(),
        after in ws(),
    ) {
        let text = format!("{before}{}{after}", serde_json::to_string(&items).unwrap());
        let mut rows = vec![json!({"names": "plain"}); row + 1];
        rows[row] = json!({ "names": text });
        let err = Rows5::from_value(json!({ "rows": rows })).unwrap_err();
        prop_assert_eq!(err.issues().len(), 1);
        prop_assert_eq!(err.issues()[0].path(), format!("rows.{row}.names"));
        prop_assert_eq!(err.issues()[0].kind(), IssueKind::TextList);
    }

    #[test]
    fn lists_over_the_bound_stay_one_value(items in proptest::collection::vec(any::<String>(), 6..10)) {
        let text = serde_json::to_string(&items).unwrap();
        let got = Row5::from_value(json!({ "names": text.clone() })).unwrap();
        prop_assert_eq!(got.names, OneOrMany::One(text));
    }

    #[test]
    fn refusal_agrees_with_the_oracle(text in "\\PC{0,40}|[\\[\\]\" ,a\\\\u0-9{}:]{0,24}") {
        let refused = Row5::from_value(json!({ "names": text.clone() })).is_err();
        prop_assert_eq!(refused, oracle(&text, Bounds::new(None, Some(5))), "text {:?}", text);
        if !refused {
            let got = Row5::from_value(json!({ "names": text.clone() })).unwrap();
            prop_assert_eq!(got.names, OneOrMany::One(text));
        }
    }
}
