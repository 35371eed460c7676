// Every message the library produces, provoked by a real trigger per error
// code (and for the TypeErrors of registration and construction), checked
// against the grammar of docs/errors.md: `Cannot <action> <where>: <what
// was wrong>`, naming every field the error carries. A code of
// PromptErrorCode without a row fails the test, and so does a file of src/
// that builds an error of its own instead of through src/core/_messages.ts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import {
  escapeTemplate,
  type PromptAssembly,
  PromptError,
  renderContext,
  renderPrompt,
  SystemPrompt,
  toolFingerprint,
} from "../mod.ts";
import { cacheBlocks, explainPrompt } from "../inspect.ts";
import {
  cacheAnthropicMessages,
  CacheLedger,
  readUsage,
  toAISDK,
  toAnthropic,
} from "../adapters.ts";
import { mcpTools } from "../mcp.ts";
import { repoRoot } from "./support/repo_root.ts";

type Trigger = () => unknown;

/** A row: the code, what provokes it, and what its message must also say. */
type Row = [code: string, label: string, trigger: Trigger, says?: RegExp];

const tool = (name: string) => ({ name, description: "", parameters: {} });
const one = (text: string, variables = {}): PromptAssembly => ({
  sections: [{ name: "s", order: 0, text, owner: "o" }],
  tools: [],
  variables,
});
const withHandler = (
  edit: (assembly: PromptAssembly) => unknown,
): Promise<unknown> => {
  const prompt = new SystemPrompt();
  prompt.section({ name: "s", order: 0, text: "S" });
  prompt.tools(() => [tool("bash")]);
  prompt.scope("h").on("system-prompt/assemble", function bad(assembly) {
    return edit(assembly) as undefined;
  });
  return prompt.assemble();
};
const revoked = (): never => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy as never;
};
const boom = () => {
  throw new Error("boom");
};

