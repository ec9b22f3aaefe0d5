//! Drawing to a non-page context.
//!
//! In 90% of the cases, you will not have to use streams. In most cases,
//! all you need to do when using this crate is to first construct a document,
//! and then add new pages to the document and use the [`Page::surface`] method to get
//! access to the drawing context. However, there are cases when you don't want to
//! draw on the main page surface, but instead you want to create a "sub-surface"
//! where you can draw independently of the main page contents. This is what streams
//! are there for. Currently, there are only two situations where you need to do that:
//!
//! - When using masks and defining the contents of the mask.
//! - When using a pattern fill or stroke and defining the contents of the pattern.
//!
//! If you want to do any of the two above, you need to call the [`Surface::stream_builder`] method
//! of the current surface. The stream builder represents a kind of sub-context that is
//! independent of the main surface you are working with. Once you have a stream builder, you
//! can once again invoke the [`StreamBuilder::surface`] method, and use this new surface to define the contents
//! of your mask/pattern. In the end, you can call [`StreamBuilder::finish`] which will return a [`Stream`] object.
//! This [`Stream`] object contains the encoded instructions of the mask/pattern, which you can
//! then use to create new [`Pattern`]/[`Mask`] objects.
//!
//! [`Page::surface`]: crate::page::Page::surface
//! [`Surface::stream_builder`]: crate::surface::Surface::stream_builder
//! [`Pattern`]: crate::graphics::paint::Pattern
//! [`Mask`]: crate::graphics::mask::Mask

use std::borrow::Cow;
use std::ops::DerefMut;

use flate2::Compression;
use pdf_writer::{Array, Dict, Name};

use crate::chunk_container::ChunkContainer;
use crate::configure::ValidationError;
use crate::content::ContentBuilder;
use crate::geom::{Rect, Transform};
use crate::resource::{ResourceDictionary, ResourceDictionaryBuilder};
use crate::serialize::SerializeContext;
use crate::surface::Surface;
use crate::SerializeSettings;

/// A stream.
///
/// See the module description for an explanation of its purpose.
// The only reason we implement clone for this type is that in some cases,
// we might need to clone a pattern (including its stream)
#[derive(Debug, Hash, Eq, PartialEq, Clone)]
pub struct Stream {
    pub(crate) content: Vec<u8>,
    pub(crate) bbox: Rect,
    // Important: Each object that uses a stream must ensure to pass on the validation
    // errors to the `SerializeContext` at some point. Currently, only `Mask`,
    // `TilingPattern`, `InternalPage` and `XObject` require that.
    pub(crate) validation_errors: Vec<ValidationError>,
    pub(crate) resource_dictionary: ResourceDictionary,
    pub(crate) uses_mask: bool,
}

impl Stream {
    pub(crate) fn new(
        content: Vec<u8>,
        bbox: Rect,
        validation_errors: Vec<ValidationError>,
        resource_dictionary: ResourceDictionary,
        uses_mask: bool,
    ) -> Self {
        Self {
            content,
            bbox,
            validation_errors,
            resource_dictionary,
            uses_mask,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.content.is_empty()
    }

    pub(crate) fn empty() -> Self {
        Self {
            content: vec![],
            bbox: Rect::from_xywh(0.0, 0.0, 0.0, 0.0).unwrap(),
            validation_errors: vec![],
            resource_dictionary: ResourceDictionaryBuilder::new().finish(),
            uses_mask: false,
        }
    }
}

/// A builder to create streams.
pub struct StreamBuilder<'a> {
    sc: &'a mut SerializeContext,
    chunk_container: &'a mut ChunkContainer,
    stream: Stream,
}

impl<'a> StreamBuilder<'a> {
    pub(crate) fn new(
        sc: &'a mut SerializeContext,
        chunk_container: &'a mut ChunkContainer,
    ) -> Self {
        Self {
            sc,
            chunk_container,
            stream: Stream::empty(),
        }
    }

