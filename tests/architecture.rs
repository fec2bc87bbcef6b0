//! The module graph is a fan: the core (rules, eval, search, engine) knows nothing of text or
//! of any front end; the front ends (UCI session, Gomocup brain, referee, play, serve, report,
//! tune) stand side by side over the core and the shared modules (protocol, io, text, client,
//! render, stats) and import none of each other. This test reads the sources and fails on an import that
//! breaks that shape, naming the file and the line.

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

/// The top-level module a source file belongs to: `src/referee/game.rs` -> `referee`.
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file under src");
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

#[test]
fn the_module_graph_is_a_fan() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        if module == "main" || module == "lib" {
            continue;
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
        let text = std::fs::read_to_string(file).expect("a readable source file");
        for (number, line) in text.lines().enumerate() {
            for name in crate_paths(line) {
                if forbidden.contains(&name.as_str()) {
                    problems.push(format!(
                        "{}:{}: `{module}` imports `{name}`: {}",
                        file.strip_prefix(&src).unwrap_or(file).display(),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
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
