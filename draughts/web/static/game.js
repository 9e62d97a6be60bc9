// The game on the page: settings (from the address and the form), moves by
// click or drag, the engine, the clock, the move list and the endings. The
// rules live on the server: every change asks POST /api/position with the
// whole game, so the page never decides what is legal.

import { Analysis } from "./analysis.js";
import { BoardView } from "./board.js";
import { Editor } from "./editor.js";
import { Explorer } from "./explorer.js";
import { listenForKeys, parseTypedMove } from "./keyboard.js";
import { Study } from "./study.js";

const SCHEMES = {
  "black-white": { white: "White", black: "Black" },
  "red-white": { white: "White", black: "Red" },
};
// The dama rule pages speak of red and white pieces; English books of black
// and white (modern ones of red and white: the switch is on the page).
const DEFAULT_SCHEME = { dama: "red-white", "dama-flying": "red-white" };

const DRAW_WORDS = {
  repetition: "threefold repetition",
  "insufficient-material": "insufficient material: neither side can win",
  "twenty-five-move-rule": "the 25-move rule (only kings moved, nothing captured)",
  "sixteen-move-rule": "the 16-move rule (three pieces against a lone king)",
  "five-move-rule": "the 5-move rule (two pieces against a lone king)",
  "forty-move-rule": "the 40-move rule (no man moved, nothing captured)",
  "king-moves-rule": "the king-moves rule (only kings moved, nothing captured)",
  "ply-limit": "the move limit (no winner after 300 plies)",
  "fifteen-move-rule": "the 15-move rule (only kings moved, nothing captured)",
  "three-kings-rule": "the three-kings rule",
  "kings-endgame-rule": "the kings' endgame rule",
  "long-diagonal-rule": "the long-diagonal rule",
  "seven-move-rule": "the 7-move rule (two kings against a lone king)",
  agreement: "agreement",
};

const ENGINE_BUSY = "The engine is busy with other games: it will move in a moment.";
const ENGINE_RETRY_MS = 1000; // the server's Retry-After

const $ = (selector) => document.querySelector(selector);

async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try { message = (await response.json()).error; } catch { /* not JSON */ }
    throw Object.assign(new Error(message), { status: response.status });
  }
  return path === "api/pdn" || path.startsWith("api/games/") ? response.text() : response.json();
}

class Game {
  constructor(variants) {
    this.variants = new Map(variants.map((v) => [v.name, v]));
    this.view = new BoardView($("#board"), {
      onPress: (square) => this.press(square),
      onClick: (square) => this.click(square),
      onDrop: (from, to) => this.drop(from, to),
    });
    this.view.listen();
    this.cursor = null; // the keyboard's [row, col] while the board has the focus
    listenForKeys(this.view, this);
    this.generation = 0; // bumped by every change, so late engine replies are dropped
    this.analysis = new Analysis(this);
    this.study = new Study(this);
    this.editor = new Editor(this);
    this.explorer = new Explorer(this, (id) => this.openStored(id));
    this.fillVariantList(variants);
    this.readAddress();
    this.bindControls();
    this.newGame().then(() => this.replayAddressMoves());
    setInterval(() => this.tick(), 100);
  }

  // The moves of a shared link, played once the game is set up.
  async replayAddressMoves() {
    const moves = this.addressMoves;
    this.addressMoves = [];
    if (moves.length) await this.advance(moves, null);
  }

  fillVariantList(variants) {
    const select = $("#variant");
    for (const v of variants) select.add(new Option(v.menu, v.name));
  }

  readAddress() {
    const query = new URLSearchParams(location.search);
    const variant = this.variants.has(query.get("variant")) ? query.get("variant") : "english";
    $("#variant").value = variant;
    const first = this.variants.get(variant).first_color;
    const second = first === "white" ? "black" : "white";
    const engine = query.get("engine");
    $("#engine").value = ["white", "black", "none"].includes(engine) ? engine : second;
    const level = query.get("level");
    $("#level").value = ["easy", "medium", "hard"].includes(level) ? level : "medium";
    const scheme = query.get("scheme");
    $("#scheme").value = scheme in SCHEMES ? scheme : DEFAULT_SCHEME[variant] ?? "black-white";
    $("#fen").value = query.get("fen") ?? "";
    $("#minutes").value = Number(query.get("minutes")) > 0 ? query.get("minutes") : "0";
    $("#increment").value = Number(query.get("increment")) > 0 ? query.get("increment") : "0";
    $("#coordinates").checked = query.get("coordinates") !== "0";
    this.flipped = query.get("flip") === "1";
    $("#analysis-on").checked = query.get("analysis") === "1";
    this.addressMoves = (query.get("moves") ?? "").split(/\s+/).filter(Boolean);
  }

