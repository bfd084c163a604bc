//! The files people hand the referee: `--rules` JSON, `--config` TOML or JSON, the rows of
//! `results.jsonl` (read on resume, by `standings` and by merges), and `results.seal`.

use crate::rules::Game;
use crate::standings::row::GameRow;

/// Any `--rules` text: refused with a message, or rules under which whole games run without a
/// panic (the validator must refuse whatever the engine cannot play).
pub(super) fn rules_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rules) = crate::rules_file::from_json_text(text, "fuzz.json") else {
        return;
    };
    // Rules that serialize must read back as themselves (records hold them).
    let json = serde_json::to_string(&rules).expect("rules serialize");
    let back = crate::rules_file::from_json_text(&json, "its own JSON")
        .unwrap_or_else(|e| panic!("valid rules do not read back: {e}\n{json}"));
    assert_eq!(back, rules);
    // A few games with moves from a small generator seeded by the text: bounded in moves, so
    // that rules with a huge target or hand cap cannot stall the fuzzer.
    let mut x = data.len() as u64 ^ 0x9e37_79b9_7f4a_7c15;
    for seed in 0..2 {
        let mut deals = crate::rules::DealSource::from_seed(seed);
        let mut game = Game::new(rules.clone(), deals.first_dealer());
        for _ in 0..2_000 {
            if game.is_over() {
                break;
            }
            if game.needs_deal() {
                game.deal(deals.next_deal());
                continue;
            }
            let Some(d) = game.decision() else { break };
            let legal = game.legal_moves();
            assert!(!legal.is_empty(), "no legal move for {:?}", d);
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mv = legal.as_slice()[(x >> 33) as usize % legal.len()];
            game.apply(d.seat, mv).expect("a legal move applies");
        }
    }
}

/// Any `--config` text, read as TOML and as JSON, then turned into flags: a message or flags,
/// never a panic.
pub(super) fn config(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for json in [false, true] {
        if let Ok(v) = crate::tournament::directory::config::parse(text, json, "fuzz") {
            for bots in [false, true] {
                let _ = crate::tournament::directory::config::to_flags(&v, bots);
            }
        }
    }
}

/// Any `results.jsonl`: the lines that parse as rows go through the standings and their
/// report, as text and as JSON; whatever a row holds (names, seats, scores, pairs that do not
/// match), no panic.
pub(super) fn results_rows(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let rows: Vec<GameRow> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let s = crate::standings::table::standings(&rows);
    for json in [false, true] {
        let _ = crate::standings::report::full(&s, None, &[], json);
    }
}

/// Any `results.seal`: read as the runner reads it; a MAC is taken only as 64 hex digits
/// (written back, the same text in lower case).
pub(super) fn seal(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(seal) = serde_json::from_str::<crate::tournament::directory::seal::SealFile>(text) {
        if let Some(mac) = crate::tournament::directory::seal::unhex(&seal.mac) {
            assert_eq!(
                crate::tournament::directory::seal::hex(&mac),
                seal.mac.to_ascii_lowercase()
            );
        }
    }
    if let Some(key) = crate::tournament::directory::seal::unhex(text.trim()) {
        assert_eq!(
            crate::tournament::directory::seal::hex(&key),
            text.trim().to_ascii_lowercase()
        );
    }
}
