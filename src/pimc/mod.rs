//! `tarneeb bot pimc`: a reference bot of strength, speaking protocol.md on stdin/stdout like
//! any other bot. Card play, trump choice and bids all come from double-dummy solving of deals
//! sampled to agree with what is public (see [`decide`]); each move gets a time budget, and
//! the seed makes a move depend only on the request and the budget's sample count.

pub mod bid_value;
pub mod carry;
pub mod deal_count;
pub mod decide;
pub mod fusion;
pub mod infer;
pub mod match_end;
pub mod play_value;
pub mod quick;
pub mod read_play;
pub mod sample;
pub mod throw_in;
pub mod wire;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_pcg::Pcg64;

use crate::rules::{DecisionKind, Move, Rules};
use carry::{Mix, Moment, Particles};
use decide::{Effort, Table};
use wire::Incoming;

/// How the bot thinks.
#[derive(Clone, Copy, Debug)]
pub struct PimcConfig {
    /// Time budget per move in milliseconds (kept under 40% of the referee's limit too).
    pub ms: u64,
    pub seed: u64,
    /// Stop after this many sampled deals even with time left (for reproducible moves).
    pub max_samples: Option<usize>,
    /// Sample as if the auction said nothing (to measure what reading it is worth).
    pub ignore_bids: bool,
    /// Play the card with the most tricks rather than the best expected score.
    pub play_by_tricks: bool,
    /// The remedy for strategy fusion in the last tricks, if any ([`fusion`]).
    pub fusion: fusion::Fusion,
    /// Carry a card decision's deals to the next one of the hand ([`carry`]).
    pub carry: bool,
    /// Count the lead as a chance of being ahead at the hand cap in the hands just before it
    /// ([`match_end::Horizon`]), not only on the last one.
    pub cap_equity: bool,
}

/// Answers the referee's requests until `game_end` or the end of input. Lines it cannot read
/// are reported on stderr and skipped (the referee judges silence, not the bot).
pub fn run(cfg: PimcConfig, input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut rules: Option<Rules> = None;
    let solver = Solver::start();
    let mut bank = Bank::default();
    // The last card decision's deals; a call or trump choice means a new hand.
    let mut particles: Option<Particles> = None;
    for line in input.lines() {
        let line = line?;
        let msg: Incoming = match serde_json::from_str(&line) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("pimc: cannot read a line ({e}): {line}");
                continue;
            }
        };
        match msg.kind.as_str() {
            "hello" => {
                rules = msg.rules;
                let version = env!("CARGO_PKG_VERSION");
                writeln!(
                    output,
                    r#"{{"type":"hello","name":"pimc","version":"{version}"}}"#
                )?;
                output.flush()?;
            }
            "request" => {
                let id = msg.id.unwrap_or(0);
                let started = Instant::now();
                let job_view = msg.view.as_ref().map(|v| {
                    (
                        v.tricks.len(),
                        v.current_trick.as_ref().map_or(0, |t| t.cards.len()),
                    )
                });
                let at = job_view.filter(|_| msg.decision.as_deref() == Some("play"));
                // A card play early in the hand may add what later ones left unused.
                let (think, hard) = budget(&cfg, &msg);
                let play = at.is_some();
                let drawn = if play {
                    bank.draw(&at, think)
                } else {
                    Duration::ZERO
                };
                let think = (think + drawn).min(hard / THINK_SHARE);
                let carried = particles.take().filter(|_| play && cfg.carry);
                let job = (cfg, rules.clone(), msg, carried);
                let (text, effort, kept) = answer_in_time(&solver, job, started, think, hard);
                particles = kept;
                if play {
                    bank.save(think.saturating_sub(started.elapsed()), cfg.ms);
                }
                let reply = serde_json::json!({"type": "move", "id": id, "move": text.0});
                writeln!(output, "{reply}")?;
                output.flush()?;
                let ms = started.elapsed().as_secs_f64() * 1e3;
                let rate = effort.samples as f64 / (ms / 1e3).max(1e-6);
                let how = match (text.1, effort.fused) {
                    (false, _) => " (solving missed the budget: a quick answer)",
                    (true, true) => " (endgame search)",
                    (true, false) => "",
                };
                let draw_ms = effort.drawing.as_secs_f64() * 1e3;
                eprintln!(
                    "pimc: request {id} {}{}: {} after {} samples in {ms:.0} ms ({rate:.0} samples/s), {} carried, {draw_ms:.1} ms drawing{how}",
                    text.2, where_in_play(&at), text.0, effort.samples, effort.carried
                );
            }
            "game_end" => break,
            _ => {}
        }
    }
    Ok(())
}

