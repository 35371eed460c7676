// One test per row of docs/errors.md "Bad input catalogue", named by its row.
import { describe, it, mock } from "node:test";
import assert from "node:assert/strict";
import {
  PromptError,
  renderPrompt,
  SystemPrompt,
  toolFingerprint,
} from "../mod.ts";
import { assemblyOf } from "./support/assembly.ts";
import { TEMPLATES } from "../src/render/_template.ts";

const boom = new Error("boom");
const fail = () => {
  throw boom;
};
const tool = (name: string) => ({ name, description: "", parameters: {} });

function render(
  text: unknown,
  variables: Record<string, unknown> = {},
): string {
  return renderPrompt(assemblyOf([text], variables));
}

/** The registry rejects `fn`'s registration with `code`, or a TypeError. */
function rejectsRegistration(
  fn: (prompt: SystemPrompt) => unknown,
  code: string | typeof TypeError,
) {
  const prompt = new SystemPrompt();
  if (code === TypeError) assert.throws(() => fn(prompt), TypeError);
  else {assert.throws(() =>
      fn(prompt), (e) =>
      e instanceof PromptError && e.code === code);}
}

async function rejectsAssembly(
  setup: (prompt: SystemPrompt) => void,
  code: string,
  cause?: unknown,
) {
  const prompt = new SystemPrompt();
  setup(prompt);
  await assert.rejects(prompt.assemble(), (error) => {
    assert.ok(error instanceof PromptError);
    assert.equal(error.code, code);
    if (cause !== undefined) assert.equal(error.cause, cause);
    return true;
  });
}

describe("bad-input catalogue: registration", () => {
  it("catalogue R1: a section name that is not a string throws TypeError", () => {
    rejectsRegistration(
      (p) => p.section({ name: 1 as never, order: 0, text: "" }),
      TypeError,
    );
  });
  it("catalogue R2: an empty section name throws invalid-section", () => {
    rejectsRegistration(
      (p) => p.section({ name: "", order: 0, text: "" }),
      "invalid-section",
    );
  });
  it("catalogue R3: an order that is not a number throws TypeError", () => {
    rejectsRegistration(
      (p) => p.section({ name: "a", order: "1" as never, text: "" }),
      TypeError,
    );
  });
  it("catalogue R4: a NaN or infinite order throws invalid-section", () => {
    rejectsRegistration(
      (p) => p.section({ name: "a", order: NaN, text: "" }),
      "invalid-section",
    );
    rejectsRegistration(
      (p) => p.section({ name: "a", order: -Infinity, text: "" }),
      "invalid-section",
    );
  });
  it("catalogue R5: a text that is neither string nor function throws TypeError", () => {
    rejectsRegistration(
      (p) => p.section({ name: "a", order: 0, text: null as never }),
      TypeError,
    );
  });
  it("catalogue R6: a live section name throws duplicate-section naming the owner", () => {
    const prompt = new SystemPrompt();
    prompt.scope("x").section({ name: "a", order: 0, text: "" });
    assert.throws(() => prompt.section({ name: "a", order: 1, text: "" }), {
      name: "PromptError",
      code: "duplicate-section",
      section: "a",
      owner: "x",
      message:
        'Cannot add section "a" of the root registry: "x" already added it',
    });
  });
  it("catalogue R7: a variable name a reference cannot spell throws invalid-variable-name", () => {
    for (const name of ["", "1x", "a b", "a..b", "a-b", "{{a}}"]) {
      rejectsRegistration(
        (p) => p.variable(name, () => ""),
        "invalid-variable-name",
      );
    }
  });
  it("catalogue R8: a live variable name throws duplicate-variable naming the owner", () => {
    const prompt = new SystemPrompt();
    prompt.scope("git").variable("a", () => "");
    assert.throws(() => prompt.scope("other").variable("a", () => ""), {
      name: "PromptError",
      code: "duplicate-variable",
      variable: "a",
      owner: "git",
      message: 'Cannot add variable "a" of "other": "git" already added it',
    });
  });
  it("catalogue R9: a provider or handler that is not a function throws TypeError", () => {
    rejectsRegistration((p) => p.variable("a", "x" as never), TypeError);
    rejectsRegistration((p) => p.tools([] as never), TypeError);
    rejectsRegistration(
      (p) => p.on("system-prompt/assemble", {} as never),
      TypeError,
    );
  });
  it("catalogue R10: an unknown event name throws TypeError", () => {
    rejectsRegistration(
      (p) => p.on("assemble" as never, (() => {}) as never),
      TypeError,
    );
  });
  it("catalogue R11: a scope owner that is not a non-empty string throws TypeError", () => {
    rejectsRegistration((p) => p.scope(""), TypeError);
  });
  it("catalogue R12: registering through a disposed scope throws scope-disposed", () => {
    rejectsRegistration((p) => {
      const scope = p.scope("gone");
      scope.dispose();
      scope.section({ name: "a", order: 0, text: "" });
    }, "scope-disposed");
  });
  it("catalogue R13: calling a disposer again does nothing", async () => {
    const prompt = new SystemPrompt();
    const off = prompt.variable("a", () => "1");
    off();
    prompt.variable("a", () => "2");
    off();
    assert.equal((await prompt.assemble()).variables.a, "2");
  });
});

