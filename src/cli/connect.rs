//! `tarneeb connect`: the relay that plays a remote entrant's seats from this machine (exit
//! code 0 when the tournament is over, 2 for bad usage or a refusal retrying cannot mend, 130
//! when interrupted).

use std::path::PathBuf;
use std::time::Duration;

use tarneeb_referee::bot::{check_can_start, split_command};
use tarneeb_referee::remote::relay::{self, RelayConfig, RelayEnd};
use tarneeb_referee::remote::tls;
use tarneeb_referee::serve::is_loopback;
use tarneeb_referee::signals;

#[derive(clap::Args, Debug)]
pub struct ConnectArgs {
    /// The server, HOST:PORT (the organiser's `tournament --listen`).
    #[arg(value_name = "HOST:PORT")]
    addr: String,
    /// The entrant's token, as the organiser gave it (64 hex digits). Or set TARNEEB_TOKEN,
    /// which other users of this machine cannot read in the process list.
    #[arg(long, env = "TARNEEB_TOKEN", hide_env_values = true)]
    token: String,
    /// Seats played at once: one connection and one bot process each. An entrant partnered
    /// with itself holds two seats of a game, so 2 plays one game at a time, 4 two games (the
    /// server caps them with --remote-connections).
    #[arg(long, value_name = "N", default_value_t = 2)]
    connections: usize,
    /// Connect with TLS, checking the server's certificate against the web's root
    /// certificates.
    #[arg(long)]
    tls: bool,
    /// Connect with TLS, checking the server's certificate against this CA certificate (PEM),
    /// e.g. the organiser's self-signed one.
    #[arg(long, value_name = "FILE")]
    ca: Option<PathBuf>,
    /// The name the server's certificate must carry, when not the host of HOST:PORT.
    #[arg(long, value_name = "NAME")]
    server_name: Option<String>,
    /// Allow plain TCP to a server that is not on this machine: the token and every card of
    /// your seat then cross the network readable by anyone on the path.
    #[arg(long)]
    insecure: bool,
    /// Longest pause between attempts to connect again after the connection dropped.
    #[arg(long, value_name = "MS", default_value_t = 5000)]
    max_backoff_ms: u64,
    /// Give up (exit 2) when the server cannot be resolved or connected to for this long,
    /// counted from the start or from when it was last reached (a server restarting for a
    /// resume is reached again well within it).
    #[arg(long, value_name = "DURATION", default_value = "10m", value_parser = super::args::parse_duration_ms)]
    give_up_after: u64,
    /// Give up (exit 2) after the bot failed this many handshakes in a row (it exited, or did
    /// not answer `hello`, before writing a line): a bot that cannot start would otherwise
    /// lose every game of the tournament as a handshake forfeit.
    #[arg(long, value_name = "N", default_value_t = 3)]
    handshake_failures: usize,
    /// The bot's command line, after `--`: run as it is (no sandbox: this is your machine).
    #[arg(last = true, required = true, value_name = "CMD")]
    command: Vec<String>,
}

/// Runs `tarneeb connect`; returns the exit code.
pub fn run(a: ConnectArgs) -> u8 {
    match relay_config(&a) {
        Err(message) => {
            eprintln!("tarneeb connect: {message}");
            2
        }
        Ok(cfg) => {
            let stop = signals::install();
            match relay::run(&cfg, stop) {
                RelayEnd::Over => 0,
                RelayEnd::Refused(reason) => {
                    eprintln!("tarneeb connect: giving up: {reason}");
                    2
                }
                RelayEnd::Stopped => 130,
            }
        }
    }
}

fn relay_config(a: &ConnectArgs) -> Result<RelayConfig, String> {
    let host = host_of(&a.addr).ok_or_else(|| {
        format!(
            "'{}' is not HOST:PORT (e.g. 127.0.0.1:7420 or example.org:7420)",
            a.addr
        )
    })?;
    let token = a.token.trim();
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "the token '{}' is not one: a token is the 64 hex digits the organiser's tournament printed for your entrant (`token for NAME: ...`); give it with TARNEEB_TOKEN or --token",
            if token.chars().count() > 12 {
                format!("{}...", token.chars().take(8).collect::<String>())
            } else {
                token.to_string()
            }
        ));
    }
    if a.connections == 0 || a.connections > 64 {
        return Err("--connections must be from 1 to 64".into());
    }
    let command = if a.command.len() == 1 {
        // One word with spaces in it: the whole command line in one argument.
        split_command(&a.command[0]).map_err(|e| e.to_string())?
    } else {
        a.command.clone()
    };
    // A bot that cannot start would only be found at the first game, after connecting.
    check_can_start(&command).map_err(|e| e.to_string())?;
    let tls = if a.tls || a.ca.is_some() {
        let config = tls::client_config(a.ca.as_deref())?;
        let name = a.server_name.clone().unwrap_or_else(|| host.clone());
        Some((config, name))
    } else {
        None
    };
    if tls.is_none() && !a.insecure && !host_is_loopback(&host) {
        return Err(format!(
            "{} is not on this machine: connect with --tls (or --ca FILE for a self-signed certificate), or add --insecure to send the token and your cards in the clear",
            a.addr
        ));
    }
    Ok(RelayConfig {
        addr: a.addr.clone(),
        token: a.token.trim().to_string(),
        connections: a.connections,
        command,
        tls,
        max_backoff: Duration::from_millis(a.max_backoff_ms.max(100)),
        handshake_failures: a.handshake_failures.max(1),
        give_up_after: Duration::from_millis(a.give_up_after),
    })
}

/// The host part of HOST:PORT (without the brackets of an IPv6 address).
fn host_of(addr: &str) -> Option<String> {
    let (host, port) = addr.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    (!host.is_empty()).then(|| host.to_string())
}

fn host_is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| is_loopback(&std::net::SocketAddr::new(ip, 0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_loopback() {
        assert_eq!(host_of("127.0.0.1:7420").as_deref(), Some("127.0.0.1"));
        assert_eq!(host_of("[::1]:7420").as_deref(), Some("::1"));
        assert_eq!(host_of("example.org"), None);
        assert!(host_is_loopback("127.0.0.1"));
        assert!(host_is_loopback("::1"));
        assert!(host_is_loopback("localhost"));
        assert!(!host_is_loopback("192.0.2.7"));
    }
}
