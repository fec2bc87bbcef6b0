// kinrow's browser board: sets up games through the JSON API (docs/serve.md), draws the
// board from the game's state, and follows the game's event stream for the engine's moves
// and thinking. No framework and nothing fetched from elsewhere.
"use strict";

const $ = (selector) => document.querySelector(selector);
const board = $("[data-role=board]");
const form = $("[data-role=setup]");
const FIELDS = ["columns", "rows", "k", "rule", "x", "o", "movetime", "depth"];
const NUMBERS = ["columns", "rows", "k", "movetime", "depth"];

let game = null; // the state last drawn
let events = null; // the EventSource of the current game
let seed = null; // from the address, for repeatable games
const SCORE_KEY = "kinrow-score";
let score = loadScore();

function loadScore() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SCORE_KEY) || "null");
    if (saved && Array.isArray(saved.counted)) return saved;
  } catch (_) {
    // A damaged entry is replaced below.
  }
  return { x: 0, o: 0, draw: 0, counted: [] };
}

function showError(message) {
  const box = $("[data-role=error]");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (e) {
    throw new Error("the server cannot be reached (is kinrow serve still running?)");
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (!response.ok) throw new Error(data && data.error ? data.error : `error ${response.status}`);
  return data;
}

// The set-up in the form, as the API takes it. A number field that does not hold a whole
// number is sent as written, so that the server names the mistake.
function setupFromForm() {
  const body = {};
  for (const name of FIELDS) {
    const value = form.elements[name].value.trim();
    if (value === "") continue;
    body[name] = NUMBERS.includes(name) && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  if (body.depth !== undefined) delete body.movetime;
  if (seed !== null) body.seed = seed;
  return body;
}

async function newGame() {
  showError("");
  let state;
  try {
    state = await api("POST", "/api/games", setupFromForm());
  } catch (e) {
    showError(e.message);
    return;
  }
  const old = game;
  if (events) events.close();
  events = null;
  game = null;
  draw(state);
  follow(state.id);
  if (old) api("DELETE", `/api/games/${old.id}`).catch(() => {});
}

function follow(id) {
  const source = new EventSource(`/api/games/${id}/events`);
  source.addEventListener("state", (e) => draw(JSON.parse(e.data)));
  source.addEventListener("gone", () => source.close());
  source.addEventListener("info", (e) => {
    if (game && game.id === id) analysis(JSON.parse(e.data));
  });
  events = source;
}

function buildBoard(state) {
  board.replaceChildren();
  board.style.setProperty("--columns", state.columns);
  const files = "abcdefghijklmnopqrst";
  for (let rank = state.rows; rank >= 1; rank--) {
    board.append(label(String(rank)));
    for (let file = 0; file < state.columns; file++) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.dataset.square = files[file] + rank;
      cell.dataset.stone = "";
      cell.tabIndex = -1;
      cell.setAttribute("role", "gridcell");
      board.append(cell);
    }
  }
  board.append(label(""));
  for (let file = 0; file < state.columns; file++) board.append(label(files[file]));
  const first = board.querySelector(".cell");
  if (first) first.tabIndex = 0;
}

function label(text) {
  const span = document.createElement("span");
  span.className = "label";
  span.textContent = text;
  span.setAttribute("aria-hidden", "true");
  return span;
}

function humanToMove(state) {
  return state.to_move !== null && state[state.to_move] === "human";
}

function draw(state) {
  if (game && (state.id !== game.id || state.version <= game.version)) return;
  const fresh = !game || game.columns !== state.columns || game.rows !== state.rows;
  if (fresh) buildBoard(state);
  game = state;
  const stones = new Map();
  state.moves.forEach((square, i) => stones.set(square, i % 2 === 0 ? "x" : "o"));
  const line = new Set(state.winning_line);
  const playable = humanToMove(state) && state.thinking !== "move";
  for (const cell of board.querySelectorAll(".cell")) {
    const square = cell.dataset.square;
    const stone = stones.get(square) || "";
    cell.dataset.stone = stone;
    cell.dataset.last = String(state.last_move === square);
    cell.dataset.win = String(line.has(square));
    cell.dataset.hint = String(state.hint === square);
    cell.setAttribute("aria-disabled", String(!playable || stone !== ""));
    cell.setAttribute("aria-label", `${square} ${stone || "empty"}`);
  }
  $("[data-role=status]").textContent = state.error ? `${state.status} (${state.error})` : state.status;
  const thinking = $("[data-role=thinking]");
  thinking.hidden = !state.thinking;
  thinking.textContent = state.thinking === "hint" ? "looking for a hint" : "engine thinking";
  $("[data-action=undo]").disabled = state.moves.length === 0;
  $("[data-action=hint]").disabled = !humanToMove(state) || state.thinking !== null;
  const sgf = $("[data-action=sgf]");
  sgf.href = `/api/games/${state.id}/sgf`;
  analysis(state.analysis);
  count(state);
}

function analysis(info) {
  const set = (field, text) => {
    $(`[data-role=analysis] [data-field=${field}]`).textContent = text;
  };
  if (!info) {
    for (const field of ["depth", "score", "nodes", "nps", "time", "pv"]) set(field, "-");
    return;
  }
  set("depth", `${info.depth} (selective ${info.seldepth})`);
  set("score", info.score);
  set("nodes", info.nodes.toLocaleString("en"));
  set("nps", info.nps.toLocaleString("en"));
  set("time", `${info.time_ms} ms`);
  set("pv", info.pv.join(" ") || "-");
}

function count(state) {
  if (state.result && !score.counted.includes(state.id)) {
    score[state.result] += 1;
    score.counted.push(state.id);
    score.counted = score.counted.slice(-200);
    try {
      sessionStorage.setItem(SCORE_KEY, JSON.stringify(score));
    } catch (_) {
      // Storage may be off; the score then lasts as long as the page.
    }
  }
  $("[data-role=score]").textContent = `score: x ${score.x}, o ${score.o}, draws ${score.draw}`;
}

async function act(path, body) {
  if (!game) return;
  try {
    draw(await api("POST", `/api/games/${game.id}/${path}`, body));
    showError("");
  } catch (e) {
    showError(e.message);
  }
}

function play(cell) {
  if (!game || cell.getAttribute("aria-disabled") === "true") return;
  act("move", { square: cell.dataset.square });
}

board.addEventListener("click", (e) => {
  const cell = e.target.closest(".cell");
  if (cell) play(cell);
});

// Arrow keys move the focus between squares (one square is in the tab order at a time).
board.addEventListener("keydown", (e) => {
  const cell = e.target.closest(".cell");
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  if (!cell || !game || !steps[e.key]) return;
  e.preventDefault();
  const [df, dr] = steps[e.key];
  const file = cell.dataset.square.charCodeAt(0) - 97 + df;
  const rank = Number(cell.dataset.square.slice(1)) + dr;
  if (file < 0 || file >= game.columns || rank < 1 || rank > game.rows) return;
  const next = board.querySelector(`[data-square=${String.fromCharCode(97 + file)}${rank}]`);
  cell.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
});

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, select, textarea")) return;
  const action = { n: "new", u: "undo", h: "hint" }[e.key];
  if (action) $(`[data-action=${action}]`).click();
});

$("[data-action=new]").addEventListener("click", newGame);
$("[data-action=undo]").addEventListener("click", () => act("undo"));
$("[data-action=hint]").addEventListener("click", () => act("hint"));
form.addEventListener("submit", (e) => {
  e.preventDefault();
  newGame();
});
for (const preset of document.querySelectorAll("[data-preset]")) {
  preset.addEventListener("click", () => {
    const [columns, rows, k] = preset.dataset.preset.split(",");
    form.elements.columns.value = columns;
    form.elements.rows.value = rows;
    form.elements.k.value = k;
    newGame();
  });
}

// The address sets up the first game: /?columns=15&rows=15&k=5&x=human&o=engine.
const params = new URLSearchParams(location.search);
for (const name of FIELDS) {
  const value = params.get(name);
  if (value === null) continue;
  const field = form.elements[name];
  if (field.tagName === "SELECT" && ![...field.options].some((o) => o.value === value)) {
    field.append(new Option(value, value));
  }
  field.value = value;
}
if (params.get("seed") !== null) seed = /^\d+$/.test(params.get("seed")) ? Number(params.get("seed")) : params.get("seed");
count({ result: null });
newGame();
