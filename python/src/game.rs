//! `tarneeb.Game`: one game driven move by move, dealt from a seed or from given deals.

use std::collections::VecDeque;

use pyo3::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64;
use serde_json::Value;

use tarneeb_referee::players::{random_move, PlayerKind};
use tarneeb_referee::protocol::{game_end_msg, hand_end_msg, HandEndMsg};
use tarneeb_referee::rules::{
    Deal, DealSource, Game as RulesGame, Move, Rules, RulesKind, Seat, StartScores,
};
use tarneeb_referee::{rules_file, simulate};

use crate::view::{cards_py, hands_of, seat_of};
use crate::{int_arg, json_dumps, load_rules, seed_arg, to_py, IllegalMoveError, TarneebError};

/// How a game began, enough to make it again (pickling replays this and then the steps).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Origin {
    New {
        seed: Option<u64>,
        deals: Vec<Vec<Vec<String>>>,
        scores: Option<Vec<i32>>,
        first_dealer: usize,
    },
    FromView {
        view: Value,
        hands: Vec<Vec<String>>,
        seed: Option<u64>,
    },
}

/// What happened since the origin: moves (seat, move) and hands dealt by `deal(hands)`.
#[derive(Clone)]
enum Step {
    Move(Move),
    Deal(Deal),
}

/// Where the next deals come from: the given ones first, then the seeded source (if any).
#[derive(Clone)]
struct Deals {
    given: VecDeque<Deal>,
    source: Option<DealSource>,
}

impl Deals {
    fn next(&mut self) -> Option<Deal> {
        self.given
            .pop_front()
            .or_else(|| self.source.as_mut().map(DealSource::next_deal))
    }
}

/// One game of Tarneeb, Egyptian Tarneeb, 400 or Forty-One, by the referee's rules engine.
#[pyclass(module = "tarneeb._core")]
#[derive(Clone)]
pub struct Game {
    pub(crate) game: RulesGame,
    deals: Deals,
    last_hand: Option<HandEndMsg>,
    /// Shared by clones (a rules JSON is costly to copy on every search clone).
    origin: Option<std::sync::Arc<Origin>>,
    steps: Vec<Step>,
}

/// A seat argument: an int 0-3.
pub(crate) fn seat_arg(obj: &Bound<'_, PyAny>) -> PyResult<Seat> {
    seat_of(int_arg(obj, "seat", 0, 3)?)
}

impl Game {
    pub(crate) fn from_parts(
        game: RulesGame,
        given: Vec<Deal>,
        source: Option<DealSource>,
    ) -> Game {
        let mut g = Game {
            game,
            deals: Deals {
                given: given.into(),
                source,
            },
            last_hand: None,
            origin: None,
            steps: Vec::new(),
        };
        g.deal_if_due();
        g
    }

    fn deal_if_due(&mut self) {
        if self.game.needs_deal() {
            if let Some(d) = self.deals.next() {
                self.game.deal(d);
            }
        }
    }

    /// Applies a move already known legal in form; deals the next hand when one is due.
    pub(crate) fn apply_move(&mut self, seat: Seat, mv: Move) -> PyResult<()> {
        let applied = self
            .game
            .apply(seat, mv)
            .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        self.steps.push(Step::Move(mv));
        if let Some(h) = applied.hand {
            self.last_hand = Some(hand_end_msg(&self.game, &h));
        }
        self.deal_if_due();
        Ok(())
    }

    pub(crate) fn parse_move(&self, text: &str) -> PyResult<(Seat, Move)> {
        let d = self.game.decision().ok_or_else(|| {
            IllegalMoveError::new_err(if self.game.is_over() {
                format!("may not {text}: the game is over")
            } else {
                format!("may not {text}: the next hand has not been dealt (give more deals, or call deal(hands))")
            })
        })?;
        let mv = Move::parse(d.kind, text).map_err(|e| {
            IllegalMoveError::new_err(format!("seat {} may not {text}: {e}", d.seat))
        })?;
        Ok((d.seat, mv))
    }
}

