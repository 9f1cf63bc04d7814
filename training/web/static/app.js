// plunder's page: set up a game, play it from your seat, watch bots, open replays.
// Plain JavaScript, no build step. Everything shown comes from the server's JSON
// (docs/web.md); text is always set with textContent, never parsed as HTML.
"use strict";

const $ = (id) => document.getElementById(id);

/** The page's state: the catalogue, the game shown and how it is looked at. */
const page = {
  catalog: null,
  game: null,      // the last snapshot from the server
  viewAs: null,    // watch/replay: a seat number, or null for omniscient
  options: {},     // option name -> how to read its field
  timer: null,     // watch "play": the pending step
  busy: false,     // a request is under way
};

/** A request's answer as text; throws an Error carrying the server's message when refused. */
async function send(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try {
      message = JSON.parse(text).error || message;
    } catch (err) {
      // not JSON: the status says it
    }
    throw new Error(message);
  }
  return text;
}

/** A JSON request's answer, parsed; throws as ``send`` does. */
async function api(method, path, body) {
  const text = await send(method, path, body);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON from ${path}: ${err.message}`);
  }
}

/** A new element with a class and text. */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function showError(id, err) {
  $(id).textContent = err ? (err.message || String(err)) : "";
}

// -- setup ------------------------------------------------------------------------------

function currentGame() {
  return page.catalog.games.find((g) => g.env_id === $("game").value);
}

function mode() {
  return document.querySelector('input[name="mode"]:checked').value;
}

function fillSelect(select, values, labels, keep) {
  const old = select.value;
  select.replaceChildren();
  values.forEach((value, i) => {
    const option = el("option", "", labels ? labels[i] : value);
    option.value = value;
    select.appendChild(option);
  });
  if (keep && values.map(String).includes(old)) select.value = old;
}

/** Player counts, seats, bot rows and options of the chosen game. */
function refreshSetup() {
  const game = currentGame();
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
  fillSelect($("players"), counts, null, true);
  const note = $("rules-note");
  note.replaceChildren(game.simultaneous ? "simultaneous moves; " : "");
  if (game.rules) {
    const link = el("a", "", `the rules of ${game.title}`);
    link.href = game.rules;
    link.target = "_blank";
    note.appendChild(link);
  }
  refreshSeats();
}

/** A number field holding ``value`` (none when undefined). */
function numberInput(value, whole) {
  const input = document.createElement("input");
  input.type = "number";
  input.step = whole ? "1" : "any";
  if (value !== undefined && value !== null) input.value = value;
  return input;
}

/** One variant option's field with its label and sentence, and how to read its value
 * (undefined: leave the default). */
function optionField(option, players) {
  const box = el("div", "option");
  box.dataset.option = option.name;
  const head = el("label", "option-name");
  let read;
  let extra = null;
  if (option.type === "bool") {
    const input = document.createElement("input");
    input.type = "checkbox";
    input.id = `option-${option.name}`;
    input.checked = option.default;
    head.append(input, ` ${option.label}`);
    read = () => input.checked;
  } else if (option.widget === "seats") {
    head.append(option.label);
    extra = el("span", "option-seats");
    const ticks = [];
    for (let s = 0; s < players; s++) {
      const tick = document.createElement("input");
      tick.type = "checkbox";
      tick.id = `option-${option.name}-${s}`;
      tick.checked = option.default.includes(s);
      const seat = el("label", "option-seat");
      seat.append(tick, ` player_${s}`);
      extra.appendChild(seat);
      ticks.push(tick);
    }
    read = () => ticks.map((tick, s) => (tick.checked ? s : -1)).filter((s) => s >= 0);
  } else if (option.widget === "choice") {
    const select = document.createElement("select");
    select.id = `option-${option.name}`;
    option.choices.forEach((choice, i) => {
      const entry = el("option", "", choice.label);
      entry.value = String(i);
      select.appendChild(entry);
    });
    select.value = String(Math.max(0, option.choices.findIndex((c) => c.value === option.default)));
    head.append(`${option.label} `, select);
    read = () => option.choices[Number(select.value)].value;
  } else if (option.widget === "mix") {
    head.append(option.label);
    extra = el("span", "option-mix");
    const inputs = option.parts.map((part) => {
      const input = numberInput(option.default ? option.default[part] : undefined, true);
      input.id = `option-${option.name}-${part}`;
      input.min = "0";
      const named = el("label", "option-part");
      named.append(`${part} `, input);
      extra.appendChild(named);
      return input;
    });
    read = () => {
      if (inputs.every((input) => input.value.trim() === "")) return undefined;
      const mix = {};
      option.parts.forEach((part, i) => { mix[part] = Number(inputs[i].value || 0); });
      return mix;
    };
  } else {
    const numeric = option.type === "int" || option.type === "float";
    const input = numeric ? numberInput(option.default, option.type === "int")
      : document.createElement("input");
    input.id = `option-${option.name}`;
    if (option.type === "list") {
      input.placeholder = "numbers, e.g. 1, 2";
      input.value = option.default.join(", ");
    } else if (option.type === "str") {
      input.value = option.default;
    } else if (!numeric) {
      input.placeholder = "JSON (empty: the default)";
    }
    head.append(`${option.label} `, input);
    read = () => {
      const text = input.value.trim();
      if (numeric) return text === "" ? undefined : Number(text);
      if (option.type === "str") return input.value;
      if (option.type === "list") return text === "" ? [] : text.split(",").map((x) => Number(x.trim()));
      if (text === "") return undefined;
      try {
        return JSON.parse(text);
      } catch (err) {
        throw new Error(`${option.label}: not JSON (${err.message})`);
      }
    };
  }
  box.appendChild(head);
  if (extra) box.appendChild(extra);
  box.appendChild(el("span", "hint option-sentence", option.sentence || ""));
  return { node: box, read };
}

/** The chosen game's variant options, for ``players`` players. */
function refreshOptions(players) {
  const game = currentGame();
  const box = $("options");
  box.replaceChildren();
  page.options = {};
  $("options-box").hidden = game.options.length === 0;
  for (const option of game.options) {
    const field = optionField(option, players);
    page.options[option.name] = field.read;
    box.appendChild(field.node);
  }
}

/** The bots of the menu that this game and player count can have (a shipped network
 * for it, a planner). */
function botsFor(game, players) {
  return page.catalog.bots.filter((bot) => {
    if (bot.needs === "planner") return game.planner;
    if (bot.needs === "early" || bot.needs === "final") {
      return page.catalog.shipped.some(([env, n, strength]) =>
        env === game.env_id && n === players && strength === bot.needs);
    }
    return true;
  });
}

/** Seats, a bot row per bot seat and the options, for the chosen player count. */
function refreshSeats() {
  const n = Number($("players").value);
  const seats = [...Array(n).keys()];
  fillSelect($("seat"), seats, seats.map((s) => `player_${s}`), true);
  $("seat-label").hidden = mode() !== "play";
  $("auto-play-label").hidden = mode() !== "play";
  const you = mode() === "play" ? Number($("seat").value) : -1;
  const box = $("bots");
  const old = {};
  box.querySelectorAll(".bot").forEach((row) => {
    old[row.dataset.seat] = [row.querySelector("select").value, row.querySelector("input").value];
  });
  box.replaceChildren();
  const game = currentGame();
  const models = page.catalog.models.filter((m) => m.env_id === game.env_id && m.num_players === n);
  const list = el("datalist");
  list.id = "model-paths";
  for (const m of models) {
    const option = el("option");
    option.value = m.path;
    list.appendChild(option);
  }
  box.appendChild(list);
  const menu = botsFor(game, n);
  const specs = menu.map((bot) => bot.spec);
  for (const seat of seats) {
    if (seat === you) continue;
    const row = el("div", "bot");
    row.dataset.seat = seat;
    const kind = document.createElement("select");
    kind.id = `bot-${seat}-kind`;
    for (const bot of menu) {
      const option = el("option", "", bot.name);
      option.value = bot.spec;
      kind.appendChild(option);
    }
    kind.value = specs.includes("heuristic") ? "heuristic" : specs[0];
    const arg = document.createElement("input");
    arg.id = `bot-${seat}-arg`;
    const sentence = el("span", "hint bot-sentence");
    sentence.id = `bot-${seat}-sentence`;
    const sync = () => {
      const bot = menu.find((b) => b.spec === kind.value);
      sentence.textContent = bot.sentence;
      arg.hidden = bot.arg === "";
      arg.type = bot.arg === "samples" ? "number" : "text";
      arg.placeholder = { samples: "sampled deals a move", file: "bot file (.onnx)" }[bot.arg]
        || "argument";
      if (bot.arg === "file") arg.setAttribute("list", "model-paths");
      else arg.removeAttribute("list");
    };
    kind.addEventListener("change", sync);
    if (old[seat] && specs.includes(old[seat][0])) [kind.value, arg.value] = old[seat];
    sync();
    row.append(el("span", `seat-name seat-${seat}`, `player_${seat}`), kind, arg, sentence);
    box.appendChild(row);
  }
  $("models-note").textContent = page.catalog.models_note
    || (models.length ? `${models.length} trained bot(s) for this game and player count under ${page.catalog.models_dir}`
      : "your own bots: the .onnx files of plunder export, in the server's bot folder");
  refreshOptions(n);
}

/** The settings the form describes, as the API takes them. */
function settings() {
  const body = {
    game: $("game").value,
    mode: mode(),
    players: Number($("players").value),
    bots: [],
    options: {},
  };
  if (body.mode === "play") body.seat = Number($("seat").value);
  $("bots").querySelectorAll(".bot").forEach((row) => {
    const spec = row.querySelector("select").value;
    const input = row.querySelector("input");
    const arg = input.value.trim();
    body.bots.push(arg && !input.hidden ? `${spec}:${arg}` : spec);
  });
  for (const [name, read] of Object.entries(page.options || {})) {
    const value = read();
    if (value !== undefined) body.options[name] = value;
  }
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if ($("max-turns").value !== "") body.max_turns = Number($("max-turns").value);
  if (body.mode === "play") body.auto_play = $("auto-play").checked;
  return body;
}

async function startGame(event) {
  event.preventDefault();
  showError("setup-error", null);
  $("start").disabled = true;
  try {
    const body = settings();
    const game = await api("POST", "/api/games", body);
    page.viewAs = game.mode === "play" ? game.you : null;
    openTable(game);
  } catch (err) {
    showError("setup-error", err);
  } finally {
    $("start").disabled = false;
  }
}

async function openReplayFile() {
  const file = $("replay-file").files[0];
  if (!file) return;
  showError("setup-error", null);
  try {
    const text = await file.text();
    const game = await api("POST", "/api/replays", text);
    page.viewAs = null;
    openTable(game);
  } catch (err) {
    showSetup();
    showError("setup-error", err);
  } finally {
    $("replay-file").value = "";
  }
}

function showSetup() {
  pause();
  $("setup").hidden = false;
  $("table").hidden = true;
}

// -- the table --------------------------------------------------------------------------

function openTable(game) {
  pause();
  $("setup").hidden = true;
  $("table").hidden = false;
  const watching = game.mode !== "play";
  $("watch-controls").hidden = !watching;
  if (watching) {
    const seats = game.seat_names.map((_, s) => s);
    fillSelect($("view-as"), ["omniscient", ...seats],
      ["everything (omniscient)", ...game.seat_names], false);
    $("view-as").value = page.viewAs === null ? "omniscient" : String(page.viewAs);
  }
  show(game);
}

/** Draw a snapshot. */
function show(game) {
  const same = page.game && page.game.id === game.id;
  const since = same ? Math.min(page.game.step, game.step - 1) : game.step - 1;
  page.game = game;
  showError("error", null);
  const title = page.catalog.games.find((g) => g.env_id === game.env_id);
  $("title").textContent = `${title ? title.title : game.env_id}, ${game.num_players} players`;
  let status;
  if (game.mode === "play") {
    status = `you are ${game.seat_names[game.you]} · step ${game.step} · `;
    status += game.over ? "game over" : game.your_turn ? "your move" : "waiting";
  } else {
    status = `${game.mode === "replay" ? "replay" : "watching bots"} · step ${game.step} of ${game.steps}`;
    status += game.over ? " · game over" : "";
  }
  if (!game.over && game.acting.length) {
    status += ` · to act: ${game.acting.map((s) => seatName(game, s)).join(", ")}`;
  }
  $("status").textContent = status;
  drawMoves(game);
  drawBoard(game);
  drawText(game.text);
  drawLog(game, since);
  drawResult(game);
  $("save-replay").disabled = game.mode === "play" && !game.over;
  $("save-replay").title = $("save-replay").disabled
    ? "a replay shows every hidden fact: it can be saved once the game is over" : "";
  $("first").disabled = game.step === 0;
  $("back").disabled = game.step === 0;
  const atEnd = game.over && game.step === game.steps;
  $("step").disabled = atEnd || (game.mode === "replay" && game.step === game.steps);
  $("play").disabled = $("step").disabled || page.timer !== null;
}

function seatName(game, seat) {
  const names = game.result ? game.result.seats : game.seat_names;
  const name = names[seat] || `seat ${seat}`;
  return game.mode === "play" && seat === game.you ? `${name} (you)` : name;
}

function actionName(game, action) {
  const found = game.legal.find((m) => m.action === action);
  return found ? found.label || found.name : String(action);
}

function drawMoves(game) {
  const box = $("moves");
  box.replaceChildren();
  $("moves-box").hidden = game.mode !== "play" || game.over;
  if (game.mode !== "play" || game.over) return;
  for (const line of game.forced || []) box.appendChild(el("p", "hint forced", line.text));
  if (!game.legal.length) {
    box.appendChild(el("p", "hint", "the bots are moving…"));
    return;
  }
  for (const move of game.legal) {
    const button = el("button", "move", move.label || move.name);
    button.title = move.name;
    button.type = "button";
    button.dataset.action = move.action;
    button.addEventListener("click", () => sendMove(move.action));
    box.appendChild(button);
  }
}

/** The board: every zone of the table, its things drawn by kind, the last move of every
 * player marked, the winners' zones once the game is over. */
function drawBoard(game) {
  const box = $("board");
  box.replaceChildren();
  if (game.decision) box.appendChild(el("p", "decision", game.decision));
  if (!game.board) {
    box.appendChild(el("p", "hint", "no board for this game: the table is in the text below"));
    $("text-box").open = true;
    return;
  }
  if (game.board.headline) box.appendChild(el("p", "headline", game.board.headline));
  const winners = game.result ? game.result.winners : [];
  for (const zone of game.board.zones) box.appendChild(drawZone(game, zone, winners));
  markLast(game, box);
}

function drawZone(game, zone, winners) {
  const classes = ["zone"];
  if (zone.seat !== null && zone.seat !== undefined) classes.push(`seat-${zone.seat}`, "seat-zone");
  if (zone.layout) classes.push(`layout-${zone.layout}`);
  if (winners.includes(zone.seat) && zone.key === `seat:${zone.seat}`) classes.push("winner");
  const section = el("section", classes.join(" "));
  if (zone.key) section.dataset.key = zone.key;
  const head = el("h4", "zone-title");
  if (zone.actions.length) {
    const button = el("button", "zone-pick clickable", zone.title);
    button.type = "button";
    button.dataset.actions = zone.actions.join(",");
    nameByMoves(game, button, zone.title, zone.actions);
    button.addEventListener("click", () => pick(zone.title, zone.actions));
    head.appendChild(button);
  } else {
    head.appendChild(el("span", "zone-name", zone.title));
  }
  if (classes.includes("winner")) head.appendChild(el("span", "winner-mark", "winner"));
  if (zone.note) head.appendChild(el("small", "note", zone.note));
  section.appendChild(head);
  // the items in rows by group, in the order the groups first appear
  const groups = [];
  for (const thing of zone.items) {
    let row = groups.find((g) => g.name === thing.group);
    if (!row) groups.push(row = { name: thing.group, items: [] });
    row.items.push(thing);
  }
  const body = el("div", zone.layout === "ship" ? "hull" : "zone-body");
  for (const row of groups) {
    const line = el("div", "group");
    if (row.name) line.appendChild(el("span", "group-name", row.name));
    const items = el("div", "items");
    for (const thing of row.items) items.appendChild(drawItem(game, thing));
    line.appendChild(items);
    body.appendChild(line);
  }
  if (!zone.items.length) body.appendChild(el("span", "empty", "—"));
  section.appendChild(body);
  return section;
}

/** A clickable thing's tooltip and accessible name: what it is, then the label of each
 * move it makes (the labels the move buttons carry, from the seat's view). */
function nameByMoves(game, node, what, actions) {
  const moves = actions.map((a) => actionName(game, a)).join(" · or ");
  node.title = what ? `${what} — ${moves}` : moves;
  node.setAttribute("aria-label", moves);
}

/** One thing on the table: a coin, card, crate, hold, tile, space, cargo, ship, pile. */
function drawItem(game, thing) {
  const clickable = thing.actions.length > 0;
  const classes = ["item", `kind-${thing.kind || "thing"}`, ...thing.tags.map((t) => `tag-${t}`)];
  if (thing.seat !== null && thing.seat !== undefined) classes.push(`seat-${thing.seat}`);
  if (clickable) classes.push("clickable");
  const node = el(clickable ? "button" : "div", classes.join(" "));
  if (thing.key) node.dataset.key = thing.key;
  const tip = [thing.label, thing.detail, thing.text].filter((x) => x).join(" · ");
  node.title = tip;
  if (clickable) {
    node.type = "button";
    node.dataset.actions = thing.actions.join(",");
    nameByMoves(game, node, tip, thing.actions);
    node.addEventListener("click", () => pick(`${thing.label} ${thing.detail}`.trim(), thing.actions));
  }
  const kind = thing.kind;
  if (kind === "coin") {
    const skull = thing.tags.includes("skull");
    node.appendChild(el("span", "face", skull ? "☠" : thing.detail || "?"));
    node.appendChild(el("span", "label", thing.label));
  } else if (kind === "card" || kind === "ship" || kind === "combo") {
    node.appendChild(el("span", "label", thing.label));
    if (thing.detail) node.appendChild(el("span", "detail", thing.detail));
    node.appendChild(drawStats(thing.stats));
    if (thing.text) node.appendChild(el("span", "text", thing.text));
  } else if (thing.cells) {
    node.appendChild(el("span", "label", thing.label));
    const grids = el("div", "grids");
    grids.appendChild(drawCells(thing.cells));
    if (thing.after) {
      grids.appendChild(el("span", "arrow", "→"));
      grids.appendChild(drawCells(thing.after, "after"));
    }
    node.appendChild(grids);
    if (thing.detail) node.appendChild(el("span", "detail", thing.detail));
  } else {
    node.appendChild(el("span", "label", thing.label));
    if (thing.detail) node.appendChild(el("span", "detail", thing.detail));
    if (thing.stats.length) node.appendChild(drawStats(thing.stats));
  }
  return node;
}

/** A card's numbers as small badges: ``level 7``, ``points 20``. */
function drawStats(stats) {
  const box = el("span", "stats");
  for (const [name, value] of stats) {
    const badge = el("span", "stat");
    badge.appendChild(el("b", "", value));
    badge.appendChild(document.createTextNode(` ${name}`));
    box.appendChild(badge);
  }
  return box;
}

/** A 3x3 grid of cell tokens (G2 gold 2, C1 cannons, X3 contraband, R rat, . empty). */
function drawCells(rows, extra) {
  const grid = el("div", `cells${extra ? ` ${extra}` : ""}`);
  for (const row of rows) {
    for (const token of row) {
      const empty = token === ".";
      const cell = el("span", `cell cell-${empty ? "empty" : token[0]}`, empty ? "" : token);
      cell.title = empty ? "empty" : ({ G: "gold", C: "cannons", X: "contraband", R: "rat" }[token[0]]
        + (token.length > 1 ? ` ${token.slice(1)}` : ""));
      grid.appendChild(cell);
    }
  }
  return grid;
}

/** The lines of a step that are about ``seat`` (all of them when none names it). */
function linesOf(game, seat, lines) {
  const name = game.seat_names[seat];
  const own = lines.filter((line) => line.startsWith(name));
  return own.length ? own : lines.filter((line) => line.includes(name)).slice(0, 2);
}

/** Every player's last move: the things it touched ringed in the player's colour, and a
 * line under the player's zone saying what it was. */
function markLast(game, box) {
  for (const last of game.last || []) {
    const name = seatName(game, last.seat);
    for (const key of last.keys) {
      box.querySelectorAll(`[data-key="${CSS.escape(key)}"]`).forEach((node) => {
        node.classList.add("last", `last-${last.seat}`);
        node.dataset.last = `last: ${name}`;
      });
    }
    const zone = box.querySelector(`section[data-key="seat:${last.seat}"]`);
    const lines = linesOf(game, last.seat, last.lines);
    if (zone && lines.length) {
      const line = el("p", `last-move last-${last.seat}`, `last move (step ${last.step}): ${lines.join("; ")}`);
      zone.insertBefore(line, zone.children[1] || null);
    }
  }
}

/** A click on a thing: its one move, or a choice among its moves. */
function pick(what, actions) {
  if (actions.length === 1) {
    sendMove(actions[0]);
    return;
  }
  $("chooser-title").textContent = what;
  const box = $("chooser-moves");
  box.replaceChildren();
  for (const action of actions) {
    const button = el("button", "move", actionName(page.game, action));
    button.type = "button";
    button.addEventListener("click", () => { $("chooser").hidden = true; sendMove(action); });
    box.appendChild(button);
  }
  $("chooser").hidden = false;
}

/** The game's text rendering: Markdown-style tables as tables, other lines as text. */
function drawText(text) {
  const box = $("text");
  box.replaceChildren();
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length) {
    if (lines[i].startsWith("|")) {
      const table = el("table", "text-table");
      let first = true;
      while (i < lines.length && lines[i].startsWith("|")) {
        const cells = lines[i].trim().replace(/^\||\|$/g, "").split("|").map((c) => c.trim());
        if (!cells.every((c) => /^[-: ]*$/.test(c))) {
          const tr = el("tr");
          for (const cell of cells) tr.appendChild(el(first ? "th" : "td", "", cell));
          table.appendChild(tr);
          first = false;
        }
        i++;
      }
      box.appendChild(table);
    } else {
      const block = [];
      while (i < lines.length && !lines[i].startsWith("|")) block.push(lines[i++]);
      box.appendChild(el("pre", "", block.join("\n")));
    }
  }
}

/** The move log; the lines new since the table was last drawn are highlighted. */
function drawLog(game, since) {
  const box = $("log");
  box.replaceChildren();
  for (const entry of game.log) {
    const line = el("li", entry.step > since ? "recent" : "", entry.text);
    line.dataset.step = entry.step;
    box.appendChild(line);
  }
  if (game.log_total > game.log.length) {
    box.insertBefore(el("li", "hint", `${game.log_total - game.log.length} earlier lines`), box.firstChild);
  }
  box.scrollTop = box.scrollHeight;
}

/** The end: who won and what decided it, then the breakdown of the scores. */
function drawResult(game) {
  const box = $("result");
  box.replaceChildren();
  box.hidden = !game.result;
  if (!game.result) return;
  const r = game.result;
  box.appendChild(el("h3", "", r.truncated ? "Turn limit reached" : "Game over"));
  const names = r.winners.map((s) => seatName(game, s)).join(", ");
  box.appendChild(el("p", "winners", `${r.winners.length > 1 ? "Winners" : "Winner"}: ${names}`));
  if (r.decided) box.appendChild(el("p", "decided", r.decided));
  const table = el("table", "breakdown");
  const head = el("tr");
  head.appendChild(el("th", "", ""));
  r.seats.forEach((_, s) => head.appendChild(el("th", `seat-${s}${r.winners.includes(s) ? " winner" : ""}`, seatName(game, s))));
  table.appendChild(head);
  const row = (label, values, cls) => {
    const tr = el("tr", cls || "");
    tr.appendChild(el("th", "", label));
    values.forEach((v, s) => tr.appendChild(el("td", r.winners.includes(s) ? "winner" : "",
      Number.isInteger(v) ? v : v.toFixed(2))));
    table.appendChild(tr);
  };
  for (const part of r.rows) row(part.label, part.values);
  row("total", r.total, "total");
  for (const part of r.tie_breaks) row(part.label, part.values, "tie-break");
  box.appendChild(table);
}

// -- actions ----------------------------------------------------------------------------

async function sendMove(action) {
  if (page.busy || !page.game) return;
  page.busy = true;
  const status = $("status").textContent;
  $("status").textContent = `${status} · sending your move…`;
  try {
    const game = await api("POST", `/api/games/${page.game.id}/move`,
      { action, version: page.game.version });
    show(game);
  } catch (err) {
    $("status").textContent = status;
    showError("error", err);
  } finally {
    page.busy = false;
  }
}

function seatQuery() {
  return page.viewAs === null ? "omniscient" : String(page.viewAs);
}

async function seek(to) {
  if (page.busy || !page.game) return false;
  page.busy = true;
  try {
    const game = await api("POST", `/api/games/${page.game.id}/seek?seat=${seatQuery()}`,
      { to, version: page.game.version });
    show(game);
    return true;
  } catch (err) {
    showError("error", err);
    pause();
    return false;
  } finally {
    page.busy = false;
  }
}

async function changeView() {
  const value = $("view-as").value;
  page.viewAs = value === "omniscient" ? null : Number(value);
  try {
    show(await api("GET", `/api/games/${page.game.id}?seat=${seatQuery()}`));
  } catch (err) {
    showError("error", err);
  }
}

function play() {
  if (page.timer !== null) return;
  $("play").disabled = true;
  $("pause").disabled = false;
  const tick = async () => {
    const game = page.game;
    const finished = game.mode === "replay" ? game.step >= game.steps : game.over && game.step >= game.steps;
    if (finished || !(await seek(game.step + 1))) {
      pause();
      return;
    }
    if (page.timer !== null) page.timer = setTimeout(tick, Number($("speed").value));
  };
  page.timer = setTimeout(tick, 0);
}

function pause() {
  if (page.timer !== null) clearTimeout(page.timer);
  page.timer = null;
  $("pause").disabled = true;
  if (page.game) $("play").disabled = $("step").disabled;
}

async function saveReplay() {
  try {
    // saved as the server sent it: the states' generators hold integers too large for
    // JavaScript's numbers, which parsing would round (and the file would be refused)
    const text = await send("GET", `/api/games/${page.game.id}/replay`);
    const blob = new Blob([text], { type: "application/json" });
    const link = el("a");
    link.href = URL.createObjectURL(blob);
    link.download = `${page.game.env_id}-${page.game.id.slice(0, 8)}.replay.json`;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (err) {
    showError("error", err);
  }
}

async function closeGame() {
  pause();
  if (page.game) {
    try {
      await api("DELETE", `/api/games/${page.game.id}`);
    } catch (err) {
      // already gone (cleaned up): nothing to close
    }
  }
  page.game = null;
  showSetup();
}

async function init() {
  try {
    page.catalog = await api("GET", "/api/catalog");
  } catch (err) {
    showError("setup-error", err);
    return;
  }
  fillSelect($("game"), page.catalog.games.map((g) => g.env_id),
    page.catalog.games.map((g) => g.title), false);
  refreshSetup();
  $("game").addEventListener("change", refreshSetup);
  $("players").addEventListener("change", refreshSeats);
  $("seat").addEventListener("change", refreshSeats);
  document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", refreshSeats));
  $("setup-form").addEventListener("submit", startGame);
  $("nav-new").addEventListener("click", showSetup);
  $("replay-file").addEventListener("change", openReplayFile);
  $("view-as").addEventListener("change", changeView);
  $("first").addEventListener("click", () => seek(0));
  $("back").addEventListener("click", () => seek(page.game.step - 1));
  $("step").addEventListener("click", () => seek(page.game.step + 1));
  $("play").addEventListener("click", play);
  $("pause").addEventListener("click", pause);
  $("save-replay").addEventListener("click", saveReplay);
  $("close-game").addEventListener("click", closeGame);
  $("chooser-cancel").addEventListener("click", () => { $("chooser").hidden = true; });
  document.body.dataset.ready = "1";
}

init();
