//! Windows only. The exe is a GUI program (no console window opens behind the console), so
//! Windows gives it no terminal: a sub-command started from one attaches to it, so that what
//! it prints and reads goes there. Scripts and terminals that must wait for the exit code use
//! `license-desk.com`, the same program marked as a console program (dist/build-windows.sh).

use windows_sys::Win32::Foundation::{HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::System::Console::{
    ATTACH_PARENT_PROCESS, AttachConsole, GetStdHandle, STD_ERROR_HANDLE, STD_OUTPUT_HANDLE,
};

/// Attaches to the parent's terminal when there are arguments to act on and the standard
/// handles were not handed down (a parent that redirects them, such as a script capturing the
/// output, keeps its redirection).
pub fn attach() {
    if std::env::args_os().len() < 2 {
        return;
    }
    // SAFETY: plain Win32 calls without pointers; a failure (no parent terminal, already
    // attached) leaves the process as it was.
    unsafe {
        if missing(GetStdHandle(STD_OUTPUT_HANDLE)) || missing(GetStdHandle(STD_ERROR_HANDLE)) {
            AttachConsole(ATTACH_PARENT_PROCESS);
        }
    }
}

fn missing(handle: HANDLE) -> bool {
    handle.is_null() || handle == INVALID_HANDLE_VALUE
}

/// Tells the user, in a message box, why the window could not open.
pub fn show_error(message: &str) {
    // The message box's answer (OK) says nothing; one that cannot show has no one to tell.
    let _ = rfd::MessageDialog::new()
        .set_level(rfd::MessageLevel::Error)
        .set_title("License Desk")
        .set_description(message)
        .set_buttons(rfd::MessageButtons::Ok)
        .show();
}
