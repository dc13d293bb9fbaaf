// bingwa serve: the new-game form (variant, options, each side's player),
// built from the server's hello and filled from the game being played.
// Loaded before app.js, whose globals ($, hello, state, KEYS) it uses once
// the page runs; room.js uses variantSpec() and buildForm() too.
"use strict";

const THINK = [
  ["movetime:200", "0.2 s a move"], ["movetime:1000", "1 s a move"],
  ["movetime:3000", "3 s a move"], ["movetime:10000", "10 s a move"],
  ["depth:1", "depth 1"], ["depth:2", "depth 2"], ["depth:4", "depth 4"],
  ["depth:8", "depth 8"], ["nodes:2000", "2000 nodes"],
];
const SKILLS = [["", "strongest"], ["15", "level 15"], ["10", "level 10"],
  ["5", "level 5"], ["0", "level 0"]];

function option(select, value, text) {
  const el = document.createElement("option");
  el.value = value;
  el.textContent = text;
  select.appendChild(el);
}

function buildForm() {
  const variant = $("variant");
  variant.innerHTML = "";
  for (const v of hello.variants) option(variant, v.name, v.title);
  variant.onchange = buildOptions;
  for (const key of KEYS) {
    const kind = $(`${key}-kind`);
    kind.innerHTML = "";
    option(kind, "human", "Human");
    for (const name of hello.engines) option(kind, `engine:${name}`, `Engine: ${name}`);
    kind.onchange = () => showStrength(key);
    const skill = $(`${key}-skill`);
    skill.innerHTML = "";
    for (const [v, t] of SKILLS) option(skill, v, t);
    const think = $(`${key}-think`);
    think.innerHTML = "";
    for (const [v, t] of THINK) option(think, v, t);
    think.value = "movetime:1000";
  }
  $("north-kind").value = `engine:${hello.engines[0]}`;
  showStrength("south");
  showStrength("north");
  buildOptions();
}

function buildOptions() {
  const box = $("options");
  box.innerHTML = "";
  const v = hello.variants.find((x) => x.name === $("variant").value);
  for (const o of v.options) {
    const label = document.createElement("label");
    label.title = o.help;
    label.append(o.name.replace("-", " ") + " ");
    let input;
    if (o.kind === "choice") {
      input = document.createElement("select");
      for (const c of o.choices) option(input, c, c);
    } else if (o.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
    } else {
      input = document.createElement("input");
      input.type = "number";
      input.min = o.low;
      input.max = o.high;
    }
    input.dataset.option = o.name;
    input.dataset.kind = o.kind;
    if (o.kind === "bool") input.checked = !!o.default; else input.value = o.default;
    input.id = `opt-${o.name}`;
    label.appendChild(input);
    box.appendChild(label);
  }
}

function showStrength(key) {
  const isEngine = $(`${key}-kind`).value !== "human";
  $(`${key}-set`).querySelector(".strength").hidden = !isEngine;
}

function variantSpec() {
  const words = [$("variant").value];
  for (const input of $("options").querySelectorAll("[data-option]")) {
    const value = input.dataset.kind === "bool" ? String(input.checked) : input.value;
    words.push(`${input.dataset.option}=${value}`);
  }
  return words.join(" ");
}

function playerOf(key) {
  const kind = $(`${key}-kind`).value;
  if (kind === "human") return { kind: "human" };
  const [think, amount] = $(`${key}-think`).value.split(":");
  const skill = $(`${key}-skill`).value;
  return { kind: "engine", engine: kind.slice(7), think, amount: Number(amount),
    skill: skill === "" ? null : Number(skill) };
}

function fillForm() {
  // the form shows the game being played (after a reload too)
  const name = state.variant_name;
  if ($("variant").value !== name) { $("variant").value = name; buildOptions(); }
  for (const word of state.variant.split(" ").slice(1)) {
    const [opt, value] = word.split("=");
    const input = $(`opt-${opt}`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = value === "true"; else input.value = value;
  }
  for (const key of KEYS) {
    const p = state.players[key];
    $(`${key}-kind`).value = p.kind === "human" ? "human" : `engine:${p.engine || hello.engines[0]}`;
    if (p.kind === "engine") {
      const think = `${p.think}:${p.amount}`;
      if (![...$(`${key}-think`).options].some((o) => o.value === think)) {
        option($(`${key}-think`), think, `${p.think} ${p.amount}`);
      }
      $(`${key}-think`).value = think;
      $(`${key}-skill`).value = p.skill === null ? "" : String(p.skill);
    }
    showStrength(key);
  }
}

let formFilledFor = null;
function fillFormOnce() {
  const key = `${state.game}/${state.variant}/${JSON.stringify(state.players)}`;
  if (formFilledFor !== key) { formFilledFor = key; fillForm(); }
}
