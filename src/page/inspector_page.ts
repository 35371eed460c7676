/**
 * `inspectorPage`: one or two steps' assemblies as a self-contained HTML
 * page that shows who owns each span of the prompt. Built only on the
 * public entry points.
 *
 * @module
 */

import { type PromptAssembly, PromptError } from "../../mod.ts";
import {
  cacheBlocks,
  type ChangedPart,
  comparePrompts,
  estimateTokens,
  explainPrompt,
  type PromptComparison,
} from "../../inspect.ts";
import { escapeHtml } from "./_escape_html.ts";
import { PAGE_SCRIPT, PAGE_STYLE } from "./_page_assets.ts";
import {
  markChanges,
  type PageSpan,
  pageSpans,
  type RemovedPart,
  type ShadowedPart,
} from "./_page_spans.ts";

/**
 * A cache breakpoint: the provider caches the prompt up to `offset`.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { InspectorBreakpoint } from "@dsh/system-prompt/page";
 *
 * const breakpoint: InspectorBreakpoint = { offset: 524, label: "after the tool guidance" };
 * assert.equal(breakpoint.offset, 524);
 * ```
 */
export interface InspectorBreakpoint {
  /**
   * Where the cached prefix ends: a UTF-16 offset into the rendered prompt,
   * from 0 to its length.
   */
  offset: number;
  /** Why the breakpoint is there, for people. */
  label?: string;
}

/**
 * Options of {@linkcode inspectorPage}.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import type { InspectorPageOptions } from "@dsh/system-prompt/page";
 *
 * const options: InspectorPageOptions = { title: "Step 2", breakpoints: [] };
 * assert.equal(options.title, "Step 2");
 * ```
 */
export interface InspectorPageOptions {
  /**
   * The step before: the page then marks the parts that changed or were
   * added, lists the removed ones, and shows where the texts first differ
   * and which section broke the cached prefix (`comparePrompts`).
   */
  previous?: PromptAssembly;
  /**
   * The cache breakpoints to show, e.g. from a cache plan.
   * @default {the ends of the blocks `cacheBlocks(assembly)` marks}
   */
  breakpoints?: readonly InspectorBreakpoint[];
  /**
   * The page's title.
   * @default {"System prompt"}
   */
  title?: string;
}

/** Whether an assembly carries runtime-context entries. */
function hasContexts(assembly: PromptAssembly): boolean {
  return Array.isArray(assembly.contexts) && assembly.contexts.length > 0;
}

/** Owners in order of first appearance, each with a colour index. */
class Owners {
  readonly #index = new Map<string | undefined, number>();
  readonly prompt: number[] = [];
  readonly context: number[] = [];
  readonly tools: number[] = [];

  index(owner: string | undefined): number {
    let index = this.#index.get(owner);
    if (index === undefined) {
      index = this.#index.size;
      this.#index.set(owner, index);
      this.prompt.push(0);
      this.context.push(0);
      this.tools.push(0);
    }
    return index;
  }

