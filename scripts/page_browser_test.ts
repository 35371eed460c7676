// The inspector page in a real browser: Debian's Chromium, headless, driven
// by playwright-core. It loads without console errors or requests, each
// owner's spans hold exactly that owner's text, and hovering a span shows
// its owner. A Deno-only test (it starts a browser), kept out of tests/ so
// the suite there keeps its narrow permissions and runs on Node.js too.
//
// Without /usr/bin/chromium the test task skips this stage with a reason,
// except under CI=1 (set by .ci/run), where the stage is required.
// UPDATE_SCREENSHOT=1 also writes the screenshot to docs/inspector.png.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import {
  type AssembledSection,
  type PromptAssembly,
  renderPrompt,
} from "@dsh/system-prompt";
import {
  explainPrompt,
  type ItemExplanation,
} from "@dsh/system-prompt/inspect";
import { inspectorPage } from "@dsh/system-prompt/page";
import { parseConfig } from "../examples/config.ts";
import { DATED_CONFIG, runDemo, TWO_STEP_TIMES } from "../examples/demo_cli.ts";
import { startAgent } from "../examples/start_agent.ts";
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from "./chromium.ts";
import { toAnthropic } from "@dsh/system-prompt/adapters";
import { MODEL, runCacheSession } from "../examples/cache_session.ts";

const ROOT = new URL("..", import.meta.url);

/** The two steps `deno task demo --two-step` shows, built the same way. */
async function demoSteps(): Promise<[PromptAssembly, PromptAssembly]> {
  const config = parseConfig(
    await readFile(DATED_CONFIG, "utf8"),
    String(DATED_CONFIG),
  );
  const loop = startAgent(config).service("agent-loop")!;
  const [first, second] = TWO_STEP_TIMES;
  return [
    (await loop.step(config.agent, first)).assembly,
    (await loop.step(config.agent, second)).assembly,
  ];
}

/** Each owner's text, in prompt order: parts minus their items, items. */
function ownerTexts(assembly: PromptAssembly): Map<string, string> {
  const { text, sections } = explainPrompt(assembly);
  const texts = new Map<string, string>();
  const add = (owner: string | undefined, from: number, to: number) => {
    const key = owner ?? "";
    texts.set(key, (texts.get(key) ?? "") + text.slice(from, to));
  };
  const walk = (part: ItemExplanation) => {
    let cursor = part.start;
    for (const item of part.items ?? []) {
      add(part.owner, cursor, item.start);
      walk(item);
      cursor = item.end;
    }
    add(part.owner, cursor, part.end);
  };
  sections.forEach(walk);
  return texts;
}

/** What the page shows: each part span's owner and text, in order. */
function spansOf(page: Page, container: string) {
  return page.$$eval(
    `${container} .p`,
    (spans) =>
      spans.map((span) => ({
        owner: span.getAttribute("data-owner") ?? "",
        section: span.getAttribute("data-section"),
        text: span.textContent ?? "",
      })),
  );
}

interface Loaded {
  page: Page;
  problems: string[];
  requests: string[];
  dialogs: string[];
}

const missing = !existsSync(CHROMIUM);
if (missing && !process.env.CI) {
  console.log(
    `skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium); CI requires this test`,
  );
}

