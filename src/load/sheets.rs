//! Sheets: `[[sheet]]` tables (score pads, boards, mats), their own or shared templates
//! and the rows they fill.

use std::path::PathBuf;

use toml::Spanned;

use super::decks::Bounds;
use super::{game_toml, rows, Kind, Loader, LIBRARY_TEMPLATE};
use crate::diag::accepted;
use crate::model::{Field, Row, SheetDef, SheetSize, Template};

impl Loader<'_> {
    /// The rows a `[[sheet]]` fills (`rows = …`, with its `fields`, `delimiter` and
    /// spreadsheet `sheet`): read, parsed against the game's fields, their files checked;
    /// and the file's name as diagnostics give it. Unreadable rows are reported, none kept.
    pub(super) fn sheet_rows(
        &mut self,
        raw: &game_toml::RawSheet,
        rel: &Spanned<String>,
        fields: &[Field],
        kind: Kind,
        id: &str,
    ) -> (Vec<Row>, PathBuf) {
        let world = self.world.clone();
        let mut file = world.display_path(rel.get_ref());
        let required = self.required_fields(raw.fields.as_deref(), fields);
        let delimiter = self.delimiter(raw.delimiter.as_ref());
        let here = self.local_copy(&world, Some(rel), raw.rows_url.as_ref());
        let linked = raw.rows_url.is_some() && raw.delimiter.is_none();
        let rows = match here
            .then(|| self.read_rows(&world, rel, raw.sheet_name.as_ref(), linked))
            .flatten()
        {
            Some((named, text, sheet)) => {
                file = named;
                let table = rows::parse_rows(
                    &file,
                    &text,
                    fields,
                    required.as_deref(),
                    delimiter,
                    sheet.as_ref().map(|t| &t.places),
                    &mut self.diags,
                );
                if !table.columns.is_empty() {
                    self.columns.insert((kind, id.to_string()), table.columns);
                }
                table.rows
            }
            None => Vec::new(),
        };
        self.check_files(&world, &file, &rows, fields);
        (rows, file)
    }

    pub(super) fn sheet(
        &mut self,
        spanned: &Spanned<game_toml::RawSheet>,
        fields: &[Field],
    ) -> Option<SheetDef> {
        let raw = spanned.get_ref();
        let id = raw.id.get_ref().clone();
        let game_toml = self.game_toml.clone();
        let size = match (&raw.page, &raw.width, &raw.height) {
            (Some(page), None, None) => match page.get_ref().as_str() {
                "portrait" => SheetSize::Page { landscape: false },
                "landscape" => SheetSize::Page { landscape: true },
                other => {
                    self.error(
                        page.span(),
                        format!("unknown page `{other}`"),
                        format!("use {}", accepted(["portrait", "landscape"])),
                    );
                    return None;
                }
            },
            (None, Some(w), Some(h)) => {
                let bounds = Bounds {
                    what: "sheet",
                    max_mm: 2000.0,
                    range_note: "sheets are 10mm to 2000mm on a side",
                    example: "sizes look like `420mm`",
                };
                let width = self.length_within(w, &game_toml, &bounds);
                let height = self.length_within(h, &game_toml, &bounds);
                SheetSize::Fixed { width: width?, height: height? }
            }
            (Some(page), _, _) => {
                self.error(page.span(), format!("sheet `{id}` has both `page` and a `width` or `height`"), "keep `page` for a sheet the size of the paper, or `width` and `height` for a fixed size (a board)");
                return None;
            }
            _ => {
                self.error(spanned.span(), format!("sheet `{id}` needs a size"), "give `page = \"portrait\"` or `\"landscape\"` (the paper), or `width` and `height`");
                return None;
            }
        };
        let template = match (&raw.template, &raw.from) {
            (Some(rel), None) => self.template_in(&self.world.clone(), rel),
            (None, Some(name)) => self.library_template(name),
            _ => {
                self.error(spanned.span(), format!("sheet `{id}` needs one template"), "give `template = \"templates/x.svg\"` or a shared template with `from = \"score-pad\"`");
                None
            }
        };
        let (rows, rows_file) = match &raw.rows {
            Some(rel) => self.sheet_rows(raw, rel, fields, Kind::Sheet, &id),
            None => {
                self.local_copy(&self.world.clone(), None, raw.rows_url.as_ref());
                self.columns.insert((Kind::Sheet, id.clone()), Vec::new());
                (Vec::new(), game_toml.clone())
            }
        };
        Some(SheetDef {
            id: id.clone(),
            name: raw.name.clone().unwrap_or(id),
            size,
            template: template?,
            rows,
            rows_file,
            data: raw.data.clone().unwrap_or_default(),
        })
    }

    /// `library/NAME/template.svg`, a general sheet template (score pads, mats).
    fn library_template(&mut self, name: &Spanned<String>) -> Option<Template> {
        let rel = format!("{}/{LIBRARY_TEMPLATE}", name.get_ref());
        match (self.library.read_text(&rel), self.library.sub(name.get_ref())) {
            (Ok(text), Some(world)) => {
                let file = self.library.display_path(&rel);
                self.sources.insert(file.clone(), text.clone());
                Some(Template { file, text, world, name: "template.svg".to_string() })
            }
            _ => {
                self.no_library_entry(name, LIBRARY_TEMPLATE, "shared sheet template");
                None
            }
        }
    }
}
