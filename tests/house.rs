//! The house's shape: no import circles between the project's files. A file may use what its
//! ancestors hold (a module's children use its types); any other path from a file back to
//! itself through the files it names (`use crate::…`, `super::…`, `license_desk::…`, in `use`
//! lines or in code) is a circle, and this test names it. It reads `src/` and each crate's
//! `src/` under `crates/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path within its crate: `core::service::queue` is `["core", "service", "queue"]`.
type ModPath = Vec<String>;

/// Which crate a file belongs to: the command line (`main.rs`, `cli/`) or the library.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Crate {
    Lib,
    Bin,
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The crate and module path of a file under `src`.
fn module_of(src: &Path, file: &Path) -> (Crate, ModPath) {
    let relative = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    match last.as_str() {
        "mod.rs" | "lib.rs" => {}
        "main.rs" if parts.is_empty() => return (Crate::Bin, Vec::new()),
        name => parts.push(name.trim_end_matches(".rs").to_owned()),
    }
    let krate = if parts.first().is_some_and(|p| p == "cli") {
        Crate::Bin
    } else {
        Crate::Lib
    };
    (krate, parts)
}

/// The text without comments and string literals (their paths are words, not imports).
fn code_of(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                let mut escaped = false;
                for c in chars.by_ref() {
                    if c == '"' && !escaped {
                        break;
                    }
                    escaped = c == '\\' && !escaped;
                }
                code.push_str("\"\"");
            }
            c => code.push(c),
        }
    }
    code
}

/// Every path a `use` tree names: `a::{b, c::{d, self}}` is `a::b`, `a::c::d` and `a::c`.
fn expand(tree: &str) -> Vec<String> {
    let tree = without_renames(tree);
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(p).into_iter().map(|e| format!("{prefix}{e}")))
        .map(|p| p.trim_end_matches("::self").to_owned())
        .collect()
}

/// The tree without whitespace and without `as` renames (`a::{B as C, D}` is `a::{B,D}`).
fn without_renames(tree: &str) -> String {
    let mut out = String::new();
    let mut tokens = tree.split_whitespace();
    while let Some(token) = tokens.next() {
        if token == "as" {
            let alias = tokens.next().unwrap_or_default();
            out.extend(
                alias
                    .chars()
                    .filter(|c| !(c.is_alphanumeric() || *c == '_')),
            );
        } else {
            out.push_str(token);
        }
    }
    out
}

