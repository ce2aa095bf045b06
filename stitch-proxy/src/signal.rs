//! Signals, on Unix, on the runtime like every other event: the ones that ask a process to
//! stop are passed on to the server, and the server's death by a signal becomes the proxy's
//! own. Safe code: `nix` sends the signal, `signal-hook` ends the process by its default
//! action.

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use tokio::signal::unix::{signal, SignalKind};

/// From now on SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to the proxy go to the server
/// instead (a task of the runtime): the proxy ends when the server does, passing on how it
/// ended.
pub fn forward_to(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else {
        return;
    };
    let pid = Pid::from_raw(pid);
    for (kind, sent) in [
        (SignalKind::terminate(), Signal::SIGTERM),
        (SignalKind::interrupt(), Signal::SIGINT),
        (SignalKind::hangup(), Signal::SIGHUP),
        (SignalKind::quit(), Signal::SIGQUIT),
    ] {
        let Ok(mut stream) = signal(kind) else {
            continue;
        };
        tokio::spawn(async move {
            while stream.recv().await.is_some() {
                // A server that has exited only makes this fail.
                let _ = kill(pid, sent);
            }
        });
    }
}

/// Ends the proxy by `signal`, as the server ended; returns only if the signal did not end it.
pub fn die_by(signal: i32) {
    let _ = signal_hook::low_level::emulate_default_handler(signal);
}