  writeAddress() {
    const query = new URLSearchParams();
    query.set("variant", $("#variant").value);
    query.set("engine", $("#engine").value);
    query.set("level", $("#level").value);
    query.set("scheme", $("#scheme").value);
    if (this.startFen) query.set("fen", this.startFen);
    if (Number($("#minutes").value) > 0) query.set("minutes", $("#minutes").value);
    if (Number($("#increment").value) > 0) query.set("increment", $("#increment").value);
    if (this.flipped) query.set("flip", "1");
    if (!$("#coordinates").checked) query.set("coordinates", "0");
    if ($("#analysis-on").checked) query.set("analysis", "1");
    history.replaceState(null, "", `?${query}`);
    return query;
  }

  // A link to this position: the address with the moves played.
  share() {
    const query = this.writeAddress();
    if (this.moves.length) query.set("moves", this.moves.join(" "));
    const link = `${location.origin}${location.pathname}?${query}`;
    $("#share-link").value = link;
    $("#share-link").hidden = false;
    $("#share-link").select();
    navigator.clipboard?.writeText(link).catch(() => { /* http: the field is selected */ });
  }

  bindControls() {
    // A new game starts from the variant's start; "Set position" from the FEN.
    $("#new-game").addEventListener("click", () => { $("#fen").value = ""; this.newGame(); });
    $("#variant").addEventListener("change", () => {
      $("#fen").value = "";
      $("#scheme").value = DEFAULT_SCHEME[$("#variant").value] ?? "black-white";
      this.newGame();
    });
    $("#set-fen").addEventListener("click", () => this.newGame());
    $("#undo").addEventListener("click", () => this.undo());
    $("#flip").addEventListener("click", () => {
      this.flipped = !this.flipped;
      this.writeAddress();
      this.draw();
    });
    for (const id of ["#minutes", "#increment"]) $(id).addEventListener("change", () => this.setClock());
    $("#move-form").addEventListener("submit", (event) => { event.preventDefault(); this.typed(); });
    $("#resign").addEventListener("click", () => this.resign());
    $("#claim").addEventListener("click", () => this.finish({ by: "claim" }));
    $("#download").addEventListener("click", () => this.download());
    $("#share").addEventListener("click", () => this.share());
    $("#analysis-on").addEventListener("change", () => this.writeAddress());
    for (const id of ["#show-movable", "#coordinates", "#scheme"]) {
      $(id).addEventListener("change", () => { this.writeAddress(); this.draw(); });
    }
    for (const id of ["#engine", "#level"]) {
      $(id).addEventListener("change", () => { this.writeAddress(); this.draw(); this.maybeEngine(); });
    }
  }

  labels() {
    return SCHEMES[$("#scheme").value];
  }

  humanSides() {
    const engine = $("#engine").value;
    return ["white", "black"].filter((side) => side !== engine);
  }

  // A new game from the form's variant and FEN; false if the server
  // refuses the FEN (the message says why).
  async newGame() {
    const variant = this.variants.get($("#variant").value);
    const fen = $("#fen").value.trim() || null;
    let answer;
    try {
      answer = await api("api/position", { variant: variant.name, fen, moves: [] });
    } catch (error) {
      this.say(`Cannot start from that position: ${error.message}`);
      return false;
    }
    if (!this.study.entering) this.study.close();
    this.generation++;
    this.variant = variant;
    this.view.setVariant(variant);
    this.startFen = fen;
    this.moves = [];
    this.end = null;
    this.endNote = "";
    this.selection = null;
    this.cursor = null;
    this.startClock();
    const humans = this.humanSides();
    this.baseOrientation = humans.length === 1 ? humans[0] : "white";
    this.writeAddress();
    this.describeVariant();
    this.show(answer);
    this.say("");
    return true;
  }

  // A study's game: its variant and start, two players on this screen.
  async setUp(variant, fen) {
    if (!this.variants.has(variant)) {
      this.say(`The page does not know the variant ${variant}.`);
      return false;
    }
    $("#variant").value = variant;
    $("#scheme").value = DEFAULT_SCHEME[variant] ?? "black-white";
    $("#fen").value = fen ?? "";
    $("#engine").value = "none";
    return this.newGame();
  }

