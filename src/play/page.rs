//! The table page: one HTML file with its style and script inline (no font, script or
//! style from anywhere else, and a Content-Security-Policy that allows no connection), the
//! game as JSON for the script: its decks with their pictures' files (beside the page),
//! each deck's part for each player count, the deal table and the board.

use serde_json::{json, Value};

use crate::model::{Catalogue, Shape};
use crate::plan::pictures::{Set, Which};

/// What the page is made of: the game, the pictures drawn of it, and how it opens.
pub struct Table<'a> {
    pub cat: &'a Catalogue,
    pub lang: Option<&'a str>,
    pub players: u32,
    pub seed: u32,
    /// The sets of pictures drawn, the decks' then the boards'.
    pub sets: &'a [Set],
    /// Said at the top of the page (a game with no deal table).
    pub warning: Option<String>,
}

/// How large the page shows a millimetre, in CSS pixels: a 63 × 88 mm card is about
/// 100 × 140.
const SCALE: f32 = 1.6;

const SCRIPT: &str = include_str!("table.js");
const STYLE: &str = include_str!("table.css");

/// The game as the script reads it.
fn game(t: &Table) -> Value {
    let cat = t.cat;
    let decks: Vec<Value> = cat
        .decks
        .iter()
        .enumerate()
        .map(|(d, deck)| {
            let set = t.sets.iter().find(|s| s.deck == Some(d));
            let file = |which: Which| {
                set.and_then(|s| s.pictures.iter().find(|p| p.which == which))
                    .map_or(String::new(), |p| p.file.clone())
            };
            let faces: Vec<String> = (0..deck.rows.len()).map(|r| file(Which::Face(r))).collect();
            let backs: Vec<String> = match deck.back_per_card {
                true => (0..deck.rows.len()).map(|r| file(Which::Back(r))).collect(),
                false => vec![file(Which::Back(0))],
            };
            json!({
                "id": deck.id,
                "name": cat.deck_name_in(d, t.lang),
                "w": deck.width.to_mm(),
                "h": deck.height.to_mm(),
                "shape": match deck.shape { Shape::Rect => "rect", Shape::Circle => "circle", _ => "hex" },
                "corner": deck.corner.to_mm(),
                "rows": deck.rows.iter().map(|r| r.id.as_str()).collect::<Vec<_>>(),
                "qty": deck.rows.iter().map(|r| r.qty).collect::<Vec<_>>(),
                "faces": faces,
                "backs": backs,
            })
        })
        .collect();
    let parts: serde_json::Map<String, Value> = super::parts_by_count(cat)
        .into_iter()
        .map(|(n, parts)| {
            (n.to_string(), json!(parts.iter().map(|p| p.name()).collect::<Vec<_>>()))
        })
        .collect();
    let deals: Vec<Value> = cat
        .deals
        .iter()
        .map(|d| json!({ "players": d.players, "deck": d.deck, "hand": d.hand, "table": d.table }))
        .collect();
    let board = t.sets.iter().find(|s| s.deck.is_none()).and_then(|s| s.pictures.first()).map(|p| {
        json!({ "file": p.file, "name": p.label, "w": p.size.0.to_mm(), "h": p.size.1.to_mm() })
    });
    json!({
        "id": cat.id,
        "players": t.players,
        "seed": t.seed,
        "counts": super::counts(cat),
        "parts": parts,
        "deals": deals,
        "decks": decks,
        "board": board,
        "scale": SCALE,
        "warning": t.warning,
    })
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The page.
pub fn html(t: &Table) -> String {
    let name = escape(t.cat.name_in(t.lang));
    // Inside <script>, `</` could end it: JSON allows `<\/` for the same text.
    let data = game(t).to_string().replace("</", "<\\/");
    let options: String = super::counts(t.cat)
        .iter()
        .map(|n| format!("<option value=\"{n}\">{n}</option>"))
        .collect();
    let actions = [
        ("draw", "Draw (Enter on the pile)"),
        ("play", "To table (T)"),
        ("hand", "To hand (H)"),
        ("flip", "Turn over (F)"),
        ("discard", "Discard (D)"),
        ("pass", "Pass (P, 1–9)"),
    ]
    .iter()
    .map(|(a, label)| format!("<button type=\"button\" data-action=\"{a}\">{label}</button>"))
    .collect::<String>();
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file: data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{name} — playtest table</title>
<style>{STYLE}</style>
</head>
<body>
<header>
<h1>{name}</h1>
<label>Players <select id="players">{options}</select></label>
<label>Seed <input id="seed" type="number" min="0" max="4294967295"></label>
<button type="button" id="deal">New deal</button>
<button type="button" id="undo" data-action="undo">Undo (U)</button>
<button type="button" id="next" data-action="next">Next seat (N)</button>
<button type="button" id="all" data-action="all" aria-pressed="false">All hands (A)</button>
<span id="shown"></span>
</header>
<p id="note" role="status" hidden></p>
<div id="actions" role="toolbar" aria-label="the selected card"><span id="selected"></span>{actions}</div>
<main>
<div id="surface" aria-label="the table"><div data-area="table"></div><div data-area="pieces"></div></div>
<div id="side"><div id="piles"></div><aside><h2>Moves</h2><ol id="log" aria-live="polite"></ol></aside></div>
<div id="seats"></div>
</main>
<details class="keys"><summary>Keys</summary><p><kbd>Tab</kbd> and the arrows move between cards (<kbd>←</kbd> <kbd>→</kbd> in a place, <kbd>↑</kbd> <kbd>↓</kbd> between places); <kbd>Enter</kbd> draws from a pile, plays a card from the hand, takes one from the table or the discards; <kbd>T</kbd> to the table, <kbd>H</kbd> to the shown hand, <kbd>F</kbd> turn over, <kbd>D</kbd> discard, <kbd>P</kbd> pass to the next seat (<kbd>1</kbd>–<kbd>9</kbd>: to that seat), <kbd>Shift</kbd>+arrows move a card or piece on the table, <kbd>R</kbd> shuffle the discards into the draw pile, <kbd>N</kbd> next seat, <kbd>A</kbd> all hands, <kbd>U</kbd> undo. The mouse: click to select, double-click for <kbd>Enter</kbd>, drag on the table.</p></details>
<script type="application/json" id="game">{data}</script>
<script>{SCRIPT}</script>
</body>
</html>
"#
    )
}
