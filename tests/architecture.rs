//! The module graph is a fan: the core (rules, eval, search, engine) knows nothing of text or
//! of any front end; the front ends (UCI session, Gomocup brain, referee, play, serve, report,
//! tune) stand side by side over the core and the shared modules (protocol, io, text, client,
//! render, stats) and import none of each other. Inside `search`, the three searches (the
//! general alpha-beta, the gomoku search, the proof search) import none of each other nor the
//! dispatcher, and what they share imports none of them. These tests read the sources and fail
//! on an import that breaks that shape, naming the file and the line.

use std::path::{Path, PathBuf};

/// The front ends: none may import another.
const FRONT_ENDS: &[&str] = &[
    "uci", "gomocup", "referee", "play", "serve", "report", "tune",
];

/// What each lower module may not import (besides the front ends, which no lower module may
/// import).
const FORBIDDEN_BELOW: &[(&str, &[&str])] = &[
    (
        "rules",
        &[
            "eval", "search", "engine", "protocol", "io", "text", "client", "render", "bench",
        ],
    ),
    (
        "eval",
        &[
            "search", "engine", "protocol", "io", "text", "client", "render", "bench",
        ],
    ),
    (
        "search",
        &[
            "engine", "protocol", "io", "text", "client", "render", "bench",
        ],
    ),
    ("engine", &["protocol", "io", "text", "client", "render"]),
    ("protocol", &["engine", "io", "client", "render", "bench"]),
    ("io", &["engine", "protocol", "client", "render", "bench"]),
    (
        "text",
        &["engine", "protocol", "io", "client", "render", "bench"],
    ),
    ("render", &["engine", "protocol", "io", "client", "bench"]),
    ("client", &["engine", "bench"]),
    (
        "stats",
        &[
            "rules", "eval", "search", "engine", "protocol", "io", "text", "client", "render",
            "bench",
        ],
    ),
];

/// The top-level module of a source file, given relative to `src/`: `referee/game.rs` -> `referee`.
fn module_of(relative: &Path) -> String {
    let first = relative
        .components()
        .next()
        .expect("a non-empty path")
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    first.trim_end_matches(".rs").to_string()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a line of code names through `crate::`.
fn crate_paths(line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            // `crate::{a, b}`: every name in the braces.
            if let Some(group) = rest.strip_prefix('{') {
                let inner = group.split('}').next().unwrap_or("");
                found.extend(
                    inner
                        .split(',')
                        .map(|s| s.trim().split("::").next().unwrap_or("").to_string())
                        .filter(|s| !s.is_empty()),
                );
            }
        } else {
            found.push(name);
        }
    }
    found
}

