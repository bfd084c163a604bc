//! zstd-compressed records (`*.zst`): a record is about 20 KB of JSON lines that compress about
//! tenfold, and a tournament writes one per game. Compression is chosen by the record's name,
//! so nothing else needs to be told; every reader of records goes through [`read_file`], which
//! recognises a zstd frame by its magic number whatever the name, so readers need no flag.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::Path;

/// The first four bytes of a zstd frame.
const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Level 3, zstd's default: most of the gain at a small fraction of the cost of higher levels.
const LEVEL: i32 = 3;

/// True for a path whose records are written compressed: one ending in `.zst`.
pub fn wants_compression(path: &Path) -> bool {
    path.extension().is_some_and(|x| x == "zst")
}

/// Where record lines go: the file, through zstd when compressed. A compressed record's frame
/// is completed when the sink is dropped; each `flush` before that ends a zstd block, so a
/// referee that dies mid-game still leaves a readable prefix, as with plain records.
pub(super) fn sink(file: File, compress: bool) -> io::Result<Box<dyn Write + Send>> {
    let out = BufWriter::new(file);
    if compress {
        Ok(Box::new(zstd::Encoder::new(out, LEVEL)?.auto_finish()))
    } else {
        Ok(Box::new(out))
    }
}

/// True when `start`, a file's first bytes, opens a zstd frame.
pub fn is_compressed(start: &[u8]) -> bool {
    start.starts_with(&MAGIC)
}

/// The bytes of a record file, decompressed when it is a zstd frame. A compressed record cut
/// short (the referee was killed) gives what could be decoded, like a plain record's prefix;
/// the verifier then reports where it ends.
pub fn read_file(path: &Path) -> io::Result<Vec<u8>> {
    let bytes = std::fs::read(path)?;
    if !is_compressed(&bytes) {
        return Ok(bytes);
    }
    let mut out = Vec::new();
    let mut decoder = zstd::Decoder::new(&bytes[..])?;
    match decoder.read_to_end(&mut out) {
        Ok(_) => Ok(out),
        Err(_) if !out.is_empty() => Ok(out),
        Err(e) => Err(io::Error::new(
            e.kind(),
            format!("not a valid zstd-compressed record ({e})"),
        )),
    }
}

/// [`read_file`] as text; invalid UTF-8 is an `InvalidData` error.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_file(path)?)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("tarneeb-zst-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn compressed_and_plain_read_the_same() {
        let dir = scratch("same");
        let text = "{\"type\":\"header\"}\n".repeat(500);
        for (name, compress) in [("a.jsonl", false), ("a.jsonl.zst", true)] {
            let path = dir.join(name);
            assert_eq!(wants_compression(&path), compress);
            let mut w = sink(File::create(&path).unwrap(), compress).unwrap();
            w.write_all(text.as_bytes()).unwrap();
            drop(w);
            let on_disk = std::fs::read(&path).unwrap();
            assert_eq!(on_disk.starts_with(&MAGIC), compress);
            if compress {
                assert!(on_disk.len() * 10 < text.len(), "{} bytes", on_disk.len());
            }
            assert_eq!(read_text(&path).unwrap(), text);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_flushed_but_unfinished_record_reads_up_to_its_last_flush() {
        let dir = scratch("cut");
        let path = dir.join("cut.jsonl.zst");
        let mut w = sink(File::create(&path).unwrap(), true).unwrap();
        w.write_all(b"line 1\nline 2\n").unwrap();
        w.flush().unwrap();
        // The referee dies here: the frame is never finished.
        std::mem::forget(w);
        assert_eq!(read_text(&path).unwrap(), "line 1\nline 2\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
