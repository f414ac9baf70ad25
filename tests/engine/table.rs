//! The cross-binding table (`tests/data/bindings.txt`): its rows, read once for every Rust
//! runner (the crate's and the C ABI's).
#![allow(dead_code)]

use serde_json::Value;

/// One row: the operation, its argument words, the expected result (`"ok"` or an error kind).
#[derive(Debug, Clone)]
pub struct Row {
    pub line: usize,
    pub op: String,
    pub words: Vec<String>,
    pub expect: String,
}

impl Row {
    /// Argument `i` as the JSON value it is.
    pub fn arg(&self, i: usize) -> Value {
        serde_json::from_str(&self.words[i])
            .unwrap_or_else(|e| panic!("line {}: {}: {e}", self.line, self.words[i]))
    }

    /// The edits of a `cells` row: `SQUARE=VALUE` (the square's index and the value) or
    /// `len=N`.
    pub fn edits(&self) -> Vec<Edit> {
        self.words
            .iter()
            .map(|word| {
                let (key, value) = word.split_once('=').expect("KEY=VALUE");
                if key == "len" {
                    Edit::Len(value.parse().expect("a length"))
                } else {
                    let square: salpakan::Square = key.parse().expect("a square");
                    Edit::Set(
                        square.index(),
                        serde_json::from_str(value).expect("a number"),
                    )
                }
            })
            .collect()
    }
}

/// A `cells` edit.
pub enum Edit {
    Set(usize, Value),
    Len(usize),
}

/// Every row of the table.
pub fn rows() -> Vec<Row> {
    let text = include_str!("../data/bindings.txt");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            let (call, expect) = line
                .split_once(" -> ")
                .unwrap_or_else(|| panic!("line {}: no ` -> `", i + 1));
            let mut words = call.split_whitespace().map(str::to_owned);
            Row {
                line: i + 1,
                op: words.next().expect("an operation"),
                words: words.collect(),
                expect: expect.trim().to_owned(),
            }
        })
        .collect()
}

/// The fixture's White cells edited as a `cells` row says, as JSON numbers (integers or not).
pub fn edited_cells(row: &Row, white: [u8; 72]) -> Vec<Value> {
    let mut cells: Vec<Value> = white.iter().map(|&v| Value::from(v)).collect();
    for edit in row.edits() {
        match edit {
            Edit::Set(i, value) => cells[i] = value,
            Edit::Len(n) => cells.resize(n, Value::from(255)),
        }
    }
    cells
}
