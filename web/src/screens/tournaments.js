// The tournaments (docs/SERVER.md, "Tournaments: routes, messages, sealing"): the list
// (`?tournaments`: upcoming, running, finished, and a form to make one) and a tournament
// (`?tournament=ID`): registration, your game with a countdown to its round's cutoff and a
// button that takes your seat, the standings and pairings (read again every few seconds
// while the screen is shown), the director's tools and the public log.
import { api } from "../connection.js";
import { storedPlayer } from "../player.js";
import { keepSeat } from "../seats.js";
import { t } from "../words.js";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}) => Object.assign(document.createElement(tag), props);

// How often a tournament's screen reads it again.
const REFRESH_MS = 3000;

const kindText = (kind) => t(`tournament.kind.${kind}`);

// A board's result as the pairings show it.
function resultText(result) {
  if (!result) return t("tournament.playing");
  switch (result.result) {
    case "white-won":
      return "1–0";
    case "black-won":
      return "0–1";
    case "draw":
      return "½–½";
    case "void":
      return t("tournament.void");
    default:
      return result.present ? t("tournament.default-to", { side: t(`side.${result.present}`) }) : t("tournament.default-none");
  }
}

// `ms` as minutes and seconds, `m:ss` (hours first past an hour).
function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

export function tournamentsScreen(router) {
  let shown = 0;

  function entry(e) {
    const item = el("li");
    item.dataset.tournament = e.id;
    item.dataset.status = e.status;
    const link = el("a", { href: `?tournament=${e.id}`, textContent: e.name });
    let line = t("tournaments.line", { kind: kindText(e.kind), entrants: t("tournaments.entrants", { count: e.entrants }) });
    if (e.rated) line += t("tournaments.rated");
    if (e.leaders.length) line += t("tournaments.leaders", { names: e.leaders.join(", ") });
    item.append(link, line);
    return item;
  }

  async function create(event) {
    event.preventDefault();
    const body = {
      name: $("tournament-name").value.trim(),
      kind: $("tournament-kind").value,
      rounds: Number($("tournament-rounds").value),
      round_ms: Number($("tournament-round-minutes").value) * 60000,
      rated: $("tournament-rated").checked,
      watching: $("tournament-watching").checked,
    };
    if (body.kind === "arena") body.minutes = Number($("tournament-rounds").value) * 10;
    const reply = await api("POST", "/api/tournaments", body);
    if (!reply.ok) {
      $("tournaments-status").textContent = reply.body?.message ?? t("unreachable");
      return;
    }
    await router.go(`?tournament=${reply.body.id}`);
  }

  return {
    async enter() {
      const showing = ++shown;
      $("tournament-create").hidden = !storedPlayer();
      $("tournaments-status").textContent = "";
      const reply = await api("GET", "/api/tournaments");
      if (showing !== shown) return;
      const lists = { upcoming: [], running: [], finished: [] };
      if (reply.ok) for (const e of reply.body.tournaments) lists[e.status]?.push(entry(e));
      else $("tournaments-status").textContent = t("unreachable");
      for (const [status, items] of Object.entries(lists)) {
        $(`tournaments-${status}`).replaceChildren(...items);
        $(`tournaments-${status}-empty`).hidden = items.length > 0;
      }
    },
    leave() {
      shown++;
    },
    bind() {
      $("tournament-create").addEventListener("submit", create);
    },
  };
}

