//! The Python package's native module, `salpakan._salpakan`: a thin shell over the crate's
//! API, as `capi/` is for C. It converts values and errors and releases the GIL for long
//! calls; every rule stays in the crate.

mod agents;
mod convert;
mod errors;
mod evaluation;
mod game;
mod handles;
mod knowledge;
mod replay;
mod report;
mod values;
mod vecenv;

use pyo3::prelude::*;

/// The native module. `salpakan/__init__.py` re-exports everything in it.
#[pymodule]
fn _salpakan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    let [planes, rows, files] = salpakan::Observation::SHAPE;
    m.add("OBSERVATION_SHAPE", (planes, rows, files))?;
    m.add("OBSERVATION_VERSION", salpakan::Observation::VERSION)?;
    m.add("TEXT_FORMAT", salpakan::text::TEXT_FORMAT)?;
    m.add("NUM_ACTIONS", salpakan::Move::NUM_ACTIONS)?;
    m.add("NUM_SQUARES", salpakan::Square::NUM)?;
    m.add("NO_PIECE", salpakan::Setup::EMPTY_CELL)?;
    m.add("NUM_RANKS", salpakan::Rank::NUM)?;
    let army: Vec<u8> = salpakan::Rank::ARMY.iter().map(|&r| r as u8).collect();
    m.add("ARMY", pyo3::types::PyTuple::new(m.py(), army)?)?;
    m.add_class::<values::Move>()?;
    m.add_class::<values::Setup>()?;
    m.add_class::<handles::Status>()?;
    m.add_class::<handles::Report>()?;
    m.add_class::<handles::Game>()?;
    m.add_class::<game::View>()?;
    m.add_class::<game::PublicView>()?;
    m.add_class::<handles::Tracker>()?;
    m.add_class::<replay::Replay>()?;
    m.add_class::<agents::Random>()?;
    m.add_class::<agents::Greedy>()?;
    m.add_class::<agents::Level>()?;
    m.add_class::<agents::Ismcts>()?;
    m.add_class::<vecenv::VecEnv>()?;
    m.add_function(wrap_pyfunction!(values::challenge, m)?)?;
    m.add(
        "GAMES_FOR_A_VERDICT",
        salpakan_evaluation::GAMES_FOR_A_VERDICT,
    )?;
    m.add_function(wrap_pyfunction!(evaluation::evaluation_score, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::evaluation_verdict, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::evaluation_elo, m)?)?;
    m.add_function(wrap_pyfunction!(values::captures_flag, m)?)?;
    m.add_function(wrap_pyfunction!(values::setup_zone, m)?)?;
    m.add_function(wrap_pyfunction!(values::rank_name, m)?)?;
    m.add_function(wrap_pyfunction!(values::rank_code, m)?)?;
    Ok(())
}
