//! The seed inputs of the fuzz targets: the test vectors of `docs/rules.md` and of the
//! behaviour tests, as arguments of the fuzzed tool types.
//!
//! `fuzz/seeds/<target>/` holds them as files (written from these lists with `STITCH_BLESS=1`,
//! see `seed_files_match_the_list`); the corpus replay runs them with the rest, and
//! `seeds_pass` runs them from here, so the list and its files cannot drift apart unnoticed.

use std::path::PathBuf;

use stitch_tests::checks;

/// Arguments texts (JSON, or not quite): the seeds of `from_json` and `coerce_value`.
pub const ARGS: &[&str] = &[
    // The vector table of docs/rules.md#test-vectors.
    r#"{"tags":"[\"a\",\"b\"]"}"#,
    r#"{"meta":"{\"x\":42}"}"#,
    r#"{"tags":"[\"x\"]"}"#,
    r#"{"tags":"not-json"}"#,
    r#"{"names":"[\"a\",\"b\"]"}"#,
    r#"{"rows":[{"names":" [\"a\"]"}]}"#,
    r#"{"names":"[]"}"#,
    r#"{"names":"[preview].png"}"#,
    r#"{"names":"plain"}"#,
    r#"{"names":"[1,2"}"#,
    r#"{"names":"[{\"a\":1}]"}"#,
    r#"{"names":"123"}"#,
    r#"{"pick":"[\"a\"]"}"#,
    r#"{"pick":"[1,2]"}"#,
    r#"{"paths":"  [\"https://example.com/pic.png\"]\n"}"#,
    r#"{"paths":["[\"nested/pic.png\"]"]}"#,
    r#"{"paths":["nested/pic.png","[preview].PNG"]}"#,
    // The fuzzed types, with text to repair and to refuse at every kind of position.
    r#"{"query":"cats","tags":"[\"a\"]","ids":"[1,2]","modes":["fast","slow"],"rows":"[{\"line\":1,\"names\":\"a\"}]","filters":"{\"kinds\":\"[\\\"fast\\\"]\",\"range\":\"[1,2]\"}","meta":{"k":"[\"v\"]"},"extra":"[1]"}"#,
    r#"{"query":"q","tags":["a","b","c","d","e","f"],"ids":"7","modes":"[\"fast\"]","rows":{"line":"1"}}"#,
    r#"{"rows":[{"line":1,"names":"[\"a\"]","tags":"[\"t\"]"}],"files":{"readme":{"tags":"[\"x\"]","size":3}}}"#,
    r#"{"rows":"[{\"line\":2,\"tags\":\"[\\\"t\\\"]\"}]","files":"{\"a\":{\"tags\":\"x\"}}"}"#,
    r#"{"rows":[],"files":{"empty":{"tags":[]}}}"#,
    r#"{"action":{"type":"edit","rows":[{"line":1,"names":"[\"a\"]"}]},"pick":"[1,2]","ext":{"move":{"line":1}},"op":"{\"Add\":{\"line\":1}}","adj":{"t":"Swap","c":"[\"x\",\"[3]\"]"},"ns":"[1,2]"}"#,
    r#"{"action":"{\"type\":\"view\",\"paths\":[\"a\"]}","ext":"stop","adj":{"t":"Move","c":{"line":3,"names":"[\"a\"]"}}}"#,
    r#"{"action":{"type":"move","line":1,"names":"a"},"ext":{"swap":["[1]","[1, 2]"]},"op":{"Remove":{"ids":"[1]"}},"ns":"{\"names\":\"x\"}","pick":{"names":"[\"a\"]"}}"#,
    r#"{"action":{"type":"fly","names":"[\"a\"]"},"ext":{"edit_rows":"{\"rows\":[]}"},"adj":{"c":"[1]","t":"Stop"}}"#,
    r#"{"name":"root","children":"[{\"name\":\"a\",\"children\":\"[{}]\"}]","by_name":{"x":{"labels":"[\"l\"]"}},"next":"{\"name\":\"n\"}","kids":"[{\"name\":\"k\"}]"}"#,
    r#"{"children":[{"children":[{"children":[{"children":[{"name":"deep","kids":{"labels":"[]"}}]}]}]}]}"#,
    r#"{"id":1,"names":"[\"a\"]","extra":"[1, 2]"}"#,
    r#"{"id":1,"names":"a","extra":"[1, 2]","more":"[\"x\"]"}"#,
    r#"{"filePaths":"[\"a\"]","tags":"[\"t\"]","Meta":"{\"tags\":[\"x\"]}"}"#,
    r#"{"filePaths":"a","tagList":"[\"t\"]","Meta":{"tags":"[\"x\"]","size":"5"}}"#,
    r#"{"deque":"[1, 2]","set":"[\"x\"]","ordered":"[3]","boxed":"[\"b\"]","pair":"[1, 2]","json_map":"{\"k\": 1}","letters":"[\"a\",\"b\"]","floats":"1.5","lists":"[[\"a\"]]","shared":"{\"line\":1}","flags":"true"}"#,
    r#"{"set":"[\"x\",\"x\",\"x\",\"x\"]","letters":"[\"ab\"]","lists":["[\"a\"]"],"pair":"[1,2,3]"}"#,
    r#"{"type":"view","paths":"[\"a\"]"}"#,
    r#"{"edit_rows":{"rows":"[]"}}"#,
    r#"{"t":"Edit","c":"{\"rows\":[]}"}"#,
    r#""[1,2]""#,
    r#""{\"paths\": \"a\"}""#,
    // Text written twice; many issues at once; roots that are not objects.
    r#"{"tags":"\"[\\\"a\\\",\\\"b\\\"]\"","paths":"\"[\\\"a\\\"]\""}"#,
    r#"{"rows":[{"line":1,"names":"[\"a\"]"},{"line":2,"names":"[\"a\"]"},{"line":3,"names":"[\"a\"]"},{"line":4,"names":"[\"a\"]"},{"line":5,"names":"[\"a\"]"},{"line":6,"names":"[\"a\"]"},{"line":7,"names":"[\"a\"]"},{"line":8,"names":"[\"a\"]"},{"line":9,"names":"[\"a\"]"},{"line":10,"names":"[\"a\"]"},{"line":11,"names":"[\"a\"]"},{"line":12,"names":"[\"a\"]"},{"line":13,"names":"[\"a\"]"},{"line":14,"names":"[\"a\"]"},{"line":15,"names":"[\"a\"]"},{"line":16,"names":"[\"a\"]"},{"line":17,"names":"[\"a\"]"},{"line":18,"names":"[\"a\"]"},{"line":19,"names":"[\"a\"]"},{"line":20,"names":"[\"a\"]"},{"line":21,"names":"[\"a\"]"},{"line":22,"names":"[\"a\"]"}]}"#,
    "null",
    "1",
    "true",
    "[1,2]",
    // Not JSON.
    "",
    "not json",
    r#"{"paths": "#,
    r#"{"paths":"a"}garbage"#,
    r#"{"paths":"\ud800"}"#,
    "{\"paths\":\"\u{0}\"}",
];

