//! Names the commit the server is built from (`SALPAKAN_COMMIT`, for its log and its build
//! metric): the variable of that name if set (a container build without git), else `git
//! rev-parse`, else `unknown`.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=SALPAKAN_COMMIT");
    let commit = std::env::var("SALPAKAN_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(git_commit)
        .unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=SALPAKAN_COMMIT={commit}");
}

fn git_commit() -> Option<String> {
    let output = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    // Built again when HEAD moves (only files that exist: a missing one would rebuild
    // every time).
    let git_dir = Command::new("git")
        .args(["rev-parse", "--git-dir"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|d| d.trim().to_owned())?;
    let head = Path::new(&git_dir).join("HEAD");
    if head.exists() {
        println!("cargo:rerun-if-changed={}", head.display());
        if let Ok(text) = std::fs::read_to_string(&head)
            && let Some(reference) = text.trim().strip_prefix("ref: ")
        {
            let file = Path::new(&git_dir).join(reference);
            if file.exists() {
                println!("cargo:rerun-if-changed={}", file.display());
            }
        }
    }
    Some(String::from_utf8(output.stdout).ok()?.trim().to_owned())
}
