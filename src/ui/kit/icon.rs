//! Icons beside the words of the main actions: Phosphor's regular set (MIT,
//! `assets/icons/`), drawn as SVG through egui's image loaders and tinted with the button's
//! text colour. Images rather than an icon font, so that a button's accessible name stays its
//! words alone (a font's glyph would be read out as part of it).

use egui::{Image, ImageSource, include_image};

/// The side of an icon, in points: the body text's height.
const SIDE: f32 = 16.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    Send,
    Save,
    Refresh,
    Search,
    Delete,
    Lock,
    Unlock,
    Bind,
    Create,
    Edit,
    Claim,
    List,
    SignIn,
    Approve,
    Reject,
    Export,
    Import,
    Numbers,
    Go,
}

impl Icon {
    fn source(self) -> ImageSource<'static> {
        match self {
            Icon::Send => include_image!("../../../assets/icons/paper-plane-tilt.svg"),
            Icon::Save => include_image!("../../../assets/icons/floppy-disk.svg"),
            Icon::Refresh => include_image!("../../../assets/icons/arrow-clockwise.svg"),
            Icon::Search => include_image!("../../../assets/icons/magnifying-glass.svg"),
            Icon::Delete => include_image!("../../../assets/icons/trash.svg"),
            Icon::Lock => include_image!("../../../assets/icons/lock-simple.svg"),
            Icon::Unlock => include_image!("../../../assets/icons/lock-simple-open.svg"),
            Icon::Bind => include_image!("../../../assets/icons/link.svg"),
            Icon::Create => include_image!("../../../assets/icons/plus.svg"),
            Icon::Edit => include_image!("../../../assets/icons/pencil-simple.svg"),
            Icon::Claim => include_image!("../../../assets/icons/gift.svg"),
            Icon::List => include_image!("../../../assets/icons/list-bullets.svg"),
            Icon::SignIn => include_image!("../../../assets/icons/sign-in.svg"),
            Icon::Approve => include_image!("../../../assets/icons/check.svg"),
            Icon::Reject => include_image!("../../../assets/icons/x-circle.svg"),
            Icon::Export => include_image!("../../../assets/icons/download-simple.svg"),
            Icon::Import => include_image!("../../../assets/icons/upload-simple.svg"),
            Icon::Numbers => include_image!("../../../assets/icons/hash.svg"),
            Icon::Go => include_image!("../../../assets/icons/arrow-right.svg"),
        }
    }

    /// The icon at the body text's size, white, for a tint to colour.
    pub fn image(self) -> Image<'static> {
        Image::new(self.source()).fit_to_exact_size(egui::vec2(SIDE, SIDE))
    }
}

/// What the window needs to draw the icons: egui's SVG loader.
pub fn install(ctx: &egui::Context) {
    egui_extras::install_image_loaders(ctx);
}
