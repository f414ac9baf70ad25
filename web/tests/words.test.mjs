// The page's words: each status the server can send has its sentence; sentences are made
// from keys, not by testing English words; every string the page shows is in the table.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

import en from "../src/i18n/en.js";
import { abortText, challengeText, eliminationText, endText, t } from "../src/words.js";

const people = { white: { you: true }, black: { bot: true } };
const src = fileURLToPath(new URL("../src/", import.meta.url));

test("a win names its winner and why", () => {
  assert.equal(endText({ state: "won", winner: "white", reason: "flag-captured" }, people), "You win — a Flag was captured.");
  assert.equal(endText({ state: "won", winner: "black", reason: "abandoned" }, people), "The bot wins — abandonment.");
  assert.equal(endText({ state: "won", winner: "black", reason: "time" }, { white: { you: true }, black: { name: "You" } }), "You wins — time.",
    "a player named You is a name, not the reader");
});

test("a draw says why, and both players leaving is not an abandonment by one", () => {
  assert.equal(endText({ state: "drawn", winner: null, reason: "move-limit" }, people), "Draw — the move limit.");
  assert.equal(endText({ state: "drawn", winner: null, reason: "abandoned" }, people), "Draw — both players left.");
});

test("an aborted game says who and why, and that there is no result", () => {
  assert.equal(
    abortText({ reason: "setup-time", side: "black" }, people),
    "Aborted: The bot did not arrange their pieces in time. No result.",
  );
  assert.equal(abortText({ reason: "setup-time", side: "white" }, people), "Aborted: You did not arrange your pieces in time. No result.");
  assert.equal(abortText({ reason: "abort", side: "white" }, people), "Aborted by you before the first move. No result.");
  assert.equal(abortText({}, people), "This game was aborted before its first move. No result.");
});

test("a challenge names the eliminated piece and the attacker's", () => {
  const who = { white: { you: true }, black: { name: "Maria" } };
  assert.equal(eliminationText("white", "win", who), "Challenge: Maria's piece is eliminated.");
  assert.equal(eliminationText("white", "lose", who), "Challenge: your piece is eliminated.");
  assert.equal(eliminationText("black", "lose", who), "Challenge: Maria's piece is eliminated.");
  assert.equal(eliminationText("black", "tie", who), "Challenge: a tie, both pieces are eliminated.");
  assert.equal(challengeText({ you: true }, "win"), "Your piece won the challenge.");
  assert.equal(challengeText({ side: "black" }, "tie"), "Black's piece tied: both pieces are removed.");
});

test("placeholders are filled and plurals follow Intl.PluralRules", () => {
  assert.equal(t("lobby.playing", { count: 1 }), "1 game in play");
  assert.equal(t("lobby.playing", { count: 0 }), "0 games in play");
  assert.equal(t("lobby.playing", { count: 7 }), "7 games in play");
  assert.equal(t("you-play", { side: "Black" }), "You play Black.");
  assert.equal(t("no.such.key"), "no.such.key");
  for (const [key, entry] of Object.entries(en)) {
    if (typeof entry === "object") assert.ok(typeof entry.other === "string", `${key} has an "other" form`);
  }
});

// Every file of the page's source.
function sources(dir = src) {
  return readdirSync(dir).flatMap((name) => {
    const path = `${dir}${name}`;
    if (statSync(path).isDirectory()) return name === "i18n" || name === "pkg" ? [] : sources(`${path}/`);
    return [path];
  });
}

