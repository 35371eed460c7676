// ContextChannel: the runtime context text only on the steps where it
// changed since the last one sent, again after reset(), one memory per
// channel.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { PromptAssembly } from "../src/core/types.ts";
import { ContextChannel } from "../src/render/context_channel.ts";

const at = (time: string | undefined, extra = ""): PromptAssembly => ({
  sections: [{ name: "persona", order: 0, text: "Be brief." }],
  contexts: [
    { name: "clock", order: 0, text: "{{time}}" },
    { name: "extra", order: 1, text: extra },
  ],
  tools: [],
  variables: { time },
});

describe("ContextChannel", () => {
  it("returns the context text when it changed since the last one it returned, undefined otherwise", () => {
    const channel = new ContextChannel();
    assert.equal(channel.next(at("9:00")), "9:00");
    assert.equal(channel.next(at("9:00")), undefined);
    assert.equal(channel.next(at("9:00", "todo")), "9:00\n\ntodo");
    assert.equal(channel.next(at("9:05", "todo")), "9:05\n\ntodo");
    assert.equal(channel.next(at("9:05", "todo")), undefined);
  });

  it("sends again after reset()", () => {
    const channel = new ContextChannel();
    assert.equal(channel.next(at("9:00")), "9:00");
    channel.reset();
    assert.equal(channel.next(at("9:00")), "9:00");
    assert.equal(channel.next(at("9:00")), undefined);
  });

  it('reports a context that cleared as "" once, and sends the facts again when they come back', () => {
    const channel = new ContextChannel();
    const none: PromptAssembly = { sections: [], tools: [], variables: {} };
    assert.equal(channel.next(at("9:00")), "9:00");
    // Every entry renders empty: the facts the model last saw are gone.
    assert.equal(channel.next(at("")), "");
    assert.equal(channel.next(none), undefined);
    assert.equal(channel.next(""), undefined);
    assert.equal(channel.next(at("9:00")), "9:00");
    assert.equal(channel.next(""), "");
  });

  it("has nothing to report for an empty context before any text was sent, or after reset()", () => {
    const channel = new ContextChannel();
    const none: PromptAssembly = { sections: [], tools: [], variables: {} };
    assert.equal(channel.next(none), undefined);
    assert.equal(channel.next(at("")), undefined);
    assert.equal(channel.next(at("9:00")), "9:00");
    channel.reset();
    assert.equal(channel.next(none), undefined);
    assert.equal(channel.next(at("9:00")), "9:00");
  });

  it("takes the context text of a rendered step as well as an assembly", () => {
    const channel = new ContextChannel();
    assert.equal(channel.next("Branch: main"), "Branch: main");
    assert.equal(channel.next(at("Branch: main")), undefined);
    assert.equal(channel.next("Branch: dev"), "Branch: dev");
    assert.equal(channel.next(""), "");
  });

  it("changes nothing when the render throws", () => {
    const channel = new ContextChannel();
    assert.equal(channel.next(at("9:00")), "9:00");
    assert.throws(() => channel.next(at(undefined)), {
      code: "missing-value",
      context: "clock",
    });
    assert.equal(channel.next(at("9:00")), undefined);
  });

  it("keeps one memory per channel", () => {
    const main = new ContextChannel();
    const sub = new ContextChannel();
    assert.equal(main.next(at("9:00")), "9:00");
    assert.equal(sub.next(at("9:00")), "9:00");
    assert.equal(main.next(at("9:00")), undefined);
  });
});
