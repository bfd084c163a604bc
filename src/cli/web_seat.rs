//! `play --bot web`: the seat's command line, its address and token, and the hidden
//! `tarneeb web-seat` command that plays it (see `tarneeb_referee::serve::seat`).

use std::net::{IpAddr, SocketAddr, TcpListener};

use anyhow::{anyhow, Result};
use rand::RngCore;

/// The hidden command's arguments: where to listen, and the environment variable that holds
/// the token (kept out of the command line, which the record's header keeps).
#[derive(clap::Args)]
pub struct WebSeatArgs {
    #[arg(long)]
    listen: SocketAddr,
    #[arg(long)]
    token_env: String,
}

/// The command for a web seat at `seat`: a free port on `ip`, a fresh token from the OS, and
/// the address to open, printed now. The token goes in the seat's own environment only (the
/// variable and its value returned beside the command, for its `BotSpec::env`), never in this
/// process's: an unsandboxed bot inherits the referee's environment, and read the tokens of
/// every web seat there (issue 39).
pub fn command(seat: usize, ip: IpAddr) -> Result<(Vec<String>, (String, String))> {
    let exe = std::env::current_exe()
        .map_err(|e| anyhow!("cannot find the tarneeb program itself: {e}"))?;
    let port = TcpListener::bind((ip, 0))
        .and_then(|l| l.local_addr())
        .map_err(|e| anyhow!("--bot web: cannot listen on {ip}: {e}"))?
        .port();
    let token = fresh_token();
    let var = format!("TARNEEB_WEB_TOKEN_{seat}");
    let addr = SocketAddr::new(ip, port);
    eprintln!(
        "seat {seat}: play it in your browser: {}",
        seat_url(addr, &token)
    );
    if !ip.is_loopback() {
        eprintln!("tarneeb: warning: {ip} is not a loopback address: keep the address to yourself");
    }
    Ok((
        vec![
            exe.display().to_string(),
            "web-seat".into(),
            "--listen".into(),
            addr.to_string(),
            "--token-env".into(),
            var.clone(),
        ],
        (var, token),
    ))
}

/// A web seat's one-time token: 128 bits from the OS, in hex.
pub fn fresh_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The address a person opens to play the seat at `addr`.
pub fn seat_url(addr: SocketAddr, token: &str) -> String {
    let host = match addr.ip() {
        IpAddr::V6(v6) => format!("[{v6}]"),
        IpAddr::V4(v4) => v4.to_string(),
    };
    format!("http://{host}:{}/?token={token}", addr.port())
}

/// Runs the hidden `tarneeb web-seat` command.
pub fn run(a: WebSeatArgs) -> Result<()> {
    let token = std::env::var(&a.token_env)
        .map_err(|_| anyhow!("web-seat: no token in ${}", a.token_env))?;
    tarneeb_referee::serve::seat::run_web_seat(a.listen, token).map_err(|e| anyhow!(e))
}
