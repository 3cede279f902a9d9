// A hand-written SVG bar chart of the judged targets (pure): one bar per target, its length the
// share of the allowance used (the bound is the line at 1), labelled with the figure itself.

import { formatBound, formatFigure } from './targets.mjs';

const WIDTH = 1200;
const LABEL_WIDTH = 400;
const BAR_AREA = 430;
const ROW_HEIGHT = 34;
const TOP = 60;
/** Bars beyond this share are clipped (and say so); the figure is still printed. */
const MAX_SHARE = 4;
const PASS_COLOUR = '#2e8b57';
const FAIL_COLOUR = '#c0392b';
const NOT_RUN_COLOUR = '#999999';

function escapeXml(text) {
  return String(text).replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]);
}

export function targetsChart(judged, title) {
  const scale = BAR_AREA / MAX_SHARE;
  const height = TOP + judged.length * ROW_HEIGHT + 40;
  const boundX = LABEL_WIDTH + scale;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="13">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="10" y="22" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="10" y="42" fill="#555555">Bar: share of the target's allowance used (line = the target; shorter passes). Median of the rounds.</text>`,
  ];
  judged.forEach((target, i) => {
    const y = TOP + i * ROW_HEIGHT;
    const colour = target.verdict === 'pass' ? PASS_COLOUR : target.verdict === 'fail' ? FAIL_COLOUR : NOT_RUN_COLOUR;
    const share = target.used ?? 0;
    const clipped = share > MAX_SHARE;
    const barWidth = Math.max(1, Math.min(share, MAX_SHARE) * scale);
    const note = target.used === null ? 'not run' : `${formatFigure(target.value, target.unit)} (target ${formatBound(target)})${clipped ? ' ▶' : ''}`;
    parts.push(
      `<text x="10" y="${y + 18}">${escapeXml(target.label)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y + 5}" width="${barWidth.toFixed(1)}" height="${ROW_HEIGHT - 12}" fill="${colour}"/>`,
      `<text x="${(LABEL_WIDTH + barWidth + 6).toFixed(1)}" y="${y + 18}" fill="#222222">${escapeXml(note)}</text>`,
    );
  });
  const bottom = TOP + judged.length * ROW_HEIGHT;
  parts.push(
    `<line x1="${boundX}" y1="${TOP - 4}" x2="${boundX}" y2="${bottom + 4}" stroke="#000000" stroke-dasharray="4 3"/>`,
    `<text x="${boundX - 12}" y="${bottom + 20}">target</text>`,
    '</svg>',
  );
  return `${parts.join('\n')}\n`;
}