describe("bad-input catalogue: assembly", () => {
  it("catalogue A1: a throwing section function rejects with provider-failed", async () => {
    await rejectsAssembly(
      (p) => p.section({ name: "a", order: 0, text: fail }),
      "provider-failed",
      boom,
    );
  });
  it("catalogue A2: a section function returning a non-string rejects with invalid-value", async () => {
    await rejectsAssembly(
      (p) => p.section({ name: "a", order: 0, text: () => 1 as never }),
      "invalid-value",
    );
  });
  it("catalogue A3: a throwing variable provider rejects with provider-failed", async () => {
    await rejectsAssembly(
      (p) => p.variable("a", fail),
      "provider-failed",
      boom,
    );
  });
  it("catalogue A4: a variable provider returning a non-string (a number, or a promise of one) rejects with invalid-value", async () => {
    await rejectsAssembly(
      (p) => p.variable("a", () => Promise.resolve(1) as never),
      "invalid-value",
    );
    await rejectsAssembly(
      (p) => p.variable("a", () => 1 as never),
      "invalid-value",
    );
  });
  it("catalogue A5: a throwing tool provider rejects with provider-failed", async () => {
    await rejectsAssembly((p) => p.tools(fail), "provider-failed", boom);
  });
  it("catalogue A6: a tool provider returning a non-array or a nameless tool rejects with invalid-value", async () => {
    await rejectsAssembly((p) => p.tools(() => ({}) as never), "invalid-value");
    await rejectsAssembly(
      (p) => p.tools(() => [{ description: "" }] as never),
      "invalid-value",
    );
  });
  it("catalogue A7: two tools with one name reject with duplicate-tool", async () => {
    await rejectsAssembly((p) => {
      p.tools(() => [tool("bash")]);
      p.tools(() => [tool("bash")]);
    }, "duplicate-tool");
  });
  it("catalogue A8: a throwing or rejecting handler rejects with handler-failed", async () => {
    await rejectsAssembly(
      (p) => p.on("system-prompt/assemble", fail),
      "handler-failed",
      boom,
    );
    await rejectsAssembly(
      (p) => p.on("system-prompt/assemble", () => Promise.reject(boom)),
      "handler-failed",
      boom,
    );
  });
  it("catalogue A9: a handler returning something other than an assembly rejects with invalid-value", async () => {
    await rejectsAssembly(
      (p) => p.on("system-prompt/assemble", () => null as never),
      "invalid-value",
    );
  });
  it("catalogue A10: a throwing change listener is reported as listener-failed and the registration stands", async () => {
    const onListenerError = mock.fn();
    const prompt = new SystemPrompt({ onListenerError });
    prompt.on("system-prompt/change", fail);
    prompt.variable("a", () => "1");
    assert.equal(
      (onListenerError.mock.calls[0]?.arguments[0] as PromptError).code,
      "listener-failed",
    );
    assert.equal((await prompt.assemble()).variables.a, "1");
  });
  it("catalogue A11: after a failure the registry is intact and the next assembly succeeds", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "ok", order: 0, text: "fine" });
    const plugin = prompt.scope("flaky");
    plugin.variable("x", fail);
    await assert.rejects(prompt.assemble(), {
      code: "provider-failed",
      owner: "flaky",
    });
    plugin.dispose();
    assert.equal(renderPrompt(await prompt.assemble()), "fine");
  });
});

