//! Reads the `move` reply of a well-behaved bot in place, without serde: that is one line per
//! move of every game, and through serde_json it cost the referee more than the rules did.
//!
//! Only the plain shape is read here: one JSON object holding exactly the keys `type`, `id` and
//! `move`, once each, in any order, with any JSON whitespace between tokens; strings without
//! escapes or control characters; `type` equal to `move`; `id` a plain integer (no sign,
//! fraction, exponent or leading zero) that fits in a u64. For any other line, valid or not,
//! [`read`] returns `None` and the caller reads it through serde_json, which then alone decides
//! what the line is. So this reader can only ever accept lines that serde_json accepts with the
//! same values; the tests check that on every line of a large generated set.

/// `(id, move)` of a plain reply, or `None` for any other line.
pub(crate) fn read(line: &str) -> Option<(u64, &str)> {
    let mut p = Cursor { line, at: 0 };
    p.space();
    p.eat(b'{')?;
    let (mut kind, mut id, mut mv) = (None, None, None);
    for n in 0..3 {
        p.space();
        if n > 0 {
            p.eat(b',')?;
            p.space();
        }
        let key = p.string()?;
        p.space();
        p.eat(b':')?;
        p.space();
        match key {
            "type" if kind.is_none() => kind = Some(p.string()?),
            "id" if id.is_none() => id = Some(p.integer()?),
            "move" if mv.is_none() => mv = Some(p.string()?),
            _ => return None,
        }
    }
    p.space();
    p.eat(b'}')?;
    p.space();
    if p.at != line.len() || kind != Some("move") {
        return None;
    }
    Some((id?, mv?))
}

struct Cursor<'a> {
    line: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<u8> {
        self.line.as_bytes().get(self.at).copied()
    }

    /// JSON's whitespace, exactly: space, tab, line feed, carriage return.
    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.at += 1)
    }

    /// A string with no escapes and no control characters (JSON forbids those unescaped).
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.at;
        let rest = &self.line.as_bytes()[start..];
        let len = rest
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        if rest[len] != b'"' {
            return None;
        }
        self.at += len + 1;
        // The quotes are ASCII, so the slice between them is whole UTF-8.
        self.line.get(start..start + len)
    }

    /// A non-negative integer as JSON writes it (`0`, or no leading zero), within u64.
    fn integer(&mut self) -> Option<u64> {
        let start = self.at;
        let mut n: u64 = 0;
        while let Some(d @ b'0'..=b'9') = self.peek() {
            n = n.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            self.at += 1;
        }
        let digits = self.at - start;
        let leading_zero = digits > 1 && self.line.as_bytes()[start] == b'0';
        // A fraction or exponent after the digits makes a float, which serde refuses as an id;
        // the caller's next expected byte (`,`, `}` or space) already rejects those.
        (digits > 0 && !leading_zero).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn reads_plain_replies_in_any_key_order_and_spacing() {
        assert_eq!(
            read(r#"{"type":"move","id":3,"move":"AS"}"#),
            Some((3, "AS"))
        );
        assert_eq!(
            read(" {\t\"move\" : \"10H\", \"id\" : 17 , \"type\" : \"move\" }\r "),
            Some((17, "10H"))
        );
        assert_eq!(
            read(r#"{"id":0,"move":"pass","type":"move"}"#),
            Some((0, "pass"))
        );
        assert_eq!(
            read(r#"{"type":"move","id":18446744073709551615,"move":"7♠"}"#),
            Some((u64::MAX, "7♠"))
        );
    }

    #[test]
    fn leaves_every_other_shape_to_serde() {
        for line in [
            r#"{"type":"move","id":3,"move":"AS","id":4}"#,
            r#"{"type":"move","id":3,"type":"move"}"#,
            r#"{"type":"move","id":3}"#,
            r#"{"type":"move","id":3,"move":"AS","x":1}"#,
            r#"{"type":"hello","id":3,"move":"AS"}"#,
            r#"{"type":"move","id":03,"move":"AS"}"#,
            r#"{"type":"move","id":-1,"move":"AS"}"#,
            r#"{"type":"move","id":3.0,"move":"AS"}"#,
            r#"{"type":"move","id":3e0,"move":"AS"}"#,
            r#"{"type":"move","id":18446744073709551616,"move":"AS"}"#,
            r#"{"type":"move","id":3,"move":"A\u0053"}"#,
            r#"{"t\u0079pe":"move","id":3,"move":"AS"}"#,
            "{\"type\":\"move\",\"id\":3,\"move\":\"A\tS\"}",
            "{\"type\":\"move\",\"id\":3,\"move\":\"AS\"}\u{c}",
            r#"{"type":"move","id":3,"move":"AS"} x"#,
            r#"{"type":"move","id":3,"move":"AS",}"#,
            r#"{"type":"move","id":3,"move":null}"#,
            r#"["move",3,"AS"]"#,
            "{",
            "",
        ] {
            assert_eq!(read(line), None, "{line}");
        }
    }
}
