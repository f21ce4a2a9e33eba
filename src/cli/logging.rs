//! The log on stderr: every field escaped, so that text from a request (a newline, an escape
//! sequence) can neither forge a log line nor rewrite the terminal, at every level.

use tracing_subscriber::field::MakeExt;
use tracing_subscriber::fmt::format::{Writer, debug_fn};

/// Logs to stderr; `RUST_LOG` overrides the default level.
pub fn init(default: &str) {
    let fields = debug_fn(|w: &mut Writer<'_>, field, value| {
        let text = escaped(&format!("{value:?}"));
        match field.name() {
            "message" => write!(w, "{text}"),
            name => write!(w, "{name}={text}"),
        }
    })
    .delimited(" ");
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .fmt_fields(fields)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                // The TLS verifier logs each certificate it refuses as an error; the client
                // says it once, in words, so its log would only say it twice.
                .unwrap_or_else(|_| {
                    tracing_subscriber::EnvFilter::new(format!(
                        "{default},rustls_platform_verifier=off"
                    ))
                }),
        )
        .init();
}

/// Control characters, line breaks included, written as `\u{a}`.
fn escaped(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn line_breaks_and_escapes_are_written_escaped() {
        assert_eq!(
            super::escaped("refused\n2026 INFO forged\u{1b}[2J"),
            "refused\\u{a}2026 INFO forged\\u{1b}[2J"
        );
        assert_eq!(super::escaped("客户 ok"), "客户 ok");
    }
}
