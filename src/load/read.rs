//! Reading the files game.toml (or a shared deck.toml) names (templates, rows files and spreadsheets, the images
//! of `file` fields), each problem reported at the name that named the file.

use std::path::{Path, PathBuf};

use toml::Spanned;

use super::{spreadsheet, Loader, LIBRARY_DECK_TOML};
use crate::diag::Diagnostic;
use crate::model::{Field, FieldKind, Row, Template};
use crate::world::{ReadError, World};

impl Loader<'_> {
    pub(super) fn template_in(&mut self, world: &World, rel: &Spanned<String>) -> Option<Template> {
        let text = self.read_in(world, rel, "template")?;
        Some(Template {
            file: world.display_path(rel.get_ref()),
            text,
            world: world.clone(),
            name: rel.get_ref().clone(),
        })
    }

    /// The TOML file that names the files of `world`: a shared deck's own `deck.toml`, or
    /// the game's `game.toml`.
    fn toml_naming(&self, world: &World) -> PathBuf {
        if world.same_as(self.world) {
            self.game_toml.clone()
        } else {
            world.display_path(LIBRARY_DECK_TOML)
        }
    }

    /// A rows file's name in diagnostics and its text: a CSV file as it is, or a
    /// spreadsheet's sheet as CSV text, named `harbor.xlsx[market]` (two decks may read two
    /// sheets of one workbook) and placed by the sheet's rows. A problem is reported at
    /// the name.
    pub(super) fn read_rows(
        &mut self,
        world: &World,
        rel: &Spanned<String>,
        sheet: Option<&Spanned<String>>,
        linked: bool,
    ) -> Option<(PathBuf, String, Option<spreadsheet::Table>)> {
        let naming = self.toml_naming(world);
        if !spreadsheet::is_spreadsheet(rel.get_ref()) {
            if let Some(s) = sheet {
                self.error_in(
                    &naming,
                    s.span(),
                    "`sheet` names a sheet of a spreadsheet",
                    format!(
                        "`{}` is read as CSV; give an .xlsx or .ods file to read a sheet from",
                        rel.get_ref()
                    ),
                );
            }
            let file = world.display_path(rel.get_ref());
            let text = self.read_in(world, rel, "rows file")?;
            if !linked {
                return Some((file, text, None));
            }
            // A linked sheet's copy is named by the sheet's cells (C8), as the designer
            // sees them on the web, not by CSV lines (a cell may hold a line break).
            self.sources.insert_linked_csv(file.clone(), text.clone());
            let places = crate::diag::SheetPlaces::linked_csv(&text);
            return Some((file, text.clone(), Some(spreadsheet::Table { csv: text, places })));
        }
        let bytes = match world.read_bytes(rel.get_ref()) {
            Ok(b) => b,
            Err(e) => {
                self.error_in(
                    &naming,
                    rel.span(),
                    format!("cannot read rows file `{}`: {e}", rel.get_ref()),
                    format!(
                        "{}looked for {}",
                        world
                            .closest_file(rel.get_ref())
                            .map_or_else(String::new, |c| format!("did you mean `{c}`? ")),
                        world.display_path(rel.get_ref()).display()
                    ),
                );
                return None;
            }
        };
        match spreadsheet::read(&bytes, sheet.map(|s| s.get_ref().as_str())) {
            Ok(table) => {
                let mut name = world.display_path(rel.get_ref()).into_os_string();
                name.push(format!("[{}]", table.places.sheet));
                let file = PathBuf::from(name);
                self.sources.insert_sheet(file.clone(), table.csv.clone(), table.places.clone());
                Some((file, table.csv.clone(), Some(table)))
            }
            Err(problems) => {
                let span = sheet.map_or(rel.span(), |s| s.span());
                for problem in problems {
                    self.error_in(
                        &naming,
                        span.clone(),
                        format!("rows file `{}`: {problem}", rel.get_ref()),
                        "fix it in the spreadsheet and save it again",
                    );
                }
                None
            }
        }
    }

    /// Whether the rows of a deck or sheet can be read: always, unless they are the local
    /// copy of a linked sheet (`rows_url`) that is not there yet, said at the link with the
    /// command that downloads it. A link deckpress would not fetch is an error at it too.
    pub(super) fn local_copy(
        &mut self,
        world: &World,
        rows: Option<&Spanned<String>>,
        url: Option<&Spanned<String>>,
    ) -> bool {
        let Some(url) = url else { return true };
        let Some(rows) = rows else {
            self.error(
                url.span(),
                "`rows_url` needs `rows`, the local copy every command reads",
                "name it beside the link: `rows = \"cards.csv\"` (or `.xlsx`, `.ods`); `deckpress fetch` writes it",
            );
            return true;
        };
        if let Err(why) = crate::link::parse(url.get_ref(), rows.get_ref()) {
            self.error(url.span(), why, "publish the sheet (File › Share › Publish to web) and copy its link, or its address bar's link");
        }
        let present =
            world.non_folders_in(parent_of(rows.get_ref())).iter().any(|f| f == rows.get_ref());
        if !present {
            self.error(
                url.span(),
                format!("the local copy `{}` of this linked sheet is not there yet", rows.get_ref()),
                format!("run `deckpress fetch {}` to download it; every other command reads only the copy", self.world.root().display()),
            );
        }
        present
    }

    /// Reads a file named in game.toml or a deck.toml; a problem is reported at the name.
    fn read_in(&mut self, world: &World, rel: &Spanned<String>, what: &str) -> Option<String> {
        match world.read_text(rel.get_ref()) {
            Ok(text) => {
                self.sources.insert(world.display_path(rel.get_ref()), text.clone());
                Some(text)
            }
            Err(e) => {
                let path = world.display_path(rel.get_ref());
                let naming = self.toml_naming(world);
                let bytes = world.read_bytes(rel.get_ref()).ok();
                let (message, note) = match (&e, bytes) {
                    // What a spreadsheet program saves, named for what it is.
                    (ReadError::NotUtf8, Some(b)) if b.starts_with(b"PK\x03\x04") || b.starts_with(b"\xd0\xcf\x11\xe0") => (
                        format!("{what} `{}` is a spreadsheet (.xlsx or .ods) saved under a .csv name", rel.get_ref()),
                        "give it its own extension (`rows = \"cards.xlsx\"`): deckpress reads spreadsheets directly".to_string(),
                    ),
                    (ReadError::NotUtf8, Some(b)) => {
                        let bad = std::str::from_utf8(&b).err().map_or(0, |e| e.valid_up_to());
                        let before = String::from_utf8_lossy(&b[..bad]);
                        let line = before.matches('\n').count() + 1;
                        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                        let guess = if b[bad] >= 0xa0 { format!(" (in Windows-1252, the encoding Excel uses on Windows, byte 0x{:02X} is `{}`)", b[bad], char::from(b[bad])) } else { String::new() };
                        (
                            format!("{what} `{}` is not UTF-8 text: line {line}, column {column} has byte 0x{:02X}{guess}", rel.get_ref(), b[bad]),
                            "save it as \"CSV UTF-8\" (Excel: File › Save As › CSV UTF-8), or give deckpress the .xlsx itself".to_string(),
                        )
                    }
                    _ => {
                        let meant = world.closest_file(rel.get_ref()).map_or_else(String::new, |c| format!("did you mean `{c}`? "));
                        (format!("cannot read {what} `{}`: {e}", rel.get_ref()), format!("{meant}looked for {}", path.display()))
                    }
                };
                self.error_in(&naming, rel.span(), message, note);
                None
            }
        }
    }

    /// Every cell of a `file` field names an image inside the catalogue that decodes;
    /// a problem is reported at the cell.
    pub(super) fn check_files(
        &mut self,
        world: &World,
        file: &Path,
        rows: &[Row],
        fields: &[Field],
    ) {
        let file_fields: Vec<&str> =
            fields.iter().filter(|f| f.kind == FieldKind::File).map(|f| f.name.as_str()).collect();
        for row in rows {
            for &name in &file_fields {
                let value = row.value(name);
                if value.is_empty() {
                    continue;
                }
                if let Err(why) = crate::images::load(world, value, &self.checked) {
                    let mut d = Diagnostic::new(file, row.spans.get(name), why.message)
                        .with_note(format!("in field `{name}` of card `{}`", row.id));
                    if let Some(hint) = why.hint {
                        d = d.with_note(hint);
                    }
                    self.diags.push(d);
                }
            }
        }
    }

    /// The cell separator a deck or sheet gives for its rows file; `,` by default.
    pub(super) fn delimiter(&mut self, raw: Option<&Spanned<String>>) -> u8 {
        match raw.map(|d| (d.get_ref().as_str(), d.span())) {
            None | Some((",", _)) => b',',
            Some((";", _)) => b';',
            Some(("\t", _)) => b'\t',
            Some((other, span)) => {
                self.error(
                    span,
                    format!("unknown delimiter `{}`", other.escape_default()),
                    "use `\",\"` (the default), `\";\"` or `\"\\t\"` (a tab)",
                );
                b','
            }
        }
    }
}

/// The folder part of a path relative to the catalogue (`""` for a file at its root).
fn parent_of(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(dir, _)| dir)
}
