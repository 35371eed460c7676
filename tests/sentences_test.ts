// sentences(): how checkPrompt cuts text into the sentences it compares when
// it looks for one sentence under two owners.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { sentences } from "../src/inspect/_sentences.ts";

describe("sentences()", () => {
  it("splits at . ! ? and keeps sentences of five words or more, normalised", () => {
    assert.deepEqual(
      sentences(
        "Be brief.  Check the exit\ncode of every command! Is this a long question? Ok",
      ),
      ["check the exit code of every command!", "is this a long question?"],
    );
  });
});