impl Game {
    fn create(
        rules: Rules,
        seed: Option<u64>,
        deals: Vec<Vec<Vec<String>>>,
        scores: Option<Vec<i32>>,
        first_dealer: Option<i64>,
    ) -> PyResult<Game> {
        let given = deals
            .iter()
            .cloned()
            .enumerate()
            .map(|(i, d)| parse_deal(d, i + 1))
            .collect::<PyResult<Vec<Deal>>>()?;
        // Without deals or a seed the deals are random; with deals only, they are all there is.
        let seed = match (seed, given.is_empty()) {
            (Some(s), _) => Some(s),
            (None, true) => Some(rand::random()),
            (None, false) => None,
        };
        let mut source = seed.map(DealSource::from_seed);
        let drawn = source.as_mut().map(DealSource::first_dealer);
        let dealer = match first_dealer {
            Some(s) => seat_of(s)?,
            None => drawn.unwrap_or(Seat::from_index(0)),
        };
        let mut game = RulesGame::new(rules.clone(), dealer);
        if let Some(s) = &scores {
            game = game
                .with_scores(start_scores(&rules, s.clone())?)
                .map_err(TarneebError::new_err)?;
        }
        let origin = Origin::New {
            seed,
            deals,
            scores,
            first_dealer: dealer.index(),
        };
        let mut g = Game::from_parts(game, given, source);
        g.origin = Some(std::sync::Arc::new(origin));
        Ok(g)
    }
}

impl Game {
    fn rebuilt(
        rules: Rules,
        v: Value,
        hands: Vec<Vec<String>>,
        seed: Option<u64>,
    ) -> PyResult<Game> {
        let held = hands_of(hands.clone(), "hands")?;
        let game = crate::view::rebuild(&rules, &v, held)?;
        let origin = Origin::FromView {
            view: v,
            hands,
            seed,
        };
        let mut g = Game::from_parts(game, Vec::new(), seed.map(DealSource::from_seed));
        g.origin = Some(std::sync::Arc::new(origin));
        Ok(g)
    }

    /// The pickled state: JSON `{"rules", "origin", "steps": [move text | four hands]}`.
    fn state(&self) -> PyResult<String> {
        let origin = self.origin.as_ref().ok_or_else(|| {
            TarneebError::new_err("this game cannot be pickled: its origin is unknown")
        })?;
        let steps: Vec<Value> = self
            .steps
            .iter()
            .map(|s| match s {
                Step::Move(m) => Value::from(m.text().as_str()),
                Step::Deal(d) => Value::from(
                    d.hands()
                        .0
                        .iter()
                        .map(|&h| Value::from(cards_py(h)))
                        .collect::<Vec<_>>(),
                ),
            })
            .collect();
        serde_json::to_string(
            &serde_json::json!({"rules": self.game.rules(), "origin": &**origin, "steps": steps}),
        )
        .map_err(|e| TarneebError::new_err(e.to_string()))
    }

    fn restore(state: &str) -> PyResult<Game> {
        let bad = |e: String| TarneebError::new_err(format!("not a pickled tarneeb.Game: {e}"));
        #[derive(serde::Deserialize)]
        struct State {
            rules: Value,
            origin: Origin,
            steps: Vec<Value>,
        }
        let st: State = serde_json::from_str(state).map_err(|e| bad(e.to_string()))?;
        let rules = rules_file::from_value(st.rules, "the pickled rules")
            .map_err(|e| bad(format!("{e:#}")))?;
        let mut g = match st.origin {
            Origin::New {
                seed,
                deals,
                scores,
                first_dealer,
            } => Game::create(rules, seed, deals, scores, Some(first_dealer as i64))?,
            Origin::FromView { view, hands, seed } => Game::rebuilt(rules, view, hands, seed)?,
        };
        for s in &st.steps {
            match s {
                Value::String(m) => {
                    let (seat, mv) = g.parse_move(m)?;
                    g.apply_move(seat, mv)?;
                }
                other => {
                    let hands: Vec<Vec<String>> =
                        serde_json::from_value(other.clone()).map_err(|e| bad(e.to_string()))?;
                    let d = parse_deal(hands, g.game.hands_dealt() as usize + 1)?;
                    g.game.deal(d);
                    g.steps.push(Step::Deal(d));
                }
            }
        }
        Ok(g)
    }
}