/// Strings for the text-list target, each after two bytes of bounds (see
/// [`checks::bounds_of`]): `"  "` is no bound, `0x80 | n` is a bound of `n`.
pub const TEXTS: &[&str] = &[
    r#"["a","b"]"#,
    "[]",
    r#" ["a"]"#,
    "[preview].png",
    "plain",
    "[1,2",
    r#"[{"a":1}]"#,
    "123",
    "  [\"https://example.com/pic.png\"]\n",
    r#"["nested/pic.png"]"#,
    r#"["a","b","c","d"]"#,
    "\u{a0}[\"a\"]",
    "\u{feff}[\"a\"]",
    "\t[\"a\"]",
    "\r\n [\"a\"] \n",
    r#"["\ud83d\ude00", "\u00e9", "\n\t\"\\\/"]"#,
    r#"["\ud800"]"#,
    r#"["\udc00\ud800"]"#,
    "[1, 2]",
    r#"["a",]"#,
    r#"[["a"]]"#,
    r#"["a"] x"#,
    "[\"\u{0}\"]",
    "[\"\u{7f}\"]",
    r#"[null]"#,
    r#"["a" "b"]"#,
    r#"["a"]]"#,
    "[\"a\"\u{c}]",
    // Keys sent twice (issue 18): a tag, a content key, a variant's key, a field, a map key.
    r#"{"action":{"type":"edit","type":"view","paths":["a"]}}"#,
    r#"{"adj":{"t":"Move","t":"Swap","c":{"line":1}}}"#,
    r#"{"adj":{"t":"Swap","c":["a"],"c":["b"]}}"#,
    r#"{"ext":{"move":{"line":1},"move":{"line":2}}}"#,
    r#"{"files":{"a":{"tags":["x"]},"a":{"tags":["y"],"tags":["z"]}}}"#,
    r#"{"aaaaaaaa_x_bbbbbbbb":{"names":"a","names":"b"},"aaaaaaaa_y_bbbbbbbb":{"names":"c"}}"#,
    // Arguments that are not an object.
    r#"["a","b"]"#,
    "[1,2]",
];

