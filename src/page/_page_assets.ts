/**
 * The inspector page's style sheet and script: constant text, written into
 * the page as is (no value is ever interpolated into either), so nothing a
 * prompt holds can reach them.
 *
 * @module
 */

/** The page's CSS; the owner colours are added per page as `.oN` rules. */
export const PAGE_STYLE = `
:root { color-scheme: light; --fg: #1d1f23; --muted: #5d6470; --line: #d9dde3; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #f6f7f9; }
header { padding: 14px 20px 10px; background: #fff; border-bottom: 1px solid var(--line); }
h1 { font-size: 18px; margin: 0 0 4px; }
h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 18px 0 8px; }
.totals { margin: 0; color: var(--muted); }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 20px; padding: 0 20px 24px; align-items: start; }
main, aside > section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 16px 14px; margin-top: 16px; }
aside { position: sticky; top: 0; }
pre.prompt { white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; margin: 0; }
.p { border-radius: 3px; box-shadow: inset 0 -2px 0 var(--edge); }
.p.hl { outline: 2px solid var(--edge); }
.sep { color: var(--muted); }
.ch-changed { text-decoration: underline wavy #c62828; text-decoration-thickness: 1px; }
.ch-added { text-decoration: underline #2e7d32; text-decoration-thickness: 2px; }
.brk { box-shadow: inset 0 -2px 0 var(--edge), 0 0 0 2px #c62828; }
.mk { font: 600 11px/1 system-ui, sans-serif; padding: 1px 5px; border-radius: 9px; margin: 0 2px; white-space: nowrap; }
.mk.bp { background: #0b57d0; color: #fff; }
.mk.bp::before { content: "cache breakpoint " attr(data-n); }
.mk.diff { background: #c62828; color: #fff; }
.mk.diff::before { content: "first difference"; }
dl#details { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; margin: 0; min-height: 96px; }
dl#details dt { color: var(--muted); }
dl#details dd { margin: 0; font-family: ui-monospace, Menlo, Consolas, monospace; overflow-wrap: anywhere; }
ul.owners { list-style: none; margin: 0; padding: 0; }
ul.owners li { display: grid; grid-template-columns: 14px 1fr auto auto; gap: 8px; align-items: center; padding: 3px 4px; border-radius: 4px; cursor: default; }
ul.owners li.hl { background: #eef2f7; }
.sw { width: 12px; height: 12px; border-radius: 3px; background: var(--bg); border: 1px solid var(--edge); }
ul.owners .bar { grid-column: 2 / 5; height: 4px; border-radius: 2px; background: var(--edge); }
.name small { font-family: system-ui, sans-serif; color: var(--muted); }
.num { font-variant-numeric: tabular-nums; color: var(--muted); text-align: right; }
.name { overflow-wrap: anywhere; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12.5px; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; padding: 2px 6px 2px 0; vertical-align: top; }
th { color: var(--muted); font-weight: 500; }
ol, ul.plain { margin: 0; padding-left: 20px; }
.note { color: var(--muted); margin: 6px 0; }
.changes p { margin: 4px 0; }
`;

/**
 * The page's script: hovering a span fills the details panel from the
 * span's `data-*` attributes (as text) and highlights its owner's spans and
 * sidebar row; hovering an owner's row highlights its spans.
 */
export const PAGE_SCRIPT = `
"use strict";
(() => {
  const details = document.getElementById("details");
  const FIELDS = [["section", "section"], ["lists", "in item"], ["item", "item"],
    ["layer", "layer"], ["ownerLabel", "owner"], ["shadows", "shadows"],
    ["tokens", "tokens"], ["change", "change"]];
  const highlight = (index) => {
    for (const el of document.querySelectorAll(".hl")) el.classList.remove("hl");
    if (!/^[0-9]+$/.test(index ?? "")) return;
    for (const el of document.querySelectorAll('[data-owner-index="' + index + '"]')) {
      el.classList.add("hl");
    }
  };
  const show = (span) => {
    const rows = [];
    for (const [key, label] of FIELDS) {
      const value = span.dataset[key];
      if (value === undefined || value === "") continue;
      const dt = document.createElement("dt");
      dt.textContent = label;
      const dd = document.createElement("dd");
      dd.textContent = key === "tokens" ? "~" + value : value;
      rows.push(dt, dd);
    }
    details.replaceChildren(...rows);
    highlight(span.dataset.ownerIndex);
  };
  document.addEventListener("mouseover", (event) => {
    const target = event.target instanceof Element
      ? event.target.closest(".p, .owners li")
      : null;
    if (target === null) return;
    if (target.classList.contains("p")) show(target);
    else highlight(target.dataset.ownerIndex);
  });
})();
`;
