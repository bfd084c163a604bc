//! The flags of `tarneeb tournament` for remote entrants (`--bot NAME=remote`), and starting
//! the server their relays connect to.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::args::parse_duration_ms;
use tarneeb_referee::remote::listener::{ListenConfig, Server};
use tarneeb_referee::remote::lobby::Lobby;
use tarneeb_referee::remote::tls;
use tarneeb_referee::remote::tokens::{Tokens, TOKENS_FILE};
use tarneeb_referee::tournament::run::runner::Entrant;
use tarneeb_referee::tournament::run::spec::RemotePolicy;

/// Where a server for remote seats listens and how (`tournament` and `play`).
#[derive(clap::Args, Debug)]
pub struct ListenArgs {
    /// Where remote seats' relays (`tarneeb connect`) connect, when a seat is remote
    /// (`tournament --bot NAME=remote`, `play --bot remote:NAME`). Loopback by default;
    /// another address is reachable by whoever can reach it (use --tls-cert and --tls-key
    /// there). Port 0: any free port (printed).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:7420")]
    listen: SocketAddr,
    /// The server's TLS certificate chain (PEM), for --listen; with --tls-key. Not a CA
    /// certificate: a self-signed one made with `openssl req -x509` needs `-addext
    /// basicConstraints=critical,CA:FALSE` (docs/competitions.md), or relays refuse it.
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Allow plain TCP on an address that is not loopback: tokens and cards then cross the
    /// network readable by anyone on the path.
    #[arg(long)]
    insecure: bool,
    /// Time added to each limit of a remote seat for the network (the handshake and every
    /// move), e.g. 50ms; shown in each record's header.
    #[arg(long, value_parser = parse_duration_ms, value_name = "DURATION", default_value = "0s")]
    latency_allowance: u64,
}

impl ListenArgs {
    /// Reads the TLS files and tries the address, so that a missing certificate or a port in
    /// use is said before anything is printed or written (the server binds again to start).
    pub fn probe(&self) -> Result<(), String> {
        if let (Some(cert), Some(key)) = (&self.tls_cert, &self.tls_key) {
            tls::server_config(cert, key)?;
        }
        std::net::TcpListener::bind(self.listen).map(drop).map_err(|e| {
            format!(
                "--listen {}: cannot listen there: {e} (choose another port, or port 0 for any free one)",
                self.listen
            )
        })
    }

    /// Plain TCP off this machine only when asked for.
    pub fn check(&self) -> Result<(), String> {
        if self.tls_cert.is_none() && !self.listen.ip().is_loopback() && !self.insecure {
            return Err(format!(
                "--listen {}: plain TCP off this machine sends tokens and cards in the clear; give --tls-cert and --tls-key, or --insecure",
                self.listen
            ));
        }
        Ok(())
    }

    /// Starts the server for entrants named `names` (by index) holding `tokens`, and says on
    /// stderr where it listens (the line a relay's owner, or a test, reads).
    pub fn serve(
        &self,
        names: Vec<String>,
        tokens: Tokens,
        per_entrant: usize,
        max_line: usize,
    ) -> Result<RemoteSetup, String> {
        let tls = match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Some(tls::server_config(cert, key)?),
            _ => None,
        };
        let lobby = Arc::new(Lobby::new(names));
        let cfg = ListenConfig {
            addr: self.listen,
            tls: tls.clone(),
            handshake: Duration::from_secs(10),
            per_address: 4 * per_entrant.max(8),
            per_entrant,
            max_line,
            allowance: Duration::from_millis(self.latency_allowance),
        };
        let server = Server::start(cfg, tokens, Arc::clone(&lobby)).map_err(|e| {
            format!(
                "--listen {}: cannot listen there: {e} (choose another port, or port 0 for any free one)",
                self.listen
            )
        })?;
        eprintln!(
            "remote seats: listening on {} ({}); a relay joins with `TARNEEB_TOKEN=TOKEN tarneeb connect {}{} -- CMD` (the token in the environment, not on a command line others can list)",
            server.local_addr(),
            if tls.is_some() { "TLS" } else { "plain TCP" },
            server.local_addr(),
            if tls.is_some() { " --ca CERT" } else { "" },
        );
        Ok(RemoteSetup {
            lobby,
            server: Some(server),
            seats: Vec::new(),
        })
    }
}

/// The flags of `tarneeb tournament` for remote entrants.
#[derive(clap::Args, Debug)]
pub struct RemoteArgs {
    #[command(flatten)]
    net: ListenArgs,
    /// Play duplicate deals with remote entrants. Off by default: all of an entrant's
    /// connections belong to one owner, who could learn a deal in one game of a pair before
    /// playing its twin. The standings say when it was on.
    #[arg(long)]
    remote_duplicate: bool,
    /// Connections one remote entrant may hold at once, at least 2. A connection plays one
    /// seat at a time: an entrant partnered with itself needs two per game, so 2 x --jobs to
    /// play in every game slot.
    #[arg(long, value_name = "N", default_value_t = 8)]
    remote_connections: usize,
    /// The address the pages of `--bot NAME=web` entrants' seats listen on (loopback by
    /// default; each seat gets a free port, printed with its one-time token).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    web_listen: std::net::IpAddr,
    /// How long a game waits for an idle connection of each of its remote (and web)
    /// entrants, e.g. 3m, 30s. After it, a seat whose entrant has none forfeits the game as
    /// `absent` and the tournament goes on; the entrant's later games do not wait for it again
    /// until one of its connections arrives.
    #[arg(long, value_parser = parse_duration_ms, value_name = "DURATION", default_value = "3m")]
    absent_timeout: u64,
}