/// Texts of the types whose reading serde decides in its subtler ways
/// (`stitch_tests::shapes`): flatten chains, every tagging, untagged members with maps, keys
/// sent twice, the rarer shapes. The seeds of `serde_oracle`.
pub const SHAPES: &[&str] = &[
    r#"{"id":1,"topName":"hello"}"#,
    r#"{"id":1,"topName":"[1,2]","tags":["a"],"num":2,"x":[1],"y":[]}"#,
    r#"{"id":1,"topName":"a","n":2,"x":[1],"x":[2]}"#,
    r#"{"id":1,"topName":"a","num":2,"n":3}"#,
    r#"{"op":"run"}"#,
    r#"{"op":"run","n":1,"env":[1],"x":[2]}"#,
    r#"{"op":"run","op":"stop"}"#,
    r#"{"op":"wrap","n":1,"k":[3]}"#,
    r#"{"op":"stop","note":"x"}"#,
    r#"{"internal":{"op":"stop"},"adjacent":{"t":"B","c":{"x":"a"},"c":{"x":"b"}}}"#,
    r#"{"internal":{"op":"stop"},"adjacent":{"t":"U","t":"A","c":[1]}}"#,
    r#"{"internal":{"op":"stop"},"external":[{"go":[1],"go":[2]}]}"#,
    r#"{"internal":{"op":"stop"},"untagged":{"k":1,"k":2}}"#,
    r#"{"internal":{"op":"stop"},"untagged":{"k":1,"d":true,"z":1}}"#,
    r#"{"internal":{"op":"stop"},"opts":{"a":true,"a":false}}"#,
    r#"{"m":{"a":1,"a":2},"u":{"k":1,"k":2}}"#,
    r#"{"m":{},"u":["a","b"]}"#,
    r#"{"maybe":3,"ratio":1e39,"colour":"red","speed":"Warp","readings":[1]}"#,
    r#"{"count":2,"names":["x","y"],"ratio":0.99999999,"color":"a","speed":"Fast"}"#,
];

/// The bounds prefixes each text is seeded with.
const BOUNDS: &[[u8; 2]] = &[
    *b"  ",
    [0x80, 0x81],
    [0x82, 0x83],
    [0x81, 0x80],
    [0x20, 0x80],
];

/// Lines for `proxy_lines` (after its mode byte; `S…` is a server's line).
pub const LINES: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"a.png\"]"}}}"#,
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"tag","arguments":{ "tags" : "[\"x\",  1E2]", "n":"1","z":-0,"z":1e400}}}"#,
    r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[preview].png","pad":"\ud800"}}}"#,
    r#"{"jsonrpc":"2.0","id":"a\u0062","method":"tools/call","params":{"name":"tag","arguments":{"meta":"{\"k\":\"[\\\"v\\\"]\"}","opt":null}}}"#,
    r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"open","arguments":{"x-a":"[\"1\"]","y":1}}}"#,
    r#"[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"}]"#,
    r#"S{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}"#,
    r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"tag","arguments":[[[[[[[[[[1]]]]]]]]]]}}"#,
    // A pretty-printed list written as text, a message inside it: repaired on one line.
    r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tag","arguments":{"tags":"[\n\t\"a\",\r\n {\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"x\"}\n]"}}}"#,
    // The modern era: the envelope in `_meta`, the proxy's own list and answers in its era.
    r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"view","arguments":{"paths":"[\"a\"]"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#,
    // Carriage returns: raw ones as white space inside (each goes out as a space), and a
    // CRLF ending (goes out as `\n`); the call is otherwise forwarded as sent.
    "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\r\"params\":{\"name\":\"tag\",\"arguments\":[[\t\r ]]}}\r",
    "not json {",
    "",
    "  
",
];

