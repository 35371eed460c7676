// inspectorPage() as a string: the page shows exactly the rendered prompt,
// every span with its owner, escapes every text it did not write, and
// needs nothing from the network. scripts/page_browser_test.ts loads it in
// Chromium.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type AssembledSection,
  type PromptAssembly,
  renderPrompt,
  SystemPrompt,
} from "@dsh/system-prompt";
import {
  cacheBlocks,
  comparePrompts,
  explainPrompt,
} from "@dsh/system-prompt/inspect";
import { inspectorPage } from "@dsh/system-prompt/page";

const ENTITIES: Record<string, string> = {
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
  "&#13;": "\r",
  "&amp;": "&",
};

/** The text a browser shows for the `<pre id="…">` of the page. */
function preText(html: string, id: string): string {
  const match = new RegExp(
    `<pre class="prompt" id="${id}">\\n([\\s\\S]*?)</pre>`,
  )
    .exec(html);
  assert.ok(match, `no <pre id="${id}">`);
  return match[1]!.replace(/<[^>]*>/g, "").replace(
    /&(lt|gt|quot|#39|#13|amp);/g,
    (entity) => ENTITIES[entity]!,
  );
}

const unescape = (text: string) =>
  text.replace(/&(lt|gt|quot|#39|#13|amp);/g, (entity) => ENTITIES[entity]!);

/** Every part span: its attributes and its text, in page order. */
function parts(html: string): {
  part: string;
  owner?: string;
  section: string;
  item?: string;
  layer?: string;
  change?: string;
  text: string;
}[] {
  return [...html.matchAll(/<span class="p [^"]*"([^>]*)>([^<]*)<\/span>/g)]
    .map(([, attributes, text]) => {
      const field = (name: string) => {
        const value = new RegExp(` data-${name}="([^"]*)"`).exec(attributes!)
          ?.[1];
        return value === undefined ? undefined : unescape(value);
      };
      const part: ReturnType<typeof parts>[number] = {
        part: field("part")!,
        section: field("section")!,
        text: unescape(text!),
      };
      for (const name of ["owner", "item", "layer", "change"] as const) {
        const value = field(name);
        if (value !== undefined) part[name] = value;
      }
      return part;
    });
}

/** A registry with a list whose items come from two owners. */
function listPrompt(): SystemPrompt<{ time?: string }> {
  const prompt = new SystemPrompt<{ time?: string }>();
  const loop = prompt.scope("agent-loop");
  loop.section({
    name: "persona",
    order: 0,
    text: "You are m-1.\r\nBe brief.",
  });
  loop.section({
    name: "guidelines",
    order: 50,
    text: "Guidelines:",
    list: { separator: "\n- " },
  });
  prompt.scope("bash").item("guidelines", {
    name: "exit-codes",
    order: 1,
    text: "Check exit codes.",
  });
  prompt.scope("read").item("guidelines", {
    name: "not-a-shell",
    order: 2,
    text: "read is not a shell.",
  });
  prompt.scope("clock").section({
    name: "clock",
    order: 200,
    text: "It is {{time}}.",
    stability: "step",
  });
  prompt.scope("clock").variable("time", (context) => context.time);
  prompt.scope("bash").tools(() => [{
    name: "bash",
    description: "Runs a command.",
    parameters: {},
  }]);
  return prompt;
}

describe("inspectorPage()", () => {
  it("shows exactly the rendered prompt, CRLF included, in the prompt's <pre>", async () => {
    const assembly = await listPrompt().assemble({ time: "09:00" });
    const html = inspectorPage(assembly);
    assert.match(html, /^<!doctype html>\n/);
    assert.equal(preText(html, "prompt"), renderPrompt(assembly));
    assert.match(renderPrompt(assembly), /\r\n/);
  });

  it("gives every section and item its own span, with its owner and its text", async () => {
    const assembly = await listPrompt().assemble({ time: "09:00" });
    const explained = explainPrompt(assembly);
    const found = parts(inspectorPage(assembly));
    for (const section of explained.sections) {
      const own = found.filter((part) => part.section === section.name);
      // The section's spans and its items' spans make up its text, in order.
      assert.equal(
        own.map((part) => part.text).join(""),
        explained.text.slice(section.start, section.end),
      );
      for (const part of own.filter((part) => part.item === undefined)) {
        assert.equal(part.owner, section.owner, section.name);
      }
      for (const item of section.items ?? []) {
        const [span, ...more] = own.filter((part) => part.item === item.name);
        assert.deepEqual(more, []);
        assert.equal(span?.owner, item.owner);
        assert.equal(span?.text, explained.text.slice(item.start, item.end));
      }
    }
    assert.deepEqual(
      [...new Set(found.map((part) => part.owner))].sort(),
      ["agent-loop", "bash", "clock", "read"],
    );
  });

  it("lists each owner with its token share in the sidebar, tools included", async () => {
    const assembly = await listPrompt().assemble({ time: "09:00" });
    const html = inspectorPage(assembly);
    const owners = /<ul class="owners" id="owners">([\s\S]*?)<\/ul>/.exec(
      html,
    )![1]!;
    const names = [...owners.matchAll(/<span class="name">([^<]*)/g)].map((
      [, name],
    ) => name!.trim());
    assert.deepEqual(names.sort(), ["agent-loop", "bash", "clock", "read"]);
    assert.match(owners, /bash <small>tools ~\d+<\/small>/);
    const shares = [...owners.matchAll(/<span class="num">(\d+)%<\/span>/g)]
      .map(([, share]) => Number(share));
    assert.ok(
      Math.abs(shares.reduce((a, b) => a + b, 0) - 100) <= 2,
      `${shares}`,
    );
    assert.match(html, /<table id="tools">.*<td class="name">bash<\/td>/s);
  });

  it("marks the breakpoints cacheBlocks() places, or the ones it is given", async () => {
    const assembly = await listPrompt().assemble({ time: "09:00" });
    const html = inspectorPage(assembly);
    const ends: number[] = [];
    let offset = 0;
    for (const block of cacheBlocks(assembly)) {
      offset += block.separator.length + block.text.length;
      if (block.cache) ends.push(offset);
    }
    assert.deepEqual(ends.length, 1);
    assert.deepEqual(
      [...html.matchAll(/<li data-offset="(\d+)">/g)].map(([, n]) => Number(n)),
      ends,
    );
    // The marker sits where the cached prefix ends.
    const before = html.slice(0, html.indexOf('<span class="mk bp"'));
    const prompt = before.slice(
      before.indexOf('<pre class="prompt" id="prompt">'),
    );
    assert.equal(preText(`${prompt}</pre>`, "prompt").length, ends[0]);

    const given = inspectorPage(assembly, {
      breakpoints: [{ offset: 0, label: "tools only" }, { offset: 12 }],
    });
    assert.deepEqual(
      [...given.matchAll(/<li data-offset="(\d+)">([^<]*)/g)].map((
        [, n, text],
      ) => [Number(n), text]),
      [[0, "at character 0, ~0 tokens before it: tools only"], [
        12,
        "at character 12, ~6 tokens before it",
      ]],
    );
    assert.equal(preText(given, "prompt"), renderPrompt(assembly));
    assert.match(
      inspectorPage(assembly, { breakpoints: [] }),
      /No cache breakpoint\./,
    );
  });

  it("rejects breakpoints outside the prompt and options of the wrong type", async () => {
    const assembly = await listPrompt().assemble({ time: "09:00" });
    const length = renderPrompt(assembly).length;
    assert.throws(
      () => inspectorPage(assembly, { breakpoints: [{ offset: length + 1 }] }),
      {
        name: "PromptError",
        code: "invalid-option",
        message:
          `Cannot build the inspector page: breakpoint 0 must have an integer offset from 0 to ${length} (the prompt's length), got ${
            length + 1
          }`,
      },
    );
    assert.throws(
      () => inspectorPage(assembly, { breakpoints: [{ offset: 1.5 }] }),
      { code: "invalid-option" },
    );
    assert.throws(() => inspectorPage(assembly, null as never), TypeError);
    assert.throws(
      () => inspectorPage(assembly, { title: 1 as never }),
      TypeError,
    );
    assert.throws(
      () => inspectorPage(assembly, { breakpoints: {} as never }),
      TypeError,
    );
  });

  it("escapes hostile text everywhere: </script>, <!--, quotes, ampersands", () => {
    const hostile = `</script><script>alert(1)</script><!-- "x" 'y' & <b>`;
    const owner = `"><img src=x onerror=alert(1)>`;
    const section = {
      name: hostile,
      order: 0,
      text: hostile,
      owner,
      literal: true,
    };
    const assembly: PromptAssembly = {
      sections: [section],
      tools: [{ name: hostile, description: hostile, parameters: {} }],
      variables: {},
    };
    const html = inspectorPage(assembly, {
      title: hostile,
      breakpoints: [{ offset: 3, label: hostile }],
    });
    assert.equal(html.split("<script").length, 2, "only the page's own script");
    assert.equal(html.split("</script>").length, 2);
    assert.ok(!html.includes("<img"));
    assert.ok(!html.includes("<!--"));
    assert.ok(!html.includes("<b>"));
    assert.equal(preText(html, "prompt"), hostile);
    const [first] = parts(html);
    assert.equal(first?.owner, owner);
    assert.equal(first?.section, hostile);
  });

  it("loads nothing: no URL, no src or href, and a policy that forbids fetching", async () => {
    const html = inspectorPage(
      await listPrompt().assemble({ time: "09:00" }),
    );
    assert.doesNotMatch(html, /https?:|\ssrc=|\shref=|@import|url\(/);
    assert.match(
      html,
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">/,
    );
  });

  it("shows the layer of a part when the assembly carries one", () => {
    const section: AssembledSection = {
      name: "persona",
      order: 0,
      text: "You are the reviewer.",
      owner: "agents",
      layer: "reviewer",
    };
    const html = inspectorPage({
      sections: [section],
      tools: [],
      variables: {},
    });
    assert.equal(parts(html)[0]?.layer, "reviewer");
    assert.match(
      html,
      /title="section persona · layer reviewer · owner agents · ~5 tokens"/,
    );
  });

  it("shows the layer and the shadowed owner of parts a layer registered", async () => {
    const prompt = new SystemPrompt();
    prompt.scope("base").section({
      name: "persona",
      order: 0,
      text: "You are an agent.",
    });
    prompt.scope("base").section({
      name: "guidelines",
      order: 1,
      text: "Guidelines:",
      list: {},
    });
    prompt.scope("base").item("guidelines", {
      name: "brief",
      order: 0,
      text: "- Be brief.",
    });
    const reviewer = prompt.layer("reviewer");
    reviewer.scope("agents").section({
      name: "persona",
      order: 0,
      text: "You are the reviewer.",
    });
    reviewer.scope("review").item("guidelines", {
      name: "brief",
      order: 0,
      text: "- Cite lines.",
    });
    const assembly = await prompt.assemble({}, { layer: "reviewer" });
    const explained = explainPrompt(assembly);
    assert.deepEqual(explained.sections[0]?.shadows, { owner: "base" });
    const html = inspectorPage(assembly);
    const [persona, , brief] = parts(html);
    assert.deepEqual(
      [persona?.owner, persona?.layer, brief?.item, brief?.layer],
      ["agents", "reviewer", "brief", "reviewer"],
    );
    assert.match(
      html,
      /data-layer="reviewer" data-shadows="base \(global\)"[^>]* title="section persona · layer reviewer · owner agents · shadows base \(global\) · ~\d+ tokens">You are the reviewer\.</,
    );
    assert.match(
      html,
      /title="section guidelines · item brief · layer reviewer · owner review · shadows base \(global\) · ~\d+ tokens">- Cite lines\.</,
    );
  });

  it("gives the items of a nested list their own spans, named by their path", () => {
    const assembly: PromptAssembly = {
      sections: [{
        name: "memory",
        order: 0,
        text: "Memory:",
        owner: "memory",
        list: {},
        items: [{
          name: "project",
          order: 0,
          text: "Project:",
          owner: "memory",
          list: {},
          items: [{
            name: "tabs",
            order: 0,
            text: "- Use tabs.",
            owner: "agents-md",
          }],
        }],
      }],
      tools: [],
      variables: {},
    };
    const html = inspectorPage(assembly);
    assert.equal(preText(html, "prompt"), renderPrompt(assembly));
    const tabs = parts(html).find((part) => part.item === "tabs");
    assert.deepEqual([tabs?.owner, tabs?.text], ["agents-md", "- Use tabs."]);
    assert.match(
      html,
      /data-lists="project" data-item="tabs"[^>]* title="section memory · item project › tabs · owner agents-md · ~\d+ tokens"/,
    );
  });

  it("shows no runtime context for an assembly without contexts", async () => {
    const html = inspectorPage(
      await listPrompt().assemble({ time: "09:00" }),
    );
    assert.ok(!html.includes('id="context"'));
  });

  it("shows the runtime context apart from the prompt, coloured by owner", () => {
    const contexts: AssembledSection[] = [
      { name: "now", order: 0, text: "It is {{time}}.", owner: "clock" },
      { name: "todos", order: 1, text: "Open: <none>", owner: "todo" },
    ];
    const assembly: PromptAssembly = {
      sections: [{ name: "persona", order: 0, text: "Hi.", owner: "loop" }],
      tools: [],
      variables: { time: "09:00" },
      contexts,
    };
    const html = inspectorPage(assembly);
    assert.equal(preText(html, "prompt"), "Hi.");
    assert.equal(preText(html, "context-text"), "It is 09:00.\n\nOpen: <none>");
    const context = html.slice(html.indexOf('id="context"'));
    assert.deepEqual(
      parts(context).map((part) => [part.owner, part.text]),
      [["clock", "It is 09:00."], ["todo", "Open: <none>"]],
    );
    assert.match(
      html,
      /Sent as a message, outside the cached prefix: 26 characters, ~\d+ tokens in 2 entries\./,
    );
    assert.equal(
      preText(html, "context-text"),
      explainPrompt(assembly).context.text,
    );
  });

  it("marks what changed since the previous step, and where the prefix broke", async () => {
    const prompt = listPrompt();
    prompt.scope("agent-loop").section({
      name: "date",
      order: 10,
      text: "Today: {{time}}.",
    });
    const previous = await prompt.assemble({ time: "09:00" });
    const off = prompt.scope("read").item("guidelines", {
      name: "prefer-edit",
      order: 3,
      text: "Prefer edit.",
    });
    const next = await prompt.assemble({ time: "09:05" });
    const html = inspectorPage(next, { previous });
    // One row a part (a marker may cut a part in two spans).
    const rows = new Map<string, [string, string, string | undefined]>();
    for (const part of parts(html)) {
      const row = rows.get(part.part);
      if (row === undefined) {
        rows.set(part.part, [
          part.item ?? part.section,
          part.text,
          part.change,
        ]);
      } else row[1] += part.text;
    }
    assert.deepEqual([...rows.values()], [
      ["persona", "You are m-1.\r\nBe brief.", undefined],
      ["date", "Today: 09:05.", "changed"],
      ["guidelines", "Guidelines:\n- ", undefined],
      ["exit-codes", "Check exit codes.", undefined],
      ["guidelines", "\n- ", undefined],
      ["not-a-shell", "read is not a shell.", undefined],
      ["guidelines", "\n- ", "added"],
      ["prefer-edit", "Prefer edit.", "added"],
      ["clock", "It is 09:05.", "changed"],
    ]);
    const comparison = comparePrompts(previous, next);
    const marker = html.indexOf('<span class="mk diff"');
    const before = html.slice(
      html.indexOf('<pre class="prompt" id="prompt">'),
      marker,
    );
    assert.equal(
      preText(`${before}</pre>`, "prompt").length,
      comparison.offset,
    );
    assert.match(
      html,
      /The text differs from the previous step at character \d+, first in section &quot;date&quot; of &quot;agent-loop&quot;\./,
    );
    assert.match(html, /Changed variables: time\./);

    off();
    const removed = inspectorPage(await prompt.assemble({ time: "09:05" }), {
      previous: next,
    });
    assert.match(
      removed,
      /<li>item &quot;prefer-edit&quot; of list &quot;guidelines&quot; of &quot;read&quot;<\/li>/,
    );
  });

  it("names the section that broke the cached prefix and outlines it", async () => {
    const prompt = new SystemPrompt<{ time?: string }>();
    prompt.scope("loop").section({
      name: "persona",
      order: 0,
      text: "It is {{time}}.",
    });
    prompt.scope("loop").variable("time", (context) => context.time);
    prompt.scope("bash").section({
      name: "tool:bash",
      order: 105,
      text: "Check exit codes.",
    });
    const html = inspectorPage(await prompt.assemble({ time: "10:00" }), {
      previous: await prompt.assemble({ time: "09:00" }),
    });
    assert.match(
      html,
      /Prefix break: The change to section &quot;persona&quot; of &quot;loop&quot; invalidates the provider&#39;s prefix cache for the 1 section \(19 characters\) after it, which did not change/,
    );
    assert.match(
      html,
      /class="p o0 ch-changed brk"[^>]*data-section="persona"/,
    );
    assert.doesNotMatch(html, /brk"[^>]*data-section="tool:bash"/);
  });

  it("says so when the previous step is identical, and marks nothing", async () => {
    const prompt = listPrompt();
    const html = inspectorPage(await prompt.assemble({ time: "09:00" }), {
      previous: await prompt.assemble({ time: "09:00" }),
    });
    assert.match(html, /Identical to the previous step/);
    assert.ok(!html.includes("data-change="));
    assert.ok(!html.includes('data-marker="difference"'));
  });

  it("reports a runtime context that changed between steps", () => {
    const step = (time: string): PromptAssembly => ({
      sections: [{ name: "persona", order: 0, text: "Hi." }],
      tools: [],
      variables: { time },
      contexts: [{
        name: "now",
        order: 0,
        text: "It is {{time}}.",
        owner: "clock",
      }],
    });
    const html = inspectorPage(step("09:05"), { previous: step("09:00") });
    // The system prompt and tools are the same; the context is not.
    assert.doesNotMatch(html, /Identical to the previous step/);
    assert.match(
      html,
      /Same tools and system prompt as the previous step: the provider&#39;s prompt cache hits in full\./,
    );
    assert.doesNotMatch(html, /Prefix break/);
    assert.match(
      html,
      /The runtime context changed: send it again this step\.<\/p><p>It differs from the previous step&#39;s at character 10, first in context entry &quot;now&quot; of &quot;clock&quot;\./,
    );
    const context = html.slice(html.indexOf('id="context"'));
    assert.equal(parts(context)[0]?.change, "changed");
    assert.match(context, /; changed since the previous step\./);
    // The context's own difference marker, where its texts part.
    const marker = context.indexOf('data-marker="context-difference"');
    assert.ok(marker > 0);
    assert.equal(
      preText(
        `${context.slice(0, context.lastIndexOf("<span", marker))}</pre>`,
        "context-text",
      ).length,
      10,
    );
    assert.ok(!html.includes('data-marker="difference"'));

    const same = inspectorPage(step("09:00"), { previous: step("09:00") });
    assert.match(same, /Identical to the previous step/);
    assert.match(same, /The runtime context is unchanged/);
  });

  it("names the tool that changed: the cache misses from the start", () => {
    const step = (description: string): PromptAssembly => ({
      sections: [{ name: "persona", order: 0, text: "Hi." }],
      tools: [{ name: "bash", description, parameters: {} }],
      variables: {},
    });
    const html = inspectorPage(step("Runs a command."), {
      previous: step("Runs a shell command."),
    });
    assert.match(
      html,
      /Tools changed: bash → bash; first tool &quot;bash&quot;\. The tools come first in the cached prefix: the cache misses in full\./,
    );
    assert.match(html, /Same system prompt as the previous step\./);
    assert.doesNotMatch(html, /Identical/);
  });
});