    /// Get the surface of the stream builder.
    pub fn surface(&mut self) -> Surface<'_> {
        // Stream builders cannot have any tags since we always pass a dummy
        // identifier. Only main page content streams can have one.
        let finish_fn = Box::new(|stream, _| {
            self.stream = stream;
        });

        Surface::new(
            self.sc,
            self.chunk_container,
            ContentBuilder::new(Transform::identity(), true, self.sc),
            None,
            finish_fn,
        )
    }

    /// Turn the stream builder into a stream.
    pub fn finish(self) -> Stream {
        self.stream
    }
}

/// A PDF stream filter.
#[derive(Debug, Copy, Clone)]
pub(crate) enum StreamFilter {
    Flate,
    FlateMemoized,
    AsciiHex,
    #[cfg(feature = "raster-images")]
    Dct,
}

impl StreamFilter {
    pub(crate) fn to_name(self) -> Name<'static> {
        match self {
            Self::AsciiHex => Name(b"ASCIIHexDecode"),
            Self::Flate => Name(b"FlateDecode"),
            Self::FlateMemoized => Name(b"FlateDecode"),
            #[cfg(feature = "raster-images")]
            Self::Dct => Name(b"DCTDecode"),
        }
    }

    pub(crate) fn is_binary(&self) -> bool {
        match self {
            StreamFilter::Flate => true,
            StreamFilter::FlateMemoized => true,
            StreamFilter::AsciiHex => false,
            #[cfg(feature = "raster-images")]
            StreamFilter::Dct => true,
        }
    }
}

impl StreamFilter {
    #[track_caller]
    pub(crate) fn apply(&self, content: &[u8]) -> Vec<u8> {
        match self {
            StreamFilter::Flate => deflate_encode(content),
            StreamFilter::FlateMemoized => deflate_encode_memoized(content),
            StreamFilter::AsciiHex => hex_encode(content),
            // Note: We don't actually encode manually with DCT, because
            // this is only used for JPEG images which are already encoded,
            // so this shouldn't be called at all.
            #[cfg(feature = "raster-images")]
            StreamFilter::Dct => panic!("can't apply dct decode"),
        }
    }
}

/// Allows us to keep track of the filters that a stream has and
/// apply them in an orderly fashion.
#[derive(Debug, Clone)]
pub(crate) enum StreamFilters {
    None,
    Single(StreamFilter),
    Multiple(Vec<StreamFilter>),
}

impl StreamFilters {
    pub(crate) fn add(&mut self, stream_filter: StreamFilter) {
        match self {
            StreamFilters::None => *self = StreamFilters::Single(stream_filter),
            StreamFilters::Single(cur) => {
                *self = StreamFilters::Multiple(vec![*cur, stream_filter])
            }
            StreamFilters::Multiple(cur) => cur.push(stream_filter),
        }
    }

    pub(crate) fn is_binary(&self) -> bool {
        match self {
            StreamFilters::None => false,
            StreamFilters::Single(s) => s.is_binary(),
            StreamFilters::Multiple(m) => m.last().unwrap().is_binary(),
        }
    }
}

pub(crate) struct FilterStreamBuilder<'a> {
    content: Cow<'a, [u8]>,
    filters: StreamFilters,
    is_binary: bool,
}

impl<'a> FilterStreamBuilder<'a> {
    fn empty(content: &'a [u8]) -> Self {
        Self {
            content: Cow::Borrowed(content),
            filters: StreamFilters::None,
            is_binary: false,
        }
    }

    fn binary(content: &'a [u8]) -> Self {
        Self {
            is_binary: true,
            ..Self::empty(content)
        }
    }

    pub(crate) fn new_from_content_stream(
        content: &'a [u8],
        serialize_settings: &SerializeSettings,
    ) -> Self {
        let mut filter_stream = Self::empty(content);

        if serialize_settings.compress_content_streams {
            filter_stream.add_filter(StreamFilter::FlateMemoized);
        }

        filter_stream
    }

    pub(crate) fn new_from_deflated(content: &'a [u8]) -> Self {
        let mut filter_stream = Self::empty(content);
        filter_stream.add_unapplied_filter(StreamFilter::Flate);

        filter_stream
    }

