//! What a free chat line may be: made clean (one line, no control characters, at most
//! [`MAX_CHARS`] characters), and free of the words an operator will not have said
//! ([`Blocklist`]).

use core::fmt;

/// The longest free line, in characters (Unicode scalar values) after it is made clean.
pub(crate) const MAX_CHARS: usize = 200;

/// Why a free line cannot be said as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unclean {
    /// Nothing left once made clean.
    Empty,
    /// Longer than [`MAX_CHARS`] (its length).
    TooLong(usize),
    /// A word of the operator's list.
    Blocked,
}

impl fmt::Display for Unclean {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unclean::Empty => f.write_str("an empty line"),
            Unclean::TooLong(n) => write!(f, "{n} characters: a line has at most {MAX_CHARS}"),
            Unclean::Blocked => f.write_str("a word this server does not carry"),
        }
    }
}

/// `text` made one clean line: control and format characters (line breaks, bidirectional
/// overrides, zero-width characters) become spaces, runs of spaces one, and the ends are
/// trimmed.
///
/// ```
/// use salpakan_server::chat::clean;
/// assert_eq!(clean("  gg\n\u{202e}wp  "), "gg wp");
/// ```
#[must_use]
pub fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = true;
    for c in text.chars() {
        let c = if c.is_control() || invisible(c) || c.is_whitespace() {
            ' '
        } else {
            c
        };
        if c == ' ' {
            if !space {
                out.push(' ');
            }
            space = true;
        } else {
            out.push(c);
            space = false;
        }
    }
    if out.ends_with(' ') {
        out.pop();
    }
    out
}

/// Format characters that change how text is drawn without being seen: a line could hide
/// or reorder its words with them.
fn invisible(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}' | '\u{00ad}')
}

/// Words a server will not carry in a free line, folded as names are (case, and the
/// look-alikes `0`/`o`, `1`/`l`/`i`, `3`/`e`, `4`/`a`, `5`/`s`, `@`/`a`, `$`/`s`): a small
/// built-in list, and whatever the operator adds (`--chat-blocklist FILE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Blocklist {
    words: Vec<String>,
}

/// The built-in words: the commonest English and Filipino insults (the operator extends it).
const BUILT_IN: &[&str] = &[
    "fuck",
    "fucking",
    "shit",
    "cunt",
    "bitch",
    "asshole",
    "nigger",
    "faggot",
    "retard",
    "putangina",
    "tangina",
    "gago",
    "gaga",
    "ulol",
    "tarantado",
    "bobo",
    "puta",
    "kupal",
    "pakyu",
    "leche",
    "hayop",
];

fn fold(c: char) -> char {
    match c.to_ascii_lowercase() {
        '0' => 'o',
        '1' | 'l' => 'i',
        '3' => 'e',
        '4' | '@' => 'a',
        '5' | '$' => 's',
        '7' => 't',
        other => other,
    }
}

fn folded(word: &str) -> String {
    word.chars().map(fold).collect()
}

impl Default for Blocklist {
    fn default() -> Blocklist {
        Blocklist::new(BUILT_IN.iter().copied())
    }
}

impl Blocklist {
    /// A list of `words` (each folded; blank ones and `#` comments left out).
    pub(crate) fn new<'a>(words: impl IntoIterator<Item = &'a str>) -> Blocklist {
        let mut words: Vec<String> = words
            .into_iter()
            .map(str::trim)
            .filter(|w| !w.is_empty() && !w.starts_with('#'))
            .map(folded)
            .collect();
        words.sort();
        words.dedup();
        Blocklist { words }
    }

    /// The built-in list and `extra` (a file's text: a word a line, `#` for a comment).
    #[must_use]
    pub(crate) fn with(extra: &str) -> Blocklist {
        Blocklist::new(BUILT_IN.iter().copied().chain(extra.lines()))
    }

    /// How many words it holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.words.len()
    }

    /// Whether a word of `line` (split at anything but letters, digits, `@` and `$`) is on the list, or a run of single letters spells one (`f u c k`).
    #[must_use]
    pub(crate) fn blocks(&self, line: &str) -> bool {
        let words: Vec<String> = line
            .split(|c: char| !(c.is_alphanumeric() || "@$".contains(c)))
            .filter(|w| !w.is_empty())
            .map(folded)
            .collect();
        if words.iter().any(|w| self.words.binary_search(w).is_ok()) {
            return true;
        }
        let spelled: String = words
            .iter()
            .filter(|w| w.chars().count() == 1)
            .map(String::as_str)
            .collect();
        spelled.len() > 2 && self.words.iter().any(|w| spelled.contains(w.as_str()))
    }

    /// `text` as a line to say: [`clean`], then checked for length and the list.
    ///
    /// # Errors
    /// [`Unclean`]: nothing left, too long, or a listed word.
    pub(crate) fn line(&self, text: &str) -> Result<String, Unclean> {
        let line = clean(text);
        let n = line.chars().count();
        if n == 0 {
            Err(Unclean::Empty)
        } else if n > MAX_CHARS {
            Err(Unclean::TooLong(n))
        } else if self.blocks(&line) {
            Err(Unclean::Blocked)
        } else {
            Ok(line)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_made_one_clean_line() {
        assert_eq!(clean("a\r\nb\tc"), "a b c");
        assert_eq!(clean("\u{202e}evil\u{200b}"), "evil");
        assert_eq!(clean("   "), "");
        let list = Blocklist::default();
        assert_eq!(list.line(" hi  there "), Ok("hi there".into()));
        assert_eq!(list.line(" \n "), Err(Unclean::Empty));
        assert_eq!(list.line(&"x".repeat(201)), Err(Unclean::TooLong(201)));
        assert_eq!(list.line(&"é".repeat(200)).map(|l| l.len()), Ok(400));
    }

    #[test]
    fn listed_words_are_found_however_they_are_dressed() {
        let list = Blocklist::default();
        for bad in [
            "FUCK you",
            "sh1t",
            "you b1tch!",
            "f u c k",
            "ulol ka",
            "Put@ngina",
        ] {
            assert!(list.blocks(bad), "{bad}");
        }
        for fine in [
            "good game",
            "Scunthorpe",
            "shiitake",
            "a b c",
            "gg wp",
            "hayopan",
        ] {
            assert!(!list.blocks(fine), "{fine}");
        }
        let more = Blocklist::with("# the club's\nnoob\n\n");
        assert!(more.blocks("n00b"));
        assert_eq!(more.len(), list.len() + 1);
        assert_eq!(more.line("noob"), Err(Unclean::Blocked));
    }
}