/// The imports against a rule in the files under `dir` (sorted), one line each: `check`
/// is given a file (relative to `src`) and one of its lines and returns, for each name
/// the line imports against the rule, how to describe it (`` `a` imports `b` ``).
fn violations(src: &Path, dir: &Path, check: impl Fn(&Path, &str) -> Vec<String>) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    files.sort();
    let mut problems = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(src).unwrap_or(file);
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (number, line) in text.lines().enumerate() {
            for what in check(relative, line) {
                problems.push(format!(
                    "{}:{}: {what}: {}",
                    relative.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    problems
}

#[test]
fn the_module_graph_is_a_fan() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = violations(&src, &src, |file, line| {
        let module = module_of(file);
        if module == "main" || module == "lib" {
            return Vec::new();
        }
        let forbidden: Vec<&str> = if FRONT_ENDS.contains(&module.as_str()) {
            FRONT_ENDS
                .iter()
                .copied()
                .filter(|f| *f != module)
                .collect()
        } else {
            let below = FORBIDDEN_BELOW
                .iter()
                .find(|(m, _)| *m == module)
                .map_or(&[][..], |(_, list)| *list);
            FRONT_ENDS.iter().chain(below).copied().collect()
        };
        crate_paths(line)
            .into_iter()
            .filter(|name| forbidden.contains(&name.as_str()))
            .map(|name| format!("`{module}` imports `{name}`"))
            .collect()
    });
    assert!(
        problems.is_empty(),
        "imports against the module graph:\n{}",
        problems.join("\n")
    );
}

#[test]
fn crate_paths_are_found_in_uses_and_expressions() {
    assert_eq!(
        crate_paths("use crate::rules::{Geometry, Position};"),
        ["rules"]
    );
    assert_eq!(
        crate_paths("use crate::{io, text::excerpt};"),
        ["io", "text"]
    );
    assert_eq!(
        crate_paths("let x = crate::referee::args::parse(&a); // crate::play"),
        ["referee"]
    );
}

/// The searches inside `search/`, each a folder: none may import another.
const SEARCHES: &[&str] = &["alphabeta", "gomoku", "proof"];

/// The modules of `search/` that may name the searches: the index (`search/mod.rs`, whose
/// module path has no second part) and the dispatcher.
const SEARCH_INDEX: &[&str] = &["", "dispatch"];

/// The module path of a source file, given relative to `src/`: `search/gomoku/vcf.rs` -> [search, gomoku, vcf],
/// `search/gomoku/mod.rs` -> [search, gomoku].
fn module_path(relative: &Path) -> Vec<String> {
    let mut path: Vec<String> = relative
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if path.last().is_some_and(|l| l == "mod") {
        path.pop();
    }
    path
}

/// The modules directly inside `search` that a line of code in the module `at` names,
/// through `crate::search::` or through `super::` paths that lead into `search`.
fn search_paths(at: &[String], line: &str) -> Vec<String> {
    let code = line.split("//").next().unwrap_or("");
    let mut found = Vec::new();
    let mut rest = code;
    loop {
        let crate_at = rest.find("crate::search::");
        let super_at = rest.find("super::");
        let (start, mut after, mut base) = match (crate_at, super_at) {
            (Some(c), s) if s.is_none_or(|s| c < s) => (c, "crate::search::".len(), 1),
            (_, Some(s)) => (s, 0, at.len()),
            _ => break,
        };
        // Each `super::` goes one module up from `at`.
        while rest[start + after..].starts_with("super::") {
            after += "super::".len();
            base = base.saturating_sub(1);
        }
        let tail = &rest[start + after..];
        rest = &rest[start + after.max(1)..];
        // The path so far, from the crate root: it must be `search` for the next name to be
        // one of its modules.
        let prefix: Vec<&str> = if crate_at.is_some_and(|c| c == start) {
            vec!["search"]
        } else {
            at[..base].iter().map(String::as_str).collect()
        };
        let names: Vec<String> = if let Some(group) = tail.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            inner
                .split(',')
                .map(|s| s.trim().split("::").next().unwrap_or("").to_string())
                .filter(|s| !s.is_empty())
                .collect()
        } else {
            let name: String = tail
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            vec![name]
        };
        // Only a path that reaches `search` itself can name another search; one that stays
        // inside the current search names none.
        if prefix == ["search"] {
            found.extend(names);
        }
    }
    found
}

#[test]
fn the_searches_import_none_of_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let problems = violations(&src, &src.join("search"), |file, line| {
        let path = module_path(file);
        let own = path.get(1).map(String::as_str).unwrap_or("");
        if SEARCH_INDEX.contains(&own) {
            return Vec::new();
        }
        search_paths(&path, line)
            .into_iter()
            .filter(|name| SEARCHES.contains(&name.as_str()) && name != own || name == "dispatch")
            .map(|name| format!("`search::{own}` imports `search::{name}`"))
            .collect()
    });
    assert!(
        problems.is_empty(),
        "imports against the searches' boundaries:\n{}",
        problems.join("\n")
    );
}

#[test]
fn search_paths_are_resolved_from_the_file() {
    let at = |p: &str| p.split('/').map(String::from).collect::<Vec<_>>();
    assert_eq!(
        search_paths(
            &at("search/gomoku/vcf"),
            "use crate::search::{value::INF, proof};"
        ),
        ["value", "proof"]
    );
    assert_eq!(
        search_paths(&at("search/gomoku/vcf"), "use super::board::Board;"),
        Vec::<String>::new()
    );
    assert_eq!(
        search_paths(
            &at("search/gomoku/vcf"),
            "use super::super::alphabeta::Engine;"
        ),
        ["alphabeta"]
    );
    assert_eq!(
        search_paths(&at("search/gomoku"), "use super::{Limits, proof};"),
        ["Limits", "proof"]
    );
    assert_eq!(
        search_paths(
            &at("search/value"),
            "x = super::gomoku::f(); // crate::search::proof"
        ),
        ["gomoku"]
    );
}
