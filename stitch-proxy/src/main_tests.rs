//! The command line's tests (src/main.rs).

use super::*;

fn args(line: &str) -> Result<Cli, String> {
    parse_args(line.split_whitespace().map(str::to_owned))
}

#[test]
fn the_command_line() {
    let run = |level, options, command: &[&str]| Cli::Run {
        level,
        json: false,
        options,
        command: command.iter().map(|s| s.to_string()).collect(),
        http: Box::default(),
    };
    let default = Options::default();
    assert_eq!(
        args("--log debug -- python server.py --log x"),
        Ok(run(
            Level::Debug,
            default.clone(),
            &["python", "server.py", "--log", "x"]
        ))
    );
    assert_eq!(
        args("--log=info server -- x"),
        Ok(run(Level::Info, default.clone(), &["server", "--", "x"]))
    );
    assert_eq!(
        args("-- -weird"),
        Ok(run(Level::Warn, default.clone(), &["-weird"]))
    );
    assert_eq!(
        args("--refuse-invalid --list-timeout 2.5 --max-message 2048 -- s"),
        Ok(run(
            Level::Warn,
            Options {
                refuse_invalid: true,
                list_timeout: Duration::from_millis(2500),
                max_message: 2048,
                ..Options::default()
            },
            &["s"]
        ))
    );
    assert_eq!(
        args("--list-timeout=0 s"),
        Ok(run(
            Level::Warn,
            Options {
                list_timeout: Duration::ZERO,
                ..Options::default()
            },
            &["s"]
        ))
    );
    assert!(args("--list-timeout soon -- s")
        .unwrap_err()
        .contains("\"soon\""));
    assert!(args("--list-timeout -1 -- s").is_err());
    assert!(args("--list-timeout").is_err());
    assert_eq!(args("--help -- x"), Ok(Cli::Help));
    assert_eq!(args("-V"), Ok(Cli::Version));
    assert!(args("--log loud -- x").unwrap_err().contains("\"loud\""));
    assert!(args("--log").is_err());
    assert!(args("--").is_err());
    assert!(args("").is_err());
    assert!(args("--frobnicate -- x")
        .unwrap_err()
        .contains("--frobnicate"));
}

#[test]
fn the_record_options() {
    let Ok(Cli::Run {
        level,
        json,
        options,
        ..
    }) = args("--report-only --check a --check=b --skip c --log-format json -- s")
    else {
        panic!("not a run");
    };
    assert!(options.report_only && json);
    // Records asked for without --log: info.
    assert_eq!(level, Level::Info);
    let names = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
    assert_eq!(options.tools.only, Some(names(&["a", "b"])));
    assert_eq!(options.tools.skip, names(&["c"]));
    assert!(options.tools.checks("a") && !options.tools.checks("c"));
    assert!(!options.tools.checks("d"), "not named by --check");
    let Ok(Cli::Run { level, json, .. }) = args("--log-format=text --log error -- s") else {
        panic!("not a run");
    };
    assert_eq!((level, json), (Level::Error, false));
    let Ok(Cli::Run { level, .. }) = args("--log warn --report-only -- s") else {
        panic!("not a run");
    };
    assert_eq!(level, Level::Warn, "--log wins");
    assert!(args("--log-format xml -- s")
        .unwrap_err()
        .contains("\"xml\""));
    assert!(args("--check")
        .unwrap_err()
        .contains("--check needs a value"));
}

#[test]
fn the_http_options() {
    let Ok(Cli::Run { command, http, .. }) = args(
        "--upstream https://mcp.example.org/mcp --header Authorization:Bearer --listen 8080 --path /x --allow-host h.example --session-idle 2 --max-body 10 --max-sessions 3",
    ) else {
        panic!("not a run");
    };
    assert!(command.is_empty());
    let upstream = http.upstream.unwrap();
    assert_eq!(upstream.uri, "https://mcp.example.org/mcp");
    assert_eq!(upstream.headers[0].0, "authorization");
    assert_eq!(upstream.headers[0].1, "Bearer");
    assert_eq!(http.listen, Some(SocketAddr::from(([127, 0, 0, 1], 8080))));
    assert_eq!(http.settings.path, "/x");
    assert!(http.settings.allowed.host(b"h.example:8080"));
    assert_eq!(http.settings.idle, Duration::from_secs(2));
    assert_eq!(http.settings.max_body, 10);
    assert_eq!(http.settings.max_sessions, 3);

    let Ok(Cli::Run { command, http, .. }) = args("--listen [::1]:0 -- server a") else {
        panic!("not a run");
    };
    assert_eq!(command, ["server", "a"]);
    assert_eq!(http.listen, "[::1]:0".parse().ok());
    assert!(http.upstream.is_none());

    for (line, error) in [
        ("--upstream ftp://x", "http:// or https://"),
        ("--upstream http://x -- server", "not both"),
        ("--header A:b -- server", "--header needs --upstream"),
        ("--ca-file ca.pem -- server", "--ca-file needs --upstream"),
        (
            "--ca-file /nonexistent/ca.pem --upstream https://x",
            "--ca-file \"/nonexistent/ca.pem\": cannot be read",
        ),
        ("--upstream http://x --header nocolon", "Name: value"),
        ("--listen 8080", "no server command"),
        ("--listen nowhere -- s", "HOST:PORT"),
        ("--path mcp --listen 1 -- s", "starting with /"),
        ("--max-sessions 0 --listen 1 -- s", "at least 1"),
        ("--max-connections x --listen 1 -- s", "\"x\""),
        ("--read-timeout -1 --listen 1 -- s", "\"-1\""),
        ("--session-idle soon --listen 1 -- s", "\"soon\""),
    ] {
        let got = args(line).unwrap_err();
        assert!(got.contains(error), "{line}: {got}");
    }
    assert!(args("--frobnicate -- x")
        .unwrap_err()
        .contains("--frobnicate"));
}
