//! TLS for remote entrants (rustls with the ring provider): the server's configuration from
//! a certificate and key in PEM files, the relay's from the web's roots or a given CA, and the
//! relay's bridge between its TLS connection and the bot it runs.
//!
//! The server's side has no bridge: the seat's own thread runs the TLS session
//! (`bot::tls_end`), since a thread per connection cost the referee a wake-up and two socket
//! pair system calls per message each way. The relay (the participant's machine, one
//! connection per bot) keeps the bridge: one thread per connection moves bytes between the
//! TLS stream and one end of a local socket pair, whose other end is the relay's loop.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};

/// Plaintext waiting for the local end, at most: past it the bridge stops reading the network,
/// so a peer that floods costs bounded memory.
const PENDING_CAP: usize = 256 * 1024;

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The server's TLS configuration from `--tls-cert` (PEM, the chain) and `--tls-key` (PEM).
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<rustls::ServerConfig>, String> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .map_err(|e| format!("--tls-cert {}: {e}", cert.display()))?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--tls-cert {}: {e}", cert.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "--tls-cert {}: no certificate in it (expected PEM: -----BEGIN CERTIFICATE-----)",
            cert.display()
        ));
    }
    let key = PrivateKeyDer::from_pem_file(key).map_err(|e| {
        format!(
            "--tls-key {}: {e} (expected a PEM private key: -----BEGIN PRIVATE KEY-----)",
            key.display()
        )
    })?;
    let config = rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("--tls-cert and --tls-key do not make a usable pair: {e}"))?;
    Ok(Arc::new(config))
}

/// The relay's TLS configuration: the server's certificate verified against `ca` (PEM, for a
/// self-signed one) or, without it, the web's root certificates.
pub fn client_config(ca: Option<&Path>) -> Result<Arc<rustls::ClientConfig>, String> {
    let mut roots = rustls::RootCertStore::empty();
    match ca {
        Some(path) => {
            let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
                .map_err(|e| format!("--ca {}: {e}", path.display()))?
                .collect::<Result<_, _>>()
                .map_err(|e| format!("--ca {}: {e}", path.display()))?;
            if certs.is_empty() {
                return Err(format!("--ca {}: no certificate in it", path.display()));
            }
            for c in certs {
                roots
                    .add(c)
                    .map_err(|e| format!("--ca {}: {e}", path.display()))?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// A client connection to `name` (a DNS name or an IP address, as in the certificate).
pub fn client(
    config: &Arc<rustls::ClientConfig>,
    name: &str,
) -> Result<rustls::ClientConnection, String> {
    let server = ServerName::try_from(name.to_string())
        .map_err(|_| format!("'{name}' is not a server name (a DNS name or an IP address)"))?;
    rustls::ClientConnection::new(Arc::clone(config), server).map_err(|e| e.to_string())
}

/// Runs `conn` over `tcp` in a thread of its own and returns the local end of a socket pair
/// carrying its plaintext both ways. When either side closes or fails, both are closed.
pub fn bridge(conn: rustls::Connection, tcp: TcpStream) -> io::Result<UnixStream> {
    let (ours, theirs) = UnixStream::pair()?;
    tcp.set_nonblocking(true)?;
    ours.set_nonblocking(true)?;
    std::thread::Builder::new()
        .name("tls-bridge".into())
        .spawn(move || pump(conn, tcp, ours))?;
    Ok(theirs)
}

fn pump(mut conn: rustls::Connection, mut tcp: TcpStream, mut local: UnixStream) {
    let mut to_local: Vec<u8> = Vec::new();
    let mut buf = vec![0u8; 16 * 1024];
    let mut net_eof = false;
    loop {
        // Send what rustls has for the network.
        while conn.wants_write() {
            match conn.write_tls(&mut tcp) {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => return,
            }
        }
        // Take the plaintext it has decrypted.
        while to_local.len() < PENDING_CAP {
            match conn.reader().read(&mut buf) {
                Ok(0) => {
                    net_eof = true;
                    break;
                }
                Ok(n) => to_local.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    net_eof = true;
                    break;
                }
            }
        }
        // Hand it to the local end, as much as it takes now.
        while !to_local.is_empty() {
            match local.write(&to_local) {
                Ok(n) => {
                    to_local.drain(..n);
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => return,
            }
        }
        if net_eof && to_local.is_empty() {
            let _ = local.shutdown(std::net::Shutdown::Write);
            return;
        }
        let mut fds = [
            libc::pollfd {
                fd: tcp.as_raw_fd(),
                events: 0,
                revents: 0,
            },
            libc::pollfd {
                fd: local.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        if !net_eof && to_local.len() < PENDING_CAP {
            fds[0].events |= libc::POLLIN;
        }
        if conn.wants_write() {
            fds[0].events |= libc::POLLOUT;
        }
        if !to_local.is_empty() {
            fds[1].events |= libc::POLLOUT;
        }
        // SAFETY: two valid pollfds; an hour's timeout only bounds a wait nothing ends.
        let r = unsafe { libc::poll(fds.as_mut_ptr(), 2, 3_600_000) };
        if r < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        let bad = libc::POLLERR | libc::POLLHUP | libc::POLLNVAL;
        if fds[0].revents & (libc::POLLIN | bad) != 0 && !net_eof {
            match conn.read_tls(&mut tcp) {
                Ok(0) => net_eof = true,
                Ok(_) => {
                    if conn.process_new_packets().is_err() {
                        // The alert rustls queued goes out, then the connection is over.
                        let _ = conn.write_tls(&mut tcp);
                        return;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(_) => return,
            }
        }
        if fds[1].revents & (libc::POLLIN | bad) != 0 {
            match local.read(&mut buf) {
                Ok(0) => {
                    // The local side is done (the bot was stopped): end the session cleanly.
                    conn.send_close_notify();
                    let _ = tcp.set_nonblocking(false);
                    while conn.wants_write() {
                        if conn.write_tls(&mut tcp).is_err() {
                            break;
                        }
                    }
                    return;
                }
                Ok(n) => {
                    if conn.writer().write_all(&buf[..n]).is_err() {
                        return;
                    }
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) => {}
                Err(_) => return,
            }
        }
    }
}
