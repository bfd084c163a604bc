//! Writing to a bot's stdin: what the pipe takes now, what waits for it, which requests are
//! written in full (the bot's clock starts there), and a write that fails.

use std::io::{self, Write};
use std::time::Instant;

use super::{os, tls_end, Bot, BotEvent};

impl Bot {
    /// Writes queued output until it is all written or the pipe is full, then reports the
    /// requests that are now completely written.
    pub(super) fn write_some(&mut self) {
        let out = std::mem::take(&mut self.out);
        let Some(n) = self.write_bytes(&out[self.out_pos..]) else {
            return;
        };
        self.out = out;
        self.out_pos += n;
        if self.out_pos == self.out.len() {
            self.out.clear();
            self.out_pos = 0;
        }
        self.report_written();
    }

    /// Writes as much of `bytes` as the pipe takes now and returns how much that was, or
    /// `None` when stdin is gone (closed, or broken: then the queue is dropped too).
    pub(super) fn write_bytes(&mut self, bytes: &[u8]) -> Option<usize> {
        if let Some(tls) = tls_end::tls_of(&mut self.peer) {
            // All of it is encrypted and kept in order; written counts what has been sent.
            match tls.write(self.stdin.as_ref()?, bytes) {
                Ok(sent) => self.written_total += sent,
                Err(e) => {
                    self.input_broken(e.to_string());
                    return None;
                }
            }
            return Some(bytes.len());
        }
        let remote = self.is_remote();
        let stdin = self.stdin.as_mut()?;
        let mut done = 0;
        while done < bytes.len() {
            // A socket stays blocking, so that a reply is awaited in one blocking read as on
            // a pipe; its writes are made non-blocking one by one instead.
            let wrote = if remote {
                os::send_nonblocking(stdin, &bytes[done..])
            } else {
                stdin.write(&bytes[done..])
            };
            match wrote {
                Ok(n) if n > 0 => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                // EPIPE (the bot closed its stdin or died) or a zero-length write: nothing
                // queued can reach the bot any more.
                Err(e) => {
                    self.input_broken(e.to_string());
                    return None;
                }
                Ok(_) => {
                    self.input_broken("the pipe took no bytes".to_string());
                    return None;
                }
            }
        }
        self.written_total += done as u64;
        Some(done)
    }

    /// stdin can take nothing more (`error`: why the write failed): closed, its queue dropped,
    /// and the caller told by [`BotEvent::InputClosed`] (issue 43: a bot that closed its stdin
    /// was only timed out at its move limit).
    fn input_broken(&mut self, error: String) {
        self.stdin = None;
        self.discard_output_queue();
        self.events.push_back(BotEvent::InputClosed {
            at: Instant::now(),
            error,
        });
    }

    /// Reports every request whose last byte is now written.
    pub(super) fn report_written(&mut self) {
        let mut at = None;
        while let Some(&(id, end)) = self.requests.front() {
            if end > self.written_total {
                break;
            }
            let at = *at.get_or_insert_with(Instant::now);
            self.events.push_back(BotEvent::Written { id, at });
            self.requests.pop_front();
        }
    }
}
