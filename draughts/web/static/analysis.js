// The analysis board: the engine's view of the position on the board,
// streamed from GET api/analysis/stream (Server-Sent Events) as the search
// deepens: the score, the depth and the best line, and the best move drawn
// on the board. Read with fetch rather than EventSource, which would open
// the stream again by itself when the server ends it.

const $ = (selector) => document.querySelector(selector);
const RETRY_MS = 1000; // the server's Retry-After

export class Analysis {
  // game: the page's Game (its request(), position and draw()).
  constructor(game) {
    this.game = game;
    this.controller = null;
    this.view = null; // the last view: {score, depth, nodes, pv, best}
    this.key = null; // the position the view is of
    $("#analysis-on").addEventListener("change", () => this.update());
  }

  on() {
    return $("#analysis-on").checked;
  }

  // The position changed, or the switch: start again, or stop.
  update() {
    const body = this.game.request();
    const key = JSON.stringify(body);
    const p = this.game.position;
    const over = !p || p.outcome || this.game.end || p.legal_moves.length === 0;
    if (!this.on() || over) {
      this.stop();
      this.view = null;
      this.key = null;
      $("#analysis-panel").hidden = !this.on();
      this.say(this.on() && over ? "The game is over: nothing to analyse." : "");
      this.show();
      return;
    }
    $("#analysis-panel").hidden = false;
    if (key === this.key && (this.controller || this.view)) return;
    this.stop();
    this.key = key;
    this.view = null;
    this.say("The engine is thinking...");
    this.show();
    this.stream(body, key);
  }

  stop() {
    if (this.controller) this.controller.abort();
    this.controller = null;
  }

  say(text) {
    $("#analysis-state").textContent = text;
  }

  async stream(body, key) {
    const controller = new AbortController();
    this.controller = controller;
    const query = new URLSearchParams({ variant: body.variant, moves: body.moves.join(" ") });
    if (body.fen) query.set("fen", body.fen);
    try {
      const response = await fetch(`api/analysis/stream?${query}`, { signal: controller.signal });
      if (!response.ok) {
        let message = `${response.status} ${response.statusText}`;
        try { message = (await response.json()).error; } catch { /* not JSON */ }
        throw new Error(message);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          this.event(buffer.slice(0, end), key);
          buffer = buffer.slice(end + 2);
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      this.say(`The analysis stopped: ${error.message}`);
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }

  // One event of the stream: "event: info" and "data: {...}" lines.
  event(block, key) {
    if (key !== this.key) return;
    const fields = {};
    for (const line of block.split("\n")) {
      const colon = line.indexOf(": ");
      if (colon > 0) fields[line.slice(0, colon)] = line.slice(colon + 2);
    }
    const data = JSON.parse(fields.data ?? "{}");
    if (fields.event === "error") {
      if (data.status !== 503) {
        this.say(data.error);
        return;
      }
      // Every search slot is taken (the page's last searches may still be
      // ending): ask again in a moment, if the board is still there.
      this.say("The engine is busy: the analysis starts in a moment.");
      setTimeout(() => {
        if (this.key !== key) return;
        this.key = null;
        this.update();
      }, RETRY_MS);
      return;
    }
    this.view = data;
    this.say(fields.event === "done" ? `Depth ${data.depth}: the search is over.` : `Depth ${data.depth}, searching deeper...`);
    this.show();
  }

  // The panel and the arrow on the board.
  show() {
    const view = this.view;
    const names = this.game.labels();
    const turn = this.game.position ? names[this.game.position.turn] : "";
    $("#analysis-score").textContent = view ? `${view.score ?? "?"} for ${turn}` : "";
    $("#analysis-depth").textContent = view ? `depth ${view.depth}, ${view.nodes.toLocaleString("en")} positions` : "";
    $("#analysis-line").textContent = view ? view.pv.join(" ") : "";
    this.game.draw();
  }

  // The best move as the board draws it ({path}), or null.
  bestMove() {
    if (!this.on() || !this.view || !this.game.position) return null;
    return this.game.position.legal_moves.find((m) => m.pdn === this.view.best) ?? null;
  }
}
