//! The one seam between the store and its two databases: a connection that runs a statement
//! with values and returns rows of values. Every statement the store makes is written once,
//! with `?1`, `?2`, … for its values (SQLite's form, run as written; for PostgreSQL each
//! becomes `$1`, …, once per statement, when it is first prepared), and runs on either
//! database; the few places where their dialects differ ask [`Dialect`].

use super::values::StoreError;

/// A value going in or coming out.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<u64> for Value {
    fn from(v: u64) -> Value {
        Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<Vec<u8>> for Value {
    fn from(v: Vec<u8>) -> Value {
        Value::Blob(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

/// One row of a query's answer.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Row(pub(super) Vec<Value>);

fn unreadable(i: usize, wanted: &str, got: &Value) -> StoreError {
    StoreError::Corrupt(format!("column {i}: {wanted} expected, not {got:?}"))
}

impl Row {
    fn at(&self, i: usize) -> Result<&Value, StoreError> {
        self.0
            .get(i)
            .ok_or_else(|| StoreError::Corrupt(format!("no column {i}")))
    }

    /// An integer (a boolean reads as 0 or 1).
    pub(super) fn int(&self, i: usize) -> Result<i64, StoreError> {
        self.opt_int(i)?
            .ok_or_else(|| unreadable(i, "an integer", &Value::Null))
    }

    /// An integer or NULL.
    pub(super) fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Int(v) => Ok(Some(*v)),
            other => Err(unreadable(i, "an integer", other)),
        }
    }

    /// A number.
    pub(super) fn real(&self, i: usize) -> Result<f64, StoreError> {
        match self.at(i)? {
            Value::Real(v) => Ok(*v),
            Value::Int(v) => Ok(*v as f64),
            other => Err(unreadable(i, "a number", other)),
        }
    }

    /// A text.
    pub(super) fn text(&self, i: usize) -> Result<String, StoreError> {
        self.opt_text(i)?
            .ok_or_else(|| unreadable(i, "a text", &Value::Null))
    }

    /// A text or NULL.
    pub(super) fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Text(v) => Ok(Some(v.clone())),
            other => Err(unreadable(i, "a text", other)),
        }
    }

    /// Bytes or NULL.
    pub(super) fn opt_blob(&self, i: usize) -> Result<Option<Vec<u8>>, StoreError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            Value::Blob(v) => Ok(Some(v.clone())),
            other => Err(unreadable(i, "bytes", other)),
        }
    }
}

impl Row {
    /// The one column's integer (a query that names one column).
    pub(super) fn only_int(&self) -> Result<i64, StoreError> {
        self.int(0)
    }

    /// The one column's text (a query that names one column).
    pub(super) fn only_text(&self) -> Result<String, StoreError> {
        self.text(0)
    }
}

/// The columns a `SELECT` names, in its order: the query is written from the list, and a
/// row's values are read by these names (never by a number kept apart from the list). An
/// entry may be an expression with `AS` and a name (`w.bot AS white_bot`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Columns(pub(super) &'static [&'static str]);

impl Columns {
    /// The list as a `SELECT` names it: `a, b, c`.
    pub(super) fn list(self) -> String {
        self.0.join(", ")
    }

    /// `row`'s values, read by these names.
    pub(super) fn of(self, row: &Row) -> Named<'_> {
        Named { names: self.0, row }
    }
}

/// A row read by its columns' names.
pub(super) struct Named<'a> {
    names: &'static [&'static str],
    row: &'a Row,
}

impl Named<'_> {
    /// The place of column `name`: an entry's name is what follows its `AS`, if it has one.
    fn at(&self, name: &str) -> Result<usize, StoreError> {
        self.names
            .iter()
            .position(|n| n.rsplit_once(" AS ").map_or(*n, |(_, alias)| alias) == name)
            .ok_or_else(|| StoreError::Corrupt(format!("no column {name} in the query")))
    }

    /// An integer (a boolean reads as 0 or 1).
    pub(super) fn int(&self, name: &str) -> Result<i64, StoreError> {
        self.row.int(self.at(name)?)
    }

    /// An integer or NULL.
    pub(super) fn opt_int(&self, name: &str) -> Result<Option<i64>, StoreError> {
        self.row.opt_int(self.at(name)?)
    }

    /// Whether a 0-or-1 column is 1.
    pub(super) fn flag(&self, name: &str) -> Result<bool, StoreError> {
        Ok(self.int(name)? != 0)
    }

    /// A count or a time: a non-negative integer.
    pub(super) fn count(&self, name: &str) -> Result<u64, StoreError> {
        Ok(self.int(name)? as u64)
    }

    /// A number.
    pub(super) fn real(&self, name: &str) -> Result<f64, StoreError> {
        self.row.real(self.at(name)?)
    }

    /// A text.
    pub(super) fn text(&self, name: &str) -> Result<String, StoreError> {
        self.row.text(self.at(name)?)
    }

    /// A text or NULL.
    pub(super) fn opt_text(&self, name: &str) -> Result<Option<String>, StoreError> {
        self.row.opt_text(self.at(name)?)
    }

    /// Bytes or NULL.
    pub(super) fn opt_blob(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.row.opt_blob(self.at(name)?)
    }
}