/// The standings' lines on remote entrants (`tournament` and `standings` print the same).
pub fn remote_note(names: &[String], duplicate: bool) -> String {
    let mut note = format!(
        "remote entrants: {} (played from their owners' machines: an entrant's seats there can share what they see)\n",
        names.join(", ")
    );
    if duplicate {
        note.push_str("duplicate deals with remote entrants (--remote-duplicate): an entrant's connections could share a deal between the two games of a pair\n");
    }
    note
}

/// A running server for remote entrants.
pub struct RemoteSetup {
    pub lobby: Arc<Lobby>,
    /// The listener for relays; `None` when every lobby entrant is a web seat.
    server: Option<Server>,
    /// The web seats' threads (`--bot NAME=web`), joined at the end so each page hears that
    /// the tournament is over.
    pub seats: Vec<std::thread::JoinHandle<()>>,
}

impl RemoteSetup {
    /// A lobby with no listener (web entrants only).
    pub fn without_listener(lobby: Arc<Lobby>) -> RemoteSetup {
        RemoteSetup {
            lobby,
            server: None,
            seats: Vec::new(),
        }
    }

    /// The tokens the server accepts from now on (a league's remote entrants come and go).
    pub fn set_tokens(&self, tokens: Tokens) {
        if let Some(server) = &self.server {
            server.set_tokens(tokens);
        }
    }

    /// The tournament is over: idle connections are told so and closed, the server stops.
    pub fn finish(mut self) {
        self.lobby.close();
        // A relay tries again at most every 5 s by default (`connect --max-backoff-ms`).
        self.lobby.wait_for_stragglers(Duration::from_secs(6));
        if let Some(server) = self.server.as_mut() {
            server.stop();
        }
        // Each web seat ends once its page has the news (at most 3 s).
        for seat in self.seats.drain(..) {
            let _ = seat.join();
        }
    }
}

impl RemoteArgs {
    /// Why the server for remote seats cannot listen as asked, if it cannot: the address
    /// (plain TCP off this machine), the TLS files (read now), the port (taken by another
    /// program). Checked before anything is printed or written (issue 41 point 3: a missing
    /// certificate failed after a token was printed and the directory made).
    pub fn listener_refused(&self) -> Option<String> {
        self.net.check().and_then(|()| self.net.probe()).err()
    }

    /// What the tournament's checks need of these flags; `refused` is
    /// [`RemoteArgs::listener_refused`].
    pub fn policy(&self, refused: Option<String>) -> RemotePolicy {
        RemotePolicy {
            duplicate_allowed: self.remote_duplicate,
            connections: self.remote_connections,
            listener_refused: refused,
        }
    }

    /// Where web entrants' seat pages listen (`--web-listen`).
    pub fn web_listen(&self) -> std::net::IpAddr {
        self.web_listen
    }

    /// How long a game waits for a remote entrant's connection (`--absent-timeout`).
    pub fn absent_timeout(&self) -> Duration {
        Duration::from_millis(self.absent_timeout)
    }

    /// Whether duplicate deals with remote entrants were allowed (for the standings).
    pub fn duplicate_allowed(&self) -> bool {
        self.remote_duplicate
    }

    /// Makes or reads the tokens, starts the server and says on stderr where it listens (the
    /// line a relay's owner, or a test, reads). `None` without remote entrants.
    pub fn start(
        &self,
        entrants: &[Entrant],
        dir: &Path,
        max_line: usize,
    ) -> Result<Option<RemoteSetup>, String> {
        let remote: Vec<(usize, String)> = entrants
            .iter()
            .enumerate()
            .filter(|(_, e)| e.is_remote())
            .map(|(i, e)| (i, e.name.clone()))
            .collect();
        if remote.is_empty() {
            return Ok(None);
        }
        let path = dir.join(TOKENS_FILE);
        let (tokens, made) = Tokens::load_or_make(&path, &remote)?;
        for (_, name) in &remote {
            if made.contains(name) {
                let token = tokens.token_of(name).expect("made above");
                eprintln!(
                    "token for {name}: {token} (give it to {name}'s owner only; kept in {})",
                    path.display()
                );
            }
        }
        // "The other" only beside tokens printed now (issue 41 point 3: a second try said it
        // when none was).
        if made.is_empty() {
            eprintln!(
                "the remote entrants' tokens are in {} (made by an earlier run)",
                path.display()
            );
        } else if made.len() < remote.len() {
            eprintln!(
                "the other remote entrants' tokens are in {}",
                path.display()
            );
        }
        let names = entrants.iter().map(|e| e.name.clone()).collect();
        self.net
            .serve(names, tokens, self.remote_connections, max_line)
            .map(Some)
    }
}
