//! Installing a release downloaded and checked (issue 58): on Windows its NSIS installer run
//! silently for this user over the copy in use, then the new program started when asked; on
//! Debian and Ubuntu the package needs root, so the command that installs it is said.
//!
//! A running program cannot be written over on Windows, but it can be renamed: the program's
//! files are set aside as `*.old`, the installer writes new ones, and the next start deletes
//! what was set aside. An installer that fails has them put back.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{Release, Target, UpdateError, fetch};
use crate::core::CoreError;
use crate::core::progress::Progress;
use crate::core::request::{Request, Services};

/// The program's files the installer writes: the window's and the command line's twin.
const PROGRAM_FILES: [&str; 2] = ["license-desk.exe", "license-desk.com"];

/// What installing a checked release took.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Installed {
    /// Windows: the installer ran for this user; the new program is `program`, started by
    /// the caller once its own files are closed.
    #[serde(rename_all = "camelCase")]
    Program { version: String, program: PathBuf },
    /// Debian and Ubuntu: a package needs root; `command` installs the checked `file`.
    #[serde(rename_all = "camelCase")]
    Command {
        version: String,
        file: PathBuf,
        command: String,
    },
}

/// Downloads (or takes the file downloaded before) the newer release, checks it against the
/// pinned key, and installs it: the caller makes sure no call runs and the drafts are saved,
/// and starts the new program once it has closed its own files.
#[derive(Debug, Clone)]
pub struct ApplyUpdate {
    pub profile: String,
    pub progress: Progress,
}

impl Request for ApplyUpdate {
    type Reply = Installed;

    fn profile(&self) -> Option<&str> {
        Some(&self.profile)
    }

    async fn serve(self, services: Services) -> Result<Installed, CoreError> {
        let (file, release) = fetch(&services, &self.profile, &self.progress).await?;
        let installed = tokio::task::spawn_blocking(move || install(&file, &release));
        Ok(installed.await??)
    }
}

fn install(file: &Path, release: &Release) -> Result<Installed, UpdateError> {
    let version = release.version.clone();
    match release.target {
        Target::LinuxX86_64 => Ok(Installed::Command {
            version,
            file: file.to_owned(),
            command: dpkg_command(file),
        }),
        Target::WindowsX86_64 => {
            let running = std::env::current_exe()
                .map_err(|e| UpdateError::Files(PathBuf::from("license-desk.exe"), e))?;
            let program = run_installer(file, &running)?;
            Ok(Installed::Program { version, program })
        }
    }
}

/// The command that installs a checked package, quoted as the shell reads it (the data
/// folder's path may hold spaces; the file's name is a plain one).
pub fn dpkg_command(file: &Path) -> String {
    let path = file.display().to_string();
    format!("sudo dpkg -i '{}'", path.replace('\'', r"'\''"))
}

/// Runs the NSIS installer silently into the folder of `running`, the program in use, whose
/// files are set aside first and put back if the installer fails. Answers the new program.
fn run_installer(installer: &Path, running: &Path) -> Result<PathBuf, UpdateError> {
    let dir = running.parent().unwrap_or(Path::new("."));
    // A copy not installed by the installer (unpacked, built) is not the installer's to replace.
    if !dir.join("uninstall.exe").is_file() {
        return Err(UpdateError::NotInstalled(installer.to_owned()));
    }
    let aside = set_aside(dir)?;
    let status = installer_command(installer, dir).status();
    let program = dir.join(PROGRAM_FILES[0]);
    let failed = match status {
        Ok(status) if status.success() && program.is_file() => return Ok(program),
        Ok(status) => UpdateError::Installer(status.code()),
        Err(e) => UpdateError::Files(installer.to_owned(), e),
    };
    put_back(&aside).map_err(|(old, e)| UpdateError::NotPutBack(old, e))?;
    Err(failed)
}

