//! The design tokens: colours of the light and dark themes, the type scale, spacing and radii,
//! and the egui styles built from them. Screens take colours and sizes from here, never their
//! own, so both themes stay readable (a unit test checks every text/background pair against
//! WCAG AA) and a change of look is made once.
//!
//! The colours follow Ant Design's palette, which the branch staff know from their other
//! business software, darkened where its stock shade misses 4.5:1 for text.

use egui::{Color32, CornerRadius, FontFamily, FontId, Stroke, TextStyle, Theme, Vec2};
use serde::{Deserialize, Serialize};

/// The colours of one theme, each named for its use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// The window behind panels.
    pub surface: Color32,
    /// Side and top panels.
    pub panel: Color32,
    /// Cards, dialogs and fields.
    pub card: Color32,
    /// Every other row of a table.
    pub zebra: Color32,
    pub border: Color32,
    pub text: Color32,
    /// Help under fields, stamps, secondary facts.
    pub muted: Color32,
    /// The one main action's fill, and links.
    pub primary: Color32,
    pub on_primary: Color32,
    /// Text in the primary colour on a card or the surface (links, selected tabs).
    pub primary_text: Color32,
    /// What destroys: the fill of its button.
    pub danger: Color32,
    pub on_danger: Color32,
    /// Problems and refusals written on a card or the surface.
    pub danger_text: Color32,
    pub warning_text: Color32,
    pub success_text: Color32,
    /// The Sandbox's mark, calm; production's is `danger`.
    pub sandbox: Color32,
    /// A remote profile that is not production.
    pub remote: Color32,
    /// Text on the profile marks (`sandbox`, `remote`, `danger`).
    pub on_mark: Color32,
    /// The focus ring and the selection.
    pub focus: Color32,
}

pub const LIGHT: Palette = Palette {
    surface: Color32::from_rgb(0xf5, 0xf5, 0xf5),
    panel: Color32::from_rgb(0xfa, 0xfa, 0xfa),
    card: Color32::WHITE,
    zebra: Color32::from_rgb(0xf0, 0xf3, 0xf7),
    border: Color32::from_rgb(0xd0, 0xd0, 0xd0),
    text: Color32::from_rgb(0x1f, 0x1f, 0x1f),
    muted: Color32::from_rgb(0x59, 0x59, 0x59),
    primary: Color32::from_rgb(0x09, 0x58, 0xd9),
    on_primary: Color32::WHITE,
    primary_text: Color32::from_rgb(0x09, 0x58, 0xd9),
    danger: Color32::from_rgb(0xcf, 0x13, 0x22),
    on_danger: Color32::WHITE,
    danger_text: Color32::from_rgb(0xcf, 0x13, 0x22),
    warning_text: Color32::from_rgb(0x87, 0x4d, 0x00),
    success_text: Color32::from_rgb(0x23, 0x78, 0x04),
    sandbox: Color32::from_rgb(0x23, 0x78, 0x04),
    remote: Color32::from_rgb(0x09, 0x58, 0xd9),
    on_mark: Color32::WHITE,
    focus: Color32::from_rgb(0x09, 0x58, 0xd9),
};

pub const DARK: Palette = Palette {
    surface: Color32::from_rgb(0x14, 0x14, 0x14),
    panel: Color32::from_rgb(0x1b, 0x1b, 0x1b),
    card: Color32::from_rgb(0x24, 0x24, 0x24),
    zebra: Color32::from_rgb(0x2a, 0x2d, 0x33),
    border: Color32::from_rgb(0x48, 0x48, 0x48),
    text: Color32::from_rgb(0xe8, 0xe8, 0xe8),
    muted: Color32::from_rgb(0xa8, 0xa8, 0xa8),
    primary: Color32::from_rgb(0x16, 0x68, 0xdc),
    on_primary: Color32::WHITE,
    primary_text: Color32::from_rgb(0x69, 0xb1, 0xff),
    danger: Color32::from_rgb(0xa6, 0x1d, 0x24),
    on_danger: Color32::WHITE,
    danger_text: Color32::from_rgb(0xff, 0x7a, 0x75),
    warning_text: Color32::from_rgb(0xe8, 0xb3, 0x39),
    success_text: Color32::from_rgb(0x8f, 0xd4, 0x60),
    sandbox: Color32::from_rgb(0x23, 0x78, 0x04),
    remote: Color32::from_rgb(0x16, 0x68, 0xdc),
    on_mark: Color32::WHITE,
    focus: Color32::from_rgb(0x69, 0xb1, 0xff),
};

