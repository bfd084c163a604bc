//! `tarneeb standings DIR... --html SITE`: the standings as a static site for any web host or
//! a local disk: `index.html` (standings, crosstable and head to head, explained in words), a
//! page per entrant under `entrants/` (its games, results and forfeits), `games.html` (every
//! game) and every game's replay page under `games/`. Every page is self-contained: no script,
//! style or font is loaded from the network or from another file, so the site opens from disk.

pub mod pages;

use std::fs;
use std::path::{Path, PathBuf};

use crate::record::verify::replay_file;
use crate::replay::html;
use crate::standings::row::GameRow;
use crate::standings::table::Standings;

/// What a site is made of: the standings, the rows they came from (each game's record is
/// looked up in `dirs`), the SPRT's verdict as text and the sandbox line.
pub struct SiteInput<'a> {
    pub standings: &'a Standings,
    pub rows: &'a [GameRow],
    pub dirs: &'a [PathBuf],
    pub sprt: Option<String>,
    pub sandbox: String,
    /// A league's ratings over time (SVG, no script): a page of its own, linked from the
    /// standings.
    pub ratings_svg: Option<String>,
}

/// What was written: pages in all, game pages, and the games that got no page with why.
#[derive(Debug)]
pub struct Written {
    pub pages: usize,
    pub game_pages: usize,
    pub missing: Vec<(u64, String)>,
}

/// An entrant's page name: its place in the standings and its name reduced to letters, digits,
/// `-` and `_` (so two names that reduce alike still get two files).
pub fn entrant_file(k: usize, name: &str) -> String {
    let slug: String = name
        .chars()
        .take(40)
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{}-{slug}.html", k + 1)
}

/// Every entrant's page name under `entrants/`, in the standings' order: the one place the
/// site, the live server and its pages get them from.
pub fn entrant_files(s: &Standings) -> Vec<String> {
    s.entrants
        .iter()
        .enumerate()
        .map(|(k, e)| entrant_file(k, &e.name))
        .collect()
}

/// A game's page name under `games/` (the site, the live server and the live page's links).
pub fn game_page(game: u64) -> String {
    format!("{game:06}.html")
}

/// The game's record: in the first directory that holds it (shards of one tournament number
/// their games alike, and each game's record is in the shard that played it).
fn record_of(dirs: &[PathBuf], row: &GameRow) -> Option<PathBuf> {
    dirs.iter()
        .map(|d| d.join(&row.record))
        .find(|p| p.is_file())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes the site into `out` (made if missing; pages of an earlier site there are replaced).
pub fn write_site(out: &Path, input: &SiteInput) -> Result<Written, String> {
    if out.exists() && !out.is_dir() {
        return Err(format!(
            "--html {}: this is a file; give a directory for the site (made if missing)",
            out.display()
        ));
    }
    for d in [out.to_path_buf(), out.join("entrants"), out.join("games")] {
        fs::create_dir_all(&d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
    }
    let s = input.standings;
    let mut missing = Vec::new();
    let mut game_pages = Vec::with_capacity(input.rows.len());
    for row in input.rows {
        let page = match record_of(input.dirs, row) {
            None => Err(format!(
                "its record {} is in none of the directories",
                row.record
            )),
            Some(path) => match replay_file(&path) {
                Ok(game) => {
                    let name = game_page(row.game);
                    write(&out.join("games").join(&name), &html::render(&game))?;
                    Ok(name)
                }
                Err(e) => Err(format!("its record does not replay: {e}")),
            },
        };
        if let Err(why) = &page {
            missing.push((row.game, why.clone()));
        }
        game_pages.push(page);
    }
    let entrant_files = entrant_files(s);
    let links = pages::Links {
        entrant_files: &entrant_files,
        game_pages: &game_pages,
    };
    let mut index = pages::index(s, input.sprt.as_deref(), &input.sandbox, &links);
    if let Some(svg) = &input.ratings_svg {
        index = index.replacen(
            "<h2>Standings</h2>",
            "<p><a href=\"ratings.html\">Ratings over time</a>: each version's rating after each of its games.</p>\n<h2>Standings</h2>",
            1,
        );
        let body = format!(
            "<h2>Ratings over time</h2>\n<p>Each version's rating after each of its games (the league's game number across), with its 95% band.</p>\n{svg}"
        );
        write(
            &out.join("ratings.html"),
            &pages::frame("ratings over time", "index.html", &body),
        )?;
    }
    write(&out.join("index.html"), &index)?;
    write(&out.join("games.html"), &pages::games(input.rows, &links))?;
    for (k, file) in entrant_files.iter().enumerate() {
        write(
            &out.join("entrants").join(file),
            &pages::entrant(s, k, input.rows, &links),
        )?;
    }
    let written = game_pages.iter().filter(|p| p.is_ok()).count();
    Ok(Written {
        pages: 2 + usize::from(input.ratings_svg.is_some()) + entrant_files.len() + written,
        game_pages: written,
        missing,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrant_files_are_plain_and_distinct() {
        assert_eq!(entrant_file(0, "pimc v2/fast"), "1-pimc_v2_fast.html");
        assert_ne!(entrant_file(0, "a b"), entrant_file(1, "a_b"));
        assert_eq!(entrant_file(2, "../../etc"), "3-______etc.html");
    }

    #[test]
    fn game_pages_are_numbered_with_six_digits() {
        assert_eq!(game_page(7), "000007.html");
        assert_eq!(game_page(1234567), "1234567.html");
    }
}
