//! Signals, on Unix: the ones that ask a process to stop are passed on to the server, and the
//! server's death by a signal becomes the proxy's own.

use std::sync::atomic::{AtomicI32, Ordering};

/// The server's pid, read by the signal handler.
static CHILD: AtomicI32 = AtomicI32::new(0);

/// The signals a client (or a terminal) sends to stop a server.
const FORWARDED: [libc::c_int; 4] = [libc::SIGTERM, libc::SIGINT, libc::SIGHUP, libc::SIGQUIT];

extern "C" fn forward(signal: libc::c_int) {
    let pid = CHILD.load(Ordering::Relaxed);
    if pid > 0 {
        // SAFETY: kill(2) is async-signal-safe; a pid that has exited only makes it fail.
        unsafe {
            libc::kill(pid, signal);
        }
    }
}

/// From now on SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to the proxy go to the server
/// instead: the proxy ends when the server does, passing on how it ended.
pub fn forward_to(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else {
        return;
    };
    CHILD.store(pid, Ordering::Relaxed);
    for signal in FORWARDED {
        // SAFETY: a zeroed sigaction is a valid value to fill in; `forward` only loads an
        // atomic and calls kill(2). SA_RESTART keeps the proxy's blocking reads and writes
        // going.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = forward as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// Ends the proxy by `signal`, as the server ended; returns only if the signal did not end it.
pub fn die_by(signal: i32) {
    // SAFETY: restoring the default action and raising the signal in this process; nothing
    // runs concurrently that depends on the handlers.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}
