/** A request the service refuses before accepting it: answered with `{"detail": ...}` and never charged. */
export class RequestError extends Error {
	constructor(
		readonly status: 400 | 413 | 422,
		readonly detail: string,
	) {
		super(detail);
		this.name = "RequestError";
	}
}

export function invalidField(name: string): RequestError {
	return new RequestError(422, `Invalid field: ${name}`);
}