describe("the inspector page in headless Chromium", {
  skip: missing && !process.env.CI,
}, () => {
  let browser: Browser;
  let dir: string;

  before(async () => {
    assert.ok(
      !missing,
      `no Chromium at ${CHROMIUM}: CI requires the browser test (.ci/run installs it with apt-get install -y chromium)`,
    );
    dir = await mkdtemp(join(tmpdir(), "inspector-page-"));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS],
    });
  });

  after(async () => {
    await browser?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** Opens a page file, recording console errors, requests and dialogs. */
  async function open(file: string): Promise<Loaded> {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 800 },
    });
    const loaded: Loaded = { page, problems: [], requests: [], dialogs: [] };
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") {
        loaded.problems.push(`${message.type()}: ${message.text()}`);
      }
    });
    page.on("pageerror", (error) => loaded.problems.push(error.message));
    page.on("request", (request) => loaded.requests.push(request.url()));
    page.on("dialog", async (dialog) => {
      loaded.dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    return loaded;
  }

  it("shows the page `deno task demo --two-step --html` writes: no console error, no request, each owner's text, the owner on hover", async () => {
    const file = join(dir, "two-step.html");
    const written: string[] = [];
    const code = await runDemo(["--two-step", "--html", file], {
      readTextFile: (path) => readFile(path, "utf8"),
      writeTextFile: (path, text) => writeFile(path, text),
      out: (text) => void written.push(text),
      err: (text) => assert.fail(text),
      now: () => "2026-11-30T12:00:00Z",
    });
    assert.equal(code, 0);
    assert.equal(
      written.at(-1),
      `inspector page: ${file} (open it in a browser)`,
    );
    const [, step2] = await demoSteps();
    const { page, problems, requests } = await open(file);

    assert.deepEqual(problems, []);
    assert.deepEqual(requests, [pathToFileURL(file).href]);
    assert.equal(await page.textContent("#prompt"), renderPrompt(step2));

    const spans = await spansOf(page, "#prompt");
    const expected = ownerTexts(step2);
    assert.deepEqual(
      [...new Set(spans.map((span) => span.owner))].sort(),
      [...expected.keys()].sort(),
    );
    for (const [owner, text] of expected) {
      assert.equal(
        spans.filter((span) => span.owner === owner).map((span) => span.text)
          .join(""),
        text,
        `the spans of "${owner}"`,
      );
    }

    for (const owner of expected.keys()) {
      const span = page.locator(`#prompt .p[data-owner="${owner}"]`).first();
      await span.hover();
      const details = await page.locator("#details dd").allTextContents();
      assert.ok(details.includes(owner), `hover shows ${owner}: ${details}`);
      assert.match(
        await span.getAttribute("title") ?? "",
        new RegExp(`owner ${owner} ·`),
      );
      const index = await span.getAttribute("data-owner-index");
      assert.equal(
        await page.locator(`#owners li.hl`).getAttribute("data-owner-index"),
        index,
      );
    }

    // Step 2 of the dated persona: the persona changed, nothing else did.
    const changed = await page.$$eval(
      "#prompt .p[data-change]",
      (
        spans,
      ) => [
        ...new Set(spans.map((span) => span.getAttribute("data-section"))),
      ],
    );
    assert.deepEqual(changed, ["agent:persona"]);
    assert.match(
      await page.textContent("#changes") ?? "",
      /Prefix break: The change to section "agent:persona" of "agent-loop" invalidates the provider's prefix cache for the 2 sections \(\d+ characters\) after it/,
    );
    assert.equal(await page.locator("#prompt .mk.diff").count(), 1);
    assert.ok((await page.locator(".mk.bp").count()) >= 1);

    // The README's screenshot: hovering the bash guidance.
    await page.locator('#prompt .p[data-owner="bash"]').first().hover();
    const png = await page.screenshot({ fullPage: true });
    assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
    if (process.env.UPDATE_SCREENSHOT === "1") {
      await writeFile(new URL("docs/inspector.png", ROOT), png);
      console.log(`wrote docs/inspector.png (${png.length} bytes)`);
    }
    await page.close();
  });

  it("shows on hover the layer and the registration a part shadows, and where the runtime context changed", async () => {
    const step = (time: string): PromptAssembly => ({
      sections: [{
        name: "persona",
        order: 0,
        text: "You are the reviewer.",
        owner: "agents",
        layer: "reviewer",
        shadows: { owner: "base" },
      }],
      contexts: [{
        name: "now",
        order: 0,
        text: "It is {{time}}.",
        owner: "clock",
      }],
      tools: [],
      variables: { time },
    });
    const file = join(dir, "layers.html");
    await writeFile(
      file,
      inspectorPage(step("09:05"), { previous: step("09:00") }),
    );
    const { page, problems, requests } = await open(file);
    assert.deepEqual(problems, []);
    assert.deepEqual(requests, [pathToFileURL(file).href]);
    await page.locator('#prompt .p[data-section="persona"]').hover();
    const terms = await page.locator("#details dt").allTextContents();
    const values = await page.locator("#details dd").allTextContents();
    assert.deepEqual(
      Object.fromEntries(terms.map((term, i) => [term, values[i]])),
      {
        section: "persona",
        layer: "reviewer",
        owner: "agents",
        shadows: "base (global)",
        tokens: "~5",
      },
    );
    assert.equal(await page.locator("#prompt .mk.diff").count(), 0);
    assert.equal(await page.locator("#context-text .mk.diff").count(), 1);
    assert.match(
      await page.textContent("#changes") ?? "",
      /The runtime context changed: send it again this step\./,
    );
    await page.close();
  });

  it("shows hostile text as text and the runtime context apart, with its owners", async () => {
    const hostile =
      `</script><script>alert(1)</script><!-- "x" 'y' & <b>bold</b>`;
    const contexts: AssembledSection[] = [
      { name: "now", order: 0, text: "It is {{time}}.", owner: "clock" },
      { name: hostile, order: 1, text: hostile, owner: hostile, literal: true },
    ];
    const assembly: PromptAssembly = {
      sections: [
        {
          name: "persona",
          order: 0,
          text: hostile,
          owner: "agent-loop",
          literal: true,
        },
        {
          name: "tool:bash",
          order: 105,
          text: "Check exit codes.",
          owner: `"><img src=x onerror=alert(2)>`,
        },
      ],
      tools: [],
      variables: { time: "09:00" },
      contexts,
    };
    const file = join(dir, "hostile.html");
    await writeFile(file, inspectorPage(assembly, { title: hostile }));
    const { page, problems, requests, dialogs } = await open(file);

    assert.deepEqual(problems, []);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(requests, [pathToFileURL(file).href]);
    assert.equal(await page.title(), hostile);
    assert.equal(await page.textContent("#prompt"), renderPrompt(assembly));
    assert.equal(await page.locator("#prompt b, img").count(), 0);
    assert.equal(await page.locator("script").count(), 1);
    assert.equal(
      await page.textContent("#context-text"),
      `It is 09:00.\n\n${hostile}`,
    );
    assert.deepEqual(
      (await spansOf(page, "#context-text")).map((
        span,
      ) => [span.owner, span.text]),
      [["clock", "It is 09:00."], [hostile, hostile]],
    );
    const evil = page.locator(`#prompt .p[data-section="tool:bash"]`);
    await evil.hover();
    assert.ok(
      (await page.locator("#details dd").allTextContents()).includes(
        `"><img src=x onerror=alert(2)>`,
      ),
    );
    await page.close();
  });

  it("shows a cache session from a ledger: a bar a step of the share read, each miss's cause and owner, the cost per owner, hostile owners as text", async () => {
    const { ledger, last } = await runCacheSession();
    // A hostile owner's edit on top of the example's session.
    const hostile = `"><img src=x onerror=alert(3)><script>alert(4)</script>`;
    const edited = {
      ...last,
      sections: last.sections.map((s) =>
        s.name === "persona" ? { ...s, owner: hostile, text: s.text + "!" } : s
      ),
    };
    // The hostile agent's first step, then its step after the edit.
    const at = Date.UTC(2026, 11, 1, 10);
    for (const [n, step] of [last, edited].entries()) {
      ledger.record(step, {
        request: toAnthropic(step, { model: MODEL }),
        usage: {
          input_tokens: 50,
          cache_creation_input_tokens: 1800,
          cache_read_input_tokens: 0,
        },
        at: at + n * 10_000,
        agent: hostile,
        model: MODEL,
      });
    }
    const file = join(dir, "session.html");
    await writeFile(
      file,
      inspectorPage(edited, { session: ledger, title: "Cache session" }),
    );
    const { page, problems, requests, dialogs } = await open(file);
    assert.deepEqual(problems, []);
    assert.deepEqual(dialogs, []);
    assert.deepEqual(requests, [pathToFileURL(file).href]);
    assert.equal(await page.locator("script").count(), 1);
    assert.equal(await page.locator("#session img").count(), 0);

    const rows = await page.$$eval(
      "#session ol.session li",
      (items) =>
        items.map((li) => {
          const bar = li.querySelector(".share > span")!;
          const track = li.querySelector(".share")!;
          return {
            cause: li.getAttribute("data-cause"),
            owner: li.getAttribute("data-owner"),
            agent: li.children[1]!.textContent,
            share: bar.getBoundingClientRect().width /
              track.getBoundingClientRect().width,
            text: li.querySelector(".why")!.textContent ?? "",
          };
        }),
    );
    assert.equal(rows.length, 22);
    const { rows: data } = ledger.summary();
    rows.forEach((row, i) => {
      const r = data[i]!;
      const share = r.read / (r.read + r.written + r.uncached);
      assert.ok(
        Math.abs(row.share - share) < 0.02,
        `step ${i + 1}: ${row.share} vs ${share}`,
      );
      assert.equal(row.cause, r.cause ?? null);
    });
    assert.deepEqual(
      [rows[10]!.cause, rows[10]!.owner],
      ["prefix-changed", "mcp:docs"],
    );
    assert.match(rows[6]!.text, /ttl-expired/);
    assert.deepEqual([rows[21]!.owner, rows[21]!.agent], [hostile, hostile]);
    assert.match(rows[21]!.text, /persona/);
    const owners = await page.$$eval(
      "table.session-owners tbody tr",
      (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)),
    );
    assert.deepEqual(
      owners.map((row) => row[0]).sort(),
      [hostile, "mcp:docs", "notes"].sort(),
    );
    assert.ok(owners.every((row) => /^\$\d+\.\d{4}$/.test(row[3] ?? "")));
    await page.close();
  });
});