const ROWS: Row[] = [
  [
    "invalid-section",
    "an empty section name",
    () =>
      new SystemPrompt().scope("o").section({ name: "", order: 0, text: "" }),
  ],
  [
    "invalid-section",
    "a NaN order",
    () => new SystemPrompt().section({ name: "s", order: NaN, text: "" }),
  ],
  [
    "invalid-section",
    "a non-string text in an assembly",
    () =>
      renderPrompt(
        { ...one(""), sections: [{ name: "s", order: 0, text: 1 }] } as never,
      ),
  ],
  [
    "invalid-section",
    "an owner that is not a string",
    () =>
      renderPrompt(
        {
          ...one(""),
          sections: [{ name: "s", order: 0, text: "", owner: 5 }],
        } as never,
      ),
    /its owner is 5, not a string/,
  ],
  [
    "invalid-section",
    "a handler's section without a name",
    () => withHandler((a) => void (a.sections[0]!.name = "")),
  ],
  ["duplicate-section", "a live section name", () => {
    const prompt = new SystemPrompt();
    prompt.scope("a").section({ name: "s", order: 0, text: "" });
    prompt.scope("b").section({ name: "s", order: 0, text: "" });
  }, /"a" already added it/],
  [
    "duplicate-section",
    "a handler's duplicate section",
    () => withHandler((a) => void a.sections.push({ ...a.sections[0]! })),
  ],
  [
    "invalid-context",
    "an empty context name",
    () => new SystemPrompt().context({ name: "", order: 0, text: "" }),
  ],
  [
    "invalid-context",
    "a non-string context text",
    () =>
      renderContext(
        { ...one(""), contexts: [{ name: "c", order: 0, text: 1 }] } as never,
      ),
  ],
  ["duplicate-context", "a live context name", () => {
    const prompt = new SystemPrompt();
    prompt.context({ name: "c", order: 0, text: "" });
    prompt.scope("b").context({ name: "c", order: 0, text: "" });
  }],
  [
    "invalid-variable-name",
    "a name a reference cannot spell",
    () => new SystemPrompt().scope("o").variable("1x", () => ""),
  ],
  ["duplicate-variable", "a live variable name", () => {
    const prompt = new SystemPrompt();
    prompt.scope("a").variable("v", () => "");
    prompt.scope("b").variable("v", () => "");
  }],
  [
    "invalid-item",
    "an empty item name",
    () =>
      new SystemPrompt().scope("o").item("l", { name: "", order: 0, text: "" }),
  ],
  [
    "invalid-item",
    "a non-string item text in an assembly",
    () =>
      renderPrompt(
        {
          ...one(""),
          sections: [{
            name: "l",
            order: 0,
            text: "",
            list: {},
            items: [{ name: "i", order: 0, text: 1 }],
          }],
        } as never,
      ),
  ],
  ["duplicate-item", "an item name its list has", () => {
    const prompt = new SystemPrompt();
    prompt.scope("a").item("l", { name: "i", order: 0, text: "" });
    prompt.scope("b").item("l", { name: "i", order: 0, text: "" });
  }],
  ["duplicate-item", "a provided item named as a registered one", () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "l", order: 0, text: "", list: {} });
    prompt.scope("a").item("l", { name: "i", order: 0, text: "" });
    prompt.scope("b").items("l", () => [{ name: "i", order: 1, text: "" }]);
    return prompt.assemble();
  }],
  [
    "invalid-option",
    "maxBreakpoints out of range",
    () => cacheBlocks(one(""), { maxBreakpoints: -1 }),
  ],
  [
    "invalid-option",
    "a toolOrder without the rest entry",
    () => new SystemPrompt({ toolOrder: ["a"] }),
  ],
  [
    "invalid-option",
    "a layer that is its own parent",
    () => new SystemPrompt().layer("sub", { parent: "sub" }),
    /^Cannot add layer "sub": /,
  ],
  ["invalid-option", "a live layer with another parent", () => {
    const prompt = new SystemPrompt();
    prompt.layer("base");
    prompt.layer("sub", { parent: "base" });
    prompt.layer("sub", { parent: "other" });
  }, /^Cannot open layer "sub": /],
  ["scope-disposed", "a registration through a disposed scope", () => {
    const scope = new SystemPrompt().scope("o");
    scope.dispose();
    scope.section({ name: "s", order: 0, text: "" });
  }],
  ["provider-failed", "a variable provider that throws", () => {
    const prompt = new SystemPrompt();
    prompt.scope("o").variable("v", boom);
    return prompt.assemble();
  }, /its provider threw: boom$/],
  ["provider-failed", "a text function whose promise rejects", () => {
    const prompt = new SystemPrompt();
    prompt.scope("o").section({
      name: "s",
      order: 0,
      text: () => Promise.reject(new Error("no")),
    });
    return prompt.assemble();
  }, /rejected: no$/],
  ["provider-failed", "a tool provider whose result throws when read", () => {
    const prompt = new SystemPrompt();
    prompt.scope("o").tools(revoked);
    return prompt.assemble();
  }, /reading what its tool provider returned threw/],
  [
    "handler-failed",
    "a handler that throws",
    () => withHandler(boom),
    /it threw: boom$/,
  ],
  [
    "handler-failed",
    "a handler that returns a revoked proxy",
    () => withHandler(revoked),
  ],
  [
    "listener-failed",
    "a change listener that throws",
    () => {
      let reported: unknown;
      const prompt = new SystemPrompt({
        onListenerError: (e) => (reported = e),
      });
      prompt.scope("watcher").on("system-prompt/change", function audit() {
        throw new Error("boom");
      });
      prompt.variable("x", () => "");
      throw reported;
    },
    /^Cannot notify "system-prompt\/change" listener "audit" of "watcher": it threw on register of variable "x": boom$/,
  ],
  ["invalid-value", "a variable provider's number", () => {
    const prompt = new SystemPrompt();
    prompt.scope("o").variable("v", () => 1 as never);
    return prompt.assemble();
  }],
  [
    "invalid-value",
    "a handler's result that is no assembly",
    () => withHandler(() => 5),
  ],
  [
    "invalid-value",
    "a handler's sections that are a number",
    () => withHandler((a) => void (a.sections = 5 as never)),
    /its sections are a number, not an array/,
  ],
  [
    "invalid-value",
    "a handler's tools that are an object",
    () => withHandler((a) => void (a.tools = {} as never)),
    /its tools are an object, not an array/,
  ],
  [
    "invalid-value",
    "a handler's variables that are a number",
    () => withHandler((a) => void (a.variables = 42 as never)),
    /its variables are a number, not an object/,
  ],
  [
    "invalid-value",
    "a non-string variable value at render",
    () => renderPrompt(one("{{v}}", { v: 1 })),
  ],
  [
    "invalid-value",
    "an assembly that is a revoked proxy",
    () => renderPrompt(revoked()),
  ],
  [
    "invalid-value",
    "tools that are not an array, explained",
    () => explainPrompt({ ...one(""), tools: {} as never }),
  ],
  ["duplicate-tool", "two tools with one name", () => {
    const prompt = new SystemPrompt();
    prompt.scope("a").tools(() => [tool("t")]);
    prompt.scope("b").tools(() => [tool("t")]);
    return prompt.assemble();
  }],
  [
    "unknown-variable",
    "a reference to no variable",
    () => renderPrompt(one("{{modle}}", { model: "m" })),
    /did you mean "model"\?/,
  ],
  [
    "missing-value",
    "a variable without value",
    () => renderPrompt(one("{{v}}", { v: undefined })),
  ],
  [
    "malformed-reference",
    "a group that is no reference",
    () => renderPrompt(one("{{1x}}")),
  ],
  ["orphan-item", "an item whose list is not live", () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "tools", order: 0, text: "", list: {} });
    prompt.scope("o").item("tols", { name: "i", order: 0, text: "" });
    return prompt.assemble();
  }],
  ["unknown-layer", "a layer key no live layer has", () => {
    const prompt = new SystemPrompt();
    prompt.layer("reviewer");
    return prompt.assemble({}, { layer: "reveiwer" });
  }],
  ["multiple-complete", "two complete sections", () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "", complete: true });
    prompt.section({ name: "b", order: 1, text: "", complete: true });
    return prompt.assemble();
  }],
  [
    "tool-changed",
    "a pinned tool whose definition changed",
    () => {
      const pinned = tool("bash");
      const prompt = new SystemPrompt({
        toolPins: { bash: toolFingerprint(pinned) },
      });
      prompt.scope("o").tools(() => [{ ...pinned, description: "changed" }]);
      return prompt.assemble();
    },
    /^Cannot list tool "bash" of "o": it changed: its fingerprint is [0-9a-f]{64}, its pin [0-9a-f]{64}$/,
  ],
  [
    "aborted",
    "an aborted signal",
    () => new SystemPrompt().assemble({}, { signal: AbortSignal.abort() }),
  ],
  [
    "invalid-option",
    "an adapter's reserve out of range",
    () => toAnthropic(one(""), { cache: { reserve: -1 } }),
    /^Cannot plan cache breakpoints: reserve must be/,
  ],
  [
    "invalid-option",
    "a countTokens that throws",
    () => toAnthropic(one("text"), { countTokens: boom }),
  ],
  [
    "invalid-option",
    "toAISDK without jsonSchema",
    () => toAISDK(one(""), {} as never),
  ],
  [
    "invalid-option",
    "a message TTL that is neither 5m nor 1h",
    () =>
      cacheAnthropicMessages(toAnthropic(one("")), [], { ttl: "2h" as never }),
  ],
  [
    "invalid-value",
    "a ledger step without an adapter's request",
    () =>
      new CacheLedger().record(one(""), { request: {}, usage: {} } as never),
  ],
  [
    "invalid-value",
    "a usage of no provider's shape",
    () => readUsage({ tokens: 1 } as never),
  ],
  [
    "invalid-option",
    "an MCP server without a name",
    () => mcpTools({ listTools: () => Promise.resolve({ tools: [] }) }),
  ],
];