fn installer_command(installer: &Path, dir: &Path) -> Command {
    let mut command = Command::new(installer);
    command.arg("/S");
    let into = format!("/D={}", dir.display());
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        // NSIS reads `/D=` to the end of the line, unquoted even with spaces.
        command.raw_arg(into);
    }
    #[cfg(not(windows))]
    command.arg(into);
    command
}

/// The program's files renamed to `*.old` (a running program may be renamed, not written
/// over): the pairs set aside, to put back.
fn set_aside(dir: &Path) -> Result<Vec<(PathBuf, PathBuf)>, UpdateError> {
    let mut aside = Vec::new();
    for name in PROGRAM_FILES {
        let file = dir.join(name);
        if !file.is_file() {
            continue;
        }
        let old = old_name(&file);
        // One left by an update whose program still ran at the last start.
        let _ = std::fs::remove_file(&old);
        if let Err(e) = std::fs::rename(&file, &old) {
            put_back(&aside).map_err(|(old, e)| UpdateError::NotPutBack(old, e))?;
            return Err(UpdateError::Files(file, e));
        }
        aside.push((file, old));
    }
    Ok(aside)
}

/// What was set aside renamed back; the first file that could not be, if one could not.
fn put_back(aside: &[(PathBuf, PathBuf)]) -> Result<(), (PathBuf, std::io::Error)> {
    let mut failed = Ok(());
    for (file, old) in aside {
        let _ = std::fs::remove_file(file);
        if let Err(e) = std::fs::rename(old, file) {
            failed = failed.and(Err((old.clone(), e)));
        }
    }
    failed
}

fn old_name(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".old");
    PathBuf::from(name)
}

/// At start: the files an update set aside beside this program are deleted (one still
/// running is left for the next start); one whose new file is missing (an installer cut off)
/// is put back in its place.
pub fn clear_old_program() {
    let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|p| p.parent().map(Path::to_owned))
    else {
        return;
    };
    for name in PROGRAM_FILES {
        let file = dir.join(name);
        let old = old_name(&file);
        if !old.is_file() {
            continue;
        }
        let done = match file.exists() {
            true => std::fs::remove_file(&old),
            false => std::fs::rename(&old, &file),
        };
        if let Err(e) = done {
            tracing::info!(file = %old.display(), error = %e, "a program an update set aside is still there");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A copy the installer did not install is refused before anything is renamed.
    #[test]
    fn only_an_installed_copy_is_replaced() {
        let dir = tempfile::tempdir().expect("dir");
        let running = dir.path().join("license-desk.exe");
        std::fs::write(&running, b"old").expect("program");
        let refused = run_installer(Path::new("setup.exe"), &running);
        assert!(matches!(refused, Err(UpdateError::NotInstalled(_))));
        assert_eq!(std::fs::read(&running).expect("kept"), b"old");
    }

    /// An installer that fails leaves the program as it was.
    #[test]
    fn a_failed_installer_puts_the_program_back() {
        let dir = tempfile::tempdir().expect("dir");
        let running = dir.path().join("license-desk.exe");
        std::fs::write(&running, b"old").expect("program");
        std::fs::write(dir.path().join("license-desk.com"), b"twin").expect("twin");
        std::fs::write(dir.path().join("uninstall.exe"), b"u").expect("uninstaller");
        // `false` runs and fails, whatever its arguments: an installer that stopped.
        let refused = run_installer(Path::new("false"), &running);
        assert!(
            matches!(refused, Err(UpdateError::Installer(Some(1)))),
            "{refused:?}"
        );
        assert_eq!(std::fs::read(&running).expect("back"), b"old");
        let twin = std::fs::read(dir.path().join("license-desk.com")).expect("back");
        assert_eq!(twin, b"twin");
        assert!(!old_name(&running).exists());
    }

    #[test]
    fn the_dpkg_command_quotes_the_path() {
        let command = dpkg_command(Path::new("/home/o'brien/x y/ld_0.2.0_amd64.deb"));
        assert_eq!(
            command,
            r"sudo dpkg -i '/home/o'\''brien/x y/ld_0.2.0_amd64.deb'"
        );
    }
}
