// The army's insignia, drawn here as SVG (nothing fetched): stars for the generals, suns for
// the field officers (Colonel three, Lieutenant Colonel two, Major one), triangles for the
// company officers (Captain three, 1st Lieutenant two, 2nd Lieutenant one), chevrons for the
// Sergeant (three) and the Private (one), an eye for the Spy and a pennant for the Flag, as on
// the pieces of a Game of the Generals set. Each is keyed by the engine's rank code; the
// shapes use `currentColor`, so a side's colour comes from the page's style.

const VIEW = 40;

function star(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? r * 0.42 : r;
    const angle = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(2)},${(cy + radius * Math.sin(angle)).toFixed(2)}`);
  }
  return `<polygon points="${points.join(" ")}"/>`;
}

function sun(cx, cy, r) {
  const rays = [];
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4;
    const [x1, y1] = [cx + r * 0.62 * Math.cos(a), cy + r * 0.62 * Math.sin(a)];
    const [x2, y2] = [cx + r * Math.cos(a), cy + r * Math.sin(a)];
    rays.push(`<line x1="${x1.toFixed(2)}" y1="${y1.toFixed(2)}" x2="${x2.toFixed(2)}" y2="${y2.toFixed(2)}"/>`);
  }
  return `<circle cx="${cx}" cy="${cy}" r="${(r * 0.45).toFixed(2)}"/><g stroke="currentColor" stroke-width="1.3" stroke-linecap="round">${rays.join("")}</g>`;
}

function triangle(cx, cy, r) {
  const h = r * 0.9;
  return `<polygon points="${cx},${(cy - h).toFixed(2)} ${(cx + r).toFixed(2)},${(cy + h * 0.7).toFixed(2)} ${(cx - r).toFixed(2)},${(cy + h * 0.7).toFixed(2)}"/>`;
}

function chevron(y) {
  return `<polyline points="9,${y + 6} 20,${y} 31,${y + 6}" fill="none" stroke="currentColor" stroke-width="3.2" stroke-linejoin="round"/>`;
}

// `n` copies of `shape(cx, cy, r)` in one or two rows, centred.
function row(n, shape, r) {
  if (n <= 3) {
    const gap = r * 2.2;
    const x0 = VIEW / 2 - ((n - 1) * gap) / 2;
    return Array.from({ length: n }, (_, i) => shape(x0 + i * gap, VIEW / 2, r)).join("");
  }
  const top = Math.ceil(n / 2);
  const gap = r * 2.1;
  const line = (count, y) => {
    const x0 = VIEW / 2 - ((count - 1) * gap) / 2;
    return Array.from({ length: count }, (_, i) => shape(x0 + i * gap, y, r)).join("");
  };
  return line(top, VIEW / 2 - r * 1.05) + line(n - top, VIEW / 2 + r * 1.05);
}

const EYE =
  '<path d="M5 20 Q20 6 35 20 Q20 34 5 20 Z" fill="none" stroke="currentColor" stroke-width="2.4"/><circle cx="20" cy="20" r="5"/>';
const FLAG =
  '<line x1="11" y1="6" x2="11" y2="35" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/><path d="M12 7 L32 13 L12 20 Z"/>';

const DRAWINGS = {
  "5G": () => row(5, star, 5.2),
  "4G": () => row(4, star, 6),
  "3G": () => row(3, star, 5.6),
  "2G": () => row(2, star, 7),
  "1G": () => row(1, star, 10),
  CO: () => row(3, sun, 5.6),
  LC: () => row(2, sun, 7.5),
  MJ: () => row(1, sun, 11),
  CP: () => row(3, triangle, 5),
  "1L": () => row(2, triangle, 6.5),
  "2L": () => row(1, triangle, 9),
  SG: () => chevron(8) + chevron(16) + chevron(24),
  PV: () => chevron(16),
  SP: () => EYE,
  FL: () => FLAG,
};

// The SVG of the insignia of rank `code` ("5G", "SP", …), decorative (the square carries the
// rank's name for screen readers); an empty string for an unknown code.
export function insignia(code) {
  const draw = DRAWINGS[code];
  if (!draw) return "";
  return `<svg class="insignia" viewBox="0 0 ${VIEW} ${VIEW}" aria-hidden="true" focusable="false" fill="currentColor">${draw()}</svg>`;
}

// Every rank code that has an insignia.
export const INSIGNIA_CODES = Object.keys(DRAWINGS);