/** TypeErrors of registration: the same grammar. */
const TYPE_ERRORS: [label: string, trigger: Trigger, says?: RegExp][] = [
  [
    "an empty layer key",
    () => new SystemPrompt().layer(""),
    /^Cannot add layer: its key is "", not a non-empty string$/,
  ],
  [
    "a layer key that is a number",
    () => new SystemPrompt().layer(5 as never),
    /its key is a number, not a non-empty string/,
  ],
  [
    "a layer parent that is a number",
    () => new SystemPrompt().layer("k", { parent: 5 as never }),
    /^Cannot add layer "k": its parent is a number, not a string$/,
  ],
  [
    "a section name that is not a string",
    () => new SystemPrompt().section({ name: 5 as never, order: 0, text: "" }),
  ],
  [
    "a prompt separator that is not a string",
    () => new SystemPrompt({ separator: 5 as never }),
    /its separator is a number, not a string/,
  ],
  ["a scope owner that is empty", () => new SystemPrompt().scope("")],
  ["an unknown event", () => new SystemPrompt().on("nope" as never, () => {})],
  [
    "a tool provider that is not a function",
    () => new SystemPrompt().tools(5 as never),
  ],
  [
    "a toolOrder that is not an array",
    () => new SystemPrompt({ toolOrder: "a" as never }),
  ],
  [
    "a toolOrder entry that is not a string",
    () => new SystemPrompt({ toolOrder: [5] as never }),
    /^Cannot create SystemPrompt: toolOrder entry 0 is a number, not a string$/,
  ],
  [
    "an onToolChanged that is not a function",
    () => new SystemPrompt({ onToolChanged: 5 as never }),
  ],
  [
    "a section that is not an object",
    () => new SystemPrompt().section(5 as never),
    /^Cannot add section: /,
  ],
  [
    "a section order of another JS type",
    () =>
      new SystemPrompt().section({ name: "s", order: "1", text: "" } as never),
    /^Cannot add section "s" of the root registry: its order is "1"/,
  ],
  [
    "a variable provider that is not a function",
    () => new SystemPrompt().scope("o").variable("v", 5 as never),
    /^Cannot add variable "v" of "o": expected a function, got a number$/,
  ],
  [
    "an item provider that is not a function",
    () => new SystemPrompt().items(["tools", "b"], 5 as never),
    /^Cannot add item provider of list "tools" > "b": /,
  ],
  [
    "an item list that is no list path",
    () =>
      new SystemPrompt().item([1] as never, { name: "i", order: 0, text: "" }),
  ],
  [
    "tool provider options that are not an object",
    () => new SystemPrompt().scope("o").tools(() => [], 5 as never),
    /^Cannot add tool provider of "o": /,
  ],
  [
    "a tool stability that is not a string",
    () => new SystemPrompt().tools(() => [], { stability: 5 as never }),
    /^Cannot add tool provider of the root registry: /,
  ],
  [
    "a scope owner that is a number",
    () => new SystemPrompt().scope(5 as never),
  ],
  [
    "step options that are not an object",
    () => new SystemPrompt().assemble({}, 5 as never),
    /^Cannot assemble prompt: its options are a number, not an object$/,
  ],
  [
    "a step layer that is a number",
    () => new SystemPrompt().assemble({}, { layer: 5 as never }),
  ],
  [
    "escapeTemplate of a number",
    () => escapeTemplate(5 as never),
  ],
  [
    "maxBreakpoints that is a string",
    () => cacheBlocks(one(""), { maxBreakpoints: "2" as never }),
  ],
];

