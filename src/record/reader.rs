//! Reads a record into typed lines, keeping each line's number (1-based, as editors count) so
//! that every later complaint can name the line it is about.

use std::path::{Path, PathBuf};

use super::format::{Header, RecordLine};

/// A record line that is wrong: not a record line, or (found by the verifier) not what the
/// rules give. The line and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct LineError {
    /// 1-based line number in the record file.
    pub line: usize,
    pub problem: String,
}

/// One line of a record with its line number in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct NumberedLine {
    pub line: usize,
    pub record: RecordLine,
}

/// Why a record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file itself could not be read (a missing path, a directory, no permission).
    #[error("cannot read the record {}: {}", path.display(), crate::protocol::io_text(error))]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    /// A line is not a record line (not JSON, an unknown type, a missing or mistyped field).
    #[error(transparent)]
    Line(#[from] LineError),
}

/// The lines of a record. The last line may end without a newline; blank lines are skipped (they
/// carry nothing), everything else must be a valid record line.
pub fn parse_record(text: &str) -> Result<Vec<NumberedLine>, LineError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let record = parse_line(raw).map_err(|problem| LineError { line, problem })?;
        out.push(NumberedLine { line, record });
    }
    Ok(out)
}

/// Reads the record at `path` (see [`parse_record`]), compressed or not.
pub fn read_record(path: &Path) -> Result<Vec<NumberedLine>, ReadError> {
    let bytes = super::compressed::read_file(path).map_err(|error| ReadError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(parse_record(&text)?),
        Err(e) => {
            // Name the line holding the first invalid byte.
            let at = e.utf8_error().valid_up_to();
            let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
            Err(LineError {
                line,
                problem: "the line is not UTF-8 text".to_string(),
            }
            .into())
        }
    }
}

fn parse_line(raw: &str) -> Result<RecordLine, String> {
    let value: serde_json::Value =
        serde_json::from_str(raw).map_err(|e| format!("not JSON ({e})"))?;
    let Some(kind) = value.get("type").and_then(|t| t.as_str()) else {
        return Err("not a record line: no \"type\" field".to_string());
    };
    let kind = kind.to_string();
    const KINDS: [&str; 7] = [
        "header", "deal", "move", "fault", "hand_end", "result", "aborted",
    ];
    if !KINDS.contains(&kind.as_str()) {
        return Err(format!(
            "unknown line type '{kind}': a record holds {}",
            KINDS.join(", ")
        ));
    }
    serde_path_to_error::deserialize::<_, RecordLine>(value).map_err(|e| {
        let path = e.path().to_string();
        if path == "." || path.is_empty() {
            format!("not a valid '{kind}' line: {}", e.inner())
        } else {
            format!("not a valid '{kind}' line: {path}: {}", e.inner())
        }
    })
}

/// The header, which must be the first line.
pub fn header_of(lines: &[NumberedLine]) -> Result<&Header, LineError> {
    let Some(first) = lines.first() else {
        return line_err(1, "the record is empty: its first line must be the header");
    };
    match &first.record {
        RecordLine::Header(h) => Ok(h),
        other => line_err(
            first.line,
            format!(
                "the first line must be the header, this is a '{}' line",
                other.kind()
            ),
        ),
    }
}

pub(crate) fn line_err<T>(line: usize, problem: impl Into<String>) -> Result<T, LineError> {
    Err(LineError {
        line,
        problem: problem.into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_numbers_and_blank_lines_are_skipped() {
        let text =
            "{\"type\":\"aborted\",\"reason\":\"x\"}\n\n{\"type\":\"aborted\",\"reason\":\"y\"}";
        let lines = parse_record(text).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].line, 1);
        assert_eq!(lines[1].line, 3);
    }

    #[test]
    fn bad_lines_are_named() {
        let e = parse_record("{\"type\":\"aborted\",\"reason\":\"x\"}\nnot json\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.problem.contains("not JSON"), "{e}");
        let e = parse_record("{\"type\":\"shuffle\"}").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("line 1: unknown line type 'shuffle'"),
            "{e}"
        );
        let e = parse_record(
            "\n{\"type\":\"move\",\"hand_number\":1,\"seat\":7,\"decision\":\"play\",\"move\":\"AS\",\"ms\":0}",
        )
        .unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.problem.contains("seat"), "{e}");
    }
}
