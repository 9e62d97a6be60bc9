// The board picture, drawn as SVG with the elements and classes of
// draughts.svg ("square dark s12", "piece black man s12", "lastmove s12",
// "route", "captured s12"), and the pointer input on it: click-click and
// drag-and-drop for mouse, pen and touch alike (pointer events).

const SVG_NS = "http://www.w3.org/2000/svg";
export const SQUARE = 40;
const MARGIN = 16;
const DRAG_THRESHOLD = 5; // screen pixels before a press becomes a drag

function element(parent, name, attributes) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  parent.appendChild(node);
  return node;
}

export class BoardView {
  // variant: an entry of /api/variants. handlers.onPress(square) and
  // handlers.onDrop(from, to) return true when the press may start a drag
  // and when the drop played a move; handlers.onClick(square) for a click.
  constructor(container, handlers) {
    this.container = container;
    this.handlers = handlers;
    this.orientation = "white";
    this.drag = null;
  }

  setVariant(variant) {
    this.variant = variant;
    this.byCell = new Map(variant.squares.map((s) => [`${s.row},${s.col}`, s]));
    this.bySquare = new Map(variant.squares.map((s) => [s.square, s]));
  }

  margin() {
    return this.showCoordinates && this.variant.notation === "algebraic" ? MARGIN : 0;
  }

  corner(row, col) {
    const { width, height } = this.variant;
    const m = this.margin();
    if (this.orientation === "white") return [m + col * SQUARE, m + (height - 1 - row) * SQUARE];
    return [m + (width - 1 - col) * SQUARE, m + row * SQUARE];
  }

  center(square) {
    const s = this.bySquare.get(square);
    const [x, y] = this.corner(s.row, s.col);
    return [x + SQUARE / 2, y + SQUARE / 2];
  }

  // state: {pieces, lastMove, best, marks: {selected, passed, targets, movable,
  // cursor}}; best is the engine's move ({from, to, path}) or null, cursor
  // a [row, col] cell or null.
  render(state) {
    const { width, height, notation } = this.variant;
    const m = this.margin();
    const full = [width * SQUARE + 2 * m, height * SQUARE + 2 * m];
    this.container.replaceChildren();
    const svg = element(this.container, "svg", {
      xmlns: SVG_NS,
      viewBox: `0 0 ${full[0]} ${full[1]}`,
      class: `draughts-board ${this.variant.name}`,
      role: "img",
      "aria-label": state.description ?? "the board",
    });
    this.svg = svg;
    if (m) element(svg, "rect", { x: 0, y: 0, width: full[0], height: full[1], class: "border" });
    const last = state.lastMove;
    const tinted = new Set(last ? [last.from, last.to] : []);
    const marks = state.marks;
    const numbers = [];
    for (let row = 0; row < height; row++) {
      for (let col = 0; col < width; col++) {
        const entry = this.byCell.get(`${row},${col}`);
        const [x, y] = this.corner(row, col);
        const number = entry ? entry.square : null;
        element(svg, "rect", {
          x, y, width: SQUARE, height: SQUARE,
          class: number ? `square dark s${number}` : "square light",
          "data-square": number ?? "",
        });
        if (!number) continue;
        const overlays = [
          [tinted.has(number), "lastmove"],
          [marks.movable.has(number), "movable"],
          [marks.selected === number, "selected"],
          [marks.passed.has(number), "passed"],
          [marks.targets.has(number), "highlight target"],
        ];
        for (const [on, name] of overlays) {
          if (on) element(svg, "rect", { x, y, width: SQUARE, height: SQUARE, class: `${name} s${number}` });
        }
        if (this.showCoordinates && notation === "numeric") numbers.push([x, y, number]);
      }
    }
    if (this.showCoordinates && notation === "algebraic") this.edges(svg, full);
    for (const piece of state.pieces) this.piece(svg, piece);
    // Over the pieces, in the square's corner: readable on a full board.
    for (const [x, y, number] of numbers) {
      element(svg, "text", { x: x + 2, y: y + 10, class: "coord number" }).textContent = String(number);
    }
    if (last) this.route(svg, last);
    if (state.best) this.arrow(svg, state.best);
    if (marks.cursor !== null && marks.cursor !== undefined) {
      const [x, y] = this.corner(...marks.cursor);
      element(svg, "rect", { x: x + 1.5, y: y + 1.5, width: SQUARE - 3, height: SQUARE - 3, class: "cursor" });
    }
  }

  // The cell one step from ``cell`` ([row, col]) in a screen direction
  // (dx, dy: right and down), the board's orientation taken into account.
  step(cell, dx, dy) {
    const { width, height } = this.variant;
    const sign = this.orientation === "white" ? 1 : -1;
    const row = Math.min(height - 1, Math.max(0, cell[0] - sign * dy));
    const col = Math.min(width - 1, Math.max(0, cell[1] + sign * dx));
    return [row, col];
  }

  squareOfCell([row, col]) {
    const entry = this.byCell.get(`${row},${col}`);
    return entry ? entry.square : null;
  }

