//! `tarneeb keygen FILE`: a new deal key for `--deal-key`.

use std::path::PathBuf;

use anyhow::Result;

use super::UsageError;
use tarneeb_referee::deal_key::{self, DealKeyError};

#[derive(clap::Args)]
pub struct KeygenArgs {
    /// The new key file (must not exist yet).
    file: PathBuf,
}

pub fn run(a: KeygenArgs) -> Result<()> {
    let secret = deal_key::fresh();
    deal_key::write_new(&a.file, &secret).map_err(|e| match e {
        DealKeyError::Exists { .. } => anyhow::Error::from(UsageError(e.to_string())),
        other => other.into(),
    })?;
    eprintln!(
        "wrote deal key {} (id {}); keep it where no bot can read it",
        a.file.display(),
        secret.id()
    );
    Ok(())
}
