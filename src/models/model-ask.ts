/**
 * What the pipeline asks a model, whatever its vendor: the types both sides share. The pipeline
 * builds these; src/models/ sends them over each vendor's wire protocol.
 */

export interface ModelAsk {
	system: string;
	/** The user message's text (for translating: the contract's input JSON). */
	text: string;
	/** The reader copy, or the image shown for context. */
	image?: SentImage;
	/** Root property of the answer: tells the two tasks apart (DESIGN.md). */
	root: "regions" | "translations";
	schema: object;
	/** The most output tokens the answer may take; also bounds how long a runaway answer can run. */
	maxTokens: number;
}

export interface SentImage {
	mime: "image/jpeg";
	base64: string;
	width: number;
	height: number;
}
