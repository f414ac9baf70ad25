//! The live list across nodes (PostgreSQL): each node keeps the games in play it holds in
//! `live_games`, its rows replaced a second at a time; every node reads the others' rows of
//! games they still own, whose leases still run. A node killed or paused drops out of the
//! list when its lease lapses; the node that takes a game over lists it from then.

use super::sql::{Row, Sql, Value};
use super::values::StoreError;

/// PostgreSQL's table of the live list (its step 5, with the chat's).
pub(super) const PG_LIVE_GAMES: &str = "
CREATE TABLE live_games (
    node TEXT NOT NULL,
    game TEXT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (node, game)
);
";

/// Replaces `node`'s rows with `entries` (each a game's id and its entry's JSON).
pub(super) fn publish(
    conn: &mut impl Sql,
    node: &str,
    entries: &[(String, String)],
) -> Result<(), StoreError> {
    conn.execute("DELETE FROM live_games WHERE node = ?1", &[node.into()])?;
    for (game, entry) in entries {
        conn.execute(
            "INSERT INTO live_games (node, game, entry) VALUES (?1, ?2, ?3)",
            &[node.into(), game.into(), entry.into()],
        )?;
    }
    Ok(())
}

/// The entries the other nodes list: only games each still owns, of nodes whose leases
/// run.
pub(super) fn elsewhere(conn: &mut impl Sql, me: &str) -> Result<Vec<String>, StoreError> {
    conn.query(
        "SELECT l.entry FROM live_games l
         JOIN owners o ON o.game = l.game AND o.node = l.node
         JOIN nodes n ON n.name = l.node
         WHERE l.node <> ?1 AND n.until_ms > salpakan_now_ms()",
        &[Value::from(me)],
    )?
    .iter()
    .map(Row::only_text)
    .collect()
}
