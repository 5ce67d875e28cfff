// ---------------------------------------------------------------------------
// Dice, shared by Tutto and Macke: the throws, a keep's points (dice/throws.py, dice/reference.py)
// ---------------------------------------------------------------------------

/** Every throw of 1..6 dice as sorted faces, ids in order (version 1's list). */
export function tuttoThrowNames() {
  const out = [];
  const rec = (n, from, s) => {
    if (s.length === n) {
      out.push(s);
      return;
    }
    for (let f = from; f <= 6; f++) rec(n, f, s + f);
  };
  for (let n = 1; n <= 6; n++) rec(n, 1, "");
  return out;
}

/** The faces of a throw (a string or a list, any order) sorted, as the throw's name. */
export function sortedDice(dice) {
  const faces = typeof dice === "string" ? [...dice].map(Number) : [...dice];
  if (!faces.length || faces.length > 6 || faces.some((f) => !Number.isInteger(f) || f < 1 || f > 6)) {
    throw new RangeError(`a throw is 1 to 6 dice with faces 1-6, not ${JSON.stringify(dice)}`);
  }
  return faces.sort((a, b) => a - b).join("");
}

const singlePoints = (f) => (f === 1 ? 100 : f === 5 ? 50 : 0);
export const triplePoints = (f) => (f === 1 ? 1000 : 100 * f);

/** Most points for setting aside exactly these dice (sorted faces), or null when a die
 * would belong to no unit (dice/reference.py best_split). */
export function bestSplit(kept, maxTriples, taken = []) {
  if (!kept.length) return 0;
  const [first, ...rest] = kept;
  let best = null;
  if (singlePoints(first)) {
    const sub = bestSplit(rest, maxTriples, taken);
    if (sub !== null) best = sub + singlePoints(first);
  }
  if (rest.filter((x) => x === first).length >= 2 && taken.filter((x) => x === first).length < maxTriples) {
    const r = [...rest];
    r.splice(r.indexOf(first), 1);
    r.splice(r.indexOf(first), 1);
    const sub = bestSplit(r, maxTriples, [...taken, first]);
    if (sub !== null && (best === null || sub + triplePoints(first) > best)) best = sub + triplePoints(first);
  }
  return best;
}
