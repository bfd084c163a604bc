//! Deals taken from files: the deals of a game record (to play the same cards with other bots)
//! and deals files.

use super::format::RecordLine;
use super::reader::{header_of, line_err as err, LineError, NumberedLine};
use std::path::Path;

use crate::rules::{BySeat, CardSet, Deal, Rules, Seat};

/// The deals of a record in order, with its first dealer and rules (for playing the same cards
/// with other bots). Only the header and the deal lines are looked at.
#[derive(Clone, Debug)]
pub struct RecordedDeals {
    pub first_dealer: Seat,
    pub rules: Rules,
    pub seed: u64,
    pub deals: Vec<Deal>,
}

pub fn recorded_deals(lines: &[NumberedLine]) -> Result<RecordedDeals, LineError> {
    let header = header_of(lines)?;
    let mut deals = Vec::new();
    for l in lines {
        if let RecordLine::Deal { hands, .. } = &l.record {
            let deal =
                Deal::new(*hands).or_else(|e| err(l.line, format!("not a valid deal: {e}")))?;
            deals.push(deal);
        }
    }
    if deals.is_empty() {
        let last = lines.last().map_or(1, |l| l.line);
        return err(last, "the record holds no deal");
    }
    Ok(RecordedDeals {
        first_dealer: header.first_dealer,
        rules: header.rules.clone(),
        seed: header.seed,
        deals,
    })
}

/// Reads deals from a JSON-lines file: every line with a `"hands"` field (four lists of 13
/// cards, seat 0 first) is a deal; other lines are skipped, so a game record works too.
pub fn read_deals(path: &Path) -> Result<Vec<Deal>, String> {
    let text = super::compressed::read_text(path)
        .map_err(|e| format!("cannot read deals file {}: {e}", path.display()))?;
    let mut deals = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = || format!("{}:{}", path.display(), i + 1);
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{}: not JSON: {e}", at()))?;
        let Some(hands) = value.get("hands") else {
            continue;
        };
        let hands: [CardSet; 4] = serde_json::from_value(hands.clone()).map_err(|e| {
            format!(
                "{}: \"hands\" must be four lists of cards like [\"AS\", \"KH\", ...]: {e}",
                at()
            )
        })?;
        deals.push(Deal::new(BySeat(hands)).map_err(|e| format!("{}: {e}", at()))?);
    }
    if deals.is_empty() {
        return Err(format!("deals file {} holds no deal: each line needs {{\"hands\": [[13 cards], [..], [..], [..]]}}", path.display()));
    }
    Ok(deals)
}
