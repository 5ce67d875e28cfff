// The strategy advisor page (tutto-sim advisor). An ES module: every answer
// comes from the JavaScript policy reader, which checks each table before it
// is used; this file only reads the form, asks the reader and words the answer
// as the cheat sheets do. This entry chooses the game and the table and asks
// on submit; page.mjs holds the shared helpers, and each game's form has a module.

import { PolicyError } from "../reader/policy.mjs";
import { mackeForm } from "./macke.mjs";
import { $, el, fillSelect, manifest, policyOf, setAdvice, setStatus, showError, tableById, tablesOf } from "./page.mjs";
import { rutsmieterForm } from "./rutsmieter.mjs";
import { tuttoForm } from "./tutto.mjs";

let answered = 0; // answers given (body data-answered): lets a test wait for the next one

/** Each form (Volle Lotte uses Macke's): its setup for a table, its event listeners, its advice. */
const FORMS = { tutto: tuttoForm, macke: mackeForm, rutsmieter: rutsmieterForm };

function currentGame() {
  return $("game").value;
}
function currentTable() {
  return tableById($("table").value);
}

function tableLabel(t) {
  return `${t.rules_words} (${t.id})`;
}

async function chooseGame() {
  const game = currentGame();
  fillSelect($("table"), tablesOf(game).map((t) => [t.id, tableLabel(t)]));
  for (const form of document.querySelectorAll("form.situation")) form.hidden = true;
  await chooseTable();
}

async function chooseTable() {
  const t = currentTable();
  setAdvice([]);
  showError("");
  delete document.body.dataset.table;
  for (const form of document.querySelectorAll("form.situation")) form.hidden = true;
  if (!t) {
    setStatus("No table for this game in this page.");
    return;
  }
  $("rules-lines").replaceChildren(...t.rules_lines.map((line) => el("li", { textContent: line })));
  setStatus(`Checking the table ${t.file}…`);
  let p;
  try {
    p = await policyOf(t);
  } catch (e) {
    if (t !== currentTable()) return;
    setStatus("");
    showError(`This table is refused: ${e.message}`);
    document.body.dataset.table = `refused:${t.id}`;
    return;
  }
  if (t !== currentTable()) return; // the choice changed while loading
  $("rules-fingerprint").textContent = `Rules fingerprint ${p.rulesSha256.slice(0, 12)}; file ${t.file}, content checked (${p.contentSha256.slice(0, 12)}).`;
  setStatus(`${t.game_name}: ${t.rules_words}. Table checked; enter the situation.`);
  const form = t.game === "volle-lotte" ? "macke" : t.game;
  FORMS[form].setup(p, t);
  $(`${form}-form`).hidden = false;
  document.body.dataset.table = t.id;
}

async function onSubmit(event) {
  event.preventDefault();
  const t = currentTable();
  const form = event.currentTarget.dataset.game;
  showError("");
  try {
    const p = await policyOf(t);
    const [nodes, data] = await FORMS[form].advise(p);
    setAdvice(nodes, data);
    $("advice").scrollIntoView({ block: "nearest" }); // on a phone the advice is below the form
  } catch (e) {
    setAdvice([]);
    showError(e instanceof PolicyError ? `This table is refused: ${e.message}` : `Please check: ${e.message || e}`);
  }
  document.body.dataset.answered = String(++answered);
}

function start() {
  const games = Object.entries(manifest.games).filter(([g]) => tablesOf(g).length);
  if (!games.length) {
    showError("This page holds no tables: build it again with tutto-sim advisor --out DIR.");
    setStatus("");
    return;
  }
  fillSelect($("game"), games);
  $("game").addEventListener("change", chooseGame);
  $("table").addEventListener("change", chooseTable);
  for (const f of Object.values(FORMS)) f.listen();
  for (const form of document.querySelectorAll("form.situation")) form.addEventListener("submit", onSubmit);
  $("choose").addEventListener("submit", (e) => e.preventDefault());
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && games.some(([g]) => g === wanted)) $("game").value = wanted;
  return chooseGame();
}

start();
