//! Reading input: raw byte lines (a line need not be UTF-8; the session
//! answers such a line with an error), each at most [`MAX_LINE`] bytes.

use crossbeam_channel::Sender;
use std::io::BufRead;

/// The longest line read; a longer one is dropped with an error.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input, without its line end.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Bytes(Vec<u8>),
    /// A line longer than [`MAX_LINE`] (dropped).
    TooLong,
}

/// Sends the lines of `r` to `tx` until the end of input (or a read error,
/// which counts as the end) or until nobody listens.
pub fn read_lines(mut r: impl BufRead, tx: &Sender<Line>) {
    let mut buf = Vec::new();
    let mut too_long = false;
    loop {
        let (used, line_end) = {
            let avail = match r.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => &[][..],
            };
            if avail.is_empty() {
                if (!buf.is_empty() || too_long) && tx.send(finish(&mut buf, &mut too_long)).is_err() {
                    return;
                }
                return;
            }
            let (part, used, line_end) = match avail.iter().position(|&b| b == b'\n') {
                Some(i) => (&avail[..i], i + 1, true),
                None => (avail, avail.len(), false),
            };
            if too_long || buf.len() + part.len() > MAX_LINE {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
            (used, line_end)
        };
        r.consume(used);
        if line_end && tx.send(finish(&mut buf, &mut too_long)).is_err() {
            return;
        }
    }
}

fn finish(buf: &mut Vec<u8>, too_long: &mut bool) -> Line {
    if std::mem::take(too_long) {
        buf.clear();
        return Line::TooLong;
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Line::Bytes(std::mem::take(buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_bytes() {
        let (tx, rx) = crossbeam_channel::unbounded();
        let mut input = b"uci\r\nset \x80x\n".to_vec();
        input.extend(std::iter::repeat_n(b'a', MAX_LINE + 1));
        input.extend(b"\nlast");
        read_lines(&input[..], &tx);
        let got: Vec<Line> = rx.try_iter().collect();
        assert_eq!(
            got,
            vec![
                Line::Bytes(b"uci".to_vec()),
                Line::Bytes(b"set \x80x".to_vec()),
                Line::TooLong,
                Line::Bytes(b"last".to_vec())
            ]
        );
    }
}
