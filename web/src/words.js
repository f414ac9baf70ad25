// The page's words: `t(key, values)` reads the string table of the page's language (i18n/),
// fills in `{placeholders}` and picks plurals by Intl.PluralRules; `translate(root)` fills
// every element marked `data-t` (and `data-t-placeholder`, `data-t-aria-label`,
// `data-t-label`). The sentences about a game are made here from keys, never by testing
// English words: who each side is comes as a person ({you}, {name}, {bot}, {opponent}, or
// {side} for a spectator), and each sentence has a key for "you" and one for anyone else.
import en from "./i18n/en.js";

const TABLES = { en };
let language = "en";
let table = en;
let plurals = new Intl.PluralRules(language);

// Uses the table of `lang` (one of the page's languages) from now on.
export function setLanguage(lang) {
  if (!TABLES[lang]) throw new Error(`no strings for ${lang}`);
  language = lang;
  table = TABLES[lang];
  plurals = new Intl.PluralRules(lang);
  document.documentElement.lang = lang;
}

// The string of `key`, `values` filled in (`count` picks a plural form).
export function t(key, values = {}) {
  let entry = table[key] ?? en[key];
  if (entry === undefined) return key;
  if (typeof entry === "object") entry = entry[plurals.select(values.count ?? 0)] ?? entry.other;
  return entry.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// Whether the table has `key`.
export function has(key) {
  return key in table || key in en;
}

// The attributes `translate` fills, and their data keys.
const ATTRIBUTES = [["placeholder", "tPlaceholder"], ["aria-label", "tAriaLabel"], ["label", "tLabel"], ["title", "tTitle"]];

// Fills every marked element under `root` with its words.
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const [attribute, data] of ATTRIBUTES) {
    for (const el of root.querySelectorAll(`[data-t-${attribute}]`)) el.setAttribute(attribute, t(el.dataset[data]));
  }
}

export const sideName = (side) => t(`side.${side}`);
export const rankName = (code) => t(`rank.${code}`);
export const outcomeWords = (outcome) => t(`outcome.${outcome}`);
export const other = (side) => (side === "white" ? "black" : "white");

// A person in words: "You", a name, "The bot", "Your opponent", or a side's colour.
export function personText(person) {
  if (person.you) return t("who.you");
  if (person.name) return person.name;
  if (person.bot) return t("who.bot");
  if (person.opponent) return t("who.opponent");
  return sideName(person.side);
}

// Why a game ended, in words (a draw's own words where they differ).
function reasonText(status) {
  const draw = `reason.draw.${status.reason}`;
  if (!status.winner && has(draw)) return t(draw);
  return has(`reason.${status.reason}`) ? t(`reason.${status.reason}`) : status.reason;
}

// The end in words, `people` saying who each side is.
export function endText(status, people) {
  const why = reasonText(status);
  if (!status.winner) return t("end.draw", { why });
  const winner = people[status.winner];
  return winner.you ? t("end.you-win", { why }) : t("end.wins", { who: personText(winner), why });
}

// What a challenge did, as a sentence about the attacker (a person).
export function challengeText(attacker, outcome) {
  const what = t(`outcome.${outcome}.piece`);
  return attacker.you ? t("challenge.yours", { what }) : t("challenge.theirs", { who: personText(attacker), what });
}

// An aborted game in words: who ran out of setup time or called it off.
export function abortText(aborted, people) {
  const who = aborted.side ? people[aborted.side] : null;
  if (aborted.reason === "setup-time" && who) {
    return who.you ? t("abort.setup-time.you") : t("abort.setup-time.them", { who: personText(who) });
  }
  if (aborted.reason === "abort" && who) return who.you ? t("abort.by-you") : t("abort.by-them", { who: personText(who) });
  return t("abort.plain");
}

// A challenge's result as the board shows it: which piece was eliminated. `side` attacked.
export function eliminationText(side, outcome, people) {
  if (outcome === "tie") return t("eliminated.both");
  const lost = people[outcome === "win" ? other(side) : side];
  return lost.you ? t("eliminated.yours") : t("eliminated.theirs", { who: personText(lost) });
}

// A rating as the page shows it: "1500", or "1500?" while provisional.
export function ratingText(rating, provisional) {
  return provisional ? t("rating.provisional", { rating }) : String(rating);
}

// A share as a whole percentage, "37%".
export const percent = (p) => `${Math.round(100 * p)}%`;
