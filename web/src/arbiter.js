// The arbiter for a physical board: two people play with real pieces; in a challenge the
// attacker picks their piece's rank here (the choice is not shown), hands the phone over, the
// defender picks theirs, and the page says only what the arbiter says. The outcome and whether
// a Flag fell come from the engine (`challenge`, `capturesFlag`), never a copy.
import { ARMY, capturesFlag, challenge, rankCode } from "./pkg/salpakan.js";
import { announce } from "./board.js";
import { rankName, t } from "./words.js";

const attacker = document.getElementById("arbiter-attacker");
const defender = document.getElementById("arbiter-defender");
const resolve = document.getElementById("arbiter-resolve");
const result = document.getElementById("arbiter-result");

// The ranks as players name them, highest first: the generals down to the Private, then the
// Spy and the Flag (the army lists the ranks in rank order, the Flag first, the Spy last).
const [flag, ...ranks] = [...new Set(ARMY)];
const spy = ranks.pop();
const ORDER = [...ranks.reverse(), spy, flag];

function fill(select) {
  for (const rank of ORDER) {
    const option = document.createElement("option");
    option.value = rankCode(rank);
    option.dataset.rank = rank;
    option.textContent = rankName(rankCode(rank));
    select.appendChild(option);
  }
  select.selectedIndex = -1;
  select.addEventListener("change", () => {
    // Chosen, and hidden: the select shows no rank once it is closed, and the page says
    // that the pick registered (never which rank).
    select.classList.toggle("chosen", select.selectedIndex >= 0);
    resolve.disabled = attacker.selectedIndex < 0 || defender.selectedIndex < 0;
    const picked = [attacker, defender].filter((s) => s.selectedIndex >= 0).map((s) => (s === attacker ? "attacker" : "defender"));
    delete result.dataset.outcome;
    result.textContent = picked.length === 2 ? t("arbiter.both-picked") : t(`arbiter.${picked[0]}-picked`);
  });
}

fill(attacker);
fill(defender);
resolve.disabled = true;

const chosen = (select) => Number(select.selectedOptions[0].dataset.rank);

resolve.addEventListener("click", () => {
  if (attacker.selectedIndex < 0 || defender.selectedIndex < 0) return;
  const [a, d] = [chosen(attacker), chosen(defender)];
  const outcome = challenge(a, d);
  const flagFell = capturesFlag(a, d);
  result.dataset.outcome = outcome;
  if (flagFell) result.dataset.flagCaptured = "true";
  else delete result.dataset.flagCaptured;
  const said = t(`outcome.${outcome}.sentence`);
  result.textContent = flagFell ? t("arbiter.flag-fell", { outcome: said }) : t("arbiter.result", { outcome: said });
  announce(result.textContent);
  for (const select of [attacker, defender]) {
    select.selectedIndex = -1;
    select.classList.remove("chosen");
  }
  resolve.disabled = true;
});

// The ranks' names follow the page's language.
document.addEventListener("salpakan-language", () => {
  for (const select of [attacker, defender]) {
    for (const option of select.options) option.textContent = rankName(option.value);
  }
});
