// The same classes of bad input give a PromptError at every entry point
// that reads an assembly: parts whose owner or layer is not a string,
// values that throw when read (a revoked proxy, throwing getters), arrays
// that are not arrays, primitives where an object belongs.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  ContextChannel,
  type PromptAssembly,
  PromptError,
  renderContext,
  renderPrompt,
  SystemPrompt,
} from "../mod.ts";
import {
  cacheBlocks,
  checkPrompt,
  comparePrompts,
  explainPrompt,
} from "../inspect.ts";
import { inspectorPage } from "../page.ts";
import { checkable } from "./support/checkable.ts";

const valid = (): PromptAssembly => ({
  sections: [{ name: "s", order: 0, text: "S" }],
  contexts: [{ name: "c", order: 0, text: "C" }],
  tools: [{ name: "t", description: "T", parameters: {} }],
  variables: {},
});

/** Every entry point that takes an assembly, by name. */
const ENTRY_POINTS: Record<string, (assembly: PromptAssembly) => unknown> = {
  renderPrompt,
  renderContext,
  explainPrompt,
  "comparePrompts (next)": (a) => comparePrompts(valid(), a),
  "comparePrompts (previous)": (a) => comparePrompts(a, valid()),
  cacheBlocks,
  inspectorPage,
  "inspectorPage (previous)": (a) => inspectorPage(valid(), { previous: a }),
  "ContextChannel.next": (a) => new ContextChannel().next(a),
};

/** Which sequence each entry point renders: the prompt, the context or both. */
const READS: Record<string, "section" | "context" | "both"> = {
  renderPrompt: "section",
  renderContext: "context",
  "ContextChannel.next": "context",
  cacheBlocks: "section",
};

function revoked(): never {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy as never;
}

function throwing(): never {
  throw new Error("getter boom");
}

/** Assemblies that hold each class of bad input, and what each is. */
const BAD: [string, () => PromptAssembly][] = [
  ["a revoked proxy as the assembly", revoked],
  ["a revoked proxy as a section", () => ({
    ...valid(),
    sections: [revoked()],
  })],
  ["a revoked proxy as a context entry", () => ({
    ...valid(),
    contexts: [revoked()],
  })],
  ["a revoked proxy as variables", () => ({
    ...valid(),
    variables: revoked(),
  })],
  ["a revoked proxy as tools", () => ({ ...valid(), tools: revoked() })],
  ["a revoked proxy as a tool", () => ({ ...valid(), tools: [revoked()] })],
  ["a revoked proxy as a list's items", () => ({
    ...valid(),
    sections: [{ name: "l", order: 0, text: "", list: {}, items: revoked() }],
  })],
  [
    "a throwing sections getter",
    () => Object.defineProperty(valid(), "sections", { get: throwing }),
  ],
  [
    "a throwing contexts getter",
    () => Object.defineProperty(valid(), "contexts", { get: throwing }),
  ],
  [
    "a throwing tools getter",
    () => Object.defineProperty(valid(), "tools", { get: throwing }),
  ],
  ["a throwing text getter", () => ({
    ...valid(),
    sections: [Object.defineProperty({ name: "s", order: 0 }, "text", {
      get: throwing,
      enumerable: true,
    }) as never],
  })],
  ["a throwing variable value getter", () => ({
    ...valid(),
    sections: [{ name: "s", order: 0, text: "{{x}}" }],
    variables: Object.defineProperty({}, "x", {
      get: throwing,
      enumerable: true,
    }),
  })],
  ["a throwing tool name getter", () => ({
    ...valid(),
    tools: [Object.defineProperty({ description: "", parameters: {} }, "name", {
      get: throwing,
      enumerable: true,
    }) as never],
  })],
  ["tools that are an object", () => ({ ...valid(), tools: {} as never })],
  ["tools that are a Map", () => ({ ...valid(), tools: new Map() as never })],
  ["tools that are { length: 0 }", () => ({
    ...valid(),
    tools: { length: 0 } as never,
  })],
  ["sections that are { length: 1 }", () => ({
    ...valid(),
    sections: { length: 1 } as never,
  })],
  ["contexts that are a string", () => ({
    ...valid(),
    contexts: "c" as never,
  })],
  ["variables that are a number", () => ({
    ...valid(),
    variables: 42 as never,
  })],
  ["variables that are a string", () => ({
    ...valid(),
    variables: "abc" as never,
  })],
  ["a number as the assembly", () => 42 as never],
  ["a number as a section", () => ({ ...valid(), sections: [1 as never] })],
];

