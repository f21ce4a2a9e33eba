//! The window's backup and restore, on the core's threads (the command line calls
//! `backup::create` and `backup::restore` itself: no core runs there).

use std::path::PathBuf;

use super::{Manifest, Places, create, pending};
use crate::core::CoreError;
use crate::core::request::{Request, Services};

/// This computer's License Desk written to `out` (whole or not at all).
#[derive(Debug, Clone)]
pub struct Create {
    pub out: PathBuf,
    /// The window's state folder, carried too.
    pub window_dir: Option<PathBuf>,
}

impl Request for Create {
    type Reply = Manifest;

    async fn serve(self, services: Services) -> Result<Manifest, CoreError> {
        let places = places(&services, self.window_dir);
        let made = tokio::task::spawn_blocking(move || create(&places, &self.out));
        Ok(made.await??)
    }
}

/// A backup checked whole and named to be restored at the next start.
#[derive(Debug, Clone)]
pub struct PrepareRestore {
    pub file: PathBuf,
    pub window_dir: Option<PathBuf>,
}

impl Request for PrepareRestore {
    type Reply = Manifest;

    async fn serve(self, services: Services) -> Result<Manifest, CoreError> {
        let places = places(&services, self.window_dir);
        let checked = tokio::task::spawn_blocking(move || pending::prepare(&places, &self.file));
        Ok(checked.await??)
    }
}

fn places(services: &Services, window_dir: Option<PathBuf>) -> Places {
    let profiles = services.0.config_file("profiles.json");
    Places {
        config_dir: profiles.parent().map(PathBuf::from).unwrap_or_default(),
        data_dir: services.0.data_dir.clone(),
        window_dir,
    }
}