fn parse_deal(hands: Vec<Vec<String>>, n: usize) -> PyResult<Deal> {
    let what = format!("deal {n}");
    let set = hands_of(hands, &what)?;
    Deal::new(set).map_err(|e| TarneebError::new_err(format!("{what}: {e}")))
}

fn start_scores(rules: &Rules, scores: Vec<i32>) -> PyResult<StartScores> {
    match (rules.kind(), scores.as_slice()) {
        (_, [a, b]) => Ok(StartScores::Teams([*a, *b])),
        (_, [a, b, c, d]) => Ok(StartScores::Seats([*a, *b, *c, *d])),
        (RulesKind::Contract(_), _) => Err(TarneebError::new_err(
            "these rules score per partnership: give two scores, like scores=[30, 25]",
        )),
        (RulesKind::Individual(_), _) => Err(TarneebError::new_err(
            "these rules score per player: give four scores, like scores=[35, 20, 10, 5]",
        )),
    }
}

#[pymethods]
impl Game {
    #[new]
    #[pyo3(signature = (rules = None, seed = None, deals = None, scores = None, first_dealer = None))]
    fn new(
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        deals: Option<Vec<Vec<Vec<String>>>>,
        scores: Option<Vec<Bound<'_, PyAny>>>,
        first_dealer: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let rules = match rules {
            Some(r) => load_rules(r)?,
            None => Rules::classic(),
        };
        let seed = seed.map(|s| seed_arg(s, "seed")).transpose()?;
        let first_dealer = first_dealer
            .map(|s| int_arg::<i64>(s, "first_dealer", 0, 3))
            .transpose()?;
        let scores = scores
            .map(|v| {
                v.iter()
                    .map(|s| int_arg::<i32>(s, "a start score", i32::MIN.into(), i32::MAX.into()))
                    .collect::<PyResult<Vec<i32>>>()
            })
            .transpose()?;
        Game::create(rules, seed, deals.unwrap_or_default(), scores, first_dealer)
    }
    /// The seat to move (0-3), or None when the game is over or waits for a deal.
    fn to_move(&self) -> Option<usize> {
        self.game.decision().map(|d| d.seat.index())
    }