/** Parts whose owner or layer is not a string, and the code they get. */
const PROVENANCE: [string, () => PromptAssembly, string, string][] = [];
for (const shadows of [5, { owner: 5 }, { layer: {} }]) {
  PROVENANCE.push([
    `a section that shadows ${JSON.stringify(shadows)}`,
    () => ({
      ...valid(),
      sections: [{ name: "s", order: 0, text: "S", shadows: shadows as never }],
    }),
    "invalid-section",
    "section",
  ]);
}
for (const field of ["owner", "layer"]) {
  for (const value of [5, {}, null]) {
    const label = `${field} ${JSON.stringify(value)}`;
    PROVENANCE.push(
      [
        `a section with ${label}`,
        () => ({
          ...valid(),
          sections: [{ name: "s", order: 0, text: "S", [field]: value }],
        }),
        "invalid-section",
        "section",
      ],
      [
        `a context entry with ${label}`,
        () => ({
          ...valid(),
          contexts: [{ name: "c", order: 0, text: "C", [field]: value }],
        }),
        "invalid-context",
        "context",
      ],
      [
        `an item with ${label}`,
        () => ({
          ...valid(),
          sections: [{
            name: "l",
            order: 0,
            text: "L:",
            list: {},
            items: [{ name: "i", order: 0, text: "I", [field]: value }],
          }],
        }),
        "invalid-item",
        "section",
      ],
    );
  }
}

function onlyPromptErrors(run: () => unknown): PromptError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof PromptError, `threw ${String(error)}`);
    assert.match(error.message, /^Cannot [a-z]/);
    return error;
  }
}

describe("every entry point that reads an assembly", () => {
  for (const [entry, run] of Object.entries(ENTRY_POINTS)) {
    for (const [label, make] of BAD) {
      it(`${entry} throws nothing but a PromptError for ${label}`, () => {
        onlyPromptErrors(() => run(make()));
      });
    }
    for (const [label, make, code, kind] of PROVENANCE) {
      const reads = READS[entry] ?? "both";
      if (reads !== "both" && reads !== kind) continue;
      it(`${entry} throws ${code} for ${label}`, () => {
        const error = onlyPromptErrors(() => run(make()));
        assert.equal(error?.code, code);
        assert.match(
          error!.message,
          /its (owner|layer|shadows(\.owner|\.layer)?) is .*, not (a string|an object)/,
        );
        // An owner of the wrong type is no owner: not the root registry either.
        if (label.includes(" with owner")) {
          assert.doesNotMatch(error!.message, /root registry/);
        }
      });
    }
  }
});

describe("entry points that read tools", () => {
  const readers = Object.entries(ENTRY_POINTS).filter(([entry]) =>
    /explain|compare|inspector/.test(entry)
  );
  for (const [entry, run] of readers) {
    for (const tools of [{}, new Map(), { length: 0 }, "", undefined]) {
      const label = tools instanceof Map ? "a Map" : JSON.stringify(tools);
      it(`${entry} throws invalid-value for tools that are ${label}, never a silent []`, () => {
        const error = onlyPromptErrors(() =>
          run({ ...valid(), tools: tools as never })
        );
        assert.equal(error?.code, "invalid-value");
        assert.match(error!.message, /its tools are .*, not an array/);
      });
    }
  }

  it("checkPrompt reports tools that are not an array as an error", async () => {
    const diagnostics = await checkPrompt(
      checkable(() => ({ ...valid(), tools: { length: 0 } as never })),
    );
    assert.deepEqual(diagnostics.map((d) => [d.code, d.severity]), [
      ["invalid-value", "error"],
    ]);
  });
});

