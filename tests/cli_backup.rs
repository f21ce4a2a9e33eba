//! `license-desk backup create|restore` as a person moving to a new PC runs them: what one
//! HOME holds comes back on a fresh one item by item; a flipped byte or a newer format is
//! refused with nothing written; data already there is kept beside only with --force.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use test_support::served::{Run, ld};

fn data_dir(home: &Path) -> PathBuf {
    home.join(".local/share/license-desk")
}

fn config_dir(home: &Path) -> PathBuf {
    home.join(".config/license-desk")
}

fn ok(run: Run) -> Value {
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    serde_json::from_str(&run.stdout).expect("json")
}

/// Every row of every table of a SQLite file, table by table.
fn rows(db: &Path) -> Vec<(String, Vec<Vec<String>>)> {
    let conn = rusqlite::Connection::open(db).expect("db");
    let mut names: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .expect("tables")
        .query_map([], |r| r.get(0))
        .expect("tables")
        .map(|n| n.expect("name"))
        .collect();
    names.retain(|n| !n.starts_with("sqlite_"));
    names
        .into_iter()
        .map(|table| {
            let mut stmt = conn
                .prepare(&format!("SELECT * FROM \"{table}\""))
                .expect("select");
            let width = stmt.column_count();
            let mut all: Vec<Vec<String>> = stmt
                .query_map([], |r| {
                    (0..width)
                        .map(|i| {
                            r.get::<_, rusqlite::types::Value>(i)
                                .map(|v| format!("{v:?}"))
                        })
                        .collect()
                })
                .expect("rows")
                .map(|r| r.expect("row"))
                .collect();
            all.sort();
            (table, all)
        })
        .collect()
}

/// The databases and files a HOME holds (the Sandbox aside), by name.
fn held(home: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in [config_dir(home), data_dir(home)] {
        for entry in std::fs::read_dir(&dir).expect("dir") {
            let path = entry.expect("entry").path();
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            if path.is_dir() || name.ends_with("-wal") || name.ends_with("-shm") {
                continue;
            }
            let said = match name.ends_with(".sqlite3") {
                true => format!("{:?}", rows(&path)),
                false => std::fs::read_to_string(&path).expect("text"),
            };
            out.push((name, said));
        }
    }
    out.sort();
    out
}

#[test]
fn a_backup_made_on_one_computer_is_restored_on_another_item_by_item() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (old, new) = (dir.path().join("old"), dir.path().join("new"));
    // A remote profile, the catalog, and calls in the journal and ledger.
    let added = ld(
        &old,
        &[
            "profile",
            "add",
            "hq",
            "--base-url",
            "https://platform.example.com",
            "--app-key",
            "ak_1",
        ],
        Some("sk_not_carried\n"),
        &[],
    );
    assert_eq!(added.code, Some(0), "{}", added.stderr);
    let catalog = dir.path().join("catalog.json");
    let body = json!({"products": [{"productUri": "gms:7101", "productName": "搬家产品"}]});
    std::fs::write(&catalog, body.to_string()).expect("catalog");
    let imported = ld(
        &old,
        &["catalog", "import", catalog.to_str().expect("path")],
        None,
        &[],
    );
    assert_eq!(imported.code, Some(0), "{}", imported.stderr);
    let called = ld(
        &old,
        &["call", "--profile", "Sandbox", "shellnums", "2"],
        None,
        &[],
    );
    assert_eq!(called.code, Some(0), "{}", called.stderr);
    std::fs::write(data_dir(&old).join("app.ron"), "(screen: \"Orders\")").expect("window");

    let file = dir.path().join("move.ldbackup");
    let manifest = ok(ld(
        &old,
        &["backup", "create", file.to_str().expect("path")],
        None,
        &[],
    ));
    assert_eq!(manifest["format"], 1);
    let parts: Vec<&str> = manifest["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .map(|p| p["path"].as_str().expect("path"))
        .collect();
    assert!(parts.contains(&"config/profiles.json"), "{parts:?}");
    assert!(parts.contains(&"window/app.ron"), "{parts:?}");
    assert!(parts.iter().all(|p| !p.contains("sandbox")), "{parts:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&file).expect("file").permissions().mode();
        assert_eq!(mode & 0o077, 0, "private to the user: {mode:o}");
    }

    let restored = ok(ld(
        &new,
        &["backup", "restore", file.to_str().expect("path")],
        None,
        &[],
    ));
    assert_eq!(
        restored["toEnterAgain"],
        json!([{"what": "appSecret", "profile": "hq"}])
    );
    assert_eq!(held(&new), held(&old));
    let listed = ld(&new, &["catalog", "list", "--search", "搬家"], None, &[]);
    assert!(listed.stdout.contains("gms:7101"), "{}", listed.stdout);

    // A second restore meets the data it made: refused, then kept beside with --force.
    let again = ld(
        &new,
        &["backup", "restore", file.to_str().expect("path")],
        None,
        &[],
    );
    assert_eq!(again.code, Some(1), "{}", again.stderr);
    assert!(again.stderr.contains("--force"), "{}", again.stderr);
    let forced = ok(ld(
        &new,
        &["backup", "restore", "--force", file.to_str().expect("path")],
        None,
        &[],
    ));
    let aside = forced["keptAside"].as_array().expect("aside");
    assert_eq!(aside.len(), 2, "{forced}");
    assert!(
        aside
            .iter()
            .all(|p| Path::new(p.as_str().expect("path")).exists())
    );
    assert_eq!(held(&new), held(&old));
}

