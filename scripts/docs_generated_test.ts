// The generated parts of docs/ are what scripts/api_docs.ts writes: the API
// tables of docs/api.md (from `deno doc --json`) and the error-code table of
// docs/errors.md (from the JSDoc of `PromptErrorCode`). A Deno-only test in
// the docs stage: it runs `deno doc` and `deno fmt`.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { generatedPages, typeCodes } from "./api_docs.ts";

describe("the generated parts of docs/", () => {
  it("docs/api.md and docs/errors.md hold what `deno task docs:generate` writes", async () => {
    for (const page of await generatedPages()) {
      assert.ok(
        page.current === page.generated,
        `${page.path} is stale: run \`deno task docs:generate\``,
      );
    }
  });

  it("reads the codes of a union with template literal members", () => {
    const source = 'export type PromptErrorCode =\n  | `bad-${"a" | "b"}`\n' +
      '  | "gone"\n  | `${"x" | "y"}-failed`;\n';
    assert.deepEqual(typeCodes(source), [
      "bad-a",
      "bad-b",
      "gone",
      "x-failed",
      "y-failed",
    ]);
  });
});
