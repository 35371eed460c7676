import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isAssembly } from "../src/core/_is_assembly.ts";

describe("isAssembly()", () => {
  it("accepts sections and tools arrays with a variables object, and nothing else", () => {
    assert.ok(
      isAssembly({ sections: [], tools: [], variables: Object.create(null) }),
    );
    for (
      const bad of [null, 1, [], { sections: [] }, {
        sections: [],
        tools: [],
        variables: null,
      }]
    ) {
      assert.ok(!isAssembly(bad), JSON.stringify(bad));
    }
  });
});
