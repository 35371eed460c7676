/**
 * `inspectorPage`: one or two steps' assemblies as a self-contained HTML
 * page that shows who owns each span of the prompt. Built on the public
 * entry points and the library's message grammar.
 *
 * @module
 */

import { unreadable } from "../core/_messages.ts";
import { optionError, type OptionFault } from "../inspect/_options.ts";
import type { PromptAssembly } from "../../mod.ts";
import {
  comparePrompts,
  estimateTokens,
  explainPrompt,
  type PromptComparison,
} from "../../inspect.ts";
import { escapeHtml } from "./_escape_html.ts";
import { PAGE_SCRIPT, PAGE_STYLE } from "./_page_assets.ts";
import { changesHtml, type Removed } from "./_page_changes.ts";
import {
  blockBreakpoints,
  breakpointItems,
  ownerColours,
  ownerRows,
  toolRows,
} from "./_page_sidebar.ts";
import { markChanges, type PageSpan, pageSpans } from "./_page_spans.ts";
import { SESSION_STYLE, sessionHtml, sessionOf } from "./_page_session.ts";
import type { LedgerSummary } from "../adapters/cache_report.ts";
import { type Marker, marker, Owners, textHtml } from "./_page_text.ts";
import type { CachePlan } from "../adapters/plan.ts";
import { planView } from "./_page_plan.ts";

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
   * @default {the plan's, given `plan`; else the ends of the blocks `cacheBlocks(assembly)` marks}
   */
  breakpoints?: readonly InspectorBreakpoint[];
  /**
   * A session from a cache ledger (`ledger.summary()`, or the ledger): the
   * page adds a bar a step of the share read from cache, each miss with
   * its cause and owner, and the cost of the misses per owner.
   */
  session?: LedgerSummary | { summary(): LedgerSummary };
  /**
   * The plan of the request the step was sent with (an adapter's
   * `result.plan`): the page shows the breakpoints it placed (none, when
   * it placed none), and the tokens it counted for the prompt, the tools
   * and each breakpoint instead of counting again.
   */
  plan?: CachePlan;
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

/** The options read once (a getter is not read twice) and checked. */
function checkedOptions(
  options: InspectorPageOptions,
  length: number,
): InspectorPageOptions {
  const fail = (fault: OptionFault) =>
    optionError("build the inspector page", fault);
  if (typeof options !== "object" || options === null) {
    throw fail({ state: "options must be an object", got: options });
  }
  let read: InspectorPageOptions;
  let summary: LedgerSummary | undefined;
  let given: unknown;
  try {
    const { title, breakpoints, previous, session, plan } = options;
    read = { title, previous, breakpoints, plan } as InspectorPageOptions;
    if (Array.isArray(breakpoints)) {
      read.breakpoints = breakpoints.map((breakpoint) => {
        const { offset, label } = (breakpoint ?? {}) as InspectorBreakpoint;
        return label === undefined ? { offset } : { offset, label };
      });
    }
    // A ledger's summary is read once, here: plain data from then on.
    given = session;
    summary = sessionOf(session);
  } catch (error) {
    throw unreadable(error, {
      action: "build the inspector page",
      what: "its options",
    });
  }
  if (given !== undefined && summary === undefined) {
    throw fail({
      state: "session must be a cache ledger or its summary()",
      got: given,
    });
  }
  if (summary !== undefined) read.session = summary;
  const { title, breakpoints } = read;
  if (title !== undefined && typeof title !== "string") {
    throw fail({ state: "title must be a string", got: title });
  }
  if (breakpoints !== undefined && !Array.isArray(breakpoints)) {
    throw fail({ state: "breakpoints must be an array", got: breakpoints });
  }
  breakpoints?.forEach(({ offset }, i) => {
    if (
      typeof offset !== "number" || !Number.isInteger(offset) ||
      offset < 0 || offset > length
    ) {
      throw fail({
        state: `breakpoint ${i} must have an integer offset from 0 to ` +
          `${length} (the prompt's length), got ${String(offset)}`,
      });
    }
  });
  return read;
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
 * @param options The previous step, breakpoints or the request's cache plan, a title.
 * @returns The page, a complete HTML document.
 * @throws {TypeError} If `options` is not an object, `title` not a string or
 * `breakpoints` not an array.
 * @throws {PromptError} `invalid-option` for a breakpoint whose offset is not
 * an integer within the prompt, or a plan of another step (its blocks do
 * not join to this prompt); otherwise as `renderPrompt` does.
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
  const checked = checkedOptions(options, explained.text.length);
  const { title = "System prompt", previous } = checked;
  const plan = checked.plan === undefined ? undefined : planView(checked.plan, {
    text: explained.text,
    tools: explained.tools.length,
  });
  const tools = plan === undefined ? explained.tools : explained.tools.map(
    (tool, i) => ({ ...tool, tokens: plan.toolTokens[i]! }),
  );
  const owners = new Owners();
  const spans = pageSpans(explained);
  const { context, totals } = explained;
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
    const was = pageSpans(before.context);
    for (const part of markChanges(contextSpans, was)) {
      removed.push({ ...part, kind: "context" });
    }
    withContext ||= hasContexts(previous);
  }

  // Colours follow first appearance: prompt, context, then tools.
  const count = (list: PageSpan[], into: number[]) => {
    for (const { kind, owner, tokens } of list) {
      if (kind === "part") into[owners.index(owner)]! += tokens;
    }
  };
  count(spans, owners.prompt);
  count(contextSpans, owners.context);
  for (const { owner, tokens } of tools) {
    owners.tools[owners.index(owner)]! += tokens;
  }
  const breakpoints = checked.breakpoints ?? plan?.breakpoints ??
    blockBreakpoints(assembly);
  const markers: Marker[] = breakpoints.map(({ offset, label }, i) =>
    marker(offset, {
      kind: "breakpoint",
      n: i + 1,
      title: `cache breakpoint ${i + 1} at character ${offset}` +
        (label === undefined ? "" : `: ${label}`),
    })
  );
  const differs = comparison?.offset;
  if (differs !== undefined) {
    markers.push(marker(differs, {
      kind: "difference",
      title: `the texts first differ at character ${differs}: ` +
        "the cached prefix ends here",
    }));
  }
  const contextDiffers = comparison?.context.offset;
  const contextMarkers = contextDiffers === undefined ? [] : [
    marker(contextDiffers, {
      kind: "context-difference",
      title: `the runtime contexts first differ at character ${contextDiffers}`,
    }),
  ];

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
      textHtml(contextSpans, { markers: contextMarkers, owners })
    }</pre></section>`;
  const changes = comparison && changesHtml(comparison, {
    removed,
    spans: [...spans, ...contextSpans],
    withContext,
  });
  const breakSection = comparison?.prefixBreak?.section;
  const session = checked.session as LedgerSummary | undefined;
  const promptTokens = plan?.promptTokens ?? totals.tokens;
  const toolTokens = plan === undefined
    ? totals.toolTokens
    : plan.toolTokens.reduce((sum, n) => sum + n, 0);

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}${session === undefined ? "" : SESSION_STYLE}${
    ownerColours(owners)
  }
</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><p class="totals">${
    escapeHtml(
      `${totals.chars} characters, ~${promptTokens} tokens in ${totals.sections} sections` +
        (explained.dropped.length === 0
          ? ""
          : ` (dropped, empty: ${explained.dropped.join(", ")})`) +
        ` · ${totals.tools} tools, ~${toolTokens} tokens · tokens ${
          plan === undefined
            ? "estimated (estimateTokens)"
            : "as the cache plan counted them"
        }`,
    )
  }</p></header>
<div class="layout">
<main>
${session === undefined ? "" : sessionHtml(session)}${
    changes ?? ""
  }<h2>System prompt</h2>
<pre class="prompt" id="prompt">${
    textHtml(spans, { markers, owners, breakSection })
  }</pre>
${contextHtml}
</main>
<aside>
<section><h2>Span</h2><dl id="details"><dt>hover</dt><dd>a span of the prompt to see its section, item, layer, owner, what it shadows and its tokens</dd></dl></section>
<section><h2>Owners · ~tokens · share</h2><ul class="owners" id="owners">${
    ownerRows(owners)
  }</ul></section>
<section><h2>Cache breakpoints</h2>${
    breakpointItems(breakpoints, {
      text: explained.text,
      toolBreaks: checked.breakpoints === undefined
        ? plan?.toolBreaks
        : undefined,
    })
  }</section>
<section><h2>Tools</h2>${toolRows(tools, owners)}</section>
</aside>
</div>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
