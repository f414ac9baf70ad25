// The page's words: `t(key, values)` reads the string table of the page's language (i18n/),
// fills in `{placeholders}` and picks plurals by Intl.PluralRules; `translate(root)` fills
// every element marked `data-t` (and `data-t-placeholder`, `data-t-aria-label`,
// `data-t-label`). The sentences about a game are made here from keys, never by testing
// English words: who each side is comes as a person ({you}, {name}, {bot}, {opponent}, or
// {side} for a spectator), and each sentence has a key for "you" and one for anyone else.
import en from "./i18n/en.js";
import fil, { FILIPINO_RANKS } from "./i18n/fil.js";

// The page's languages: English, and Filipino (the ranks' names English by default, as
// Filipino players say them, or Filipino).
export const TABLES = { en, fil };
export const LANGUAGES = Object.keys(TABLES);
let language = "en";
let table = en;
let plurals = new Intl.PluralRules(language);

// Uses the table of `lang` (one of the page's languages) from now on, the ranks named in
// Filipino if `filipinoRanks` (in Filipino only).
export function setLanguage(lang, { filipinoRanks = false } = {}) {
  if (!TABLES[lang]) throw new Error(`no strings for ${lang}`);
  language = lang;
  table = lang === "fil" && filipinoRanks ? { ...fil, ...FILIPINO_RANKS } : TABLES[lang];
  plurals = new Intl.PluralRules(lang);
  if (typeof document !== "undefined") document.documentElement.lang = lang;
}

// The language in use.
export const currentLanguage = () => language;

// The language a browser asks for first among the page's (its `languages`, in order; Tagalog
// is read as Filipino), or English.
export function preferredLanguage(languages) {
  for (const tag of languages ?? []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base === "fil" || base === "tl") return "fil";
    if (base === "en") return "en";
  }
  return "en";
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

// Makes the options of every `select` or `optgroup` under `root` that lists its choices in
// `data-choices`: each word is an option's value (`value=end` where the key does not end in the
// value, as `=default` for the empty value), its key `data-t-choices` + "." + that end, and the
// option `data-choice` names selected (else the first). `translate` then fills their words.
export function fillChoices(root = document) {
  for (const select of root.querySelectorAll("[data-choices]")) {
    const chosen = select.dataset.choice;
    select.replaceChildren(
      ...select.dataset.choices.split(" ").map((word) => {
        const [value, end = value] = word.split("=");
        const option = document.createElement("option");
        option.value = value;
        option.dataset.t = `${select.dataset.tChoices}.${end}`;
        option.selected = value === chosen;
        return option;
      }),
    );
  }
}

// Fills every marked element under `root` with its words.
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const [attribute, data] of ATTRIBUTES) {
    for (const el of root.querySelectorAll(`[data-t-${attribute}]`)) el.setAttribute(attribute, t(el.dataset[data]));
  }
}

// A server's refusal (its `code` and English `message`) in the page's language: in English the
// server's own message (it may say more, as a limit's size), in another the code's words
// (the server speaks English only).
export function refusalText(code, message) {
  if (language === "en" && message) return message;
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  return message || t("lobby.refused");
}

export const sideName = (side) => t(`side.${side}`);

// A clock's time left, as a clock shows it: "4:59" (whole seconds, rounded up).
export function clockTime(ms) {
  const total = Math.ceil(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}
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

// A server bot's name as the page shows it: "Level 5", "Greedy" (its player name is
// `bot-level-5`, `bot-greedy`); any other name as it is.
export function botName(name) {
  const level = /^bot-level-(\d+)$/.exec(name);
  if (level) return t("lobby.level", { level: level[1] });
  const agent = /^bot-(\w+)$/.exec(name);
  return agent && has(`lobby.bot.${agent[1]}`) ? t(`lobby.bot.${agent[1]}`) : name;
}

// A rating change as the page shows it: "+12", "−9", "±0".
export function deltaText(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${-delta}`;
  return "\u00b10";
}

// A rating as the page shows it: "1500", or "1500?" while provisional.
export function ratingText(rating, provisional) {
  return provisional ? t("rating.provisional", { rating }) : String(rating);
}

// A share as a whole percentage, "37%".
export const percent = (p) => `${Math.round(100 * p)}%`;
