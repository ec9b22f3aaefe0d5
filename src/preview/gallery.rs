//! The HTML gallery: one static page (`preview/index.html`) that shows the validation
//! result first, then every deck's cards and back as images with their ids and counts.
//! It opens from disk: relative image paths, inline CSS, no server. The one small inline
//! script only records whether every image loaded (`data-images` on `<body>`), which the
//! headless-browser test reads; the page needs no script to be read.

use crate::render::canvas::escape_xml as escape;

pub struct Page<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub status: Status,
    pub sections: Vec<Section<'a>>,
    /// Reload every so many seconds (while `watch` runs).
    pub refresh: Option<u32>,
    /// With `--proof`: the printing condition the soft proofs are drawn through; the page
    /// then has a toggle between the screen and the proof.
    pub proof: Option<String>,
    /// Preflight reports beside the gallery (`preflight-SERVICE.html`), by service.
    pub preflights: Vec<String>,
    /// `--changed-since`: the cards drawn differently from then, before and after.
    pub changes: Option<Changes>,
}

/// The pictures that differ from a previous preview's.
pub struct Changes {
    /// Where the previous preview was.
    pub since: String,
    pub cards: Vec<Changed>,
}

pub struct Changed {
    pub label: String,
    /// The previous picture, copied beside the gallery; `None` for a new card.
    pub before: Option<String>,
    pub after: String,
    /// Displayed size in CSS pixels.
    pub size: (u32, u32),
}

pub enum Status {
    /// The catalogue is valid; the line `deckpress validate` prints.
    Valid(String),
    /// The problems, rendered as the terminal shows them (without colour).
    Problems { count: usize, text: String },
}

/// A deck, or the boards and sheets.
pub struct Section<'a> {
    /// The HTML id, for links to `#deck-cards`.
    pub id: String,
    pub name: &'a str,
    pub summary: String,
    /// The deck's contact sheets (one per hundred pictures), relative to the page.
    pub contact: Vec<&'a str>,
    pub figures: Vec<Figure<'a>>,
}

pub struct Figure<'a> {
    /// The caption: a card's id, "card back", a sheet's name.
    pub label: &'a str,
    /// Copies in the deck, for card faces.
    pub count: Option<u32>,
    /// Image path relative to the page; `None` when the card could not be drawn.
    pub src: Option<String>,
    /// Displayed size in CSS pixels.
    pub size: (u32, u32),
    /// The soft proof's image path, with `--proof`.
    pub proof: Option<String>,
    /// Colours that move in print: the colour, as printed, and ΔE.
    pub moved: Vec<(String, String, f64)>,
}