    /// The kind of decision now: "throw-in", "call", "trump" or "play" (None if none).
    fn decision(&self) -> Option<&'static str> {
        self.game.decision().map(|d| d.kind.as_str())
    }

    /// The legal moves now, as the protocol's `legal` list writes them.
    fn legal_moves(&self) -> Vec<String> {
        self.game
            .legal_moves()
            .iter()
            .map(|m| m.text().as_str().to_string())
            .collect()
    }

    /// Makes a move (a protocol move string) for the seat to move.
    fn apply(&mut self, mv: &str) -> PyResult<()> {
        let (seat, m) = self.parse_move(mv)?;
        self.apply_move(seat, m)
    }

    /// The protocol's request `view` for `seat`, as a dict.
    fn view(&self, py: Python<'_>, seat: &Bound<'_, PyAny>) -> PyResult<PyObject> {
        to_py(py, &self.game.view(seat_arg(seat)?))
    }

    /// The protocol's request `view` for `seat`, as JSON text.
    fn view_json(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        serde_json::to_string(&self.game.view(seat_arg(seat)?))
            .map_err(|e| TarneebError::new_err(e.to_string()))
    }

    /// An independent copy.
    fn clone(&self) -> Game {
        Clone::clone(self)
    }

    fn __copy__(&self) -> Game {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        Clone::clone(self)
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// True when the hand is over and no deal is left to start the next one.
    fn needs_deal(&self) -> bool {
        self.game.needs_deal()
    }

    /// Starts the next hand with `hands` (four lists of 13 cards, seat order).
    fn deal(&mut self, hands: Vec<Vec<String>>) -> PyResult<()> {
        if !self.game.needs_deal() {
            return Err(TarneebError::new_err(
                "no deal is due: deal(hands) starts the next hand only after a hand has ended",
            ));
        }
        let d = parse_deal(hands, self.game.hands_dealt() as usize + 1)?;
        self.game.deal(d);
        self.steps.push(Step::Deal(d));
        Ok(())
    }

    /// The game's result as the protocol's `game_end` message (winner, reason, hands, scores),
    /// or None while it goes on.
    fn result(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        match self.game.result() {
            Some(r) => Ok(Some(to_py(
                py,
                &game_end_msg(&self.game, r.winner, r.reason),
            )?)),
            None => Ok(None),
        }
    }

    /// The last hand's result as the protocol's `hand_end` message, or None before the first.
    fn hand_result(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        self.last_hand.as_ref().map(|h| to_py(py, h)).transpose()
    }

    /// Partnership totals [team 0, team 1] (in 400 / 41 the partners' scores added).
    fn scores(&self) -> Vec<i32> {
        self.game.team_totals().0.to_vec()
    }

    /// Each player's score (400 and Forty-One; zeros in partnership games).
    fn seat_scores(&self) -> Vec<i32> {
        self.game.seat_scores().0.to_vec()
    }

    /// The hand being played (1, 2, ...).
    #[getter]
    fn hand_number(&self) -> u32 {
        self.game.hands_dealt()
    }

    #[getter]
    fn dealer(&self) -> usize {
        self.game.dealer().index()
    }

    /// The complete rules, as `tarneeb rules` prints them.
    #[getter]
    fn rules(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_py(py, self.game.rules())
    }

    /// The cards each seat holds now (all four hands: the full state, for search).
    fn hands(&self) -> Vec<Vec<&'static str>> {
        self.game
            .hand()
            .held
            .0
            .iter()
            .map(|&h| cards_py(h))
            .collect()
    }

    /// Plays random legal moves (the built-in random player's) until the game ends, or with
    /// `hand_only` until the hand ends; returns the number of moves made.
    #[pyo3(signature = (seed, hand_only = false))]
    fn playout(
        &mut self,
        py: Python<'_>,
        seed: &Bound<'_, PyAny>,
        hand_only: bool,
    ) -> PyResult<u64> {
        let mut rng = Pcg64::seed_from_u64(seed_arg(seed, "seed")?);
        let start = self.game.hands_dealt();
        let mut n: u64 = 0;
        while let Some(d) = self.game.decision() {
            if hand_only && self.game.hands_dealt() != start {
                break;
            }
            let mv = random_move(&self.game, &mut rng);
            self.apply_move(d.seat, mv)?;
            n += 1;
            // Ctrl-C: a game can be thousands of moves when every hand is passed out.
            if n.is_multiple_of(4096) {
                py.check_signals()?;
            }
        }
        Ok(n)
    }

    /// tarneeb.env's observation of `seat` (float32 little-endian bytes, the layout of
    /// `OBS_LAYOUT`) and its action mask (a byte per action of `ALL_MOVES`), from the seat's
    /// view only.
    fn observe<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<(
        Bound<'py, pyo3::types::PyBytes>,
        Bound<'py, pyo3::types::PyBytes>,
    )> {
        let (obs, mask) = crate::observe::observe(&self.game, seat_arg(seat)?);
        let bytes: Vec<u8> = obs.iter().flat_map(|x| x.to_le_bytes()).collect();
        Ok((
            pyo3::types::PyBytes::new_bound(py, &bytes),
            pyo3::types::PyBytes::new_bound(py, &mask),
        ))
    }

    /// Makes the move with index `action` in `ALL_MOVES` (tarneeb.env's action space).
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let n = crate::observe::action_count();
        let i: usize = int_arg(action, "action", 0, n as i128 - 1)?;
        let mv = Move::all().nth(i).expect("in range");
        let d = self.game.decision().ok_or_else(|| {
            IllegalMoveError::new_err(format!("may not {}: no move is due", mv.text().as_str()))
        })?;
        if mv.kind() != d.kind {
            return Err(IllegalMoveError::new_err(format!(
                "action {i} ({} {}) is not a {} move: use the action_mask",
                mv.kind().as_str(),
                mv.text().as_str(),
                d.kind.as_str()
            )));
        }
        self.apply_move(d.seat, mv)
    }

    /// Rebuilds a full game from a seat's `view` and a guess of every seat's cards held now.
    #[staticmethod]
    #[pyo3(signature = (view, hands, rules = None, seed = None))]
    fn from_view(
        view: &Bound<'_, PyAny>,
        hands: Vec<Vec<String>>,
        rules: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Game> {
        let rules = match rules {
            Some(r) => load_rules(r)?,
            None => Rules::classic(),
        };
        let seed = seed.map(|s| seed_arg(s, "seed")).transpose()?;
        let text = json_dumps(view)?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| TarneebError::new_err(format!("the view is not JSON: {e}")))?;
        Game::rebuilt(rules, v, hands, seed)
    }

    /// Pickling: the game is made again from how it began and the moves and deals since.
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (String,))> {
        let state = slf.borrow().state()?;
        let restore = slf.get_type().getattr("_restore")?.unbind();
        Ok((restore, (state,)))
    }

    /// The game a `__reduce__` state makes (for pickle; not a public format).
    #[staticmethod]
    fn _restore(state: &str) -> PyResult<Game> {
        Game::restore(state)
    }

    fn __repr__(&self) -> String {
        format!(
            "<tarneeb.Game hand {} {} scores {:?}>",
            self.game.hands_dealt(),
            match self.game.decision() {
                Some(d) => format!("seat {} to {}", d.seat, d.kind),
                None if self.game.is_over() => "over".to_string(),
                None => "waiting for a deal".to_string(),
            },
            self.game.team_totals().0
        )
    }
}

