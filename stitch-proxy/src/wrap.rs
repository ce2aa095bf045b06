//! placeholder
use std::process::ExitCode;
pub fn main(_unwrap: bool, _args: impl Iterator<Item = String>) -> ExitCode {
    ExitCode::FAILURE
}