#[test]
fn a_flipped_byte_or_a_newer_format_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let old = dir.path().join("old");
    let called = ld(
        &old,
        &["call", "--profile", "Sandbox", "shellnums", "1"],
        None,
        &[],
    );
    assert_eq!(called.code, Some(0), "{}", called.stderr);
    let file = dir.path().join("move.ldbackup");
    ok(ld(
        &old,
        &["backup", "create", file.to_str().expect("path")],
        None,
        &[],
    ));
    let bytes = std::fs::read(&file).expect("backup");

    // One byte flipped in each place of the file in turn: each refused, nothing written.
    let fresh = dir.path().join("fresh");
    let flipped = dir.path().join("flipped.ldbackup");
    for at in (0..bytes.len()).step_by(bytes.len() / 16 + 1) {
        let mut spoiled = bytes.clone();
        spoiled[at] ^= 0x01;
        std::fs::write(&flipped, &spoiled).expect("file");
        let refused = ld(
            &fresh,
            &["backup", "restore", flipped.to_str().expect("path")],
            None,
            &[],
        );
        assert_eq!(refused.code, Some(1), "byte {at}: {}", refused.stderr);
        assert!(
            !config_dir(&fresh).exists() && !data_dir(&fresh).exists(),
            "byte {at}"
        );
    }

    // A manifest of a format this program does not know.
    let newer = dir.path().join("newer.ldbackup");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&newer).expect("file"));
    zip.start_file("manifest.json", zip::write::SimpleFileOptions::default())
        .expect("entry");
    let manifest = json!({"format": 2, "program": "9.0.0", "createdAt": 0, "parts": []});
    std::io::Write::write_all(&mut zip, manifest.to_string().as_bytes()).expect("write");
    zip.set_comment(format!("license-desk-sha256:{}", "0".repeat(64)))
        .expect("comment");
    zip.finish().expect("zip");
    seal(&newer);
    let refused = ld(
        &fresh,
        &["backup", "restore", newer.to_str().expect("path")],
        None,
        &[],
    );
    assert_eq!(refused.code, Some(1));
    assert!(
        refused.stderr.contains("backup format 2, program 9.0.0"),
        "{}",
        refused.stderr
    );
    assert!(!config_dir(&fresh).exists() && !data_dir(&fresh).exists());
}

/// The seal a backup ends with: the SHA-256 of every byte before its 64 hex digits.
fn seal(path: &Path) {
    use sha2::Digest;
    let mut bytes = std::fs::read(path).expect("file");
    let covered = bytes.len() - 64;
    let hash: String = sha2::Sha256::digest(&bytes[..covered])
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    bytes[covered..].copy_from_slice(hash.as_bytes());
    std::fs::write(path, bytes).expect("sealed");
}