/// " (trick T, card P)" for a card play (T from 1, P the card's place in the trick from 1), for
/// the log: deals per decision by trick (docs/analysis.md) are read from it.
fn where_in_play(at: &Option<(usize, usize)>) -> String {
    at.map_or(String::new(), |(t, p)| {
        format!(" (trick {}, card {})", t + 1, p + 1)
    })
}

fn kind_of(decision: &str) -> Option<DecisionKind> {
    [
        DecisionKind::ThrowIn,
        DecisionKind::Call,
        DecisionKind::Trump,
        DecisionKind::Play,
    ]
    .into_iter()
    .find(|k| k.as_str() == decision)
}

/// A floor under the hard limit of a move: one batch of full deals takes DDS a few hundred
/// milliseconds (a median of about 0.4 s for a call's five strains on a loaded 2-core machine),
/// so a small `--ms` still gets one batch solved.
const FLOOR_MS: u64 = 1000;

/// The time a move may take: the hard limit, by which the bot answers whatever the solver
/// is doing, is `--ms` but at least [`FLOOR_MS`]; thinking (starting new batches of deals)
/// stops at `--ms` (calls and trump choices: ten times `--ms`; card plays: their
/// [`phase_share`] of it) or at half the hard limit ([`THINK_SHARE`]),
/// whichever is sooner, so that the batch under way usually ends in time.
/// Both are kept under 40% of the referee's limit.
fn budget(cfg: &PimcConfig, msg: &Incoming) -> (Duration, Duration) {
    let limit = msg
        .time
        .as_ref()
        .and_then(|t| t.limit_ms)
        .map_or(u64::MAX, |l| l * 2 / 5);
    // A call or trump choice solves a deal in every strain, and the score rests on it: it
    // thinks ten times `--ms`, up to half the hard limit (a few such moves a hand), and its
    // floor is [`BIDDING_FLOOR`] times [`FLOOR_MS`].
    let bidding = matches!(msg.decision.as_deref(), Some("call" | "trump"));
    let floor = if bidding {
        BIDDING_FLOOR * FLOOR_MS
    } else {
        FLOOR_MS
    };
    let hard = cfg.ms.max(floor).min(limit);
    let ms = match (bidding, msg.view.as_ref()) {
        (true, _) => cfg.ms * 10,
        (false, Some(v)) if msg.decision.as_deref() == Some("play") => {
            let place = v.current_trick.as_ref().map_or(0, |t| t.cards.len());
            (cfg.ms as f64 * phase_share(v.tricks.len(), place)).round() as u64
        }
        _ => cfg.ms,
    };
    // Thinking stops where it did with a floor of two [`FLOOR_MS`]: the wider floor is for
    // the first deal to be solved on a slow machine, not for more deals on a fast one.
    let paced = if bidding {
        cfg.ms.max(2 * FLOOR_MS).min(limit)
    } else {
        hard
    };
    let think = ms.min(paced / u64::from(THINK_SHARE));
    (Duration::from_millis(think), Duration::from_millis(hard))
}

/// A call's or trump choice's floor, in [`FLOOR_MS`]: one deal's five strains can take DDS
/// most of a second of CPU, and a loaded machine gives the bot a fraction of a core. At
/// `--ms 50`, 7 of 129 calls missed a 1 s floor (load 2 to 5, `bench/pimc_deals.sh`), and with
/// a 2 s floor 54 of 904 calls and trump choices (6.0%) still fell back on rules of thumb at
/// load 8 to 14 (issue 28 asks for under 2%). Thinking stops where it did with a floor of
/// two: the wider floor only gives the first deal time to be solved when the machine is slow.
const BIDDING_FLOOR: u64 = 4;

/// No new batch of deals starts after the hard limit divided by this: the batch under way
/// has the rest up to the reply point (80%), 30% of the limit, to end. With 70% (and 10% to
/// end) pimc at `--ms 500` on a machine at load average 12 answered 4.1% of its requests by
/// rules of thumb, 58 of 280 calls and 22 of 150 first-trick cards: a batch that overran
/// also kept the one solver thread from the next move.
const THINK_SHARE: u32 = 2;