/// Which database a connection talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    Sqlite,
    #[cfg_attr(not(feature = "nodes"), allow(dead_code))]
    Postgres,
}

impl Dialect {
    /// What locks rows a transaction reads and will update: `FOR UPDATE` on PostgreSQL,
    /// where several servers may write one database; nothing on SQLite, whose one writer
    /// holds the database.
    pub(super) fn for_update(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE",
        }
    }

    /// The clause that makes SQLite's planner use `index` (PostgreSQL's chooses well alone).
    pub(super) fn indexed_by(self, index: &str) -> String {
        match self {
            Dialect::Sqlite => format!(" INDEXED BY {index}"),
            Dialect::Postgres => String::new(),
        }
    }
}

/// A connection to either database.
pub(super) trait Sql {
    /// Its database.
    fn dialect(&self) -> Dialect;

    /// Runs `sql` with `params`; the rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;

    /// Runs the query `sql` with `params`; its rows.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError>;

    /// Runs statements without values (`BEGIN`, `SAVEPOINT w`, a schema's step).
    fn batch(&mut self, sql: &str) -> Result<(), StoreError>;

    /// The first row of the query, if any.
    fn query_one(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>, StoreError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

/// `?1`, `?2`, … as PostgreSQL's `$1`, `$2`, … (a `?` inside a quoted literal is left alone).
#[cfg(feature = "nodes")]
pub(super) fn postgres_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\'' {
            quoted = !quoted;
        }
        if c == '?' && !quoted && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(v) => ValueRef::Integer(*v),
            Value::Real(v) => ValueRef::Real(*v),
            Value::Text(v) => ValueRef::Text(v.as_bytes()),
            Value::Blob(v) => ValueRef::Blob(v),
        }))
    }
}

fn from_sqlite(value: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef;
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(v) => Value::Int(v),
        ValueRef::Real(v) => Value::Real(v),
        ValueRef::Text(v) => Value::Text(String::from_utf8_lossy(v).into_owned()),
        ValueRef::Blob(v) => Value::Blob(v.to_vec()),
    }
}

/// An SQLite connection, its statements kept prepared (by their text).
impl Sql for rusqlite::Connection {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let mut stmt = self.prepare_cached(sql)?;
        Ok(stmt.execute(rusqlite::params_from_iter(params))? as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut stmt = self.prepare_cached(sql)?;
        let columns = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(params))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let mut values = Vec::with_capacity(columns);
            for i in 0..columns {
                values.push(from_sqlite(row.get_ref(i)?));
            }
            out.push(Row(values));
        }
        Ok(out)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        Ok(self.execute_batch(sql)?)
    }
}

/// Ends the transaction `done` was made in: commits if it is a success, rolls back otherwise.
pub(super) fn finish<T>(conn: &mut impl Sql, done: Result<T, StoreError>) -> Result<T, StoreError> {
    match done {
        Ok(value) => {
            conn.batch("COMMIT")?;
            Ok(value)
        }
        Err(e) => {
            let _ = conn.batch("ROLLBACK");
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_read_by_its_columns_names_aliases_included() {
        const READ: Columns = Columns(&["id", "w.bot AS white_bot", "summary"]);
        assert_eq!(READ.list(), "id, w.bot AS white_bot, summary");
        let row = Row(vec![Value::from("g1"), Value::Int(1), Value::Null]);
        let named = READ.of(&row);
        assert_eq!(named.text("id").unwrap(), "g1");
        assert!(named.flag("white_bot").unwrap());
        assert_eq!(named.opt_text("summary").unwrap(), None);
        // A name the query does not have, and a value of the wrong kind, are refused.
        assert!(matches!(named.text("bot"), Err(StoreError::Corrupt(_))));
        assert!(matches!(named.int("id"), Err(StoreError::Corrupt(_))));
    }

    #[cfg(feature = "nodes")]
    #[test]
    fn placeholders_become_postgresqls_outside_literals() {
        assert_eq!(
            postgres_placeholders("SELECT '?1', x FROM t WHERE a = ?1 AND b = ?12 AND c = '?'"),
            "SELECT '?1', x FROM t WHERE a = $1 AND b = $12 AND c = '?'"
        );
    }

    #[test]
    fn values_go_through_sqlite_and_come_back() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.batch("CREATE TABLE t (a INTEGER, b REAL, c TEXT, d BLOB, e INTEGER)")
            .unwrap();
        let row = [
            Value::from(7_i64),
            Value::from(1.5),
            Value::from("x"),
            Value::from(vec![1_u8, 2]),
            Value::from(None::<i64>),
        ];
        assert_eq!(
            Sql::execute(&mut conn, "INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)", &row).unwrap(),
            1
        );
        let read = Sql::query_one(
            &mut conn,
            "SELECT a, b, c, d, e FROM t WHERE a = ?1",
            &[7_i64.into()],
        )
        .unwrap()
        .unwrap();
        assert_eq!(read.0, row.to_vec());
        assert_eq!((read.int(0).unwrap(), read.opt_int(4).unwrap()), (7, None));
        assert!(read.text(0).is_err());
    }
}