describe("bad-input catalogue: rendering", () => {
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as PromptError).code;
    }
    return "rendered";
  };
  it("catalogue P1: a reference to no variable throws unknown-variable with a suggestion", () => {
    assert.throws(() => render("{{modle}}", { model: "m" }), {
      code: "unknown-variable",
      suggestion: "model",
    });
  });
  it("catalogue P2: a reference to a valueless variable throws missing-value", () => {
    assert.equal(
      code(() => render("{{cwd}}", { cwd: undefined })),
      "missing-value",
    );
  });
  it("catalogue P3: an empty group {{}} or {{ }} throws malformed-reference", () => {
    assert.equal(code(() => render("{{}}")), "malformed-reference");
    assert.equal(code(() => render("{{ }}")), "malformed-reference");
  });
  it("catalogue P4: a group with inner spaces {{a b}} throws malformed-reference", () => {
    assert.equal(code(() => render("{{a b}}")), "malformed-reference");
  });
  it("catalogue P5: a name starting with a digit {{1x}} throws malformed-reference", () => {
    assert.equal(code(() => render("{{1x}}")), "malformed-reference");
  });
  it("catalogue P6: an empty dotted segment {{a..b}} throws malformed-reference", () => {
    assert.equal(code(() => render("{{a..b}}")), "malformed-reference");
  });
  it("catalogue P7: prose in braces {{ use braces }} throws malformed-reference", () => {
    assert.equal(
      code(() => render("Write {{ use braces }} here")),
      "malformed-reference",
    );
  });
  it("catalogue P8: a group spanning lines throws malformed-reference", () => {
    assert.equal(
      code(() => render("{{\nmodel\n}}", { model: "m" })),
      "malformed-reference",
    );
  });
  it("catalogue P9: a non-string value set by a handler throws invalid-value", () => {
    assert.equal(code(() => render("{{n}}", { n: 42 })), "invalid-value");
  });
  it("catalogue P10: a non-string section text in an assembly throws invalid-section", () => {
    const assembly = {
      sections: [{ name: "s", order: 0, text: 5 }],
      tools: [],
      variables: {},
    };
    assert.equal(
      code(() => renderPrompt(assembly as never)),
      "invalid-section",
    );
  });
  it("catalogue P11: {{__proto__}}, {{constructor}} or {{toString}} with no such variable throws unknown-variable", () => {
    for (const name of ["__proto__", "constructor", "toString"]) {
      assert.equal(code(() => render(`{{${name}}}`, {})), "unknown-variable");
    }
  });
  it("catalogue P12: lone braces, {{{ runs and a group left open render verbatim", () => {
    assert.equal(render("a {{ b } c }} d {"), "a {{ b } c }} d {");
    assert.equal(render("{{{x}}}", { x: "v" }), "{v}");
  });
});

describe("bad-input catalogue: huge input", () => {
  const MB = "{".repeat(1 << 20);
  it("catalogue H1: 1 MB of {, }, {{ x or one open group renders verbatim in linear time", () => {
    assert.equal(render(MB), MB);
    assert.equal(render("{{ " + "x".repeat(1 << 20)).length, 3 + (1 << 20));
  });
  it("catalogue H2: 1 MB of \\{{ renders as {{", () => {
    assert.equal(render("\\{{".repeat(1 << 18)), "{{".repeat(1 << 18));
  });
  it("catalogue H3: 10,000 sections and 10,000 variables assemble and render", async () => {
    const prompt = new SystemPrompt();
    for (let i = 0; i < 10_000; i++) {
      prompt.variable(`v${i}`, () => "x");
      prompt.section({ name: `s${i}`, order: i, text: `{{v${i}}}` });
    }
    assert.equal(renderPrompt(await prompt.assemble()).length, 10_000 * 3 - 2);
  });
  it("catalogue H4: texts that change every step never grow the parse cache past its bound", () => {
    const cache = TEMPLATES;
    const bound = cache.maxSize;
    for (let i = 0; i < 20_000; i++) render(`{{x}} ${i}`, { x: "" });
    assert.ok(cache.size <= bound, `${cache.size} texts cached`);
    assert.equal(cache.maxSize, bound, "never read again: no growth");
    assert.equal(render("{{x}} 19999", { x: "y" }), "y 19999");
  });
});