/** The error a trigger throws or rejects with. */
async function caught(trigger: Trigger): Promise<unknown> {
  try {
    await trigger();
  } catch (error) {
    return error;
  }
  assert.fail("the trigger threw nothing");
}

/** The fields a message names, quoted, whenever the error carries them. */
const NAMED = [
  "section",
  "context",
  "item",
  "variable",
  "tool",
  "handler",
  "owner",
  "layer",
] as const;

/** Checks `message` against the grammar: `Cannot <action> <where>: <state>`. */
function assertGrammar(message: string): void {
  assert.match(
    message,
    /^Cannot [a-z]+\b[^]*?: \S/,
    "Cannot <action> <where>: <state>",
  );
  // Names are quoted: what stays is the sentence around them.
  const words = message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"');
  const head = words.slice(0, words.indexOf(": "));
  assert.doesNotMatch(
    head,
    /\b(?:in|of|to|at|on|for|with|by|what)$/,
    "the where is cut short",
  );
  assert.doesNotMatch(
    head,
    /\b(\w+) (?:in|of) \1 /,
    "a word repeats as its own place",
  );
  assert.doesNotMatch(
    message,
    /\bgot (?:string|number|object|boolean|undefined)\b/,
    "a type where a value belongs",
  );
  assert.doesNotMatch(message, /\s$|\s{2}|\.\.(?!\.)/, "stray spacing");
}