  // A game of the server's database, opened in the study view.
  async openStored(id) {
    let text;
    try {
      text = await api(`api/games/${id}`);
    } catch (error) {
      this.say(`The game cannot be opened: ${error.message}`);
      return;
    }
    $("#pdn-text").value = text;
    $("#study-card").open = true;
    await this.study.load(text);
  }

  // A move named by its PDN text (the explorer's), if legal here.
  playText(text) {
    const move = this.position.legal_moves.find((m) => m.pdn === text);
    if (!move) return;
    if (this.study.active()) this.study.played(text);
    else if (this.humanToMove()) this.play(move);
    else this.say("Wait for your turn.");
  }

  // The heading, the window's title and the how-to-play panel.
  describeVariant() {
    const variant = this.variant;
    document.title = `${variant.title}: Draughts`;
    $("#variant-title").textContent = variant.menu;
    $("#rules").replaceChildren(
      ...variant.how_to_play.map((line) => Object.assign(document.createElement("li"), { textContent: line })),
    );
  }

  // Who plays which side, in words.
  describeSides() {
    const names = this.labels();
    const first = this.variant.first_color;
    const engine = $("#engine").value;
    if (engine === "none") {
      return `Two players on this screen: ${names[first]} moves first, then ${names[this.other(first)]}.`;
    }
    const you = this.other(engine);
    const opens = (side) => (side === first ? ", moving first" : "");
    return `You play ${names[you]}${opens(you)}; the engine (${$("#level").value}) plays ${names[engine]}${opens(engine)}.`;
  }

  // The clock from the form: both sides get the minutes, from now on (at
  // once, so that it is seen as soon as it is set).
  startClock() {
    const minutes = Number($("#minutes").value);
    this.clock = minutes > 0
      ? { white: minutes * 60000, black: minutes * 60000, increment: Number($("#increment").value) * 1000, last: performance.now() }
      : null;
    // The clock when each position was reached, by number of moves: an undo
    // gives back the time of the position it returns to.
    this.clockHistory = [];
    if (this.clock) this.clockHistory[this.moves.length] = { white: this.clock.white, black: this.clock.black };
  }

  setClock() {
    this.startClock();
    this.writeAddress();
    if (this.clock && this.moves.length > 0 && !this.end && !this.position.outcome) {
      this.say(`The clock is set: ${$("#minutes").value} minutes each from now.`);
    }
    this.drawStatus();
  }

  // The position answer from the server becomes the page.
  show(answer) {
    this.position = answer;
    this.selection = null;
    const example = answer.legal_moves.length ? answer.legal_moves[0].pdn : "";
    $("#move-input").placeholder = example ? `e.g. ${example}` : "";
    this.markMovable = false;
    this.draw();
    this.maybeEngine();
    this.analysis.update();
    this.explorer.update();
  }

  request(extra = {}) {
    return { variant: this.variant.name, fen: this.startFen, moves: this.moves, ...extra };
  }

  draw() {
    const p = this.position;
    this.view.orientation = this.flipped ? (this.baseOrientation === "white" ? "black" : "white") : this.baseOrientation;
    this.view.showCoordinates = $("#coordinates").checked;
    // Each clock beside its side of the board.
    const bottom = this.view.orientation;
    $("#board").before($(`#clock-${this.other(bottom)}`));
    $("#board").after($(`#clock-${bottom}`));
    $("#board").className = `board scheme-${$("#scheme").value}`;
    const sel = this.selection;
    const candidates = sel ? this.candidates() : [];
    const movable = new Set();
    if (($("#show-movable").checked || this.markMovable) && this.humanToMove()) for (const m of p.legal_moves) movable.add(m.from);
    const editing = this.editor.active;
    this.view.render({
      pieces: editing ? this.editor.pieceList() : p.pieces,
      lastMove: editing ? null : p.last_move,
      best: editing ? null : this.analysis.bestMove(),
      marks: {
        selected: sel ? sel.origin : null,
        passed: new Set(sel ? sel.route.slice(1) : []),
        targets: new Set(candidates.map((m) => m.path[sel.route.length])),
        movable,
        cursor: document.activeElement === $("#board") ? this.cursor : null,
      },
      description: this.describePieces(),
    });
    this.drawMoves();
    this.drawStatus();
  }