describe("bad-input catalogue: rejections, odd thrown values, and tools or handler results that are not plain data", () => {
  it("catalogue A12: a provider whose promise rejects is provider-failed, the rejection as cause", async () => {
    for (
      const setup of [
        (p: SystemPrompt) =>
          p.variable("v", () => Promise.reject(boom) as never),
        (p: SystemPrompt) =>
          p.section({
            name: "s",
            order: 0,
            text: () => Promise.reject(boom) as never,
          }),
        (p: SystemPrompt) => p.tools(() => Promise.reject(boom) as never),
      ]
    ) {
      const prompt = new SystemPrompt();
      setup(prompt);
      await assert.rejects(prompt.assemble(), (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, "provider-failed");
        assert.equal(error.cause, boom);
        assert.match(error.message, /rejected: /);
        return true;
      });
    }
  });
  it("catalogue A13: user code that throws a value that cannot be shown gets its PromptError with the value as cause", async () => {
    const odd = Object.create(null);
    await rejectsAssembly(
      (p) => p.section({ name: "s", order: 0, text: () => odd }),
      "invalid-value",
    );
    const thrown = {
      toString() {
        throw boom;
      },
    };
    await rejectsAssembly(
      (p) =>
        p.variable("v", () => {
          throw thrown;
        }),
      "provider-failed",
      thrown,
    );
    await rejectsAssembly(
      (p) =>
        p.on("system-prompt/assemble", () => {
          throw odd;
        }),
      "handler-failed",
      odd,
    );
  });
  it("catalogue A14: a tool whose name getter throws is provider-failed", async () => {
    await rejectsAssembly(
      (p) =>
        p.tools(() => [{
          get name(): string {
            throw boom;
          },
          description: "",
          parameters: {},
        }]),
      "provider-failed",
      boom,
    );
  });
  it("catalogue A15: a handler result whose getter throws is invalid-value naming the handler", async () => {
    await rejectsAssembly(
      (p) =>
        p.on("system-prompt/assemble", () =>
          ({
            get sections() {
              throw boom;
            },
          }) as never),
      "invalid-value",
      boom,
    );
  });
  it("catalogue A16: a handler that edits tool parameters in place is handler-failed", async () => {
    await rejectsAssembly((p) => {
      p.tools(() => [{ ...tool("t"), parameters: { type: "object" } }]);
      p.on("system-prompt/assemble", (assembly) => {
        delete (assembly.tools[0]!.parameters as Record<string, unknown>).type;
      });
    }, "handler-failed");
  });
  it("catalogue A17: tool parameters that cannot be frozen are invalid-value", async () => {
    await rejectsAssembly(
      (p) =>
        p.tools(() => [{ ...tool("t"), parameters: { a: new Uint8Array(1) } }]),
      "invalid-value",
    );
  });
  it("catalogue A18: a handler that leaves a non-tool in tools is invalid-value", async () => {
    await rejectsAssembly((p) =>
      p.on("system-prompt/assemble", (assembly) => {
        assembly.tools.push(7 as never);
      }), "invalid-value");
  });
  it("catalogue A19: a throwing onListenerError goes to console.error; the registration stands", () => {
    const prompt = new SystemPrompt({ onListenerError: fail });
    prompt.on("system-prompt/change", fail);
    const consoleError = mock.method(console, "error", () => {});
    try {
      prompt.variable("x", () => "1");
      assert.equal(consoleError.mock.callCount(), 1);
    } finally {
      consoleError.mock.restore();
    }
    assert.equal(prompt.registrations().variables.length, 1);
  });
  it("catalogue A20: tool parameters that are not JSON data (a cycle, a BigInt, a class instance) reject with invalid-value naming the tool", async () => {
    const parameters: Record<string, unknown> = {};
    parameters.self = parameters;
    for (const bad of [parameters, { n: 1n }, { at: new Date() }]) {
      const prompt = new SystemPrompt();
      prompt.scope("mcp").tools(() => [{ ...tool("t"), parameters: bad }]);
      await assert.rejects(prompt.assemble({}, { audit: true }), {
        code: "invalid-value",
        tool: "t",
        owner: "mcp",
      });
    }
  });
  it("catalogue A21: a handler's tools whose item answers differently on a second read is invalid-value", async () => {
    const prompt = new SystemPrompt();
    prompt.tools(() => [tool("a"), tool("b")]);
    prompt.scope("shifty").on("system-prompt/assemble", (assembly) => {
      const [first] = assembly.tools;
      let reads = 0;
      assembly.tools = new Proxy([first!, tool("c")], {
        get(target, key, receiver) {
          if (key !== "0") return Reflect.get(target, key, receiver);
          return ++reads === 1 ? first : tool("z");
        },
      });
    });
    await assert.rejects(prompt.assemble(), {
      name: "PromptError",
      code: "invalid-value",
      message: /item 0 of tools changed while it was checked/,
    });
  });
  it("catalogue P13: an unknown reference before a malformed group is the error reported", () => {
    assert.throws(() => render("{{usr}} {{ }}", { user: "u" }), {
      code: "unknown-variable",
      column: 1,
    });
    assert.throws(() => render("{{ }} {{usr}}", { user: "u" }), {
      code: "malformed-reference",
      column: 1,
    });
  });
});

