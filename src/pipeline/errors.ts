/**
 * A failure the client may read. `detail` is written for the client and never
 * carries a secret; `status` is 500 unless the input itself turned out bad
 * (a corrupt image found only when decoding: 422 on `imageBase64`).
 */
export class PipelineError extends Error {
	constructor(
		readonly detail: string,
		readonly status: 422 | 500 = 500,
		options?: ErrorOptions,
	) {
		super(detail, options);
		this.name = "PipelineError";
	}
}
