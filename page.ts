/**
 * See the prompt: an inspector page for one or two steps' assemblies, as a
 * single self-contained HTML file (no network, no dependency). Every span of
 * the rendered prompt is coloured by its owner; hovering one shows its
 * section, item, layer, owner, the registration it shadows and estimated
 * tokens. A sidebar gives each owner's token share, the tools and the cache
 * breakpoints; the runtime context is shown apart; and given the previous
 * step, the page marks what changed, where the cached prefix broke, and
 * whether the runtime context changed.
 *
 * - {@linkcode inspectorPage}: the page, as a string to write to a file.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { SystemPrompt } from "@dsh/system-prompt";
 * import { inspectorPage } from "@dsh/system-prompt/page";
 *
 * const prompt = new SystemPrompt<{ time?: string }>();
 * prompt.scope("agent-loop").section({ name: "persona", order: 0, text: "It is {{time}}." });
 * prompt.scope("clock").variable("time", (context) => context.time);
 * const step1 = await prompt.assemble({ time: "09:00" });
 * const step2 = await prompt.assemble({ time: "09:05" });
 *
 * const html = inspectorPage(step2, { previous: step1, title: "Step 2" });
 * assert.match(html, /<title>Step 2<\/title>/);
 * // The persona changed; the page marks where the texts first differ.
 * assert.match(html, /data-section="persona"[^>]*data-change="changed"/);
 * assert.match(html, /data-marker="difference"/);
 * assert.match(html, /Changed variables: time\./);
 * ```
 *
 * @module
 */

export * from "./src/page/inspector_page.ts";