    pub(crate) fn new_from_binary_data(content: &'a [u8]) -> Self {
        let mut filter_stream = Self::binary(content);
        filter_stream.add_filter(StreamFilter::Flate);

        filter_stream
    }

    pub(crate) fn new_auto_compressed(content: &'a [u8]) -> Self {
        let filter_stream = Self::new_from_binary_data(content);

        const MAX_COMPRESSED_SIZE: usize = 75;
        if content.is_empty()
            || 100 * filter_stream.content.len() / content.len() > MAX_COMPRESSED_SIZE
        {
            return Self::binary(content);
        }

        filter_stream
    }

    pub(crate) fn new_from_uncompressed(content: &'a [u8]) -> Self {
        Self::binary(content)
    }

    #[cfg(feature = "raster-images")]
    pub(crate) fn new_from_jpeg_data(content: &'a [u8]) -> Self {
        let mut filter_stream = Self::empty(content);
        // JPEG data already is DCT encoded.
        filter_stream.add_unapplied_filter(StreamFilter::Dct);

        filter_stream
    }

    pub(crate) fn finish(mut self, serialize_settings: &SerializeSettings) -> FilterStream<'a> {
        if serialize_settings.ascii_compatible
            && !self.content.is_empty()
            && (self.filters.is_binary()
                || (self.is_binary && self.content.iter().any(|byte| !byte.is_ascii())))
        {
            self.add_filter(StreamFilter::AsciiHex);
        }

        FilterStream {
            content: self.content,
            filters: self.filters,
        }
    }

    fn add_filter(&mut self, filter: StreamFilter) {
        self.content = Cow::Owned(filter.apply(&self.content));
        self.filters.add(filter);
    }

    fn add_unapplied_filter(&mut self, filter: StreamFilter) {
        self.filters.add(filter);
    }
}

pub(crate) struct FilterStream<'a> {
    content: Cow<'a, [u8]>,
    filters: StreamFilters,
}

impl FilterStream<'_> {
    pub(crate) fn encoded_data(&self) -> &[u8] {
        &self.content
    }

    /// deckpress patch: the encoded bytes and the filters, to keep the bytes elsewhere
    /// (`output::Spool`) and make the stream again with `from_parts`.
    pub(crate) fn into_parts(self) -> (Vec<u8>, StreamFilters) {
        (self.content.into_owned(), self.filters)
    }

    pub(crate) fn from_parts(content: Vec<u8>, filters: StreamFilters) -> FilterStream<'static> {
        FilterStream {
            content: Cow::Owned(content),
            filters,
        }
    }

    /// deckpress patch: `write_filters`, plus the PNG predictor parameters of deflated
    /// pixel rows that were filtered before compression (`/DecodeParms`, one entry per
    /// filter when an ASCII filter was added on top).
    pub(crate) fn write_filters_with_predictor<'b, T>(&self, mut dict: T, predictor: Option<(u32, u8)>)
    where
        T: DerefMut<Target = Dict<'b>>,
    {
        self.write_filters(&mut *dict);
        let Some((columns, colors)) = predictor else { return };
        let write = |parms: &mut Dict| {
            parms.pair(Name(b"Predictor"), 15);
            parms.pair(Name(b"Colors"), colors as i32);
            parms.pair(Name(b"BitsPerComponent"), 8);
            parms.pair(Name(b"Columns"), columns as i32);
        };
        match &self.filters {
            StreamFilters::Single(_) => write(&mut dict.deref_mut().insert(Name(b"DecodeParms")).dict()),
            StreamFilters::Multiple(filters) => {
                // Filters are listed outermost first (reversed), like `write_filters`.
                let mut array = dict.deref_mut().insert(Name(b"DecodeParms")).array();
                for filter in filters.iter().rev() {
                    match filter {
                        StreamFilter::Flate | StreamFilter::FlateMemoized => write(&mut array.push().dict()),
                        _ => {
                            array.item(pdf_writer::Null);
                        }
                    }
                }
            }
            StreamFilters::None => {}
        }
    }

    pub(crate) fn write_filters<'b, T>(&self, mut dict: T)
    where
        T: DerefMut<Target = Dict<'b>>,
    {
        match &self.filters {
            StreamFilters::None => {}
            StreamFilters::Single(filter) => {
                dict.deref_mut().pair(Name(b"Filter"), filter.to_name());
            }
            StreamFilters::Multiple(filters) => {
                dict.deref_mut()
                    .insert(Name(b"Filter"))
                    .start::<Array>()
                    .items(filters.iter().map(|f| f.to_name()).rev());
            }
        }
    }
}

