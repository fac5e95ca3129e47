//! JSON, as much as calvin's tools need: a value type that keeps object
//! keys in their order and numbers as their text, a writer that puts a
//! value on one line, and a parser. The match runner's results files
//! (`src/runner/results.rs`) and the board's API answers (`board/`) are
//! written with it, so that both speak the same JSON.

/// A JSON value (objects keep their keys in order, numbers their text).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }
    /// An array of strings.
    pub fn strs<S: AsRef<str>>(v: &[S]) -> Json {
        Json::Arr(v.iter().map(|s| Json::str(s.as_ref())).collect())
    }
    /// A string, or `null` for none.
    pub fn opt(s: Option<impl Into<String>>) -> Json {
        s.map_or(Json::Null, Json::str)
    }
    /// A number written as `x` displays (integers, floats without exponent).
    pub fn num(x: impl std::fmt::Display) -> Json {
        Json::Num(x.to_string())
    }
    /// A float as JSON (`null` for a value JSON cannot hold).
    pub fn float(x: f64) -> Json {
        if x.is_finite() { Json::num(x) } else { Json::Null }
    }
    pub fn obj(pairs: Vec<(&str, Json)>) -> Json {
        Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Num(n) => n.parse().ok(),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_arr(&self) -> Option<&[Json]> {
        match self {
            Json::Arr(a) => Some(a),
            _ => None,
        }
    }

    /// The value on one line, keys in their order.
    pub fn write(&self) -> String {
        let mut s = String::new();
        self.write_to(&mut s, false);
        s
    }
    /// [`Json::write`] with `<` written `\u003c` too, so that no string can
    /// close a script element of a page the text is put in (the board's
    /// answers).
    pub fn write_html_safe(&self) -> String {
        let mut s = String::new();
        self.write_to(&mut s, true);
        s
    }
    fn write_to(&self, s: &mut String, lt: bool) {
        match self {
            Json::Null => s.push_str("null"),
            Json::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => s.push_str(n),
            Json::Str(t) => quote(t, s, lt),
            Json::Arr(a) => {
                s.push('[');
                for (i, v) in a.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    v.write_to(s, lt);
                }
                s.push(']');
            }
            Json::Obj(m) => {
                s.push('{');
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    quote(k, s, lt);
                    s.push(':');
                    v.write_to(s, lt);
                }
                s.push('}');
            }
        }
    }

    /// Reads one JSON value (the whole of `text` but white space).
    pub fn parse(text: &str) -> Result<Json, String> {
        let mut p = Parser { b: text.as_bytes(), at: 0 };
        let v = p.value(0)?;
        p.space();
        if p.at != p.b.len() {
            return Err(format!("unexpected text at column {}", p.at + 1));
        }
        Ok(v)
    }
}

impl std::fmt::Display for Json {
    /// [`Json::write`].
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.write())
    }
}

fn quote(t: &str, s: &mut String, lt: bool) {
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 || (lt && c == '<') => s.push_str(&format!("\\u{:04x}", c as u32)),
            c => s.push(c),
        }
    }
    s.push('"');
}

