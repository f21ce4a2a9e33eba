//! The console: egui panels that draw the core's state and queue commands for it. No I/O
//! here: screens queue commands in an `Outbox` the window sends to `core::Core` after each
//! frame, and the core wakes the window when an answer arrives.

mod help;
pub mod kit;
mod outbox;
mod prefs;
mod screens;
mod session;
mod shell;
mod status;
pub mod text;
mod update;

pub use prefs::{Prefs, Screen};
pub use shell::{DeskApp, StartAgain};

use crate::core::{Core, CoreError, CoreOptions};

/// The window's own state file (eframe's `app.ron`: the screen, recent enterprises, the claim
/// form's values) made private to the user before eframe first writes it: eframe rewrites the
/// file in place, which keeps its mode.
fn private_window_state(dir: &std::path::Path) {
    let file = dir.join("app.ron");
    let kept = support::private_files::create_private_dir(dir)
        .and_then(|()| support::private_files::ensure_private_file(&file))
        .and_then(|()| {
            // A new file holds an empty map, which eframe reads: empty, it would say at the
            // first start that it failed to parse it.
            if std::fs::metadata(&file)?.len() == 0 {
                std::fs::write(&file, "{}")?;
            }
            Ok(())
        });
    if let Err(e) = kept {
        tracing::warn!(error = %e, "the window's state file could not be made private");
    }
}

/// Why the console's window did not open.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Core(#[from] CoreError),
    #[error("the window could not open: {0}")]
    Window(#[from] eframe::Error),
    #[error("the program could not start again: {0}")]
    StartAgain(std::io::Error),
}

/// Opens the console on the active profile (the Sandbox on a fresh machine).
pub fn run() -> Result<(), OpenError> {
    if let Some(dir) = eframe::storage_dir("license-desk") {
        private_window_state(&dir);
    }
    let options = CoreOptions::for_user()?;
    let window_dir = eframe::storage_dir("license-desk");
    // A restore asked for on the last run, before anything opens the files it replaces.
    let places = crate::core::backup::Places {
        config_dir: options.config_dir.clone(),
        data_dir: options.data_dir.clone(),
        window_dir: window_dir.clone(),
    };
    let restored = crate::core::backup::pending::finish(&places);
    let core = Core::start(options)?;
    let start_again = std::sync::Arc::new(std::sync::OnceLock::new());
    let flag = start_again.clone();
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("License Desk")
        // Matches the .desktop entry, so the desktop shows the right icon and name.
        .with_app_id("license-desk")
        .with_inner_size([1100.0, 720.0])
        // The narrowest size every screen is tested at: the asset grid's default columns fit
        // it whole, so nothing ever scrolls sideways (and no column needs freezing).
        .with_min_inner_size([900.0, 600.0]);
    match eframe::icon_data::from_png_bytes(include_bytes!("../../assets/icon-64.png")) {
        Ok(icon) => viewport = viewport.with_icon(std::sync::Arc::new(icon)),
        Err(e) => tracing::warn!(error = %e, "the window icon could not be read"),
    }
    let options = eframe::NativeOptions {
        viewport,
        ..Default::default()
    };
    eframe::run_native(
        "license-desk",
        options,
        Box::new(move |cc| {
            let prefs = cc
                .storage
                .and_then(|s| eframe::get_value::<Prefs>(s, eframe::APP_KEY))
                .unwrap_or_default();
            let mut app = DeskApp::new(core, prefs, &cc.egui_ctx);
            app.set_window_dir(window_dir);
            if let Some(result) = restored {
                app.restored(result);
            }
            app.start_again_with(flag);
            Ok(Box::new(app))
        }),
    )?;
    // The window and its core are gone, their files closed: the program asked for starts now.
    let program = match start_again.get() {
        None => return Ok(()),
        Some(StartAgain::ThisProgram) => std::env::current_exe().map_err(OpenError::StartAgain)?,
        Some(StartAgain::Program(program)) => program.clone(),
    };
    std::process::Command::new(program)
        .spawn()
        .map_err(OpenError::StartAgain)?;
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_window_state_file_is_private_and_keeps_what_it_holds() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join("app.ron");
        std::fs::write(&file, "(screen: \"Orders\")").expect("write");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        super::private_window_state(dir.path());
        let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            "(screen: \"Orders\")"
        );
    }

    /// The first start's file is one eframe reads (a map of its keys), and private.
    #[test]
    fn a_new_window_state_file_reads_as_an_empty_map() {
        let dir = tempfile::tempdir().expect("dir");
        let window = dir.path().join("window");
        super::private_window_state(&window);
        let file = window.join("app.ron");
        let read: std::collections::HashMap<String, String> =
            ron::from_str(&std::fs::read_to_string(&file).expect("read")).expect("RON");
        assert!(read.is_empty());
        let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