test("the page's code writes no sentence of its own: every one is a key of the table", () => {
  // A literal that starts like English prose: a capital, a word, a space, a lower-case word.
  const prose = /["'`][A-Z][a-z]+,? [a-z]+/;
  for (const path of sources().filter((p) => p.endsWith(".js"))) {
    readFileSync(path, "utf8").split("\n").forEach((line, i) => {
      if (line.trim().startsWith("//")) return;
      assert.doesNotMatch(line, prose, `${path.slice(src.length)}:${i + 1}: ${line.trim()}`);
    });
  }
  // Every key the code names is in the table.
  for (const path of sources()) {
    const text = readFileSync(path, "utf8");
    for (const [, key] of text.matchAll(/\b(?:t|data-t(?:-(?!choices)[a-z-]+)?)[(=]\s*"([a-z0-9.+-]+)"/g)) {
      assert.ok(key in en, `${path.slice(src.length)} names ${key}, which the table lacks`);
    }
  }
  // And every key a select's listed choices make (`fillChoices`).
  const html = readFileSync(`${src}index.html`, "utf8");
  const lists = [...html.matchAll(/data-t-choices="([a-z.]+)" data-choices="([^"]+)"/g)];
  assert.equal(lists.length, html.match(/data-choices=/g).length, "each data-choices beside its data-t-choices");
  assert.ok(lists.length >= 6, `${lists.length} selects list their choices`);
  for (const [, prefix, words] of lists) {
    for (const word of words.split(" ")) {
      const key = `${prefix}.${word.split("=").at(-1)}`;
      assert.ok(key in en, `index.html's choices make ${key}, which the table lacks`);
    }
  }
});

test("every word of the page's HTML comes from the table", () => {
  const html = readFileSync(`${src}index.html`, "utf8").replace(/<!--[\s\S]*?-->/g, "").replace(/<(script|style)[\s\S]*?<\/\1>/g, "");
  // Text between tags, and the element it belongs to.
  for (const [, tag, text] of html.matchAll(/<([^/!][^>]*)>([^<]+)/g)) {
    if (!/[A-Za-z]/.test(text)) continue;
    assert.match(tag, /\bdata-t="/, `the text "${text.trim()}" of <${tag}> has no data-t`);
  }
  for (const [, attribute] of html.matchAll(/\s(placeholder|aria-label|title|label)="[^"]*"/g)) {
    assert.fail(`an ${attribute} written in the HTML: mark it data-t-${attribute}`);
  }
});

test("every language has every key, with the same placeholders and plural forms", async () => {
  const { TABLES } = await import("../src/words.js");
  const { FILIPINO_RANKS } = await import("../src/i18n/fil.js");
  const placeholders = (entry) => {
    const texts = typeof entry === "object" ? Object.values(entry) : [entry];
    return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))].sort();
  };
  for (const [lang, table] of Object.entries(TABLES)) {
    assert.deepEqual(Object.keys(table).sort(), Object.keys(en).sort(), `${lang} has the same keys as en`);
    for (const [key, entry] of Object.entries(en)) {
      assert.deepEqual(placeholders(table[key]), placeholders(entry), `${lang} ${key}: the same placeholders`);
      assert.equal(typeof table[key], typeof entry, `${lang} ${key}: a plural where en has one`);
      if (typeof entry === "object") assert.equal(typeof table[key].other, "string", `${lang} ${key} has an "other" form`);
    }
  }
  // The Filipino ranks' names replace the rank keys only.
  for (const key of Object.keys(FILIPINO_RANKS)) assert.ok(key.startsWith("rank.") && key in en, key);
});

test("the page speaks Filipino when picked, ranks in English unless asked", async () => {
  const { preferredLanguage, setLanguage, rankName } = await import("../src/words.js");
  assert.equal(preferredLanguage(["fil-PH", "en-US"]), "fil");
  assert.equal(preferredLanguage(["tl"]), "fil");
  assert.equal(preferredLanguage(["de", "en-GB"]), "en");
  assert.equal(preferredLanguage([]), "en");
  try {
    setLanguage("fil");
    assert.equal(endText({ state: "won", winner: "white", reason: "flag-captured" }, people), "Panalo ka — nakuha ang Flag.");
    assert.equal(rankName("SP"), "Spy");
    setLanguage("fil", { filipinoRanks: true });
    assert.equal(rankName("SP"), "Espiya");
    assert.equal(t("lobby.playing", { count: 2 }), "2 larong nilalaro");
  } finally {
    setLanguage("en");
  }
});

test("every refusal code the server can send has its words in every language", async () => {
  const { TABLES, refusalText, setLanguage } = await import("../src/words.js");
  // The codes as the server writes them (server/src/wire/refusal.rs, `Code::word`).
  const rust = readFileSync(fileURLToPath(new URL("../../server/src/wire/refusal.rs", import.meta.url)), "utf8");
  const codes = [...rust.matchAll(/Code::\w+ => "([a-z-]+)"/g)].map((m) => m[1]);
  assert.ok(codes.length >= 29, `${codes.length} codes read`);
  for (const [lang, table] of Object.entries(TABLES)) {
    for (const code of codes) assert.equal(typeof table[`error.${code}`], "string", `${lang}: error.${code}`);
  }
  // English shows the server's message (it may say more); Filipino the code's words.
  assert.equal(refusalText("stale-ply", "ply 3 is not the current ply 4"), "ply 3 is not the current ply 4");
  assert.equal(refusalText("stale-ply", ""), en["error.stale-ply"]);
  try {
    setLanguage("fil");
    assert.equal(refusalText("stale-ply", "ply 3 is not the current ply 4"), TABLES.fil["error.stale-ply"]);
    assert.equal(refusalText("no-such-code", "what the server said"), "what the server said");
  } finally {
    setLanguage("en");
  }
});

test("every id of the page names one element", () => {
  const html = readFileSync(`${src}index.html`, "utf8").replace(/<!--[\s\S]*?-->/g, "");
  const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  assert.deepEqual(twice, [], "ids used twice");
  assert.ok(ids.length > 100, `${ids.length} ids`);
});
