//! What a free chat line may be: made clean (one line, no control characters, at most
//! [`MAX_CHARS`] characters), and free of the words an operator will not have said
//! ([`Blocklist`]).

use core::fmt;
use std::sync::LazyLock;

use regex::Regex;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::confusable_detection::skeleton;

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

/// What a clean line has none of: control and format characters, every
/// `Default_Ignorable_Code_Point` (zero-width characters, bidirectional controls, variation
/// selectors, Hangul fillers, tag characters …), every `White_Space`, and the blank Braille
/// pattern U+2800 (drawn as nothing, in neither property). Unicode's own tables (regex's).
static UNSEEN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\p{White_Space}\x{2800}]+")
        .expect("a valid class")
});

/// `text` made one clean line: control and format characters (line breaks, bidirectional
/// overrides, zero-width characters), every default-ignorable code point and every blank
/// become spaces, runs of spaces one, and the ends are trimmed.
///
/// ```
/// use salpakan_server::chat::clean;
/// assert_eq!(clean("  gg\n\u{202e}wp  "), "gg wp");
/// assert_eq!(clean("g\u{3164}g\u{2800}w\u{e0041}p"), "g g w p");
/// ```
#[must_use]
pub fn clean(text: &str) -> String {
    UNSEEN.replace_all(text, " ").trim_matches(' ').to_owned()
}

/// Words a server will not carry in a free line, each matched however it is dressed (see
/// [`Blocklist::blocks`]): a small built-in list, and whatever the operator adds
/// (`--chat-blocklist FILE`).
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

/// The digit and symbol look-alikes a skeleton leaves (`0` is `o`, `1` and `l` are `i` …).
fn fold(c: char) -> char {
    match c {
        '0' => 'o',
        '1' | 'l' => 'i',
        '3' => 'e',
        '4' | '@' => 'a',
        '5' | '$' => 's',
        '7' => 't',
        other => other,
    }
}

/// A word as it is matched: NFKC, lower case, its confusables skeleton (Unicode TR39: a
/// Cyrillic `с` or a full-width `ｆ` is the Latin letter), lower case again, its marks dropped
/// (`ü` is `u`), the digit and symbol look-alikes folded, `ph` read as `f`, and each run of one
/// letter as one letter (`fuuuck`). A `*` is kept: it stands for a letter.
fn folded(word: &str) -> String {
    let lower: String = word.nfkc().collect::<String>().to_lowercase();
    let skeleton: String = skeleton(&lower).collect::<String>().to_lowercase();
    let bare: String = skeleton
        .nfd()
        .filter(|&c| !is_combining_mark(c))
        .map(fold)
        .collect::<String>()
        .replace("ph", "f");
    let mut out = String::with_capacity(bare.len());
    for c in bare.chars() {
        if c == '*' || !out.ends_with(c) {
            out.push(c);
        }
    }
    out
}

