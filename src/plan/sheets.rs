//! Sheet components (boards, score pads, mats): page-sized ones on each home paper, boards
//! tiled across home paper (an assembly map, then labelled tiles), and each board whole on
//! one large sheet.

use super::{Body, Context, Document, Draw, Drawing, Plan, Printing};
use crate::diag::Failure;
use crate::job::BoardPaper;
use crate::layout::{ArtRef, Paper};
use crate::length::Length;
use crate::model::SheetSize;

/// Each sheet component on `paper`: page-sized ones as a page, boards tiled.
pub(super) fn on_paper(ctx: &Context, paper: Paper, plan: &mut Plan) {
    let (cat, lang) = (ctx.cat(), ctx.lang);
    for (i, sheet) in cat.sheets.iter().enumerate() {
        let size = sheet_size(sheet.size, paper);
        let document = match sheet.size {
            SheetSize::Page { .. } => Document {
                file: ctx.file(ctx.home_file(&sheet.id, paper.name())),
                title: format!(
                    "{} — {} ({})",
                    cat.name_in(lang),
                    cat.sheet_name_in(i, lang),
                    paper.name()
                ),
                body: Body::Pdf(Box::new(OnePage { sheet: i, paper, size })),
                printing: Printing::Simplex,
                cut: None,
                product: super::Product::Sheet { sheet: i },
                paper: Some(paper.name().to_string()),
            },
            SheetSize::Fixed { .. } => {
                let title = format!("{} — {}", cat.name_in(lang), cat.sheet_name_in(i, lang));
                Document {
                    file: ctx.file(ctx.home_file(&format!("{}-tiled", sheet.id), paper.name())),
                    title: format!("{title} (tiled on {})", paper.name()),
                    body: Body::Pdf(Box::new(Tiles { sheet: i, paper, size, title })),
                    printing: Printing::Simplex,
                    cut: None,
                    product: super::Product::TiledBoard { sheet: i },
                    paper: Some(paper.name().to_string()),
                }
            }
        };
        plan.documents.push(document);
    }
}

/// Each board on one large sheet, once whatever the home paper.
pub(super) fn large(ctx: &Context, plan: &mut Plan) {
    let (cat, lang) = (ctx.cat(), ctx.lang);
    for (i, sheet) in cat.sheets.iter().enumerate() {
        let SheetSize::Fixed { width, height } = sheet.size else { continue };
        let board_paper = ctx
            .job
            .print
            .board_paper
            .clone()
            .unwrap_or_else(|| smallest_board_paper((width, height)));
        plan.documents.push(Document {
            file: ctx.file(ctx.home_file(&sheet.id, &board_paper.name)),
            title: format!(
                "{} — {} ({})",
                cat.name_in(lang),
                cat.sheet_name_in(i, lang),
                board_paper.name
            ),
            paper: Some(board_paper.name.clone()),
            body: Body::Pdf(Box::new(Large { sheet: i, size: (width, height), board_paper })),
            printing: Printing::Simplex,
            cut: None,
            product: super::Product::LargeBoard { sheet: i },
        });
    }
}

/// A page-sized sheet, filled for its paper.
struct OnePage {
    sheet: usize,
    paper: Paper,
    size: (Length, Length),
}

impl Draw for OnePage {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        at.sheets_for(Some(self.paper))?;
        let art = ArtRef::Sheet { sheet: self.sheet };
        Ok(Box::new(vec![crate::layout::sheets::page(art, self.size)]))
    }
}

/// A board across home paper: a seam never cuts what its art keeps whole.
struct Tiles {
    sheet: usize,
    paper: Paper,
    size: (Length, Length),
    /// Printed on the assembly map.
    title: String,
}

impl Draw for Tiles {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        at.sheets_for(Some(self.paper))?;
        let keep = at
            .art
            .sheets
            .get(self.sheet)
            .map(|tree| crate::render::kept_whole(tree, self.size))
            .unwrap_or_default();
        let art = ArtRef::Sheet { sheet: self.sheet };
        let paper = self.paper.size();
        Ok(Box::new(crate::layout::sheets::tiles(art, self.size, paper, &self.title, &keep)))
    }
}

/// A board whole on a large sheet.
struct Large {
    sheet: usize,
    size: (Length, Length),
    board_paper: BoardPaper,
}

impl Draw for Large {
    fn pages(&self, at: &mut Drawing<'_, '_>) -> Result<Box<dyn crate::layout::Pages>, Failure> {
        at.sheets_for(None)?;
        let (art, paper) = (ArtRef::Sheet { sheet: self.sheet }, &self.board_paper);
        let large = crate::layout::sheets::large(art, self.size, paper.size, &paper.name)
            .map_err(Failure::Io)?;
        Ok(Box::new(vec![large]))
    }
}

/// A sheet component's size on `paper`: page-sized ones take the paper's.
pub fn sheet_size(size: SheetSize, paper: Paper) -> (Length, Length) {
    let (w, h) = paper.size();
    match size {
        SheetSize::Page { landscape: false } => (w, h),
        SheetSize::Page { landscape: true } => (h, w),
        SheetSize::Fixed { width, height } => (width, height),
    }
}

/// A3, A2 or A1: the first a board fits on with margins, either way round.
fn smallest_board_paper(board: (Length, Length)) -> BoardPaper {
    let papers = [("a3", 297.0, 420.0), ("a2", 420.0, 594.0), ("a1", 594.0, 841.0)];
    let (short, long) = if board.0 < board.1 { (board.0, board.1) } else { (board.1, board.0) };
    let fits = |w: f32, h: f32| short.to_mm() + 20.0 <= w && long.to_mm() + 20.0 <= h;
    let (name, w, h) = papers.iter().copied().find(|&(_, w, h)| fits(w, h)).unwrap_or(papers[2]);
    BoardPaper { name: name.to_string(), size: (Length::mm(w), Length::mm(h)) }
}
