//! Chinese text: a GB2312 subset of Noto Sans SC (OFL, `assets/`), built into the binary and
//! added after egui's own fonts, so Latin text keeps egui's look and every Chinese character
//! of everyday use renders the same on every machine. Rarer characters fall back to the
//! system's fonts (eframe's `system_fonts`).

use egui::epaint::text::{FontInsert, FontPriority, InsertFontFamily};
use egui::{FontData, FontFamily};

pub const CJK_FONT: &[u8] = include_bytes!("../../../assets/NotoSansSC-GB2312.otf");

/// What a window's context needs before its first frame: the fonts, the icons' loader and the
/// light theme (the test and bench harnesses, which make their own context).
pub fn install_with_theme(ctx: &egui::Context) {
    install(ctx);
    super::icon::install(ctx);
    super::theme::install(ctx, super::theme::ThemeChoice::Light);
}

pub fn install(ctx: &egui::Context) {
    let families = [FontFamily::Proportional, FontFamily::Monospace]
        .into_iter()
        .map(|family| InsertFontFamily {
            family,
            priority: FontPriority::Lowest,
        })
        .collect();
    ctx.add_font(FontInsert {
        name: "noto-sans-sc".to_owned(),
        data: FontData::from_static(CJK_FONT),
        families,
    });
}
