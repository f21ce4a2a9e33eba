//! Windows targets only: embeds the icon, the version information Explorer shows, and the
//! manifest (per-monitor DPI, UTF-8 code page, long paths, no elevation) in the exe.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=dist/windows/license-desk.ico");
    println!("cargo:rerun-if-changed=dist/windows/license-desk.exe.manifest");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("windows") {
        return;
    }
    let mut resource = winresource::WindowsResource::new();
    resource
        .set_icon("dist/windows/license-desk.ico")
        .set_manifest_file("dist/windows/license-desk.exe.manifest")
        .set("ProductName", "License Desk")
        .set("FileDescription", "License Desk")
        .set("CompanyName", "License Desk team")
        .set("LegalCopyright", "© 2026 License Desk team")
        .set("OriginalFilename", "license-desk.exe")
        .set("InternalName", "license-desk");
    // A build script reports failure by panicking; windres' own message says what went wrong.
    if let Err(e) = resource.compile_for("license-desk") {
        panic!("the Windows resources could not be compiled: {e}");
    }
}
