//! The server's TLS end (`tls_end`) against a rustls client over loopback TCP: lines both
//! ways, the blocking read under the watchdog, `Written` only once the last record is sent,
//! the line cap, and `close_notify` on stop. Time bounds are loose; order is what is checked.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::AtomicBool;
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

use super::watchdog::{Shared, Watchdog};
use super::{Bot, BotEvent, RemoteInfo};

const PATIENCE: Duration = Duration::from_secs(20);

type Client = rustls::StreamOwned<rustls::ClientConnection, TcpStream>;

/// A seat behind TLS, as the listener hands it over after the handshake, and the client end.
fn pair(max_line: usize) -> (Bot, Client) {
    let key = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    let cert = CertificateDer::from(key.cert.der().to_vec());
    let pkcs8 = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.signing_key.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let server = rustls::ServerConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![cert.clone()], pkcs8)
        .unwrap();
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert).unwrap();
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let connecting = thread::spawn(move || {
        let tcp = TcpStream::connect(addr).unwrap();
        let name = "localhost".try_into().unwrap();
        let conn = rustls::ClientConnection::new(Arc::new(client), name).unwrap();
        let mut s = rustls::StreamOwned::new(conn, tcp);
        while s.conn.is_handshaking() {
            s.conn.complete_io(&mut s.sock).unwrap();
        }
        s
    });
    let (mut tcp, _) = listener.accept().unwrap();
    let mut conn = rustls::ServerConnection::new(Arc::new(server)).unwrap();
    while conn.is_handshaking() {
        conn.complete_io(&mut tcp).unwrap();
    }
    let info = RemoteInfo {
        entrant: "alice".into(),
        peer: addr.to_string(),
        allowance: Duration::ZERO,
    };
    let bot = Bot::connected_tls(tcp.into(), conn, info, max_line, Box::new(())).unwrap();
    (bot, connecting.join().unwrap())
}

/// Events until `want` says stop (or the patience runs out), through the poll path.
fn events_until(bot: &mut Bot, mut want: impl FnMut(&BotEvent) -> bool) -> Vec<BotEvent> {
    let end = Instant::now() + PATIENCE;
    let mut seen = Vec::new();
    while Instant::now() < end {
        if let Some(ev) = bot.recv_timeout(Duration::from_millis(100)) {
            let done = want(&ev);
            seen.push(ev);
            if done {
                break;
            }
        }
    }
    seen
}

fn read_line(client: &mut Client) -> Vec<u8> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while client.read(&mut byte).unwrap() == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    line
}

#[test]
fn a_request_and_its_reply_go_through_tls_and_the_reply_is_read_under_the_watchdog() {
    let (mut bot, mut client) = pair(1 << 16);
    bot.send(b"{\"type\":\"ping\"}\n", Some(7));
    let seen = events_until(&mut bot, |e| matches!(e, BotEvent::Written { .. }));
    assert!(
        matches!(seen.last(), Some(BotEvent::Written { id: 7, .. })),
        "{seen:?}"
    );
    assert_eq!(read_line(&mut client), b"{\"type\":\"ping\"}");
    // A reply in two records, the first ending mid-line, then a second line.
    client.write_all(b"{\"type\":\"po").unwrap();
    client.flush().unwrap();
    client.write_all(b"ng\"}\r\nnext\n").unwrap();
    client.flush().unwrap();
    let shared = Shared::for_this_thread();
    let stop = AtomicBool::new(false);
    let mut lines = Vec::new();
    thread::scope(|scope| {
        let dog = Watchdog::start(scope, &shared, &stop).unwrap();
        let end = Instant::now() + PATIENCE;
        while lines.len() < 2 && Instant::now() < end {
            if let Some(BotEvent::Line { text, .. }) = bot.recv_until(end, &dog) {
                lines.push(text);
            }
        }
    });
    assert_eq!(lines, ["{\"type\":\"pong\"}", "next"]);
}

#[test]
fn a_request_is_written_only_when_its_last_record_is_sent() {
    let (mut bot, mut client) = pair(1 << 16);
    // Far more than loopback buffers hold while the client reads nothing.
    let mut big = vec![b'x'; 32 << 20];
    big.push(b'\n');
    bot.send(&big, Some(1));
    thread::sleep(Duration::from_millis(300));
    let early: Vec<BotEvent> = std::iter::from_fn(|| bot.try_recv()).collect();
    assert!(
        early.is_empty(),
        "written before the client read: {early:?}"
    );
    let (tx, rx) = mpsc::channel();
    let reader = thread::spawn(move || {
        let n = read_line(&mut client).len();
        tx.send(n).unwrap();
        client
    });
    let seen = events_until(&mut bot, |e| matches!(e, BotEvent::Written { .. }));
    assert!(
        matches!(seen.last(), Some(BotEvent::Written { id: 1, .. })),
        "{seen:?}"
    );
    assert_eq!(rx.recv_timeout(PATIENCE).unwrap(), big.len() - 1);
    drop(reader.join().unwrap());
}

#[test]
fn an_over_long_line_over_tls_is_too_long_and_reading_stops() {
    let (mut bot, mut client) = pair(100);
    client.write_all(&[b'y'; 300]).unwrap();
    client.flush().unwrap();
    let seen = events_until(&mut bot, |e| matches!(e, BotEvent::TooLong { .. }));
    assert!(
        matches!(seen.last(), Some(BotEvent::TooLong { limit: 100, .. })),
        "{seen:?}"
    );
}

#[test]
fn stopping_ends_the_session_with_close_notify_and_the_peer_closing_is_eof() {
    let (mut bot, mut client) = pair(1 << 16);
    bot.stop(Duration::from_millis(100));
    // A clean TLS end reads as 0 bytes; a bare TCP close would be an UnexpectedEof error.
    let mut buf = [0u8; 16];
    client
        .sock
        .set_read_timeout(Some(PATIENCE))
        .expect("a timeout");
    assert_eq!(client.read(&mut buf).unwrap(), 0);

    let (mut bot, mut client) = pair(1 << 16);
    client.write_all(b"last words").unwrap();
    client.conn.send_close_notify();
    client.flush().unwrap();
    let seen = events_until(&mut bot, |e| matches!(e, BotEvent::Eof { .. }));
    let kinds: Vec<String> = seen
        .iter()
        .map(|e| match e {
            BotEvent::Line { text, .. } => text.clone(),
            other => format!("{other:?}").split(' ').next().unwrap().to_string(),
        })
        .collect();
    assert_eq!(kinds, ["last words", "Eof"]);
}
