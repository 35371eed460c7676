// explainPrompt lists each section's variables in first-use order, and does
// so in time linear in the references (SPEC §4: linear in the text). Speed is
// not asserted here (no wall clock in tests): the input is large enough that
// the former quadratic scan (`names.includes` per reference) took 35 s for
// 80,000 distinct references; the answer must stay exact.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { explainPrompt } from "../inspect.ts";

describe("explainPrompt variables of a text with many references", () => {
  it("lists 20,000 distinct names once each, in first-use order", () => {
    const count = 20_000;
    const variables: Record<string, string> = Object.create(null);
    const names: string[] = [];
    let text = "";
    for (let i = 0; i < count; i++) {
      const name = `v${(i * 7919) % count}`;
      names.push(name);
      variables[name] = "x";
      // Each name twice: the repeat must not be listed again.
      text += `{{${name}}} {{ ${name} }} `;
    }
    const [section] = explainPrompt({
      sections: [{ name: "s", order: 0, text }],
      tools: [],
      variables,
    }).sections;
    assert.deepEqual(section!.variables, names);
  });
});
