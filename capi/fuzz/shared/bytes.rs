//! A fuzz input read a few bytes at a time; past its end, every byte reads as 0.

/// The input's bytes not yet read.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// The next byte, if any is left.
    pub fn next(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    /// The next byte, or 0.
    #[allow(dead_code)]
    pub fn byte(&mut self) -> u8 {
        self.next().unwrap_or(0)
    }

    /// The next eight bytes as a big-endian number (0 for those past the end).
    pub fn u64(&mut self) -> u64 {
        (0..8).fold(0, |acc, _| acc << 8 | u64::from(self.next().unwrap_or(0)))
    }
}
