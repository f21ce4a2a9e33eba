//! A throwaway OpenLDAP `slapd` on a free loopback port, with a few people and groups, for one
//! test: `slapadd` loads the directory into a temp dir, `slapd` serves it, and dropping the
//! guard stops it. Debian's `slapd` package; when it is not installed the test fails saying
//! so, unless `LICENSE_DESK_LDAP=skip`.

use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

pub const SUFFIX: &str = "dc=example,dc=com";
/// Every person's password in the directory.
pub const LDAP_PASSWORD: &str = "目录密码 directory pw";

pub struct Slapd {
    pub url: String,
    dir: tempfile::TempDir,
}

impl Drop for Slapd {
    fn drop(&mut self) {
        self.stop();
    }
}

impl Slapd {
    /// Renames `uid=from` to `uid=to` (the same entry, its entryUUID kept) and its membership
    /// of group `cn`, as the directory's administrator would.
    pub fn rename(&self, from: &str, to: &str, cn: &str) {
        let admin = format!("cn=admin,{SUFFIX}");
        let bind = ["-x", "-H", &self.url, "-D", &admin, "-w", "admin-secret"];
        run(Command::new("ldapmodrdn")
            .args(bind)
            .arg("-r")
            .arg(format!("uid={from},ou=people,{SUFFIX}"))
            .arg(format!("uid={to}")));
        let change = format!(
            "dn: cn={cn},ou=groups,{SUFFIX}\nchangetype: modify\nreplace: member\n\
             member: uid={to},ou=people,{SUFFIX}\n"
        );
        let file = self.dir.path().join("rename.ldif");
        std::fs::write(&file, change).expect("rename.ldif");
        run(Command::new("ldapmodify").args(bind).arg("-f").arg(&file));
    }

    /// Stops it (its port then refuses connections).
    pub fn stop(&self) {
        let pidfile = self.dir.path().join("slapd.pid");
        if let Ok(pid) = std::fs::read_to_string(&pidfile) {
            let _ = Command::new("kill").arg(pid.trim()).status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while pidfile.exists() && Instant::now() < deadline {
                std::thread::yield_now();
            }
        }
    }
}

/// People: zhangsan (group admins), lisi (clerks), wangwu (visitors, mapped to nothing).
const LDIF: &str = "\
dn: dc=example,dc=com
objectClass: dcObject
objectClass: organization
o: Example
dc: example

dn: ou=people,dc=example,dc=com
objectClass: organizationalUnit
ou: people

dn: ou=groups,dc=example,dc=com
objectClass: organizationalUnit
ou: groups
";

fn person(uid: &str) -> String {
    format!(
        "\ndn: uid={uid},ou=people,{SUFFIX}\nobjectClass: inetOrgPerson\nuid: {uid}\ncn: {uid}\n\
         sn: {uid}\nuserPassword: {LDAP_PASSWORD}\n"
    )
}

fn group(cn: &str, member: &str) -> String {
    format!(
        "\ndn: cn={cn},ou=groups,{SUFFIX}\nobjectClass: groupOfNames\ncn: {cn}\n\
         member: uid={member},ou=people,{SUFFIX}\n"
    )
}

/// Starts one, or `None` when slapd is not installed and `LICENSE_DESK_LDAP=skip`.
pub fn start() -> Option<Slapd> {
    let slapd = Path::new("/usr/sbin/slapd");
    if !slapd.exists() {
        if std::env::var("LICENSE_DESK_LDAP").as_deref() == Ok("skip") {
            eprintln!("slapd is not installed and LICENSE_DESK_LDAP=skip: test skipped");
            return None;
        }
        panic!(
            "slapd is not installed (apt-get install slapd ldap-utils), or set LICENSE_DESK_LDAP=skip"
        );
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("db");
    std::fs::create_dir(&db).expect("db dir");
    let conf = dir.path().join("slapd.conf");
    std::fs::write(&conf, config(dir.path(), &db)).expect("slapd.conf");
    let mut ldif = LDIF.to_owned();
    for uid in ["zhangsan", "lisi", "wangwu"] {
        ldif.push_str(&person(uid));
    }
    for (cn, member) in [
        ("admins", "zhangsan"),
        ("clerks", "lisi"),
        ("visitors", "wangwu"),
    ] {
        ldif.push_str(&group(cn, member));
    }
    let init = dir.path().join("init.ldif");
    std::fs::write(&init, ldif).expect("init.ldif");
    run(Command::new("/usr/sbin/slapadd")
        .arg("-f")
        .arg(&conf)
        .arg("-l")
        .arg(&init));
    let port = free_port();
    let url = format!("ldap://127.0.0.1:{port}");
    run(Command::new(slapd)
        .arg("-h")
        .arg(format!("{url}/"))
        .arg("-f")
        .arg(&conf));
    wait_for(port);
    Some(Slapd { url, dir })
}

fn config(dir: &Path, db: &Path) -> String {
    format!(
        "include /etc/ldap/schema/core.schema\n\
         include /etc/ldap/schema/cosine.schema\n\
         include /etc/ldap/schema/inetorgperson.schema\n\
         modulepath /usr/lib/ldap\n\
         moduleload back_mdb\n\
         pidfile {pid}\n\
         database mdb\n\
         suffix \"{SUFFIX}\"\n\
         rootdn \"cn=admin,{SUFFIX}\"\n\
         rootpw admin-secret\n\
         directory {db}\n",
        pid = dir.join("slapd.pid").display(),
        db = db.display()
    )
}

fn run(command: &mut Command) {
    let out = command.output().expect("runs");
    assert!(
        out.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// slapd daemonizes: wait until its port takes connections.
fn wait_for(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "slapd did not listen on {port}");
        std::thread::yield_now();
    }
}
