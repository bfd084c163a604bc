//! The small HTTP/1.1 server behind the live page (`serve`, `tournament --serve`) and the web
//! seat: GET, HEAD and small POSTs, one request per connection (`Connection: close`).
//!
//! It is written on `std` rather than taken from a crate because what it must guarantee is
//! its bounds, and those are few lines here: at most [`Limits::connections`] connections at
//! once (one more is closed at once, so the referee's descriptors and threads stay bounded
//! whatever a stranger opens), a request's head and body within [`Limits::head_time`] and
//! their byte limits (a silent connection is closed), and every write within
//! [`Limits::write_time`] (a reader that stops reading an event stream is dropped, its thread
//! and descriptor freed). tiny_http, used before, kept a thread and two descriptors per
//! connection with no timeout: 600 silent connections made the referee run out of
//! descriptors mid-tournament.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A server's bounds.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections open at once; one more is closed at once.
    pub connections: usize,
    /// Time for a request's head and body to arrive.
    pub head_time: Duration,
    /// Time for any one write to be taken by the client.
    pub write_time: Duration,
    /// Bytes of a request's head (request line and headers).
    pub head_bytes: usize,
    /// Bytes of a request's body.
    pub body_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 128,
            head_time: Duration::from_secs(10),
            write_time: Duration::from_secs(10),
            head_bytes: 16 * 1024,
            body_bytes: 64 * 1024,
        }
    }
}

/// One request, read whole; answer it with [`Request::respond`] or take its connection with
/// [`Request::into_stream`].
pub struct Request {
    pub method: String,
    /// The path with its query string, as sent.
    pub url: String,
    pub body: Vec<u8>,
    stream: TcpStream,
    slot: Slot,
}

/// A connection's place in the count; given back when dropped.
pub struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

/// A whole response: status line, the headers given, length and `Connection: close`.
fn response(status: u16, headers: &[(&str, &str)], body: &[u8], head_only: bool) -> Vec<u8> {
    let mut out = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (n, v) in headers {
        out.push_str(&format!("{n}: {v}\r\n"));
    }
    out.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    let mut out = out.into_bytes();
    if !head_only {
        out.extend_from_slice(body);
    }
    out
}

impl Request {
    /// The path without its query string or fragment.
    pub fn path(&self) -> &str {
        self.url.split(['?', '#']).next().unwrap_or("/")
    }

    /// Answers and closes the connection (a client too slow to take it is dropped).
    pub fn respond(mut self, status: u16, headers: &[(&str, &str)], body: &[u8]) {
        let bytes = response(status, headers, body, self.method == "HEAD");
        let _ = self.stream.write_all(&bytes);
        let _ = self.stream.flush();
    }

    /// Whether the client has hung up: a long poll whose page was reloaded or closed holds a
    /// connection the browser has closed, and its slot is given back at once instead of when
    /// the poll runs out. Asked of the kernel (`poll` for a hang-up, without reading), so a
    /// client that sent more bytes before closing is seen gone too.
    pub fn client_gone(&self) -> bool {
        use std::os::fd::AsRawFd;
        let mut fd = libc::pollfd {
            fd: self.stream.as_raw_fd(),
            events: libc::POLLRDHUP,
            revents: 0,
        };
        // SAFETY: one valid pollfd for a descriptor this request owns, no wait.
        let n = unsafe { libc::poll(&mut fd, 1, 0) };
        n > 0 && fd.revents & (libc::POLLRDHUP | libc::POLLHUP | libc::POLLERR) != 0
    }

    /// The connection itself, to stream an answer on (its writes still time out), and its
    /// slot, to hold while streaming.
    pub fn into_stream(self) -> (TcpStream, Slot) {
        (self.stream, self.slot)
    }
}