  entries(): [string | undefined, number][] {
    return [...this.#index];
  }
}

/** A marker at an offset of the text: a breakpoint or the first difference. */
interface Marker {
  offset: number;
  html: string;
}

const ROOT_LABEL = "(none: the root registry)";

function checkedOptions(
  options: InspectorPageOptions,
  length: number,
): InspectorPageOptions {
  if (typeof options !== "object" || options === null) {
    throw new TypeError(
      `Cannot build the inspector page: options must be an object, got ${typeof options}`,
    );
  }
  if (options.title !== undefined && typeof options.title !== "string") {
    throw new TypeError(
      `Cannot build the inspector page: title must be a string, got ${typeof options
        .title}`,
    );
  }
  if (options.breakpoints !== undefined) {
    if (!Array.isArray(options.breakpoints)) {
      throw new TypeError(
        "Cannot build the inspector page: breakpoints must be an array",
      );
    }
    options.breakpoints.forEach((breakpoint, i) => {
      const offset = (breakpoint as Partial<InspectorBreakpoint> | null)
        ?.offset;
      if (
        typeof offset !== "number" || !Number.isInteger(offset) ||
        offset < 0 || offset > length
      ) {
        throw new PromptError(
          "invalid-option",
          `Cannot build the inspector page: breakpoint ${i} must have an ` +
            `integer offset from 0 to ${length} (the prompt's length), got ${
              String(offset)
            }`,
        );
      }
    });
  }
  return options;
}

/** The default breakpoints: where `cacheBlocks` says one pays. */
function blockBreakpoints(assembly: PromptAssembly): InspectorBreakpoint[] {
  const breakpoints: InspectorBreakpoint[] = [];
  let offset = 0;
  for (const block of cacheBlocks(assembly)) {
    offset += block.separator.length + block.text.length;
    if (block.cache) {
      breakpoints.push({
        offset,
        label: `after ${block.sections.join(", ")} (${block.stability})`,
      });
    }
  }
  return breakpoints;
}

function spanHtml(
  span: PageSpan,
  text: string,
  part: number,
  owners: Owners,
  extraClass: string,
): string {
  if (span.kind === "separator") {
    return `<span class="sep">${escapeHtml(text)}</span>`;
  }
  const index = owners.index(span.owner);
  const label = span.owner ?? ROOT_LABEL;
  const lists = span.lists?.join(" › ");
  const shadows = span.shadows === undefined
    ? undefined
    : describeShadowed(span.shadows);
  const title = [
    `section ${span.section}`,
    ...(span.item === undefined
      ? []
      : [`item ${[...(span.lists ?? []), span.item].join(" › ")}`]),
    ...(span.layer === undefined ? [] : [`layer ${span.layer}`]),
    `owner ${label}`,
    ...(shadows === undefined ? [] : [`shadows ${shadows}`]),
    `~${span.tokens} tokens`,
    ...(span.change === undefined ? [] : [span.change]),
  ].join(" · ");
  const attributes: [string, string | undefined][] = [
    ["data-part", String(part)],
    ["data-owner-index", String(index)],
    ["data-owner", span.owner],
    ["data-owner-label", label],
    ["data-section", span.section],
    ["data-lists", lists],
    ["data-item", span.item],
    ["data-layer", span.layer],
    ["data-shadows", shadows],
    ["data-tokens", String(span.tokens)],
    ["data-change", span.change],
    ["title", title],
  ];
  const classes = `p o${index}${
    span.change === undefined ? "" : ` ch-${span.change}`
  }${extraClass}`;
  return `<span class="${classes}"${
    attributes.filter(([, value]) => value !== undefined)
      .map(([name, value]) => ` ${name}="${escapeHtml(value!)}"`).join("")
  }>${escapeHtml(text)}</span>`;
}

/** The spans as HTML, cut where a marker sits inside one. */
function textHtml(
  spans: readonly PageSpan[],
  markers: readonly Marker[],
  owners: Owners,
  breakSection: string | undefined,
): string {
  const sorted = [...markers].sort((a, b) => a.offset - b.offset);
  let html = "";
  let m = 0;
  spans.forEach((span, part) => {
    const extra = span.kind === "part" && span.section === breakSection
      ? " brk"
      : "";
    let position = span.start;
    while (m < sorted.length && sorted[m]!.offset <= position) {
      html += sorted[m++]!.html;
    }
    while (m < sorted.length && sorted[m]!.offset < span.end) {
      const offset = sorted[m]!.offset;
      html += spanHtml(
        span,
        span.text.slice(position - span.start, offset - span.start),
        part,
        owners,
        extra,
      );
      html += sorted[m++]!.html;
      position = offset;
    }
    html += spanHtml(
      span,
      span.text.slice(position - span.start),
      part,
      owners,
      extra,
    );
  });
  while (m < sorted.length) html += sorted[m++]!.html;
  // The parser drops one newline right after <pre>: give it one to drop.
  return `\n${html}`;
}

/** The registration a part shadows: `base (layer "writer")`, `the root registry (global)`. */
function describeShadowed(shadows: ShadowedPart): string {
  return `${shadows.owner ?? "the root registry"} (${
    shadows.layer === undefined ? "global" : `layer ${shadows.layer}`
  })`;
}

function quote(name: string): string {
  return `"${name}"`;
}

/** ` of "owner"` (nothing for the root registry) and ` in layer "l"`. */
function describeOwner(owner: string | undefined, layer?: string): string {
  return (owner === undefined ? "" : ` of ${quote(owner)}`) +
    (layer === undefined ? "" : ` in layer ${quote(layer)}`);
}

/** A changed part, as the library's messages name one. */
function describeChanged(
  kind: "section" | "context entry" | "tool",
  part: ChangedPart,
): string {
  const what = part.list === undefined
    ? `${kind} ${quote(part.name)}`
    : `item ${quote(part.name)} of list ${part.list.map(quote).join(" > ")}`;
  return what + describeOwner(part.owner, part.layer) +
    (part.change === "changed" ? "" : ` (${part.change})`);
}

/** A part only the previous step rendered, in the prompt or the context. */
type Removed = RemovedPart & { kind: "section" | "context entry" };

function comparisonHtml(
  comparison: PromptComparison,
  removed: readonly Removed[],
  spans: readonly PageSpan[],
  withContext: boolean,
): string {
  const lines: string[] = [];
  const { tools, context } = comparison;
  if (comparison.identical) {
    lines.push(
      "Identical to the previous step: the provider's prompt cache hits in full.",
    );
  }
  if (tools.changed) {
    lines.push(
      `Tools changed: ${tools.previous.join(", ") || "none"} → ${
        tools.next.join(", ") || "none"
      }` +
        (tools.firstChanged === undefined
          ? ""
          : `; first ${describeChanged("tool", tools.firstChanged)}`) +
        ". The tools come first in the cached prefix: the cache misses in full.",
    );
  }
  if (!comparison.identical && comparison.sameText) {
    lines.push(
      tools.changed
        ? "Same system prompt as the previous step."
        : "Same tools and system prompt as the previous step: the provider's prompt cache hits in full.",
    );
  } else if (!comparison.sameText) {
    const first = comparison.firstChangedSection;
    const item = comparison.firstChangedItem;
    lines.push(
      `The text differs from the previous step at character ${comparison.offset}` +
        (first === undefined
          ? "."
          : `, first in ${describeChanged("section", first)}` +
            (item === undefined
              ? ""
              : `, ${describeChanged("section", item)}`) +
            "."),
    );
  }
  if (comparison.changedVariables.length > 0) {
    lines.push(`Changed variables: ${comparison.changedVariables.join(", ")}.`);
  }
  if (comparison.prefixBreak !== undefined) {
    lines.push(`Prefix break: ${comparison.prefixBreak.message}.`);
  }
  const changed = spans.filter((span) => span.change === "changed").length;
  const added = spans.filter((span) => span.change === "added").length;
  if (changed + added > 0) {
    lines.push(
      `${changed} span(s) changed (wavy red underline), ${added} added (green underline).`,
    );
  }
  if (context.changed) {
    const entry = context.firstChangedEntry;
    const item = context.firstChangedItem;
    lines.push("The runtime context changed: send it again this step.");
    lines.push(
      `It differs from the previous step's at character ${context.offset}` +
        (entry === undefined
          ? "."
          : `, first in ${describeChanged("context entry", entry)}` +
            (item === undefined
              ? ""
              : `, ${describeChanged("context entry", item)}`) +
            "."),
    );
  } else if (withContext) {
    lines.push("The runtime context is unchanged: no need to send it again.");
  }
  const removedHtml = removed.length === 0
    ? ""
    : `<p>Removed:</p><ul class="plain">${
      removed.map((part) =>
        `<li>${
          escapeHtml(
            part.item === undefined
              ? `${part.kind} "${part.section}"${describeOwner(part.owner)}`
              : `item "${part.item}" of list ${
                [part.section, ...(part.lists ?? [])].map(quote).join(" > ")
              }${describeOwner(part.owner)}`,
          )
        }</li>`
      ).join("")
    }</ul>`;
  return `<section class="changes" id="changes"><h2>Since the previous step</h2>${
    lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")
  }${removedHtml}</section>`;
}

function percent(part: number, whole: number): string {
  if (part === 0 || whole === 0) return "0%";
  const share = (100 * part) / whole;
  return share < 1 ? "<1%" : `${Math.round(share)}%`;
}

/**
 * Builds a self-contained HTML page (no network, no dependency, one file)
 * that shows `assembly`'s rendered prompt with every span coloured by its
 * owner: hovering a span shows its section, item (nested lists' items
 * too), layer, owner, the registration it shadows in its layer chain and
 * its estimated tokens (`estimateTokens`). A sidebar lists the owners with
 * their token share, the tools, and the cache breakpoints; the runtime
 * context (`renderContext`'s text, when the assembly has `contexts`) is
 * shown apart from the prompt. Given the previous step (`options.previous`),
 * the page marks the parts that changed or were added, and shows (as
 * `comparePrompts` finds them) whether the tools changed, where the system
 * prompts first differ, which section broke the cached prefix, and whether
 * the runtime context changed and must be sent again. Every text the page
 * shows is escaped.
 *
 * @param assembly The step to show.
 * @param options The previous step, breakpoints, a title.
 * @returns The page, a complete HTML document.
 * @throws {TypeError} If `options` is not an object, `title` not a string or
 * `breakpoints` not an array.
 * @throws {PromptError} `invalid-option` for a breakpoint whose offset is not
 * an integer within the prompt; otherwise as `renderPrompt` does.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { inspectorPage } from "@dsh/system-prompt/page";
 *
 * const prompt = new SystemPrompt();
 * prompt.scope("agent-loop").section({ name: "persona", order: 0, text: "You are <m-1>." });
 * prompt.scope("bash").section({ name: "tool:bash", order: 105, text: "Check exit codes." });
 * const html = inspectorPage(await prompt.assemble());
 *
 * assert.match(html, /^<!doctype html>/);
 * assert.match(html, /data-owner="bash"[^>]*>Check exit codes\.<\/span>/);
 * assert.match(html, />You are &lt;m-1&gt;\.<\/span>/);
 * ```
 */
export function inspectorPage(
  assembly: PromptAssembly,
  options: InspectorPageOptions = {},
): string {
  const explained = explainPrompt(assembly);
  const { title = "System prompt", previous } = checkedOptions(
    options,
    explained.text.length,
  );
  const owners = new Owners();
  const spans = pageSpans(explained);
  const context = explained.context;
  const showContext = hasContexts(assembly) || context.text !== "";
  const contextSpans = pageSpans(context);

  let comparison: PromptComparison | undefined;
  const removed: Removed[] = [];
  let withContext = showContext;
  if (previous !== undefined) {
    comparison = comparePrompts(previous, assembly);
    const before = explainPrompt(previous);
    for (const part of markChanges(spans, pageSpans(before))) {
      removed.push({ ...part, kind: "section" });
    }
    for (
      const part of markChanges(contextSpans, pageSpans(before.context))
    ) {
      removed.push({ ...part, kind: "context entry" });
    }
    withContext ||= hasContexts(previous);
  }

  // Colours follow first appearance: prompt, context, then tools.
  for (const span of spans) {
    if (span.kind === "part") {
      owners.prompt[owners.index(span.owner)]! += span.tokens;
    }
  }
  for (const span of contextSpans) {
    if (span.kind === "part") {
      owners.context[owners.index(span.owner)]! += span.tokens;
    }
  }
  const tools = explained.tools.map((tool) => {
    owners.tools[owners.index(tool.owner)]! += tool.tokens;
    return { ...tool, index: owners.index(tool.owner) };
  });

  const breakpoints = options.breakpoints ?? blockBreakpoints(assembly);
  const markers: Marker[] = breakpoints.map((breakpoint, i) => ({
    offset: breakpoint.offset,
    html: `<span class="mk bp" data-marker="breakpoint" data-n="${
      i + 1
    }" title="${
      escapeHtml(
        `cache breakpoint ${i + 1} at character ${breakpoint.offset}` +
          (breakpoint.label === undefined ? "" : `: ${breakpoint.label}`),
      )
    }"></span>`,
  }));
  if (comparison?.offset !== undefined) {
    markers.push({
      offset: comparison.offset,
      html: `<span class="mk diff" data-marker="difference" title="${
        escapeHtml(
          `the texts first differ at character ${comparison.offset}: the cached prefix ends here`,
        )
      }"></span>`,
    });
  }
  const contextMarkers: Marker[] = comparison?.context.offset === undefined
    ? []
    : [{
      offset: comparison.context.offset,
      html: `<span class="mk diff" data-marker="context-difference" title="${
        escapeHtml(
          `the runtime contexts first differ at character ${comparison.context.offset}`,
        )
      }"></span>`,
    }];

  const promptTokens = owners.prompt.reduce((sum, n) => sum + n, 0);
  const ownerEntries = owners.entries();
  const colours = ownerEntries.map(([owner, i]) => {
    const hue = owner === undefined ? 0 : Math.round((i * 137.508) % 360);
    const [bg, edge] = owner === undefined
      ? ["hsl(0 0% 90%)", "hsl(0 0% 55%)"]
      : [`hsl(${hue} 80% 88%)`, `hsl(${hue} 60% 42%)`];
    return `.o${i} { background: ${bg}; --bg: ${bg}; --edge: ${edge}; }`;
  }).join("\n");
  const ownerRows = [...ownerEntries]
    .sort(([, a], [, b]) =>
      owners.prompt[b]! - owners.prompt[a]! ||
      owners.tools[b]! - owners.tools[a]!
    )
    .map(([owner, i]) => {
      const share = percent(owners.prompt[i]!, promptTokens);
      const extra = [
        ...(owners.context[i]! > 0 ? [`context ~${owners.context[i]}`] : []),
        ...(owners.tools[i]! > 0 ? [`tools ~${owners.tools[i]}`] : []),
      ].join(", ");
      return `<li data-owner-index="${i}" title="${
        escapeHtml(
          `${owner ?? ROOT_LABEL}: ~${
            owners.prompt[i]
          } prompt tokens (${share})` +
            (extra === "" ? "" : `; ${extra}`),
        )
      }"><span class="sw o${i}"></span><span class="name">${
        escapeHtml(owner ?? ROOT_LABEL)
      }${
        extra === "" ? "" : ` <small>${escapeHtml(extra)}</small>`
      }</span><span class="num">~${
        owners.prompt[i]
      }</span><span class="num">${share}</span><span class="bar o${i}" style="width: ${
        promptTokens === 0
          ? 0
          : ((100 * owners.prompt[i]!) / promptTokens).toFixed(1)
      }%"></span></li>`;
    }).join("");

  const breakpointItems = breakpoints.length === 0
    ? `<p class="note">No cache breakpoint.</p>`
    : `<ol id="breakpoints">${
      breakpoints.map((breakpoint) =>
        `<li data-offset="${breakpoint.offset}">${
          escapeHtml(
            `at character ${breakpoint.offset}, ~${
              estimateTokens(explained.text.slice(0, breakpoint.offset))
            } tokens before it` +
              (breakpoint.label === undefined ? "" : `: ${breakpoint.label}`),
          )
        }</li>`
      ).join("")
    }</ol>`;
  const toolRows = tools.length === 0
    ? `<p class="note">No tools.</p>`
    : `<table id="tools"><tr><th>tool</th><th>owner</th><th class="num">~tokens</th></tr>${
      tools.map((tool) =>
        `<tr data-owner-index="${tool.index}"><td class="name">${
          escapeHtml(tool.name)
        }</td><td><span class="sw o${tool.index}" style="display: inline-block"></span> ${
          escapeHtml(
            (tool.owner ?? ROOT_LABEL) +
              (tool.layer === undefined ? "" : ` (layer ${tool.layer})`),
          )
        }</td><td class="num">${tool.tokens}</td></tr>`
      ).join("")
    }</table>`;
  const { totals } = explained;
  const contextHtml = !showContext
    ? ""
    : `<section id="context"><h2>Runtime context</h2><p class="note">${
      escapeHtml(
        `Sent as a message, outside the cached prefix: ${context.text.length} characters, ~${
          estimateTokens(context.text)
        } tokens in ${context.sections.length} entries` +
          (context.dropped.length === 0
            ? ""
            : ` (dropped, empty: ${context.dropped.join(", ")})`) +
          (comparison === undefined
            ? "."
            : comparison.context.changed
            ? "; changed since the previous step."
            : "; unchanged since the previous step."),
      )
    }</p><pre class="prompt" id="context-text">${
      textHtml(contextSpans, contextMarkers, owners, undefined)
    }</pre></section>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}${colours}
</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><p class="totals">${
    escapeHtml(
      `${totals.chars} characters, ~${totals.tokens} tokens in ${totals.sections} sections` +
        (explained.dropped.length === 0
          ? ""
          : ` (dropped, empty: ${explained.dropped.join(", ")})`) +
        ` · ${totals.tools} tools, ~${totals.toolTokens} tokens · tokens estimated (estimateTokens)`,
    )
  }</p></header>
<div class="layout">
<main>
${
    comparison === undefined ? "" : comparisonHtml(
      comparison,
      removed,
      [...spans, ...contextSpans],
      withContext,
    )
  }<h2>System prompt</h2>
<pre class="prompt" id="prompt">${
    textHtml(spans, markers, owners, comparison?.prefixBreak?.section)
  }</pre>
${contextHtml}
</main>
<aside>
<section><h2>Span</h2><dl id="details"><dt>hover</dt><dd>a span of the prompt to see its section, item, layer, owner, what it shadows and its tokens</dd></dl></section>
<section><h2>Owners · ~tokens · share</h2><ul class="owners" id="owners">${ownerRows}</ul></section>
<section><h2>Cache breakpoints</h2>${breakpointItems}</section>
<section><h2>Tools</h2>${toolRows}</section>
</aside>
</div>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
