//! Verification of records made in process: complete ones pass, every kind of edit is named.

use super::*;
use crate::protocol::TimeLimits;
use crate::record::format::Header;
use crate::record::recorded_deals;
use crate::rules::DealSource;
use crate::rules::Rules;

/// A complete classic record made in process: random legal moves, written as the referee
/// writes them.
fn sample_record(rules: Rules, seed: u64) -> Vec<String> {
    sample_record_ms(rules, seed, 3)
}

/// The same with every move taking `ms` milliseconds.
fn sample_record_ms(rules: Rules, seed: u64, ms: u64) -> Vec<String> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_pcg::Pcg32::seed_from_u64(seed);
    let mut deals = DealSource::from_seed(seed);
    let first = deals.first_dealer();
    let header = Header {
        format: RECORD_FORMAT,
        referee: "tarneeb-referee test".to_string(),
        rules: rules.clone(),
        seed,
        first_dealer: first,
        bots: Vec::new(),
        time: TimeLimits {
            handshake_ms: 1000,
            move_ms: 1000,
            bank_ms: None,
            increment_ms: 0,
        },
        on_fault: "forfeit".to_string(),
        sandbox: None,
        start_scores: None,
        deal_secret: None,
    };
    let mut out = vec![RecordLine::Header(Box::new(header.clone()))];
    let mut game = Game::new(rules, first);
    let mut r = Replayer {
        game: game.clone(),
        policy: FaultPolicy::Forfeit,
        faults_by_team: [0; 2],
        forfeit: None,
        expect: Expect::Any,
        out: VerifiedGame {
            header,
            faults: Vec::new(),
            hands: Vec::new(),
            finished: false,
            result: None,
            aborted: None,
        },
    };
    loop {
        if game.needs_deal() {
            let d = deals.next_deal();
            game.deal(d);
            out.push(RecordLine::Deal {
                hand_number: game.hand().number,
                dealer: game.hand().dealer,
                hands: d.hands(),
            });
            continue;
        }
        let Some(dec) = game.decision() else { break };
        let legal = game.legal_moves();
        let mv = legal.as_slice()[rng.gen_range(0..legal.len())];
        let applied = game.apply_timed(dec.seat, mv, ms).unwrap();
        out.push(RecordLine::Move {
            hand_number: game.hand().number,
            seat: dec.seat,
            decision: dec.kind,
            mv: mv.to_string(),
            ms,
            substituted: false,
        });
        if let Some(h) = applied.hand {
            r.game = game.clone();
            out.push(RecordLine::HandEnd(crate::protocol::hand_end_msg(
                &r.game, &h,
            )));
        }
    }
    r.game = game.clone();
    let g = game.result().unwrap();
    out.push(RecordLine::Result(crate::protocol::game_end_msg(
        &r.game, g.winner, g.reason,
    )));
    out.iter()
        .map(|l| serde_json::to_string(l).unwrap())
        .collect()
}

fn text(lines: &[String]) -> String {
    lines.join("\n") + "\n"
}

fn find(lines: &[String], pred: impl Fn(&RecordLine) -> bool) -> usize {
    lines
        .iter()
        .position(|l| pred(&serde_json::from_str(l).unwrap()))
        .unwrap()
}

#[test]
fn a_complete_record_verifies() {
    for rules in [Rules::classic(), Rules::four_hundred()] {
        let lines = sample_record(rules, 5);
        let g = replay_text(&text(&lines)).unwrap();
        assert!(g.finished);
        assert!(!g.hands.is_empty());
        let moves: usize = g.hands.iter().map(|h| h.moves.len()).sum();
        let recorded = lines
            .iter()
            .filter(|l| l.contains("\"type\":\"move\""))
            .count();
        assert_eq!(moves, recorded);
    }
}

#[test]
fn truncation_is_named_after_the_last_line() {
    let lines = sample_record(Rules::classic(), 6);
    let cut = &lines[..lines.len() - 1];
    let e = replay_text(&text(cut)).unwrap_err();
    assert_eq!(e.line, lines.len());
    assert!(e.problem.contains("truncated"), "{e}");
}