const STYLE: &str = "\
body{margin:0;padding:24px 32px;font:15px/1.4 'Noto Sans',system-ui,sans-serif;background:#ebe8e1;color:#1d2330}
h1{margin:0 0 2px;font-size:26px}header p{margin:0 0 18px;color:#555}
.status{border-radius:6px;padding:12px 16px;margin-bottom:24px}
.status.valid{background:#dcefdc;border:1px solid #2e7d32}
.status.invalid{background:#fbe3e3;border:1px solid #c62828}
.status h2{margin:0 0 8px;font-size:18px}.status.valid p{margin:0;font-weight:bold;color:#1b5e20}
.status pre{margin:0;white-space:pre-wrap;font:13px/1.35 ui-monospace,'DejaVu Sans Mono',monospace;max-height:40vh;overflow:auto}
section.deck h2{font-size:20px;margin:8px 0 4px}section.deck h2 small{font-weight:normal;color:#555;font-size:14px;margin-left:8px}
.cards{display:flex;flex-wrap:wrap;gap:18px 14px;margin:14px 0 28px}
figure{margin:0;text-align:center}
figure img,figure .missing{display:block;background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.35);border-radius:4px}
figure .missing{display:flex;align-items:center;justify-content:center;color:#c62828;font-weight:bold;border:2px dashed #c62828;box-sizing:border-box;padding:8px}
figcaption{margin-top:6px;font-size:13px;max-width:180px;margin-left:auto;margin-right:auto;overflow-wrap:anywhere}
figcaption b{margin-left:4px}figure.other figcaption{color:#555}
.changes figure.change{width:auto;display:grid;grid-template-columns:auto auto;column-gap:8px}.changes figure.change figcaption{grid-column:1/3}.change .new{display:flex;align-items:center;justify-content:center;border:1px dashed #999;color:#777}
";

/// Reports on `<body data-images>`: `ok N` once all N images loaded, `broken: SRC` when one
/// failed. Images that finished before the script ran are counted through `complete`.
const PROOF_STYLE: &str = "\
header label.proof{display:inline-block;margin:0 0 18px;padding:6px 10px;background:#fff;border-radius:6px;cursor:pointer}
ul.moved{list-style:none;margin:4px 0 0;padding:0;font-size:12px;color:#555;max-width:180px}
ul.moved span{display:inline-block;width:12px;height:12px;vertical-align:-2px;border:1px solid #999}
";

/// Swaps every card between its screen picture and its soft proof; `index.html#proof`
/// opens on the proof.
const PROOF_SCRIPT: &str = "\
(function(){var box=document.getElementById('proof-toggle');
function show(){Array.prototype.forEach.call(document.querySelectorAll('img[data-proof]'),function(i){
if(!i.hasAttribute('data-screen'))i.setAttribute('data-screen',i.getAttribute('src'));
i.setAttribute('src',box.checked?i.getAttribute('data-proof'):i.getAttribute('data-screen'));});}
box.addEventListener('change',show);if(location.hash==='#proof'){box.checked=true;show();}})();
";

const SCRIPT: &str = "\
(function(){var imgs=Array.prototype.slice.call(document.images),left=imgs.length,b=document.body;
function bad(i){b.setAttribute('data-images','broken: '+i.getAttribute('src'));}
function one(i){if(!i.naturalWidth){bad(i);return;}left--;if(left===0&&b.getAttribute('data-images')==='loading')b.setAttribute('data-images','ok '+imgs.length);}
b.setAttribute('data-images',left?'loading':'ok 0');
imgs.forEach(function(i){if(i.complete)one(i);else{i.addEventListener('load',function(){one(i);});i.addEventListener('error',function(){bad(i);});}});})();
";

pub fn html(page: &Page) -> String {
    let mut h = String::new();
    h.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    if let Some(seconds) = page.refresh {
        h.push_str(&format!("<meta http-equiv=\"refresh\" content=\"{seconds}\">\n"));
    }
    let proof_style = if page.proof.is_some() { PROOF_STYLE } else { "" };
    h.push_str(&format!("<title>{} — card previews</title>\n<style>\n{STYLE}{proof_style}</style>\n</head>\n<body>\n", escape(page.title)));
    let toggle = match &page.proof {
        Some(condition) => format!("<label class=\"proof\"><input type=\"checkbox\" id=\"proof-toggle\"> Soft proof: show the cards as printed on {} (CMYK)</label>", escape(condition)),
        None => String::new(),
    };
    let preflights: String = page
        .preflights
        .iter()
        .map(|s| {
            format!(
                " <a class=\"preflight\" href=\"preflight-{0}.html\">preflight for {0}</a>",
                escape(s)
            )
        })
        .collect();
    h.push_str(&format!(
        "<header><h1>{}</h1><p>{}{preflights}</p>{toggle}</header>\n",
        escape(page.title),
        escape(page.description)
    ));
    match &page.status {
        Status::Valid(summary) => h.push_str(&format!("<section class=\"status valid\"><p>✔ {}</p></section>\n", escape(summary))),
        Status::Problems { count, text } => h.push_str(&format!(
            "<section class=\"status invalid\"><h2>✘ {count} problem{} found</h2>\n<pre>{}</pre></section>\n",
            if *count == 1 { "" } else { "s" },
            escape(text.trim_end())
        )),
    }
    if let Some(changes) = &page.changes {
        h.push_str(&format!(
            "<section class=\"deck changes\" id=\"changed\">\n<h2>Changed since {}<small>{}</small></h2>\n<div class=\"cards\">\n",
            escape(&changes.since),
            match changes.cards.len() {
                0 => "nothing changed".to_string(),
                1 => "1 picture".to_string(),
                n => format!("{n} pictures"),
            }
        ));
        for c in &changes.cards {
            let (w, hgt) = c.size;
            let before = match &c.before {
                Some(src) => format!("<img class=\"before\" src=\"{}\" alt=\"{} before\" width=\"{w}\" height=\"{hgt}\">", escape(src), escape(&c.label)),
                None => format!("<div class=\"before new\" style=\"width:{w}px;height:{hgt}px\">new</div>"),
            };
            h.push_str(&format!(
                "<figure class=\"change\">{before}<img class=\"after\" src=\"{}\" alt=\"{} after\" width=\"{w}\" height=\"{hgt}\"><figcaption><code>{}</code> before · after</figcaption></figure>\n",
                escape(&c.after),
                escape(&c.label),
                escape(&c.label)
            ));
        }
        h.push_str("</div>\n</section>\n");
    }
    for section in &page.sections {
        let contact = match section.contact.as_slice() {
            [] => String::new(),
            [one] => format!(" · <a href=\"{}\">contact sheet</a>", escape(one)),
            many => {
                let links: Vec<String> = many
                    .iter()
                    .enumerate()
                    .map(|(i, c)| format!("<a href=\"{}\">{}</a>", escape(c), i + 1))
                    .collect();
                format!(" · contact sheets {}", links.join(" "))
            }
        };
        h.push_str(&format!(
            "<section class=\"deck\" id=\"{}\">\n<h2>{}<small>{}{contact}</small></h2>\n<div class=\"cards\">\n",
            escape(&section.id),
            escape(section.name),
            escape(&section.summary),
        ));
        for f in &section.figures {
            let (w, hgt) = f.size;
            let class = if f.count.is_none() { " class=\"other\"" } else { "" };
            h.push_str(&format!("<figure{class}>"));
            match &f.src {
                Some(src) => {
                    let proof = f.proof.as_ref().map(|p| format!(" data-proof=\"{}\"", escape(p))).unwrap_or_default();
                    h.push_str(&format!("<img src=\"{}\" alt=\"{}\" width=\"{w}\" height=\"{hgt}\"{proof}>", escape(src), escape(f.label)))
                }
                None => h.push_str(&format!("<div class=\"missing\" style=\"width:{w}px;height:{hgt}px\">not drawn: see the problems above</div>")),
            }
            let count = match f.count {
                Some(n) => format!("<b>×{n}</b>"),
                None => String::new(),
            };
            let label = if f.count.is_none() {
                escape(f.label)
            } else {
                format!("<code>{}</code>", escape(f.label))
            };
            let moved: String = f
                .moved
                .iter()
                .map(|(from, to, de)| format!("<li><span style=\"background:{}\"></span>→<span style=\"background:{}\"></span> {} prints as {} (ΔE {de:.1})</li>", escape(from), escape(to), escape(from), escape(to)))
                .collect();
            let moved = if moved.is_empty() {
                moved
            } else {
                format!("<ul class=\"moved\" title=\"colours that move in print\">{moved}</ul>")
            };
            h.push_str(&format!("<figcaption>{label}{count}{moved}</figcaption></figure>\n"));
        }
        h.push_str("</div>\n</section>\n");
    }
    let proof_script = if page.proof.is_some() { PROOF_SCRIPT } else { "" };
    h.push_str(&format!("<script>\n{SCRIPT}{proof_script}</script>\n</body>\n</html>\n"));
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(status: Status) -> String {
        let figures = vec![
            Figure {
                label: "a&b",
                count: Some(3),
                src: Some("cards/a_b.png?v=1".into()),
                size: (180, 251),
                proof: None,
                moved: Vec::new(),
            },
            Figure {
                label: "broken",
                count: Some(1),
                src: None,
                size: (180, 251),
                proof: None,
                moved: Vec::new(),
            },
            Figure {
                label: "card back",
                count: None,
                src: Some("cards-back.png".into()),
                size: (180, 251),
                proof: None,
                moved: Vec::new(),
            },
        ];
        let sections = vec![Section {
            id: "deck-cards".into(),
            name: "Deck <1>",
            summary: "2 designs".into(),
            contact: vec!["cards-contact.png"],
            figures,
        }];
        html(&Page {
            title: "Game",
            description: "d",
            status,
            sections,
            refresh: None,
            proof: None,
            preflights: Vec::new(),
            changes: None,
        })
    }

    #[test]
    fn every_card_shows_its_id_and_count_and_text_is_escaped() {
        let html = page(Status::Valid("game: valid".into()));
        assert!(html.contains("<img src=\"cards/a_b.png?v=1\" alt=\"a&amp;b\""), "{html}");
        assert!(html.contains("<code>a&amp;b</code><b>×3</b>"), "{html}");
        assert!(html.contains("Deck &lt;1&gt;"), "{html}");
        assert!(html.contains("not drawn"), "{html}");
        assert!(html.contains("✔ game: valid"), "{html}");
    }

    #[test]
    fn problems_come_first_as_text() {
        let html = page(Status::Problems { count: 2, text: "error: <x>\n".into() });
        let status = html.find("2 problems found").unwrap();
        assert!(status < html.find("<section class=\"deck\"").unwrap());
        assert!(html.contains("<pre>error: &lt;x&gt;</pre>"), "{html}");
    }
}