struct Parser<'a> {
    b: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.b.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }
    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{what} at column {}", self.at + 1))
    }
    fn eat(&mut self, c: u8) -> bool {
        self.space();
        if self.b.get(self.at) == Some(&c) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 32 {
            return self.err("nested too deep");
        }
        self.space();
        let Some(&c) = self.b.get(self.at) else { return self.err("unexpected end") };
        match c {
            b'{' => {
                self.at += 1;
                let mut m = Vec::new();
                if self.eat(b'}') {
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.space();
                    let k = self.string()?;
                    if !self.eat(b':') {
                        return self.err("':' expected");
                    }
                    m.push((k, self.value(depth + 1)?));
                    if self.eat(b'}') {
                        return Ok(Json::Obj(m));
                    }
                    if !self.eat(b',') {
                        return self.err("',' or '}' expected");
                    }
                }
            }
            b'[' => {
                self.at += 1;
                let mut a = Vec::new();
                if self.eat(b']') {
                    return Ok(Json::Arr(a));
                }
                loop {
                    a.push(self.value(depth + 1)?);
                    if self.eat(b']') {
                        return Ok(Json::Arr(a));
                    }
                    if !self.eat(b',') {
                        return self.err("',' or ']' expected");
                    }
                }
            }
            b'"' => self.string().map(Json::Str),
            b't' | b'f' | b'n' => {
                for (word, v) in [("true", Json::Bool(true)), ("false", Json::Bool(false)), ("null", Json::Null)] {
                    if self.b[self.at..].starts_with(word.as_bytes()) {
                        self.at += word.len();
                        return Ok(v);
                    }
                }
                self.err("unknown word")
            }
            b'-' | b'0'..=b'9' => {
                let start = self.at;
                while self.b.get(self.at).is_some_and(|c| c.is_ascii_digit() || b"+-.eE".contains(c)) {
                    self.at += 1;
                }
                let n = String::from_utf8_lossy(&self.b[start..self.at]).into_owned();
                if n.parse::<f64>().is_err() {
                    return self.err("bad number");
                }
                Ok(Json::Num(n))
            }
            _ => self.err("unexpected character"),
        }
    }
    fn string(&mut self) -> Result<String, String> {
        if self.b.get(self.at) != Some(&b'"') {
            return self.err("string expected");
        }
        self.at += 1;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.b.get(self.at) else { return self.err("unterminated string") };
            self.at += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|_| "a string is not UTF-8".to_string()),
                b'\\' => {
                    let Some(&e) = self.b.get(self.at) else { return self.err("unterminated string") };
                    self.at += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hex = self.b.get(self.at..self.at + 4).and_then(|h| std::str::from_utf8(h).ok());
                            let Some(code) = hex.and_then(|h| u32::from_str_radix(h, 16).ok()) else {
                                return self.err("bad \\u escape");
                            };
                            self.at += 4;
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return self.err("bad escape"),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                c => out.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let text = r#"{"a":[1,-2.5e3,true,null],"b":"x\"y\\z\n\u00e9","c":{}}"#;
        let v = Json::parse(text).expect("parses");
        assert_eq!(v.get("b").and_then(Json::as_str), Some("x\"y\\z\né"));
        assert_eq!(v.get("a").and_then(Json::as_arr).map(|a| a[1].as_f64()), Some(Some(-2500.0)));
        assert_eq!(Json::parse(&v.write()).expect("again"), v);
        assert_eq!(v.write(), r#"{"a":[1,-2.5e3,true,null],"b":"x\"y\\z\né","c":{}}"#);
        assert_eq!(v.to_string(), v.write());
        for bad in ["{", "[1,]", "{\"a\" 1}", "tru", "\"x", "1 2", "[-]"] {
            assert!(Json::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Json::float(f64::NAN), Json::Null);
        assert_eq!(Json::float(0.05).write(), "0.05");
    }

    #[test]
    fn writes_nested_values_with_escapes() {
        let j = Json::obj(vec![
            ("a", Json::Arr(vec![Json::num(-3), Json::Null, Json::Bool(true)])),
            ("b", Json::str("x\"y\\z\n<\t\u{1}")),
            ("c", Json::strs(&["p", "q"])),
            ("d", Json::opt(None::<String>)),
            ("e", Json::opt(Some("r"))),
        ]);
        assert_eq!(j.write(), r#"{"a":[-3,null,true],"b":"x\"y\\z\n<\t\u0001","c":["p","q"],"d":null,"e":"r"}"#);
        assert_eq!(
            j.write_html_safe(),
            r#"{"a":[-3,null,true],"b":"x\"y\\z\n\u003c\t\u0001","c":["p","q"],"d":null,"e":"r"}"#
        );
        assert_eq!(Json::parse(&j.write_html_safe()).expect("parses"), j);
    }
}