/// A chart's groups, the same colour in the bars and the legend (distinct on both themes);
/// the groups beyond them in grey.
pub const SERIES: [Color32; 6] = [
    Color32::from_rgb(0x3b, 0x82, 0xc4),
    Color32::from_rgb(0xe0, 0x8a, 0x2e),
    Color32::from_rgb(0x4c, 0xa8, 0x5a),
    Color32::from_rgb(0xc4, 0x4e, 0x52),
    Color32::from_rgb(0x8c, 0x6b, 0xc2),
    Color32::from_rgb(0x2f, 0xa5, 0xa5),
];
pub const SERIES_REST: Color32 = Color32::from_rgb(0x9a, 0x9a, 0x9a);

/// The type scale, in points. Chinese text is never under 14.
pub mod size {
    pub const TITLE: f32 = 22.0;
    pub const SECTION: f32 = 17.0;
    pub const BODY: f32 = 14.0;
    pub const SMALL: f32 = 14.0;
    pub const MONO: f32 = 14.0;
}

/// Spacing, in points.
pub mod space {
    pub const XS: f32 = 4.0;
    pub const S: f32 = 8.0;
    pub const M: f32 = 12.0;
    pub const L: f32 = 16.0;
    pub const XL: f32 = 24.0;
}

/// Corner radii.
pub mod radius {
    pub const CONTROL: u8 = 4;
    pub const CARD: u8 = 6;
}

/// The theme the user chose in Settings: the OS's by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThemeChoice {
    #[default]
    System,
    Light,
    Dark,
}

impl ThemeChoice {
    fn preference(self) -> egui::ThemePreference {
        match self {
            Self::System => egui::ThemePreference::System,
            Self::Light => egui::ThemePreference::Light,
            Self::Dark => egui::ThemePreference::Dark,
        }
    }
}

/// The palette of the theme `ui` is drawn in.
pub fn palette(ui: &egui::Ui) -> &'static Palette {
    palette_of(ui.visuals().dark_mode)
}

pub fn palette_of(dark: bool) -> &'static Palette {
    if dark { &DARK } else { &LIGHT }
}

/// Both themes' styles built from the tokens, and the user's choice between them.
pub fn install(ctx: &egui::Context, choice: ThemeChoice) {
    ctx.set_style_of(Theme::Light, style(Theme::Light));
    ctx.set_style_of(Theme::Dark, style(Theme::Dark));
    choose(ctx, choice);
}

pub fn choose(ctx: &egui::Context, choice: ThemeChoice) {
    ctx.options_mut(|o| {
        o.theme_preference = choice.preference();
        // An OS that does not say (X11 without a portal) gets the light theme of the business
        // software the users know.
        o.fallback_theme = Theme::Light;
    });
}

fn style(theme: Theme) -> egui::Style {
    let mut style = egui::Style {
        visuals: visuals(theme),
        ..egui::Style::default()
    };
    style.text_styles = [
        (TextStyle::Heading, FontId::proportional(size::TITLE)),
        (TextStyle::Body, FontId::proportional(size::BODY)),
        (TextStyle::Button, FontId::proportional(size::BODY)),
        (TextStyle::Small, FontId::proportional(size::SMALL)),
        (
            TextStyle::Monospace,
            FontId::new(size::MONO, FontFamily::Monospace),
        ),
    ]
    .into();
    let spacing = &mut style.spacing;
    spacing.item_spacing = Vec2::new(space::S, 6.0);
    spacing.button_padding = Vec2::new(space::S, 4.0);
    spacing.interact_size.y = 26.0;
    spacing.menu_margin = egui::Margin::same(space::S as i8);
    style
}

