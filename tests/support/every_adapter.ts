// Every adapter, each by its name, with the options it needs beyond the
// common ones (the AI SDK's jsonSchema helper, the Bedrock profile).
import {
  type AdapterOptions,
  BEDROCK,
  toAISDK,
  toAnthropic,
  toBedrock,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
} from "@dsh/system-prompt/adapters";

/** An adapter as a test calls it: a source and the common options. */
export type Adapt = (
  source: Parameters<typeof toAnthropic>[0],
  options?: AdapterOptions,
) => object & { plan: unknown; contextMessage?: unknown };

const jsonSchema = (schema: object) => ({ jsonSchema: schema });

/** Every adapter, by name. */
export const EVERY_ADAPTER: readonly (readonly [string, Adapt])[] = [
  ["toAnthropic", toAnthropic],
  ["toOpenAIResponses", toOpenAIResponses],
  ["toOpenAIChat", toOpenAIChat],
  ["toBedrock", toBedrock],
  ["toGemini", toGemini],
  ["toAISDK", (s, o) => toAISDK(s, { ...o, jsonSchema })],
  [
    "toAISDK (Bedrock)",
    (s, o) => toAISDK(s, { ...o, profile: BEDROCK, jsonSchema }),
  ],
];