/// Whether `word` (folded, with a `*` for each hidden letter) spells `listed`: each `*` stands
/// for up to three letters (or none, as a doubled letter is one), and at least three letters
/// are shown. Matched by a table of which prefix of `word` spells which prefix of `listed`:
/// at most `word × listed × 4` steps, however many `*` a word has.
fn masked(word: &str, listed: &str) -> bool {
    let word: Vec<char> = word.chars().collect();
    let listed: Vec<char> = listed.chars().collect();
    if word.iter().filter(|&&c| c != '*').count() < 3 {
        return false;
    }
    // spells[j]: the word's letters so far spell `listed[..j]`.
    let mut spells = vec![false; listed.len() + 1];
    spells[0] = true;
    for &c in &word {
        let mut next = vec![false; listed.len() + 1];
        for j in (0..=listed.len()).filter(|&j| spells[j]) {
            if c == '*' {
                for n in 0..=3.min(listed.len() - j) {
                    next[j + n] = true;
                }
            } else if listed.get(j) == Some(&c) {
                next[j + 1] = true;
            }
        }
        if !next.contains(&true) {
            return false;
        }
        spells = next;
    }
    spells[listed.len()]
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

    /// Whether `line` says a listed word, however it is dressed: a word of it (split at
    /// anything but letters, digits, `@`, `$` and `*`) folded as [`folded`] says is on the list,
    /// or spells one with a `*` for a letter (`f*ck`), or a run of words of one or two letters
    /// spells one when joined (`f u c k`, `fu ck`, `f.u.c.k`).
    #[must_use]
    pub(crate) fn blocks(&self, line: &str) -> bool {
        let words: Vec<String> = line
            .split(|c: char| !(c.is_alphanumeric() || "@$*".contains(c)))
            .filter(|w| !w.is_empty())
            .map(folded)
            .collect();
        let listed = |w: &str| {
            self.words.binary_search_by(|l| l.as_str().cmp(w)).is_ok()
                || (w.contains('*') && self.words.iter().any(|l| masked(w, l)))
        };
        if words.iter().any(|w| listed(w)) {
            return true;
        }
        words
            .split(|w| w.chars().count() > 2)
            .filter(|run| run.len() > 1)
            .map(|run| folded(&run.concat()))
            .any(|joined| {
                joined.chars().count() > 2 && self.words.iter().any(|w| joined.contains(w.as_str()))
            })
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
    fn a_masked_word_is_matched_in_few_steps_however_many_stars_it_has() {
        assert!(masked("f*ck", "fuck"));
        assert!(masked("a**hoie", "ashoie"));
        assert!(masked("f**ck", "fuck"));
        assert!(!masked("f***k", "fuck"), "two letters shown are too few");
        assert!(masked("fu*k*", "fuck"), "a star may stand for no letter");
        assert!(!masked("fu*x*", "fuck"), "a shown letter that is not there");
        assert!(!masked("f*", "fuck"), "three letters shown at least");
        assert!(!masked("fuck*ing*more", "fuck"));
        // Two hundred stars around three letters: a table, not a search of every split.
        let stars = format!("f{}c{}k", "*".repeat(100), "*".repeat(97));
        assert!(masked(&stars, "fuck"), "answered at once");
        let list = Blocklist::default();
        let line = format!("{}{}", "a*".repeat(99), "b");
        assert!(!list.blocks(&line));
    }

    #[test]
    fn every_unseen_character_and_blank_is_cleaned_like_a_space() {
        // Default_Ignorable_Code_Point (a sample of each kind), White_Space, and the blanks
        // drawn as nothing that neither property names.
        for unseen in [
            '\u{00ad}',
            '\u{034f}',
            '\u{061c}',
            '\u{115f}',
            '\u{1160}',
            '\u{17b4}',
            '\u{17b5}',
            '\u{180b}',
            '\u{180e}',
            '\u{200b}',
            '\u{200d}',
            '\u{2060}',
            '\u{2065}',
            '\u{206f}',
            '\u{202e}',
            '\u{3164}',
            '\u{fe00}',
            '\u{fe0f}',
            '\u{feff}',
            '\u{ffa0}',
            '\u{1bca0}',
            '\u{1d173}',
            '\u{e0001}',
            '\u{e0041}',
            '\u{e007f}',
            '\u{e0100}',
            '\u{e01ef}',
            '\u{0085}',
            '\u{00a0}',
            '\u{1680}',
            '\u{2000}',
            '\u{200a}',
            '\u{2028}',
            '\u{2029}',
            '\u{202f}',
            '\u{205f}',
            '\u{3000}',
            '\u{2800}',
            '\u{0007}',
            '\u{009f}',
        ] {
            assert_eq!(
                clean(&format!("{unseen}g{unseen}{unseen}g{unseen}")),
                "g g",
                "U+{:04X}",
                unseen as u32
            );
        }
        // What is seen stays: letters of every script, marks, symbols, emoji.
        let seen = "Magandang laro! ¡Buen juego! 好棋 ⚑ ★ é ñ ü 🎖";
        assert_eq!(clean(seen), seen);
        // A word split by something unseen is a split word, and found.
        let list = Blocklist::default();
        for split in [
            '\u{034f}',
            '\u{180e}',
            '\u{3164}',
            '\u{115f}',
            '\u{2800}',
            '\u{e0020}',
            '\u{fe0f}',
            '\u{17b5}',
            '\u{061c}',
        ] {
            let line = format!("you fu{split}ck");
            assert_eq!(
                list.line(&line),
                Err(Unclean::Blocked),
                "U+{:04X}",
                split as u32
            );
        }
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
            // A symbol for a letter.
            "f*ck",
            "sh*t",
            "b**ch",
            "a**hole",
            // Doubled letters, `ph`.
            "fuuuuck",
            "shiiiit",
            "phuck you",
            "phaggot",
            // Cyrillic and Greek look-alikes, full-width and styled letters, marks.
            "fu\u{0441}k",
            "\u{0455}\u{04bb}\u{0456}t",
            "b\u{03bf}b\u{03bf}",
            "p\u{03c5}t\u{03b1}",
            "g\u{0430}g\u{043e}",
            "\u{ff46}\u{ff55}\u{ff43}\u{ff4b}",
            "\u{1d41f}\u{1d42e}\u{1d41c}\u{1d424}",
            "f\u{00fc}ck",
            "fu\u{0301}ck",
            // Split words.
            "fu ck",
            "f.u.c.k",
            "f-u-c-k you",
            "pu ta",
            "ga go ka",
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
            "assassin",
            "class act",
            "is it so",
            "phone",
            "2*3 is 6",
            "go ba go",
            "salamat po sa laro",
            "Magandang laro!",
            "\u{0444}\u{0443}\u{043a}",
        ] {
            assert!(!list.blocks(fine), "{fine}");
        }
        let more = Blocklist::with("# the club's\nnoob\n\n");
        assert!(more.blocks("n00b"));
        assert_eq!(more.len(), list.len() + 1);
        assert_eq!(more.line("noob"), Err(Unclean::Blocked));
    }
}
