// deckpress patch: parsed font faces shared by every text of the process.
//
// usvg parsed a face (its table directory, GSUB and GPOS lookups) for each run of text it
// shaped, and again for each distinct glyph of each tree it outlined (once to look for a
// colour glyph, an SVG glyph, a bitmap and then the outline): 7,717 parses for a 62-card
// deck, a third of its text layout. A face whose bytes are held in memory
// (`Source::Binary`, every font deckpress loads) is now parsed once, and its glyph
// outlines are made once; a face read from a file is parsed as before.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use fontdb::{Database, Source, ID};
use rustybuzz::ttf_parser::{self, GlyphId};

self_cell::self_cell!(
    /// A face parsed from the bytes it borrows, kept together.
    struct SharedFace {
        owner: FontBytes,
        #[covariant]
        dependent: ShaperFace,
    }
);

type FontBytes = Arc<dyn AsRef<[u8]> + Send + Sync>;
type ShaperFace<'a> = rustybuzz::Face<'a>;

/// One parsed face, and the outlines of its glyphs (default instance) made so far.
pub(crate) struct Parsed {
    face: SharedFace,
    outlines: Mutex<HashMap<u16, Option<tiny_skia_path::Path>>>,
}

impl Parsed {
    fn face(&self) -> &rustybuzz::Face<'_> {
        self.face.borrow_dependent()
    }

    pub(crate) fn is_variable(&self) -> bool {
        self.face().is_variable()
    }

    /// Shapes `buffer` as `rustybuzz::shape` does with this face, with a plan made once per
    /// thread for each direction, script, language and features.
    pub(crate) fn shape(self: &Arc<Self>, features: &[rustybuzz::Feature], mut buffer: rustybuzz::UnicodeBuffer) -> rustybuzz::GlyphBuffer {
        buffer.guess_segment_properties();
        // `shape` plans for the buffer's script as guessed, which is never `UNKNOWN`: unset.
        let script = Some(buffer.script()).filter(|s| *s != rustybuzz::script::UNKNOWN);
        let wanted = PlanFor { direction: buffer.direction(), script, language: buffer.language(), features: features.to_vec() };
        let plan = PLANS.with(|plans| {
            let mut plans = plans.borrow_mut();
            if plans.len() >= MAX_FACES {
                plans.clear();
            }
            let (_, made) = plans.entry(Arc::as_ptr(self) as usize).or_insert_with(|| (self.clone(), Vec::new()));
            if let Some((_, plan)) = made.iter().find(|(made_for, _)| *made_for == wanted) {
                return plan.clone();
            }
            let plan = std::rc::Rc::new(rustybuzz::ShapePlan::new(self.face(), wanted.direction, wanted.script, wanted.language.as_ref(), &wanted.features));
            made.push((wanted, plan.clone()));
            plan
        });
        rustybuzz::shape_with_plan(self.face(), &plan, buffer)
    }

    /// The glyph's outline at the face's default variation, made once.
    pub(crate) fn outline(&self, glyph: GlyphId, make: impl FnOnce(&ttf_parser::Face<'_>) -> Option<tiny_skia_path::Path>) -> Option<tiny_skia_path::Path> {
        if let Some(found) = self.outlines.lock().ok()?.get(&glyph.0) {
            return found.clone();
        }
        let made = make(self.face());
        self.outlines.lock().ok()?.insert(glyph.0, made.clone());
        made
    }
}

/// Faces are keyed by the address of their bytes and their index in the file. The cache
/// holds an `Arc` of those bytes, so that no other font can ever take their address.
type Faces = Mutex<HashMap<(usize, u32), Arc<Parsed>>>;
static FACES: OnceLock<Faces> = OnceLock::new();

/// More distinct faces than this (a long `watch` session reloading a designer's fonts)
/// empties the cache rather than letting it grow.
const MAX_FACES: usize = 256;

/// The shared parse of face `id`, or `None` for a face that is read from a file or does
/// not parse (callers then do as usvg always did).
pub(crate) fn parsed(db: &Database, id: ID) -> Option<Arc<Parsed>> {
    let (Source::Binary(data), index) = db.face_source(id)? else {
        return None;
    };
    let key = ((*data).as_ref().as_ptr() as usize, index);
    let faces = FACES.get_or_init(Default::default);
    if let Some(found) = faces.lock().ok()?.get(&key) {
        return Some(found.clone());
    }
    let face = SharedFace::try_new(data, |data| rustybuzz::Face::from_slice((**data).as_ref(), index).ok_or(())).ok()?;
    let parsed = Arc::new(Parsed { face, outlines: Mutex::default() });
    let mut faces = faces.lock().ok()?;
    if faces.len() >= MAX_FACES {
        faces.clear();
    }
    Some(faces.entry(key).or_insert(parsed).clone())
}

/// Runs `f` on face `id`: the shared parse when there is one, else a parse of its own.
pub(crate) fn with_face<T>(db: &Database, id: ID, f: impl FnOnce(&ttf_parser::Face<'_>) -> Option<T>) -> Option<T> {
    match parsed(db, id) {
        Some(parsed) => f(parsed.face().as_ref()),
        None => db.with_face_data(id, |data, index| f(&ttf_parser::Face::parse(data, index).ok()?))?,
    }
}

/// The same with the face as a shaper, and its shared parse when there is one (which
/// keeps shaping plans).
pub(crate) fn with_shaper<T>(db: &Database, id: ID, f: impl FnOnce(&rustybuzz::Face<'_>, Option<&Arc<Parsed>>) -> Option<T>) -> Option<T> {
    match parsed(db, id) {
        Some(parsed) => f(parsed.face(), Some(&parsed)),
        None => db.with_face_data(id, |data, index| f(&rustybuzz::Face::from_slice(data, index)?, None))?,
    }
}

/// What a shaping plan is made for, besides the face.
#[derive(PartialEq)]
struct PlanFor {
    direction: rustybuzz::Direction,
    script: Option<rustybuzz::Script>,
    language: Option<rustybuzz::Language>,
    features: Vec<rustybuzz::Feature>,
}

std::thread_local! {
    /// Shaping plans made on this thread, per shared face (kept alive here, so its address
    /// is not reused): a plan is most of the cost of shaping a short run. Plans cannot be
    /// shared between threads (`ShapePlan` is not `Send`).
    static PLANS: std::cell::RefCell<HashMap<usize, (Arc<Parsed>, Vec<(PlanFor, std::rc::Rc<rustybuzz::ShapePlan>)>)>> = Default::default();
}
