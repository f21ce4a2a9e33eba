//! Every statement of the modules ported to `sql::Tx` prepares on both stores, at the newest
//! schema: a dialect difference (a type, a function, an ambiguous column) shows here without a
//! test walking the path that runs it. The statements are read from the modules' source: each
//! SQL string literal (and each `concat!` of literals and `macro_rules!` texts) that starts
//! with SELECT, INSERT, UPDATE, DELETE or WITH, or with `/* PostgreSQL */ ` and one of those
//! (a set-based statement of `sql::Dialect::Postgres`, prepared on PostgreSQL only).

use test_support::pg_cluster;

use std::collections::HashMap;

use platform::pg::dollar_params;

/// The modules whose statements run through `sql::Tx` (their tests left out).
const PORTED: &[&str] = &[
    "src/store.rs",
    "src/apps.rs",
    "src/quotas.rs",
    "src/rules/shellnums.rs",
    "src/rules/locks.rs",
    "src/rules/customers.rs",
    "src/activities/claim.rs",
    "src/rules/grants.rs",
    "src/rules/assets.rs",
    "src/rules/orders.rs",
    "src/auth.rs",
    "src/spent.rs",
];

const SQL_STARTS: &[&str] = &["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "WITH "];
/// The mark of a statement written for PostgreSQL alone.
const POSTGRES_ONLY: &str = "/* PostgreSQL */ ";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_ported_statement_prepares_on_sqlite_and_postgresql() {
    let Some(url) = pg_cluster::database().await else {
        return;
    };
    let mut statements = Vec::new();
    for path in PORTED {
        let source = std::fs::read_to_string(path).expect("source");
        let code = source.split("#[cfg(test)]").next().unwrap_or_default();
        let found = sql_statements(code);
        assert!(!found.is_empty(), "no statement found in {path}");
        statements.extend(found.into_iter().map(|s| (*path, s)));
    }
    // As many as the modules held when this test was written; more is fine.
    assert!(statements.len() >= 73, "{} statements", statements.len());

    let dir = tempfile::tempdir().expect("temp dir");
    drop(platform::store::open(dir.path()).expect("SQLite schema"));
    let sqlite = rusqlite::Connection::open(dir.path().join("platform.sqlite3")).expect("open");
    drop(
        platform::pg::connect(&url, 1)
            .await
            .expect("PostgreSQL schema"),
    );
    let (pg, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(connection);

    let mut failures = Vec::new();
    for (path, sql) in &statements {
        if !sql.starts_with(POSTGRES_ONLY)
            && let Err(e) = sqlite.prepare(sql)
        {
            failures.push(format!("SQLite, {path}: {sql}\n  {e}"));
        }
        if let Err(e) = pg.prepare(&dollar_params(sql)).await {
            let why = std::error::Error::source(&e).map_or(e.to_string(), ToString::to_string);
            failures.push(format!("PostgreSQL, {path}: {sql}\n  {why}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{} statements prepared on both stores", statements.len());
}

/// The SQL statements among the string literals of `code`.
fn sql_statements(code: &str) -> Vec<String> {
    let tokens = tokens(code);
    let macros = macro_texts(&tokens);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Macro(name) if name == "concat" => {
                // concat!( literal or text!() , ... ), to its closing parenthesis.
                let mut text = String::new();
                let mut depth = 0;
                i += 1;
                while let Some(t) = tokens.get(i) {
                    match t {
                        Token::Punct('(') => depth += 1,
                        Token::Punct(')') if depth == 1 => break,
                        Token::Punct(')') => depth -= 1,
                        Token::Literal(s) => text.push_str(s),
                        Token::Macro(m) => text.push_str(macros.get(m).map_or("", String::as_str)),
                        _ => {}
                    }
                    i += 1;
                }
                out.push(text);
            }
            Token::Literal(s) => out.push(s.clone()),
            _ => {}
        }
        i += 1;
    }
    out.retain(|s| {
        let s = s.strip_prefix(POSTGRES_ONLY).unwrap_or(s);
        SQL_STARTS.iter().any(|start| s.starts_with(start))
    });
    out
}

/// `macro_rules! name { () => { "text" }; }`: the text of each such macro.
fn macro_texts(tokens: &[Token]) -> HashMap<String, String> {
    let mut texts = HashMap::new();
    for (i, t) in tokens.iter().enumerate() {
        if let (Token::Macro(m), Some(Token::Ident(name))) = (t, tokens.get(i + 1))
            && m == "macro_rules"
            && let Some(Token::Literal(text)) = tokens[i + 1..]
                .iter()
                .find(|t| matches!(t, Token::Literal(_)))
        {
            texts.insert(name.clone(), text.clone());
        }
    }
    texts
}

#[derive(Debug, PartialEq)]
enum Token {
    Literal(String),
    /// `name!` (its parentheses follow as punctuation).
    Macro(String),
    Ident(String),
    Punct(char),
}

/// Rust tokens as far as this test needs: string literals (with escapes and line
/// continuations), `name!`, identifiers and single punctuation; comments and chars skipped.
fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '"' {
            let mut s = String::new();
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                    match chars.get(i) {
                        Some('\n') => {
                            while chars.get(i + 1).is_some_and(|c| c.is_whitespace()) {
                                i += 1;
                            }
                        }
                        Some('n') => s.push('\n'),
                        Some(&other) => s.push(other),
                        None => {}
                    }
                } else {
                    s.push(chars[i]);
                }
                i += 1;
            }
            out.push(Token::Literal(s));
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            // A char literal such as '"'.
            i += 2;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while chars
                .get(i + 1)
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
            {
                i += 1;
            }
            let word: String = chars[start..=i].iter().collect();
            if chars.get(i + 1) == Some(&'!') && chars.get(i + 2) != Some(&'=') {
                i += 1;
                out.push(Token::Macro(word));
            } else {
                out.push(Token::Ident(word));
            }
        } else if !c.is_whitespace() {
            out.push(Token::Punct(c));
        }
        i += 1;
    }
    out
}

#[test]
fn statements_are_read_from_literals_continuations_and_concat() {
    let code = r#"
        // "SELECT in a comment" is not one
        macro_rules! cols { () => { "a, b" }; }
        fn f() {
            tx.execute("UPDATE t SET a = ?1 \
                        WHERE b = ?2", &[]);
            tx.query_one(concat!("SELECT ", cols!(), " FROM t"), &[], |r| r.i64(0));
            let c = '"';
            let not_sql = "hello";
        }
    "#;
    assert_eq!(
        sql_statements(code),
        vec![
            "UPDATE t SET a = ?1 WHERE b = ?2".to_owned(),
            "SELECT a, b FROM t".to_owned()
        ]
    );
}
