//! Every relative link in the repository's Markdown (README.md, docs/,
//! protocol/, tools/, board/, examples/) points to a file or folder that
//! exists, and a link to a `#heading` names a heading of that page (the
//! anchor GitHub makes of it). Links to the web are not followed.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The Markdown files: README.md and every `.md` under the folders above,
/// hidden folders (virtual environments) and build output left out.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || name == "target" {
                continue;
            }
            if path.is_dir() {
                walk(&path, out);
            } else if name.ends_with(".md") {
                out.push(path);
            }
        }
    }
    let root = Path::new(ROOT);
    let mut files = vec![root.join("README.md")];
    for dir in ["docs", "protocol", "tools", "board", "examples"] {
        walk(&root.join(dir), &mut files);
    }
    files.sort();
    files
}

/// The text outside fenced code blocks and inline code spans.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || line.trim_start().starts_with("```") {
            out.push('\n'); // kept, so that line numbers stay right
            continue;
        }
        // Inline code: drop what lies between pairs of backticks.
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                out.push_str(part);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the inline links and images (`[text](target)`,
/// `![alt](target "title")`) of a page, with the line each is on.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose(text).lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("").to_string();
            out.push((n + 1, target));
            rest = &after[end..];
        }
    }
    out
}

/// GitHub's anchor for a heading: lower case, spaces to `-`, everything
/// but letters, digits, `-` and `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a page's headings (`#` lines outside code), repeated
/// headings numbered as GitHub numbers them (`-1`, `-2`, ...).
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let heading = line.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(&heading.replace('`', ""));
        let repeats = out
            .iter()
            .filter(|a| **a == base || a.rsplit_once('-').is_some_and(|(b, n)| b == base && n.parse::<u32>().is_ok()))
            .count();
        out.push(if repeats == 0 { base } else { format!("{base}-{repeats}") });
    }
    out
}

/// What is wrong with each relative link of `file`, one line each.
fn broken(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).expect("a readable page");
    let dir = file.parent().expect("a folder");
    let mut bad = Vec::new();
    for (line, target) in links(&text) {
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, anchor) = target.split_once('#').map_or((target.as_str(), None), |(p, a)| (p, Some(a)));
        let page = if path.is_empty() { file.to_path_buf() } else { dir.join(path) };
        let shown = format!("{}:{line}: ({target})", file.strip_prefix(ROOT).unwrap_or(file).display());
        if path.starts_with('/') {
            bad.push(format!("{shown}: an absolute path"));
            continue;
        }
        if !page.exists() {
            bad.push(format!("{shown}: no such file"));
            continue;
        }
        let inside = page.canonicalize().is_ok_and(|p| p.starts_with(Path::new(ROOT).canonicalize().expect("root")));
        if !inside {
            bad.push(format!("{shown}: outside the repository"));
            continue;
        }
        if let Some(anchor) = anchor
            && page.extension().is_some_and(|e| e == "md")
        {
            let heads = anchors(&std::fs::read_to_string(&page).expect("a readable page"));
            if !heads.iter().any(|h| h == anchor) {
                bad.push(format!("{shown}: no heading with that anchor"));
            }
        }
    }
    bad
}

#[test]
fn every_relative_link_in_the_markdown_resolves() {
    let files = markdown_files();
    let names: Vec<String> =
        files.iter().map(|f| f.strip_prefix(ROOT).expect("inside").to_string_lossy().replace('\\', "/")).collect();
    for page in ["README.md", "docs/measurements.md", "protocol/README.md", "docs/rules/README.md"] {
        assert!(names.iter().any(|n| n == page), "{page} not among the pages checked: {names:?}");
    }
    let bad: Vec<String> = files.iter().flat_map(|f| broken(f)).collect();
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

/// The checker itself finds what it should: a missing file, a missing
/// anchor, a path that leaves the repository; and passes what is there.
#[test]
fn the_link_checker_finds_broken_links() {
    let dir = Path::new(ROOT).join("target").join("doc-links-test");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let page = dir.join("page.md");
    std::fs::write(
        &page,
        "# A page\n\n## Second `part`\n\n[ok](#a-page) [ok](#second-part) [ok](page.md#a-page) \
         ![ok](../../README.md) [web](https://example.com/x)\n\
         [gone](nothing.md)\n[no anchor](#no-such)\n\n```\n[in code](nothing-either.md)\n```\n\
         `[inline](nor-this.md)` [out](../../..) [gone too](../../../no-such-file.md)\n",
    )
    .expect("write");
    let bad = broken(&page);
    assert_eq!(bad.len(), 4, "{bad:#?}");
    assert!(bad[0].ends_with(":6: (nothing.md): no such file"), "{}", bad[0]);
    assert!(bad[1].ends_with(":7: (#no-such): no heading with that anchor"), "{}", bad[1]);
    assert!(bad[2].ends_with(":12: (../../..): outside the repository"), "{}", bad[2]);
    assert!(bad[3].ends_with(":12: (../../../no-such-file.md): no such file"), "{}", bad[3]);
    assert_eq!(slug("CECP mode (XBoard)"), "cecp-mode-xboard");
    assert_eq!(anchors("# A\n# A\n# A\n"), ["a", "a-1", "a-2"]);
}

/// The README's option list is the engine's: every option `uci` reports,
/// in every variant, is named in README.md (as `` `Name` ``).
#[test]
fn the_readme_names_every_option_the_engine_reports() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README.md");
    let mut names = Vec::new();
    for variant in calvin::registry::VARIANTS {
        let mut child = Command::new(env!("CARGO_BIN_EXE_calvin"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("runs calvin");
        let script = format!("setoption name UCI_Variant value {variant}\nuci\nquit\n");
        child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write");
        let out = child.wait_with_output().expect("output");
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().expect("a name").to_string();
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
    }
    assert!(names.len() >= 18 && names.iter().any(|n| n == "IagoNotation"), "{names:?}");
    let missing: Vec<&String> = names.iter().filter(|n| !readme.contains(&format!("`{n}`"))).collect();
    assert!(missing.is_empty(), "options the README does not name: {missing:?}");
}
