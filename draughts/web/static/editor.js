// The position editor: while its panel is open, a click on a square puts
// the chosen piece there (or takes it away), the side to move is chosen,
// and the position is written as a FEN, the variant's square names in
// it, that "Play from here" checks with the server and starts from.

const $ = (selector) => document.querySelector(selector);

export class Editor {
  constructor(game) {
    this.game = game;
    this.active = false;
    this.pieces = new Map(); // square -> {color, kind}
    this.turn = "white";
    $("#editor").addEventListener("toggle", () => this.toggle($("#editor").open));
    $("#editor-turn").addEventListener("change", () => { this.turn = $("#editor-turn").value; this.changed(); });
    $("#editor-clear").addEventListener("click", () => { this.pieces.clear(); this.changed(); });
    $("#editor-current").addEventListener("click", () => this.copyBoard());
    $("#editor-use").addEventListener("click", () => this.use());
  }

  toggle(open) {
    this.active = open;
    if (open) this.copyBoard();
    else this.game.draw();
  }

  // Start from the position on the board.
  copyBoard() {
    const p = this.game.position;
    this.pieces = new Map(p.pieces.map((x) => [x.square, { color: x.color, kind: x.kind }]));
    this.turn = p.turn;
    $("#editor-turn").value = this.turn;
    this.changed();
  }

  tool() {
    const [color, kind] = ($("input[name=editor-tool]:checked")?.value ?? "white man").split(" ");
    return { color, kind };
  }

  // A click on a square: the tool's piece there, or the square emptied
  // (by the eraser, or a second click with the same piece).
  click(square) {
    const tool = this.tool();
    const here = this.pieces.get(square);
    if (tool.color === "empty" || (here && here.color === tool.color && here.kind === tool.kind)) {
      this.pieces.delete(square);
    } else {
      this.pieces.set(square, tool);
    }
    this.changed();
  }

  pieceList() {
    return [...this.pieces].map(([square, piece]) => ({ square, ...piece }));
  }

  fen() {
    const names = this.game.view.bySquare;
    const side = (color) => [...this.pieces]
      .filter(([, piece]) => piece.color === color)
      .sort((a, b) => a[0] - b[0])
      .map(([square, piece]) => `${piece.kind === "king" ? "K" : ""}${names.get(square).name}`)
      .join(",");
    return `${this.turn === "white" ? "W" : "B"}:W${side("white")}:B${side("black")}`;
  }

  changed() {
    $("#editor-fen").value = this.fen();
    this.game.draw();
  }

  async use() {
    $("#fen").value = this.fen();
    if (await this.game.newGame()) {
      $("#editor").open = false;
      this.active = false;
      this.game.draw();
    }
  }
}