/// The share of `--ms` a card play thinks, by trick (`trick` tricks done) and place in the trick
/// (`place` cards already on the table): the unseen cards are most uncertain, the positions
/// slowest to solve and the choice widest at the start of the hand and at a lead, while the
/// last tricks solve hundreds of deals in `--ms` (issue 28: at `--ms 50`, a median of 2 deals at
/// trick 1 and 516 at trick 12). From 1.72 at trick 1 down by 0.12 a trick (0.28 at trick 13),
/// a lead 1.6 times and a follower's card 0.8 times that: over a hand's 13 tricks and 4 places
/// the shares average 1, so a hand thinks as long as `--ms` a card.
fn phase_share(trick: usize, place: usize) -> f64 {
    let by_trick = 1.72 - 0.12 * trick.min(12) as f64;
    let by_place = if place == 0 { 1.6 } else { 0.8 };
    by_trick * by_place
}

/// Tricks at the start of a hand that may draw on the [`Bank`].
const BANK_TRICKS: usize = 4;

/// Thinking time card plays left unused (their deals settled early, see
/// `play_value::Tally::settled`), kept for the first [`BANK_TRICKS`] tricks of the hand (mostly
/// the next hand's, since the savings come from the last tricks); at most 13 times `--ms`.
#[derive(Debug, Default)]
struct Bank(Duration);

impl Bank {
    /// What a card play at `at` (tricks done, cards on the table) with `think` of its own may
    /// add from the bank: up to as much again, in the first tricks only.
    fn draw(&mut self, at: &Option<(usize, usize)>, think: Duration) -> Duration {
        let early = at.is_some_and(|(t, _)| t < BANK_TRICKS);
        let drawn = if early {
            self.0.min(think)
        } else {
            Duration::ZERO
        };
        self.0 -= drawn;
        drawn
    }

    fn save(&mut self, unused: Duration, ms: u64) {
        self.0 = (self.0 + unused).min(Duration::from_millis(ms * 13));
    }
}

/// The share of the hard limit kept for the reply to reach the referee: on a loaded machine
/// (load average 23, `tests/alone/pimc_time.rs`) replies sent at 90% of a one-second limit arrived
/// up to 45 ms after it, too close to the limit.
const REPLY_SHARE: u32 = 5;

/// When the answer is sent, at the latest, counted from the request.
fn answer_by(hard: Duration) -> Duration {
    hard - hard / REPLY_SHARE
}

/// One decision for the solver thread.
struct Job {
    cfg: PimcConfig,
    rules: Option<Rules>,
    msg: Arc<Incoming>,
    /// The previous card decision's deals, to carry.
    particles: Option<Particles>,
    /// When to stop starting new batches of deals.
    think_until: Instant,
    /// Set once the answer is no longer wanted.
    cancel: Arc<AtomicBool>,
    reply: mpsc::Sender<(String, Effort, Option<Particles>)>,
}

/// The bot's one long-lived solver thread and its job queue. A job whose answer came too late
/// is abandoned cheaply: its cancel flag stops it at its next batch of deals (DDS cannot be
/// stopped inside a solve, and a batch is two positions), and a job cancelled before it
/// started is skipped; so no solving goes on for a move already answered, and no thread is
/// left behind per late move.
struct Solver {
    jobs: Option<mpsc::Sender<Job>>,
}

impl Solver {
    fn start() -> Solver {
        let (tx, rx) = mpsc::channel::<Job>();
        let spawned = std::thread::Builder::new()
            .name("pimc-solver".into())
            .spawn(move || {
                for job in rx {
                    if job.cancel.load(Ordering::Relaxed) {
                        continue;
                    }
                    // A solver fault must cost one move, not the game: the fallback stands in.
                    let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let cancel = Some(&*job.cancel);
                        answer(
                            &job.cfg,
                            job.rules.as_ref(),
                            &job.msg,
                            (job.think_until, cancel),
                            job.particles,
                        )
                    }));
                    if let Ok(a) = got {
                        let _ = job.reply.send(a);
                    }
                }
            });
        Solver {
            jobs: spawned.ok().map(|_| tx),
        }
    }
}