#[test]
fn a_line_after_the_result_is_an_error() {
    let mut lines = sample_record(Rules::classic(), 7);
    lines.push(r#"{"type":"aborted","reason":"late"}"#.to_string());
    let e = replay_text(&text(&lines)).unwrap_err();
    assert_eq!(e.line, lines.len());
    assert!(e.problem.contains("after the game's result"), "{e}");
}

#[test]
fn a_card_not_held_is_named() {
    let mut lines = sample_record(Rules::classic(), 8);
    let i = find(&lines, |l| {
        matches!(
            l,
            RecordLine::Move {
                decision: DecisionKind::Play,
                ..
            }
        )
    });
    let RecordLine::Move { seat, .. } = serde_json::from_str(&lines[i]).unwrap() else {
        unreachable!()
    };
    // A card of the next seat's hand in the last deal before the move.
    let d = lines[..i]
        .iter()
        .rposition(|l| l.contains("\"type\":\"deal\""))
        .unwrap();
    let RecordLine::Deal { hands, .. } = serde_json::from_str(&lines[d]).unwrap() else {
        unreachable!()
    };
    let other = hands[seat.next()].lowest().unwrap();
    let v: serde_json::Value = serde_json::from_str(&lines[i]).unwrap();
    let mut v = v;
    v["move"] = Value::String(other.to_string());
    lines[i] = v.to_string();
    let e = replay_text(&text(&lines)).unwrap_err();
    assert_eq!(e.line, i + 1);
    assert_eq!(
        e.problem,
        format!("seat {seat} played {other} but does not hold it")
    );
}

#[test]
fn a_changed_score_is_named_with_both_values() {
    let mut lines = sample_record(Rules::classic(), 9);
    let i = find(&lines, |l| matches!(l, RecordLine::HandEnd(_)));
    let mut v: Value = serde_json::from_str(&lines[i]).unwrap();
    let real = v["team_scores"][0].as_i64().unwrap();
    v["team_scores"][0] = Value::from(real + 2);
    lines[i] = v.to_string();
    let e = replay_text(&text(&lines)).unwrap_err();
    assert_eq!(e.line, i + 1);
    assert!(
        e.problem
            .starts_with(&format!("hand_end says team_scores [{}, ", real + 2)),
        "{e}"
    );
    assert!(
        e.problem.contains(&format!("the rules give [{real}, ")),
        "{e}"
    );
}

#[test]
fn a_forfeit_result_needs_a_forfeit_fault() {
    let mut lines = sample_record(Rules::classic(), 10);
    let n = lines.len();
    let mut v: Value = serde_json::from_str(&lines[n - 1]).unwrap();
    v["reason"] = Value::from("forfeit");
    lines[n - 1] = v.to_string();
    let e = replay_text(&text(&lines)).unwrap_err();
    assert_eq!(e.line, n);
    assert!(e.problem.contains("no fault with action forfeit"), "{e}");
}

#[test]
fn faults_and_aborts_verify() {
    // A decision fault under substitute, then the referee's move, then an abort.
    let lines = sample_record(Rules::classic(), 11);
    let mut v: Value = serde_json::from_str(&lines[0]).unwrap();
    v["on_fault"] = Value::from("substitute:1");
    let header = v.to_string();
    let deal = &lines[1];
    let RecordLine::Deal { dealer, .. } = serde_json::from_str(deal).unwrap() else {
        unreachable!("the second line is a deal")
    };
    let seat = dealer.next();
    let first_move: Value = serde_json::from_str(&lines[2]).unwrap();
    let mut sub = first_move.clone();
    sub["substituted"] = Value::from(true);
    let fault = |action: &str| {
        format!(
            r#"{{"type":"fault","hand_number":1,"seat":{seat},"kind":"timeout","detail":"slow","action":"{action}"}}"#
        )
    };
    let ok = [
        header.clone(),
        deal.clone(),
        fault("substitute"),
        sub.to_string(),
        r#"{"type":"aborted","reason":"interrupted by a signal"}"#.to_string(),
    ];
    let g = replay_text(&text(&ok)).unwrap();
    assert!(!g.finished);
    assert_eq!(g.hands[0].faults.len(), 1);
    // Without the substituted mark the move is not the referee's.
    let mut bad = ok.clone();
    bad[3] = first_move.to_string();
    let e = replay_text(&text(&bad)).unwrap_err();
    assert_eq!(e.line, 4, "{e}");
    // The wrong action for the policy.
    let mut bad = ok.clone();
    bad[2] = fault("forfeit");
    let e = replay_text(&text(&bad)).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.problem.contains("is a substitute"), "{e}");
    // A forfeit fault must be followed by the forfeit result.
    let mut v: Value = serde_json::from_str(&ok[0]).unwrap();
    v["on_fault"] = Value::from("forfeit");
    let mut forfeit = vec![v.to_string(), deal.clone(), fault("forfeit")];
    forfeit.push(format!(
        r#"{{"type":"result","winner":{},"reason":"forfeit","hands":1,"team_scores":[0,0],"forfeit":{{"seat":{seat},"kind":"timeout","detail":"slow"}}}}"#,
        seat.team().other()
    ));
    replay_text(&text(&forfeit)).unwrap();
    forfeit[3] = forfeit[3].replace("\"hands\":1", "\"hands\":2");
    let e = replay_text(&text(&forfeit)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 4: result says hands 2, the rules give 1"
    );
}

