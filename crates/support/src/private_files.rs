//! Files the program keeps for the user: written whole or not at all, and private to the user
//! (on Unix: folders `0700`, files `0600`; on Windows the user's profile folders already are).

use std::io::{self, Write};
use std::path::Path;

/// Creates `dir` with any missing parents, and makes `dir` itself private to the user (also
/// when it already existed, from a version that did not).
pub fn create_private_dir(dir: &Path) -> io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// A data folder the user names (`serve --data DIR`): created private to the user when missing;
/// one that exists keeps its mode, which may be shared on purpose (the files in it are made
/// private one by one), unless anyone may write in it: then anyone could swap those files, and
/// it is refused.
pub fn create_or_check_data_dir(dir: &Path) -> io::Result<()> {
    if !dir.exists() {
        return create_private_dir(dir);
    }
    if !dir.is_dir() {
        return Err(io::Error::other("it is not a folder"));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir)?.permissions().mode();
        if mode & 0o002 != 0 {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "every user may write in it (mode {:o}); give a folder of your own, or \
                     remove the others' write permission (chmod o-w)",
                    mode & 0o7777
                ),
            ));
        }
    }
    Ok(())
}

/// Makes `path` a file only the user can read and write, creating it empty if it is missing.
/// SQLite gives a database's `-wal` and `-shm` files the database file's permissions, so a
/// database opened after this stays private whole.
pub fn ensure_private_file(path: &Path) -> io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

/// Replaces `path` with `bytes`: a private temporary file beside it is written and synced,
/// renamed over `path`, and the folder synced, so that a crash or a power cut leaves either the
/// old file or the new one, never half of one. Writers of the same path never share a
/// temporary file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    // tempfile creates it 0600 on Unix, with a unique name.
    let mut file = tempfile::Builder::new()
        .prefix(".license-desk-")
        .suffix(".part")
        .tempfile_in(dir)?;
    file.write_all(bytes)?;
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    sync_dir(dir)
}

/// The rename is durable once the folder's entry is on disk.
#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// NTFS journals the rename itself; a folder cannot be opened for syncing without extra flags.
#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("profiles.json");
        write_atomic(&path, b"first").expect("write");
        write_atomic(&path, b"second, longer").expect("rewrite");
        assert_eq!(std::fs::read(&path).expect("read"), b"second, longer");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("profiles.json")]);
    }

    #[test]
    fn writers_of_the_same_file_at_once_each_leave_a_whole_file() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("same.txt");
        let bodies: Vec<String> = (0..8).map(|i| format!("{i}").repeat(10_000)).collect();
        std::thread::scope(|s| {
            for body in &bodies {
                let path = &path;
                s.spawn(move || write_atomic(path, body.as_bytes()).expect("write"));
            }
        });
        let left = std::fs::read_to_string(&path).expect("read");
        assert!(
            bodies.contains(&left),
            "a mixed file of {} bytes",
            left.len()
        );
    }

    #[cfg(unix)]
    #[test]
    fn folders_and_files_are_private_to_the_user() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().expect("dir");
        let dir = root.path().join("a/b");
        create_private_dir(&dir).expect("create");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&root.path().join("a")), 0o700);
        // An existing folder is made private too.
        let open = root.path().join("open");
        std::fs::create_dir(&open).expect("create");
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        create_private_dir(&open).expect("again");
        assert_eq!(mode(&open), 0o700);
        let file = dir.join("f");
        write_atomic(&file, b"x").expect("write");
        assert_eq!(mode(&file), 0o600);
    }
}
