// Studying a game: PDN pasted or uploaded is read by the server (POST
// api/study, the variant inferred as draughts.pdn.read_game does) into a
// flat tree of nodes; the page steps through the main line and the
// variations with buttons, the arrow keys or a click on a move, shows the
// comments, and takes a move played on the board as a new variation.

const $ = (selector) => document.querySelector(selector);

const NAGS = { 1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!" };

// The first bytes of the compressed files draughts.pdn.open_pdn reads:
// gzip, bzip2, xz, zstd.
const MAGIC = [[0x1f, 0x8b], [0x42, 0x5a, 0x68], [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], [0x28, 0xb5, 0x2f, 0xfd]];

function compressed(bytes) {
  return MAGIC.some((magic) => magic.every((byte, i) => bytes[i] === byte));
}

function base64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

export class Study {
  constructor(game) {
    this.game = game;
    this.tree = null; // the api/study answer, its nodes grown by moves played
    this.current = 0;
    this.entering = false; // true while the study sets the game up
    $("#load-pdn").addEventListener("click", () => this.load($("#pdn-text").value));
    $("#pdn-file").addEventListener("change", async () => {
      const file = $("#pdn-file").files[0];
      if (!file) return;
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (compressed(bytes)) {
        // The server decompresses it, as draughts.pdn.open_pdn does.
        $("#pdn-text").value = "";
        this.load({ pdn_base64: base64(bytes) });
      } else {
        $("#pdn-text").value = new TextDecoder().decode(bytes);
        this.load($("#pdn-text").value);
      }
    });
    const steps = {
      "#study-start": () => this.goTo(0),
      "#study-back": () => this.back(),
      "#study-forward": () => this.forward(),
      "#study-end": () => this.toEnd(),
    };
    for (const [id, step] of Object.entries(steps)) $(id).addEventListener("click", step);
    $("#study-close").addEventListener("click", () => this.close());
    document.addEventListener("keydown", (event) => this.key(event));
  }

  active() {
    return this.tree !== null;
  }

  // Study the game of `source`: PDN text, or a request body of its own
  // ({pdn_base64} for a compressed file).
  async load(source) {
    if (typeof source === "string" && !source.trim()) {
      this.say("Paste a game in PDN first, or choose a file.");
      return;
    }
    let answer;
    try {
      const response = await fetch("api/study", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(typeof source === "string" ? { pdn: source } : source),
      });
      answer = await response.json();
      if (!response.ok) throw new Error(answer.error);
    } catch (error) {
      this.say(`This PDN cannot be studied: ${error.message}`);
      return;
    }
    this.entering = true;
    try {
      if (!(await this.game.setUp(answer.variant, answer.fen))) return;
    } finally {
      this.entering = false;
    }
    this.tree = answer;
    this.plies = [0];
    for (let i = 1; i < answer.nodes.length; i++) this.plies[i] = this.plies[answer.nodes[i].parent] + 1;
    this.firstTurn = this.game.position.turn;
    $("#study-view").hidden = false;
    document.body.classList.add("studying");
    const problems = answer.errors.length ? ` It has ${answer.errors.length} error(s): ${answer.errors[0]}` : "";
    this.say(`${answer.nodes.length - 1} moves read (${this.game.variant.menu}).${problems}`);
    this.current = 0;
    this.render();
  }

  close() {
    this.tree = null;
    $("#study-view").hidden = true;
    document.body.classList.remove("studying");
    this.say("");
  }

  say(text) {
    $("#study-state").textContent = text;
  }

  // The moves from the start to ``index``.
  path(index) {
    const moves = [];
    for (let i = index; i > 0; i = this.tree.nodes[i].parent) moves.push(this.tree.nodes[i].move);
    return moves.reverse();
  }

  async goTo(index) {
    if (!this.active() || index === undefined || index === null) return;
    this.current = index;
    await this.game.advance(this.path(index), null);
    this.render();
  }

  back() {
    if (this.current > 0) this.goTo(this.tree.nodes[this.current].parent);
  }

  forward() {
    this.goTo(this.tree.nodes[this.current].children[0]);
  }

  toEnd() {
    let index = this.current;
    while (this.tree.nodes[index].children.length) index = this.tree.nodes[index].children[0];
    this.goTo(index);
  }

  // Another move from the same position: a variation entered or left.
  sibling(step) {
    if (this.current === 0) return;
    const siblings = this.tree.nodes[this.tree.nodes[this.current].parent].children;
    const at = siblings.indexOf(this.current) + step;
    if (at >= 0 && at < siblings.length) this.goTo(siblings[at]);
  }

  // A move played on the board: the tree's, or a new variation.
  played(text) {
    const nodes = this.tree.nodes;
    let child = nodes[this.current].children.find((i) => nodes[i].move === text);
    if (child === undefined) {
      child = nodes.length;
      nodes.push({ parent: this.current, children: [], move: text, comment: "", starting_comment: "", nags: [] });
      nodes[this.current].children.push(child);
      this.plies[child] = this.plies[this.current] + 1;
    }
    this.goTo(child);
  }

  key(event) {
    if (!this.active() || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, textarea, select, #board")) return;
    const keys = {
      ArrowLeft: () => this.back(),
      ArrowRight: () => this.forward(),
      ArrowDown: () => this.sibling(1),
      ArrowUp: () => this.sibling(-1),
      Home: () => this.goTo(0),
      End: () => this.toEnd(),
    };
    if (!(event.key in keys)) return;
    event.preventDefault();
    keys[event.key]();
  }

  // The move number before a move ("12." or "12..."), or "".
  number(index, first) {
    const offset = this.firstTurn === this.game.variant.first_color ? 0 : 1;
    const ply = this.plies[index] - 1 + offset;
    if (ply % 2 === 0) return `${ply / 2 + 1}. `;
    return first ? `${(ply - 1) / 2 + 1}... ` : "";
  }

  render() {
    const tree = this.tree;
    if (!tree) return;
    const header = Object.fromEntries(tree.headers);
    const players = `${header.White ?? "?"} - ${header.Black ?? "?"}`;
    $("#study-header").textContent = [players, header.Event, header.Date, header.Result]
      .filter((x) => x && !/^[?.*]*$/.test(x)).join(", "); // unknowns left out
    const node = tree.nodes[this.current];
    const words = [node.starting_comment, node.comment].filter(Boolean).join(" ");
    $("#study-comment").textContent = words || (this.current === 0 ? "The start of the game." : "");
    const box = $("#study-moves");
    box.replaceChildren();
    const start = tree.nodes[0].children[0];
    if (start !== undefined) this.line(start, box);
    const shown = box.querySelector(".current");
    if (shown) shown.scrollIntoView({ block: "nearest" });
    $("#study-back").disabled = this.current === 0;
    $("#study-forward").disabled = node.children.length === 0;
  }

  // A line from node ``start`` on, each move's alternatives in brackets
  // after it (walked along the line; only variations recurse).
  line(start, container) {
    const nodes = this.tree.nodes;
    let first = true;
    for (let index = start; index !== undefined; index = nodes[index].children[0]) {
      const node = nodes[index];
      const button = Object.assign(document.createElement("button"), {
        type: "button",
        className: index === this.current ? "move current" : "move",
        textContent: `${this.number(index, first)}${node.move}${node.nags.map((n) => NAGS[n] ?? "").join("")}`,
      });
      button.dataset.node = String(index);
      if (index === this.current) button.setAttribute("aria-current", "step");
      button.addEventListener("click", () => this.goTo(index));
      container.append(button);
      if (node.comment) container.append(Object.assign(document.createElement("span"), { className: "comment", textContent: node.comment }));
      first = false;
      const siblings = nodes[node.parent].children;
      if (siblings[0] === index && siblings.length > 1) {
        for (const other of siblings.slice(1)) {
          const group = Object.assign(document.createElement("span"), { className: "variation" });
          group.append("(");
          this.line(other, group);
          group.append(")");
          container.append(group);
        }
        first = true; // the line goes on after the brackets: its number again
      }
    }
  }
}
