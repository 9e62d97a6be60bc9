// The opening explorer: for the position on the board, the moves played
// from it in the server's games (POST api/explorer; the server needs
// --db), with the number of games and the score, and the games, which open
// in the study view. A server without games answers 404: the panel stays
// hidden.

const $ = (selector) => document.querySelector(selector);

function cell(text, className) {
  return Object.assign(document.createElement("td"), { textContent: text, className: className ?? "" });
}

function percent(part, whole) {
  return whole ? `${Math.round((100 * part) / whole)}%` : "";
}

export class Explorer {
  // game: the page's Game; open(id) opens a game of the index.
  constructor(game, open) {
    this.game = game;
    this.open = open;
    this.off = false; // the server has no games
    this.key = null;
  }

  async update() {
    if (this.off || !this.game.position) return;
    const body = this.game.request();
    const key = JSON.stringify(body);
    if (key === this.key) return;
    this.key = key;
    let response;
    let answer;
    try {
      response = await fetch("api/explorer", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: key,
      });
      if (response.status === 404) {
        this.off = true;
        $("#explorer").hidden = true;
        return;
      }
      answer = await response.json();
    } catch (error) {
      if (key === this.key) this.key = null; // asked again at the next change
      $("#explorer-state").textContent = `The games cannot be reached: ${error.message}`;
      return;
    }
    if (key !== this.key) return; // the board moved on meanwhile
    $("#explorer").hidden = false;
    if (!response.ok) {
      this.key = null;
      this.show({ moves: [], games: [] });
      $("#explorer-state").textContent = answer.error;
      return;
    }
    this.show(answer);
  }

  show(answer) {
    const names = this.game.labels();
    const total = answer.moves.reduce((sum, m) => sum + m.games, 0);
    // The games listed are the first few; those that went on are all counted.
    const count = Math.max(total, answer.games.length);
    const listed = answer.games.length;
    $("#explorer-state").textContent = count === 0
      ? "No game of the database had this position."
      : `${count} games had this position${count > listed ? ` (the first ${listed} listed)` : ""}.`;
    $("#explorer-head").replaceChildren(
      ...["Move", "Games", `${names.white} wins`, "Draws", `${names.black} wins`].map((text) =>
        Object.assign(document.createElement("th"), { textContent: text, scope: "col" })),
    );
    const rows = answer.moves.map((m) => {
      const row = document.createElement("tr");
      const button = Object.assign(document.createElement("button"), {
        type: "button", className: "link", textContent: m.pdn,
      });
      button.setAttribute("aria-label", `play ${m.pdn}`);
      button.addEventListener("click", () => this.game.playText(m.pdn));
      const first = document.createElement("td");
      first.append(button);
      row.append(first, cell(`${m.games} (${percent(m.games, total)})`, "number"),
        cell(percent(m.white_wins, m.games), "number"), cell(percent(m.draws, m.games), "number"),
        cell(percent(m.black_wins, m.games), "number"));
      return row;
    });
    $("#explorer-moves").replaceChildren(...rows);
    $("#explorer-games").replaceChildren(...answer.games.map((g) => {
      const item = document.createElement("li");
      const button = Object.assign(document.createElement("button"), { type: "button", className: "link" });
      const players = `${g.white ?? "?"} - ${g.black ?? "?"}`;
      const about = [g.event, g.date].filter(Boolean).join(", ");
      button.textContent = `${players}${about ? ` (${about})` : ""} ${g.result ?? "*"}`;
      button.dataset.game = String(g.id);
      button.addEventListener("click", () => this.open(g.id));
      item.append(button);
      return item;
    }));
  }
}