/// The move (as the legal list writes it), whether solving found it (or the clock ran out and
/// the fallback did), and the decision's name. Solving runs on the solver thread; meanwhile
/// this thread works out the fallback (rules of thumb, and for a contract call the estimated
/// deals, by a quarter of the time), so that at the hard limit (less [`REPLY_SHARE`] of it for
/// the reply to reach the referee) the answer is ready: nothing is computed after that. The
/// deals to carry to the next decision come back with a solved answer (a late one loses them).
#[allow(clippy::type_complexity)]
fn answer_in_time(
    solver: &Solver,
    job: (PimcConfig, Option<Rules>, Incoming, Option<Particles>),
    started: Instant,
    think: Duration,
    hard: Duration,
) -> ((String, bool, String), Effort, Option<Particles>) {
    let (cfg, rules, msg, particles) = job;
    let decision = msg.decision.clone().unwrap_or_else(|| "?".into());
    let first = msg.legal.first().cloned().unwrap_or_default();
    let reply_by = started + answer_by(hard);
    let msg = Arc::new(msg);
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let sent = solver.jobs.as_ref().is_some_and(|jobs| {
        jobs.send(Job {
            cfg,
            rules: rules.clone(),
            msg: msg.clone(),
            particles,
            think_until: started + think,
            cancel: cancel.clone(),
            reply: tx,
        })
        .is_ok()
    });
    let fallback_by = started + answer_by(hard) / 4;
    let fallback = quick_answer(&cfg, rules.as_ref(), &msg, fallback_by).unwrap_or(first);
    let solved = sent
        .then(|| rx.recv_timeout(reply_by.saturating_duration_since(Instant::now())))
        .and_then(Result::ok);
    if let Some((text, effort, kept)) = solved {
        return ((text, true, decision), effort, kept);
    }
    cancel.store(true, Ordering::Relaxed);
    ((fallback, false, decision), Effort::default(), None)
}

/// The request's legal moves, parsed; `None` if any is unreadable (then the first is sent).
fn legal_moves(msg: &Incoming) -> Option<(DecisionKind, Vec<Move>)> {
    let kind = msg.decision.as_deref().and_then(kind_of)?;
    let legal: Vec<Move> = msg
        .legal
        .iter()
        .filter_map(|t| Move::parse(kind, t).ok())
        .collect();
    (legal.len() == msg.legal.len() && !legal.is_empty()).then_some((kind, legal))
}