/// Plays `games` whole games of random moves inside Rust, exactly as `tarneeb simulate
/// --players random` (seeds `seed`, `seed+1`, ...), and returns its summary as a dict.
#[pyfunction]
#[pyo3(signature = (games, rules = None, seed = None, players = None))]
pub fn playout(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    players: Option<Vec<String>>,
) -> PyResult<PyObject> {
    let rules = match rules {
        Some(r) => load_rules(r)?,
        None => Rules::classic(),
    };
    let kinds: Vec<PlayerKind> = players
        .unwrap_or_else(|| vec!["random".into()])
        .iter()
        .map(|p| match p.as_str() {
            "random" => Ok(PlayerKind::Random),
            "greedy" => Ok(PlayerKind::Greedy),
            _ => Err(TarneebError::new_err(format!(
                "'{p}' is not a built-in player: use random or greedy"
            ))),
        })
        .collect::<PyResult<_>>()?;
    let kinds: [PlayerKind; 4] = match kinds.as_slice() {
        [one] => [*one; 4],
        [a, b, c, d] => [*a, *b, *c, *d],
        other => {
            return Err(TarneebError::new_err(format!(
                "players takes one kind or four (one per seat), got {}",
                other.len()
            )))
        }
    };
    let games: u64 = int_arg(games, "games", 0, u64::MAX.into())?;
    let seed = seed.map(|s| seed_arg(s, "seed")).transpose()?.unwrap_or(1);
    // Ctrl-C: the signal handlers run only with the GIL, so it is taken every 64 games to ask.
    let mut interrupted = None;
    let summary = py.allow_threads(|| {
        let mut n = 0u64;
        simulate::run_until(&rules, games, seed, kinds, || {
            n += 1;
            if !n.is_multiple_of(64) {
                return false;
            }
            Python::with_gil(|py| py.check_signals())
                .map_err(|e| interrupted = Some(e))
                .is_err()
        })
    });
    match (summary, interrupted) {
        (Some(s), _) => to_py(py, &s),
        (None, Some(e)) => Err(e),
        (None, None) => Err(TarneebError::new_err("the playout stopped")),
    }
}
