// The arbiter for a physical board: two people play with real pieces; in a challenge the
// attacker picks their piece's rank here (the choice is not shown), hands the phone over, the
// defender picks theirs, and the page says only what the arbiter says. The outcome comes from
// the engine's one challenge table (`challenge`), never a copy.
import { challenge } from "./pkg/salpakan.js";
import { RANK_CODES, RANK_NAMES, announce } from "./board.js";

const attacker = document.getElementById("arbiter-attacker");
const defender = document.getElementById("arbiter-defender");
const resolve = document.getElementById("arbiter-resolve");
const result = document.getElementById("arbiter-result");

// Highest rank first, as players name them.
const ORDER = ["5G", "4G", "3G", "2G", "1G", "CO", "LC", "MJ", "CP", "1L", "2L", "SG", "PV", "SP", "FL"];

function fill(select) {
  for (const code of ORDER) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = RANK_NAMES[RANK_CODES.indexOf(code)];
    select.appendChild(option);
  }
  select.selectedIndex = -1;
  select.addEventListener("change", () => {
    // Chosen, and hidden: the select shows no rank once it is closed.
    select.classList.toggle("chosen", select.selectedIndex >= 0);
    resolve.disabled = attacker.selectedIndex < 0 || defender.selectedIndex < 0;
  });
}

fill(attacker);
fill(defender);
resolve.disabled = true;

resolve.addEventListener("click", () => {
  if (attacker.selectedIndex < 0 || defender.selectedIndex < 0) return;
  const a = RANK_CODES.indexOf(attacker.value);
  const d = RANK_CODES.indexOf(defender.value);
  const outcome = challenge(a, d);
  // A Flag falls when the attacker takes it, or when an attacking Flag loses.
  const flag = (outcome === "win" && d === 0) || (outcome === "lose" && a === 0);
  const words = { win: "The attacker wins.", lose: "The defender wins.", tie: "Both pieces are removed." };
  result.dataset.outcome = outcome;
  if (flag) result.dataset.flagCaptured = "true";
  else delete result.dataset.flagCaptured;
  result.textContent = words[outcome] + (flag ? " A Flag was captured: the game is over." : "");
  announce(result.textContent);
  for (const select of [attacker, defender]) {
    select.selectedIndex = -1;
    select.classList.remove("chosen");
  }
  resolve.disabled = true;
});
