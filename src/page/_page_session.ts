/**
 * The inspector page's cache session: a bar a step of the share read from
 * cache, each miss with its cause, changed part and owner, and what the
 * misses cost per owner, from a cache ledger's summary.
 *
 * @module
 */

import type { LedgerSummary, SessionRow } from "../adapters/cache_report.ts";
import { escapeHtml } from "./_escape_html.ts";

/** The session's CSS: constant text, like the rest of the page's. */
export const SESSION_STYLE = `
ol.session { list-style: none; margin: 0; padding: 0; font: 12px/1.5 ui-monospace, Menlo, Consolas, monospace; }
ol.session li { display: grid; grid-template-columns: 3em 8em 160px 1fr; gap: 8px; align-items: center; padding: 2px 0; }
ol.session .share { height: 10px; border-radius: 3px; background: #f2d7d5; overflow: hidden; }
ol.session .share > span { display: block; height: 100%; background: #2e7d32; }
ol.session li[data-cause] .why { color: #c62828; }
table.session-owners { border-collapse: collapse; font-size: 12px; }
table.session-owners td, table.session-owners th { padding: 2px 8px; text-align: right; border-bottom: 1px solid var(--line); }
table.session-owners td:first-child, table.session-owners th:first-child { text-align: left; }
`;

const number = (n: number) => (Number.isFinite(n) ? n : 0);

/** The share of a step's input read from cache, 0 to 100. */
function readShare(row: SessionRow): number {
  const input = number(row.read) + number(row.written) + number(row.uncached);
  return input === 0 ? 0 : Math.round(number(row.read) / input * 1000) / 10;
}

function why(row: SessionRow): string {
  if (row.cause === undefined) return "read as planned";
  let text = String(row.cause);
  if (row.part !== undefined) {
    text += `: ${row.part} (${row.owner ?? "the root registry"})`;
  }
  text += `, ${number(row.invalidated)} tokens written instead of read`;
  if (row.cost !== undefined) text += `, $${number(row.cost).toFixed(4)}`;
  return text;
}

/** The session section of the page; every string in it escaped. */
export function sessionHtml(summary: LedgerSummary): string {
  const rows = summary.rows.map((row) => {
    const share = readShare(row);
    const cause = row.cause === undefined
      ? ""
      : ` data-cause="${escapeHtml(String(row.cause))}"`;
    const owner = row.owner === undefined
      ? ""
      : ` data-owner="${escapeHtml(String(row.owner))}"`;
    return `<li data-step="${number(row.step)}"${cause}${owner}>` +
      `<span>${number(row.step)}</span><span>${
        escapeHtml(String(row.agent))
      }</span>` +
      `<span class="share" title="${share}% read from cache"><span style="width:${share}%"></span></span>` +
      `<span class="why">${
        escapeHtml(`${share}% read · ${why(row)}`)
      }</span></li>`;
  }).join("");
  const owners = Object.entries(summary.owners)
    .sort(([, a], [, b]) => b.tokens - a.tokens)
    .map(([owner, t]) =>
      `<tr data-owner="${escapeHtml(owner)}"><td>${
        escapeHtml(owner === "" ? "(root registry)" : owner)
      }</td>` +
      `<td>${number(t.misses)}</td><td>${number(t.tokens)}</td><td>$${
        number(t.cost).toFixed(4)
      }</td></tr>`
    ).join("");
  const causes = Object.entries(summary.causes)
    .map(([cause, t]) => `${cause} ${t?.misses ?? 0}`).join(", ");
  const { expected, read } = summary.tokens;
  const note = `${summary.steps} steps` +
    (summary.dropped > 0 ? ` (the first ${summary.dropped} not shown)` : "") +
    ` · ${read} tokens read from cache, ${expected} expected` +
    (causes === "" ? " · no miss" : ` · misses: ${causes}`);
  return `<section id="session"><h2>Cache session</h2><p class="note">${
    escapeHtml(note)
  }</p><ol class="session">${rows}</ol><h2>Misses per owner · tokens written again · cost</h2>${
    owners === ""
      ? `<p class="note">No owner's change missed the cache.</p>`
      : `<table class="session-owners"><thead><tr><th>owner</th><th>misses</th><th>tokens</th><th>cost</th></tr></thead><tbody>${owners}</tbody></table>`
  }</section>`;
}

/** The summary of a ledger, or a summary as given; anything else is undefined. */
export function sessionOf(session: unknown): LedgerSummary | undefined {
  if (typeof session !== "object" || session === null) return undefined;
  const summary =
    typeof (session as { summary?: unknown }).summary === "function"
      ? (session as { summary(): unknown }).summary()
      : session;
  const s = summary as Partial<LedgerSummary> | null;
  if (
    typeof s !== "object" || s === null || !Array.isArray(s.rows) ||
    typeof s.owners !== "object" || s.owners === null ||
    typeof s.tokens !== "object" || s.tokens === null
  ) return undefined;
  return {
    causes: {},
    dropped: 0,
    steps: s.rows.length,
    ...s,
  } as LedgerSummary;
}
