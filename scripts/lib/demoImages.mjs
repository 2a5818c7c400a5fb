// The demo's images, drawn from SVG by sharp (no download, no randomness): a bar chart for a question
// about a figure, and "generated" images for text-to-image pairs and a ranking of four. Written as PNG
// into resources/demo/images/ and referred to by path from resources/demo/items.jsonl.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const svg = (w, h, body, bg = '#ffffff') =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="${bg}"/>${body}</svg>`;

function barChart() {
  const bars = [['Apples', 42, '#4e79a7'], ['Pears', 35, '#f28e2b'], ['Plums', 18, '#59a14f'], ['Figs', 27, '#b07aa1']];
  let body = '<text x="40" y="44" font-family="DejaVu Sans, sans-serif" font-size="24" font-weight="bold" fill="#222">Fruit sold in March (crates)</text>';
  body += '<line x1="80" y1="360" x2="600" y2="360" stroke="#444" stroke-width="2"/><line x1="80" y1="80" x2="80" y2="360" stroke="#444" stroke-width="2"/>';
  for (const tick of [0, 10, 20, 30, 40, 50]) {
    const y = 360 - tick * 5.4;
    body += `<line x1="74" y1="${y}" x2="600" y2="${y}" stroke="#ddd" stroke-width="1"/><text x="66" y="${y + 5}" text-anchor="end" font-family="DejaVu Sans, sans-serif" font-size="14" fill="#444">${tick}</text>`;
  }
  bars.forEach(([name, value, colour], i) => {
    const x = 110 + i * 125;
    const h = value * 5.4;
    body += `<rect x="${x}" y="${360 - h}" width="80" height="${h}" fill="${colour}"/>`;
    body += `<text x="${x + 40}" y="384" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="16" fill="#222">${name}</text>`;
  });
  return svg(640, 400, body);
}

const star = (cx, cy, r, fill) => {
  const points = Array.from({ length: 10 }, (_, k) => {
    const a = -Math.PI / 2 + (k * Math.PI) / 5;
    const rr = k % 2 ? r * 0.45 : r;
    return `${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`;
  });
  return `<polygon points="${points.join(' ')}" fill="${fill}"/>`;
};

/** name → SVG text. */
export const DEMO_IMAGES = {
  'bar-chart.png': barChart(),
  // "A red circle above a blue square": right, and with the colours swapped.
  't2i-circle-a.png': svg(512, 512, '<circle cx="256" cy="150" r="90" fill="#d62728"/><rect x="166" y="290" width="180" height="180" fill="#1f77b4"/>'),
  't2i-circle-b.png': svg(512, 512, '<circle cx="256" cy="150" r="90" fill="#1f77b4"/><rect x="166" y="290" width="180" height="180" fill="#d62728"/>'),
  // "Three yellow stars in a row on a night sky": three, and four (one too many) with a smeared one.
  't2i-stars-a.png': svg(512, 384, [100, 256, 412].map((x) => star(x, 192, 60, '#f5c518')).join(''), '#14213d'),
  't2i-stars-b.png': svg(512, 384, [70, 190, 310].map((x) => star(x, 192, 52, '#f5c518')).join('') + star(440, 200, 50, '#f5c518') + '<ellipse cx="440" cy="200" rx="70" ry="18" fill="#14213d" opacity="0.7"/>', '#14213d'),
  // "A green triangle inside a circle": four candidates to rank.
  't2i-tri-1.png': svg(384, 384, '<circle cx="192" cy="192" r="150" fill="none" stroke="#333" stroke-width="8"/><polygon points="192,80 300,260 84,260" fill="#2ca02c"/>'),
  't2i-tri-2.png': svg(384, 384, '<circle cx="192" cy="192" r="150" fill="none" stroke="#333" stroke-width="8"/><polygon points="192,20 370,330 14,330" fill="#2ca02c"/>'),
  't2i-tri-3.png': svg(384, 384, '<polygon points="192,80 300,260 84,260" fill="#2ca02c"/>'),
  't2i-tri-4.png': svg(384, 384, '<circle cx="192" cy="192" r="150" fill="none" stroke="#333" stroke-width="8"/><rect x="112" y="112" width="160" height="160" fill="#2ca02c"/>'),
};

export async function writeDemoImages(dir) {
  mkdirSync(join(dir, 'images'), { recursive: true });
  for (const [name, text] of Object.entries(DEMO_IMAGES)) {
    // Fixed PNG settings, so the same SVG always gives the same bytes (and the same sha256).
    await sharp(Buffer.from(text)).png({ compressionLevel: 9, adaptiveFiltering: false }).toFile(join(dir, 'images', name));
  }
}
