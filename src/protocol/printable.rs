//! Bot-supplied text made safe for a terminal.
//!
//! A bot chooses its hello name, its stderr and the lines a fault quotes. Printed raw, an
//! escape sequence in them can recolour or clear the organiser's terminal, write to its
//! clipboard (OSC 52), or, with a carriage return or a newline, forge a line of the
//! referee's own output (`winner: ...`). Every such character is shown as a visible escape.

use std::borrow::Cow;

/// True for characters a terminal acts on instead of showing: the C0 and C1 controls
/// (newline, carriage return and escape among them) and the bidirectional overrides that
/// reorder what follows them.
fn acts_on_terminal(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every control character written as `\u{..}`; unchanged (and not copied) when
/// it has none.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if acts_on_terminal(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// True when `text` holds a character [`printable`] would escape.
pub fn has_controls(text: &str) -> bool {
    text.chars().any(acts_on_terminal)
}

/// An I/O error as a person reads it: "No such file or directory", without the "(os error 2)"
/// the standard library adds.
pub fn io_text(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(i) if text.ends_with(')') => text[..i].to_string(),
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_visible_and_plain_text_is_untouched() {
        assert!(matches!(printable("bot 1.0 ملك"), Cow::Borrowed(_)));
        assert_eq!(printable("a\x1b[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(printable("x\rwinner: me\n"), "x\\u{d}winner: me\\u{a}");
        assert_eq!(printable("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(printable("\u{202e}cba"), "\\u{202e}cba");
        assert!(has_controls("\x07") && !has_controls("plain"));
    }
}