/// The seeds of each target, by file name.
pub fn seeds(target: &str) -> Vec<(String, Vec<u8>)> {
    match target {
        "from_json" | "coerce_value" => ARGS
            .iter()
            .enumerate()
            .map(|(i, text)| (format!("seed-{i:03}"), text.as_bytes().to_vec()))
            .collect(),
        "serde_oracle" => SHAPES
            .iter()
            .enumerate()
            .map(|(i, text)| (format!("seed-{i:03}"), text.as_bytes().to_vec()))
            .collect(),
        "text_list" => TEXTS
            .iter()
            .enumerate()
            .flat_map(|(i, text)| {
                BOUNDS.iter().enumerate().map(move |(j, bounds)| {
                    let mut data = bounds.to_vec();
                    data.extend_from_slice(text.as_bytes());
                    (format!("seed-{i:03}-{j}"), data)
                })
            })
            .collect(),
        "proxy_lines" => (0..2u8)
            .map(|mode| {
                let mut data = vec![mode];
                data.extend_from_slice(LINES.join("\n").as_bytes());
                (format!("seed-all-{mode}"), data)
            })
            .chain(LINES.iter().enumerate().map(|(i, line)| {
                let mut data = vec![(i % 2) as u8];
                data.extend_from_slice(line.as_bytes());
                (format!("seed-{i:03}"), data)
            }))
            .collect(),
        _ => panic!("no target {target}"),
    }
}

/// The check of each fuzz target.
pub fn check_of(target: &str) -> fn(&[u8]) -> checks::Outcome {
    match target {
        "from_json" => checks::from_json_input,
        "text_list" => checks::text_list_input,
        "coerce_value" => checks::coerce_input,
        "serde_oracle" => stitch_tests::shapes::serde_oracle_input,
        "proxy_lines" => stitch_tests::proxy_lines::proxy_input,
        _ => panic!("no target {target}"),
    }
}

pub const TARGETS: [&str; 5] = [
    "from_json",
    "text_list",
    "coerce_value",
    "proxy_lines",
    "serde_oracle",
];

/// `fuzz/<dir>/<target>`.
pub fn fuzz_dir(dir: &str, target: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz")
        .join(dir)
        .join(target)
}

#[test]
fn seeds_pass() {
    for target in TARGETS {
        let check = check_of(target);
        for (name, data) in seeds(target) {
            if let Err(e) = check(&data) {
                panic!("{target}/{name}: {e}");
            }
        }
    }
}

/// Compares `fuzz/seeds/<target>/*` with the lists above; `STITCH_BLESS=1` writes the files
/// from the lists instead (after changing a list), as it does the golden schemas.
#[test]
fn seed_files_match_the_list() {
    if std::env::var_os("STITCH_BLESS").is_some() {
        write_seed_files();
    }
    for target in TARGETS {
        for (name, data) in seeds(target) {
            let path = fuzz_dir("seeds", target).join(&name);
            let file = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("{}: {e}; run with STITCH_BLESS=1", path.display()));
            assert_eq!(file, data, "{} differs from the list", path.display());
        }
    }
}

/// Writes `fuzz/seeds/<target>/*` from the lists above.
fn write_seed_files() {
    for target in TARGETS {
        let dir = fuzz_dir("seeds", target);
        if dir.exists() {
            std::fs::remove_dir_all(&dir).unwrap();
        }
        std::fs::create_dir_all(&dir).unwrap();
        for (name, data) in seeds(target) {
            std::fs::write(dir.join(name), data).unwrap();
        }
    }
}
