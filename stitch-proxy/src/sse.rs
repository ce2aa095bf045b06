//! Server-sent events, as Streamable HTTP uses them: the events of a stream read from its
//! bytes as they come, and one JSON-RPC message written as an event.

/// One event of a stream: its `id` (when it has one) and its `data`, the lines joined by `\n`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Event {
    pub id: Option<String>,
    pub event: Option<String>,
    pub data: Vec<u8>,
}

/// Reads events from a stream's bytes, in chunks cut anywhere.
#[derive(Default)]
pub struct Reader {
    /// The bytes of the line not ended yet.
    line: Vec<u8>,
    /// The event being read.
    event: Event,
    has_data: bool,
    /// The last CR ended a line: a LF right after it is the same line ending.
    after_cr: bool,
    /// The id of the last event that had one (`Last-Event-ID` on a reconnection).
    pub last_id: Option<String>,
    /// The server's `retry:` advice, in milliseconds.
    pub retry: Option<u64>,
}

impl Reader {
    /// Feeds `chunk`; each complete event goes to `each`. `Err` when a line, or an event's
    /// data, exceeds `--max-message` ([`crate::limits::max_message`]): the stream is not read
    /// further, and nothing of that size is held.
    pub fn feed(&mut self, chunk: &[u8], mut each: impl FnMut(Event)) -> Result<(), String> {
        let max = crate::limits::max_message();
        for &byte in chunk {
            match byte {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    self.after_cr = byte == b'\r';
                    let line = std::mem::take(&mut self.line);
                    self.line_ended(&line, &mut each);
                    if self.event.data.len() > max {
                        return Err(format!("an event longer than {max} bytes (--max-message)"));
                    }
                }
                _ => {
                    self.after_cr = false;
                    if self.line.len() >= max {
                        return Err(format!(
                            "an event line longer than {max} bytes (--max-message)"
                        ));
                    }
                    self.line.push(byte);
                }
            }
        }
        Ok(())
    }

    fn line_ended(&mut self, line: &[u8], each: &mut impl FnMut(Event)) {
        if line.is_empty() {
            // Dispatch.
            let event = std::mem::take(&mut self.event);
            if std::mem::take(&mut self.has_data) {
                each(event);
            }
            return;
        }
        if line[0] == b':' {
            return; // a comment (keep-alive)
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.event.data.push(b'\n');
                }
                self.has_data = true;
                self.event.data.extend_from_slice(value);
            }
            b"id" if !value.contains(&0) => {
                let id = String::from_utf8_lossy(value).into_owned();
                self.last_id = Some(id.clone());
                self.event.id = Some(id);
            }
            b"event" => self.event.event = Some(String::from_utf8_lossy(value).into_owned()),
            b"retry" => {
                if let Ok(ms) = std::str::from_utf8(value).unwrap_or("").parse::<u64>() {
                    self.retry = Some(ms);
                }
            }
            _ => {}
        }
    }
}

/// One message as an event `event: message` with its bytes as the data. A message line holds
/// no line break but, possibly, a CR or LF as JSON whitespace: each starts a new `data:` line
/// (the reader joins them with `\n`, still whitespace).
pub fn message_event(message: &[u8], id: Option<&str>) -> Vec<u8> {
    let mut out = Vec::with_capacity(message.len() + 32);
    out.extend_from_slice(b"event: message\n");
    if let Some(id) = id {
        out.extend_from_slice(b"id: ");
        out.extend_from_slice(id.as_bytes());
        out.push(b'\n');
    }
    for part in message.split(|&b| b == b'\n' || b == b'\r') {
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(part);
        out.push(b'\n');
    }
    out.push(b'\n');
    out
}

/// A message as one line for a stdio peer: line breaks (JSON whitespace in a valid message)
/// become spaces, and trailing whitespace goes; every other byte is kept.
pub fn one_line(message: &[u8]) -> Vec<u8> {
    let mut line: Vec<u8> = message
        .iter()
        .map(|&b| if b == b'\n' || b == b'\r' { b' ' } else { b })
        .collect();
    while line.last().is_some_and(|b| b.is_ascii_whitespace()) {
        line.pop();
    }
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&[u8]]) -> Vec<Event> {
        let mut reader = Reader::default();
        let mut out = Vec::new();
        for chunk in chunks {
            reader.feed(chunk, |e| out.push(e)).unwrap();
        }
        out
    }

    #[test]
    fn events_cut_anywhere() {
        let stream = b"event: message\r\nid: 7\r\ndata: {\"a\":\r\ndata: 1}\r\n\r\n: ping\n\ndata:x\n\nretry: 5\n";
        let whole = events(&[stream]);
        for cut in 0..stream.len() {
            assert_eq!(
                events(&[&stream[..cut], &stream[cut..]]),
                whole,
                "cut at {cut}"
            );
        }
        assert_eq!(
            whole,
            [
                Event {
                    id: Some("7".into()),
                    event: Some("message".into()),
                    data: b"{\"a\":\n1}".to_vec()
                },
                Event {
                    data: b"x".to_vec(),
                    ..Event::default()
                },
            ]
        );
    }

    #[test]
    fn a_message_with_line_breaks_round_trips_as_whitespace() {
        let message = b"{\"a\":\r\n [1,\n2]}";
        let mut reader = Reader::default();
        let mut got = Vec::new();
        reader
            .feed(&message_event(message, Some("s-1")), |e| got.push(e))
            .unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].id.as_deref(), Some("s-1"));
        assert_eq!(one_line(&got[0].data), b"{\"a\":   [1, 2]}\n");
        assert_eq!(one_line(b"{}\r\n"), b"{}\n");
    }
}