fn quick_answer(
    cfg: &PimcConfig,
    rules: Option<&Rules>,
    msg: &Incoming,
    deadline: Instant,
) -> Option<String> {
    let (kind, legal) = legal_moves(msg)?;
    let (rules, view) = (rules?, msg.view.as_ref()?);
    // A contract call weighs estimated deals by the game's scoring even without a solve.
    let estimated = (kind == DecisionKind::Call && rules.contract.is_some())
        .then(|| {
            let table = Table {
                rules,
                view,
                deadline,
                max_samples: 0,
                read_bids: !cfg.ignore_bids,
                score_play: !cfg.play_by_tricks,
                cancel: None,
                fusion: cfg.fusion,
                cap_equity: cfg.cap_equity,
            };
            let id = msg.id.unwrap_or(0);
            let mut rng = Pcg64::seed_from_u64(cfg.seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            table.estimated_call(&legal, &mut rng)
        })
        .flatten();
    let mv = estimated.unwrap_or_else(|| quick::answer(rules, view, &legal));
    let i = legal.iter().position(|&m| m == mv)?;
    Some(msg.legal[i].clone())
}

/// The reply's move, written exactly as the request's legal list has it, and for a card play
/// the deals to carry to the next one (`particles`, the previous one's, if it sampled none).
fn answer(
    cfg: &PimcConfig,
    rules: Option<&Rules>,
    msg: &Incoming,
    (think_until, cancel): (Instant, Option<&AtomicBool>),
    particles: Option<Particles>,
) -> (String, Effort, Option<Particles>) {
    let first = msg.legal.first().cloned().unwrap_or_default();
    let (Some((kind, legal)), Some(view), Some(rules)) =
        (legal_moves(msg), msg.view.as_ref(), rules)
    else {
        return (first, Effort::default(), None);
    };
    let table = Table {
        rules,
        view,
        deadline: think_until,
        max_samples: cfg.max_samples.unwrap_or(usize::MAX),
        read_bids: !cfg.ignore_bids,
        score_play: !cfg.play_by_tricks,
        cancel,
        fusion: cfg.fusion,
        cap_equity: cfg.cap_equity,
    };
    let id = msg.id.unwrap_or(0);
    let mut rng = Pcg64::seed_from_u64(cfg.seed ^ id.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut kept = None;
    let (mv, effort) = match kind {
        DecisionKind::ThrowIn => (Move::Keep, Effort::default()),
        DecisionKind::Trump => table.trump_choice(&legal, &mut rng),
        DecisionKind::Call if rules.individual.is_some() => table.individual_bid(&legal, &mut rng),
        DecisionKind::Call => table.contract_call(&legal, &mut rng),
        DecisionKind::Play => {
            let cards: Vec<_> = legal
                .iter()
                .filter_map(|m| match m {
                    Move::Play(c) => Some(*c),
                    _ => None,
                })
                .collect();
            let k = table.knowledge();
            let now = Moment::of(view);
            let carried = particles
                .as_ref()
                .map_or_else(Vec::new, |p| p.carry(&now, &k, &mut rng));
            let mut mix = Mix::new(carried);
            let (c, e) = table.play(&cards, &k, &mut mix, &mut rng);
            if cfg.carry {
                kept = if e.samples == 0 {
                    particles
                } else {
                    Some(Particles::keep(now, &k, &mix.deals()))
                };
            }
            (Move::Play(c), e)
        }
    };
    let text = legal
        .iter()
        .position(|&m| m == mv)
        .map_or(first, |i| msg.legal[i].clone());
    (text, effort, kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(lines: &[String]) -> Vec<serde_json::Value> {
        let input = lines.join("\n") + "\n";
        let mut out = Vec::new();
        let cfg = PimcConfig {
            ms: 20,
            seed: 1,
            max_samples: Some(2),
            ignore_bids: false,
            play_by_tricks: false,
            fusion: fusion::Fusion::Off,
            cap_equity: false,
            carry: true,
        };
        run(cfg, input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn answers_hello_and_requests_and_stops_at_game_end() {
        let rules = serde_json::to_string(&Rules::classic()).unwrap();
        let hello = format!(
            r#"{{"type":"hello","protocol":1,"seat":0,"rules":{rules},"time":{{"handshake_ms":1000,"move_ms":1000,"bank_ms":null,"increment_ms":0}}}}"#
        );
        // Seat 0 leads the last trick at No Trump: its one card, then a free choice of two.
        let view = |hand: &str, left: u8| {
            format!(
                r#"{{"seat":0,"dealer":3,"hand":{hand},"trump":"NT","tricks":[],"current_trick":{{"leader":0,"cards":[]}},"cards_left":[{left},{left},{left},{left}]}}"#
            )
        };
        let request = |id: u32, legal: &str, hand: &str, left: u8| {
            format!(
                r#"{{"type":"request","id":{id},"decision":"play","legal":{legal},"view":{},"time":{{"limit_ms":1000,"bank_ms":null}}}}"#,
                view(hand, left)
            )
        };
        let lines = vec![
            hello,
            request(7, r#"["AS"]"#, r#"["AS"]"#, 1),
            r#"{"type":"trick","hand_number":1,"number":13,"leader":0,"cards":["AS","2S","3S","4S"],"winner":0}"#.to_string(),
            request(9, r#"["AS","2H"]"#, r#"["AS","2H"]"#, 2),
            "not json".to_string(),
            r#"{"type":"game_end","winner":0,"reason":"target","hands":1,"team_scores":[31,0]}"#
                .to_string(),
            request(11, r#"["AS"]"#, r#"["AS"]"#, 1),
        ];
        let out = talk(&lines);
        assert_eq!(out.len(), 3, "{out:?}");
        assert_eq!(out[0]["type"], "hello");
        assert_eq!(out[0]["name"], "pimc");
        assert_eq!(
            out[1],
            serde_json::json!({"type": "move", "id": 7, "move": "AS"})
        );
        assert_eq!(out[2]["id"], 9);
        assert!(["AS", "2H"].contains(&out[2]["move"].as_str().unwrap()));
    }

    #[test]
    fn thinking_stops_well_before_the_hard_limit() {
        let msg = |limit: Option<u64>| -> Incoming {
            let time = limit.map_or(String::new(), |l| format!(r#","time":{{"limit_ms":{l}}}"#));
            serde_json::from_str(&format!(r#"{{"type":"request"{time}}}"#)).unwrap()
        };
        let cfg = |ms| PimcConfig {
            ms,
            seed: 0,
            max_samples: None,
            ignore_bids: false,
            play_by_tricks: false,
            fusion: fusion::Fusion::Off,
            cap_equity: false,
            carry: true,
        };
        let ms = |d: Duration| d.as_millis();
        // The default: think 0.5 s, answer by 0.8 s at the latest (a fifth kept for the reply).
        let (think, hard) = budget(&cfg(1000), &msg(None));
        assert_eq!((ms(think), ms(hard)), (500, 1000));
        assert_eq!(ms(answer_by(hard)), 800);
        // A small --ms thinks that long but may finish its one batch within the floor.
        let (think, hard) = budget(&cfg(50), &msg(Some(30_000)));
        assert_eq!((ms(think), ms(hard)), (50, 1000));
        // The referee's limit caps both (40% of it).
        let (think, hard) = budget(&cfg(5000), &msg(Some(1000)));
        assert_eq!((ms(think), ms(hard)), (200, 400));
        // Calls think ten times --ms, to half the hard limit at most.
        let call: Incoming =
            serde_json::from_str(r#"{"type":"request","decision":"call"}"#).unwrap();
        let (think, hard) = budget(&cfg(50), &call);
        assert_eq!((ms(think), ms(hard)), (500, 4000));
        let (think, _) = budget(&cfg(300), &call);
        assert_eq!(ms(think), 1000);
    }

    #[test]
    fn card_plays_think_longest_at_the_start_of_a_hand_and_at_a_lead() {
        // Issue 28: "more deals for leads and early tricks"; the hand as a whole thinks
        // `--ms` a card on average.
        let mean: f64 = (0..13)
            .flat_map(|t| (0..4).map(move |p| phase_share(t, p)))
            .sum::<f64>()
            / 52.0;
        assert!((mean - 1.0).abs() < 1e-9, "{mean}");
        let play = |done: usize, on_table: usize| -> Incoming {
            let tricks = vec![r#"{"leader":0,"cards":["2S","3S","4S","5S"]}"#; done].join(",");
            let table = vec![r#""6S""#; on_table].join(",");
            serde_json::from_str(&format!(
                r#"{{"type":"request","decision":"play","view":{{"seat":0,"dealer":3,"hand":[],
                    "tricks":[{tricks}],"current_trick":{{"leader":0,"cards":[{table}]}},
                    "cards_left":[1,1,1,1]}}}}"#
            ))
            .unwrap()
        };
        let cfg = PimcConfig {
            ms: 100,
            seed: 0,
            max_samples: None,
            ignore_bids: false,
            play_by_tricks: false,
            fusion: fusion::Fusion::Off,
            cap_equity: false,
            carry: true,
        };
        let think = |done, on_table| budget(&cfg, &play(done, on_table)).0.as_millis();
        assert_eq!(think(0, 0), 275);
        assert_eq!(think(0, 3), 138);
        assert_eq!(think(11, 0), 64);
        assert_eq!(think(11, 2), 32);
        // Time the last tricks leave unused goes to the first tricks of the next hand.
        let mut bank = Bank::default();
        bank.save(Duration::from_millis(30), 100);
        bank.save(Duration::from_millis(50), 100);
        let ms = |d: Duration| d.as_millis();
        assert_eq!(ms(bank.draw(&Some((10, 0)), Duration::from_millis(40))), 0);
        assert_eq!(ms(bank.draw(&Some((0, 0)), Duration::from_millis(60))), 60);
        assert_eq!(ms(bank.draw(&Some((1, 0)), Duration::from_millis(60))), 20);
        assert_eq!(ms(bank.draw(&Some((1, 0)), Duration::from_millis(60))), 0);
        // At most 13 times --ms is kept.
        bank.save(Duration::from_secs(60), 100);
        assert_eq!(ms(bank.0), 1300);
    }
}