export function tournamentScreen(router) {
  let shown = 0;
  let timer = null;
  let ticker = null;
  let id = null;
  let last = null;

  const me = () => storedPlayer()?.name ?? null;
  const same = (a, b) => a?.toLowerCase() === b?.toLowerCase();

  async function act(path, body) {
    const reply = await api("POST", `/api/tournaments/${id}/${path}`, body);
    $("tournament-status").textContent = reply.ok ? "" : reply.body?.message ?? t("unreachable");
    if (reply.ok) render(reply.body);
  }

  // Your board in the round under way, if you have one undecided.
  function yourBoard(tour) {
    const you = tour.entrants.findIndex((e) => same(e.name, me()));
    if (you < 0) return null;
    for (let r = tour.rounds.length - 1; r >= 0; r--) {
      const round = tour.rounds[r];
      if (!round.paired_ms) continue;
      const board = round.boards.find((b) => (b.white === you || b.black === you) && !b.result && b.game);
      if (board) return { round: r + 1, board, side: board.white === you ? "white" : "black", cutoff: round.cutoff_ms };
    }
    return null;
  }

  function renderYourGame(tour) {
    const yours = yourBoard(tour);
    $("tournament-your-game").hidden = !yours;
    clearInterval(ticker);
    if (!yours) return;
    const opponent = tour.entrants[yours.side === "white" ? yours.board.black : yours.board.white].name;
    $("tournament-your-line").textContent = t("tournament.your-game", {
      round: yours.round,
      side: t(`side.${yours.side}`),
      opponent,
    });
    const tick = () => {
      $("tournament-countdown").textContent = t("tournament.cutoff-in", { left: countdown(yours.cutoff - Date.now()) });
    };
    tick();
    ticker = setInterval(tick, 1000);
    $("tournament-play").dataset.game = yours.board.game;
  }

  async function play() {
    const game = $("tournament-play").dataset.game;
    const reply = await api("POST", `/api/games/${game}/seat`);
    if (!reply.ok) {
      $("tournament-status").textContent = reply.body?.message ?? t("unreachable");
      return;
    }
    keepSeat(game, { token: reply.body.token, side: reply.body.side, opponent: "human" });
    await router.go(`?game=${game}`);
  }

  function renderStandings(tour) {
    const items = tour.standings.map((s) => {
      const item = el("li");
      item.dataset.name = s.name;
      item.dataset.score = String(s.score);
      item.dataset.place = String(s.place);
      const withdrawn = tour.entrants.find((e) => e.name === s.name)?.withdrawn;
      item.textContent = t("tournament.standing", {
        place: s.place,
        name: s.name,
        score: s.score,
        direct: s.direct,
        buchholz: s.buchholz,
        sb: s.sonneborn_berger,
      }) + (withdrawn ? t("tournament.withdrawn") : "");
      return item;
    });
    $("tournament-standings").replaceChildren(...items);
  }

  function renderRounds(tour) {
    const name = (i) => tour.entrants[i]?.name ?? "?";
    const rounds = tour.rounds
      .map((round, r) => ({ round, r }))
      .filter(({ round }) => round.paired_ms)
      .reverse()
      .map(({ round, r }) => {
        const box = el("li");
        box.dataset.round = String(r + 1);
        box.append(el("strong", { textContent: t("tournament.round", { n: r + 1 }) }));
        const boards = el("ul");
        round.boards.forEach((b, i) => {
          const line = el("li", { textContent: t("tournament.board", { n: i + 1, white: name(b.white), black: name(b.black), result: resultText(b.result) }) });
          line.dataset.board = String(i + 1);
          line.dataset.result = b.result?.result ?? "playing";
          if (tour.settings.watching && !b.result && b.game) {
            line.append(" · ", el("a", { href: `?watch=${b.game}`, textContent: t("tournament.watch") }));
          }
          boards.append(line);
        });
        if (round.bye !== null && round.bye !== undefined) boards.append(el("li", { textContent: t("tournament.bye", { name: name(round.bye) }) }));
        box.append(boards);
        return box;
      });
    $("tournament-pairings").replaceChildren(...rounds);
  }

  function render(tour) {
    last = tour;
    const you = me();
    const entered = tour.entrants.some((e) => same(e.name, you) && !e.withdrawn);
    const director = tour.directors.some((d) => same(d, you));
    $("tournament-heading").textContent = tour.settings.name;
    const section = $("tournament-section");
    section.dataset.status = tour.status;
    section.dataset.paused = String(tour.paused);
    let about = t("tournament.about", {
      kind: kindText(tour.settings.kind),
      status: t(`tournament.status.${tour.status}`),
      entrants: t("tournaments.entrants", { count: tour.entrants.length }),
    });
    if (tour.paused) about += t("tournament.paused");
    $("tournament-about").textContent = about;
    $("tournament-register").hidden = !you || entered || tour.status === "finished" || (tour.status === "running" && tour.settings.kind !== "arena");
    $("tournament-withdraw").hidden = !you || !entered || tour.status === "finished";
    $("tournament-director").hidden = !director || tour.status === "finished";
    $("tournament-start").hidden = tour.status !== "upcoming";
    $("tournament-pause").hidden = tour.status !== "running" || tour.paused;
    $("tournament-resume").hidden = tour.status !== "running" || !tour.paused;
    renderYourGame(tour);
    renderStandings(tour);
    renderRounds(tour);
    $("tournament-log").replaceChildren(...tour.log.slice(-50).reverse().map((line) => {
      const item = el("li", { textContent: `${new Date(line.at_ms).toLocaleTimeString()} · ${line.by} · ${line.action}${line.detail ? `: ${line.detail}` : ""}` });
      item.dataset.action = line.action;
      return item;
    }));
  }

  async function read(showing) {
    const reply = await api("GET", `/api/tournaments/${id}`);
    if (showing !== shown) return;
    if (!reply.ok) {
      $("tournament-status").textContent = reply.status === 404 ? t("tournament.none") : t("unreachable");
      return;
    }
    render(reply.body);
  }

  return {
    async enter(params) {
      const showing = ++shown;
      id = params.get("tournament");
      $("tournament-status").textContent = "";
      await read(showing);
      timer = setInterval(() => read(showing), REFRESH_MS);
    },
    leave() {
      shown++;
      clearInterval(timer);
      clearInterval(ticker);
      last = null;
    },
    refresh() {
      if (last) render(last);
    },
    bind() {
      $("tournament-register").addEventListener("click", () => act("register"));
      $("tournament-withdraw").addEventListener("click", () => act("withdraw"));
      $("tournament-start").addEventListener("click", () => act("start"));
      $("tournament-pause").addEventListener("click", () => act("pause"));
      $("tournament-resume").addEventListener("click", () => act("resume"));
      $("tournament-extend").addEventListener("click", () => act("extend", { minutes: 10 }));
      $("tournament-decide").addEventListener("submit", (event) => {
        event.preventDefault();
        const present = $("decide-present").value;
        act("decide", {
          round: Number($("decide-round").value),
          board: Number($("decide-board").value),
          result: $("decide-result").value,
          ...(present === "none" ? {} : { present }),
        });
      });
      $("tournament-play").addEventListener("click", play);
    },
  };
}