#[test]
fn a_changed_target_shows_at_the_result() {
    let lines = sample_record(Rules::classic(), 12);
    let mut v: Value = serde_json::from_str(&lines[0]).unwrap();
    v["rules"]["target"] = Value::from(10_000);
    let mut tampered = lines.clone();
    tampered[0] = v.to_string();
    let e = replay_text(&text(&tampered)).unwrap_err();
    let last: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(last["reason"], "target");
    assert_eq!(e.line, lines.len(), "{e}");
    assert!(e.problem.contains("the game is not over"), "{e}");
    // Invalid rules are named at the header.
    v["rules"]["target"] = Value::from(0);
    tampered[0] = v.to_string();
    let e = replay_text(&text(&tampered)).unwrap_err();
    assert_eq!(e.line, 1);
    assert!(e.problem.contains("option 'target'"), "{e}");
}

#[test]
fn recorded_deals_come_in_order() {
    let lines = sample_record(Rules::classic(), 13);
    let typed = parse_record(&text(&lines)).unwrap();
    let d = recorded_deals(&typed).unwrap();
    let mut src = DealSource::from_seed(13);
    assert_eq!(d.first_dealer, src.first_dealer());
    for deal in &d.deals {
        assert_eq!(*deal, src.next_deal());
    }
}

#[test]
fn slow_play_strikes_are_recomputed_from_the_recorded_ms() {
    let rules = Rules::four_hundred();
    let limit = rules
        .individual
        .as_ref()
        .unwrap()
        .slow_play
        .unwrap()
        .limit_ms;
    let lines = sample_record_ms(rules, 14, limit + 1);
    let g = replay_text(&text(&lines)).unwrap();
    let played = g
        .hands
        .iter()
        .filter_map(|h| h.end.as_ref())
        .find(|e| e.end == "played")
        .expect("a played hand");
    assert!(played.reneged.unwrap().0.iter().all(|&r| r), "{played:?}");
    // The same moves recorded as quick: the rules give no renege, so the first played
    // hand's hand_end disagrees.
    let quick: Vec<String> = lines
        .iter()
        .map(|l| l.replace(&format!("\"ms\":{}", limit + 1), "\"ms\":0"))
        .collect();
    let e = replay_text(&text(&quick)).unwrap_err();
    let i = find(
        &lines,
        |l| matches!(l, RecordLine::HandEnd(h) if h.end == "played"),
    );
    assert_eq!(e.line, i + 1, "{e}");
    assert!(e.problem.starts_with("hand_end says "), "{e}");
}
