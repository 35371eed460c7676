/**
 * The inspector page's sidebar: each owner's token share, the cache
 * breakpoints and the tools; and the owners' colour rules.
 *
 * @module
 */

import type { PromptAssembly } from "../../mod.ts";
import {
  cacheBlocks,
  estimateTokens,
  type ToolExplanation,
} from "../../inspect.ts";
import { escapeHtml } from "./_escape_html.ts";
import { type Owners, ROOT_LABEL } from "./_page_text.ts";

/** A cache breakpoint as the sidebar lists it. */
export interface Breakpoint {
  readonly offset: number;
  readonly label?: string | undefined;
  /** The tokens before it, as a plan counted them (else estimated here). */
  readonly tokens?: number | undefined;
}

/** The default breakpoints: where `cacheBlocks` says one pays. */
export function blockBreakpoints(assembly: PromptAssembly): Breakpoint[] {
  const breakpoints: Breakpoint[] = [];
  let offset = 0;
  for (
    const { separator, text, cache, sections, stability } of cacheBlocks(
      assembly,
    )
  ) {
    offset += separator.length + text.length;
    if (!cache) continue;
    const label = `after ${sections.join(", ")} (${stability})`;
    breakpoints.push({ offset, label });
  }
  return breakpoints;
}

/** A rule per owner: a fixed hue each, grey for the root registry. */
export function ownerColours(owners: Owners): string {
  return owners.entries().map(([owner, i]) => {
    const hue = Math.round((i * 137.508) % 360);
    const [bg, edge] = owner === undefined
      ? ["hsl(0 0% 90%)", "hsl(0 0% 55%)"]
      : [`hsl(${hue} 80% 88%)`, `hsl(${hue} 60% 42%)`];
    return `.o${i} { background: ${bg}; --bg: ${bg}; --edge: ${edge}; }`;
  }).join("\n");
}

function percent(part: number, whole: number): string {
  if (part === 0 || whole === 0) return "0%";
  const share = (100 * part) / whole;
  return share < 1 ? "<1%" : `${Math.round(share)}%`;
}

/** The owners, most prompt tokens first (then most tool tokens). */
export function ownerRows(owners: Owners): string {
  const { prompt, context, tools } = owners;
  const total = prompt.reduce((sum, n) => sum + n, 0);
  return owners.entries()
    .sort(([, a], [, b]) => prompt[b]! - prompt[a]! || tools[b]! - tools[a]!)
    .map(([owner, i]) => {
      const share = percent(prompt[i]!, total);
      const extra = [
        ...(context[i]! > 0 ? [`context ~${context[i]}`] : []),
        ...(tools[i]! > 0 ? [`tools ~${tools[i]}`] : []),
      ].join(", ");
      const label = owner ?? ROOT_LABEL;
      const title = `${label}: ~${prompt[i]} prompt tokens (${share})` +
        (extra === "" ? "" : `; ${extra}`);
      const width = total === 0 ? 0 : ((100 * prompt[i]!) / total).toFixed(1);
      return `<li data-owner-index="${i}" title="${
        escapeHtml(title)
      }"><span class="sw o${i}"></span><span class="name">${escapeHtml(label)}${
        extra === "" ? "" : ` <small>${escapeHtml(extra)}</small>`
      }</span><span class="num">~${
        prompt[i]
      }</span><span class="num">${share}</span><span class="bar o${i}" style="width: ${width}%"></span></li>`;
    }).join("");
}

/** A plan's breakpoint among the tools: after the static run, or after all. */
export interface ToolBreak {
  what: "tools" | "static tools";
  /** The tokens up to it. */
  tokens: number;
}

/**
 * The breakpoints, each with the tokens before it; `toolBreaks`, a plan's
 * breakpoints among the tools.
 */
export function breakpointItems(
  breakpoints: readonly Breakpoint[],
  step: { text: string; toolBreaks: readonly ToolBreak[] | undefined },
): string {
  const { text, toolBreaks = [] } = step;
  const tools = toolBreaks.map(({ what, tokens }) =>
    `<li data-after="${what === "tools" ? "tools" : "static-tools"}">${
      escapeHtml(`after the ${what}, ~${tokens} tokens before it`)
    }</li>`
  ).join("");
  if (breakpoints.length === 0 && tools === "") {
    return `<p class="note">No cache breakpoint.</p>`;
  }
  return `<ol id="breakpoints">${tools}${
    breakpoints.map(({ offset, label, tokens }) =>
      `<li data-offset="${offset}">${
        escapeHtml(
          `at character ${offset}, ~${
            tokens ?? estimateTokens(text.slice(0, offset))
          } tokens before it` + (label === undefined ? "" : `: ${label}`),
        )
      }</li>`
    ).join("")
  }</ol>`;
}

/** The tools, each with its owner's colour. */
export function toolRows(
  tools: readonly ToolExplanation[],
  owners: Owners,
): string {
  if (tools.length === 0) return `<p class="note">No tools.</p>`;
  return `<table id="tools"><tr><th>tool</th><th>owner</th><th class="num">~tokens</th></tr>${
    tools.map(({ name, owner, layer, tokens }) => {
      const i = owners.index(owner);
      const by = (owner ?? ROOT_LABEL) +
        (layer === undefined ? "" : ` (layer ${layer})`);
      return `<tr data-owner-index="${i}"><td class="name">${
        escapeHtml(name)
      }</td><td><span class="sw o${i}" style="display: inline-block"></span> ${
        escapeHtml(by)
      }</td><td class="num">${tokens}</td></tr>`;
    }).join("")
  }</table>`;
}
