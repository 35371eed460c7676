// Fingerprints and pins: toolFingerprint() is the SHA-256 of a tool's
// canonical JSON; a pinned tool whose fingerprint changed rejects the step
// with tool-changed (or goes to onToolChanged); checkPrompt reports tools
// without a pin when pins are configured.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fc from "fast-check";
import {
  PromptError,
  SystemPrompt,
  toolFingerprint,
  type ToolSchema,
} from "../mod.ts";
import { checkPrompt } from "../inspect.ts";

/** JSON with sorted keys, written independently of the library's. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value).sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) =>
        `${JSON.stringify(key)}:${
          sortedJson((value as Record<string, unknown>)[key])
        }`
      );
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}
const sha256 = (text: string) =>
  createHash("sha256").update(text, "utf8").digest("hex");

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.constantFrom("é", "日本語", "😀", "\u{10ffff}", "\ud83d", "\u0000"),
);
const json = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(text, tie("value"), { maxKeys: 4 }),
  ),
}));
const tool = fc.record({
  name: text,
  description: text,
  parameters: fc.dictionary(text, json.value, { maxKeys: 5 }),
  deferLoading: fc.boolean(),
}, { requiredKeys: ["name", "description", "parameters"] });

const BASH: ToolSchema = {
  name: "bash",
  description: "Runs a command.",
  parameters: { type: "object", properties: { command: { type: "string" } } },
};
const PIN = toolFingerprint(BASH);

async function rejection(step: Promise<unknown>): Promise<PromptError> {
  try {
    await step;
  } catch (error) {
    assert.ok(error instanceof PromptError, String(error));
    return error;
  }
  assert.fail("the step did not reject");
}

describe("toolFingerprint()", () => {
  it("is the SHA-256 of the sorted-key JSON, non-ASCII and surrogate pairs included", () => {
    fc.assert(
      fc.property(tool, (t) => {
        const expected = sha256(sortedJson(t));
        assert.equal(toolFingerprint(t as ToolSchema), expected);
      }),
      { numRuns: 2000, seed: 20261202 },
    );
  });

  it("ignores key order, leaves out functions, and sees any other change", () => {
    const reordered = {
      parameters: {
        properties: { command: { type: "string" } },
        type: "object",
      },
      description: BASH.description,
      name: "bash",
      execute: () => 1,
    };
    assert.equal(toolFingerprint(reordered), PIN);
    assert.notEqual(toolFingerprint({ ...BASH, deferLoading: true }), PIN);
    assert.notEqual(
      toolFingerprint({ ...BASH, description: "Runs a command" }),
      PIN,
    );
    assert.equal(
      sha256(""),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });

  it("of the registry's copy equals the fingerprint of the tool it was made from", async () => {
    const prompt = new SystemPrompt();
    prompt.tools(() => [BASH]);
    assert.equal(toolFingerprint((await prompt.assemble()).tools[0]!), PIN);
  });
});

describe("toolPins", () => {
  it("rejects a step whose pinned tool changed with tool-changed, in assemble() and render()", async () => {
    let current = BASH;
    const prompt = new SystemPrompt({ toolPins: { bash: PIN } });
    prompt.scope("shell").tools(() => [current]);
    await prompt.assemble();
    await prompt.render();
    current = { ...BASH, description: "Runs any command, no questions asked." };
    for (
      const step of [
        () => prompt.assemble(),
        () => prompt.render(),
        () => prompt.render(),
      ]
    ) {
      const error = await rejection(step());
      assert.equal(error.code, "tool-changed");
      assert.equal(error.tool, "bash");
      assert.equal(error.owner, "shell");
      assert.equal(error.pinned, PIN);
      assert.equal(error.fingerprint, toolFingerprint(current));
      assert.equal(
        error.message,
        `Cannot list tool "bash" of "shell": it changed: its fingerprint is ${error.fingerprint}, its pin ${PIN}`,
      );
      assert.equal(error.toJSON().pinned, PIN);
    }
    current = BASH;
    assert.equal(
      (await prompt.render()).tools[0]!.description,
      BASH.description,
    );
  });

  it("sees a pinned schema edited in place", async () => {
    const schema = structuredClone(BASH.parameters) as Record<string, unknown>;
    const prompt = new SystemPrompt({ toolPins: { bash: PIN } });
    prompt.tools(() => [{ ...BASH, parameters: schema }]);
    await prompt.render();
    schema.required = ["command"];
    assert.equal((await rejection(prompt.render())).code, "tool-changed");
  });

  it("does not check an unpinned tool, and computes a fingerprint only for a pinned tool whose copy changed", async () => {
    // A host field with toJSON is kept as given, and read by the fingerprint.
    let reads = 0;
    const meta = () => ({
      toJSON: () => {
        reads++;
        return "meta";
      },
    });
    const pinned = { ...BASH, meta: meta() };
    const free = {
      name: "grep",
      description: "",
      parameters: {},
      meta: meta(),
    };
    const pin = toolFingerprint(pinned);
    reads = 0;
    let current = pinned;
    const prompt = new SystemPrompt({ toolPins: { bash: pin } });
    prompt.tools(() => [current, free]);
    const step = await prompt.render();
    assert.equal(reads, 1);
    assert.equal(await prompt.render(), step);
    await prompt.assemble();
    assert.equal(reads, 1);
    // A new copy (another host object, the same JSON) is fingerprinted again.
    current = { ...pinned, meta: meta() };
    await prompt.render();
    assert.equal(reads, 2);
  });

  it("goes to onToolChanged once per changed copy, and the step goes on", async () => {
    const errors: PromptError[] = [];
    let current = BASH;
    const prompt = new SystemPrompt({
      toolPins: { bash: PIN },
      onToolChanged: (e) => void errors.push(e),
    });
    prompt.scope("shell").tools(() => [current]);
    await prompt.render();
    current = { ...BASH, description: "Changed." };
    assert.equal((await prompt.render()).tools[0]!.description, "Changed.");
    await prompt.render();
    await prompt.assemble();
    assert.deepEqual(errors.map((e) => [e.code, e.tool, e.owner]), [[
      "tool-changed",
      "bash",
      "shell",
    ]]);
  });

  it("applies a layer's pins to its assemblies and its descendants', the nearer layer winning", async () => {
    const changed = { ...BASH, description: "Changed." };
    const prompt = new SystemPrompt({ toolPins: { bash: PIN } });
    prompt.tools(() => [changed]);
    prompt.layer("main", { toolPins: { bash: toolFingerprint(changed) } });
    prompt.layer("sub", { parent: "main" });
    prompt.layer("strict", { parent: "main", toolPins: { bash: PIN } });
    assert.equal((await rejection(prompt.assemble())).code, "tool-changed");
    await prompt.assemble({}, { layer: "main" });
    await prompt.render({}, { layer: "sub" });
    const error = await rejection(prompt.render({}, { layer: "strict" }));
    assert.equal(error.code, "tool-changed");
  });

  it("refuses pins that are not an object of 64 hex characters with invalid-option", () => {
    for (
      const toolPins of [
        [],
        null,
        "x",
        7,
        { bash: "abc" },
        { bash: PIN + "0" },
        { bash: 1 },
        { bash: "g".repeat(64) },
      ]
    ) {
      assert.throws(() => new SystemPrompt({ toolPins: toolPins as never }), {
        code: "invalid-option",
      });
      assert.throws(
        () => new SystemPrompt().layer("x", { toolPins: toolPins as never }),
        { code: "invalid-option", layer: "x" },
      );
    }
    assert.throws(
      () => new SystemPrompt({ onToolChanged: 1 as never }),
      TypeError,
    );
    new SystemPrompt({ toolPins: { bash: PIN.toUpperCase() } });
  });

  it("checkPrompt reports tools without a pin when pins are configured", async () => {
    const prompt = new SystemPrompt({ toolPins: { bash: PIN } });
    prompt.scope("shell").tools(() => [BASH]);
    prompt.scope("mcp").tools(
      () => [{
        name: "search",
        description: "Search the web.",
        parameters: {},
      }],
    );
    const found = (await checkPrompt(prompt)).filter((d) =>
      d.code === "unpinned-tool"
    );
    assert.deepEqual(found.map((d) => [d.severity, d.tool, d.owner]), [[
      "warning",
      "search",
      "mcp",
    ]]);
    const unpinned = new SystemPrompt();
    unpinned.tools(() => [BASH]);
    assert.deepEqual(
      (await checkPrompt(unpinned)).filter((d) => d.code === "unpinned-tool"),
      [],
    );
  });
});
