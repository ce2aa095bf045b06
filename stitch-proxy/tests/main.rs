//! stitch-proxy's integration tests, in one binary: one link after an edit and one build of
//! the fake server per run, a module per concern.

mod support;

mod forwarding;
mod hostile;
mod http;
mod http_load;
mod http_upstream;
mod https;
mod liveness;
mod proxy;
mod records;
mod schemas;
mod wrap;