  // The position in words, for screen readers.
  describePieces() {
    const names = this.labels();
    return ["white", "black"].map((side) => {
      const own = this.position.pieces.filter((x) => x.color === side);
      const list = (kind) => own.filter((x) => x.kind === kind).map((x) => this.name(x.square)).join(", ");
      const kings = list("king");
      return `${names[side]}: men on ${list("man") || "no square"}${kings ? `; kings on ${kings}` : ""}`;
    }).join(". ");
  }

  drawMoves() {
    const list = $("#moves");
    list.replaceChildren();
    const history = this.position.history;
    // Who moved first: the side to move now, counted back.
    const firstTurn = history.length % 2 === 0 ? this.position.turn : this.other(this.position.turn);
    const offset = firstTurn === this.variant.first_color ? 0 : 1;
    let item = null;
    history.forEach((text, index) => {
      const ply = index + offset;
      if (!item || ply % 2 === 0) {
        item = document.createElement("li");
        const number = `${Math.floor(ply / 2) + 1}.`;
        item.append(Object.assign(document.createElement("span"), { className: "number", textContent: number }));
        if (ply % 2 === 1) item.append(" ", Object.assign(document.createElement("span"), { className: "ply", textContent: "..." }));
        list.append(item);
      }
      item.append(" ", Object.assign(document.createElement("span"), { className: "ply", textContent: text }));
    });
    list.scrollTop = list.scrollHeight;
  }

  other(side) {
    return side === "white" ? "black" : "white";
  }

  drawStatus() {
    const p = this.position;
    const names = this.labels();
    const outcome = this.end ?? p.outcome;
    $("#claim").hidden = Boolean(outcome) || p.claims.length === 0 || !this.humanToMove();
    if (p.claims.length) $("#claim").textContent = `Claim a draw (${p.claims.map((c) => DRAW_WORDS[c] ?? c).join("; ")})`;
    $("#resign").disabled = Boolean(outcome);
    if (outcome) {
      $("#status").textContent = `${this.describeEnd(outcome)} Result ${outcome.result}.`;
      $("#status").dataset.result = outcome.result;
    } else {
      delete $("#status").dataset.result;
      const thinking = this.thinking ? " (the engine is thinking)" : "";
      const yours = this.humanToMove() && $("#engine").value !== "none" ? " (your turn)" : "";
      $("#status").textContent = `${names[p.turn]} to move${thinking}${yours}.`;
    }
    $("#sides").textContent = this.describeSides();
    $("#flip").setAttribute("aria-pressed", String(this.flipped));
    for (const side of ["white", "black"]) {
      const face = $(`#clock-${side}`);
      face.hidden = !this.clock;
      if (!this.clock) continue;
      const ms = Math.max(0, this.clock[side]);
      const seconds = Math.ceil(ms / 1000);
      face.textContent = `${names[side]} ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
      face.setAttribute("aria-label", `${names[side]}'s clock`);
      face.classList.toggle("running", !outcome && p.turn === side);
      face.classList.toggle("low", !outcome && ms < 10000);
    }
  }

  describeEnd(outcome) {
    const names = this.labels();
    const turn = names[this.position.turn];
    const winner = outcome.winner ? names[outcome.winner] : null;
    switch (outcome.termination) {
      case "no-pieces": return `${turn} has no pieces left: ${winner} wins.`;
      case "blocked": return `${turn} has no legal move: ${winner} wins.`;
      case "breakthrough": return `${winner} made the first king and wins.`;
      case "resignation": return `${names[this.other(outcome.winner)]} resigned: ${winner} wins.`;
      case "timeout":
        return winner
          ? `${names[this.other(outcome.winner)]} ran out of time: ${winner} wins.`
          : `${turn} ran out of time, but the game is drawn (${this.endNote}).`;
      default:
        return `Drawn by ${DRAW_WORDS[outcome.termination] ?? outcome.termination}.`;
    }
  }

  say(text) {
    $("#message").textContent = text;
  }

  humanToMove() {
    const p = this.position;
    return !this.end && !p.outcome && !this.thinking && this.humanSides().includes(p.turn);
  }

  // Moves that start with the route chosen so far.
  candidates() {
    const route = this.selection.route;
    return this.position.legal_moves.filter(
      (m) => m.from === this.selection.origin && route.every((s, i) => m.path[i] === s) && m.path.length > route.length,
    );
  }

  ownPiece(square) {
    const piece = this.position.pieces.find((x) => x.square === square);
    return piece && piece.color === this.position.turn;
  }

