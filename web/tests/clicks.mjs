// Moves made the way a player makes them: by clicking a piece, then one of its lit targets.

// The player to move on `page` makes one move by clicks. It tries its own pieces (those
// matching `pieces`) in board order: with `challenge`, the first move onto an enemy piece
// found; otherwise, or when no piece can challenge, the first legal move found. Returns
// whether a move was made (false only when no own piece has a legal move).
export async function clickMove(page, { challenge = false, pieces = '[data-piece="own"]' } = {}) {
  const own = await page.$$eval(pieces, (squares) => squares.map((s) => s.dataset.square));
  let fallback = null;
  for (const square of own) {
    await page.click(`[data-square="${square}"]`);
    const targets = await page.$$eval("[data-legal]", (squares) =>
      squares.map((s) => ({ square: s.dataset.square, enemy: s.dataset.piece === "enemy" })));
    if (targets.length === 0) continue;
    const hit = targets.find((t) => t.enemy);
    if (hit && challenge) {
      await page.click(`[data-square="${hit.square}"]`);
      return true;
    }
    fallback ??= { from: square, to: targets[0].square };
    await page.click(`[data-square="${square}"]`); // unselect
  }
  if (!fallback) return false;
  await page.click(`[data-square="${fallback.from}"]`);
  await page.click(`[data-square="${fallback.to}"]`);
  return true;
}