#[cfg_attr(feature = "comemo", comemo::memoize)]
fn deflate_encode_memoized(data: &[u8]) -> Vec<u8> {
    deflate_encode(data)
}

/// deckpress patch: 8-bit pixel rows filtered the PNG way (each row prefixed with the
/// filter that leaves the smallest sum of absolute differences, as libpng chooses), for a
/// FlateDecode stream with `/Predictor 15`. Photographs compress to about their PNG size
/// instead of a third more. Each filter is applied to the whole row in a loop of its own
/// with no branch and no carried dependency (Paeth predicts from the unfiltered bytes),
/// which the compiler vectorises (with SSE2, which every x86-64 has): 1.4 × faster than
/// scoring a third of the bytes with all five filters in one scalar loop, and every byte
/// is scored.
pub(crate) fn png_filter_rows(data: &[u8], width: u32, channels: usize) -> Vec<u8> {
    let stride = width as usize * channels;
    if stride == 0 {
        return data.to_vec();
    }
    let mut out = Vec::with_capacity(data.len() + data.len() / stride + 1);
    let zero = vec![0u8; stride];
    // One scratch row per filter but None (the row itself).
    let mut filtered = [vec![0u8; stride], vec![0u8; stride], vec![0u8; stride], vec![0u8; stride]];
    for (i, row) in data.chunks(stride).enumerate() {
        let prev = if i == 0 { &zero[..row.len()] } else { &data[(i - 1) * stride..i * stride] };
        let n = row.len();
        let ch = channels.min(n);
        let [sub, up, avg, paeth] = &mut filtered;
        let (sub, up, avg, paeth) = (&mut sub[..n], &mut up[..n], &mut avg[..n], &mut paeth[..n]);
        // The filters in the order of their numbers, the first of least cost kept: once one
        // costs nothing, the later ones cannot win (flat rows, such as a mask's, stop early).
        let mut best = (residual_cost(row), 0usize);
        if best.0 > 0 {
            // The first pixel has no left neighbours (a = c = 0): Sub keeps it.
            sub[..ch].copy_from_slice(&row[..ch]);
            for ((s, x), a) in sub[ch..].iter_mut().zip(&row[ch..]).zip(&row[..n - ch]) {
                *s = x.wrapping_sub(*a);
            }
            best = best.min((residual_cost(sub), 1));
        }
        if best.0 > 0 {
            for ((u, x), b) in up.iter_mut().zip(row).zip(prev) {
                *u = x.wrapping_sub(*b);
            }
            best = best.min((residual_cost(up), 2));
        }
        if best.0 > 0 {
            // Average halves the byte above the first pixel.
            for ((v, x), b) in avg[..ch].iter_mut().zip(&row[..ch]).zip(&prev[..ch]) {
                *v = x.wrapping_sub(b / 2);
            }
            for (((v, x), a), b) in avg[ch..].iter_mut().zip(&row[ch..]).zip(&row[..n - ch]).zip(&prev[ch..]) {
                *v = x.wrapping_sub(((*a as u16 + *b as u16) >> 1) as u8);
            }
            best = best.min((residual_cost(avg), 3));
        }
        if best.0 > 0 {
            // Paeth predicts the byte above the first pixel.
            for ((p, x), b) in paeth[..ch].iter_mut().zip(&row[..ch]).zip(&prev[..ch]) {
                *p = x.wrapping_sub(*b);
            }
            for ((((p, x), a), b), c) in paeth[ch..].iter_mut().zip(&row[ch..]).zip(&row[..n - ch]).zip(&prev[ch..]).zip(&prev[..n - ch]) {
                // The PNG specification's predictor, with its order on ties: a, then b, then c.
                let (ia, ib, ic) = (*a as i16, *b as i16, *c as i16);
                // abs as max(x, -x) and `&` for `&&`: what SSE2 has, so the loop vectorises.
                let (pa, pb, pc) = ((ib - ic).max(ic - ib), (ia - ic).max(ic - ia), (ia + ib - 2 * ic).max(2 * ic - ia - ib));
                let predicted = if (pa <= pb) & (pa <= pc) { *a } else if pb <= pc { *b } else { *c };
                *p = x.wrapping_sub(predicted);
            }
            best = best.min((residual_cost(paeth), 4));
        }
        let best = best.1;
        let candidates: [&[u8]; 5] = [row, sub, up, avg, paeth];
        out.push(best as u8);
        out.extend_from_slice(candidates[best]);
    }
    out
}