/// A running server; dropping it does not stop it, [`Server::stop`] does.
pub struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    open: Arc<AtomicUsize>,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    /// Listens on `addr` (port 0: any free one) and hands each request to `handle`, on the
    /// connection's own thread.
    pub fn start<F>(addr: SocketAddr, limits: Limits, handle: F) -> io::Result<Server>
    where
        F: Fn(Request) + Send + Sync + 'static,
    {
        let listener = TcpListener::bind(addr)?;
        Self::from_listener(listener, limits, handle)
    }

    /// As [`Server::start`], on a socket already bound.
    pub fn from_listener<F>(listener: TcpListener, limits: Limits, handle: F) -> io::Result<Server>
    where
        F: Fn(Request) + Send + Sync + 'static,
    {
        let addr = listener.local_addr()?;
        listener.set_nonblocking(true)?;
        let stop = Arc::new(AtomicBool::new(false));
        let open = Arc::new(AtomicUsize::new(0));
        let handle = Arc::new(handle);
        let accept = {
            let stop = Arc::clone(&stop);
            let open = Arc::clone(&open);
            std::thread::Builder::new()
                .name("http-accept".into())
                .spawn(move || accept_loop(&listener, limits, &stop, &open, &handle))?
        };
        Ok(Server {
            addr,
            stop,
            open,
            accept: Some(accept),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    /// Stops accepting and closes the listening socket (connections being answered finish
    /// within their time limits).
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept_loop<F>(
    listener: &TcpListener,
    limits: Limits,
    stop: &AtomicBool,
    open: &Arc<AtomicUsize>,
    handle: &Arc<F>,
) where
    F: Fn(Request) + Send + Sync + 'static,
{
    while !stop.load(Ordering::SeqCst) {
        let stream = match listener.accept() {
            Ok((s, _)) => s,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
            // Out of descriptors (or another passing error): wait a little, others close.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::SeqCst) >= limits.connections {
            open.fetch_sub(1, Ordering::SeqCst);
            // Full: closed at once, with a word if the socket takes it without waiting.
            let _ = stream.set_nonblocking(true);
            let _ = (&stream).write(&response(
                503,
                &[("Content-Type", "text/plain")],
                b"too many connections: try again soon\n",
                false,
            ));
            continue;
        }
        let slot = Slot(Arc::clone(open));
        let handle = Arc::clone(handle);
        // A connection whose thread cannot start is closed (its slot given back on drop).
        let _ = std::thread::Builder::new()
            .name("http-conn".into())
            .stack_size(256 * 1024)
            .spawn(move || {
                if let Some(rq) = read_request(stream, slot, limits) {
                    handle(rq);
                }
            });
    }
}

/// Reads one request within the limits; a bad or late one is answered (when the client is
/// still there) and closed.
fn read_request(mut stream: TcpStream, slot: Slot, limits: Limits) -> Option<Request> {
    stream.set_nonblocking(false).ok()?;
    stream.set_write_timeout(Some(limits.write_time)).ok()?;
    let _ = stream.set_nodelay(true);
    let until = Instant::now() + limits.head_time;
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(p) = find(&buf, b"\r\n\r\n") {
            break p + 4;
        }
        if buf.len() > limits.head_bytes {
            return refuse(stream, 431, "the request's head is too long\n");
        }
        read_some(&mut stream, until, &mut chunk, &mut buf)?;
    };
    let head = std::str::from_utf8(&buf[..head_end]).ok();
    let Some(head) = head else {
        return refuse(stream, 400, "the request's head is not UTF-8\n");
    };
    let mut lines = head.split("\r\n");
    let mut first = lines.next().unwrap_or("").split(' ');
    let (Some(method), Some(url)) = (first.next(), first.next()) else {
        return refuse(stream, 400, "no request line\n");
    };
    let (method, url) = (method.to_string(), url.to_string());
    let mut length = 0usize;
    for line in lines {
        if let Some((n, v)) = line.split_once(':') {
            if n.trim().eq_ignore_ascii_case("content-length") {
                let Ok(n) = v.trim().parse::<usize>() else {
                    return refuse(stream, 400, "a bad Content-Length\n");
                };
                length = n;
            } else if n.trim().eq_ignore_ascii_case("transfer-encoding") {
                return refuse(stream, 400, "send a Content-Length, not chunks\n");
            }
        }
    }
    if length > limits.body_bytes {
        return refuse(stream, 413, "the request's body is too long\n");
    }
    let mut body = buf[head_end..].to_vec();
    while body.len() < length {
        read_some(&mut stream, until, &mut chunk, &mut body)?;
    }
    body.truncate(length);
    Some(Request {
        method,
        url,
        body,
        stream,
        slot,
    })
}

fn refuse(mut stream: TcpStream, status: u16, why: &str) -> Option<Request> {
    let _ = stream.write_all(&response(
        status,
        &[("Content-Type", "text/plain")],
        why.as_bytes(),
        false,
    ));
    // A lingering close: the rest of what the client sent is read (briefly) so that closing
    // with unread bytes does not reset the connection before it reads the answer.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let mut sink = [0u8; 4096];
    let mut left = 256 * 1024usize;
    while let Ok(n) = stream.read(&mut sink) {
        if n == 0 || n >= left {
            break;
        }
        left -= n;
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// One read of what `stream` has before `until`, appended to `into`; `None` when the time is up,
/// the peer closed or the read failed (an interrupted read appends nothing and is `Some`).
fn read_some(
    stream: &mut TcpStream,
    until: Instant,
    chunk: &mut [u8],
    into: &mut Vec<u8>,
) -> Option<()> {
    let left = until.checked_duration_since(Instant::now())?;
    stream
        .set_read_timeout(Some(left.max(Duration::from_millis(1))))
        .ok()?;
    match stream.read(chunk) {
        Ok(0) => None,
        Ok(n) => {
            into.extend_from_slice(&chunk[..n]);
            Some(())
        }
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Some(()),
        Err(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            connections: 4,
            head_time: Duration::from_millis(300),
            write_time: Duration::from_millis(300),
            ..Limits::default()
        }
    }

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    }

    fn wait_for(what: &str, mut f: impl FnMut() -> bool) {
        let until = Instant::now() + Duration::from_secs(60);
        while !f() {
            assert!(Instant::now() < until, "waited 60 s for {what}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn answers_a_request_with_its_body_and_length() {
        let server = Server::start("127.0.0.1:0".parse().unwrap(), limits(), |rq| {
            let body = format!("{} {}", rq.method, rq.path());
            rq.respond(200, &[("Content-Type", "text/plain")], body.as_bytes());
        })
        .unwrap();
        let got = get(server.addr(), "/a/b?x=1");
        assert!(got.starts_with("HTTP/1.1 200 OK\r\n"), "{got}");
        assert!(got.contains("Content-Length: 8\r\n"), "{got}");
        assert!(got.ends_with("GET /a/b"), "{got}");
    }

    /// Silent connections beyond the cap are closed at once, silent ones within it when their
    /// time is up, and a request gets through again after that: the count never passes the
    /// cap.
    #[test]
    fn idle_connections_are_capped_and_timed_out() {
        let server = Server::start("127.0.0.1:0".parse().unwrap(), limits(), |rq| {
            rq.respond(200, &[], b"ok")
        })
        .unwrap();
        let idle: Vec<TcpStream> = (0..20)
            .map(|_| TcpStream::connect(server.addr()).unwrap())
            .collect();
        wait_for("the cap to be reached", || server.open() == 4);
        for _ in 0..50 {
            assert!(server.open() <= 4, "{} open", server.open());
            std::thread::sleep(Duration::from_millis(2));
        }
        wait_for("the idle connections to time out", || server.open() == 0);
        drop(idle);
        assert!(get(server.addr(), "/").ends_with("ok"));
    }

    #[test]
    fn a_reader_that_stops_reading_is_dropped() {
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let server = Server::start("127.0.0.1:0".parse().unwrap(), limits(), move |rq| {
            let (mut s, _slot) = rq.into_stream();
            let chunk = vec![b'x'; 64 * 1024];
            while s.write_all(&chunk).is_ok() {}
            flag.store(true, Ordering::SeqCst);
        })
        .unwrap();
        let mut s = TcpStream::connect(server.addr()).unwrap();
        write!(s, "GET /events HTTP/1.1\r\n\r\n").unwrap();
        wait_for("the writer to give up", || done.load(Ordering::SeqCst));
        wait_for("its slot to be given back", || server.open() == 0);
    }

    /// Issue 39, point 7: a reloaded page's long poll is let go once its browser closed the
    /// connection (the ninth reload in 20 s found every poll slot held by pages long gone).
    /// A client still there is not taken for gone.
    #[test]
    fn a_client_that_hung_up_is_seen_gone() {
        let (tx, rx) = std::sync::mpsc::channel();
        let tx = std::sync::Mutex::new(tx);
        let server = Server::start("127.0.0.1:0".parse().unwrap(), limits(), move |rq| {
            let _ = tx.lock().unwrap().send(rq);
        })
        .unwrap();
        let mut s = TcpStream::connect(server.addr()).unwrap();
        write!(s, "GET /state HTTP/1.1\r\n\r\n").unwrap();
        let rq = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the request");
        assert!(
            !rq.client_gone(),
            "a client still waiting was taken for gone"
        );
        // More bytes are a client still there; sent before it closed, it is gone all the same.
        write!(s, "GET /x HTTP/1.1\r\n\r\n").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(
            !rq.client_gone(),
            "a client that sent more was taken for gone"
        );
        drop(s);
        wait_for("the hang-up to be seen", || rq.client_gone());
        // Still usable afterwards: the answer to a gone client is dropped quietly.
        rq.respond(200, &[], b"late");
    }

    #[test]
    fn oversized_heads_and_bodies_are_refused() {
        let server = Server::start("127.0.0.1:0".parse().unwrap(), limits(), |rq| {
            rq.respond(200, &[], b"ok")
        })
        .unwrap();
        let mut s = TcpStream::connect(server.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let long = "a".repeat(20 * 1024);
        let _ = write!(s, "GET /{long} HTTP/1.1\r\n\r\n");
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        assert!(out.starts_with("HTTP/1.1 431"), "{out}");
        let mut s = TcpStream::connect(server.addr()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(s, "POST /move HTTP/1.1\r\nContent-Length: 999999\r\n\r\n").unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        assert!(out.starts_with("HTTP/1.1 413"), "{out}");
    }
}
