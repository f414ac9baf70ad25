//! The one seam between the store and its two databases: a connection that runs a statement
//! with values and returns rows of values. Every statement the store makes is written once,
//! with `?1`, `?2`, … for its values (SQLite's form, run as written; for PostgreSQL each
//! becomes `$1`, …, once per statement, when it is first prepared), and runs on either
//! database; the few places where their dialects differ ask [`Dialect`].

use std::collections::HashMap;

use super::StoreError;

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

/// Which database a connection talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    Sqlite,
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
fn postgres_placeholders(sql: &str) -> String {
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

impl postgres::types::ToSql for Value {
    fn to_sql(
        &self,
        ty: &postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> Result<postgres::types::IsNull, Box<dyn std::error::Error + Sync + Send>> {
        use postgres::types::{IsNull, Type};
        match (self, ty) {
            (Value::Null, _) => Ok(IsNull::Yes),
            (Value::Int(v), &Type::INT8) => v.to_sql(ty, out),
            (Value::Int(v), &Type::INT4) => i32::try_from(*v)?.to_sql(ty, out),
            (Value::Int(v), &Type::INT2) => i16::try_from(*v)?.to_sql(ty, out),
            (Value::Int(v), &Type::FLOAT8) => (*v as f64).to_sql(ty, out),
            (Value::Int(v), &Type::BOOL) => (*v != 0).to_sql(ty, out),
            (Value::Real(v), &Type::FLOAT8) => v.to_sql(ty, out),
            (Value::Real(v), &Type::FLOAT4) => (*v as f32).to_sql(ty, out),
            (Value::Text(v), _) => v.as_str().to_sql(ty, out),
            (Value::Blob(v), _) => v.as_slice().to_sql(ty, out),
            (value, ty) => Err(format!("{value:?} cannot be written as {ty}").into()),
        }
    }

    fn accepts(_: &postgres::types::Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

fn from_postgres(row: &postgres::Row, i: usize) -> Result<Value, postgres::Error> {
    use postgres::types::Type;
    let ty = row.columns()[i].type_().clone();
    Ok(match ty {
        Type::INT8 => row.try_get::<_, Option<i64>>(i)?.into(),
        Type::INT4 => row.try_get::<_, Option<i32>>(i)?.map(i64::from).into(),
        Type::INT2 => row.try_get::<_, Option<i16>>(i)?.map(i64::from).into(),
        Type::BOOL => row.try_get::<_, Option<bool>>(i)?.into(),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.into(),
        Type::FLOAT4 => row.try_get::<_, Option<f32>>(i)?.map(f64::from).into(),
        Type::BYTEA => row.try_get::<_, Option<Vec<u8>>>(i)?.into(),
        _ => row.try_get::<_, Option<String>>(i)?.into(),
    })
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

/// The key of the advisory lock the writing server holds.
const WRITER_LOCK: i64 = 0x5341_4c50_414b_414e; // "SALPAKAN"

/// A PostgreSQL connection, its statements kept prepared (by their text). A connection the
/// server or the network closed is made again before the next statement (its session's
/// settings with it): the statement that found it closed fails, the next one runs.
pub(super) struct Postgres {
    url: String,
    /// Statements run on every new connection (`SET …`).
    session: String,
    /// The node whose writer lock this connection holds (taken again by a new one).
    writer: Option<String>,
    client: postgres::Client,
    prepared: HashMap<String, postgres::Statement>,
}

impl Postgres {
    /// Connects to `url`.
    pub(super) fn connect(url: &str) -> Result<Postgres, StoreError> {
        let client = postgres::Client::connect(url, postgres::NoTls)?;
        Ok(Postgres {
            url: url.to_owned(),
            session: String::new(),
            writer: None,
            client,
            prepared: HashMap::new(),
        })
    }

    /// Runs `sql` now and on every new connection.
    pub(super) fn set_session(&mut self, sql: &str) -> Result<(), StoreError> {
        self.session = sql.to_owned();
        self.batch(sql)
    }

    /// Takes the database's writer lock (a session's advisory lock): one server writes a
    /// database. Fails if another server's connection holds it.
    pub(super) fn take_writer_lock(&mut self, node: &str) -> Result<(), StoreError> {
        // One key per node name: FNV-1a of the name, mixed into the server's key.
        let key = node.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let key = WRITER_LOCK ^ (key as i64);
        let row = self
            .client
            .query_one("SELECT pg_try_advisory_lock($1)", &[&key])?;
        if !row.try_get::<_, bool>(0)? {
            return Err(StoreError::Busy);
        }
        self.writer = Some(node.to_owned());
        Ok(())
    }

    fn ready(&mut self) -> Result<(), StoreError> {
        if self.client.is_closed() {
            self.prepared.clear();
            self.client = postgres::Client::connect(&self.url, postgres::NoTls)?;
            if !self.session.is_empty() {
                self.client.batch_execute(&self.session)?;
            }
            if let Some(node) = self.writer.clone() {
                self.take_writer_lock(&node)?;
            }
        }
        Ok(())
    }

    fn statement(&mut self, sql: &str) -> Result<postgres::Statement, StoreError> {
        self.ready()?;
        if let Some(stmt) = self.prepared.get(sql) {
            return Ok(stmt.clone());
        }
        let stmt = self.client.prepare(&postgres_placeholders(sql))?;
        self.prepared.insert(sql.to_owned(), stmt.clone());
        Ok(stmt)
    }
}

fn params(values: &[Value]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    values
        .iter()
        .map(|v| v as &(dyn postgres::types::ToSql + Sync))
        .collect()
}

impl Sql for Postgres {
    fn dialect(&self) -> Dialect {
        Dialect::Postgres
    }

    fn execute(&mut self, sql: &str, values: &[Value]) -> Result<u64, StoreError> {
        let stmt = self.statement(sql)?;
        Ok(self.client.execute(&stmt, &params(values))?)
    }

    fn query(&mut self, sql: &str, values: &[Value]) -> Result<Vec<Row>, StoreError> {
        let stmt = self.statement(sql)?;
        let rows = self.client.query(&stmt, &params(values))?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut values = Vec::with_capacity(row.len());
            for i in 0..row.len() {
                values.push(from_postgres(row, i)?);
            }
            out.push(Row(values));
        }
        Ok(out)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        self.ready()?;
        Ok(self.client.batch_execute(sql)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
