//! `tarneeb rules`: the complete rules of a preset or a rules file, as JSON.

use anyhow::Result;

use tarneeb_referee::{outln, rules_file};

#[derive(clap::Args)]
pub struct RulesArgs {
    /// A preset name or a path to a JSON rules file.
    rules: String,
}

pub fn run(a: RulesArgs) -> Result<()> {
    let r = rules_file::load(&a.rules)?;
    outln!("{}", serde_json::to_string_pretty(&r)?)?;
    Ok(())
}
