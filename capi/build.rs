//! Gives the shared library a SONAME on Linux and the BSDs (`libsalpakan.so.MAJOR`, the name
//! C programs link against and `scripts/install` installs), as C libraries are shipped.

fn main() {
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".into());
    if matches!(
        target_os.as_str(),
        "linux" | "freebsd" | "netbsd" | "openbsd" | "dragonfly" | "android"
    ) {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libsalpakan.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