describe("every message the library produces", () => {
  it("has a row for every code of PromptErrorCode", () => {
    const source = readFileSync(join(repoRoot(), "src/core/errors.ts"), "utf8");
    const body = /export type PromptErrorCode =([^;]+);/.exec(source)![1]!;
    const codes = new Set<string>();
    for (
      const member of body.split(/\n\s*\|/).map((m) => m.trim()).filter(Boolean)
    ) {
      const plain = /^\|?\s*"([^"]+)"$/.exec(member);
      if (plain) {
        codes.add(plain[1]!);
        continue;
      }
      // A template: `invalid-${"section" | "context"}`, one choice or more.
      const template = /^\|?\s*`(.*)`$/.exec(member)![1]!;
      let expanded = [""];
      for (const piece of template.split(/(\$\{[^}]+\})/)) {
        const choices = piece.startsWith("${")
          ? [...piece.matchAll(/"([^"]+)"/g)].map((m) => m[1]!)
          : [piece];
        expanded = expanded.flatMap((head) => choices.map((c) => head + c));
      }
      expanded.forEach((code) => codes.add(code));
    }
    assert.ok(codes.size >= 20, `read ${codes.size} codes`);
    const rows = new Set(ROWS.map(([code]) => code));
    assert.deepEqual(
      [...codes].filter((code) => !rows.has(code)),
      [],
      "codes without a row",
    );
    assert.deepEqual(
      [...rows].filter((code) => !codes.has(code)),
      [],
      "rows of no code",
    );
  });

  for (const [code, label, trigger, says] of ROWS) {
    it(`${code} (${label}) reads "Cannot <action> <where>: <state>" and names its fields`, async () => {
      const error = await caught(trigger);
      assert.ok(error instanceof PromptError, String(error));
      assert.equal(error.code, code);
      assertGrammar(error.message);
      for (const field of NAMED) {
        const value: string | undefined = error[field];
        if (value !== undefined) {
          assert.ok(
            error.message.includes(JSON.stringify(value)),
            `the message names its ${field} ${
              JSON.stringify(value)
            }: ${error.message}`,
          );
        }
      }
      if (says) assert.match(error.message, says);
    });
  }

  it("are all built by src/core/_messages.ts", () => {
    // The one exception mirrors JSON.stringify's own error for a BigInt.
    const mirrored = 'new TypeError("Do not know how to serialize a BigInt")';
    const builders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".ts")) {
          const file = relative(repoRoot(), path);
          if (file === join("src", "core", "_messages.ts")) continue;
          const text = readFileSync(path, "utf8").replaceAll(mirrored, "");
          // Code only: JSDoc examples build errors as a user would.
          const code = text.replace(/^\s*\*.*$/gm, "");
          for (
            const match of code.matchAll(/new (?:Prompt|Type|Range)Error\(/g)
          ) {
            builders.push(`${file}: ${match[0]}`);
          }
        }
      }
    };
    walk(join(repoRoot(), "src"));
    assert.deepEqual(builders, []);
  });

  for (const [label, trigger, says] of TYPE_ERRORS) {
    it(`the TypeError for ${label} reads "Cannot <action> <where>: <state>"`, async () => {
      const error = await caught(trigger);
      assert.ok(error instanceof TypeError, String(error));
      assertGrammar(error.message);
      if (says) assert.match(error.message, says);
    });
  }
});
