// Keyboard play: a cursor moved over the board with the arrow keys (Enter
// or Space picks the square under it, as a click would), and moves typed as
// they are written ("11-15", "22x13", "c3-d4", or every landing square of a
// capture: "44x22x9x25"; "-" and "x" alike).

const KEYS = {
  ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0],
};

// Listen on the board ``view``'s container; ``game`` gives the square
// picked (``game.pick(square)``) and redraws (``game.draw()``).
export function listenForKeys(view, game) {
  const box = view.container;
  box.addEventListener("keydown", (event) => {
    const direction = KEYS[event.key];
    if (direction) {
      game.cursor = game.cursor ? view.step(game.cursor, ...direction) : startCell(view, game);
      game.draw();
      event.preventDefault();
    } else if (event.key === "Enter" || event.key === " ") {
      if (!game.cursor) game.cursor = startCell(view, game);
      const square = view.squareOfCell(game.cursor);
      if (square !== null) game.pick(square);
      game.draw();
      event.preventDefault();
    } else if (event.key === "Escape") {
      game.cancelSelection();
      event.preventDefault();
    }
  });
  box.addEventListener("focus", () => {
    if (!game.cursor) game.cursor = startCell(view, game);
    game.draw();
  });
  box.addEventListener("blur", () => game.draw()); // the cursor is drawn only while focused
}

// Where the cursor starts: on the first piece that can move, else a corner.
function startCell(view, game) {
  const moves = game.position ? game.position.legal_moves : [];
  const square = moves.length ? moves[0].from : view.variant.squares[0].square;
  const entry = view.bySquare.get(square);
  return [entry.row, entry.col];
}

// The legal move that ``text`` names, or an error saying why none does.
// ``squares`` are the variant's squares (number and name).
export function parseTypedMove(text, legalMoves, squares) {
  const typed = text.trim().toLowerCase().replace(/\s+/g, "");
  const example = legalMoves.length ? ` (such as ${legalMoves[0].pdn})` : "";
  if (!typed) return { error: `Type a move${example}.` };
  const exact = legalMoves.filter((m) => m.pdn.toLowerCase() === typed);
  if (exact.length === 1) return { move: exact[0] };
  const byName = new Map(squares.map((s) => [s.name.toLowerCase(), s.square]));
  const parts = typed.split(/[-x:]/);
  const stops = parts.map((part) => byName.get(part) ?? null);
  if (parts.length < 2 || stops.includes(null)) {
    return { error: `"${text.trim()}" is not a move: write it as the move list does${example}.` };
  }
  const first = stops[0];
  const last = stops[stops.length - 1];
  let found = legalMoves.filter((m) => m.from === first && m.to === last);
  if (stops.length > 2) {
    found = found.filter((m) => m.path.length === stops.length && m.path.every((s, i) => s === stops[i]));
  }
  if (found.length === 1) return { move: found[0] };
  if (found.length > 1) {
    const routes = found.map((m) => m.pdn).join(", ");
    return { error: `${found.length} captures go from ${parts[0]} to ${parts[parts.length - 1]}: type the whole route (${routes}).` };
  }
  const captures = legalMoves.filter((m) => m.captures.length > 0);
  if (captures.length && legalMoves.every((m) => m.captures.length > 0)) {
    return { error: `"${text.trim()}" is not legal: capturing is compulsory (${captures.map((m) => m.pdn).join(", ")}).` };
  }
  return { error: `"${text.trim()}" is not a legal move here.` };
}
