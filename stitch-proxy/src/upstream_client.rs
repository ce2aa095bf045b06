//! What `--upstream`, `--header` and `--ca-file` ask for, and the HTTP client made from it:
//! HTTP/1.1, plain or TLS — rustls with the `ring` provider, trusting the Mozilla roots of
//! `webpki-roots` and the certificates of `--ca-file`.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderName, HeaderValue};
use hyper::Uri;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use rustls::pki_types::pem::{self, PemObject};
use rustls::pki_types::CertificateDer;
use rustls::RootCertStore;

/// The HTTP client every session shares.
pub type HttpClient = Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>;

/// What `--upstream`, `--header` and `--ca-file` ask for.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub uri: Uri,
    pub headers: Vec<(HeaderName, HeaderValue)>,
    /// The certificates of `--ca-file`, trusted besides the Mozilla roots.
    pub ca: Vec<CertificateDer<'static>>,
}

impl Config {
    /// Reads `--upstream URL`: `http://` or `https://` with a host.
    pub fn parse_url(url: &str) -> Result<Uri, String> {
        let uri: Uri = url
            .parse()
            .map_err(|error| format!("--upstream {url:?} is not a URL: {error}"))?;
        match uri.scheme_str() {
            Some("http" | "https") if uri.host().is_some() => Ok(uri),
            _ => Err(format!(
                "--upstream takes an http:// or https:// URL, not {url:?}"
            )),
        }
    }

    /// Reads `--header "Name: value"`.
    pub fn parse_header(text: &str) -> Result<(HeaderName, HeaderValue), String> {
        let Some((name, value)) = text.split_once(':') else {
            return Err("--header takes \"Name: value\"".into());
        };
        let name = HeaderName::from_bytes(name.trim().as_bytes())
            .map_err(|_| format!("--header: {:?} is not a header name", name.trim()))?;
        let mut value = HeaderValue::from_str(value.trim())
            .map_err(|_| format!("--header {name}: the value is not a header value"))?;
        value.set_sensitive(true);
        Ok((name, value))
    }

    /// Reads `--ca-file PATH`: every `CERTIFICATE` of a PEM file (other sections, a key say,
    /// are skipped), each one checked as a trust anchor; a file without one is an error.
    pub fn read_ca_file(path: &Path) -> Result<Vec<CertificateDer<'static>>, String> {
        let named = |what: String| format!("--ca-file {:?}: {what}", path.display().to_string());
        let certificates = CertificateDer::pem_file_iter(path)
            .map_err(|error| named(pem_error(error)))?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|error| named(pem_error(error)))?;
        if certificates.is_empty() {
            return Err(named(
                "holds no PEM certificate (-----BEGIN CERTIFICATE-----)".into(),
            ));
        }
        let mut roots = RootCertStore::empty();
        for (at, certificate) in certificates.iter().enumerate() {
            roots
                .add(certificate.clone())
                .map_err(|error| named(format!("certificate {} is not usable: {error}", at + 1)))?;
        }
        Ok(certificates)
    }
}

/// An error with its causes, on one line (hyper's own says only `client error (Connect)`):
/// `client error (Connect): invalid peer certificate: UnknownIssuer`, with a word on
/// `--ca-file` when the server's certificate is not trusted.
pub fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        // An io::Error shows its inner error's text, which then comes again as its source.
        if !text.ends_with(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    if text.contains("invalid peer certificate") {
        text.push_str("; --ca-file PATH trusts a private CA or a self-signed server");
    }
    text
}

/// A PEM reading error in words.
fn pem_error(error: pem::Error) -> String {
    match error {
        pem::Error::Io(error) => format!("cannot be read ({error})"),
        other => format!("is not a PEM file ({other:?})"),
    }
}

/// Makes the client a run's sessions share: the Mozilla roots plus `config.ca`.
pub fn client(config: &Config) -> Result<HttpClient, String> {
    let mut roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    for certificate in &config.ca {
        roots
            .add(certificate.clone())
            .map_err(|error| format!("TLS: --ca-file: {error}"))?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| format!("TLS: {error}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut http = HttpConnector::new();
    http.enforce_http(false);
    http.set_connect_timeout(Some(Duration::from_secs(10)));
    http.set_nodelay(true);
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(http);
    Ok(Client::builder(TokioExecutor::new()).build(https))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("stitch-proxy-ca-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_ca_file_that_cannot_be_used_is_named_in_its_error() {
        let missing = Config::read_ca_file(Path::new("/nonexistent/ca.pem")).unwrap_err();
        assert!(
            missing.starts_with("--ca-file \"/nonexistent/ca.pem\": cannot be read ("),
            "{missing}"
        );
        for (name, text, error) in [
            (
                "empty.pem",
                "no certificate here\n",
                "holds no PEM certificate",
            ),
            (
                "broken.pem",
                "-----BEGIN CERTIFICATE-----\n@@@@\n-----END CERTIFICATE-----\n",
                "is not a PEM file",
            ),
            // Base64 that is no certificate: read as PEM, refused as a trust anchor.
            (
                "junk.pem",
                "-----BEGIN CERTIFICATE-----\naGVsbG8=\n-----END CERTIFICATE-----\n",
                "certificate 1 is not usable",
            ),
        ] {
            let path = file(name, text);
            let got = Config::read_ca_file(&path).unwrap_err();
            let _ = std::fs::remove_file(&path);
            let named = format!("--ca-file {:?}: {error}", path.display().to_string());
            assert!(got.starts_with(&named), "{got}");
        }
    }
}