/// The paths a file names: those of its `use` lines, and those written in its code.
fn named_paths(code: &str) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        let statement = &rest[at + 4..];
        let end = statement.find(';').unwrap_or(statement.len());
        if before.is_none_or(|c| !c.is_alphanumeric() && c != '_') {
            paths.extend(expand(&statement[..end]));
        }
        rest = &statement[end.min(statement.len())..];
    }
    let words: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < words.len() {
        let starts_word = i == 0 || !(words[i - 1].is_alphanumeric() || words[i - 1] == '_');
        if starts_word && words[i].is_ascii_lowercase() {
            let mut j = i;
            while j < words.len()
                && (words[j].is_alphanumeric() || words[j] == '_' || words[j] == ':')
            {
                j += 1;
            }
            let path: String = words[i..j].iter().collect();
            if path.contains("::") {
                paths.push(path);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    paths
}

/// The module a path leads into, as far as modules of the house go.
fn resolve(
    from: &(Crate, ModPath),
    path: &str,
    modules: &BTreeSet<(Crate, ModPath)>,
) -> Option<(Crate, ModPath)> {
    let mut segments = path.split("::").filter(|s| !s.is_empty());
    let (krate, mut at) = match segments.next()? {
        "crate" => (from.0, Vec::new()),
        "license_desk" => (Crate::Lib, Vec::new()),
        "super" => {
            let mut up = from.1.clone();
            up.pop();
            (from.0, up)
        }
        "self" => from.clone(),
        // A child module, named from its parent without `self::`.
        child => {
            let mut down = from.1.clone();
            down.push(child.to_owned());
            if !modules.contains(&(from.0, down.clone())) {
                return None;
            }
            (from.0, down)
        }
    };
    for segment in segments {
        if segment == "super" {
            at.pop();
            continue;
        }
        let mut deeper = at.clone();
        deeper.push(segment.to_owned());
        if !modules.contains(&(krate, deeper.clone())) {
            break;
        }
        at = deeper;
    }
    Some((krate, at))
}

/// The import graph between the house's modules, without edges to a module's own ancestors.
fn graph(src: &Path) -> BTreeMap<(Crate, ModPath), BTreeSet<(Crate, ModPath)>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<_> = files.iter().map(|f| module_of(src, f)).collect();
    let mut edges = BTreeMap::new();
    for file in &files {
        let from = module_of(src, file);
        let text = std::fs::read_to_string(file).expect("readable");
        let mut to = BTreeSet::new();
        for path in named_paths(&code_of(&text)) {
            let Some(target) = resolve(&from, &path, &modules) else {
                continue;
            };
            let ancestor = target.0 == from.0 && from.1.starts_with(&target.1);
            if !ancestor && modules.contains(&target) {
                to.insert(target);
            }
        }
        edges.insert(from, to);
    }
    edges
}

/// The strongly connected parts of more than one module (Tarjan's algorithm).
fn circles<N: Ord + Clone>(edges: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct Walk<'a, N> {
        edges: &'a BTreeMap<N, BTreeSet<N>>,
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        found: Vec<Vec<N>>,
    }
    fn visit<N: Ord + Clone>(w: &mut Walk<'_, N>, node: &N) {
        let i = w.index.len();
        w.index.insert(node.clone(), i);
        w.low.insert(node.clone(), i);
        w.stack.push(node.clone());
        for next in w.edges.get(node).into_iter().flatten() {
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[node].min(w.low[next]);
                w.low.insert(node.clone(), low);
            } else if w.stack.contains(next) {
                let low = w.low[node].min(w.index[next]);
                w.low.insert(node.clone(), low);
            }
        }
        if w.low[node] == w.index[node] {
            let mut part = Vec::new();
            while let Some(top) = w.stack.pop() {
                let done = top == *node;
                part.push(top);
                if done {
                    break;
                }
            }
            if part.len() > 1 {
                w.found.push(part);
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for node in edges.keys() {
        if !walk.index.contains_key(node) {
            visit(&mut walk, node);
        }
    }
    walk.found
}

fn name(node: &(Crate, ModPath)) -> String {
    let root = match node.0 {
        Crate::Lib => "license_desk",
        Crate::Bin => "main",
    };
    std::iter::once(root.to_owned())
        .chain(node.1.iter().cloned())
        .collect::<Vec<_>>()
        .join("::")
}

/// The source folders of the house: the root package's and those of the crates under
/// `crates/` (between crates Cargo itself refuses a circle, so each is checked within).
fn source_roots() -> Vec<PathBuf> {
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![top.join("src")];
    for entry in std::fs::read_dir(top.join("crates")).expect("crates is readable") {
        roots.push(entry.expect("entry").path().join("src"));
    }
    roots.sort();
    roots
}

#[test]
fn no_file_of_the_house_imports_itself_through_others() {
    let roots = source_roots();
    assert_eq!(roots.len(), 9, "src and eight crates: {roots:?}");
    let mut found = Vec::new();
    for src in &roots {
        let edges = graph(src);
        assert!(edges.len() > 1, "{} holds modules", src.display());
        found.extend(circles(&edges).iter().map(|part| {
            let part = part.iter().map(name).collect::<Vec<_>>().join(" ⇄ ");
            format!("{}: {part}", src.display())
        }));
    }
    assert!(found.is_empty(), "import circles: {found:#?}");
}

/// The console's kinds lean one way: what it says (`ui::text`) uses no widget or screen, and
/// the widgets (`ui::kit`) use no screen.
#[test]
fn the_console_s_text_and_kit_use_no_screen() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let under = |node: &(Crate, ModPath), kind: &str| {
        node.0 == Crate::Lib && node.1.len() >= 2 && node.1[0] == "ui" && node.1[1] == kind
    };
    let mut wrong = Vec::new();
    for (from, to) in graph(&src) {
        for target in to {
            let leans_back = (under(&from, "text")
                && (under(&target, "kit") || under(&target, "screens")))
                || (under(&from, "kit") && under(&target, "screens"));
            if leans_back {
                wrong.push(format!("{} uses {}", name(&from), name(&target)));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The window reaches a platform and the interface's types only through `core` (which names
/// what it lends of `client` and `wire`): no file under `ui/` names those crates, `platform` or
/// `team` itself. `support` (the clock, private files) is a leaf anyone may use.
#[test]
fn the_window_names_the_crates_only_through_the_core() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("ui"), &mut files);
    assert!(files.len() > 50, "the window's files: {}", files.len());
    let mut all = Vec::new();
    rust_files(&src, &mut all);
    let modules: BTreeSet<_> = all.iter().map(|f| module_of(&src, f)).collect();
    let mut wrong = Vec::new();
    for file in &files {
        let from = module_of(&src, file);
        let text = std::fs::read_to_string(file).expect("readable");
        let paths = named_paths(&code_of(&text));
        // Names a file binds from the house (`use crate::core::team;`) are not the crates.
        let bound: BTreeSet<&str> = paths
            .iter()
            .filter(|p| {
                ["crate::", "super::", "self::"]
                    .iter()
                    .any(|s| p.starts_with(s))
            })
            .filter_map(|p| p.rsplit("::").next())
            .collect();
        for path in &paths {
            let first = path.split("::").next().unwrap_or_default();
            let a_crate = ["client", "platform", "team", "wire"].contains(&first);
            if a_crate && !bound.contains(first) && resolve(&from, path, &modules).is_none() {
                wrong.push(format!("{} names {path}", name(&from)));
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The check finds a circle when there is one, and ignores a child's use of its ancestors.
#[test]
fn a_circle_between_siblings_is_found_and_a_use_of_a_parent_is_not() {
    let dir = tempfile::tempdir().expect("dir");
    let src = dir.path();
    std::fs::create_dir_all(src.join("a")).expect("dir");
    std::fs::write(src.join("lib.rs"), "pub mod a;\n").expect("write");
    std::fs::write(
        src.join("a/mod.rs"),
        "pub mod b; pub mod c; use self::b::B;\n",
    )
    .expect("write");
    std::fs::write(
        src.join("a/b.rs"),
        "use super::c::C; // use crate::a::c::Nothing;\npub struct B;\n",
    )
    .expect("write");
    std::fs::write(
        src.join("a/c.rs"),
        "pub struct C; fn f() -> crate::a::b::B { super::b::B }\n",
    )
    .expect("write");
    let edges = graph(src);
    let found = circles(&edges);
    assert_eq!(found.len(), 1, "{edges:?}");
    let mut part: Vec<String> = found[0].iter().map(name).collect();
    part.sort();
    assert_eq!(part, ["license_desk::a::b", "license_desk::a::c"]);

    std::fs::write(
        src.join("a/c.rs"),
        "pub struct C; use super::B as Parent;\n",
    )
    .expect("write");
    assert!(circles(&graph(src)).is_empty());
}