  edges(svg, full) {
    const files = new Map();
    const ranks = new Map();
    for (const s of this.variant.squares) {
      if (!files.has(s.col)) files.set(s.col, s.name[0]);
      if (!ranks.has(s.row)) ranks.set(s.row, s.name.slice(1));
    }
    for (const [col, letter] of files) {
      const [x] = this.corner(0, col);
      element(svg, "text", { x: x + SQUARE / 2, y: full[1] - 4, class: "coord edge" }).textContent = letter;
    }
    for (const [row, rank] of ranks) {
      const [, y] = this.corner(row, 0);
      element(svg, "text", { x: MARGIN / 2, y: y + SQUARE / 2 + 4, class: "coord edge" }).textContent = rank;
    }
  }

  piece(svg, { square, color, kind }) {
    const group = element(svg, "g", { class: `piece ${color} ${kind} s${square}` });
    const [cx, cy] = this.center(square);
    const radius = SQUARE * 0.4;
    element(group, "circle", { cx, cy, r: radius, class: "body" });
    element(group, "circle", { cx, cy, r: radius * 0.7, class: "ring" });
    if (kind === "king") {
      // A crown: three points over a band, in the opposite colour.
      const w = radius * 0.9;
      const h = radius * 0.7;
      const left = cx - w / 2;
      const top = cy - h / 2;
      const points = [
        [left, top + h], [left, top], [left + w / 4, top + h / 2], [cx, top],
        [left + (3 * w) / 4, top + h / 2], [left + w, top], [left + w, top + h],
      ];
      element(group, "polygon", {
        points: points.map(([px, py]) => `${px.toFixed(1)},${py.toFixed(1)}`).join(" "),
        class: "crown",
      });
    }
  }

  // The engine's best move: an arrow along its route.
  arrow(svg, move) {
    const defs = element(svg, "defs", {});
    const marker = element(defs, "marker", {
      id: "best-head", viewBox: "0 0 10 10", refX: 5, refY: 5,
      markerWidth: 3, markerHeight: 3, orient: "auto-start-reverse",
    });
    element(marker, "path", { d: "M0,0L10,5L0,10z", class: "best-head" });
    const path = move.path.length >= 2 ? move.path : [move.from, move.to];
    element(svg, "polyline", {
      points: path.map((s) => this.center(s).join(",")).join(" "),
      class: `best s${move.from}`,
      "marker-end": "url(#best-head)",
    });
  }

  route(svg, move) {
    const path = move.path.length >= 2 ? move.path : [move.from, move.to];
    element(svg, "polyline", {
      points: path.map((s) => this.center(s).join(",")).join(" "),
      class: "route",
    });
    const d = SQUARE * 0.25;
    for (const square of move.captures) {
      const [cx, cy] = this.center(square);
      element(svg, "path", {
        d: `M${cx - d},${cy - d}L${cx + d},${cy + d}M${cx - d},${cy + d}L${cx + d},${cy - d}`,
        class: `captured s${square}`,
      });
    }
  }

  // The square under a point of the screen, or null.
  squareAt(clientX, clientY) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    const m = this.margin();
    const { width, height } = this.variant;
    const x = Math.floor((point.x - m) / SQUARE);
    const y = Math.floor((point.y - m) / SQUARE);
    if (x < 0 || y < 0 || x >= width || y >= height) return null;
    const [row, col] = this.orientation === "white" ? [height - 1 - y, x] : [y, width - 1 - x];
    const entry = this.byCell.get(`${row},${col}`);
    return entry ? entry.square : null;
  }

  // Pointer input: listeners live on the container, whose SVG is redrawn.
  listen() {
    const box = this.container;
    box.addEventListener("pointerdown", (event) => {
      if (event.button !== 0 || !this.svg) return;
      const square = this.squareAt(event.clientX, event.clientY);
      if (square === null) return;
      const draggable = this.handlers.onPress(square);
      const piece = draggable ? this.svg.querySelector(`.piece.s${square}`) : null;
      this.drag = { square, x: event.clientX, y: event.clientY, piece, moving: false };
      box.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    box.addEventListener("pointermove", (event) => {
      const drag = this.drag;
      if (!drag || !drag.piece) return;
      const dx = event.clientX - drag.x;
      const dy = event.clientY - drag.y;
      if (!drag.moving && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
      drag.moving = true;
      const scale = this.svg.getScreenCTM().a;
      drag.piece.classList.add("dragging");
      drag.piece.style.transform = `translate(${dx / scale}px, ${dy / scale}px)`;
      drag.piece.parentNode.appendChild(drag.piece); // drawn over the others
    });
    const finish = (event, cancelled) => {
      const drag = this.drag;
      if (!drag) return;
      this.drag = null;
      if (!drag.moving) {
        if (!cancelled) this.handlers.onClick(drag.square);
        return;
      }
      const target = cancelled ? null : this.squareAt(event.clientX, event.clientY);
      const played = target !== null && target !== drag.square && this.handlers.onDrop(drag.square, target);
      if (!played) this.snapBack(drag.piece);
    };
    box.addEventListener("pointerup", (event) => finish(event, false));
    box.addEventListener("pointercancel", (event) => finish(event, true));
  }

  snapBack(piece) {
    if (!piece.isConnected) return; // the board was redrawn meanwhile
    piece.classList.remove("dragging");
    piece.classList.add("snapping");
    piece.style.transform = "";
    piece.addEventListener("transitionend", () => piece.classList.remove("snapping"), { once: true });
  }
}
