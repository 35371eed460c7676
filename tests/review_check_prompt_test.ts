// checkPrompt "never rejects" (its contract) and says what renderPrompt
// would throw: here for layouts a handler left broken (SPEC §7, issue #11
// "check() diagnoses, never rejects").
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  type PromptAssembly,
  PromptError,
  renderPrompt,
  SystemPrompt,
} from "../mod.ts";
import { checkPrompt } from "../inspect.ts";

type Breakage = (assembly: PromptAssembly) => void;

/** A list `l` (owner "loop") with item `a`, then a section `s` (owner "docs"). */
function promptWith(breakage: Breakage): SystemPrompt {
  const prompt = new SystemPrompt();
  prompt.scope("loop").section({ name: "l", order: 0, text: "H", list: {} });
  prompt.scope("loop").item("l", { name: "a", order: 0, text: "A" });
  prompt.scope("docs").section({ name: "s", order: 1, text: "S" });
  prompt.on("system-prompt/assemble", (assembly) => breakage(assembly));
  return prompt;
}

const BROKEN: readonly (readonly [string, Breakage, string, string])[] = [
  [
    "a null list item",
    (a) => {
      a.sections[0]!.items!.push(null as never);
    },
    "invalid-section",
    "l",
  ],
  [
    "a section literal flag that is a string",
    (a) => {
      a.sections[1]!.literal = "yes" as never;
    },
    "invalid-section",
    "s",
  ],
  [
    "a section trim flag that is a number",
    (a) => {
      a.sections[1]!.trim = 0 as never;
    },
    "invalid-section",
    "s",
  ],
  [
    "a section separator that is a number",
    (a) => {
      a.sections[1]!.separator = 5 as never;
    },
    "invalid-section",
    "s",
  ],
];

describe("checkPrompt with a layout a handler broke", () => {
  for (const [label, breakage, code, section] of BROKEN) {
    it(`reports ${label} as ${code} on "${section}", without rejecting`, async () => {
      const prompt = promptWith(breakage);
      // What the diagnostic stands for: rendering this assembly throws.
      assert.throws(
        () => renderPrompt(brokenAssembly(breakage)),
        PromptError,
      );
      const diagnostics = await checkPrompt(prompt);
      const found = diagnostics.filter((d) => d.severity === "error");
      assert.deepEqual(found.map((d) => [d.code, d.section]), [[
        code,
        section,
      ]]);
    });
  }

  it("reports a prompt-wide separator that is not a string as invalid-value", async () => {
    const prompt = promptWith((a) => {
      a.separator = 5 as never;
    });
    const diagnostics = await checkPrompt(prompt);
    assert.deepEqual(
      diagnostics.filter((d) => d.severity === "error").map((d) => d.code),
      ["invalid-value"],
    );
  });
});

/** The broken assembly, built by hand as the handler leaves it. */
function brokenAssembly(breakage: Breakage): PromptAssembly {
  const assembly: PromptAssembly = {
    sections: [
      {
        name: "l",
        order: 0,
        text: "H",
        owner: "loop",
        list: {},
        items: [{ name: "a", order: 0, text: "A", owner: "loop" }],
      },
      { name: "s", order: 1, text: "S", owner: "docs" },
    ],
    tools: [],
    variables: Object.create(null),
  };
  breakage(assembly);
  return assembly;
}
