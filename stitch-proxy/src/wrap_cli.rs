//! The command line of `stitch-proxy wrap` and `unwrap`: the file read, the diff shown
//! (`--dry-run`) or the backup written and the file replaced. Part of `wrap`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{backup_path, diff, unwrap, wrap, Edited, Proxy};

const USAGE: &str = "\
usage: stitch-proxy wrap FILE [--dry-run] [--proxy PATH] [-- proxy options…]
       stitch-proxy unwrap FILE [--dry-run]

FILE is an MCP client's configuration with an \"mcpServers\" object (Claude Desktop's
claude_desktop_config.json, Cursor's .cursor/mcp.json, Claude Code's .mcp.json). wrap puts
each server behind stitch-proxy, unwrap takes it out again, byte for byte. The file is backed
up beside itself (FILE.bak) before it is changed.

  --dry-run      print the diff; write nothing
  --proxy PATH   the proxy's command in the file (default: the path of this program)
  -- options…    options given to each proxy (--report-only, --log-format json, …)";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
struct Asked {
    file: PathBuf,
    dry_run: bool,
    proxy: Option<String>,
    options: Vec<String>,
}

fn parse(unwrapping: bool, args: impl Iterator<Item = String>) -> Result<Option<Asked>, String> {
    let mut args = args;
    let mut file = None;
    let mut dry_run = false;
    let mut proxy = None;
    let mut options = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--dry-run" => dry_run = true,
            "--proxy" if !unwrapping => {
                proxy = Some(args.next().ok_or("--proxy needs a path")?);
            }
            "--" if !unwrapping => options.extend(args.by_ref()),
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            _ if file.is_some() => return Err(format!("one FILE only, not also {arg:?}")),
            _ => file = Some(PathBuf::from(arg)),
        }
    }
    let file = file.ok_or("no FILE given")?;
    Ok(Some(Asked {
        file,
        dry_run,
        proxy,
        options,
    }))
}

/// `stitch-proxy wrap …` (`unwrapping`: `unwrap …`), the arguments after the subcommand;
/// `check` says whether the proxy options to write into the file are the proxy's.
pub fn main(
    unwrapping: bool,
    args: impl Iterator<Item = String>,
    check: &dyn Fn(&[String]) -> Result<(), String>,
) -> ExitCode {
    let asked = match parse(unwrapping, args) {
        Ok(Some(asked)) => match check(&asked.options) {
            Ok(()) => asked,
            Err(error) => {
                eprintln!("stitch-proxy: the proxy options after --: {error}");
                return ExitCode::from(2);
            }
        },
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("stitch-proxy: {error}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(unwrapping, &asked) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("stitch-proxy: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Does what `asked` says; the text to print, or why nothing was done.
fn run(unwrapping: bool, asked: &Asked) -> Result<String, String> {
    let shown = asked.file.display().to_string();
    // A link is followed: the file it names is the one changed.
    let file = std::fs::canonicalize(&asked.file).map_err(|e| format!("{shown}: {e}"))?;
    let bytes = std::fs::read(&file).map_err(|e| format!("{shown}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{shown}: not UTF-8 text"))?;
    let edited = if unwrapping {
        unwrap(&shown, &text)?
    } else {
        let command = match &asked.proxy {
            Some(path) => path.clone(),
            None => std::env::current_exe()
                .map_err(|e| format!("the path of this program: {e} (give --proxy PATH)"))?
                .to_string_lossy()
                .into_owned(),
        };
        let proxy = Proxy {
            command: &command,
            options: &asked.options,
        };
        wrap(&shown, &text, &proxy)?
    };
    let mut report = summary(&edited);
    if edited.text == text {
        report.push_str("nothing to change: the file is left as it was\n");
        return Ok(report);
    }
    if asked.dry_run {
        report.push_str(&diff(&text, &edited.text, &shown, 3));
        report.push_str("--dry-run: nothing written\n");
        return Ok(report);
    }
    let backup = backup_path(&file);
    write(&file, &backup, &text, &edited.text).map_err(|e| format!("{shown}: {e}"))?;
    report.push_str(&format!(
        "{shown} written; as it was: {}\n",
        backup.display()
    ));
    Ok(report)
}

/// A line per server: what was done, or why it was left alone.
fn summary(edited: &Edited) -> String {
    let mut out = String::new();
    for change in &edited.changes {
        out.push_str(&format!("{}: {}\n", change.server, change.what));
    }
    out
}

/// The backup written first (the file's bytes, its permissions), then the new text written
/// beside the file and renamed over it, so that the file is whole at every moment.
fn write(file: &Path, backup: &Path, old: &str, new: &str) -> std::io::Result<()> {
    std::fs::copy(file, backup)?;
    if std::fs::read(backup)? != old.as_bytes() {
        return Err(std::io::Error::other("the backup does not match the file"));
    }
    let mut temporary = file.as_os_str().to_owned();
    temporary.push(".stitch-proxy.tmp");
    let temporary = PathBuf::from(temporary);
    // A copy first, so that the new file has the old one's permissions from the start (a
    // configuration may hold secrets).
    std::fs::copy(file, &temporary)?;
    std::fs::write(&temporary, new)?;
    std::fs::rename(&temporary, file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(unwrapping: bool, line: &str) -> Result<Option<Asked>, String> {
        parse(unwrapping, line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn the_command_line() {
        assert_eq!(
            args(
                false,
                "f.json --dry-run --proxy /bin/sp -- --report-only --check x"
            ),
            Ok(Some(Asked {
                file: "f.json".into(),
                dry_run: true,
                proxy: Some("/bin/sp".into()),
                options: vec!["--report-only".into(), "--check".into(), "x".into()],
            }))
        );
        assert_eq!(args(false, "--help"), Ok(None));
        assert!(args(false, "").unwrap_err().contains("no FILE"));
        assert!(args(false, "a b").unwrap_err().contains("one FILE"));
        assert!(args(true, "f --proxy x").unwrap_err().contains("--proxy"));
        assert!(args(false, "f --frob").unwrap_err().contains("--frob"));
    }
}
