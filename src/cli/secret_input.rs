//! App secrets and passwords on the command line. Never an argument: it would stay in the shell's history
//! and show in the process list. A secret to keep comes from standard input or a hidden
//! prompt; a secret for one run from an environment variable naming the profile or a file read
//! once. None of them is written anywhere by this module.

use std::io::{IsTerminal, Read};
use std::path::Path;

use license_desk::core::Secret;

/// Why no secret was read: the command line asked for what cannot be (exit code 2), or the
/// reading failed (exit code 1).
#[derive(Debug)]
pub enum SecretError {
    Usage(String),
    Failed(String),
}

/// `LICENSE_DESK_SECRET_` and the profile's name, see [`env_name`].
pub const ENV_PREFIX: &str = "LICENSE_DESK_SECRET_";

/// More than any app secret: a bigger input is a mistake (a binary piped in), not a secret.
const MOST_BYTES: u64 = 64 * 1024;

/// The variable that gives a profile's secret to one run: the prefix and the name with ASCII
/// letters upper-cased, digits kept and every other character `_` ("Team test" →
/// `LICENSE_DESK_SECRET_TEAM_TEST`).
pub fn env_name(profile: &str) -> String {
    let key: String = profile
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{ENV_PREFIX}{key}")
}

/// The profile's secret from its variable, when it is set and not empty.
pub fn from_env(profile: &str) -> Option<Secret> {
    std::env::var(env_name(profile))
        .ok()
        .and_then(|v| one_line(v, APP_SECRET).ok())
}

/// A secret from a file, read once.
pub fn from_file(path: &Path) -> Result<Secret, SecretError> {
    let cannot =
        |e: std::io::Error| SecretError::Failed(format!("cannot read {}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let text = read_limited(file, APP_SECRET).map_err(cannot)?;
    one_line(text, APP_SECRET)
        .map_err(|why| SecretError::Failed(format!("{}: {why}", path.display())))
}

/// A secret from standard input, which must not be a terminal (typing there would show it).
pub fn from_stdin() -> Result<Secret, SecretError> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(SecretError::Usage(
            "standard input is a terminal: pipe the secret in, or use --secret-prompt".to_owned(),
        ));
    }
    read_stdin(APP_SECRET)
}

fn read_stdin(noun: &'static str) -> Result<Secret, SecretError> {
    let text = read_limited(std::io::stdin().lock(), noun)
        .map_err(|e| SecretError::Failed(format!("cannot read standard input: {e}")))?;
    one_line(text, noun).map_err(|why| SecretError::Failed(format!("standard input: {why}")))
}

/// A secret typed at a hidden prompt on the terminal.
pub fn prompt(profile: &str) -> Result<Secret, SecretError> {
    if !std::io::stdin().is_terminal() {
        return Err(SecretError::Usage(
            "no terminal to ask on: give the secret on standard input (--secret-stdin)".to_owned(),
        ));
    }
    let typed = rpassword::prompt_password(format!("App secret of {profile:?} (not shown): "))
        .map_err(|e| {
            SecretError::Failed(format!("cannot read the secret from the terminal: {e}"))
        })?;
    one_line(typed, APP_SECRET).map_err(|why| SecretError::Failed(why.to_string()))
}

/// A new password for `name`: from standard input when something is piped in, else typed twice
/// at a hidden prompt.
pub fn new_password(name: &str) -> Result<Secret, SecretError> {
    if !std::io::stdin().is_terminal() {
        return read_stdin(PASSWORD);
    }
    let ask = |prompt: String| {
        let typed = rpassword::prompt_password(prompt).map_err(|e| {
            SecretError::Failed(format!("cannot read the password from the terminal: {e}"))
        })?;
        one_line(typed, PASSWORD).map_err(|why| SecretError::Failed(why.to_string()))
    };
    let first = ask(format!("New password of {name:?} (not shown): "))?;
    let again = ask("The same again: ".to_owned())?;
    if first.expose() != again.expose() {
        return Err(SecretError::Failed(
            "the two passwords typed differ; nothing was changed".to_owned(),
        ));
    }
    Ok(first)
}