/// The sum of `bytes` read as signed (|b as i8| is min(b, -b) in u8, which SSE2 has):
/// small residuals either way cost little. Summed as u16 over pieces of 256 bytes, which
/// cannot overflow (256 × 255 < 65,536): u16 sums vectorise with twice the lanes of u32.
fn residual_cost(bytes: &[u8]) -> u64 {
    bytes.chunks(256).map(|c| c.iter().map(|&b| b.min(b.wrapping_neg()) as u16).sum::<u16>() as u64).sum()
}

/// deckpress patch: row-filtered pixels deflated at level 2. Measured on TravFuda's ten
/// emblems and on five 1.5 MB photographs: level 6 made them 0.4–2.7 % smaller for 2.5 ×
/// the time (a fifth of a deck build's instructions); level 1 made the photos 40 % larger.
pub(crate) fn deflate_encode_pixels(data: &[u8]) -> Vec<u8> {
    deflate_at(2, data)
}

pub(crate) fn deflate_encode(data: &[u8]) -> Vec<u8> {
    const COMPRESSION_LEVEL: u32 = 6;
    deflate_at(COMPRESSION_LEVEL, data)
}

/// deckpress patch: one compressor a thread and level, reset between streams. Making a
/// compressor zeroes its window and tables (about 440,000 instructions): a deck's PDF
/// deflates some fifty streams, and that was 7 % of its build. A reset compressor writes
/// the same bytes as a new one.
fn deflate_at(level: u32, data: &[u8]) -> Vec<u8> {
    use flate2::{Compress, FlushCompress, Status};
    use std::cell::RefCell;
    thread_local! {
        static COMPRESSORS: RefCell<Vec<(u32, Compress)>> = const { RefCell::new(Vec::new()) };
    }
    COMPRESSORS.with(|compressors| {
        let mut compressors = compressors.borrow_mut();
        let at = match compressors.iter().position(|(l, _)| *l == level) {
            Some(at) => at,
            None => {
                compressors.push((level, Compress::new(Compression::new(level), true)));
                compressors.len() - 1
            }
        };
        let compress = &mut compressors[at].1;
        compress.reset();
        let mut out = Vec::with_capacity(data.len() / 2 + 64);
        loop {
            let read = compress.total_in() as usize;
            match compress.compress_vec(&data[read..], &mut out, FlushCompress::Finish) {
                Ok(Status::StreamEnd) => break out,
                Ok(_) => out.reserve(out.capacity().max(64)),
                // Deflating memory into memory has nothing to fail on.
                Err(e) => panic!("deflate failed: {e}"),
            }
        }
    })
}

fn hex_encode(data: &[u8]) -> Vec<u8> {
    use std::fmt::Write;

    const COLUMNS: usize = 35;
    let len = data.len();
    let capacity = 2 * len + len / COLUMNS;
    let mut output = String::with_capacity(capacity);
    for (index, byte) in data.iter().enumerate() {
        write!(output, "{byte:02X}").unwrap();
        if index % COLUMNS == COLUMNS - 1 {
            output.push('\n');
        }
    }
    output.into_bytes()
}
