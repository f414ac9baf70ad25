//! PostgreSQL, the database several nodes share (feature `nodes`): the connection behind
//! the store's one seam ([`Sql`]), its values both ways, and the thread that hears the other
//! nodes at once (`LISTEN`).

use std::collections::HashMap;

use super::lease::{ENDED_CHANNEL, NODES_CHANNEL, Notice, PLAYERS_CHANNEL};
use super::sql::{Dialect, Row, Sql, Value, postgres_placeholders};
use super::values::StoreError;

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

/// Listens on [`NODES_CHANNEL`], [`PLAYERS_CHANNEL`] and [`ENDED_CHANNEL`] through a
/// connection of its own (made
/// again when it drops) until `tx`'s receiver is dropped.
pub(super) fn listen(
    url: String,
    tx: tokio::sync::mpsc::UnboundedSender<Notice>,
) -> Result<(), StoreError> {
    use postgres::fallible_iterator::FallibleIterator;
    let wait = std::time::Duration::from_secs(1);
    std::thread::Builder::new()
        .name("salpakan-listen".into())
        .spawn(move || {
            while !tx.is_closed() {
                let mut client = match postgres::Client::connect(&url, postgres::NoTls) {
                    Ok(client) => client,
                    Err(_) => {
                        std::thread::sleep(wait);
                        continue;
                    }
                };
                let channels = format!(
                    "LISTEN {NODES_CHANNEL}; LISTEN {PLAYERS_CHANNEL}; LISTEN {ENDED_CHANNEL};"
                );
                if client.batch_execute(&channels).is_err() {
                    std::thread::sleep(wait);
                    continue;
                }
                let _ = tx.send(Notice::Resync);
                while !tx.is_closed() {
                    let heard = client.notifications().timeout_iter(wait).next();
                    match heard {
                        Ok(Some(heard)) => {
                            let payload = heard.payload().to_owned();
                            let notice = match heard.channel() {
                                NODES_CHANNEL => Notice::NodeStopped(payload),
                                ENDED_CHANNEL => Notice::Ended(payload),
                                _ => Notice::Player(payload),
                            };
                            let _ = tx.send(notice);
                        }
                        Ok(None) if !client.is_closed() => {}
                        _ => break,
                    }
                }
            }
        })
        .map(|_| ())
        .map_err(StoreError::Thread)
}
