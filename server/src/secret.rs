//! Secrets: seat tokens, invite codes and game ids drawn from an [`Entropy`] source, stored
//! only as their SHA-256 and compared in constant time.

use std::fmt::Write as _;
use std::sync::Mutex;

use salpakan::Side;
use sha2::{Digest, Sha256};

/// Where the server's random bytes come from.
pub trait Entropy: Send + Sync {
    /// Fills `out` with random bytes.
    fn fill(&self, out: &mut [u8]);
}

/// The operating system's generator (`getrandom`): what the server uses.
#[derive(Debug, Default, Clone, Copy)]
pub struct OsEntropy;

impl Entropy for OsEntropy {
    fn fill(&self, out: &mut [u8]) {
        // The OS generator does not fail on the platforms we build for; if it ever did, no
        // secret may be made from zeros.
        getrandom::fill(out).expect("the operating system's random generator failed");
    }
}

/// A repeatable stream (SHA-256 of a seed and a counter), for tests that compare two runs
/// byte for byte. Never for a server that faces anyone.
#[derive(Debug)]
pub struct SeededEntropy {
    seed: u64,
    counter: Mutex<u64>,
}

impl SeededEntropy {
    /// The stream for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> SeededEntropy {
        SeededEntropy {
            seed,
            counter: Mutex::new(0),
        }
    }
}

impl Entropy for SeededEntropy {
    fn fill(&self, out: &mut [u8]) {
        let mut counter = self.counter.lock().unwrap_or_else(|e| e.into_inner());
        for chunk in out.chunks_mut(32) {
            let block = Sha256::new()
                .chain_update(self.seed.to_le_bytes())
                .chain_update(counter.to_le_bytes())
                .finalize();
            *counter += 1;
            chunk.copy_from_slice(&block[..chunk.len()]);
        }
    }
}

/// Bytes in a seat token (256 bits).
pub(crate) const TOKEN_BYTES: usize = 32;
/// Bytes in an invite code (128 bits).
pub(crate) const INVITE_BYTES: usize = 16;
/// Bytes in a game id (64 bits: ids are public; they need only be unique).
pub(crate) const ID_BYTES: usize = 8;

/// Whether `id` could be an id made here (a game's, a tournament's): [`ID_BYTES`] in
/// hexadecimal, so that nothing else is looked up.
#[must_use]
pub(crate) fn plausible_id(id: &str) -> bool {
    id.len() == 2 * ID_BYTES && id.bytes().all(|b| b.is_ascii_hexdigit())
}

/// `bytes` random bytes from `entropy`, as lower-case hex (URL-safe).
#[must_use]
pub(crate) fn random_hex(entropy: &dyn Entropy, bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    entropy.fill(&mut buf);
    hex(&buf)
}

/// A formation commitment's secret salt (128 bits, [`salpakan::commitment::Salt::BYTES`]) from `entropy`.
#[must_use]
pub(crate) fn random_salt(entropy: &dyn Entropy) -> salpakan::commitment::Salt {
    let mut bytes = [0u8; salpakan::commitment::Salt::BYTES];
    entropy.fill(&mut bytes);
    salpakan::commitment::Salt::from_bytes(bytes)
}

/// A random `u64` from `entropy`.
#[must_use]
pub(crate) fn random_u64(entropy: &dyn Entropy) -> u64 {
    let mut buf = [0u8; 8];
    entropy.fill(&mut buf);
    u64::from_le_bytes(buf)
}

/// A `u64` of the stream `domain`, number `n`, drawn from the secret `seed`: separate
/// streams of one seed share nothing an opponent could use (SHA-256 of the three).
#[must_use]
pub fn derive(seed: u64, domain: &str, n: u64) -> u64 {
    let block = Sha256::new()
        .chain_update(seed.to_le_bytes())
        .chain_update(domain.as_bytes())
        .chain_update(n.to_le_bytes())
        .finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&block[..8]);
    u64::from_le_bytes(first)
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// The stored form of a secret: the hex SHA-256 of its text.
#[must_use]
pub fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Whether `a` and `b` are the same bytes, compared in time that does not depend on where
/// they differ.
#[must_use]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `secret` is the one whose digest is `stored`, comparing the digests in time that
/// does not depend on where they differ.
#[must_use]
pub fn matches(secret: &str, stored: &str) -> bool {
    same(digest(secret).as_bytes(), stored.as_bytes())
}

/// The seat whose token digest in `tokens` is `token`'s: both seats are compared, each in
/// constant time, whatever the first gives.
#[must_use]
pub(crate) fn seat_of(tokens: &[Option<String>; 2], token: &str) -> Option<Side> {
    let found = Side::ALL.map(|side| {
        tokens[side.index()]
            .as_deref()
            .is_some_and(|stored| matches(token, stored))
    });
    match found {
        [true, _] => Some(Side::White),
        [_, true] => Some(Side::Black),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_distinct_and_match_only_themselves() {
        let os = OsEntropy;
        let a = random_hex(&os, TOKEN_BYTES);
        let b = random_hex(&os, TOKEN_BYTES);
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        let stored = digest(&a);
        assert_ne!(stored, a, "the token itself is never stored");
        assert!(matches(&a, &stored));
        assert!(!matches(&b, &stored));
        assert!(!matches("", &stored));
    }

    #[test]
    fn seeded_streams_repeat_and_differ_by_seed() {
        let (x, y, z) = (
            SeededEntropy::new(1),
            SeededEntropy::new(1),
            SeededEntropy::new(2),
        );
        let first = random_hex(&x, 40);
        assert_eq!(first, random_hex(&y, 40));
        assert_ne!(first, random_hex(&z, 40));
        assert_ne!(first, random_hex(&x, 40), "the stream moves on");
    }
}