describe("bad-input catalogue: agents, async and the waterfall's result", () => {
  it("catalogue A22: an unknown layer key, or a broken parent chain, rejects with unknown-layer and a suggestion", async () => {
    const prompt = new SystemPrompt();
    prompt.layer("reviewer");
    await assert.rejects(prompt.assemble({}, { layer: "reveiwer" }), {
      code: "unknown-layer",
      suggestion: "reviewer",
      message: /did you mean "reviewer"\?$/,
    });
    prompt.layer("sub", { parent: "gone" });
    await assert.rejects(prompt.assemble({}, { layer: "sub" }), {
      code: "unknown-layer",
    });
  });
  it("catalogue A23: two live complete sections reject with multiple-complete", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "a", order: 0, text: "A", complete: true });
    prompt.section({ name: "b", order: 1, text: "B", complete: true });
    await assert.rejects(prompt.assemble(), { code: "multiple-complete" });
  });
  it("catalogue A24: an abort rejects with aborted at once, the reason as cause", async () => {
    const prompt = new SystemPrompt();
    prompt.variable("slow", () => new Promise<string>(() => {}));
    const controller = new AbortController();
    const pending = prompt.assemble({}, { signal: controller.signal });
    const reason = new Error("user pressed escape");
    controller.abort(reason);
    await assert.rejects(pending, (error) => {
      assert.ok(error instanceof PromptError);
      assert.equal(error.code, "aborted");
      assert.equal(error.cause, reason);
      return true;
    });
  });
  it("catalogue A25: a handler that leaves an invalid assembly rejects with the field table's code, naming the handler", async () => {
    const prompt = new SystemPrompt();
    prompt.section({ name: "s", order: 0, text: "x" });
    prompt.scope("h").on("system-prompt/assemble", function breaker(a) {
      a.sections[0]!.order = NaN;
    });
    await assert.rejects(prompt.assemble(), {
      code: "invalid-section",
      handler: "breaker",
      owner: "h",
    });
  });
  it("catalogue A26: a toolOrder without exactly one rest entry is invalid-option; a tool named after it is invalid-value", async () => {
    assert.throws(() => new SystemPrompt({ toolOrder: ["a"] }), {
      code: "invalid-option",
    });
    const prompt = new SystemPrompt();
    prompt.tools(() => [tool("<unlisted-tools>")]);
    await assert.rejects(prompt.assemble(), { code: "invalid-value" });
  });
  it("catalogue A27: a read inside tool parameters that throws is invalid-value naming the tool, its owner and the path", async () => {
    const parameters = {
      get type(): string {
        throw 7;
      },
    };
    const prompt = new SystemPrompt();
    prompt.scope("mcp").tools(() => [{ ...tool("t"), parameters }]);
    await assert.rejects(prompt.assemble(), {
      code: "invalid-value",
      tool: "t",
      owner: "mcp",
      cause: 7,
      message:
        'Cannot list tool "t" of "mcp": its parameters threw at parameters.type when read: 7',
    });
  });
  it("catalogue A28: a pinned tool whose fingerprint changed is tool-changed; bad toolPins are invalid-option", async () => {
    const pin = toolFingerprint(tool("t"));
    const prompt = new SystemPrompt({ toolPins: { t: pin } });
    prompt.tools(() => [{ ...tool("t"), description: "new" }]);
    await assert.rejects(prompt.assemble(), {
      code: "tool-changed",
      pinned: pin,
    });
    assert.throws(() => new SystemPrompt({ toolPins: { t: "x" } }), {
      code: "invalid-option",
    });
  });
  it("catalogue A29: a non-boolean deferLoading is invalid-value; an unknown tool stability is invalid-option", async () => {
    await rejectsAssembly(
      (p) => p.tools(() => [{ ...tool("t"), deferLoading: "yes" as never }]),
      "invalid-value",
    );
    rejectsRegistration(
      (p) => p.tools(() => [], { stability: "step" as never }),
      "invalid-option",
    );
    rejectsRegistration(
      (p) => p.tools(() => [], { stability: 1 as never }),
      TypeError,
    );
  });
});