  // A press on a square: select the piece, if it is ours; true when it may be dragged.
  press(square) {
    if (this.editor.active) {
      this.editor.click(square);
      return false;
    }
    if (!this.humanToMove()) return false;
    if (!this.ownPiece(square)) return false;
    const moves = this.position.legal_moves.filter((m) => m.from === square);
    if (moves.length === 0) {
      this.explainRefusal(square);
      return false;
    }
    if (!this.selection || this.selection.origin !== square) {
      this.selection = { origin: square, route: [square] };
      this.say("");
      this.draw();
    }
    return true;
  }

  click(square) {
    if (!this.humanToMove() || !this.selection) return;
    if (square === this.selection.origin) {
      if (this.selection.route.length > 1) {
        this.selection.route = [square];
        this.say(`The capture starts again from ${this.name(square)}.`);
        this.draw();
      }
      return;
    }
    this.target(square);
  }

  // A square picked by the keyboard: a press and a click.
  pick(square) {
    if (this.editor.active) {
      this.editor.click(square);
      return;
    }
    if (!this.humanToMove()) {
      if (this.thinking) this.say("Wait for the engine's move.");
      return;
    }
    this.press(square);
    this.click(square);
  }

  cancelSelection() {
    if (!this.selection) return;
    this.selection = null;
    this.say("");
    this.draw();
  }

  // A move typed in the form.
  typed() {
    if (!this.humanToMove()) {
      const over = this.end || this.position.outcome;
      this.say(over ? "The game is over: start a new game." : "Wait for your turn.");
      return;
    }
    const answer = parseTypedMove($("#move-input").value, this.position.legal_moves, this.variant.squares);
    if (answer.error) {
      this.say(answer.error);
      return;
    }
    $("#move-input").value = "";
    this.play(answer.move);
  }

  drop(from, to) {
    if (!this.selection || this.selection.origin !== from) return false;
    return this.target(to);
  }

  // The player points at a square with a piece selected: play the move
  // that ends there if only one does, else take it as the next landing
  // square of a capture. True when a move was played.
  target(square) {
    const candidates = this.candidates();
    const ending = candidates.filter((m) => m.to === square);
    if (ending.length === 1) {
      this.play(ending[0]);
      return true;
    }
    if (candidates.some((m) => m.path[this.selection.route.length] === square)) {
      this.selection.route.push(square);
      const left = this.candidates();
      if (left.every((m) => m.pdn === left[0].pdn)) {
        this.play(left[0]);
        return true;
      }
      this.say("Several captures go this way: click the next landing square.");
      this.draw();
      return false;
    }
    if (ending.length > 1) {
      this.say(
        `${ending.length} capture routes end on ${this.name(square)}: ` +
          "click the landing squares one by one, from the first.",
      );
      this.draw();
      return false;
    }
    if (this.ownPiece(square)) return false;
    const route = this.selection.route;
    if (route.length > 1 || (candidates.length && candidates[0].captures.length)) {
      // Inside a capture a wrong click keeps the piece and says what to do.
      const next = [...new Set(candidates.map((m) => m.path[route.length]))]
        .sort((a, b) => a - b)
        .map((s) => this.name(s));
      const where = next.length === 1 ? next[0] : `${next.slice(0, -1).join(", ")} or ${next[next.length - 1]}`;
      this.say(
        route.length > 1
          ? `The capture goes on: click ${where} (marked), or click the piece on ${this.name(route[0])} to start it again.`
          : `Capturing is compulsory: the piece on ${this.name(route[0])} must take; click ${where} (marked).`,
      );
      this.draw();
      return false;
    }
    this.explainRefusal(square);
    return false;
  }

  explainRefusal(square) {
    const p = this.position;
    if (p.capture_required) {
      const captures = p.legal_moves.map((m) => m.pdn).join(", ");
      this.say(`Capturing is compulsory: you must take (${captures}).`);
      this.markMovable = true; // show which pieces can take
    } else if (this.selection) {
      this.say(`The piece on ${this.name(this.selection.origin)} cannot go to ${this.name(square)}.`);
    } else {
      this.say(`The piece on ${this.name(square)} has no move.`);
    }
    this.selection = null;
    this.draw();
  }

  name(square) {
    return this.view.bySquare.get(square).name;
  }

  async play(move) {
    const mover = this.position.turn;
    this.selection = null;
    this.say("");
    if (this.study.active()) {
      this.study.played(move.pdn);
      return;
    }
    await this.advance([...this.moves, move.pdn], mover);
  }

