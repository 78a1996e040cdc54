/** The choices a client makes besides the image and languages (spec: mode and translator values). */

export const MODES = ["general", "manga", "e-commerce", "light-novel"] as const;
export type Mode = (typeof MODES)[number];
export const DEFAULT_MODE: Mode = "general";

export const TRANSLATORS = ["grok", "gemini", "deepseek", "kimi", "chatgpt", "claude"] as const;
export type Translator = (typeof TRANSLATORS)[number];
export const DEFAULT_TRANSLATOR: Translator = "grok";

export const CUSTOM_PROMPT_MAX = 1000;
