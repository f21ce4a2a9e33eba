//! The desktop's own notifications (freedesktop's over D-Bus, Windows toasts), for news the
//! person should hear with the window in the background: a request waiting for their approval.

use std::sync::Arc;

use super::CoreError;
use super::request::{Request, Services};

/// Shows one notification; its failure (no notification service) is logged by the asker.
#[derive(Debug, Clone)]
pub struct Notify {
    pub title: String,
    pub body: String,
}

impl Request for Notify {
    type Reply = ();

    async fn serve(self, _services: Services) -> Result<(), CoreError> {
        // notify-rust talks to the desktop synchronously.
        let shown = tokio::task::spawn_blocking(move || {
            notify_rust::Notification::new()
                .appname("License Desk")
                .summary(&self.title)
                .body(&self.body)
                .show()
                .map(drop)
        })
        .await
        .map_err(|e| CoreError::Task(Arc::new(e)))?;
        shown.map_err(|e| CoreError::Desktop(Arc::new(e)))
    }
}