  // Ask the server for the position after ``moves`` and show it.
  async advance(moves, mover) {
    const generation = ++this.generation;
    let answer;
    try {
      answer = await api("api/position", this.request({ moves }));
    } catch (error) {
      this.say(error.message);
      this.draw();
      return;
    }
    if (generation !== this.generation) return;
    this.moves = moves;
    this.keepClock(moves.length, mover);
    this.show(answer);
  }

  // After a move (``mover`` moved: the increment) or an undo (``mover``
  // null: the clock of the position returned to, when it was kept).
  keepClock(count, mover) {
    const clock = this.clock;
    if (!clock) return;
    const history = this.clockHistory;
    if (mover) {
      clock[mover] += clock.increment;
    } else if (history[count]) {
      Object.assign(clock, history[count]);
      clock.last = performance.now();
    }
    history.length = count;
    history[count] = { white: clock.white, black: clock.black };
  }

  async maybeEngine() {
    const p = this.position;
    // A study is stepped through by hand: the engine plays no side in it.
    if (this.end || p.outcome || this.thinking || $("#engine").value !== p.turn || this.study.active()) return;
    const generation = this.generation;
    const search = {}; // this search's token: an undo may start another one meanwhile
    this.thinking = search;
    this.drawStatus();
    let reply;
    try {
      reply = await api("api/engine", this.request({ level: $("#level").value }));
    } catch (error) {
      if (error.status === 503) {
        // The server's searches are all taken: ask again in a moment.
        this.say(ENGINE_BUSY);
        setTimeout(() => { if (generation === this.generation) this.maybeEngine(); }, ENGINE_RETRY_MS);
      } else {
        this.say(`The engine failed: ${error.message}`);
      }
      return;
    } finally {
      if (this.thinking === search) this.thinking = null;
      this.drawStatus();
    }
    if (generation !== this.generation || this.end) return;
    if ($("#message").textContent === ENGINE_BUSY) this.say("");
    await this.advance([...this.moves, reply.move], p.turn);
  }

  undo() {
    if (this.study.active()) {
      this.study.back();
      return;
    }
    if (this.moves.length === 0) return;
    const engineSide = $("#engine").value;
    let moves = this.moves.slice(0, -1);
    // Against the engine, back to the player's own turn: its reply goes too.
    const turnAfter = (count) => ((this.moves.length - count) % 2 === 0 ? this.position.turn : this.other(this.position.turn));
    if (engineSide !== "none" && turnAfter(moves.length) === engineSide && moves.length > 0) moves = moves.slice(0, -1);
    this.end = null;
    this.thinking = null;
    this.advance(moves, null);
  }

  async finish(end) {
    let answer;
    try {
      answer = await api("api/position", this.request({ end }));
    } catch (error) {
      this.say(error.message);
      return;
    }
    this.endNote = this.position.claims.map((c) => DRAW_WORDS[c] ?? c).join("; ") || "the rules say so";
    this.end = answer.outcome;
    this.endRequest = end;
    this.generation++;
    this.selection = null;
    this.draw();
  }

  resign() {
    const humans = this.humanSides();
    const side = humans.length === 1 ? humans[0] : this.position.turn;
    this.finish({ by: "resignation", side });
  }

  tick() {
    const clock = this.clock;
    if (!clock) return;
    const now = performance.now();
    const elapsed = now - clock.last;
    clock.last = now;
    const p = this.position;
    if (!p || this.end || p.outcome || this.timingOut) return;
    clock[p.turn] -= elapsed;
    if (clock[p.turn] <= 0) {
      clock[p.turn] = 0;
      this.timingOut = true;
      this.finish({ by: "timeout", side: p.turn }).finally(() => { this.timingOut = false; });
    }
    this.drawStatus();
  }

  async download() {
    const engine = $("#engine").value;
    const level = $("#level").value;
    const player = (side) => (side === engine ? `draughts engine (${level})` : "Player");
    const body = this.request({ white: player("white"), black: player("black") });
    if (this.end) body.end = this.endRequest;
    let text;
    try {
      text = await api("api/pdn", body);
    } catch (error) {
      this.say(error.message);
      return;
    }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-pdn" }));
    link.download = `${this.variant.name}-game.pdn`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}

api("api/variants").then(
  (variants) => { window.draughtsGame = new Game(variants); },
  (error) => { $("#message").textContent = `The server cannot be reached: ${error.message}`; },
);
