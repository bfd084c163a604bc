//! `tarneeb._core`: the referee's rules engine, deal sampling and double-dummy solver for
//! Python. The Python package `tarneeb` (python/tarneeb/) re-exports these names with
//! docstrings and stubs; everything here drives the root crate's own types (`rules::Game`,
//! `protocol::hand_end_msg`, `pimc` sampling, `analysis` DDS), so a Python bot plays by exactly
//! the referee's rules.

// pyo3 0.22's #[pymethods] expansion converts PyErr into PyErr: clippy's useless_conversion
// fires on every method returning PyResult.
#![allow(clippy::useless_conversion)]

mod game;
mod observe;
mod search;
mod view;

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
use serde::Serialize;

use tarneeb_referee::rules::Rules;
use tarneeb_referee::rules_file;

// Named `tarneeb._core.TarneebError` (the module Python imports them from), so pickle finds
// them: a worker's error reaches a multiprocessing parent as itself.
create_exception!(
    tarneeb._core,
    TarneebError,
    PyValueError,
    "Bad input to the tarneeb package (rules, deals, views, positions); the message says what and how to fix it."
);
create_exception!(
    tarneeb._core,
    IllegalMoveError,
    TarneebError,
    "A move that is not legal now, with the referee's reason."
);

/// A Rust value as the Python object its JSON makes (dicts, lists, numbers, strings).
pub(crate) fn to_py<T: Serialize>(py: Python<'_>, value: &T) -> PyResult<PyObject> {
    let text = serde_json::to_string(value).map_err(|e| TarneebError::new_err(e.to_string()))?;
    json_loads(py, &text)
}

pub(crate) fn json_loads(py: Python<'_>, text: &str) -> PyResult<PyObject> {
    Ok(py
        .import_bound("json")?
        .call_method1("loads", (text,))?
        .unbind())
}

/// A Python object (dict, list, ...) as JSON text.
pub(crate) fn json_dumps(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    obj.py()
        .import_bound("json")?
        .call_method1("dumps", (obj,))?
        .extract()
}

/// An integer argument from `lo` to `hi` (the range of `T` or narrower): a TypeError for what
/// is not an int, a TarneebError naming the argument and its range for an int out of it (never
/// an OverflowError, which is not a ValueError).
pub(crate) fn int_arg<T: TryFrom<i128>>(
    obj: &Bound<'_, PyAny>,
    what: &str,
    lo: i128,
    hi: i128,
) -> PyResult<T> {
    if !obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
        let kind = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not {kind}"
        )));
    }
    obj.extract::<i128>()
        .ok()
        .filter(|v| (lo..=hi).contains(v))
        .and_then(|v| T::try_from(v).ok())
        .ok_or_else(|| {
            TarneebError::new_err(format!(
                "{what} is {obj}, out of range: give an int from {lo} to {hi}"
            ))
        })
}

/// A seed: 0 to 2**64 - 1.
pub(crate) fn seed_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    int_arg(obj, what, 0, u64::MAX.into())
}

/// Rules from a preset name, a path to a rules file, or a dict in the rules file format.
pub(crate) fn load_rules(obj: &Bound<'_, PyAny>) -> PyResult<Rules> {
    let rules = if let Ok(text) = obj.extract::<String>() {
        rules_file::load(&text)
    } else if obj.is_instance_of::<pyo3::types::PyDict>() {
        rules_file::from_json_text(&json_dumps(obj)?, "the rules dict")
    } else {
        return Err(TarneebError::new_err(
            "rules must be a preset name (classic, egyptian, 400, 41), a path to a rules file, or a dict like {\"preset\": \"classic\", \"contract\": {\"kaboot\": \"instant-win\"}}",
        ));
    };
    let rules = rules.map_err(|e| TarneebError::new_err(format!("{e:#}")))?;
    rules
        .validate()
        .map_err(|e| TarneebError::new_err(e.to_string()))?;
    Ok(rules)
}

/// The complete rules of a preset, a rules file or a rules dict, as `tarneeb rules` prints them.
#[pyfunction]
#[pyo3(signature = (preset = None))]
fn rules(py: Python<'_>, preset: Option<&Bound<'_, PyAny>>) -> PyResult<PyObject> {
    let r = match preset {
        Some(p) => load_rules(p)?,
        None => Rules::classic(),
    };
    to_py(py, &r)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TarneebError", m.py().get_type_bound::<TarneebError>())?;
    m.add(
        "IllegalMoveError",
        m.py().get_type_bound::<IllegalMoveError>(),
    )?;
    m.add(
        "PRESETS",
        tarneeb_referee::rules::PRESETS
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>(),
    )?;
    m.add(
        "ALL_MOVES",
        tarneeb_referee::rules::Move::all()
            .map(|mv| (mv.kind().as_str(), mv.text().as_str().to_string()))
            .collect::<Vec<_>>(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("OBS_SIZE", observe::OBS_SIZE)?;
    m.add(
        "OBS_LAYOUT",
        observe::OBS_LAYOUT
            .iter()
            .map(|&(n, l)| (n.to_string(), l))
            .collect::<Vec<_>>(),
    )?;
    m.add("SCORE_SCALE", observe::SCORE_SCALE)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_class::<game::Game>()?;
    m.add_function(wrap_pyfunction!(game::playout, m)?)?;
    m.add_function(wrap_pyfunction!(search::sample_hidden, m)?)?;
    m.add_function(wrap_pyfunction!(search::dd_solve, m)?)?;
    Ok(())
}