/// From standard input when something is piped in, else a hidden prompt.
pub fn ask(profile: &str) -> Result<Secret, SecretError> {
    if std::io::stdin().is_terminal() {
        prompt(profile)
    } else {
        from_stdin()
    }
}

/// A person's password to sign in to a team server: from standard input when something is
/// piped in, else asked once at a hidden prompt.
pub fn password(user: &str, server: &str) -> Result<Secret, SecretError> {
    if !std::io::stdin().is_terminal() {
        return read_stdin(PASSWORD);
    }
    let typed =
        rpassword::prompt_password(format!("Password of {user:?} on {server} (not shown): "))
            .map_err(|e| {
                SecretError::Failed(format!("cannot read the password from the terminal: {e}"))
            })?;
    one_line(typed, PASSWORD).map_err(|why| SecretError::Failed(why.to_string()))
}

/// The password of a key file: from standard input when something is piped in, else asked
/// once at a hidden prompt.
pub fn key_password(key: &Path) -> Result<Secret, SecretError> {
    if !std::io::stdin().is_terminal() {
        return read_stdin(PASSWORD);
    }
    let prompt = format!("Password of the key {} (not shown): ", key.display());
    let typed = rpassword::prompt_password(prompt).map_err(|e| {
        SecretError::Failed(format!("cannot read the password from the terminal: {e}"))
    })?;
    one_line(typed, PASSWORD).map_err(|why| SecretError::Failed(why.to_string()))
}

const APP_SECRET: &str = "app secret";
const PASSWORD: &str = "password";

fn read_limited(reader: impl Read, noun: &str) -> std::io::Result<String> {
    let mut text = String::new();
    reader.take(MOST_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MOST_BYTES {
        return Err(std::io::Error::other(format!(
            "more than {MOST_BYTES} bytes: no {noun} is that long"
        )));
    }
    Ok(text)
}

/// The secret without its line end (`echo` and editors add one); one line, not empty. The
/// reason never quotes the text.
fn one_line(mut text: String, noun: &'static str) -> Result<Secret, NotOneLine> {
    if text.ends_with('\n') {
        text.pop();
        if text.ends_with('\r') {
            text.pop();
        }
    }
    if text.is_empty() {
        return Err(NotOneLine::Empty(noun));
    }
    if text.contains(['\n', '\r']) {
        return Err(NotOneLine::Lines(noun));
    }
    Ok(Secret::new(text))
}

/// Why a secret's text is refused (never quoting it).
#[derive(Debug, thiserror::Error)]
enum NotOneLine {
    #[error("the {0} is empty")]
    Empty(&'static str),
    #[error("the {0} must be one line")]
    Lines(&'static str),
}

/// Refuses a secret file others may read (the app secret, a database password).
#[cfg(unix)]
pub fn private_to_user(file: &Path) -> Result<(), SecretError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(file)
        .map_err(|e| SecretError::Failed(format!("cannot read {}: {e}", file.display())))?
        .permissions()
        .mode();
    if mode & 0o077 != 0 {
        return Err(SecretError::Failed(format!(
            "{} may be read by others (mode {:o}): a secret must be readable by its user \
             only (chmod 600)",
            file.display(),
            mode & 0o777
        )));
    }
    Ok(())
}

/// Windows files are private to their user under the profile's folders; nothing to check.
#[cfg(not(unix))]
pub fn private_to_user(_file: &Path) -> Result<(), SecretError> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_is_the_name_upper_cased_with_underscores() {
        assert_eq!(env_name("Team test-2"), "LICENSE_DESK_SECRET_TEAM_TEST_2");
        assert_eq!(env_name("生产"), "LICENSE_DESK_SECRET___");
    }

    #[test]
    fn one_line_end_is_dropped_and_more_lines_refused() {
        let s = one_line("abc\r\n".to_owned(), APP_SECRET).map_err(|e| e.to_string());
        assert_eq!(s.map(|s| s.expose().to_owned()), Ok("abc".to_owned()));
        assert!(one_line("a\nb\n".to_owned(), PASSWORD).is_err());
        assert!(one_line("\n".to_owned(), PASSWORD).is_err());
    }
}
