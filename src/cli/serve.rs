//! `tarneeb serve DIR`: the live page of a tournament directory, running or finished, until
//! Ctrl-C. `tournament --serve ADDR` starts the same server for the run it plays.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tarneeb_referee::serve;
use tarneeb_referee::signals;

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The tournament directory (its --out).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Where to listen: an address and port (port 0: any free one, printed). Loopback by
    /// default; any other address makes the page reachable by whoever can reach that address.
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
}

/// Starts the server for `dir` and says where it listens (on stderr, the line a script or a
/// test reads: `serving http://ADDR/`).
pub fn start(
    dir: &std::path::Path,
    listen: SocketAddr,
    total: Option<u64>,
) -> Result<serve::ServeHandle, String> {
    let handle = serve::start(dir, listen, total)?;
    if !serve::is_loopback(&handle.addr()) {
        eprintln!(
            "tarneeb: warning: {} is not a loopback address: anyone who can reach it sees the standings and the games",
            handle.addr()
        );
    }
    eprintln!("serving http://{}/ (read-only)", handle.addr());
    Ok(handle)
}

/// Runs `tarneeb serve`; returns the exit code.
pub fn run(args: ServeArgs) -> u8 {
    if let Err(e) = serve::check_dir(&args.dir) {
        eprintln!("tarneeb: {e}");
        return 2;
    }
    let handle = match start(&args.dir, args.listen, None) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("tarneeb: {e}");
            return 2;
        }
    };
    let stop = signals::install();
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(200));
    }
    handle.shutdown();
    130
}
