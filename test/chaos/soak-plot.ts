/**
 * The soak's curves as a picture: worker RSS, the store (size and runs kept) and the server's latency over
 * time, drawn as SVG and rendered to PNG in Chromium (`/usr/bin/chromium`, as the browser tests use it).
 * Without Chromium only the SVG is written.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

export interface Series {
  name: string;
  points: readonly (readonly [number, number])[];
}

export interface Panel {
  title: string;
  unit: string;
  series: readonly Series[];
}

const WIDTH = 900;
const PANEL_HEIGHT = 220;
const MARGIN = { left: 70, right: 190, top: 34, bottom: 36 };
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
const CHROMIUM = '/usr/bin/chromium';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(value));
  return Math.ceil((value * 1.1) / step) * step;
}

function panelSvg(panel: Panel, top: number, maxT: number): string {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const values = panel.series.flatMap((s) => s.points.map(([, v]) => v)).filter(Number.isFinite);
  const maxV = niceMax(Math.max(0, ...values));
  const x = (t: number) => MARGIN.left + (t / (maxT || 1)) * plotW;
  const y = (v: number) => top + MARGIN.top + plotH - (v / maxV) * plotH;
  const parts = [`<text x="${MARGIN.left}" y="${top + 20}" font-size="15" font-weight="bold">${escape(panel.title)}</text>`];
  for (let i = 0; i <= 4; i++) {
    const v = (maxV * i) / 4;
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    parts.push(`<text x="${MARGIN.left - 6}" y="${y(v) + 4}" font-size="11" text-anchor="end">${Number(v.toPrecision(3))} ${escape(panel.unit)}</text>`);
  }
  for (let i = 0; i <= 5; i++) {
    const t = (maxT * i) / 5;
    parts.push(`<text x="${x(t)}" y="${top + PANEL_HEIGHT - 14}" font-size="11" text-anchor="middle">${(t / 60).toFixed(1)} min</text>`);
  }
  panel.series.forEach((series, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const points = series.points.filter(([, v]) => Number.isFinite(v));
    parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map(([t, v]) => `${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`);
    const legendY = top + MARGIN.top + 14 + i * 18;
    parts.push(`<rect x="${WIDTH - MARGIN.right + 14}" y="${legendY - 9}" width="12" height="3" fill="${colour}"/>`);
    parts.push(`<text x="${WIDTH - MARGIN.right + 32}" y="${legendY - 4}" font-size="12">${escape(series.name)}</text>`);
  });
  return parts.join('\n');
}

/** The panels as one SVG document, stacked, sharing the time axis (seconds). */
export function soakSvg(title: string, panels: readonly Panel[]): string {
  const maxT = Math.max(1, ...panels.flatMap((p) => p.series.flatMap((s) => s.points.map(([t]) => t))));
  const height = 40 + panels.length * PANEL_HEIGHT;
  const body = panels.map((panel, i) => panelSvg(panel, 40 + i * PANEL_HEIGHT, maxT)).join('\n');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="white"/><text x="${MARGIN.left}" y="24" font-size="16">${escape(title)}</text>\n${body}</svg>`
  );
}

/** Writes `<base>.svg` and, with Chromium here, `<base>.png`; returns the files written. */
export async function writeSoakPlot(base: string, title: string, panels: readonly Panel[]): Promise<string[]> {
  const svg = soakSvg(title, panels);
  writeFileSync(`${base}.svg`, svg);
  if (!existsSync(CHROMIUM)) return [`${base}.svg`];
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: 40 + panels.length * PANEL_HEIGHT } });
    await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
    await page.locator('svg').screenshot({ path: `${base}.png` });
  } finally {
    await browser.close();
  }
  return [`${base}.svg`, `${base}.png`];
}