describe("checkPrompt on the same assemblies", () => {
  for (const [label, make] of [...BAD, ...PROVENANCE]) {
    it(`reports ${label} as a diagnostic, not a failed check`, async () => {
      const diagnostics = await checkPrompt(checkable(make));
      assert.ok(
        diagnostics.every((d) => d.code !== "check-failed"),
        JSON.stringify(diagnostics),
      );
    });
  }

  for (const [label, make, code] of PROVENANCE) {
    it(`reports ${label} as ${code}`, async () => {
      const diagnostics = await checkPrompt(checkable(make));
      assert.ok(
        diagnostics.some((d) => d.code === code && d.severity === "error"),
        JSON.stringify(diagnostics),
      );
    });
  }
});

describe("assemble() after a handler leaves a part's owner or layer of the wrong type", () => {
  for (const field of ["owner", "layer"]) {
    it(`rejects a section whose ${field} is a number with invalid-section, naming the handler`, async () => {
      const prompt = new SystemPrompt();
      prompt.section({ name: "s", order: 0, text: "S" });
      prompt.scope("h").on("system-prompt/assemble", function bad(assembly) {
        Object.assign(assembly.sections[0]!, { [field]: 5 });
      });
      for (const step of [() => prompt.assemble(), () => prompt.render()]) {
        await assert.rejects(step(), {
          code: "invalid-section",
          handler: "bad",
          owner: "h",
          message: new RegExp(`its ${field} is 5, not a string`),
        });
      }
    });
  }
});

describe("step options of the wrong type", () => {
  const bad: [string, unknown, RegExp][] = [
    ["a number", 42, /its options are a number, not an object/],
    ["a string", "abc", /its options are a string, not an object/],
    ["null", null, /its options are null, not an object/],
    ["a layer that is a number", { layer: 5 }, /its layer is a number/],
    ["a layer that is an array", { layer: [] }, /its layer is an array/],
    ["a signal that is a number", { signal: 5 }, /its signal is a number/],
    ["a signal that is a plain object", { signal: {} }, /not an AbortSignal/],
    ["an audit option that is a string", { audit: "yes" }, /not a boolean/],
  ];
  for (const [label, options, says] of bad) {
    for (const run of ["assemble", "render"] as const) {
      it(`${run}() rejects ${label} as options with a TypeError, never ignoring it`, async () => {
        const prompt = new SystemPrompt();
        prompt.section({ name: "s", order: 0, text: "S" });
        await assert.rejects(prompt[run]({}, options as never), (error) => {
          assert.ok(error instanceof TypeError, String(error));
          assert.match(error.message, /^Cannot assemble prompt: /);
          assert.match(error.message, says);
          return true;
        });
      });
    }
  }

  for (
    const [label, options] of [
      ["a number", 42],
      ["contexts that are an object", { contexts: {} }],
      ["contexts that are a string", { contexts: "ab" }],
    ] as const
  ) {
    it(`checkPrompt reports ${label} as options as a failed check, never ignoring it`, async () => {
      const prompt = new SystemPrompt();
      prompt.section({ name: "s", order: 0, text: "S" });
      const diagnostics = await checkPrompt(prompt, {}, options as never);
      assert.deepEqual(diagnostics.map((d) => d.code), ["check-failed"]);
      assert.match(diagnostics[0]!.message, /^Cannot check the prompt: its /);
    });
  }
});

describe("options that throw when read", () => {
  const hostile: [string, () => never][] = [
    ["a revoked proxy", revoked],
    [
      "an object whose getters throw",
      () => new Proxy({}, { get: throwing, has: throwing }) as never,
    ],
  ];
  for (const [label, make] of hostile) {
    for (const run of ["assemble", "render"] as const) {
      it(`${run}() rejects ${label} as options with invalid-value`, async () => {
        const prompt = new SystemPrompt();
        await assert.rejects(prompt[run]({}, make()), {
          name: "PromptError",
          code: "invalid-value",
          message: /^Cannot assemble prompt: reading its options threw: /,
        });
      });
    }
    it(`cacheBlocks and inspectorPage throw invalid-value for ${label} as options`, () => {
      for (const run of [cacheBlocks, inspectorPage] as const) {
        assert.throws(() => run(valid(), make()), {
          name: "PromptError",
          code: "invalid-value",
          message: /reading its options threw/,
        });
      }
    });
    it(`checkPrompt reports ${label} as options as a failed check`, async () => {
      const diagnostics = await checkPrompt(new SystemPrompt(), {}, make());
      assert.deepEqual(diagnostics.map((d) => d.code), ["check-failed"]);
    });
  }
});
