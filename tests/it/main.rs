//! The integration tests, one crate (one binary to link): each module is a behaviour
//! area, run against the real binary in temporary folders; `common` holds the helpers.

mod common;

mod art;
mod behaviours;
mod boxes;
mod bundle;
mod checks;
mod components;
mod corpus;
mod designers;
mod editions;
mod fuzz;
mod games_data;
mod golden;
mod hostile;
mod images;
mod ink_saver;
mod install;
mod known_bad;
mod labels;
mod lang;
mod legibility;
mod mistakes;
mod pdf;
mod plan;
mod preflight;
mod press;
mod preview;
mod print;
mod printable;
mod products;
mod queries;
mod reprint;
mod robustness;
mod rules_text;
mod russian;
mod services;
mod shapes;
mod standard;
mod stranger;
mod textbox;
mod translations;
mod trumpet;
mod tts_names;
mod validation;