fn visuals(theme: Theme) -> egui::Visuals {
    let p = palette_of(theme == Theme::Dark);
    let mut v = match theme {
        Theme::Dark => egui::Visuals::dark(),
        Theme::Light => egui::Visuals::light(),
    };
    v.panel_fill = p.panel;
    v.window_fill = p.card;
    v.window_stroke = Stroke::new(1.0, p.border);
    v.extreme_bg_color = p.card;
    v.text_edit_bg_color = Some(p.card);
    v.faint_bg_color = p.zebra;
    v.code_bg_color = p.zebra;
    v.hyperlink_color = p.primary_text;
    v.error_fg_color = p.danger_text;
    v.warn_fg_color = p.warning_text;
    v.weak_text_color = Some(p.muted);
    v.selection.stroke = Stroke::new(1.0, p.focus);
    v.selection.bg_fill = p.focus.gamma_multiply(0.35);
    v.window_corner_radius = CornerRadius::same(radius::CARD);
    v.menu_corner_radius = CornerRadius::same(radius::CARD);
    let w = &mut v.widgets;
    w.noninteractive.fg_stroke = Stroke::new(1.0, p.text);
    w.noninteractive.bg_stroke = Stroke::new(1.0, p.border);
    w.inactive.fg_stroke = Stroke::new(1.0, p.text);
    w.inactive.bg_stroke = Stroke::new(1.0, p.border);
    w.inactive.weak_bg_fill = p.card;
    w.hovered.fg_stroke = Stroke::new(1.0, p.text);
    w.hovered.bg_stroke = Stroke::new(1.0, p.primary_text);
    w.active.fg_stroke = Stroke::new(1.0, p.text);
    // A widget with the keyboard's focus is drawn "active": this is the visible focus ring,
    // and the tint that still shows in menus, whose style takes the ring away.
    w.active.bg_stroke = Stroke::new(2.0, p.focus);
    w.active.weak_bg_fill = p.focus.gamma_multiply(0.35);
    for state in [
        &mut w.noninteractive,
        &mut w.inactive,
        &mut w.hovered,
        &mut w.active,
    ] {
        state.corner_radius = CornerRadius::same(radius::CONTROL);
    }
    w.open.corner_radius = CornerRadius::same(radius::CONTROL);
    v
}

/// WCAG 2.x contrast ratio of two opaque colours (1 to 21).
pub fn contrast(a: Color32, b: Color32) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

fn luminance(c: Color32) -> f32 {
    let channel = |v: u8| {
        let s = f32::from(v) / 255.0;
        if s <= 0.039_28 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(c.r()) + 0.7152 * channel(c.g()) + 0.0722 * channel(c.b())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Body text (4.5:1) on every background it is written on, in both themes.
    #[test]
    fn every_text_reaches_wcag_aa_on_its_backgrounds() {
        for (name, p) in [("light", &LIGHT), ("dark", &DARK)] {
            let texts = [
                ("text", p.text),
                ("muted", p.muted),
                ("primary_text", p.primary_text),
                ("danger_text", p.danger_text),
                ("warning_text", p.warning_text),
                ("success_text", p.success_text),
            ];
            let grounds = [
                ("surface", p.surface),
                ("panel", p.panel),
                ("card", p.card),
                ("zebra", p.zebra),
            ];
            for (text, fg) in texts {
                for (ground, bg) in grounds {
                    let ratio = contrast(fg, bg);
                    assert!(ratio >= 4.5, "{name}: {text} on {ground} is {ratio:.2}:1");
                }
            }
            let fills = [
                ("on_primary/primary", p.on_primary, p.primary),
                ("on_danger/danger", p.on_danger, p.danger),
                ("on_mark/sandbox", p.on_mark, p.sandbox),
                ("on_mark/remote", p.on_mark, p.remote),
            ];
            for (pair, fg, bg) in fills {
                let ratio = contrast(fg, bg);
                assert!(ratio >= 4.5, "{name}: {pair} is {ratio:.2}:1");
            }
        }
    }

    /// The focus ring against what it is drawn on: 3:1, as WCAG asks of what identifies a
    /// component's state.
    #[test]
    fn the_focus_ring_stands_out_at_3_to_1() {
        for (name, p) in [("light", &LIGHT), ("dark", &DARK)] {
            for (ground, bg) in [("panel", p.panel), ("card", p.card), ("zebra", p.zebra)] {
                let ratio = contrast(p.focus, bg);
                assert!(ratio >= 3.0, "{name}: focus on {ground} is {ratio:.2}:1");
            }
        }
    }

    #[test]
    fn contrast_is_that_of_wcag() {
        assert!((contrast(Color32::BLACK, Color32::WHITE) - 21.0).abs() < 0.01);
        assert!((contrast(Color32::WHITE, Color32::WHITE) - 1.0).abs() < 0.01);
        // #767676 on white is the classic 4.54:1.
        let grey = Color32::from_rgb(0x76, 0x76, 0x76);
        assert!((contrast(grey, Color32::WHITE) - 4.54).abs() < 0.01);
    }
}
