//! The PostgreSQL store on a real PostgreSQL (a throwaway cluster, a database per test): its
//! migrations, its transactions (serializable, run again when they lose a race, rolled back
//! when refused), and the rules already ported to `sql::Tx` run through `PgStore::write`, with
//! the outcome read back from the database.

use test_support::pg_cluster;
use test_support::tls_certs;

use std::collections::BTreeSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use platform::activities::{Activities, ClaimInput, claim};
use platform::error::OpError;
use platform::pg::{PgStore, newest_version};
use platform::rules::{customers, locks, shellnums};
use platform::sql::{StoreError, Tx};
use platform::{NumberQuota, OwnQuota, apps, quotas};
use wire::{BindRequest, DefaultFilter, EnterpriseRequest, LockStatus};

/// 2026-11-24T00:00:30Z: every test charges quotas in one known minute.
const NOW: i64 = 1_795_996_830_000;

async fn store() -> Option<PgStore> {
    let url = pg_cluster::database().await?;
    Some(
        platform::pg::connect(&url, 8)
            .await
            .expect("connect and migrate"),
    )
}

/// Runs one statement's query in its own read transaction.
async fn count(store: &PgStore, sql: &'static str) -> i64 {
    store
        .read(move |tx| tx.query_one(sql, &[], |r| r.i64(0)))
        .await
        .expect("count")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn migrations_apply_once_and_again_and_at_once() {
    let Some(url) = pg_cluster::database().await else {
        return;
    };
    // Four instances starting at once on an empty database: one migrates, the others wait.
    let starts: Vec<_> = (0..4)
        .map(|_| {
            let url = url.clone();
            tokio::spawn(async move { platform::pg::connect(&url, 2).await })
        })
        .collect();
    for start in starts {
        start.await.expect("task").expect("connect");
    }
    let store = platform::pg::connect(&url, 2).await.expect("connect again");
    store
        .write(|tx| tx.execute("INSERT INTO counters(name, value) VALUES ('kept', 7)", &[]))
        .await
        .expect("row");
    let again = platform::pg::connect(&url, 2)
        .await
        .expect("connect once more");
    let versions = again
        .read(|tx| tx.query_vec("SELECT version FROM schema_version", &[], |r| r.i64(0)))
        .await
        .expect("versions");
    assert_eq!(versions, vec![newest_version()]);
    assert_eq!(newest_version(), 5);
    assert_eq!(
        count(&again, "SELECT value FROM counters WHERE name = 'kept'").await,
        7
    );
    // The schema's own rows, once.
    assert_eq!(
        count(
            &again,
            "SELECT count(*) FROM counters WHERE name LIKE 'nonce_generation%'"
        )
        .await,
        2
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_newer_than_the_release_is_refused() {
    let Some(url) = pg_cluster::database().await else {
        return;
    };
    let store = platform::pg::connect(&url, 2).await.expect("connect");
    store
        .write(|tx| tx.execute("UPDATE schema_version SET version = 99", &[]))
        .await
        .expect("a newer version");
    let refused = platform::pg::connect(&url, 2).await.err().expect("refused");
    assert!(
        matches!(refused, StoreError::NewerSchema { at: 99, known } if known == newest_version()),
        "{refused:?}"
    );
    assert!(
        refused
            .to_string()
            .starts_with("the database is at schema version 99; this release knows up to"),
        "{refused}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn values_are_bound_and_read_in_postgres_types() {
    let Some(store) = store().await else {
        return;
    };
    let row = store
        .read(|tx| {
            tx.query_one(
                "SELECT ?1::bigint, ?2::text, ?3::bytea, ?4::boolean, ?5::text, ?5::text IS NULL, 1, CAST(?6 AS integer)",
                &[
                    i64::MAX.into(),
                    "上海".into(),
                    (&b"\x00\x01"[..]).into(),
                    true.into(),
                    Option::<&str>::None.into(),
                    41_i64.into(),
                ],
                |r| {
                    Ok((
                        r.i64(0)?,
                        r.text(1)?,
                        r.bytes(2)?,
                        r.bool(3)?,
                        r.opt_text(4)?,
                        r.bool(5)?,
                        r.i64(6)?,
                        r.opt_i64(7)?,
                    ))
                },
            )
        })
        .await
        .expect("row");
    assert_eq!(
        row,
        (
            i64::MAX,
            "上海".to_owned(),
            vec![0, 1],
            true,
            None,
            true,
            1,
            Some(41)
        )
    );
    // An integer parameter inferred as `integer` takes what fits and refuses the rest.
    let too_big = store
        .read(|tx| {
            tx.query_one("SELECT CAST(?1 AS integer)", &[i64::MAX.into()], |r| {
                r.i64(0)
            })
        })
        .await
        .expect_err("refused");
    assert!(
        too_big
            .to_string()
            .contains("does not fit a parameter of type int4"),
        "{too_big}"
    );
    // A flag is never an integer on PostgreSQL.
    let wrong = store
        .read(|tx| tx.query_one("SELECT ?1::boolean", &[1_i64.into()], |r| r.bool(0)))
        .await
        .expect_err("refused");
    assert!(
        wrong
            .to_string()
            .contains("an integer value bound to a parameter of type bool"),
        "{wrong}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asset_numbers_are_contiguous_and_unique_across_concurrent_writers() {
    let Some(store) = store().await else {
        return;
    };
    let runs = Arc::new(AtomicUsize::new(0));
    let writers: Vec<_> = (0..8)
        .map(|_| {
            let store = store.clone();
            let runs = runs.clone();
            tokio::spawn(async move {
                let mut mine = Vec::new();
                for _ in 0..50 {
                    let runs = runs.clone();
                    let numbers = store
                        .write(move |tx| {
                            runs.fetch_add(1, Ordering::Relaxed);
                            shellnums::allocate(tx, 3, 3)
                        })
                        .await
                        .expect("allocate");
                    mine.push(numbers);
                }
                mine
            })
        })
        .collect();
    let mut all = Vec::new();
    for writer in writers {
        for numbers in writer.await.expect("writer") {
            let n: Vec<u64> = numbers.iter().map(|s| s.parse().expect("digits")).collect();
            assert_eq!(n.len(), 3);
            assert!(n.windows(2).all(|w| w[1] == w[0] + 1), "contiguous: {n:?}");
            all.extend(n);
        }
    }
    let unique: BTreeSet<u64> = all.iter().copied().collect();
    assert_eq!(unique.len(), 1200, "no number handed out twice");
    let expected: BTreeSet<u64> = (3_000_000_001..=3_000_001_200).collect();
    assert_eq!(unique, expected, "none lost");
    // The allocation waits on its lock before its snapshot: no run lost a race.
    assert_eq!(runs.load(Ordering::Relaxed), 400);
    assert_eq!(
        count(&store, "SELECT value FROM counters WHERE name = 'shellnum'").await,
        1200
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_on_one_key_land_in_a_serial_order_and_a_lost_race_runs_again() {
    let Some(store) = store().await else {
        return;
    };
    // Write skew: each reads the largest value, then writes a row of its own above it. A rule
    // that reads, decides, then writes takes the key of what it decides on first; writes on
    // one key are serial in effect, each seeing the rows of those before it.
    let writers: Vec<_> = (1..=8)
        .map(|i| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .write(move |tx| {
                        tx.serialize_on("skew")?;
                        let max = tx.query_one(
                            "SELECT COALESCE(max(value), 0) FROM counters WHERE name LIKE 'skew:%'",
                            &[],
                            |r| r.i64(0),
                        )?;
                        let name = format!("skew:{i}");
                        tx.execute(
                            "INSERT INTO counters(name, value) VALUES (?1, ?2)",
                            &[name.as_str().into(), (max + 1).into()],
                        )
                    })
                    .await
            })
        })
        .collect();
    for writer in writers {
        writer.await.expect("task").expect("written");
    }
    let values = store
        .read(|tx| {
            tx.query_vec(
                "SELECT value FROM counters WHERE name LIKE 'skew:%' ORDER BY value",
                &[],
                |r| r.i64(0),
            )
        })
        .await
        .expect("values");
    assert_eq!(values, (1..=8).collect::<Vec<i64>>());

    // A run that loses a race all the same (here forced) is rolled back and run again.
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = runs.clone();
    store
        .write(move |tx| {
            tx.execute(
                "INSERT INTO counters(name, value) VALUES ('raced', 1)",
                &[],
            )?;
            if counted.fetch_add(1, Ordering::Relaxed) == 0 {
                tx.execute(
                    "DO $$ BEGIN RAISE EXCEPTION 'forced' USING ERRCODE = 'serialization_failure'; END $$",
                    &[],
                )?;
            }
            Ok::<_, StoreError>(())
        })
        .await
        .expect("written on the second run");
    assert_eq!(runs.load(Ordering::Relaxed), 2);
    let raced = store
        .read(|tx| {
            tx.query_vec(
                "SELECT value FROM counters WHERE name = 'raced'",
                &[],
                |r| r.i64(0),
            )
        })
        .await
        .expect("read");
    assert_eq!(raced, vec![1], "the first run's row was rolled back");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_rule_writes_nothing() {
    let Some(store) = store().await else {
        return;
    };
    let app = store
        .write(|tx| {
            apps::create(
                tx,
                "crm",
                &["auth_order".to_owned()],
                OwnQuota {
                    quota_numbers_per_minute: Some(4),
                    quota_numbers_per_day: None,
                },
                NOW,
            )
        })
        .await
        .expect("app")
        .app_key;
    let charged = {
        let app = app.clone();
        store
            .write(move |tx| {
                let numbers = shellnums::allocate(tx, 1, 5)?;
                quotas::charge_numbers(tx, &app, 5, NumberQuota::default(), NOW)?;
                Ok::<_, OpError>(numbers)
            })
            .await
    };
    let Err(OpError::Invalid { message, cause }) = charged else {
        panic!("refused by the quota: {charged:?}");
    };
    assert!(
        message.starts_with("size: over the quota of asset numbers, 4 a minute"),
        "{message}"
    );
    assert_eq!(cause, "quota exceeded; nothing was allocated");
    assert_eq!(count(&store, "SELECT count(*) FROM app_usage").await, 0);
    // Nothing was burned: the next allocation starts at the first number.
    let numbers = store
        .write(|tx| shellnums::allocate(tx, 1, 2))
        .await
        .expect("allocate");
    assert_eq!(numbers, vec!["1000000001", "1000000002"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quotas_admit_exactly_what_fits_under_concurrency() {
    let Some(store) = store().await else {
        return;
    };
    let app = store
        .write(|tx| {
            apps::create(
                tx,
                "crm",
                &["auth_order".to_owned()],
                OwnQuota {
                    quota_numbers_per_minute: Some(50),
                    quota_numbers_per_day: Some(1000),
                },
                NOW,
            )
        })
        .await
        .expect("app")
        .app_key;
    let callers: Vec<_> = (0..10)
        .map(|_| {
            let store = store.clone();
            let app = app.clone();
            tokio::spawn(async move {
                store
                    .write(move |tx| {
                        quotas::charge_numbers(tx, &app, 10, NumberQuota::default(), NOW)
                    })
                    .await
            })
        })
        .collect();
    let mut admitted = 0;
    for caller in callers {
        match caller.await.expect("task") {
            Ok(()) => admitted += 1,
            Err(OpError::Invalid { message, .. }) => assert!(
                message.contains("10 asked, 0 left"),
                "refused once the minute is used up: {message}"
            ),
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(admitted, 5);
    let used = store
        .read(move |tx| {
            tx.query_vec(
                "SELECT window_kind, used FROM app_usage WHERE app_key = ?1 ORDER BY window_kind",
                &[app.as_str().into()],
                |r| Ok((r.text(0)?, r.i64(1)?)),
            )
        })
        .await
        .expect("usage");
    assert_eq!(
        used,
        vec![
            ("numbers/day".to_owned(), 50),
            ("numbers/minute".to_owned(), 50)
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn customers_are_created_bound_queried_and_renamed() {
    let Some(store) = store().await else {
        return;
    };
    let created = store
        .write(|tx| {
            customers::create(
                tx,
                &EnterpriseRequest {
                    crm_customer_id: Some("CRM-1".to_owned()),
                    customer_name: Some("Acme".to_owned()),
                    branch_name: Some("Shanghai".to_owned()),
                    address: Some("1 Road".to_owned()),
                },
                NOW,
            )
        })
        .await
        .expect("create");
    assert_eq!(created.enterprise_global_id, "EG0000000001");
    assert_eq!(created.members.len(), 2);
    let bound = store
        .write(|tx| {
            customers::bind(
                tx,
                &BindRequest {
                    channel_code: Some("SHOP".to_owned()),
                    channel_customer_id: Some("S-9".to_owned()),
                    customer_name: Some("Acme shop".to_owned()),
                    enterprise_name: Some("Acme".to_owned()),
                    ..BindRequest::default()
                },
                NOW,
            )
        })
        .await
        .expect("bind");
    assert_eq!(bound.enterprise_global_id, "EG0000000001");
    assert!(!bound.is_default, "the enterprise already has its default");
    let listed = store
        .read(|tx| customers::query(tx, "SHOP", "S-9", DefaultFilter::N))
        .await
        .expect("query");
    let listed: Vec<(String, bool)> = listed
        .into_iter()
        .map(|c| (c.channel_code, c.is_default))
        .collect();
    assert_eq!(
        listed,
        vec![
            ("CRM".to_owned(), true),
            ("GXXP".to_owned(), false),
            ("SHOP".to_owned(), false)
        ]
    );
    let defaults = store
        .read(|tx| customers::query(tx, "SHOP", "S-9", DefaultFilter::Y))
        .await
        .expect("query");
    assert_eq!(defaults.len(), 1);
    assert_eq!(defaults[0].channel_code, "CRM");
    store
        .write(|tx| {
            customers::update(
                tx,
                &EnterpriseRequest {
                    crm_customer_id: Some("CRM-1".to_owned()),
                    customer_name: Some("Acme Ltd".to_owned()),
                    ..EnterpriseRequest::default()
                },
                NOW + 1,
            )
        })
        .await
        .expect("update");
    let names = store
        .read(|tx| {
            tx.query_vec(
                "SELECT e.name, c.customer_name, c.address FROM customers c \
                 JOIN enterprises e ON e.id = c.enterprise_id WHERE c.channel_code = 'CRM'",
                &[],
                |r| Ok((r.text(0)?, r.opt_text(1)?, r.opt_text(2)?)),
            )
        })
        .await
        .expect("names");
    assert_eq!(
        names,
        vec![(
            "Acme Ltd".to_owned(),
            Some("Acme Ltd".to_owned()),
            Some("1 Road".to_owned())
        )]
    );
    // A second account of the same name: binding by that name is refused, and writes nothing.
    store
        .write(|tx| {
            customers::create(
                tx,
                &EnterpriseRequest {
                    crm_customer_id: Some("CRM-2".to_owned()),
                    customer_name: Some("Acme Ltd".to_owned()),
                    ..EnterpriseRequest::default()
                },
                NOW,
            )
        })
        .await
        .expect("second");
    let before = count(&store, "SELECT count(*) FROM customers").await;
    let refused = store
        .write(|tx| {
            customers::bind(
                tx,
                &BindRequest {
                    channel_code: Some("SHOP".to_owned()),
                    channel_customer_id: Some("S-10".to_owned()),
                    enterprise_name: Some("Acme Ltd".to_owned()),
                    ..BindRequest::default()
                },
                NOW,
            )
        })
        .await
        .expect_err("refused");
    assert!(
        refused
            .to_string()
            .starts_with("enterpriseName: several enterprise master accounts are named"),
        "{refused}"
    );
    assert_eq!(
        count(&store, "SELECT count(*) FROM customers").await,
        before
    );
}

/// Inserts a customer and one asset of it per `(number, license type)`.
fn assets(tx: &dyn Tx, which: &[(&str, &str)]) -> Result<(), OpError> {
    let customer = customers::insert(tx, &customers::NewCustomer::default(), NOW)?;
    for (i, (num, license_type)) in which.iter().enumerate() {
        tx.execute(
            "INSERT INTO assets(asset_id, asset_num, license_type, customer_id, key_shell_number, \
             key_chip_type, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?2, 1, ?5, ?5)",
            &[
                format!("A{i}").as_str().into(),
                (*num).into(),
                (*license_type).into(),
                customer.into(),
                NOW.into(),
            ],
        )?;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn locks_are_set_once_and_recorded() {
    let Some(store) = store().await else {
        return;
    };
    store
        .write(|tx| {
            assets(
                tx,
                &[
                    ("1000000001", "normal_recover_usbkey"),
                    ("1000000002", "softkey"),
                ],
            )
        })
        .await
        .expect("assets");
    let nums = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let asked = nums(&["1000000001", "1000000002", "1000000009", "1000000001", " "]);
    let results = store
        .write(move |tx| locks::set_locked(tx, &asked, true, "ops", "ak_test", NOW))
        .await
        .expect("lock");
    let statuses: Vec<LockStatus> = results.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        vec![
            LockStatus::Success,
            LockStatus::WrongType,
            LockStatus::NotFound,
            LockStatus::Success,
            LockStatus::Failed
        ]
    );
    // Locking again changes nothing and records nothing.
    let again = nums(&["1000000001"]);
    store
        .write(move |tx| locks::set_locked(tx, &again, true, "ops", "ak_test", NOW + 1))
        .await
        .expect("lock again");
    let state = store
        .read(|tx| {
            tx.query_vec(
                "SELECT asset_num, locked FROM assets ORDER BY asset_num",
                &[],
                |r| Ok((r.text(0)?, r.bool(1)?)),
            )
        })
        .await
        .expect("assets");
    assert_eq!(
        state,
        vec![
            ("1000000001".to_owned(), true),
            ("1000000002".to_owned(), false)
        ]
    );
    let events = store
        .read(|tx| {
            tx.query_vec(
                "SELECT asset_num, locked, operator, at FROM lock_events ORDER BY id",
                &[],
                |r| Ok((r.text(0)?, r.bool(1)?, r.text(2)?, r.i64(3)?)),
            )
        })
        .await
        .expect("events");
    assert_eq!(
        events,
        vec![("1000000001".to_owned(), true, "ops".to_owned(), NOW)]
    );
}

const ACTIVITIES: &str = r#"{"activities": [
  {"id": "ACT-1", "label": "launch", "name": "Launch", "startTime": 0, "endTime": 4102444800000,
   "units": [{"id": "U-ONCE", "name": "once", "maxClaimsPerIdentity": 1, "stock": 1,
              "products": [{"productUri": "product://a", "validDays": 30, "activateType": "0"}]}]},
  {"id": "ACT-2", "label": "locks", "name": "Locks", "startTime": 0, "endTime": 4102444800000,
   "units": [{"id": "U-LOCK", "name": "lock", "maxClaimsPerIdentity": 1,
              "products": [{"productUri": "product://b", "validDays": 7, "activateType": "1"}]}]}
]}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_unit_in_stock_once_is_claimed_once_by_concurrent_claims() {
    let Some(store) = store().await else {
        return;
    };
    let activities = Arc::new(Activities::parse(ACTIVITIES.as_bytes()).expect("activities"));
    let claims: Vec<_> = (0..10)
        .map(|i| {
            let store = store.clone();
            let activities = activities.clone();
            tokio::spawn(async move {
                store
                    .write(move |tx| {
                        let activity = activities.get("launch").expect("activity");
                        let identity = format!("1380013800{i}");
                        claim(
                            tx,
                            activity,
                            &ClaimInput {
                                identity: &identity,
                                source: "web",
                                branch: "sh",
                                app_key: "ak_test",
                            },
                            NOW,
                        )
                    })
                    .await
                    .expect("claim")
            })
        })
        .collect();
    let mut codes = Vec::new();
    for c in claims {
        codes.push(c.await.expect("task").result_code);
    }
    codes.sort();
    let mut expected = vec!["0000".to_owned()];
    expected.extend(std::iter::repeat_n("3002".to_owned(), 9));
    assert_eq!(codes, expected, "exactly one claim of the one in stock");
    assert_eq!(count(&store, "SELECT count(*) FROM claims").await, 1);

    // A lock claims a unit whose products wait for activation: they are put on the lock.
    store
        .write(|tx| assets(tx, &[("2000000001", "normal_recover_usbkey")]))
        .await
        .expect("lock asset");
    let answer = store
        .write(move |tx| {
            claim(
                tx,
                activities.get("locks").expect("activity"),
                &ClaimInput {
                    identity: "2000000001",
                    source: "web",
                    branch: "sh",
                    app_key: "ak_test",
                },
                NOW,
            )
        })
        .await
        .expect("claim");
    assert_eq!(answer.result_code, "0000");
    let products = store
        .read(|tx| {
            tx.query_vec(
                "SELECT p.product_uri, p.awaiting_activation, p.limit_end - p.limit_start, \
                 c.identity_kind FROM products p JOIN claims c ON c.id = p.claim_id",
                &[],
                |r| Ok((r.text(0)?, r.bool(1)?, r.i64(2)?, r.text(3)?)),
            )
        })
        .await
        .expect("products");
    assert_eq!(
        products,
        vec![(
            "product://b".to_owned(),
            true,
            7 * 24 * 3600 * 1000,
            "lock".to_owned()
        )]
    );
}

/// The cluster with `ssl=on`, its certificate signed by a CA of the test's own.
async fn tls_database() -> Option<pg_cluster::TlsDatabase> {
    pg_cluster::tls_database(|dir| {
        let certs = tls_certs::make(dir);
        pg_cluster::ServerCerts {
            ca: certs.ca,
            chain: certs.chain,
            key: certs.key,
        }
    })
    .await
}

/// Whether the store's connection runs over TLS, as the server sees it.
async fn over_tls(store: &PgStore) -> bool {
    store
        .read(|tx| {
            tx.query_one(
                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
                &[],
                |r| r.bool(0),
            )
        })
        .await
        .expect("pg_stat_ssl")
}

/// Why `url` could not be connected to.
async fn refusal(url: &str) -> String {
    match platform::pg::connect(url, 1).await {
        Ok(_) => panic!("{url} connected"),
        Err(e) => e.to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_is_used_and_verified_with_the_ca_of_sslrootcert() {
    let Some(db) = tls_database().await else {
        return;
    };
    let ca = db.ca.display();
    // verify-ca / verify-full are require here: certificates are verified under every mode.
    for mode in ["require", "verify-ca", "verify-full", "prefer"] {
        let url = format!("{}?sslmode={mode}&sslrootcert={ca}", db.url);
        let store = platform::pg::connect(&url, 2).await.expect(&url);
        assert!(over_tls(&store).await, "{url}: not over TLS");
    }
    // prefer is the default: a server that offers TLS gets it.
    let store = platform::pg::connect(&format!("{}?sslrootcert={ca}", db.url), 2)
        .await
        .expect("connect with the default sslmode");
    assert!(over_tls(&store).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_no_system_ca_signed_is_refused_in_words() {
    let Some(db) = tls_database().await else {
        return;
    };
    // The test CA is not among the system's. prefer does not fall back to a plain connection
    // either: the server offered TLS, and its certificate is not trusted.
    for query in [
        "?sslmode=require",
        "?sslmode=verify-full",
        "?sslmode=prefer",
        "",
    ] {
        let why = refusal(&format!("{}{query}", db.url)).await;
        assert!(
            why.contains("the database server's certificate is not trusted")
                && why.contains("not signed by a trusted CA")
                && why.contains("sslrootcert="),
            "{query}: {why}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn require_is_refused_by_a_server_without_tls() {
    let Some(url) = pg_cluster::database().await else {
        return;
    };
    for mode in ["require", "verify-full"] {
        let why = refusal(&format!("{url}?sslmode={mode}")).await;
        assert!(
            why.contains("the database server does not offer TLS and sslmode=require"),
            "{mode}: {why}"
        );
    }
    // prefer (the default) falls back to a plain connection, as libpq does.
    let store = platform::pg::connect(&format!("{url}?sslmode=prefer"), 2)
        .await
        .expect("prefer without TLS");
    assert!(!over_tls(&store).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disable_connects_plain_and_reads_no_ca() {
    let Some(db) = tls_database().await else {
        return;
    };
    // Even to a server that offers TLS, and with a CA file that does not exist: disable never
    // reads one.
    let url = format!("{}?sslmode=disable&sslrootcert=/nonexistent/ca.pem", db.url);
    let store = platform::pg::connect(&url, 2)
        .await
        .expect("sslmode=disable");
    assert!(!over_tls(&store).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ca_file_that_cannot_be_read_is_named() {
    let Some(db) = tls_database().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let not_pem = dir.path().join("ca.pem");
    std::fs::write(&not_pem, "not a certificate").expect("write");
    for (file, what) in [
        (dir.path().join("missing.pem"), "No such file"),
        (not_pem, "no PEM certificate in it"),
    ] {
        let why = refusal(&format!(
            "{}?sslmode=require&sslrootcert={}",
            db.url,
            file.display()
        ))
        .await;
        assert!(
            why.contains(&format!(
                "cannot read the CA file sslrootcert={}",
                file.display()
            )) && why.contains(what),
            "{why}"
        );
    }
}
